"""jq's parser: paths, iteration, pipes, commas, construction, comparisons and
arithmetic, `if`, `reduce`, `as $x`, as tuples such as `("pipe", left, right)`."""

from typing import Any

from cove_guest.commands.jq.errors import JqError
from cove_guest.commands.jq.lexer import lex

# A token, (kind, value), and a node of the tree: a tuple whose first item names its kind.
Token = tuple[str, Any]
Node = tuple[Any, ...]


class Parser:
    """A recursive-descent parser over `lex(src)`, jq's precedence from `pipe` down."""

    def __init__(self, src: str) -> None:
        self.t = lex(src)
        self.i = 0

    def peek(self) -> Token:
        return self.t[self.i]

    def take(self, value: str | None = None) -> Token:
        tok = self.t[self.i]
        if value is not None and tok[1] != value:
            raise JqError(f"syntax error, expected '{value}' but got '{tok[1]}'")
        self.i += 1
        return tok

    def is_op(self, *v: str) -> bool:
        return self.peek()[0] == "op" and self.peek()[1] in v

    def is_kw(self, *v: str) -> bool:
        return self.peek()[0] == "ident" and self.peek()[1] in v

    def parse(self) -> Node:
        e = self.pipe()
        if self.peek()[0] != "eof":
            raise JqError(f"syntax error, unexpected '{self.peek()[1]}'")
        return e

    def pipe(self) -> Node:
        if self.is_kw("def"):
            raise JqError("function definitions (def) are not supported")
        left = self.comma()
        if self.is_kw("as"):
            self.take()
            self.take("$")
            name = self.take()[1]
            self.take("|")
            body = self.pipe()
            return ("as", left, name, body)
        if self.is_op("|"):
            self.take()
            return ("pipe", left, self.pipe())
        return left

    def comma(self) -> Node:
        left = self.alt()
        while self.is_op(","):
            self.take()
            left = ("comma", left, self.alt())
        return left

    def alt(self) -> Node:
        left = self.assign()
        while self.is_op("//"):
            self.take()
            left = ("alt", left, self.assign())
        return left

    def assign(self) -> Node:
        left = self.or_()
        if self.is_op("|=", "+=", "-=", "="):
            op = self.take()[1]
            return ("update", op, left, self.or_())
        return left

    def or_(self) -> Node:
        left = self.and_()
        while self.is_kw("or"):
            self.take()
            left = ("or", left, self.and_())
        return left

    def and_(self) -> Node:
        left = self.cmp()
        while self.is_kw("and"):
            self.take()
            left = ("and", left, self.cmp())
        return left

    def cmp(self) -> Node:
        left = self.add()
        if self.is_op("==", "!=", "<", "<=", ">", ">="):
            op = self.take()[1]
            left = ("cmp", op, left, self.add())
        return left

    def add(self) -> Node:
        left = self.mul()
        while self.is_op("+", "-"):
            op = self.take()[1]
            left = ("arith", op, left, self.mul())
        return left

    def mul(self) -> Node:
        left = self.postfix()
        while self.is_op("*", "/", "%"):
            op = self.take()[1]
            left = ("arith", op, left, self.postfix())
        return left

    def postfix(self) -> Node:
        node = self.term()
        while True:
            if self.is_op("."):
                nxt = self.t[self.i + 1]
                if nxt[0] == "ident":
                    self.take()
                    node = ("pipe", node, ("field", self.take()[1]))
                    continue
                if nxt[0] == "str":
                    self.take()
                    node = ("pipe", node, ("field", self._plain(self.take()[1])))
                    continue
                if nxt == ("op", "["):
                    self.take()
                    continue
                break
            if self.is_op("["):
                node = ("pipe", node, self.bracket())
                continue
            if self.is_op("?"):
                self.take()
                node = ("try", node)
                continue
            break
        return node

    def bracket(self) -> Node:
        self.take("[")
        if self.is_op("]"):
            self.take()
            return ("iter",)
        if self.is_op(":"):
            self.take()
            hi = self.pipe()
            self.take("]")
            return ("slice", None, hi)
        idx = self.pipe()
        if self.is_op(":"):
            self.take()
            upper = None if self.is_op("]") else self.pipe()
            self.take("]")
            return ("slice", idx, upper)
        self.take("]")
        return ("index", idx)

    def _plain(self, parts: list[tuple[str, Any]]) -> str:
        if any(kind == "interp" for kind, _ in parts):
            raise JqError("interpolated field names are not supported")
        return "".join(v for _, v in parts)

    def term(self) -> Node:
        kind, value = self.peek()
        if kind == "op" and value == "..":
            self.take()
            return ("recurse",)
        if kind == "op" and value == ".":
            self.take()
            nxt = self.peek()
            if nxt[0] == "ident":
                self.take()
                return ("field", nxt[1])
            if nxt[0] == "str":
                self.take()
                return ("field", self._plain(nxt[1]))
            if nxt == ("op", "["):
                return self.bracket()
            return ("identity",)
        if kind == "num":
            self.take()
            return ("const", value)
        if kind == "str":
            self.take()
            return ("string", value)
        if kind == "format":
            self.take()
            if self.peek()[0] == "str":
                return ("fmtstring", value, self.take()[1])
            return ("format", value)
        if kind == "op" and value == "-":
            self.take()
            return ("neg", self.postfix())
        if kind == "op" and value == "(":
            self.take()
            e = self.pipe()
            self.take(")")
            return e
        if kind == "op" and value == "[":
            self.take()
            if self.is_op("]"):
                self.take()
                return ("array", None)
            e = self.pipe()
            self.take("]")
            return ("array", e)
        if kind == "op" and value == "{":
            return self.obj()
        if kind == "op" and value == "$":
            self.take()
            return ("var", self.take()[1])
        if kind == "ident":
            self.take()
            if value in ("true", "false", "null"):
                return ("const", {"true": True, "false": False, "null": None}[value])
            if value == "if":
                return self.if_()
            if value == "try":
                body = self.postfix()
                handler = None
                if self.is_kw("catch"):
                    self.take()
                    handler = self.postfix()
                return ("try", body) if handler is None else ("trycatch", body, handler)
            if value == "reduce":
                src = self.postfix()
                if not self.is_kw("as"):
                    raise JqError("syntax error in reduce")
                self.take()
                self.take("$")
                name = self.take()[1]
                self.take("(")
                init = self.pipe()
                self.take(";")
                update = self.pipe()
                self.take(")")
                return ("reduce", src, name, init, update)
            args = []
            if self.is_op("("):
                self.take()
                args.append(self.pipe())
                while self.is_op(";"):
                    self.take()
                    args.append(self.pipe())
                self.take(")")
            return ("call", value, args)
        raise JqError(f"syntax error, unexpected '{value}'")

    def if_(self) -> Node:
        cond = self.pipe()
        if not self.is_kw("then"):
            raise JqError("syntax error: expected then")
        self.take()
        then = self.pipe()
        if self.is_kw("elif"):
            self.take()
            else_ = self.if_()
            return ("if", cond, then, else_)
        else_ = ("identity",)
        if self.is_kw("else"):
            self.take()
            else_ = self.pipe()
        if not self.is_kw("end"):
            raise JqError("syntax error: expected end")
        self.take()
        return ("if", cond, then, else_)

    def obj(self) -> Node:
        self.take("{")
        entries = []
        shorthand: tuple[str, Any] | None
        while not self.is_op("}"):
            kind, value = self.peek()
            if kind == "ident":
                self.take()
                key = ("const", value)
                shorthand = ("field", value)
            elif kind == "str":
                self.take()
                key = ("string", value)
                shorthand = (
                    ("field", self._plain(value)) if all(k == "lit" for k, _ in value) else None
                )
            elif kind == "op" and value == "$":
                self.take()
                name = self.take()[1]
                key = ("const", name)
                shorthand = ("var", name)
            elif kind == "op" and value == "(":
                self.take()
                key = self.pipe()
                self.take(")")
                shorthand = None
            else:
                raise JqError(f"syntax error in object construction near '{value}'")
            if self.is_op(":"):
                self.take()
                val = self.alt_no_comma()
            else:
                if shorthand is None:
                    raise JqError("syntax error: object key needs a value")
                val = shorthand
            entries.append((key, val))
            if self.is_op(","):
                self.take()
        self.take("}")
        return ("object", entries)

    def alt_no_comma(self) -> Node:
        left = self.alt()
        if self.is_op("|"):
            self.take()
            return ("pipe", left, self.alt_no_comma())
        return left

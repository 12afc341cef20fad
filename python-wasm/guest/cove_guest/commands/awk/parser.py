"""awk's parser: a program of pattern-action items and functions, as tuples
such as `("bin", op, left, right)`."""

from typing import Any

from cove_guest.commands.awk.errors import AwkError
from cove_guest.commands.awk.lexer import lex

# A token, (kind, value), and a node of the tree: a tuple whose first item names its kind.
Token = tuple[str, Any]
Node = tuple[Any, ...]


class Parser:
    """A recursive-descent parser over `lex(src)`, awk's precedence from `expr` down."""

    def __init__(self, src: str) -> None:
        self.t = lex(src)
        self.i = 0

    def peek(self, k: int = 0) -> Token:
        return self.t[min(self.i + k, len(self.t) - 1)]

    def take(self, value: str | None = None) -> Token:
        tok = self.t[self.i]
        if value is not None and tok[1] != value:
            raise AwkError(f"syntax error: expected '{value}' near '{tok[1]}'")
        self.i += 1
        return tok

    def is_op(self, *values: str) -> bool:
        return self.peek()[0] == "op" and self.peek()[1] in values

    def skip_nl(self) -> None:
        while self.peek()[0] == "nl" or self.is_op(";"):
            self.take()

    def skip_newlines(self) -> None:
        while self.peek()[0] == "nl":
            self.take()

    def program(self) -> tuple[list[Node], dict[str, Node]]:
        items: list[Node] = []
        funcs: dict[str, Node] = {}
        self.skip_nl()
        while self.peek()[0] != "eof":
            tok = self.peek()
            if tok == ("kw", "BEGIN") or tok == ("kw", "END"):
                self.take()
                self.skip_newlines()
                items.append((tok[1], None, self.block()))
            elif tok[0] == "kw" and tok[1] in ("function", "func"):
                self.take()
                name = self.take()[1]
                self.take("(")
                params = []
                while not self.is_op(")"):
                    params.append(self.take()[1])
                    if self.is_op(","):
                        self.take()
                        self.skip_newlines()
                self.take(")")
                self.skip_newlines()
                funcs[name] = (params, self.block())
            else:
                pattern = None
                if not self.is_op("{"):
                    first = self.expr()
                    pattern = first
                    if self.is_op(","):
                        self.take()
                        self.skip_newlines()
                        pattern = ("range", first, self.expr())
                body = self.block() if self.is_op("{") else [("print", [], None)]
                items.append(("main", pattern, body))
            self.skip_nl()
        return items, funcs

    def block(self) -> list[Node]:
        self.take("{")
        stmts: list[Node] = []
        self.skip_nl()
        while not self.is_op("}"):
            stmts.append(self.statement())
            self.skip_nl()
        self.take("}")
        return stmts

    def simple_or_block(self) -> list[Node]:
        self.skip_newlines()
        if self.is_op("{"):
            return self.block()
        stmt = self.statement()
        if self.is_op(";"):
            self.take()
        return [stmt]

    def statement(self) -> Node:
        tok = self.peek()
        if tok == ("op", "{"):
            return ("block", self.block())
        if tok[0] == "kw":
            kw = tok[1]
            if kw == "if":
                self.take()
                self.take("(")
                cond = self.expr()
                self.take(")")
                then = self.simple_or_block()
                save = self.i
                self.skip_nl()
                if self.peek() == ("kw", "else"):
                    self.take()
                    return ("if", cond, then, self.simple_or_block())
                self.i = save
                return ("if", cond, then, None)
            if kw == "while":
                self.take()
                self.take("(")
                cond = self.expr()
                self.take(")")
                return ("while", cond, self.simple_or_block())
            if kw == "do":
                self.take()
                body = self.simple_or_block()
                self.skip_nl()
                self.take("while")
                self.take("(")
                cond = self.expr()
                self.take(")")
                return ("do", body, cond)
            if kw == "for":
                self.take()
                self.take("(")
                if self.peek()[0] == "name" and self.peek(1) == ("kw", "in"):
                    var = self.take()[1]
                    self.take()
                    arr = self.take()[1]
                    self.take(")")
                    return ("forin", var, arr, self.simple_or_block())
                init = None if self.is_op(";") else self.expr()
                self.take(";")
                self.skip_newlines()
                test = None if self.is_op(";") else self.expr()
                self.take(";")
                self.skip_newlines()
                step = None if self.is_op(")") else self.expr()
                self.take(")")
                return ("for", init, test, step, self.simple_or_block())
            if kw in ("next", "break", "continue", "nextfile"):
                self.take()
                return (kw,)
            if kw == "exit":
                self.take()
                value = (
                    None if self.peek()[0] in ("nl", "eof") or self.is_op(";", "}") else self.expr()
                )
                return ("exit", value)
            if kw == "return":
                self.take()
                value = (
                    None if self.peek()[0] in ("nl", "eof") or self.is_op(";", "}") else self.expr()
                )
                return ("return", value)
            if kw == "delete":
                self.take()
                name = self.take()[1]
                if self.is_op("["):
                    self.take()
                    keys = self.exprlist()
                    self.take("]")
                    return ("delete", name, keys)
                return ("delete", name, None)
            if kw in ("print", "printf"):
                self.take()
                args = []
                parens = False
                if self.is_op("(") and self._paren_is_arglist():
                    self.take()
                    args = self.exprlist(no_gt=False)
                    self.take(")")
                    parens = True
                elif not (self.peek()[0] in ("nl", "eof") or self.is_op(";", "}", ">", ">>", "|")):
                    args = self.exprlist(no_gt=True)
                dest = None
                if self.is_op(">", ">>", "|"):
                    mode = self.take()[1]
                    dest = (mode, self.concat(no_gt=True))
                _ = parens
                return (kw, args, dest)
            if kw == "getline":
                raise AwkError("getline is not supported")
        return ("expr", self.expr())

    def _paren_is_arglist(self) -> bool:
        depth = 0
        k = self.i
        while k < len(self.t):
            kind, value = self.t[k]
            if kind == "op" and value in ("(", "["):
                depth += 1
            elif kind == "op" and value in (")", "]"):
                depth -= 1
                if depth == 0:
                    nxt = self.t[k + 1]
                    return nxt[0] in ("nl", "eof") or nxt in (
                        ("op", ";"),
                        ("op", "}"),
                        ("op", ">"),
                        ("op", ">>"),
                        ("op", "|"),
                    )
            k += 1
        return False

    def exprlist(self, no_gt: bool = False) -> list[Node]:
        items = [self.expr(no_gt)]
        while self.is_op(","):
            self.take()
            self.skip_newlines()
            items.append(self.expr(no_gt))
        return items

    def expr(self, no_gt: bool = False) -> Node:
        return self.ternary(no_gt)

    def ternary(self, no_gt: bool) -> Node:
        cond = self.or_(no_gt)
        if self.is_op("?"):
            self.take()
            self.skip_newlines()
            a = self.ternary(no_gt)
            self.skip_newlines()
            self.take(":")
            self.skip_newlines()
            b = self.ternary(no_gt)
            return ("?:", cond, a, b)
        if self.is_op("=", "+=", "-=", "*=", "/=", "%=", "^=") and cond[0] in (
            "var",
            "field",
            "index",
        ):
            op = self.take()[1]
            self.skip_newlines()
            return ("assign", op, cond, self.ternary(no_gt))
        return cond

    def or_(self, no_gt: bool) -> Node:
        left = self.and_(no_gt)
        while self.is_op("||"):
            self.take()
            self.skip_newlines()
            left = ("||", left, self.and_(no_gt))
        return left

    def and_(self, no_gt: bool) -> Node:
        left = self.in_(no_gt)
        while self.is_op("&&"):
            self.take()
            self.skip_newlines()
            left = ("&&", left, self.in_(no_gt))
        return left

    def in_(self, no_gt: bool) -> Node:
        left = self.match(no_gt)
        while self.peek() == ("kw", "in"):
            self.take()
            left = ("in", left, self.take()[1])
        return left

    def match(self, no_gt: bool) -> Node:
        left = self.rel(no_gt)
        while self.is_op("~", "!~"):
            op = self.take()[1]
            left = (op, left, self.rel(no_gt))
        return left

    def rel(self, no_gt: bool) -> Node:
        left = self.concat(no_gt)
        ops = ("<", "<=", "!=", "==", ">=") if no_gt else ("<", "<=", "!=", "==", ">", ">=")
        if self.is_op(*ops):
            op = self.take()[1]
            left = ("cmp", op, left, self.concat(no_gt))
        return left

    def concat(self, no_gt: bool = False) -> Node:
        left = self.additive()
        while self._starts_operand():
            left = ("concat", left, self.additive())
        return left

    def _starts_operand(self) -> bool:
        kind, value = self.peek()
        if kind in ("num", "str", "name", "builtin", "funcname", "re"):
            return True
        # A leading + or - after an operand is arithmetic, never the start of a concatenation.
        return kind == "op" and value in ("$", "!", "(", "++", "--")

    def additive(self) -> Node:
        left = self.mul()
        while self.is_op("+", "-"):
            op = self.take()[1]
            left = ("bin", op, left, self.mul())
        return left

    def mul(self) -> Node:
        left = self.unary()
        while self.is_op("*", "/", "%"):
            op = self.take()[1]
            left = ("bin", op, left, self.unary())
        return left

    def unary(self) -> Node:
        if self.is_op("!"):
            self.take()
            return ("not", self.unary())
        if self.is_op("-"):
            self.take()
            return ("neg", self.unary())
        if self.is_op("+"):
            self.take()
            return ("num", self.unary())
        return self.power()

    def power(self) -> Node:
        base = self.postfix()
        if self.is_op("^", "**"):
            self.take()
            return ("bin", "^", base, self.unary())
        return base

    def postfix(self) -> Node:
        if self.is_op("++", "--"):
            op = self.take()[1]
            target = self.postfix()
            return ("preinc", op, target)
        node = self.primary()
        if self.is_op("++", "--") and node[0] in ("var", "field", "index"):
            op = self.take()[1]
            return ("postinc", op, node)
        return node

    def primary(self) -> Node:
        kind, value = self.take()
        if kind == "num":
            return ("const", value)
        if kind == "str":
            return ("const", value)
        if kind == "re":
            return ("regex", value)
        if kind == "op" and value == "$":
            return ("field", self.postfix_primary())
        if kind == "op" and value == "(":
            e = self.expr()
            if self.is_op(","):
                items = [e]
                while self.is_op(","):
                    self.take()
                    items.append(self.expr())
                self.take(")")
                if self.peek() == ("kw", "in"):
                    self.take()
                    return ("in", ("multikey", items), self.take()[1])
                raise AwkError("syntax error: unexpected ','")
            self.take(")")
            return ("group", e)
        if kind == "builtin":
            args = []
            if self.is_op("("):
                self.take()
                if not self.is_op(")"):
                    args = self.exprlist()
                self.take(")")
            return ("call", value, args)
        if kind == "funcname":
            self.take("(")
            args = [] if self.is_op(")") else self.exprlist()
            self.take(")")
            return ("ucall", value, args)
        if kind == "name":
            if self.is_op("["):
                self.take()
                keys = self.exprlist()
                self.take("]")
                return ("index", value, keys)
            return ("var", value)
        if kind == "kw" and value == "getline":
            raise AwkError("getline is not supported")
        raise AwkError(f"syntax error at source line 1 near '{value}'")

    def postfix_primary(self) -> Node:
        if self.is_op("++", "--"):
            return self.postfix()
        kind, value = self.peek()
        if kind == "op" and value == "-":
            self.take()
            return ("neg", self.postfix_primary())
        return self.primary()

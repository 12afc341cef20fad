"""Shell arithmetic (`$(( ))`, `(( ))`, `let`, C-style `for`): integers, C operators and
assignments."""

from collections.abc import Callable
from typing import Any

# A variable's value as the shell holds it (None: unset), and how a value is stored back.
Getter = Callable[[str], str | None]
Setter = Callable[[str, int], object]
# (kind, value): ("num", int), ("name", str), ("op", str), ("end", None).
Token = tuple[str, Any]


class ArithError(Exception):
    """A syntax error or a division by zero, worded as bash words it."""


_OPS3 = ("<<=", ">>=", "**=")


_OPS2 = (
    "**",
    "<<",
    ">>",
    "<=",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "++",
    "--",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "&=",
    "|=",
    "^=",
)


_OPS1 = "+-*/%<>&|^!~?:=(),"


def _tokens(src: str) -> list[Token]:
    i, n = 0, len(src)
    out: list[Token] = []
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
            continue
        if c.isdigit():
            j = i
            while j < n and (src[j].isalnum() or src[j] in "#_"):
                j += 1
            out.append(("num", _number(src[i:j])))
            i = j
            continue
        if c.isalpha() or c == "_":
            j = i
            while j < n and (src[j].isalnum() or src[j] == "_"):
                j += 1
            if j < n and src[j] == "[":
                # An array element, `a[expr]`: the caller's get and set read the subscript.
                depth = 0
                while j < n:
                    if src[j] == "[":
                        depth += 1
                    elif src[j] == "]":
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
                if j >= n:
                    raise ArithError(f"{src[i:]}: bad array subscript")
                j += 1
            out.append(("name", src[i:j]))
            i = j
            continue
        for group in (_OPS3, _OPS2):
            op = next((o for o in group if src.startswith(o, i)), None)
            if op:
                out.append(("op", op))
                i += len(op)
                break
        else:
            if c in _OPS1:
                out.append(("op", c))
                i += 1
            else:
                raise ArithError(
                    f'syntax error: invalid arithmetic operator (error token is "{src[i:]}")'
                )
    out.append(("end", None))
    return out


def _number(text: str) -> int:
    try:
        if "#" in text:
            base, digits = text.split("#", 1)
            return int(digits, int(base))
        if text.startswith(("0x", "0X")):
            return int(text, 16)
        if len(text) > 1 and text.startswith("0"):
            return int(text, 8)
        return int(text)
    except ValueError:
        raise ArithError(f'{text}: value too great for base (error token is "{text}")') from None


def _wrap(v: int) -> int:
    """`v` as a 64-bit signed integer, wrapping as bash's arithmetic does."""
    v &= (1 << 64) - 1
    return v - (1 << 64) if v >> 63 else v


class _Eval:
    """A recursive-descent evaluator over the tokens, C's precedence from `expr` down."""

    def __init__(self, tokens: list[Token], get: Getter, set_: Setter) -> None:
        self.t = tokens
        self.i = 0
        self.get = get
        self.set = set_

    def peek(self) -> Token:
        return self.t[self.i]

    def take(self, value: str | None = None) -> Token:
        tok = self.t[self.i]
        if value is not None and tok[1] != value:
            raise ArithError(f'syntax error in expression (error token is "{tok[1]}")')
        self.i += 1
        return tok

    def expr(self) -> int:
        v = self.assign()
        while self.peek() == ("op", ","):
            self.take()
            v = self.assign()
        return v

    def assign(self) -> int:
        tok, nxt = self.t[self.i], self.t[self.i + 1] if self.i + 1 < len(self.t) else ("end", None)
        if (
            tok[0] == "name"
            and nxt[0] == "op"
            and nxt[1] in ("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", "**=")
        ):
            self.i += 2
            value = self.assign()
            name = tok[1]
            if nxt[1] != "=":
                value = self.binary(nxt[1][:-1], self.var(name), value)
            self.set(name, value)
            return value
        return self.ternary()

    def ternary(self) -> int:
        cond = self.binop(0)
        if self.peek() == ("op", "?"):
            self.take()
            a = self.assign()
            self.take(":")
            b = self.assign()
            return a if cond else b
        return cond

    LEVELS = (
        ("||",),
        ("&&",),
        ("|",),
        ("^",),
        ("&",),
        ("==", "!="),
        ("<", ">", "<=", ">="),
        ("<<", ">>"),
        ("+", "-"),
        ("*", "/", "%"),
    )

    def binop(self, level: int) -> int:
        if level == len(self.LEVELS):
            return self.power()
        v = self.binop(level + 1)
        while self.peek()[0] == "op" and self.peek()[1] in self.LEVELS[level]:
            op = self.take()[1]
            if op in ("&&", "||"):
                rhs = self.binop(level + 1)
                v = int(bool(v) and bool(rhs)) if op == "&&" else int(bool(v) or bool(rhs))
            else:
                v = self.binary(op, v, self.binop(level + 1))
        return v

    def power(self) -> int:
        base = self.unary()
        if self.peek() == ("op", "**"):
            self.take()
            exp = self.power()
            if exp < 0:
                raise ArithError("exponent less than 0")
            return _wrap(base**exp)
        return base

    def unary(self) -> int:
        tok = self.peek()
        if tok[0] == "op" and tok[1] in ("+", "-", "!", "~"):
            self.take()
            v = self.unary()
            return {"+": v, "-": _wrap(-v), "!": int(not v), "~": ~v}[tok[1]]
        if tok[0] == "op" and tok[1] in ("++", "--"):
            self.take()
            name = self.take()
            if name[0] != "name":
                raise ArithError("syntax error: operand expected")
            v = self.var(name[1]) + (1 if tok[1] == "++" else -1)
            self.set(name[1], v)
            return v
        return self.postfix()

    def postfix(self) -> int:
        tok = self.take()
        if tok[0] == "num":
            return tok[1]
        if tok[0] == "name":
            if self.peek()[0] == "op" and self.peek()[1] in ("++", "--"):
                op = self.take()[1]
                v = self.var(tok[1])
                self.set(tok[1], v + (1 if op == "++" else -1))
                return v
            return self.var(tok[1])
        if tok == ("op", "("):
            v = self.expr()
            self.take(")")
            return v
        if tok[0] == "end":
            raise ArithError('syntax error: operand expected (error token is "")')
        raise ArithError(f'syntax error: operand expected (error token is "{tok[1]}")')

    def var(self, name: str) -> int:
        raw = self.get(name)
        if raw is None or raw == "":
            return 0
        raw = raw.strip()
        try:
            return int(raw)
        except ValueError:
            if raw.lstrip("-").isdigit():
                return int(raw)
            return evaluate(raw, self.get, self.set)

    @staticmethod
    def binary(op: str, a: int, b: int) -> int:
        if op in ("/", "%") and b == 0:
            raise ArithError('division by 0 (error token is "0")')
        if op == "/":
            q = abs(a) // abs(b)
            return _wrap(q if (a >= 0) == (b >= 0) else -q)
        if op == "%":
            r = abs(a) % abs(b)
            return r if a >= 0 else -r
        return _wrap(
            {
                "+": lambda: a + b,
                "-": lambda: a - b,
                "*": lambda: a * b,
                "<<": lambda: a << b,
                ">>": lambda: a >> b,
                "&": lambda: a & b,
                "|": lambda: a | b,
                "^": lambda: a ^ b,
                "==": lambda: int(a == b),
                "!=": lambda: int(a != b),
                "<": lambda: int(a < b),
                ">": lambda: int(a > b),
                "<=": lambda: int(a <= b),
                ">=": lambda: int(a >= b),
                "**": lambda: a**b,
            }[op]()
        )


def evaluate(src: str, get: Getter, set_: Setter) -> int:
    """Evaluate `src`; `get(name)` reads a variable (str or None), `set_(name, int)` writes one."""
    if not src.strip():
        return 0
    ev = _Eval(_tokens(src), get, set_)
    value = ev.expr()
    if ev.peek()[0] != "end":
        raise ArithError(f'syntax error in expression (error token is "{ev.peek()[1]}")')
    return value

"""bc, as GNU bc 1.07 computes: decimal numbers of arbitrary size with a scale (digits after the
point), `scale`, `ibase`, `obase`, `last`; the operators with bc's precedence (assignment above
the comparisons, unary minus above `^`) and its truncating rules for each result's scale;
variables, arrays, `if`/`while`/`for`, `break`/`continue`, `print`, strings, `define` with
`auto` and `return`, `length`, `scale`, `sqrt`, `quit`/`halt`; -l's scale of 20 and its
functions s c a l e j (computed exactly, then truncated: bc's own series may differ in the
last digit). Each line runs once it is read; an error drops the rest of its line.

One module over 500 lines: the lexer, the parser and the evaluator are one small language, and
its number rules (scale and truncation) run through all three.
"""

from __future__ import annotations

import math
import re
from typing import Any

from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError
from cove_guest.text.inputs import decode, read_operand


class Num:
    """m / 10**s, s being the number's scale."""

    __slots__ = ("m", "s")

    def __init__(self, m: int, s: int = 0):
        self.m, self.s = m, s

    def at(self, s: int) -> int:
        """The mantissa at scale s, truncated toward zero."""
        if s >= self.s:
            return self.m * 10 ** (s - self.s)
        return _tdiv(self.m, 10 ** (self.s - s))

    def cut(self, s: int) -> Num:
        return self if s >= self.s else Num(self.at(s), s)

    def cmp(self, other: Num) -> int:
        s = max(self.s, other.s)
        a, b = self.at(s), other.at(s)
        return (a > b) - (a < b)

    def is_zero(self) -> bool:
        return self.m == 0


def _tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


ZERO = Num(0)
ONE = Num(1)


class BcError(Exception):
    """A runtime error: reported, and the rest of the line is dropped."""


class _Quit(Exception):
    pass


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Return(Exception):
    def __init__(self, value: Num):
        super().__init__()
        self.value = value


# ------------------------------------------------------------------------------------ lexing

_TOKEN = re.compile(
    r"""(?P<ws>[ \t\r]+|\\\n|/\*.*?\*/|\#[^\n]*)
      |(?P<num>[0-9A-F]+(?:\.[0-9A-F]*)?|\.[0-9A-F]+)
      |(?P<name>[a-z][a-z0-9_]*)
      |(?P<str>"[^"]*")
      |(?P<op>\+\+|--|\|\||&&|[-+*/%^=!<>]=|[-+*/%^=<>!(){}\[\],;.\n])""",
    re.S | re.X,
)
_KEYWORDS = {
    "if",
    "else",
    "while",
    "for",
    "break",
    "continue",
    "define",
    "return",
    "auto",
    "print",
    "quit",
    "halt",
    "length",
    "sqrt",
    "scale",
    "ibase",
    "obase",
    "last",
    "limits",
    "read",
}


class _Syntax(Exception):
    pass


def _tokens(src: str) -> list[tuple[str, str, int]]:
    out = []
    pos, line = 0, 1
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if not m:
            out.append(("bad", src[pos], line))
            pos += 1
            continue
        kind = m.lastgroup or "ws"
        text = m.group(0)
        if kind != "ws":
            if kind == "name" and text in _KEYWORDS:
                kind = "kw"
            out.append((kind, text, line))
        line += text.count("\n")
        pos = m.end()
    out.append(("eof", "", line))
    return out


# ----------------------------------------------------------------------------------- parsing


class _Parser:
    def __init__(self, tokens: list[tuple[str, str, int]]):
        self.t = tokens
        self.i = 0

    def peek(self, k: int = 0) -> tuple[str, str, int]:
        return self.t[min(self.i + k, len(self.t) - 1)]

    def take(self) -> tuple[str, str, int]:
        tok = self.t[self.i]
        self.i += 1
        return tok

    def at(self, text: str) -> bool:
        kind, value, _ = self.peek()
        return value == text and kind in ("op", "kw")

    def expect(self, text: str) -> None:
        if not self.at(text):
            raise _Syntax
        self.i += 1

    def skip_newlines(self) -> None:
        while self.at("\n"):
            self.i += 1

    # statements

    def statement(self) -> Any:
        kind, value, _ = self.peek()
        if kind == "str":
            self.i += 1
            return ("str", value[1:-1])
        if kind == "kw":
            if value == "if":
                self.i += 1
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                self.skip_newlines()
                then = self.statement()
                save = self.i
                self.skip_newlines()
                if self.at("else"):
                    self.i += 1
                    self.skip_newlines()
                    return ("if", cond, then, self.statement())
                self.i = save
                return ("if", cond, then, None)
            if value == "while":
                self.i += 1
                self.expect("(")
                cond = self.expr()
                self.expect(")")
                self.skip_newlines()
                return ("while", cond, self.statement())
            if value == "for":
                self.i += 1
                self.expect("(")
                parts = []
                for end in (";", ";", ")"):
                    parts.append(None if self.at(end) else self.expr())
                    self.expect(end)
                self.skip_newlines()
                return ("for", *parts, self.statement())
            if value in ("break", "continue", "halt", "limits"):
                self.i += 1
                return (value,)
            if value == "quit":
                raise _Quit
            if value == "return":
                self.i += 1
                if self.at(";") or self.at("\n") or self.at("}") or self.peek()[0] == "eof":
                    return ("return", None)
                return ("return", self.expr())
            if value == "print":
                self.i += 1
                items = []
                while True:
                    if self.peek()[0] == "str":
                        items.append(("strlit", self.take()[1][1:-1]))
                    else:
                        items.append(self.expr())
                    if not self.at(","):
                        break
                    self.i += 1
                return ("print", items)
            if value == "define":
                return self.define()
        if self.at("{"):
            self.i += 1
            body = self.block_body()
            return ("block", body)
        if self.at(";") or self.at("\n"):
            return ("empty",)
        return ("expr", self.expr())

    def block_body(self) -> list[Any]:
        body: list[Any] = []
        while True:
            while self.at(";") or self.at("\n"):
                self.i += 1
            if self.at("}"):
                self.i += 1
                return body
            if self.peek()[0] == "eof":
                raise _Syntax
            body.append(self.statement())

    def define(self) -> Any:
        self.i += 1
        kind, name, _ = self.take()
        if kind != "name":
            raise _Syntax
        self.expect("(")
        params = []
        while not self.at(")"):
            k, p, _ = self.take()
            if k != "name":
                raise _Syntax
            if self.at("["):
                self.i += 1
                self.expect("]")
                p += "[]"
            params.append(p)
            if self.at(","):
                self.i += 1
        self.expect(")")
        self.skip_newlines()
        self.expect("{")
        self.skip_newlines()
        autos = []
        if self.at("auto"):
            self.i += 1
            while True:
                k, a, _ = self.take()
                if k != "name":
                    raise _Syntax
                if self.at("["):
                    self.i += 1
                    self.expect("]")
                    a += "[]"
                autos.append(a)
                if not self.at(","):
                    break
                self.i += 1
        return ("define", name, params, autos, self.block_body())

    # expressions, lowest precedence first: || && ! relational assignment + - * / % ^ unary

    def expr(self) -> Any:
        left = self.and_()
        while self.at("||"):
            self.i += 1
            left = ("||", left, self.and_())
        return left

    def and_(self) -> Any:
        left = self.not_()
        while self.at("&&"):
            self.i += 1
            left = ("&&", left, self.not_())
        return left

    def not_(self) -> Any:
        if self.at("!"):
            self.i += 1
            return ("!", self.not_())
        return self.rel()

    def rel(self) -> Any:
        left = self.assign()
        while self.peek()[1] in ("==", "!=", "<", "<=", ">", ">=") and self.peek()[0] == "op":
            op = self.take()[1]
            left = ("rel", op, left, self.assign())
        return left

    def assign(self) -> Any:
        start = self.i
        target = self.lvalue()
        if target is not None:
            op = self.peek()[1]
            if self.peek()[0] == "op" and op in ("=", "+=", "-=", "*=", "/=", "%=", "^="):
                self.i += 1
                return ("assign", op, target, self.assign())
        self.i = start
        return self.add()

    def lvalue(self) -> Any:
        kind, value, _ = self.peek()
        if kind == "name":
            self.i += 1
            if self.at("["):
                self.i += 1
                index = self.expr()
                self.expect("]")
                return ("elem", value, index)
            if self.at("("):
                self.i -= 1
                return None
            return ("var", value)
        if kind == "kw" and value in ("scale", "ibase", "obase", "last"):
            if self.peek(1)[1] == "(":
                return None
            self.i += 1
            return ("var", value)
        return None

    def add(self) -> Any:
        left = self.mul()
        while self.peek()[1] in ("+", "-") and self.peek()[0] == "op":
            op = self.take()[1]
            left = ("bin", op, left, self.mul())
        return left

    def mul(self) -> Any:
        left = self.power()
        while self.peek()[1] in ("*", "/", "%") and self.peek()[0] == "op":
            op = self.take()[1]
            left = ("bin", op, left, self.power())
        return left

    def power(self) -> Any:
        base = self.unary()
        if self.at("^"):
            self.i += 1
            return ("bin", "^", base, self.power())
        return base

    def unary(self) -> Any:
        if self.at("-"):
            self.i += 1
            return ("neg", self.unary())
        return self.incdec()

    def incdec(self) -> Any:
        if self.at("++") or self.at("--"):
            op = self.take()[1]
            target = self.lvalue()
            if target is None:
                raise _Syntax
            return ("pre", op, target)
        start = self.i
        target = self.lvalue()
        if target is not None:
            if self.at("++") or self.at("--"):
                return ("post", self.take()[1], target)
            return target
        self.i = start
        return self.primary()

    def primary(self) -> Any:
        kind, value, _ = self.take()
        if kind == "num":
            return ("num", value)
        if kind == "op" and value == "(":
            inner = self.expr()
            self.expect(")")
            return inner
        if kind == "op" and value == ".":
            return ("var", "last")
        if kind == "kw" and value in ("length", "sqrt", "scale"):
            self.expect("(")
            arg = self.expr()
            self.expect(")")
            return ("builtin", value, arg)
        if kind == "name" and self.at("("):
            self.i += 1
            args = []
            while not self.at(")"):
                if self.peek()[0] == "name" and self.peek(1)[1] == "[" and self.peek(2)[1] == "]":
                    args.append(("array", self.take()[1]))
                    self.i += 2
                else:
                    args.append(self.expr())
                if self.at(","):
                    self.i += 1
            self.expect(")")
            return ("call", value, args)
        raise _Syntax


# --------------------------------------------------------------------------------- execution


class _Bc:
    def __init__(self, ctx: Context, mathlib: bool):
        self.ctx = ctx
        self.vars: dict[str, Num] = {}
        self.arrays: dict[str, dict[int, Num]] = {}
        self.funcs: dict[str, Any] = {}
        self.scale = 20 if mathlib else 0
        self.ibase = 10
        self.obase = 10
        self.last = ZERO
        self.mathlib = mathlib
        self.out: list[str] = []
        self.depth = 0

    def error(self, message: str) -> BcError:
        return BcError(message)

    # the special variables

    def get(self, name: str) -> Num:
        if name == "scale":
            return Num(self.scale)
        if name == "ibase":
            return Num(self.ibase)
        if name == "obase":
            return Num(self.obase)
        if name == "last":
            return self.last
        return self.vars.get(name, ZERO)

    def set(self, target: Any, value: Num) -> None:
        if target[0] == "elem":
            index = self.eval(target[2]).at(0)
            if index < 0:
                raise self.error("Array " + target[1] + " subscript out of bounds.")
            self.arrays.setdefault(target[1], {})[index] = value
            return
        name = target[1]
        if name in ("scale", "ibase", "obase"):
            n = value.at(0)
            if name == "scale":
                self.scale = max(n, 0)
            elif name == "ibase":
                self.ibase = min(max(n, 2), 16)
            else:
                self.obase = max(n, 2)
            return
        if name == "last":
            self.last = value
            return
        self.vars[name] = value

    def load(self, target: Any) -> Num:
        if target[0] == "elem":
            index = self.eval(target[2]).at(0)
            return self.arrays.get(target[1], {}).get(index, ZERO)
        return self.get(target[1])

    # arithmetic, with bc's scale for each result

    def arith(self, op: str, a: Num, b: Num) -> Num:
        if op in "+-":
            s = max(a.s, b.s)
            m = a.at(s) + b.at(s) if op == "+" else a.at(s) - b.at(s)
            return Num(m, s)
        if op == "*":
            full = Num(a.m * b.m, a.s + b.s)
            return full.cut(min(a.s + b.s, max(self.scale, a.s, b.s)))
        if op == "/":
            return self.divide(a, b, self.scale)
        if op == "%":
            if b.is_zero():
                raise self.error("Modulo by zero")
            q = self.divide(a, b, self.scale)
            prod = Num(q.m * b.m, q.s + b.s)
            s = max(self.scale + b.s, a.s)
            return Num(a.at(s) - prod.at(s), s)
        return self.power(a, b)

    def divide(self, a: Num, b: Num, scale: int) -> Num:
        if b.is_zero():
            raise self.error("Divide by zero")
        # (a.m / 10^a.s) / (b.m / 10^b.s) at `scale` digits
        num = a.m * 10 ** (scale + b.s)
        den = b.m * 10**a.s
        return Num(_tdiv(num, den), scale)

    def power(self, a: Num, b: Num) -> Num:
        if b.s and b.m % 10**b.s:
            self.ctx.err.write("Runtime warning: non-zero scale in exponent\n")
        e = b.at(0)
        if e == 0:
            return ONE
        if e < 0:
            p = self.power(a, Num(-e))
            return self.divide(ONE, p, self.scale)
        full = Num(a.m**e, a.s * e)
        return full.cut(min(a.s * e, max(self.scale, a.s)))

    def sqrt(self, a: Num) -> Num:
        if a.m < 0:
            raise self.error("Square root of a negative number")
        s = max(self.scale, a.s)
        return Num(math.isqrt(a.at(2 * s)), s)

    def number(self, text: str) -> Num:
        base = self.ibase
        if len(text) == 1 and text in "ABCDEF":
            return Num(int(text, 16))
        whole, _, frac = text.partition(".")
        if base == 10 and (whole + frac).isdigit():
            return Num(int((whole or "0") + frac), len(frac))
        value = 0
        for ch in whole:
            value = value * base + min(int(ch, 16), base - 1)
        if not frac:
            return Num(value)
        s = len(frac)
        num = 0
        for ch in frac:
            num = num * base + min(int(ch, 16), base - 1)
        return Num(value * 10**s + _tdiv(num * 10**s, base ** len(frac)), s)

    # evaluation

    def truth(self, node: Any) -> bool:
        return not self.eval(node).is_zero()

    def eval(self, node: Any) -> Num:
        kind = node[0]
        if kind == "num":
            return self.number(node[1])
        if kind in ("var", "elem"):
            return self.load(node)
        if kind == "bin":
            return self.arith(node[1], self.eval(node[2]), self.eval(node[3]))
        if kind == "neg":
            v = self.eval(node[1])
            return Num(-v.m, v.s)
        if kind == "rel":
            c = self.eval(node[2]).cmp(self.eval(node[3]))
            op = node[1]
            hit = {"==": c == 0, "!=": c != 0, "<": c < 0, "<=": c <= 0, ">": c > 0, ">=": c >= 0}
            return ONE if hit[op] else ZERO
        if kind == "!":
            return ONE if self.eval(node[1]).is_zero() else ZERO
        if kind == "&&":
            return ONE if self.truth(node[1]) and self.truth(node[2]) else ZERO
        if kind == "||":
            return ONE if self.truth(node[1]) or self.truth(node[2]) else ZERO
        if kind == "assign":
            op, target = node[1], node[2]
            value = self.eval(node[3])
            if op != "=":
                value = self.arith(op[0], self.load(target), value)
            self.set(target, value)
            return value
        if kind in ("pre", "post"):
            old = self.load(node[2])
            new = self.arith("+" if node[1] == "++" else "-", old, ONE)
            self.set(node[2], new)
            return new if kind == "pre" else old
        if kind == "builtin":
            v = self.eval(node[2])
            if node[1] == "sqrt":
                return self.sqrt(v)
            if node[1] == "scale":
                return Num(v.s)
            digits = len(str(abs(v.m)))
            return Num(digits if abs(v.m) >= 10**v.s else max(v.s, 1))
        if kind == "call":
            return self.call(node[1], node[2])
        raise self.error(f"cannot evaluate {kind}")

    def call(self, name: str, args: list[Any]) -> Num:
        if name not in self.funcs:
            if self.mathlib and name in _MATHLIB and len(args) == _MATHLIB[name]:
                return self.mathfunc(name, [self.eval(a) for a in args])
            raise self.error(f"Function {name} not defined.")
        params, autos, body = self.funcs[name]
        if len(args) != len(params):
            raise self.error(f"Parameter number mismatch in {name}")
        values: list[Any] = []
        for p, a in zip(params, args, strict=True):
            if p.endswith("[]"):
                if a[0] != "array":
                    raise self.error("Parameter type mismatch")
                values.append(dict(self.arrays.get(a[1], {})))
            else:
                values.append(self.eval(a))
        saved_vars = {p: self.vars.get(p) for p in params + autos if not p.endswith("[]")}
        saved_arrays = {p: self.arrays.get(p[:-2]) for p in params + autos if p.endswith("[]")}
        self.depth += 1
        if self.depth > 500:
            raise self.error("Function call nesting too deep")
        try:
            for p, v in zip(params, values, strict=True):
                if p.endswith("[]"):
                    self.arrays[p[:-2]] = v
                else:
                    self.vars[p] = v
            for a in autos:
                if a.endswith("[]"):
                    self.arrays[a[:-2]] = {}
                else:
                    self.vars[a] = ZERO
            try:
                for stmt in body:
                    self.run(stmt)
            except _Return as r:
                return r.value
            return ZERO
        finally:
            self.depth -= 1
            for p, old in saved_vars.items():
                if old is None:
                    self.vars.pop(p, None)
                else:
                    self.vars[p] = old
            for p, old_array in saved_arrays.items():
                if old_array is None:
                    self.arrays.pop(p[:-2], None)
                else:
                    self.arrays[p[:-2]] = old_array

    def mathfunc(self, name: str, args: list[Num]) -> Num:
        """-l's functions, computed to more digits than asked and truncated to `scale`."""
        import decimal

        scale = self.scale
        prec = scale + 30
        ctx = decimal.Context(prec=prec + 20)
        x = decimal.Decimal(args[-1].m).scaleb(-args[-1].s, ctx)
        with decimal.localcontext(ctx):
            if name == "e":
                r = x.exp()
            elif name == "l":
                if x <= 0:
                    raise self.error("Invalid argument for l()" if x < 0 else "l(0) undefined")
                r = x.ln()
            elif name in ("s", "c"):
                r = _sin_cos(x, name == "c")
            elif name == "a":
                r = _atan(x)
            else:
                n = args[0].at(0)
                r = _bessel(n, x)
        q = r.scaleb(scale, ctx).to_integral_value(rounding=decimal.ROUND_DOWN)
        return Num(int(q), scale)

    def show(self, value: Num) -> None:
        text = self.format(value)
        # GNU's BC_LINE_LENGTH of 70: 68 characters and a backslash to a line
        width = 70
        if len(text) > width - 2:
            chunks = [text[k : k + width - 2] for k in range(0, len(text), width - 2)]
            text = "\\\n".join(chunks)
        self.out.append(text + "\n")

    def format(self, v: Num) -> str:
        if v.m == 0:
            return "0"
        sign = "-" if v.m < 0 else ""
        m = abs(v.m)
        whole, frac = divmod(m, 10**v.s)
        if self.obase == 10:
            text = str(whole) if whole else ""
            if v.s:
                text += "." + str(frac).rjust(v.s, "0")
            return sign + text
        digits = []
        w = whole
        while w:
            w, d = divmod(w, self.obase)
            digits.append(d)
        text = "".join(_digit(d, self.obase) for d in reversed(digits))
        if self.obase > 16:
            text = text or " 0"
        if v.s:
            out = []
            f = Num(frac, v.s)
            t = 1
            while len(str(t)) <= v.s:
                prod = f.m * self.obase
                d, rest = divmod(prod, 10**v.s)
                out.append(_digit(d, self.obase))
                f = Num(rest, v.s)
                t *= self.obase
            text += "." + "".join(out)
        return sign + text

    def run(self, stmt: Any) -> None:
        kind = stmt[0]
        if kind == "expr":
            node = stmt[1]
            value = self.eval(node)
            if node[0] != "assign":
                self.show(value)
                self.last = value
        elif kind == "str":
            self.out.append(stmt[1])
        elif kind == "print":
            for item in stmt[1]:
                if item[0] == "strlit":
                    self.out.append(_print_escapes(item[1]))
                else:
                    value = self.eval(item)
                    self.out.append(self.format(value))
                    self.last = value
        elif kind == "block":
            for s in stmt[1]:
                self.run(s)
        elif kind == "if":
            if self.truth(stmt[1]):
                self.run(stmt[2])
            elif stmt[3] is not None:
                self.run(stmt[3])
        elif kind == "while":
            while self.truth(stmt[1]):
                try:
                    self.run(stmt[2])
                except _Break:
                    break
                except _Continue:
                    continue
        elif kind == "for":
            _, init, cond, step, body = stmt
            if init is not None:
                self.eval(init)
            while cond is None or self.truth(cond):
                try:
                    self.run(body)
                except _Break:
                    break
                except _Continue:
                    pass
                if step is not None:
                    self.eval(step)
        elif kind == "break":
            raise _Break
        elif kind == "continue":
            raise _Continue
        elif kind == "return":
            raise _Return(self.eval(stmt[1]) if stmt[1] is not None else ZERO)
        elif kind == "halt":
            raise _Quit
        elif kind == "define":
            self.funcs[stmt[1]] = (stmt[2], stmt[3], stmt[4])
        elif kind == "limits":
            self.out.append(
                "BC_BASE_MAX     = 2147483647\nBC_DIM_MAX      = 16777215\n"
                "BC_SCALE_MAX    = 2147483647\nBC_STRING_MAX   = 2147483647\n"
                "MAX Exponent    = 9223372036854775807\nNumber of vars  = 32767\n"
            )


_MATHLIB = {"s": 1, "c": 1, "a": 1, "l": 1, "e": 1, "j": 2}


def _digit(d: int, base: int) -> str:
    if base <= 16:
        return "0123456789ABCDEF"[d]
    width = len(str(base - 1))
    return " " + str(d).rjust(width, "0")


def _print_escapes(s: str) -> str:
    table = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "q": '"', "r": "\r", "t": "\t"}
    table |= {"e": "\\", "\\": "\\"}
    return re.sub(r"\\(.)", lambda m: table.get(m.group(1), m.group(1)), s, flags=re.S)


def _sin_cos(x: Any, cosine: bool) -> Any:
    import decimal

    pi = _pi()
    x = x % (2 * pi)
    term = decimal.Decimal(1) if cosine else x
    total = term
    k = 0 if cosine else 1
    while True:
        term = -term * x * x / ((k + 1) * (k + 2))
        k += 2
        if term == 0 or abs(term) < decimal.Decimal(10) ** (-(decimal.getcontext().prec + 2)):
            break
        total += term
    return total


def _atan(x: Any) -> Any:
    import decimal

    if x < 0:
        return -_atan(-x)
    if x > 1:
        return _pi() / 2 - _atan(1 / x)
    if x > decimal.Decimal("0.2"):
        # atan(x) = 2 atan(x / (1 + sqrt(1 + x^2)))
        return 2 * _atan(x / (1 + (1 + x * x).sqrt()))
    total, term, k = x, x, 1
    while True:
        term = -term * x * x
        k += 2
        piece = term / k
        if piece == 0 or abs(piece) < decimal.Decimal(10) ** (-(decimal.getcontext().prec + 2)):
            break
        total += piece
    return total


def _pi() -> Any:
    import decimal

    # Machin: pi = 16 atan(1/5) - 4 atan(1/239)
    return 16 * _atan(decimal.Decimal(1) / 5) - 4 * _atan(decimal.Decimal(1) / 239)


def _bessel(n: int, x: Any) -> Any:
    import decimal

    n = abs(n)
    total = decimal.Decimal(0)
    term = (x / 2) ** n / math.factorial(n)
    k = 0
    while True:
        total += term
        k += 1
        term = -term * (x / 2) ** 2 / (k * (k + n))
        if term == 0 or abs(term) < decimal.Decimal(10) ** (-(decimal.getcontext().prec + 2)):
            break
    return total


def bc(ctx: Context, args: list[str]) -> int:
    mathlib = False
    files = []
    for a in args:
        if a in ("-l", "--mathlib"):
            mathlib = True
        elif a in ("-q", "--quiet", "-s", "--standard", "-w", "--warn", "-i", "--interactive"):
            continue
        elif a.startswith("-") and len(a) > 1 and set(a[1:]) <= set("lqswi"):
            mathlib = mathlib or "l" in a
        elif a.startswith("-") and len(a) > 1:
            ctx.err.write(f"bc: invalid option -- '{a[1:2]}'\n")
            return 1
        else:
            files.append(a)
    sources = []
    for name in files:
        try:
            sources.append(decode(read_operand(ctx, name)))
        except OSError:
            raise ShellError(f"File {name} is unavailable.", 1) from None
    sources.append(decode(ctx.stdin))
    machine = _Bc(ctx, mathlib)
    try:
        for src in sources:
            _run_source(ctx, machine, src)
    except _Quit:
        pass
    ctx.out.write("".join(machine.out))
    return 0


def _run_source(ctx: Context, machine: _Bc, src: str) -> None:
    """Parse and run `src` a line at a time: each top-level line runs once complete; a syntax
    error or a runtime error drops the rest of that line."""
    parser = _Parser(_tokens(src))
    while parser.peek()[0] != "eof":
        unit = []
        line = parser.peek()[2]
        try:
            quit_after = False
            while True:
                while parser.at(";"):
                    parser.i += 1
                if parser.at("\n"):
                    parser.i += 1
                    break
                if parser.peek()[0] == "eof":
                    break
                try:
                    unit.append(parser.statement())
                except _Quit:
                    quit_after = True
                    break
                if not (parser.at(";") or parser.at("\n") or parser.peek()[0] == "eof"):
                    raise _Syntax
        except _Syntax:
            ctx.err.write(f"(standard_in) {parser.peek()[2]}: syntax error\n")
            while not (parser.at("\n") or parser.peek()[0] == "eof"):
                parser.i += 1
            if parser.at("\n"):
                parser.i += 1
            continue
        try:
            for stmt in unit:
                machine.run(stmt)
        except BcError as exc:
            ctx.err.write(f"Runtime error (func=(main), adr={line}): {exc}\n")
        except (_Break, _Continue):
            ctx.err.write(f"(standard_in) {line}: Break outside a for/while\n")
        except _Return:
            ctx.err.write(f"(standard_in) {line}: Return outside of a function.\n")
        if quit_after:
            raise _Quit

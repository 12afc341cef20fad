"""expr: arithmetic, comparisons, string operations and `:` matching."""

import re
from typing import Any

from cove_guest.shell.io import Context
from cove_guest.text.patterns import bre_to_re


def expr(ctx: Context, args: list[str]) -> int:
    def value(tok: str) -> int | str:
        return int(tok) if re.fullmatch(r"-?\d+", tok) else tok

    toks = list(args)
    try:
        result = _expr_or(toks)
    except (IndexError, ValueError, ZeroDivisionError):
        ctx.err.write("expr: syntax error\n")
        return 2
    ctx.out.write(f"{result}\n")
    return 1 if result in (0, "", "0") else 0


# An expression's value: an integer, or a string (expr's own coercion decides, per operator).
Value = int | str


def _expr_or(t: list[str]) -> Value:
    left = _expr_and(t)
    while t and t[0] == "|":
        t.pop(0)
        right = _expr_and(t)
        left = left if left not in (0, "") else right
    return left


def _expr_and(t: list[str]) -> Value:
    left = _expr_cmp(t)
    while t and t[0] == "&":
        t.pop(0)
        right = _expr_cmp(t)
        left = left if left not in (0, "") and right not in (0, "") else 0
    return left


def _expr_cmp(t: list[str]) -> Value:
    left = _expr_add(t)
    while t and t[0] in ("=", "!=", "<", ">", "<=", ">="):
        op = t.pop(0)
        right = _expr_add(t)
        a: Any = left
        b: Any = right
        if not (isinstance(a, int) and isinstance(b, int)):
            a, b = str(a), str(b)
        left = int(
            {"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        )
    return left


def _expr_add(t: list[str]) -> Value:
    left = _expr_mul(t)
    while t and t[0] in ("+", "-"):
        op = t.pop(0)
        right = _expr_mul(t)
        left = int(left) + int(right) if op == "+" else int(left) - int(right)
    return left


def _expr_mul(t: list[str]) -> Value:
    left = _expr_atom(t)
    while t and t[0] in ("*", "/", "%"):
        op = t.pop(0)
        right = int(_expr_atom(t))
        left = int(left)
        if op == "*":
            left = left * right
        elif op == "/":
            left = int(left / right)
        else:
            left = left - right * int(left / right)
    return left


def _expr_atom(t: list[str]) -> Value:
    tok = t.pop(0)
    if tok == "(":
        v = _expr_or(t)
        t.pop(0)
        return v
    if tok == "length":
        return len(str(t.pop(0)))
    if tok == "substr" and len(t) >= 3:
        text, pos, n = str(t.pop(0)), int(t.pop(0)), int(t.pop(0))
        return text[pos - 1 : pos - 1 + n] if pos > 0 and n > 0 else ""
    if tok == "index" and len(t) >= 2:
        text, chars = str(t.pop(0)), str(t.pop(0))
        return min((text.index(c) + 1 for c in chars if c in text), default=0)
    if tok == "match" and len(t) >= 2:
        tok = t.pop(0)
        t.insert(0, ":")
    if t and t[0] == ":":
        t.pop(0)
        pat = t.pop(0)
        m = re.match(bre_to_re(pat), tok)
        if not m:
            return 0 if not re.search(r"\\\(", pat) else ""
        return m.group(1) if m.groups() else m.end()
    return int(tok) if re.fullmatch(r"-?\d+", tok) else tok

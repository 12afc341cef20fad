"""awk's tokenizer, with the rule for when `/` starts a regex."""

import re
from typing import Any, cast

from cove_guest.commands.awk.errors import AwkError

KEYWORDS = {
    "BEGIN",
    "END",
    "function",
    "func",
    "if",
    "else",
    "while",
    "for",
    "do",
    "in",
    "next",
    "exit",
    "break",
    "continue",
    "return",
    "delete",
    "print",
    "printf",
    "getline",
    "nextfile",
}


BUILTINS = {
    "length",
    "substr",
    "index",
    "split",
    "sub",
    "gsub",
    "match",
    "sprintf",
    "tolower",
    "toupper",
    "int",
    "sqrt",
    "exp",
    "log",
    "sin",
    "cos",
    "atan2",
    "rand",
    "srand",
    "system",
    "close",
    "fflush",
}


def lex(src: str) -> list[tuple[str, Any]]:
    """The program's tokens: (kind, value) pairs, ending with ("eof", None)."""
    toks: list[tuple[str, Any]] = []
    i, n = 0, len(src)
    ops = [
        "+=",
        "-=",
        "*=",
        "/=",
        "%=",
        "^=",
        "**",
        "==",
        "<=",
        ">=",
        "!=",
        "&&",
        "||",
        "++",
        "--",
        "!~",
        ">>",
        "+",
        "-",
        "*",
        "/",
        "%",
        "^",
        "!",
        "<",
        ">",
        "~",
        "?",
        ":",
        "=",
        ",",
        ";",
        "{",
        "}",
        "(",
        ")",
        "[",
        "]",
        "$",
        "|",
    ]
    while i < n:
        c = src[i]
        if c in " \t\r":
            i += 1
            continue
        if c == "\\" and i + 1 < n and src[i + 1] == "\n":
            i += 2
            continue
        if c == "\n":
            toks.append(("nl", "\n"))
            i += 1
            continue
        if c == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if c == '"':
            j = i + 1
            buf = []
            while j < n and src[j] != '"':
                if src[j] == "\\" and j + 1 < n:
                    buf.append(
                        {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "/": "/", "r": "\r"}.get(
                            src[j + 1], "\\" + src[j + 1]
                        )
                    )
                    j += 2
                    continue
                buf.append(src[j])
                j += 1
            toks.append(("str", "".join(buf)))
            i = j + 1
            continue
        if c == "/" and _regex_allowed(toks):
            j = i + 1
            buf = []
            while j < n and src[j] != "/":
                if src[j] == "\\" and j + 1 < n:
                    buf.append(src[j : j + 2] if src[j + 1] != "/" else "/")
                    j += 2
                    continue
                buf.append(src[j])
                j += 1
            toks.append(("re", "".join(buf)))
            i = j + 1
            continue
        if c.isdigit() or (c == "." and i + 1 < n and src[i + 1].isdigit()):
            # The casts keep the behaviour: no match (a digit like "²", a non-ASCII letter) is
            # None, and .group then raises AttributeError as it always has.
            m = cast(
                re.Match[str], re.match(r"0[xX][0-9a-fA-F]+|\d*\.?\d+(?:[eE][+-]?\d+)?\.?", src[i:])
            )
            toks.append(
                (
                    "num",
                    float(int(m.group(0), 16))
                    if m.group(0)[:2].lower() == "0x"
                    else float(m.group(0).rstrip(".") or 0),
                )
            )
            i += len(m.group(0))
            continue
        if c.isalpha() or c == "_":
            m = cast(re.Match[str], re.match(r"[A-Za-z_][A-Za-z_0-9]*", src[i:]))
            word = m.group(0)
            i += len(word)
            if word in KEYWORDS:
                toks.append(("kw", word))
            elif word in BUILTINS:
                toks.append(("builtin", word))
            elif i < n and src[i] == "(":
                toks.append(("funcname", word))
            else:
                toks.append(("name", word))
            continue
        op = next((o for o in ops if src.startswith(o, i)), None)
        if op is None:
            raise AwkError(f"syntax error at source line 1: unexpected character '{c}'")
        toks.append(("op", op))
        i += len(op)
    toks.append(("eof", None))
    return toks


def _regex_allowed(toks: list[tuple[str, Any]]) -> bool:
    """Whether a `/` here starts a regular expression (not a division)."""
    if not toks:
        return True
    kind, value = toks[-1]
    if kind in ("num", "str", "name", "re", "builtin"):
        return False
    return not (kind == "op" and value in (")", "]", "$", "++", "--"))

"""jq's tokenizer, with string interpolation."""

import re
from typing import Any, cast

from cove_guest.commands.jq.errors import JqError


def lex(src: str) -> list[tuple[str, Any]]:
    """The filter's tokens: (kind, value) pairs, ending with ("eof", None)."""
    toks: list[tuple[str, Any]] = []
    i, n = 0, len(src)
    ops = [
        "|=",
        "+=",
        "-=",
        "//",
        "==",
        "!=",
        "<=",
        ">=",
        "..",
        "?//",
        "|",
        ",",
        ".",
        "[",
        "]",
        "(",
        ")",
        "{",
        "}",
        ":",
        ";",
        "+",
        "-",
        "*",
        "/",
        "%",
        "<",
        ">",
        "?",
        "$",
        "=",
    ]
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
            continue
        if c == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if c == '"':
            parts, i = lex_string(src, i + 1)
            toks.append(("str", parts))
            continue
        if c.isdigit():
            # The casts keep the behaviour: no match (a digit like "²", a bare "@", a non-ASCII
            # letter) is None, and .group then raises AttributeError as it always has.
            m = cast(re.Match[str], re.match(r"\d+(\.\d+)?([eE][-+]?\d+)?", src[i:]))
            text = m.group(0)
            toks.append(("num", float(text) if ("." in text or "e" in text.lower()) else int(text)))
            i += len(text)
            continue
        if c == "@":
            m = cast(re.Match[str], re.match(r"@[a-z0-9]+", src[i:]))
            toks.append(("format", m.group(0)))
            i += len(m.group(0))
            continue
        if c.isalpha() or c == "_":
            m = cast(re.Match[str], re.match(r"[A-Za-z_][A-Za-z_0-9]*", src[i:]))
            toks.append(("ident", m.group(0)))
            i += len(m.group(0))
            continue
        op = next((o for o in ops if src.startswith(o, i)), None)
        if op is None:
            raise JqError(f"syntax error, unexpected '{c}'")
        toks.append(("op", op))
        i += len(op)
    toks.append(("eof", None))
    return toks


def lex_string(src: str, i: int) -> tuple[list[Any], int]:
    buf: list[str]
    parts, buf = [], []
    n = len(src)
    while i < n:
        c = src[i]
        if c == '"':
            parts.append(("lit", "".join(buf)))
            return parts, i + 1
        if c == "\\":
            d = src[i + 1]
            if d == "(":
                parts.append(("lit", "".join(buf)))
                buf = []
                depth = 1
                j = i + 2
                while j < n and depth:
                    if src[j] == "(":
                        depth += 1
                    elif src[j] == ")":
                        depth -= 1
                    elif src[j] == '"':
                        _, j = lex_string(src, j + 1)
                        continue
                    j += 1
                parts.append(("interp", src[i + 2 : j - 1]))
                i = j
                continue
            if d == "u":
                buf.append(chr(int(src[i + 2 : i + 6], 16)))
                i += 6
                continue
            buf.append(
                {
                    "n": "\n",
                    "t": "\t",
                    "r": "\r",
                    "b": "\b",
                    "f": "\f",
                    "/": "/",
                    "\\": "\\",
                    '"': '"',
                }.get(d, d)
            )
            i += 2
            continue
        buf.append(c)
        i += 1
    raise JqError("unterminated string")

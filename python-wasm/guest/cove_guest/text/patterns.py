"""Pattern languages translated to Python's `re`, one copy each: shell globs (`*`, `?`,
brackets), POSIX basic and extended regular expressions (grep, sed, awk, expr), and the POSIX
character-class table they share.
"""

import re


def glob_escape(s: str) -> str:
    """`s` with its glob characters bracketed, so that it matches only itself."""
    return re.sub(r"([*?\[])", r"[\1]", s)


def fnmatch(text: str, pattern: str) -> bool:
    """Whether the shell glob `pattern` matches all of `text`."""
    try:
        return re.fullmatch(glob_to_re(pattern), text, re.S) is not None
    except re.error:
        return text == pattern


def glob_to_re(pattern: str) -> str:
    """A shell glob as a Python regular expression."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:
                out.append("\\[")
            else:
                body = pattern[i + 1 : j]
                if body[:1] in "!^":
                    body = "^" + body[1:]
                body = body.replace("\\", "\\\\")
                body = re.sub(r"\[:(\w+):\]", lambda m: CLASSES.get(m.group(1), ""), body)
                out.append("[" + body + "]")
                i = j
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 1
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": " \\t\\n\\r\\f\\v",
    "punct": "!-/:-@\\[-`{-~",
    "xdigit": "0-9a-fA-F",
    "blank": " \\t",
}


def expand_classes(regex: str) -> str:
    """`regex` with its POSIX character classes (`[:digit:]`) spelled out for `re`."""
    return re.sub(
        r"\[\[:(\w+):\]\]",
        lambda m: "[" + CLASSES.get(m.group(1), "") + "]",
        re.sub(r"\[:(\w+):\]", lambda m: CLASSES.get(m.group(1), ""), regex),
    )


def bre_to_re(p: str) -> str:
    """POSIX basic regular expression to Python: \\( \\) \\{ \\} \\| \\+ \\? are the operators."""
    out: list[str] = []
    i = 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            d = p[i + 1]
            if d in "(){}|+?":
                out.append(d)
            elif d in "<>":
                out.append(r"\b")
            else:
                out.append("\\" + d)
            i += 2
            continue
        if c in "(){}|+?":
            out.append("\\" + c)
        elif c == "*" and (i == 0 or (p[i - 1] == "^" and i == 1)):
            out.append(r"\*")
        elif c == "[":
            j = _bracket_end(p, i)
            out.append(_bracket(p[i:j]))
            i = j
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def ere_to_re(p: str) -> str:
    """POSIX extended regular expression to Python: brackets, and `\\<` `\\>` as `\\b`."""
    out: list[str] = []
    i = 0
    while i < len(p):
        c = p[i]
        if c == "[":
            j = _bracket_end(p, i)
            out.append(_bracket(p[i:j]))
            i = j
            continue
        if c == "\\" and i + 1 < len(p):
            d = p[i + 1]
            out.append(r"\b" if d in "<>" else "\\" + d)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _bracket_end(p: str, i: int) -> int:
    j = i + 1
    if j < len(p) and p[j] in "^!":
        j += 1
    if j < len(p) and p[j] == "]":
        j += 1
    while j < len(p) and p[j] != "]":
        if p[j] == "[" and j + 1 < len(p) and p[j + 1] == ":":
            k = p.find(":]", j + 2)
            if k >= 0:
                j = k + 2
                continue
        j += 1
    return min(j + 1, len(p))


def _bracket(b: str) -> str:
    inner = b[1:-1]
    neg = inner[:1] in ("^",)
    if neg:
        inner = inner[1:]
    inner = re.sub(r"\[:(\w+):\]", lambda m: CLASSES.get(m.group(1), ""), inner)
    inner = inner.replace("\\", "\\\\")
    if inner.startswith("]"):
        inner = "\\]" + inner[1:]
    inner = inner.replace("[", "\\[")
    return "[" + ("^" if neg else "") + inner + "]"

"""Word expansions that need no interpreter state: brace expansion, IFS field
splitting, pathname expansion, and the `${x#p}` / `${x/a/b}` pattern operations.
"""

import glob as _glob
import os
import re

from cove_guest.shell.parse import scan_dollar
from cove_guest.text.patterns import glob_to_re


def ifs_split(value: str, ifs: str) -> list[str]:
    """Field splitting: `value` split at the characters of `ifs`, as bash splits an unquoted
    expansion (runs of IFS whitespace are one separator, and trim the ends)."""
    if not ifs:
        return [value]
    ws = "".join(c for c in ifs if c in " \t\n")
    other = "".join(c for c in ifs if c not in " \t\n")
    ws_rx = "[" + re.escape(ws) + "]" if ws else None
    if not other:
        assert ws_rx is not None  # ifs is non-empty and all whitespace
        return [p for p in re.split(ws_rx + "+", value) if p]
    sep = "[" + re.escape(other) + "]"
    if ws_rx:
        sep = ws_rx + "*" + sep + ws_rx + "*|" + ws_rx + "+"
        value = value.strip(ws)
    if not value:
        return []
    parts = re.split(sep, value)
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def pathname_expand(pattern: str) -> list[str]:
    """The paths a glob matches, sorted as bash sorts them (hidden ones only when asked)."""
    hidden = os.path.basename(pattern).startswith(".")
    try:
        matches = _glob.glob(pattern, include_hidden=hidden)
    except (OSError, re.error):
        return []
    if not hidden:
        matches = [m for m in matches if not os.path.basename(m).startswith(".")]
    return sorted(matches, key=_collate)


def _collate(name: str) -> str:
    # Bash's default sort in the C.UTF-8 locale is by code point.
    return name


def trim_pattern(value: str, pattern: str, op: str) -> str:
    """`${value#pattern}`, `##`, `%`, `%%`: the shortest or longest match trimmed."""
    rx = glob_to_re(pattern)
    if op in ("#", "##"):
        lengths = range(len(value) + 1) if op == "#" else range(len(value), -1, -1)
        for k in lengths:
            if re.fullmatch(rx, value[:k], re.S):
                return value[k:]
        return value
    lengths = range(len(value), -1, -1) if op == "%" else range(len(value) + 1)
    for k in lengths:
        if re.fullmatch(rx, value[k:], re.S):
            return value[:k]
    return value


def replace_pattern(value: str, pattern: str, rep: str, all_: bool, anchor: str | None) -> str:
    """`${value/pattern/rep}`, `//` (`all_`), `/#` and `/%` (`anchor`)."""
    if pattern == "":
        return value
    rx = glob_to_re(pattern)
    if anchor == "#":
        for k in range(len(value), -1, -1):
            if re.fullmatch(rx, value[:k], re.S):
                return rep + value[k:]
        return value
    if anchor == "%":
        for k in range(len(value) + 1):
            if re.fullmatch(rx, value[k:], re.S):
                return value[:k] + rep
        return value
    out: list[str] = []
    i = 0
    n = len(value)
    done = False
    while i < n:
        if done:
            out.append(value[i:])
            break
        for k in range(n, i, -1):
            if re.fullmatch(rx, value[i:k], re.S):
                out.append(rep)
                i = k
                if not all_:
                    done = True
                break
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def split_unescaped(s: str, sep: str) -> tuple[str, str, str]:
    """`s.partition(sep)` at the first `sep` no backslash escapes."""
    i = 0
    while i < len(s):
        if s[i] == "\\":
            i += 2
            continue
        if s[i] == sep:
            return s[:i], sep, s[i + 1 :]
        i += 1
    return s, "", ""


def brace_expand(word: str) -> list[str]:
    """Bash brace expansion on unquoted braces: {a,b}, {1..5}, {a..e}, {1..10..2}."""
    i, n = 0, len(word)
    depth = 0
    start = -1
    quote: str | None = None
    while i < n:
        c = word[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = None
            i += 1
            continue
        if c == "\\":
            i += 2
            continue
        if c in "'\"":
            quote = c
            i += 1
            continue
        if c == "$" and i + 1 < n and word[i + 1] == "{":
            i = scan_dollar(word, i)
            continue
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth:
            depth -= 1
            if depth == 0:
                body = word[start + 1 : i]
                prefix, suffix = word[:start], word[i + 1 :]
                alts = _brace_alternatives(body)
                if alts is not None:
                    out: list[str] = []
                    for alt in alts:
                        out.extend(brace_expand(prefix + alt + suffix))
                    return out
                rest = brace_expand(suffix)
                return [word[: i + 1] + r for r in rest] if rest != [suffix] else [word]
        i += 1
    return [word]


def _brace_alternatives(body: str) -> list[str] | None:
    """The words a brace's body stands for (`a,b`, `1..5`, `a..e`), or None if it is none."""
    m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?", body)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3))) if m.group(3) else 1
        step = step or 1
        width = (
            max(len(m.group(1)), len(m.group(2)))
            if (m.group(1).lstrip("-").startswith("0") and len(m.group(1).lstrip("-")) > 1)
            or (m.group(2).lstrip("-").startswith("0") and len(m.group(2).lstrip("-")) > 1)
            else 0
        )
        seq = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [str(v).zfill(width) if width else str(v) for v in seq]
    m = re.fullmatch(r"([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?", body)
    if m:
        a, b = ord(m.group(1)), ord(m.group(2))
        step = abs(int(m.group(3))) if m.group(3) else 1
        seq = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(v) for v in seq]
    parts: list[str] = []
    cur: list[str] = []
    depth, i = 0, 0
    quote: str | None = None
    while i < len(body):
        c = body[i]
        if quote:
            cur.append(c)
            if c == quote:
                quote = None
            i += 1
            continue
        if c in "'\"":
            quote = c
        elif c == "\\":
            cur.append(body[i : i + 2])
            i += 2
            continue
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts if len(parts) > 1 else None

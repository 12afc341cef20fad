"""Backslash escapes and quoting: `$'…'` (ANSI-C), `echo -e` / `printf %b`, and the
quoting bash uses when it prints a value back (`set`, `declare -p`, `printf %q`).

One decoder serves both, in two modes that differ where bash does: `$'…'` knows `\\u`, `\\'`
and bare octal `\\NNN`; `echo -e` knows `\\c` (stop output) and octal only as `\\0NNN`.
"""

import re


def shell_quote(s: str) -> str:
    """`s` as bash prints a value back: bare when every character is safe, else single-quoted."""
    if s and all(c.isalnum() or c in "-_./=:,@%+" for c in s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


_ECHO = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "e": "\x1b",
    "E": "\x1b",
}
_ANSI_C = {**_ECHO, "'": "'", '"': '"', "?": "?"}
_HEX = re.compile(r"[0-9a-fA-F]{1,2}")
_UNICODE = {"u": re.compile(r"[0-9a-fA-F]{1,4}"), "U": re.compile(r"[0-9a-fA-F]{1,8}")}
_OCTAL = re.compile(r"[0-7]{1,3}")  # `$'\NNN'`: from the first digit
_ECHO_OCTAL = re.compile(r"[0-7]{0,3}")  # `echo -e '\0NNN'`: after the 0


def _decode(s: str, *, ansi_c: bool) -> tuple[str, bool]:
    """`s` with its backslash escapes decoded, `$'…'`'s (`ansi_c`) or `echo -e`'s; and whether
    a `\\c` stopped it there (echo's only). An unknown escape is kept as written."""
    table = _ANSI_C if ansi_c else _ECHO
    out: list[str] = []
    i, n = 0, len(s)
    while i < n:
        c = s[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = s[i + 1]
        if d in table:
            out.append(table[d])
            i += 2
            continue
        if d == "c" and not ansi_c:
            return "".join(out), True
        if d == "x" or (ansi_c and d in _UNICODE):
            m = (_HEX if d == "x" else _UNICODE[d]).match(s, i + 2)
            if m:
                out.append(chr(int(m.group(0), 16)))
                i = m.end()
                continue
        elif ansi_c and d in "01234567":
            m = _OCTAL.match(s, i + 1)
            assert m is not None  # d is an octal digit, so this always matches
            out.append(chr(int(m.group(0), 8)))
            i = m.end()
            continue
        elif d == "0" and not ansi_c:
            m = _ECHO_OCTAL.match(s, i + 2)
            assert m is not None  # {0,3} always matches
            out.append(chr(int(m.group(0) or "0", 8)))
            i = m.end()
            continue
        out.append(c)
        i += 1
    return "".join(out), False


def ansi_c(s: str) -> str:
    """The body of `$'…'`, decoded."""
    return _decode(s, ansi_c=True)[0]


def echo_escapes(s: str) -> tuple[str, bool]:
    """`echo -e`'s and `printf %b`'s escapes decoded, and whether `\\c` stopped the output."""
    return _decode(s, ansi_c=False)

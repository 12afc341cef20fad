"""Backslash escapes and quoting: `$'…'` (ANSI-C), `echo -e` / `printf %b`, and the
quoting bash uses when it prints a value back (`set`, `declare -p`, `printf %q`).

The two decoders differ where bash does: `$'…'` knows `\\u`, `\\'` and bare octal `\\NNN`;
`echo -e` knows `\\c` (stop output) and octal only as `\\0NNN`.
"""

import re


def shell_quote(s):
    if s and all(c.isalnum() or c in "-_./=:,@%+" for c in s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def ansi_c(s):
    out: list[str] = []
    i, n = 0, len(s)
    simple = {
        "n": "\n",
        "t": "\t",
        "r": "\r",
        "a": "\a",
        "b": "\b",
        "e": "\x1b",
        "E": "\x1b",
        "f": "\f",
        "v": "\v",
        "\\": "\\",
        "'": "'",
        '"': '"',
        "?": "?",
    }
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n:
            d = s[i + 1]
            if d in simple:
                out.append(simple[d])
                i += 2
                continue
            if d == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2 :])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + len(m.group(0))
                    continue
            if d in "uU":
                m = re.match(r"[0-9a-fA-F]{1,8}" if d == "U" else r"[0-9a-fA-F]{1,4}", s[i + 2 :])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + len(m.group(0))
                    continue
            if d in "01234567":
                m = re.match(r"[0-7]{1,3}", s[i + 1 :])
                assert m is not None  # d is an octal digit, so this always matches
                out.append(chr(int(m.group(0), 8)))
                i += 1 + len(m.group(0))
                continue
            out.append(c)
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def echo_escapes(s):
    out: list[str] = []
    i = 0
    table = {
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
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            d = s[i + 1]
            if d == "c":
                return "".join(out), True
            if d in table:
                out.append(table[d])
                i += 2
                continue
            if d == "0":
                m = re.match(r"[0-7]{0,3}", s[i + 2 :])
                assert m is not None  # {0,3} always matches
                out.append(chr(int(m.group(0) or "0", 8)))
                i += 2 + len(m.group(0))
                continue
            if d == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2 :])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + len(m.group(0))
                    continue
        out.append(c)
        i += 1
    return "".join(out), False

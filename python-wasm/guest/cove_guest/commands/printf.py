"""printf, as bash's builtin does it: the format reused while arguments remain, C conversions
with flags, width and precision (`*` included), `%b`, `%q`, `%(fmt)T`, bash's escapes in the
format, numbers in C syntax (`0x1F`, `010`, `'a`), `-v VAR`. Widths count bytes, as bash's do.
"""

from __future__ import annotations

import re
import time
from typing import Any

from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, UsageError
from cove_guest.text.escapes import echo_escapes

_SPEC = re.compile(r"%([-+ #0']*)(\*|\d+)?(?:\.(\*|\d*))?(\([^)]*\)T|[diouxXeEfFgGaAcsqb%])?")
_FORMAT_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    '"': '"',
    "'": "'",
    "?": "?",
}
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1


class _Stop(Exception):
    """`\\c` in a `%b` argument: no more output at all."""


def printf(ctx: Context, args: list[str]) -> int:
    target = None
    if args and args[0] == "-v":
        if len(args) < 2:
            raise UsageError("-v: option requires an argument")
        target, args = args[1], args[2:]
        if not re.fullmatch(r"[A-Za-z_]\w*(\[[^]]*\])?", target):
            raise ShellError(f"`{target}': not a valid identifier")
    elif args and args[0].startswith("-v") and len(args[0]) > 2:
        target, args = args[0][2:], args[1:]
    dashes = bool(args) and args[0] == "--"
    if dashes:
        args = args[1:]
    if not args:
        raise UsageError("usage: printf [-v var] format [arguments]")
    if args[0].startswith("-") and len(args[0]) > 1 and target is None and not dashes:
        raise UsageError(
            f"{args[0][:2]}: invalid option\nprintf: usage: printf [-v var] format [arguments]"
        )
    fmt, rest = args[0], list(args[1:])
    state = {"status": 0}
    out: list[bytes] = []
    try:
        while True:
            before = len(rest)
            ok = _format(ctx, fmt, rest, out, state)
            if not ok or not rest or len(rest) == before:
                break
    except _Stop:
        pass
    data = b"".join(out)
    if target is not None:
        ctx.shell.set(target, data.decode("utf-8", "surrogateescape"))
    else:
        ctx.out.write(data)
    return state["status"]


def _encode(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def _format(ctx: Any, fmt: str, args: list[str], out: list[bytes], state: dict) -> bool:
    """One pass of the format over the front of `args` (consumed); False on a bad conversion,
    where bash stops."""
    i, n = 0, len(fmt)
    literal: list[str] = []

    def flush() -> None:
        if literal:
            out.append(_encode("".join(literal)))
            literal.clear()

    def take() -> str | None:
        return args.pop(0) if args else None

    while i < n:
        c = fmt[i]
        if c == "\\" and i + 1 < n:
            d = fmt[i + 1]
            if d in _FORMAT_ESCAPES:
                literal.append(_FORMAT_ESCAPES[d])
                i += 2
                continue
            m = re.match(r"[0-7]{1,3}", fmt[i + 1 :])
            if m:
                flush()
                out.append(bytes([int(m.group(0), 8) & 0xFF]))
                i += 1 + len(m.group(0))
                continue
            m = re.match(
                r"x([0-9a-fA-F]{1,2})|u([0-9a-fA-F]{1,4})|U([0-9a-fA-F]{1,8})", fmt[i + 1 :]
            )
            if m:
                if m.group(1):
                    flush()
                    out.append(bytes([int(m.group(1), 16)]))
                else:
                    literal.append(chr(int(m.group(2) or m.group(3), 16)))
                i += 1 + len(m.group(0))
                continue
            literal.append(c)
            i += 1
            continue
        if c != "%":
            literal.append(c)
            i += 1
            continue
        m = _SPEC.match(fmt, i)
        assert m is not None  # `%` alone matches, its conversion missing
        flags, width, prec, conv = m.groups()
        if conv is None:
            flush()
            bad = fmt[m.end() : m.end() + 1] or "%"
            ctx.err.write(f"bash: printf: `{bad}': invalid format character\n")
            state["status"] = 1
            return False
        i = m.end()
        if conv == "%":
            literal.append("%")
            continue
        flush()
        flags = flags.replace("'", "")
        if width == "*":
            width = str(_integer(ctx, take(), state))
            if width.startswith("-"):
                flags, width = flags + "-", width[1:]
        if prec == "*":
            p = _integer(ctx, take(), state)
            prec = str(p) if p >= 0 else None
        arg = take()
        if conv == "b":
            text, stop = echo_escapes(arg or "")
            body = _encode(text)
            out.append(_pad(body[: int(prec or 0)] if prec is not None else body, flags, width))
            if stop:
                raise _Stop
            continue
        out.append(_convert(ctx, conv, flags, width, prec, arg, state))
    flush()
    return True


def _pad(body: bytes, flags: str, width: str | None) -> bytes:
    w = int(width) if width else 0
    if len(body) >= w:
        return body
    fill = b" " * (w - len(body))
    return body + fill if "-" in flags else fill + body


def _convert(
    ctx: Context,
    conv: str,
    flags: str,
    width: str | None,
    prec: str | None,
    arg: str | None,
    state: dict,
) -> bytes:
    if conv == "s":
        body = _encode(arg or "")
        if prec is not None:
            body = body[: int(prec or 0)]
        return _pad(body, flags, width)
    if conv == "q":
        return _pad(_encode(printf_quote(arg)) if arg is not None else b"''", flags, width)
    if conv == "c":
        # bash prints a NUL for an empty or missing argument
        return _pad(_encode(arg)[:1] if arg else b"\0", flags, width)
    if conv.endswith("T"):
        return _pad(_encode(_strftime(ctx, conv[1:-2], arg, state)), flags, width)
    spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
    if conv in "diouxX":
        value = _integer(ctx, arg, state)
        if conv in "ouxX" and value < 0:
            value += 2**64
        if conv == "o" and "#" in flags:
            # C's alternate octal form is a leading 0, Python's is 0o
            digits = "%" + ("." + prec if prec is not None else "") + "o"
            text = digits % value
            return _pad(_encode(text if text.startswith("0") else "0" + text), flags, width)
        return _encode((spec + ("d" if conv in "iu" else conv)) % value)
    value_f = _floating(ctx, arg, state)
    if conv in "aA":
        text = value_f.hex()
        return _pad(_encode(text.upper() if conv == "A" else text), flags, width)
    return _encode((spec + conv) % value_f)


def _integer(ctx: Any, arg: str | None, state: dict) -> int:
    """A number as bash's printf reads it: C syntax, `'c` for a character's code; what does not
    parse is reported, its valid beginning used."""
    if arg is None or arg == "":
        return 0
    s = arg.lstrip(" \t\n")
    if s[:1] in ("'", '"'):
        return ord(s[1]) if len(s) > 1 else 0
    m = re.match(r"[-+]?(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9]\d*)", s)
    if not m:
        ctx.err.write(f"bash: printf: {arg}: invalid number\n")
        state["status"] = 1
        return 0
    text = m.group(0)
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-")
    base = (
        16 if digits[:2].lower() == "0x" else 8 if digits.startswith("0") and digits != "0" else 10
    )
    value = sign * int(digits, base)
    if m.end() != len(s):
        ctx.err.write(f"bash: printf: {arg}: invalid number\n")
        state["status"] = 1
    if not _INT_MIN <= value <= _INT_MAX:
        ctx.err.write(f"bash: printf: warning: {arg}: Numerical result out of range\n")
        value = _INT_MAX if value > 0 else _INT_MIN
    return value


def _floating(ctx: Any, arg: str | None, state: dict) -> float:
    if arg is None or arg == "":
        return 0.0
    s = arg.strip(" \t\n")
    if s[:1] in ("'", '"'):
        return float(ord(s[1])) if len(s) > 1 else 0.0
    m = re.match(
        r"[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf(?:inity)?|nan)",
        s,
        re.I,
    )
    if not m:
        ctx.err.write(f"bash: printf: {arg}: invalid number\n")
        state["status"] = 1
        return 0.0
    text = m.group(0)
    if m.end() != len(s):
        ctx.err.write(f"bash: printf: {arg}: invalid number\n")
        state["status"] = 1
    if text.lstrip("+-")[:2].lower() == "0x":
        return float(int(text, 16))
    return float(text)


def _strftime(ctx: Any, fmt: str, arg: str | None, state: dict) -> str:
    """`%(fmt)T`: the time `arg` (epoch seconds; -1 or none now, -2 the shell's start)."""
    seconds = _integer(ctx, arg, state) if arg not in (None, "") else -1
    if seconds in (-1, -2):
        seconds = int(time.time())
    return time.strftime(fmt or "%X", time.localtime(seconds))


_ALWAYS_QUOTED = set(" '\"\\`$<>()[]{}*?;&|!^,")


def printf_quote(s: str) -> str:
    """`printf %q`: bash's backslash quoting, or `$'…'` when a character is not printable."""
    if s == "":
        return "''"
    if any(not ch.isprintable() for ch in s):
        body = []
        for ch in s:
            code = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\x1b": "\\E", "\a": "\\a"}.get(ch)
            if code:
                body.append(code)
            elif ch in "'\\":
                body.append("\\" + ch)
            elif not ch.isprintable():
                body.append(f"\\{ord(ch):03o}" if ord(ch) < 256 else ch)
            else:
                body.append(ch)
        return "$'" + "".join(body) + "'"
    out = []
    for k, ch in enumerate(s):
        if ch in _ALWAYS_QUOTED or (k == 0 and ch in "#~"):
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)

"""sort, GNU style: keys with per-key options, numeric, human, general, version and
month orders, and the last-resort whole-line comparison."""

import functools
import re
from typing import Any, cast

from cove_guest.commands.date import MONTHS
from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, os_message
from cove_guest.text.inputs import decode, read_operand
from cove_guest.text.options import getopt

_SORT_LONGS = {
    "numeric-sort": ("n", 0),
    "reverse": ("r", 0),
    "unique": ("u", 0),
    "human-numeric-sort": ("h", 0),
    "ignore-case": ("f", 0),
    "key": ("k", 1),
    "field-separator": ("t", 1),
    "output": ("o", 1),
    "stable": ("s", 0),
    "general-numeric-sort": ("g", 0),
    "ignore-leading-blanks": ("b", 0),
    "ignore-nonprinting": ("i", 0),
    "check": ("check", 2),
    "version-sort": ("V", 0),
    "month-sort": ("M", 0),
    "dictionary-order": ("d", 0),
    "zero-terminated": ("z", 0),
    "random-sort": ("R", 0),
    "merge": ("m", 0),
    "buffer-size": ("S", 1),
    "temporary-directory": ("T", 1),
    "parallel": ("parallel", 1),
    "sort": ("sort", 1),
}
_SORT_WORDS = {
    "numeric": "n",
    "human-numeric": "h",
    "general-numeric": "g",
    "month": "M",
    "version": "V",
    "random": "R",
}


def sort(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(args, "bcCdfghik:mMno:rRsS:t:T:uVz", _SORT_LONGS)
    on: set[str] = set()
    vals: dict[str, str] = {}
    keyspecs: list[str] = []
    for opt, val in opts:
        if opt == "k":
            keyspecs.append(val or "")
        elif opt == "t":
            tab = val or ""
            if tab == "\\0":
                tab = "\0"
            if len(tab) != 1:
                raise ShellError("empty tab" if not tab else f"multi-character tab '{tab}'", 2)
            if "t" in vals and vals["t"] != tab:
                raise ShellError("incompatible tabs", 2)
            vals["t"] = tab
        elif opt in ("o", "S", "T", "parallel"):
            vals[opt] = val or ""
        elif opt == "check":
            on.add("C" if val in ("quiet", "silent") else "c")
        elif opt == "sort":
            if (val or "") not in _SORT_WORDS:
                raise ShellError(f"invalid argument '{val}' for '--sort'", 2)
            on.add(_SORT_WORDS[val or ""])
        else:
            on.add(opt)
    keys = [_sort_keyspec(k) for k in keyspecs]
    if ("c" in on or "C" in on) and len(names) > 1:
        flag = "c" if "c" in on else "C"
        raise ShellError(f"extra operand '{names[1]}' not allowed with -{flag}", 2)
    data = []
    for name in names or ["-"]:
        try:
            data.append(read_operand(ctx, name))
        except OSError as exc:
            raise ShellError(f"cannot read: {name}: {os_message(exc)}", 2) from None
    status = 0
    text = "".join(decode(d) for d in data)
    eol = "\0" if "z" in on else "\n"
    lines = text.split(eol)
    if lines and lines[-1] == "":
        lines.pop()
    sep = vals.get("t")
    glob = "".join(sorted(on & set("nrfhbdgMV")))
    specs = keys or [(1, 0, None, 0, "")]
    specs = [(f1, c1, f2, c2, opts or glob) for f1, c1, f2, c2, opts in specs]

    def compare(a: str, b: str) -> int:
        for f1, c1, f2, c2, opts in specs:
            if keys:
                x, y = (
                    _sort_field(a, sep, f1, c1, f2, c2, opts),
                    _sort_field(b, sep, f1, c1, f2, c2, opts),
                )
            else:
                x, y = a, b
            r = _sort_cmp(x, y, opts)
            if r:
                return -r if "r" in opts else r
        return 0

    def full(a: str, b: str) -> int:
        r = compare(a, b)
        if r or "s" in on or "u" in on:
            return r
        # GNU's last-resort comparison: whole lines, bytewise
        r = (a > b) - (a < b)
        return -r if "r" in on else r

    key = functools.cmp_to_key(full)
    if "c" in on or "C" in on:
        for k in range(1, len(lines)):
            r = full(lines[k - 1], lines[k])
            if r > 0 or (r == 0 and "u" in on):
                if "c" in on:
                    where = names[0] if names else "-"
                    ctx.err.write(f"sort: {where}:{k + 1}: disorder: {lines[k]}\n")
                return 1
        return 0
    lines.sort(key=key)
    if "u" in on:
        out: list[str] = []
        for ln in lines:
            if not out or compare(out[-1], ln) != 0:
                out.append(ln)
        lines = out
    body = "".join(ln + eol for ln in lines)
    if "o" in vals:
        try:
            with open(vals["o"], "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(body)
        except OSError as exc:
            raise ShellError(
                f"open failed: {vals['o']}: {os_message(exc, write=True)}", 2
            ) from None
    else:
        ctx.out.write(body)
    return status


# A key: (first field, its first character, last field or None, its last character, options).
_Key = tuple[int, int, int | None, int, str]


def _sort_keyspec(spec: str) -> _Key:
    m = re.fullmatch(r"(\d+)(?:\.(\d+))?([a-zA-Z]*)(?:,(\d+)(?:\.(\d+))?([a-zA-Z]*))?", spec)
    if m and int(m.group(1)) == 0:
        raise ShellError(f"field number is zero: invalid field specification '{spec}'", 2)
    if not m:
        raise ShellError(f"invalid number at field start: invalid count at start of '{spec}'", 2)
    f2 = int(m.group(4)) if m.group(4) else None
    return (
        int(m.group(1)),
        int(m.group(2) or 1),
        f2,
        int(m.group(5) or 0),
        (m.group(3) or "") + (m.group(6) or ""),
    )


def _sort_field(
    line: str, sep: str | None, f1: int, c1: int, f2: int | None, c2: int, opts: str
) -> str:
    """The text of one key: from field f1 (character c1) to the end of field f2 (or its
    character c2), fields split at `sep` or (without -t) before each run of blanks."""
    if sep is not None:
        starts, pos = [], 0
        for part in line.split(sep):
            starts.append((pos, pos + len(part)))
            pos += len(part) + len(sep)
    else:
        starts = [(m.start(), m.end()) for m in re.finditer(r"[ \t]*[^ \t]+", line)]
    if f1 > len(starts):
        return ""
    lo = starts[f1 - 1][0]
    if "b" in opts:
        while lo < len(line) and line[lo] in " \t":
            lo += 1
    lo += c1 - 1
    if f2 is None or f2 > len(starts):
        hi = len(line)
    elif c2:
        begin = starts[f2 - 1][0]
        if "b" in opts:
            while begin < len(line) and line[begin] in " \t":
                begin += 1
        hi = min(begin + c2, len(line))
    else:
        hi = starts[f2 - 1][1]
    return line[lo:hi] if lo < hi else ""


def _sort_num(s: str) -> float:
    m = re.match(r"\s*(-?(?:\d+(?:\.\d*)?|\.\d+))", s)
    return float(m.group(1)) if m else 0.0


def _sort_human(s: str) -> tuple[int, float]:
    m = re.match(r"\s*(-?(?:\d+(?:\.\d*)?|\.\d+))([KMGTPEZY]?)", s)
    if not m:
        return (0, 0.0)
    v = float(m.group(1))
    return (
        (1 if v > 0 else -1 if v < 0 else 0)
        * ("KMGTPEZY".find(m.group(2)) + 2 if m.group(2) else 1),
        v,
    )


def _sort_general(s: str) -> tuple[int, float]:
    # \s*(\S*) matches every string: the cast only says so to mypy.
    try:
        return (1, float(cast("re.Match[str]", re.match(r"\s*(\S*)", s)).group(1)))
    except ValueError:
        return (0, 0.0)


def _sort_cmp(x: str, y: str, opts: str) -> int:
    a: Any
    b: Any
    if "b" in opts:
        x, y = x.lstrip(" \t"), y.lstrip(" \t")
    if "n" in opts:
        a, b = _sort_num(x), _sort_num(y)
    elif "h" in opts:
        a, b = _sort_human(x), _sort_human(y)
    elif "g" in opts:
        a, b = _sort_general(x), _sort_general(y)
    elif "M" in opts:
        a, b = (
            MONTHS.index(v.strip()[:3].lower()) + 1 if v.strip()[:3].lower() in MONTHS else 0
            for v in (x, y)
        )
    elif "V" in opts:
        a, b = ([(int(p) if p.isdigit() else p) for p in re.findall(r"\d+|\D+", v)] for v in (x, y))
        try:
            return (a > b) - (a < b)
        except TypeError:
            a, b = x, y
    else:
        if "d" in opts:
            x, y = re.sub(r"[^\w\s]", "", x), re.sub(r"[^\w\s]", "", y)
        if "f" in opts:
            x, y = x.upper(), y.upper()
        a, b = x, y
    return (a > b) - (a < b)

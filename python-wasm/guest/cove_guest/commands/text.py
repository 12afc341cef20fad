"""Text commands: echo, cat, head, tail, wc, uniq, cut, tr, seq, nl, rev, tac, paste,
column, tee, fold, expand, shuf. (printf is in printf.py.)

Over 500 lines as a list of independent commands, each a function with its helpers beside it;
they share only `text/`'s option parsing and input reading.
"""

import decimal
import itertools
import math
import os
import random
import re
import stat as _stat
import sys
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any

from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, UsageError, os_message
from cove_guest.text.escapes import echo_escapes
from cove_guest.text.inputs import decode, read_inputs, read_operand, split_lines
from cove_guest.text.options import getopt, is_count_option, parse_options
from cove_guest.text.patterns import bre_to_re

# head's or tail's choice of what to print: (blob, -c or -n, the count as given, the count, eol).
_Pick = Callable[[bytes, str, str, int, bytes], bytes]


def echo(ctx: Context, args: list[str]) -> int:
    newline, escapes = True, False
    i = 0
    while i < len(args) and re.fullmatch(r"-[neE]+", args[i]):
        for ch in args[i][1:]:
            if ch == "n":
                newline = False
            elif ch == "e":
                escapes = True
            else:
                escapes = False
        i += 1
    text = " ".join(args[i:])
    if escapes:
        text, stop = echo_escapes(text)
        if stop:
            ctx.out.write(text)
            return 0
    ctx.out.write(text + ("\n" if newline else ""))
    return 0


def cat(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(
        args,
        "nAbsvET",
        long_map={
            "number": "n",
            "show-all": "A",
            "number-nonblank": "b",
            "squeeze-blank": "s",
            "show-ends": "E",
            "show-tabs": "T",
            "show-nonprinting": "v",
        },
    )
    if "A" in on:
        on |= {"v", "E", "T"}
    data, status = read_inputs(ctx, names, "cat")
    blob = b"".join(d for _, d in data)
    if "s" in on:
        blob = re.sub(rb"\n\n\n+", b"\n\n", blob)
    if on & {"v", "E", "T"}:
        blob = b"".join(_cat_visible(line, on) for line in split_lines(blob))
    if "n" in on or "b" in on:
        out = []
        k = 0
        for line in split_lines(blob):
            if "b" in on and line.strip(b"\n") == b"":
                out.append(line)
                continue
            k += 1
            out.append(b"%6d\t" % k + line)
        blob = b"".join(out)
    ctx.out.write(blob)
    return status


def _cat_visible(line: bytes, on: set[str]) -> bytes:
    """One line as cat -v / -E / -T show it: ^X for controls, M- for high bytes, $ at the end."""
    body, end = (line[:-1], b"\n") if line.endswith(b"\n") else (line, b"")
    out = bytearray()
    for c in body:
        if c == 9:
            out += b"^I" if "T" in on else b"\t"
        elif "v" not in on:
            out.append(c)
        else:
            prefix = b"M-" if c >= 128 else b""
            c &= 0x7F
            out += prefix + (b"^" + bytes([c ^ 0x40]) if c < 32 or c == 127 else bytes([c]))
    return bytes(out) + (b"$" if "E" in on and end else b"") + end


def _legacy_counts(args: list[str]) -> list[str]:
    """`head -5` / `tail -5` mean `-n 5`; a count that is the value of -n or -c stays as it is."""
    out: list[str] = []
    for k, a in enumerate(args):
        value_of = k > 0 and args[k - 1] in ("-n", "-c", "--lines", "--bytes")
        out.append(("-n" + a[1:]) if is_count_option(a) and not value_of else a)
    return out


_SIZE_SUFFIXES = {"b": 512, "k": 1024, "K": 1024, "m": 1024**2, "M": 1024**2, "G": 1024**3}
_SIZE_SUFFIXES |= {"T": 1024**4, "P": 1024**5, "E": 1024**6}


def _size_count(spec: str, what: str) -> int:
    """A head/tail count with GNU's multipliers (`2b` 512-byte blocks, `1K`/`1KiB` 1024,
    `1kB` 1000, `M`, `G`, ...), its sign kept; an invalid one is head's or tail's error."""
    m = re.fullmatch(r"([-+]?)(\d+)(?:([bkKmMGTPE])(iB|B)?)?", spec)
    if not m:
        raise ShellError(f"invalid number of {what}: '{spec}'")
    sign, digits, unit, kind = m.groups()
    n = int(digits)
    if unit:
        n *= (1000 ** ("KMGTPE".index(unit.upper()) + 1)) if kind == "B" else _SIZE_SUFFIXES[unit]
    return -n if sign == "-" else n


def _lines_of(blob: bytes, eol: bytes) -> list[bytes]:
    """Lines with their terminators, split at `eol` only (a CR is part of its line)."""
    parts = blob.split(eol)
    last = parts.pop()
    return [p + eol for p in parts] + ([last] if last else [])


def _head_tail_options(cmd: str, args: list[str]) -> tuple[list[tuple[str, str | None]], list[str]]:
    """head's or tail's options, GNU style (tail takes -f too, and ends at the end)."""
    longs = {
        "bytes": ("c", 1),
        "lines": ("n", 1),
        "quiet": ("q", 0),
        "silent": ("q", 0),
        "verbose": ("v", 0),
        "zero-terminated": ("z", 0),
    }
    if cmd == "head":
        return getopt(args, "c:n:qvz", longs)
    # tail -f: nothing else can write to the file while the shell waits, so it ends at the end
    return getopt(args, "c:n:qvzfF", longs | {"follow": ("f", 2), "retry": ("f", 0)})


def _head_tail(ctx: Context, cmd: str, args: list[str], pick: _Pick) -> int:
    """What head and tail share: their options, the operands read in turn (an unreadable one
    reported, the rest still read) and the `==> name <==` headers."""
    args = _legacy_counts(args)
    if cmd == "tail" and args and re.fullmatch(r"\+\d+", args[0]):
        args = ["-n", args[0], *args[1:]]
    opts, names = _head_tail_options(cmd, args)
    mode, spec, headers, eol = "n", "10", None, b"\n"
    for key, val in opts:
        if key in ("c", "n"):
            mode, spec = key, val or ""
        elif key == "q":
            headers = False
        elif key == "v":
            headers = True
        elif key == "z":
            eol = b"\0"
    count = _size_count(spec, "bytes" if mode == "c" else "lines")
    names = names or ["-"]
    if headers is None:
        headers = len(names) > 1
    status = 0
    first = True
    for name in names:
        try:
            blob = read_operand(ctx, name)
        except IsADirectoryError:
            ctx.err.write(f"{cmd}: error reading '{name}': Is a directory\n")
            status = 1
            continue
        except OSError as exc:
            ctx.err.write(f"{cmd}: cannot open '{name}' for reading: {os_message(exc)}\n")
            status = 1
            continue
        if headers:
            shown = "standard input" if name == "-" else name
            ctx.out.write(("" if first else "\n") + f"==> {shown} <==\n")
        first = False
        ctx.out.write(pick(blob, mode, spec, count, eol))
    return status


def head(ctx: Context, args: list[str]) -> int:
    def pick(blob: bytes, mode: str, spec: str, n: int, eol: bytes) -> bytes:
        items: Any = blob if mode == "c" else _lines_of(blob, eol)
        kept = items[:n] if n >= 0 else items[: max(len(items) + n, 0)]
        return kept if mode == "c" else b"".join(kept)

    return _head_tail(ctx, "head", args, pick)


def tail(ctx: Context, args: list[str]) -> int:
    def pick(blob: bytes, mode: str, spec: str, n: int, eol: bytes) -> bytes:
        items: Any = blob if mode == "c" else _lines_of(blob, eol)
        n = abs(n)
        if spec.startswith("+"):
            kept = items[max(n - 1, 0) :]  # from item N on
        else:
            kept = items[len(items) - n :] if n else items[:0]
        return kept if mode == "c" else b"".join(kept)

    return _head_tail(ctx, "tail", args, pick)


def wc(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "clLmw",
        {
            "bytes": ("c", 0),
            "chars": ("m", 0),
            "lines": ("l", 0),
            "max-line-length": ("L", 0),
            "words": ("w", 0),
        },
    )
    on = {key for key, _ in opts} or {"l", "w", "c"}
    order = [("l", 0), ("w", 1), ("m", 2), ("c", 3), ("L", 4)]
    fields = [idx for key, idx in order if key in on]
    operands = names or ["-"]
    # GNU's width: 1 for one count of one input; else the digits of the regular operands'
    # total size, at least 7 when one is not a regular file (a pipe, /dev/null)
    width = 1
    if not (len(fields) == 1 and len(operands) == 1):
        regular_total, minimum = 0, 1
        for name in operands:
            if name == "-":
                minimum = 7
                continue
            try:
                st = os.stat(name)
            except OSError:
                continue
            if _stat.S_ISREG(st.st_mode):
                regular_total += st.st_size
            else:
                minimum = 7
        width = max(len(str(regular_total)), minimum)
    status = 0
    totals = [0, 0, 0, 0, 0]
    out = []
    for name in operands:
        try:
            blob = read_operand(ctx, name)
        except IsADirectoryError:
            ctx.err.write(f"wc: {name}: Is a directory\n")
            status, blob = 1, b""
        except OSError as exc:
            ctx.err.write(f"wc: {name}: {os_message(exc)}\n")
            status = 1
            continue
        text = decode(blob)
        longest = max((_display_width(ln) for ln in text.split("\n")), default=0)
        counts = [blob.count(b"\n"), len(blob.split()), len(text), len(blob), longest]
        totals = [a + b for a, b in zip(totals[:4], counts[:4], strict=True)] + [
            max(totals[4], longest)
        ]
        out.append(" ".join(str(counts[i]).rjust(width) for i in fields))
        out[-1] += f" {name}\n" if names else "\n"
    if len(operands) > 1:
        out.append(" ".join(str(totals[i]).rjust(width) for i in fields) + " total\n")
    ctx.out.write("".join(out))
    return status


def _display_width(line: str) -> int:
    """Columns a line takes, as wc -L counts them: tabs to the next multiple of 8, East Asian
    wide characters two, control characters none."""
    col = 0
    for ch in line:
        if ch == "\t":
            col += 8 - col % 8
        elif unicodedata.east_asian_width(ch) in ("W", "F"):
            col += 2
        elif ch.isprintable():
            col += 1
    return col


def tee(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "aip",
        {
            "append": ("a", 0),
            "ignore-interrupts": ("i", 0),
            "output-error": ("p", 2),
        },
    )
    mode = "ab" if ("a", None) in opts else "wb"
    status = 0
    for name in names:
        try:
            with open(name, mode) as f:
                f.write(ctx.stdin)
        except OSError as exc:
            ctx.err.write(f"tee: {name}: {os_message(exc, write=True)}\n")
            status = 1
    ctx.out.write(ctx.stdin)
    return status


def uniq(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "cdDf:is:uw:z",
        {
            "count": ("c", 0),
            "repeated": ("d", 0),
            "all-repeated": ("all", 2),
            "skip-fields": ("f", 1),
            "ignore-case": ("i", 0),
            "skip-chars": ("s", 1),
            "unique": ("u", 0),
            "check-chars": ("w", 1),
            "zero-terminated": ("z", 0),
            "group": ("group", 2),
        },
    )
    on: set[str] = set()
    skip_fields = skip_chars = 0
    width: int | None = None
    method = ""
    for key, val in opts:
        if key in ("f", "s", "w"):
            what = {
                "f": "number of fields to skip",
                "s": "number of bytes to skip",
                "w": "number of bytes to compare",
            }[key]
            if not re.fullmatch(r"\+?\d+", val or ""):
                raise ShellError(f"{val}: invalid {what}")
            if key == "f":
                skip_fields = int(val or 0)
            elif key == "s":
                skip_chars = int(val or 0)
            else:
                width = int(val or 0)
        elif key in ("D", "all"):
            on.add("D")
            method = val or "none"
            if method not in ("none", "prepend", "separate"):
                raise UsageError(f"invalid argument '{method}' for '--all-repeated'")
        elif key == "group":
            on.add("group")
            method = val or "separate"
            if method not in ("separate", "prepend", "append", "both"):
                raise UsageError(f"invalid argument '{method}' for '--group'")
        else:
            on.add(key)
    if "group" in on and on & {"c", "d", "D", "u"}:
        raise UsageError("--group is mutually exclusive with -c/-d/-D/-u")
    if "c" in on and "D" in on:
        raise UsageError("printing all duplicated lines and repeat counts is meaningless")
    if len(names) > 2:
        raise UsageError(f"extra operand '{names[2]}'")
    eol = b"\0" if "z" in on else b"\n"
    data, status = read_inputs(ctx, names[:1], "uniq")
    if status:
        return status
    lines = _records(data[0][1], eol) if data[0][1] else []

    def key_of(line: bytes) -> bytes:
        rest = line
        for _ in range(skip_fields):
            rest = rest.lstrip(b" \t")
            m = re.match(rb"[^ \t]*", rest)
            rest = rest[m.end() if m else 0 :]
        rest = rest[skip_chars:]
        if width is not None:
            rest = rest[:width]
        return rest.lower() if "i" in on else rest

    groups: list[list[bytes]] = []
    last = None
    for line in lines:
        k = key_of(line)
        if groups and k == last:
            groups[-1].append(line)
        else:
            groups.append([line])
        last = k
    out: list[bytes] = []
    if "group" in on:
        for n, group in enumerate(groups):
            if (n and method in ("separate", "both")) or (method in ("prepend", "both")):
                out.append(eol)
            out.extend(line + eol for line in group)
            if method == "append":
                out.append(eol)
        if groups and method == "both":
            out.append(eol)
    elif "D" in on:
        shown = 0
        for group in groups:
            if len(group) < 2:
                continue
            if method == "prepend" or (method == "separate" and shown):
                out.append(eol)
            shown += 1
            out.extend(line + eol for line in group)
    else:
        for group in groups:
            if ("d" in on and len(group) < 2) or ("u" in on and len(group) > 1):
                continue
            out.append((b"%7d " % len(group) if "c" in on else b"") + group[0] + eol)
    body = b"".join(out)
    if len(names) > 1:
        try:
            with open(names[1], "wb") as f:
                f.write(body)
        except OSError as exc:
            raise ShellError(f"{names[1]}: {os_message(exc, write=True)}") from None
    else:
        ctx.out.write(body)
    return 0


def cut(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "b:c:d:f:nsz",
        {
            "bytes": ("b", 1),
            "characters": ("c", 1),
            "delimiter": ("d", 1),
            "fields": ("f", 1),
            "complement": ("complement", 0),
            "only-delimited": ("s", 0),
            "output-delimiter": ("od", 1),
            "zero-terminated": ("z", 0),
        },
    )
    lists: list[tuple[str, str]] = []
    on: set[str] = set()
    delim: bytes | None = None
    out_delim: bytes | None = None
    for key, val in opts:
        if key in ("b", "c", "f"):
            if lists:
                raise UsageError("only one list may be specified")
            lists.append(("f" if key == "f" else "b", val or ""))
        elif key == "d":
            delim = (val or "").encode("utf-8", "surrogateescape") or b"\0"
            if len(delim) > 1:
                raise UsageError("the delimiter must be a single character")
        elif key == "od":
            out_delim = (val or "").encode("utf-8", "surrogateescape")
        else:
            on.add(key)
    if not lists:
        raise UsageError("you must specify a list of bytes, characters, or fields")
    mode, spec = lists[0]
    if mode == "b" and delim is not None:
        raise UsageError("an input delimiter may be specified only when operating on fields")
    if mode == "b" and "s" in on:
        raise UsageError(
            "suppressing non-delimited lines makes sense\n\tonly when operating on fields"
        )
    ranges = _cut_ranges(spec, mode)
    if "complement" in on:
        ranges = _cut_complement(ranges)
    eol = b"\0" if "z" in on else b"\n"
    data, status = read_inputs(ctx, names, "cut")
    out = []
    for _, blob in data:
        for line in _records(blob, eol) if blob else []:
            if mode == "f":
                d = delim if delim is not None else b"\t"
                if d not in line:
                    if "s" not in on:
                        out.append(line + eol)
                    continue
                parts = line.split(d)
                picked = [p for k, p in enumerate(parts, 1) if _cut_in(ranges, k)]
                out.append((d if out_delim is None else out_delim).join(picked) + eol)
                continue
            pieces = [line[lo - 1 : hi] for lo, hi in ranges if lo <= len(line)]
            out.append((out_delim if out_delim is not None else b"").join(pieces) + eol)
    ctx.out.write(b"".join(out))
    return status


def _cut_ranges(spec: str, mode: str) -> list[tuple[int, int]]:
    """A cut LIST as sorted (lo, hi) ranges, overlapping ones merged (adjacent ones are not:
    --output-delimiter goes between them), as GNU's set_fields."""
    what = "field" if mode == "f" else "byte/character"
    ranges = []
    for part in spec.split(","):
        m = re.fullmatch(r"(\d*)(-?)(\d*)", part)
        if not m or part in ("", "-"):
            if part == "-":
                raise UsageError("invalid range with no endpoint: -")
            raise UsageError(f"invalid {what} {'value' if mode == 'f' else 'position'} '{part}'")
        lo_s, dash, hi_s = m.groups()
        lo = int(lo_s) if lo_s else 1
        hi = (int(hi_s) if hi_s else sys.maxsize) if dash else lo
        if (lo_s and int(lo_s) == 0) or (hi_s and int(hi_s) == 0):
            raise UsageError(
                "fields are numbered from 1"
                if mode == "f"
                else "byte/character positions are numbered from 1"
            )
        if hi < lo:
            raise UsageError("invalid decreasing range")
        ranges.append((lo, hi))
    ranges.sort()
    merged: list[tuple[int, int]] = []
    for lo, hi in ranges:
        if merged and merged[-1][1] >= lo:
            merged[-1] = (merged[-1][0], max(merged[-1][1], hi))
        else:
            merged.append((lo, hi))
    return merged


def _cut_complement(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges not in `ranges` (cut --complement)."""
    out: list[tuple[int, int]] = []
    start = 1
    for lo, hi in ranges:
        if lo > start:
            out.append((start, lo - 1))
        start = max(start, hi + 1) if hi < sys.maxsize else sys.maxsize
    if start < sys.maxsize:
        out.append((start, sys.maxsize))
    return out


def _cut_in(ranges: list[tuple[int, int]], k: int) -> bool:
    return any(lo <= k <= hi for lo, hi in ranges)


def tr(ctx: Context, args: list[str]) -> int:
    opts, sets = getopt(
        args,
        "cCdst",
        {
            "complement": ("c", 0),
            "delete": ("d", 0),
            "squeeze-repeats": ("s", 0),
            "truncate-set1": ("t", 0),
        },
    )
    on = {"c" if key == "C" else key for key, _ in opts}
    deleting, squeezing = "d" in on, "s" in on
    if not sets:
        raise UsageError("missing operand")
    wanted = 2 if (deleting and squeezing) or not (deleting or squeezing) else 1
    if len(sets) < wanted:
        more = (
            "Two strings must be given when translating."
            if not deleting
            else "Two strings must be given when both deleting and squeezing repeats."
        )
        raise UsageError(f"missing operand after '{sets[-1]}'\n{more}")
    if len(sets) > 2 or (len(sets) == 2 and deleting and not squeezing):
        extra = "Only one string may be given when deleting without squeezing repeats."
        raise UsageError(
            f"extra operand '{sets[2] if len(sets) > 2 else sets[1]}'"
            + (f"\n{extra}" if deleting and not squeezing else "")
        )
    src, src_classes = _tr_set(sets[0], first=True)
    text = decode(ctx.stdin)
    if "c" in on:
        inside = set(src)
        src = [ch for ch in sorted(set(text) | {chr(b) for b in range(256)}) if ch not in inside]
    if deleting:
        gone = set(src)
        out = "".join(ch for ch in text if ch not in gone)
        if squeezing:
            out = _squeeze(out, set(_tr_set(sets[1])[0]))
        ctx.out.write(out)
        return 0
    if len(sets) == 1:
        ctx.out.write(_squeeze(text, set(src)))
        return 0
    dst, dst_classes = _tr_set(sets[1], fill=len(src))
    for k, name in dst_classes:
        # [:upper:] / [:lower:] in set2 only opposite the other case class in set1
        if (k, "lower" if name == "upper" else "upper") not in src_classes:
            raise ShellError("misaligned [:upper:] and/or [:lower:] construct")
    if "t" in on:
        src = src[: len(dst)]
    elif not dst:
        raise ShellError("when not truncating set1, string2 must be non-empty")
    dst = dst + [dst[-1]] * (len(src) - len(dst))
    table: dict[str, str] = {}
    for a, b in zip(src, dst, strict=False):
        table[a] = b  # the last mapping of a repeated character wins, as in GNU
    out = "".join(table.get(ch, ch) for ch in text)
    if squeezing:
        out = _squeeze(out, set(dst))
    ctx.out.write(out)
    return 0


def _squeeze(text: str, chars: str | set[str]) -> str:
    out: list[str] = []
    for ch in text:
        if out and out[-1] == ch and ch in chars:
            continue
        out.append(ch)
    return "".join(out)


_TR_CLASSES = {
    "lower": "abcdefghijklmnopqrstuvwxyz",
    "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "digit": "0123456789",
    "xdigit": "0123456789ABCDEFabcdef",
    "space": "\t\n\v\f\r ",
    "blank": "\t ",
    "alpha": "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "alnum": "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
    "punct": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    "cntrl": "".join(chr(c) for c in [*range(32), 127]),
    "print": "".join(chr(c) for c in range(32, 127)),
    "graph": "".join(chr(c) for c in range(33, 127)),
}
_TR_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


def _tr_set(s: str, first: bool = False, fill: int = 0) -> tuple[list[str], list[tuple[int, str]]]:
    """A tr SET as its characters in order, and the case classes it names, with their
    positions: escapes, ranges, [:class:], [=c=], and (in SET2) [c*n] and [c*], which fills
    SET2 to `fill` characters."""
    out: list[str] = []
    classes: list[tuple[int, str]] = []
    star_at = None
    star_char = ""
    i = 0

    def one(i: int) -> tuple[str, int]:
        """The character at s[i] (an escape included) and where the next one starts."""
        if s[i] == "\\" and i + 1 < len(s):
            m = re.match(r"[0-7]{1,3}", s[i + 1 :])
            if m:
                return chr(int(m.group(0), 8) & 0xFF), i + 1 + len(m.group(0))
            return _TR_ESCAPES.get(s[i + 1], s[i + 1]), i + 2
        return s[i], i + 1

    while i < len(s):
        m = re.match(r"\[:(\w+):\]", s[i:])
        if m:
            name = m.group(1)
            if name not in _TR_CLASSES:
                raise ShellError(f"invalid character class '{name}'")
            if name in ("upper", "lower"):
                classes.append((len(out), name))
            out.extend(_TR_CLASSES[name])
            i += m.end()
            continue
        m = re.match(r"\[=(.)=\]", s[i:])
        if m:
            out.append(m.group(1))
            i += m.end()
            continue
        if not first and s[i] == "[" and i + 1 < len(s):
            c, j = one(i + 1)
            m = re.match(r"\*(\d*)\]", s[j:])
            if m:
                if m.group(1) and int(m.group(1), 8 if m.group(1).startswith("0") else 10):
                    count = int(m.group(1), 8 if m.group(1).startswith("0") else 10)
                    out.extend(c * count)
                else:
                    star_at, star_char = len(out), c
                i = j + m.end()
                continue
        c, j = one(i)
        if j < len(s) - 1 and s[j] == "-":
            end, k = one(j + 1)
            if ord(end) < ord(c):
                raise ShellError(
                    f"range-endpoints of '{s[i:k]}' are in reverse collating sequence order"
                )
            out.extend(chr(x) for x in range(ord(c), ord(end) + 1))
            i = k
            continue
        out.append(c)
        i = j
    if star_at is not None:
        out[star_at:star_at] = star_char * max(fill - len(out), 0)
    return out, classes


_SEQ_NUMBER = re.compile(r"[-+]?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")


def _seq_number(arg: str) -> tuple[decimal.Decimal, int]:
    """An operand as an exact number, and the decimals GNU prints it with (its digits after the
    point less its exponent)."""
    if not _SEQ_NUMBER.fullmatch(arg):
        if arg.lower().lstrip("+-") in ("nan",):
            raise UsageError(f"invalid 'not-a-number' argument: '{arg}'")
        if arg.lower().lstrip("+-") in ("inf", "infinity"):
            raise ShellError("an endless sequence cannot be printed here (no reader can stop it)")
        raise UsageError(f"invalid floating point argument: '{arg}'")
    body = arg.lstrip("+-")
    if body[:2].lower() == "0x":
        value = decimal.Decimal(int(body, 16))
        return (-value if arg.startswith("-") else value), 0
    mantissa, _, exponent = body.lower().partition("e")
    decimals = len(mantissa.partition(".")[2]) - int(exponent or 0)
    return decimal.Decimal(arg), max(decimals, 0)


def seq(ctx: Context, args: list[str]) -> int:
    # Options first; operands may be negative numbers, so no generic option parsing.
    sep, fmt, equal = "\n", None, False
    nums: list[str] = []
    k = 0
    while k < len(args):
        a = args[k]
        if nums or not a.startswith("-") or re.fullmatch(r"-[\d.].*", a) or a == "-":
            nums.append(a)
        elif a == "--":
            nums.extend(args[k + 1 :])
            break
        elif a in ("-s", "-f") or a in ("--separator", "--format"):
            if k + 1 >= len(args):
                raise UsageError(f"option requires an argument -- '{a[1]}'")
            if a[1] in "s-" and a != "--format":
                sep = args[k + 1]
            else:
                fmt = args[k + 1]
            k += 1
        elif a.startswith(("--separator=", "--format=")):
            name, _, value = a.partition("=")
            if name == "--separator":
                sep = value
            else:
                fmt = value
        elif a.startswith("-s"):
            sep = a[2:]
        elif a.startswith("-f"):
            fmt = a[2:]
        elif a in ("-w", "--equal-width"):
            equal = True
        elif a.startswith("--"):
            raise UsageError(f"unrecognized option '{a}'")
        else:
            raise UsageError(f"invalid option -- '{a[1]}'")
        k += 1
    if not nums:
        raise UsageError("missing operand")
    if len(nums) > 3:
        raise UsageError(f"extra operand '{nums[3]}'")
    parsed = [_seq_number(x) for x in nums]
    first, step = (decimal.Decimal(1), 0), (decimal.Decimal(1), 0)
    if len(parsed) == 1:
        last = parsed[0]
    elif len(parsed) == 2:
        first, last = parsed
    else:
        first, step, last = parsed
    if step[0] == 0:
        raise UsageError(f"invalid Zero increment value: '{nums[1]}'")
    if fmt is not None:
        real = [d for d in re.findall(r"%%|%[-+ #0']*\d*(?:\.\d*)?[a-zA-Z]?", fmt) if d != "%%"]
        if not real:
            raise ShellError(f"format '{fmt}' has no % directive")
        if len(real) > 1:
            raise ShellError(f"format '{fmt}' has too many % directives")
        if real[0][-1] not in "eEfFgGaA":
            raise ShellError(f"format '{fmt}' has unknown {real[0]} directive")
    decimals = max(first[1], step[1])

    def show(x: decimal.Decimal) -> str:
        if fmt is not None:
            return fmt.replace("'", "") % float(x)
        if decimals:
            return f"{x:.{decimals}f}"
        return str(int(x)) if x == x.to_integral_value() else str(x)

    width = max(len(show(first[0])), len(show(last[0]))) if equal else 0
    if fmt is None and not decimals and _seq_integral(first[0], step[0], last[0]):
        texts = _seq_integers(int(first[0]), int(step[0]), last[0])
    else:
        texts = _seq_decimals(first[0], step[0], last[0], show)
    if width and fmt is None:
        texts = (text.zfill(width) for text in texts)
    # Written a chunk at a time, never built whole: `seq 1 100000000` streams into the bounded
    # output (and the call's time limit ends it) instead of filling the interpreter's memory.
    chunk = list(itertools.islice(texts, _SEQ_CHUNK))
    if not chunk:
        return 0
    ctx.out.write(sep.join(chunk))
    while chunk := list(itertools.islice(texts, _SEQ_CHUNK)):
        ctx.out.write(sep + sep.join(chunk))
    ctx.out.write("\n")
    return 0


_SEQ_CHUNK = 4096
# Below this, integers are exact in `decimal`'s default context too: the fast path prints what
# the exact one would.
_SEQ_EXACT = decimal.Decimal(10) ** 18


def _seq_integral(first: decimal.Decimal, step: decimal.Decimal, last: decimal.Decimal) -> bool:
    """Whether every number of the sequence is an integer small enough to count with `range`."""
    small = all(abs(v) < _SEQ_EXACT for v in (first, step, last))
    return small and first == first.to_integral_value() and step == step.to_integral_value()


def _seq_integers(first: int, step: int, last: decimal.Decimal) -> Iterator[str]:
    stop = math.floor(last) + 1 if step > 0 else math.ceil(last) - 1
    return map(str, range(first, stop, step))


def _seq_decimals(
    first: decimal.Decimal,
    step: decimal.Decimal,
    last: decimal.Decimal,
    show: Callable[[decimal.Decimal], str],
) -> Iterator[str]:
    n = 0
    while True:
        x = first + n * step
        if (step > 0 and x > last) or (step < 0 and x < last):
            return
        yield show(x)
        n += 1


def nl(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "b:d:f:h:i:l:n:ps:v:w:",
        {
            "body-numbering": ("b", 1),
            "section-delimiter": ("d", 1),
            "footer-numbering": ("f", 1),
            "header-numbering": ("h", 1),
            "line-increment": ("i", 1),
            "join-blank-lines": ("l", 1),
            "number-format": ("n", 1),
            "no-renumber": ("p", 0),
            "number-separator": ("s", 1),
            "starting-line-number": ("v", 1),
            "number-width": ("w", 1),
        },
    )
    style, fmt, sep, start, step, width = "t", "rn", "\t", 1, 1, 6
    for key, value in opts:
        val = value or ""
        if key == "b":
            if val not in ("a", "t", "n") and not val.startswith("p"):
                raise UsageError(f"invalid body numbering style: '{val}'")
            style = val
        elif key == "n":
            if val not in ("ln", "rn", "rz"):
                raise UsageError(f"invalid line numbering format: '{val}'")
            fmt = val
        elif key == "s":
            sep = val
        elif key in ("v", "i", "w"):
            if not re.fullmatch(r"[-+]?\d+", val):
                what = {"v": "starting line number", "i": "line number increment"}
                raise ShellError(f"invalid {what.get(key, 'line number field width')}: '{val}'")
            number = int(val)
            if key == "w" and number < 1:
                raise ShellError(
                    f"invalid line number field width: '{val}': Numerical result out of range"
                )
            if key == "v":
                start = number
            elif key == "i":
                step = number
            else:
                width = number
    pattern = re.compile(bre_to_re(style[1:])) if style.startswith("p") else None
    data, status = read_inputs(ctx, names, "nl")
    text = "".join(decode(d) for _, d in data)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    k = start
    blank = " " * (width + len(sep))
    for ln in lines:
        if style == "a" or (style == "t" and ln) or (pattern is not None and pattern.search(ln)):
            if fmt == "ln":
                shown = f"{k:<{width}d}"
            elif fmt == "rz":
                shown = f"{k:0{width}d}"
            else:
                shown = f"{k:>{width}d}"
            out.append(f"{shown}{sep}{ln}\n")
            k += step
        else:
            out.append(f"{blank}{ln}\n")
    ctx.out.write("".join(out))
    return status


def rev(ctx: Context, args: list[str]) -> int:
    data, status = read_inputs(ctx, args, "rev")
    text = "".join(decode(d) for _, d in data)
    lines = text.split("\n")
    trailing = lines and lines[-1] == ""
    if trailing:
        lines.pop()
    ctx.out.write("".join(ln[::-1] + "\n" for ln in lines))
    return status


def tac(ctx: Context, args: list[str]) -> int:
    data, status = read_inputs(ctx, args, "tac")
    for _, blob in data:
        ctx.out.write(b"".join(reversed(split_lines(blob))))
    return status


def paste(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "d:sz",
        {"delimiters": ("d", 1), "serial": ("s", 0), "zero-terminated": ("z", 0)},
    )
    delims: list[bytes] = [b"\t"]
    serial, eol = False, b"\n"
    for key, val in opts:
        if key == "d":
            delims = _paste_delims(val or "")
        elif key == "s":
            serial = True
        else:
            eol = b"\0"
    names = names or ["-"]
    if serial:
        return _paste_serial(ctx, names, delims, eol)
    # GNU opens every operand first: a missing one stops paste before any output
    inputs: list[list[bytes] | None] = []
    stdin = _LineReader(ctx.stdin, eol)
    for name in names:
        if name == "-":
            inputs.append(None)
            continue
        try:
            inputs.append(_records(read_operand(ctx, name), eol))
        except OSError as exc:
            raise ShellError(f"{name}: {os_message(exc)}") from None
    readers = [stdin if lines is None else _LineReader(lines, eol) for lines in inputs]
    is_open = [True] * len(readers)
    out: list[bytes] = []
    while any(is_open):
        somedone = False
        saved: list[bytes] = []
        d = 0
        for i, reader in enumerate(readers):
            if not any(is_open):
                break
            line = reader.next() if is_open[i] else None
            if line is None:
                is_open[i] = False
                if i + 1 == len(readers):
                    if somedone:
                        out.extend(saved)
                        out.append(eol)
                else:
                    saved.append(delims[d % len(delims)])
                    d += 1
                continue
            out.extend(saved)
            saved = []
            somedone = True
            out.append(line)
            if i + 1 != len(readers):
                out.append(delims[d % len(delims)])
                d += 1
            else:
                out.append(eol)
    ctx.out.write(b"".join(out))
    return 0


def _records(blob: bytes, eol: bytes) -> list[bytes]:
    """The lines of `blob` without their terminators (a last unterminated one counts)."""
    parts = blob.split(eol)
    if parts[-1] == b"":
        parts.pop()
    return parts


class _LineReader:
    """An input read a line at a time; the operands `-` share stdin's one reader."""

    def __init__(self, source: bytes | list[bytes], eol: bytes) -> None:
        self.lines = _records(source, eol) if isinstance(source, bytes) else source
        self.pos = 0

    def next(self) -> bytes | None:
        if self.pos >= len(self.lines):
            return None
        self.pos += 1
        return self.lines[self.pos - 1]


def _paste_delims(spec: str) -> list[bytes]:
    """-d LIST: its escapes (`\\0` is no delimiter at all), each entry one byte, as GNU's."""
    if spec == "":
        spec = "\\0"
    out = []
    raw = spec.encode("utf-8", "surrogateescape")
    i = 0
    escapes = {ord("0"): b"", ord("b"): b"\b", ord("f"): b"\f", ord("n"): b"\n"}
    escapes |= {ord("r"): b"\r", ord("t"): b"\t", ord("v"): b"\v", ord("\\"): b"\\"}
    while i < len(raw):
        c = raw[i]
        if c == ord("\\"):
            if i + 1 >= len(raw):
                raise ShellError(f"delimiter list ends with an unescaped backslash: {spec}")
            out.append(escapes.get(raw[i + 1], raw[i + 1 : i + 2]))
            i += 2
            continue
        out.append(raw[i : i + 1])
        i += 1
    return out


def _paste_serial(ctx: Context, names: list[str], delims: list[bytes], eol: bytes) -> int:
    status = 0
    stdin_read = False
    out = []
    for name in names:
        try:
            blob = read_operand(ctx, name)
        except OSError as exc:
            ctx.err.write(f"paste: {name}: {os_message(exc)}\n")
            status = 1
            continue
        if name == "-":
            blob, stdin_read = (b"" if stdin_read else blob), True  # a later `-` finds its end
        lines = _records(blob, eol) if blob else []
        joined = []
        for k, line in enumerate(lines):
            if k:
                joined.append(delims[(k - 1) % len(delims)])
            joined.append(line)
        out.append(b"".join(joined) + eol)
    ctx.out.write(b"".join(out))
    return status


def column(ctx: Context, args: list[str]) -> int:
    on, vals, names = parse_options(args, "tn", with_value="so")
    data, status = read_inputs(ctx, names, "column")
    text = "".join(decode(d) for _, d in data)
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if "t" not in on:
        ctx.out.write("".join(ln + "\n" for ln in lines))
        return status
    sep = vals.get("s")
    rows = [ln.split(sep) if sep else ln.split() for ln in lines]
    width = max((len(r) for r in rows), default=0)
    widths = [max((len(r[k]) for r in rows if k < len(r)), default=0) for k in range(width)]
    outsep = vals.get("o", "  ")
    for r in rows:
        cells = [c.ljust(widths[k]) if k < len(r) - 1 else c for k, c in enumerate(r)]
        ctx.out.write(outsep.join(cells).rstrip() + "\n")
    return status


def _column_after(col: int, ch: str) -> int:
    """The column after `ch` at `col`, as fold and expand count: tabs to the next multiple of 8,
    backspace one back, carriage return to 0."""
    if ch == "\t":
        return col + 8 - col % 8
    if ch == "\b":
        return max(col - 1, 0)
    if ch == "\r":
        return 0
    return col + 1


def fold(ctx: Context, args: list[str]) -> int:
    args = [("-w" + a[1:]) if re.fullmatch(r"-\d+", a) else a for a in args]
    opts, names = getopt(args, "bsw:", {"bytes": ("b", 0), "spaces": ("s", 0), "width": ("w", 1)})
    width, spaces, by_bytes = 80, False, False
    for key, val in opts:
        if key == "w":
            if not re.fullmatch(r"\d+", val or "") or int(val or 0) == 0:
                raise ShellError(f"invalid number of columns: '{val}'")
            width = int(val or 0)
        elif key == "s":
            spaces = True
        else:
            by_bytes = True
    data, status = read_inputs(ctx, names, "fold")
    out = []
    for _, blob in data:
        text = decode(blob)
        for line in text.split("\n"):
            out.append(_fold_line(line, width, spaces, by_bytes))
            out.append("\n")
        out.pop()  # the split's last piece has no newline after it
    ctx.out.write("".join(out))
    return status


def _fold_line(line: str, width: int, spaces: bool, by_bytes: bool) -> str:
    out: list[str] = []
    buf: list[str] = []
    col = 0
    for ch in line:
        while True:
            new = col + 1 if by_bytes else _column_after(col, ch)
            if new <= width:
                buf.append(ch)
                col = new
                break
            if spaces:
                blank = max((k for k, c in enumerate(buf) if c in " \t"), default=-1)
                if blank >= 0:
                    out.append("".join(buf[: blank + 1]) + "\n")
                    buf = buf[blank + 1 :]
                    col = 0
                    for c in buf:
                        col = col + 1 if by_bytes else _column_after(col, c)
                    continue
            if not buf:
                buf.append(ch)
                col = new
                break
            out.append("".join(buf) + "\n")
            buf, col = [], 0
    out.append("".join(buf))
    return "".join(out)


def expand(ctx: Context, args: list[str]) -> int:
    args = [("-t" + a[1:]) if re.fullmatch(r"-\d+(,\d+)*", a) else a for a in args]
    opts, names = getopt(args, "it:", {"initial": ("i", 0), "tabs": ("t", 1)})
    stops: list[int] = []
    initial = False
    for key, val in opts:
        if key == "i":
            initial = True
        else:
            for part in re.split(r"[, ]", val or ""):
                if not part.isdigit() or int(part) == 0:
                    raise ShellError(f"tab size contains invalid character(s): '{val}'")
                stops.append(int(part))
    stops = stops or [8]

    def next_stop(col: int) -> int:
        if len(stops) == 1:
            return col + stops[0] - col % stops[0]
        return next((s for s in stops if s > col), col + 1)

    data, status = read_inputs(ctx, names, "expand")
    out = []
    for _, blob in data:
        for line in decode(blob).splitlines(keepends=True):
            col, leading = 0, True
            for ch in line:
                if ch == "\t" and (leading or not initial):
                    stop = next_stop(col)
                    out.append(" " * (stop - col))
                    col = stop
                    continue
                if ch not in " \t":
                    leading = False
                out.append(ch)
                col = 0 if ch == "\n" else _column_after(col, ch)
    ctx.out.write("".join(out))
    return status


def shuf(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "ei:n:o:rz",
        {
            "echo": ("e", 0),
            "input-range": ("i", 1),
            "head-count": ("n", 1),
            "output": ("o", 1),
            "repeat": ("r", 0),
            "zero-terminated": ("z", 0),
        },
    )
    on: set[str] = set()
    count: int | None = None
    span: str | None = None
    output: str | None = None
    for key, val in opts:
        if key == "n":
            if not (val or "").isdigit():
                raise ShellError(f"invalid line count: '{val}'")
            count = int(val or 0) if count is None else min(count, int(val or 0))
        elif key == "i":
            span = val
        elif key == "o":
            output = val
        else:
            on.add(key)
    eol = "\0" if "z" in on else "\n"
    if span is not None:
        m = re.fullmatch(r"(\d+)-(\d+)", span)
        if not m or int(m.group(2)) + 1 < int(m.group(1)):
            raise ShellError(f"invalid input range: '{span}'")
        items = [str(k) for k in range(int(m.group(1)), int(m.group(2)) + 1)]
    elif "e" in on:
        items = list(names)
    else:
        if len(names) > 1:
            raise UsageError(f"extra operand '{names[1]}'")
        data, status = read_inputs(ctx, names, "shuf")
        if status:
            return status
        text = decode(data[0][1])
        items = text.split(eol)
        if items and items[-1] == "":
            items.pop()
    rng = random.SystemRandom()
    if "r" in on:
        if not items:
            raise ShellError("no lines to repeat")
        if count is None:
            raise ShellError("an endless output (-r without -n) cannot be produced here")
        picked = [rng.choice(items) for _ in range(count)]
    else:
        picked = items[:]
        rng.shuffle(picked)
        if count is not None:
            picked = picked[:count]
    body = "".join(item + eol for item in picked)
    if output is not None:
        with open(output, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(body)
    else:
        ctx.out.write(body)
    return 0

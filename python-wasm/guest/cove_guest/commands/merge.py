"""join and comm: the merges of two sorted inputs, as GNU coreutils 9.1 does them, bytes in
and bytes out.

Both compare bytewise (the C.UTF-8 order), take `-` for stdin, and check the order of their
inputs as GNU does: by default only once a line could not be paired, warning once per file on
stderr and exiting 1 at the end (the output is complete); `--check-order` stops at the first
line out of order; `--nocheck-order` never looks.
"""

from __future__ import annotations

import re

from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, UsageError, os_message
from cove_guest.text.inputs import read_operand
from cove_guest.text.options import getopt

_CHECK_LONGS = {"check-order": ("check", 0), "nocheck-order": ("nocheck", 0)}


def _read_two(ctx: Context, cmd: str, names: list[str]) -> list[bytes]:
    """Both operands' bytes; a missing one is fatal, as GNU opens both before any output."""
    if len(names) < 2:
        raise UsageError(f"missing operand after '{names[0]}'" if names else "missing operand")
    if len(names) > 2:
        raise UsageError(f"extra operand '{names[2]}'")
    if names == ["-", "-"] and cmd == "join":
        raise ShellError("both files cannot be standard input")
    blobs = []
    for name in names:
        try:
            blobs.append(read_operand(ctx, name))
        except OSError as exc:
            if isinstance(exc, IsADirectoryError):
                raise ShellError(f"read error: {os_message(exc)}") from None
            raise ShellError(f"{name}: {os_message(exc)}") from None
    return blobs


def _records(blob: bytes, eol: bytes) -> list[bytes]:
    """The lines of an input without their terminators (a last unterminated one counts)."""
    if not blob:
        return []
    parts = blob.split(eol)
    if parts[-1] == b"":
        parts.pop()
    return parts


class _Disorder(Exception):
    """--check-order found a line out of order: stop here, status 1."""


# ---------------------------------------------------------------------------------------- join


class _JoinLine:
    __slots__ = ("fields", "number", "text")

    def __init__(self, text: bytes, number: int, fields: list[bytes]):
        self.text = text
        self.number = number
        self.fields = fields


_BLANK = _JoinLine(b"", 0, [])  # the missing side of an unpaired line


def _join_fields(text: bytes, tab: bytes | None) -> list[bytes]:
    if not text:
        return []
    if tab is None:
        # runs of blanks separate, leading ones are ignored, a trailing run leaves an empty field
        stripped = text.lstrip(b" \t")
        if not stripped:
            return []
        fields = re.split(rb"[ \t]+", stripped)
        return fields
    if tab == b"\n":
        return [text]
    return text.split(tab)


def _field_number(spec: str) -> int:
    """A 1-based field number as GNU reads it; returns it 0-based."""
    if not re.fullmatch(r"\s*\+?\d+", spec) or int(spec) == 0:
        raise ShellError(f"invalid field number: '{spec}'")
    return int(spec) - 1


def join(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "a:e:i1:2:j:o:t:v:z",
        {
            "ignore-case": ("i", 0),
            "header": ("header", 0),
            "zero-terminated": ("z", 0),
            **_CHECK_LONGS,
        },
    )
    unpaired = {1: False, 2: False}
    pairs = True
    empty: bytes | None = None
    ignore_case = header = False
    check = "default"
    eol = b"\n"
    tab: bytes | None = None
    fields: list[int | None] = [None, None]
    outlist: list[tuple[int, int]] = []
    auto = False

    def set_field(k: int, value: int) -> None:
        old = fields[k]
        if old is not None and old != value:
            raise ShellError(f"incompatible join fields {old + 1}, {value + 1}")
        fields[k] = value

    for key, value in opts:
        val = value or ""
        if key in ("a", "v"):
            if val.strip() not in ("1", "2"):
                raise ShellError(f"invalid field number: '{val}'")
            unpaired[int(val)] = True
            if key == "v":
                pairs = False
        elif key == "e":
            if empty is not None and empty != val.encode():
                raise ShellError("conflicting empty-field replacement strings")
            empty = val.encode()
        elif key == "i":
            ignore_case = True
        elif key in ("1", "2"):
            set_field(int(key) - 1, _field_number(val))
        elif key == "j":
            number = _field_number(val)
            set_field(0, number)
            set_field(1, number)
        elif key == "o":
            if val == "auto":
                auto = True
                continue
            for item in re.split(r"[, \t]", val):
                if item == "0":
                    outlist.append((0, 0))
                elif item[:1] in ("1", "2") and item[1:2] == ".":
                    outlist.append((int(item[0]), _field_number(item[2:])))
                elif item[:1] in ("0", "1", "2"):
                    raise ShellError(f"invalid field specifier: '{item}'")
                else:
                    raise ShellError(f"invalid file number in field spec: '{item}'")
        elif key == "t":
            new = val.encode()
            if not new:
                new = b"\n"  # -t '': the whole line is the field
            elif len(new) > 1:
                if val != "\\0":
                    raise ShellError(f"multi-character tab '{val}'")
                new = b"\0"
            if tab is not None and tab != new:
                raise ShellError("incompatible tabs")
            tab = new
        elif key == "z":
            eol = b"\0"
        elif key == "header":
            header = True
        elif key == "check":
            check = "on"
        elif key == "nocheck":
            check = "off"
    blobs = _read_two(ctx, "join", names)
    f1 = fields[0] or 0
    f2 = fields[1] or 0
    jf = (f1, f2)
    sep = b" " if tab is None else tab
    out: list[bytes] = []

    def key_of(line: _JoinLine, jfield: int) -> bytes:
        value = line.fields[jfield] if jfield < len(line.fields) else b""
        return value.upper() if ignore_case else value

    def keycmp(a: _JoinLine, b: _JoinLine, ja: int, jb: int) -> int:
        x, y = key_of(a, ja), key_of(b, jb)
        if not x:
            return 0 if not y else -1
        if not y:
            return 1
        return (x > y) - (x < y)

    def field(line: _JoinLine, n: int) -> bytes:
        value = line.fields[n] if n < len(line.fields) else b""
        return value if value or empty is None else empty

    autocount = [0, 0]

    def rest(line: _JoinLine, jfield: int, count: int) -> list[bytes]:
        n = count if auto else len(line.fields)
        return [field(line, i) for i in range(n) if i != jfield]

    def prjoin(line1: _JoinLine, line2: _JoinLine) -> None:
        parts: list[bytes] = []
        if outlist:
            for file, n in outlist:
                if file == 0:
                    parts.append(field(line2, f2) if line1 is _BLANK else field(line1, f1))
                else:
                    parts.append(field(line1 if file == 1 else line2, n))
        else:
            parts.append(field(line2, f2) if line1 is _BLANK else field(line1, f1))
            parts += rest(line1, f1, autocount[0]) + rest(line2, f2, autocount[1])
        out.append(sep.join(parts) + eol)

    class Reader:
        """One input, line by line, checking the order as GNU's get_line does."""

        def __init__(self, which: int, name: str, blob: bytes):
            self.which = which
            self.name = name
            self.lines = _records(blob, eol)
            self.pos = 0
            self.prev: _JoinLine | None = None

        def get(self) -> _JoinLine | None:
            if self.pos >= len(self.lines):
                return None
            text = self.lines[self.pos]
            self.pos += 1
            line = _JoinLine(text, self.pos, _join_fields(text, tab))
            if self.prev is not None:
                check_order(self.prev, line, self.which)
            self.prev = line
            return line

    readers = [Reader(1, names[0], blobs[0]), Reader(2, names[1], blobs[1])]
    warned = [False, False]
    state = {"seen_unpairable": False}

    def check_order(prev: _JoinLine, cur: _JoinLine, which: int) -> None:
        if check == "off" or not (check == "on" or state["seen_unpairable"]):
            return
        if warned[which - 1]:
            return
        j = jf[which - 1]
        if keycmp(prev, cur, j, j) > 0:
            ctx.err.write(
                f"join: {readers[which - 1].name}:{cur.number}: is not sorted: ".encode()
                + cur.text
                + b"\n"
            )
            if check == "on":
                raise _Disorder
            warned[which - 1] = True

    try:
        seq1 = [ln for ln in [readers[0].get()] if ln is not None]
        seq2 = [ln for ln in [readers[1].get()] if ln is not None]
        if auto:
            autocount = [
                len(seq1[0].fields) if seq1 else 0,
                len(seq2[0].fields) if seq2 else 0,
            ]
        if header and (seq1 or seq2):
            prjoin(seq1[0] if seq1 else _BLANK, seq2[0] if seq2 else _BLANK)
            readers[0].prev = readers[1].prev = None
            if seq1:
                seq1 = [ln for ln in [readers[0].get()] if ln is not None]
            if seq2:
                seq2 = [ln for ln in [readers[1].get()] if ln is not None]
        while seq1 and seq2:
            diff = keycmp(seq1[0], seq2[0], f1, f2)
            if diff < 0:
                if unpaired[1]:
                    prjoin(seq1[0], _BLANK)
                seq1 = [ln for ln in [readers[0].get()] if ln is not None]
                state["seen_unpairable"] = True
                continue
            if diff > 0:
                if unpaired[2]:
                    prjoin(_BLANK, seq2[0])
                seq2 = [ln for ln in [readers[1].get()] if ln is not None]
                state["seen_unpairable"] = True
                continue
            # every line of each side with this key
            eof1 = eof2 = False
            nxt1 = nxt2 = None
            while True:
                nxt1 = readers[0].get()
                if nxt1 is None:
                    eof1 = True
                    break
                if keycmp(nxt1, seq2[0], f1, f2):
                    break
                seq1.append(nxt1)
            while True:
                nxt2 = readers[1].get()
                if nxt2 is None:
                    eof2 = True
                    break
                if keycmp(seq1[0], nxt2, f1, f2):
                    break
                seq2.append(nxt2)
            if pairs:
                for a in seq1:
                    for b in seq2:
                        prjoin(a, b)
            seq1 = [] if eof1 else [nxt1]  # type: ignore[list-item]
            seq2 = [] if eof2 else [nxt2]  # type: ignore[list-item]
        # the tails: printed when asked, read anyway to check their order
        checktail = check != "off" and not (warned[0] and warned[1])
        for k, (seq, other) in enumerate(((seq1, seq2), (seq2, seq1))):
            if not ((unpaired[k + 1] or checktail) and seq):
                continue
            if unpaired[k + 1]:
                prjoin(*((seq[0], _BLANK) if k == 0 else (_BLANK, seq[0])))
            if other:
                state["seen_unpairable"] = True
            while (line := readers[k].get()) is not None:
                if unpaired[k + 1]:
                    prjoin(*((line, _BLANK) if k == 0 else (_BLANK, line)))
                if warned[k] and not unpaired[k + 1]:
                    break
    except _Disorder:
        ctx.out.write(b"".join(out))
        return 1
    ctx.out.write(b"".join(out))
    if warned[0] or warned[1]:
        ctx.err.write("join: input is not in sorted order\n")
        return 1
    return 0


# ---------------------------------------------------------------------------------------- comm


def comm(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "123z",
        {
            "output-delimiter": ("delim", 1),
            "total": ("total", 0),
            "zero-terminated": ("z", 0),
            **_CHECK_LONGS,
        },
    )
    show = {1: True, 2: True, 3: True}
    delim: bytes | None = None
    total = False
    check = "default"
    eol = b"\n"
    for key, value in opts:
        val = value or ""
        if key in ("1", "2", "3"):
            show[int(key)] = False
        elif key == "delim":
            if delim is not None and delim != val.encode():
                raise ShellError("multiple output delimiters specified")
            delim = val.encode()
        elif key == "total":
            total = True
        elif key == "z":
            eol = b"\0"
        elif key == "check":
            check = "on"
        elif key == "nocheck":
            check = "off"
    blobs = _read_two(ctx, "comm", names)
    sep = b"\t" if delim is None else (delim or b"\0")
    files = [_records(blobs[0], eol), _records(blobs[1], eol)]
    pos = [0, 0]
    out: list[bytes] = []
    counts = [0, 0, 0]
    warned = [False, False]
    seen_unpairable = False

    def check_order(prev: bytes, cur: bytes, which: int) -> None:
        if check == "off" or not (check == "on" or seen_unpairable) or warned[which - 1]:
            return
        if prev > cur:
            ctx.err.write(f"comm: file {which} is not in sorted order\n")
            if check == "on":
                raise _Disorder
            warned[which - 1] = True

    def write(line: bytes, column: int) -> None:
        if not show[column]:
            return
        lead = b""
        if column >= 2 and show[1]:
            lead += sep
        if column == 3 and show[2]:
            lead += sep
        out.append(lead + line + eol)

    try:
        while pos[0] < len(files[0]) or pos[1] < len(files[1]):
            if pos[0] >= len(files[0]):
                order = 1
            elif pos[1] >= len(files[1]):
                order = -1
            else:
                a, b = files[0][pos[0]], files[1][pos[1]]
                order = (a > b) - (a < b)
            if order == 0:
                counts[2] += 1
                write(files[1][pos[1]], 3)
            else:
                seen_unpairable = True
                if order < 0:
                    counts[0] += 1
                    write(files[0][pos[0]], 1)
                else:
                    counts[1] += 1
                    write(files[1][pos[1]], 2)
            for i in (0, 1):
                if (i == 1 and order >= 0) or (i == 0 and order <= 0):
                    pos[i] += 1
                    lines, p = files[i], pos[i]
                    if p < len(lines):
                        check_order(lines[p - 1], lines[p], i + 1)
                    elif p >= 2:
                        # at the end, the last two again: a line may have gone unpaired since
                        check_order(lines[p - 2], lines[p - 1], i + 1)
    except _Disorder:
        ctx.out.write(b"".join(out))
        return 1
    if total:
        out.append(sep.join(str(n).encode() for n in counts) + sep + b"total" + eol)
    ctx.out.write(b"".join(out))
    if warned[0] or warned[1]:
        ctx.err.write("comm: input is not in sorted order\n")
        return 1
    return 0

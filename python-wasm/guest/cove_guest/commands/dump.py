"""The byte viewers: od (GNU coreutils 9.1), xxd, hexdump -C (and hd), strings."""

from __future__ import annotations

import re

from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, UsageError, os_message
from cove_guest.text.inputs import read_operand
from cove_guest.text.options import getopt


def _read_all(ctx: Context, cmd: str, names: list[str]) -> tuple[bytes, int]:
    blobs, status = [], 0
    for name in names or ["-"]:
        try:
            blobs.append(read_operand(ctx, name))
        except OSError as exc:
            ctx.err.write(f"{cmd}: {name}: {os_message(exc)}\n")
            status = 1
    return b"".join(blobs), status


def _size(spec: str, what: str) -> int:
    m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|0[0-7]*|\d+)([bkKmM]?)", spec)
    if not m:
        raise ShellError(f"invalid {what} argument '{spec}'")
    digits = m.group(1)
    base = 16 if digits[:2].lower() == "0x" else 8 if digits.startswith("0") else 10
    n = int(digits, base)
    return n * {"": 1, "b": 512, "k": 1024, "K": 1024, "m": 1024**2, "M": 1024**2}[m.group(2)]


# -------------------------------------------------------------------------------------- od

_CONTROL_NAMES = (
    "nul soh stx etx eot enq ack bel bs ht nl vt ff cr so si "
    "dle dc1 dc2 dc3 dc4 nak syn etb can em sub esc fs gs rs us sp"
)
_NAMES = _CONTROL_NAMES.split()
_C_ESCAPES = {0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r"}
# the width of one item of each type, its separating blank included
_WIDTHS = {
    ("x", 1): 3,
    ("x", 2): 5,
    ("x", 4): 9,
    ("x", 8): 17,
    ("o", 1): 4,
    ("o", 2): 7,
    ("o", 4): 12,
    ("o", 8): 23,
    ("u", 1): 4,
    ("u", 2): 6,
    ("u", 4): 11,
    ("u", 8): 21,
    ("d", 1): 5,
    ("d", 2): 7,
    ("d", 4): 12,
    ("d", 8): 21,
    ("c", 1): 4,
    ("a", 1): 4,
}
_LEGACY = {
    "a": "a",
    "b": "o1",
    "c": "c",
    "d": "u2",
    "o": "o2",
    "x": "x2",
    "i": "d4",
    "l": "d8",
    "s": "d2",
}


def _od_types(spec: str) -> list[tuple[str, int, bool]]:
    """-t TYPE: (kind, size, z) for each of its letters (`x1z`, `d4`, `c`, `xC`...)."""
    out = []
    i = 0
    while i < len(spec):
        kind = spec[i]
        i += 1
        if kind in "ca":
            size = 1
        elif kind in "doux":
            m = re.match(r"\d+|[CSIL]", spec[i:])
            size = 4
            if m:
                size = {"C": 1, "S": 2, "I": 4, "L": 8}.get(m.group(0)) or int(m.group(0))
                i += m.end()
            if size not in (1, 2, 4, 8):
                raise ShellError(
                    f"invalid type string '{spec}';\n"
                    f"this system doesn't provide a {size}-byte integral type"
                )
        else:
            raise ShellError(f"invalid type string '{spec}'")
        z = spec[i : i + 1] == "z"
        if z:
            i += 1
        out.append((kind, size, z))
    return out


def _od_item(kind: str, size: int, chunk: bytes) -> str:
    if kind == "c":
        b = chunk[0]
        if b in _C_ESCAPES:
            return _C_ESCAPES[b]
        return chr(b) if 32 <= b < 127 else f"{b:03o}"
    if kind == "a":
        b = chunk[0] & 0x7F
        return _NAMES[b] if b <= 32 else "del" if b == 127 else chr(b)
    value = int.from_bytes(chunk.ljust(size, b"\0"), "little", signed=kind == "d")
    if kind == "x":
        return f"{value:0{size * 2}x}"
    if kind == "o":
        return f"{value:0{len(oct(256**size - 1)) - 2}o}"
    return str(value)


def od(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "A:j:N:t:vw::abcdiloxs",
        {
            "address-radix": ("A", 1),
            "skip-bytes": ("j", 1),
            "read-bytes": ("N", 1),
            "format": ("t", 1),
            "output-duplicates": ("v", 0),
            "width": ("w", 2),
        },
    )
    radix, skip, count, width, verbose = "o", 0, None, 16, False
    types: list[tuple[str, int, bool]] = []
    for key, val in opts:
        if key == "A":
            if val not in ("d", "o", "x", "n"):
                raise ShellError(
                    f"invalid output address radix '{val}'; it must be one character from [doxn]"
                )
            radix = val
        elif key == "j":
            skip = _size(val or "", "skip")
        elif key == "N":
            count = _size(val or "", "count")
        elif key == "t":
            types += _od_types(val or "")
        elif key == "v":
            verbose = True
        elif key == "w":
            width = int(val) if val else 32
        else:
            types += _od_types(_LEGACY[key])
    types = types or [("o", 2, False)]
    data, status = _read_all(ctx, "od", names)
    if status and not data:
        return status
    data = data[skip:]
    if count is not None:
        data = data[:count]
    addr_width = 6 if radix == "x" else 7

    def address(n: int) -> str:
        if radix == "n":
            return ""
        return format(n, {"d": "d", "o": "o", "x": "x"}[radix]).rjust(addr_width, "0")

    # one-byte types side by side share the widest one's width, as GNU aligns them
    per_byte = max(_WIDTHS[(k, s)] for k, s, _ in types) if all(s == 1 for _, s, _ in types) else 0
    out: list[str] = []
    previous = None
    starred = False
    for start in range(0, len(data), width):
        block = data[start : start + width]
        if block == previous and not verbose and len(block) == width:
            if not starred:
                out.append("*\n")
                starred = True
            continue
        previous, starred = block, False
        for n, (kind, size, z) in enumerate(types):
            field = per_byte or _WIDTHS[(kind, size)]
            items = [
                _od_item(kind, size, block[k : k + size]).rjust(field)
                for k in range(0, len(block), size)
            ]
            line = address(start + skip) if n == 0 else " " * (0 if radix == "n" else addr_width)
            line += "".join(items)
            if z:
                full = field * (width // size)
                shown = "".join(chr(b) if 32 <= b < 127 else "." for b in block)
                line += " " * (full - len("".join(items))) + "  >" + shown + "<"
            out.append(line + "\n")
    if radix != "n":
        out.append(address(len(data) + skip) + "\n")
    ctx.out.write("".join(out))
    return status


# ------------------------------------------------------------------------------------- xxd


def xxd(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(args, "c:g:l:s:pui", {"ps": ("p", 0), "plain": ("p", 0)})
    cols, group, length, seek, plain, upper = None, None, None, 0, False, False
    for key, val in opts:
        if key == "c":
            cols = int(val or 16)
        elif key == "g":
            group = int(val or 2)
        elif key == "l":
            length = _size(val or "", "length")
        elif key == "s":
            seek = _size((val or "0").lstrip("+"), "seek")
        elif key == "p":
            plain = True
        elif key == "u":
            upper = True
        elif key == "i":
            raise UsageError("-i (C include output) is not supported")
    if len(names) > 1:
        raise UsageError("only one input file is read here")
    data, status = _read_all(ctx, "xxd", names[:1])
    if status:
        return 2
    data = data[seek:]
    if length is not None:
        data = data[:length]
    hexfmt = "{:02X}" if upper else "{:02x}"
    if plain:
        cols = cols or 30
        text = "".join(hexfmt.format(b) for b in data)
        ctx.out.write("".join(text[k : k + cols * 2] + "\n" for k in range(0, len(text), cols * 2)))
        return 0
    cols = cols or 16
    group = 2 if group is None else group
    out = []
    hex_width = cols * 2 + (cols // group if group else 0)
    if group and cols % group:
        hex_width += 1
    for start in range(0, len(data), cols):
        block = data[start : start + cols]
        pieces = []
        for k in range(0, len(block), group or len(block) or 1):
            pieces.append("".join(hexfmt.format(b) for b in block[k : k + (group or len(block))]))
        hexpart = " ".join(pieces)
        shown = "".join(chr(b) if 32 <= b < 127 else "." for b in block)
        out.append(f"{start + seek:08x}: {hexpart.ljust(hex_width - 1)}  {shown}\n")
    ctx.out.write("".join(out))
    return 0


# --------------------------------------------------------------------------------- hexdump


def hexdump(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(args, "Cn:s:vbcdox", {"canonical": ("C", 0)})
    canonical, length, skip, verbose = False, None, 0, False
    for key, val in opts:
        if key == "C":
            canonical = True
        elif key == "n":
            length = _size(val or "", "length")
        elif key == "s":
            skip = _size(val or "", "offset")
        elif key == "v":
            verbose = True
        elif key in "bcdox":
            raise UsageError(f"-{key} is not supported here; use -C")
    if ctx.argv and ctx.argv[0] == "hd":
        canonical = True
    data, status = _read_all(ctx, "hexdump", names)
    data = data[skip:]
    if length is not None:
        data = data[:length]
    out = []
    previous = None
    starred = False
    for start in range(0, len(data), 16):
        block = data[start : start + 16]
        if block == previous and not verbose and len(block) == 16:
            if not starred:
                out.append("*\n")
                starred = True
            continue
        previous, starred = block, False
        if canonical:
            left = " ".join(f"{b:02x}" for b in block[:8])
            right = " ".join(f"{b:02x}" for b in block[8:])
            hexpart = f"{left:<23}  {right:<23}"
            shown = "".join(chr(b) if 32 <= b < 127 else "." for b in block)
            out.append(f"{start + skip:08x}  {hexpart}  |{shown}|\n")
        else:
            pairs = [block[k : k + 2].ljust(2, b"\0") for k in range(0, len(block), 2)]
            words = [f"{int.from_bytes(pair, 'little'):04x}" for pair in pairs]
            out.append(f"{start + skip:07x} " + " ".join(words).ljust(39) + "\n")
    if data:
        out.append(f"{len(data) + skip:0{8 if canonical else 7}x}\n")
    ctx.out.write("".join(out))
    return status


# ------------------------------------------------------------------------------------ strings


def strings(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(args, "n:at:", {"bytes": ("n", 1), "all": ("a", 0), "radix": ("t", 1)})
    least, radix = 4, None
    for key, val in opts:
        if key == "n":
            least = int(val or 4)
        elif key == "t":
            radix = val
    status = 0
    out = []
    for name in names or ["-"]:
        try:
            data = read_operand(ctx, name)
        except OSError as exc:
            ctx.err.write(f"strings: '{name}': {os_message(exc)}\n")
            status = 1
            continue
        for m in re.finditer(rb"[\x20-\x7e\t]{%d,}" % least, data):
            prefix = ""
            if radix:
                spec = {"d": "d", "o": "o", "x": "x"}.get(radix, "d")
                prefix = format(m.start(), spec).rjust(7) + " "
            out.append(prefix + m.group(0).decode("ascii") + "\n")
    ctx.out.write("".join(out))
    return status

"""md5sum, sha1sum, sha256sum and base64."""

import base64 as _b64
import hashlib

from cove_guest.shell.builtins import Command
from cove_guest.shell.io import Context
from cove_guest.text.inputs import read_inputs
from cove_guest.text.options import parse_options


def hashsum(algo: str) -> Command:
    """`md5sum`, `sha1sum`, `sha256sum`: the digest `algo` of each operand."""

    def run(ctx: Context, args: list[str]) -> int:
        _on, _, names = parse_options(args, "cb", long_map={"check": "c"})
        data, status = read_inputs(ctx, names, f"{algo}sum")
        for name, blob in data:
            ctx.out.write(f"{hashlib.new(algo, blob).hexdigest()}  {name}\n")
        return status

    return run


def base64(ctx: Context, args: list[str]) -> int:
    on, vals, names = parse_options(
        args, "di", with_value="w", long_map={"decode": "d", "wrap": "w"}
    )
    data, status = read_inputs(ctx, names, "base64")
    blob = b"".join(d for _, d in data)
    if "d" in on:
        try:
            ctx.out.write(_b64.b64decode(b"".join(blob.split())))
        except ValueError:
            ctx.err.write("base64: invalid input\n")
            return 1
        return status
    enc = _b64.b64encode(blob).decode()
    width = int(vals.get("w", 76))
    if width:
        enc = "\n".join(enc[k : k + width] for k in range(0, len(enc), width))
    # -w 0 writes no newline at all; nothing in, nothing out
    ctx.out.write(enc + ("\n" if width and enc else ""))
    return status

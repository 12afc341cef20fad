"""awk's command line (-F, -v, -f, operands that are assignments); the
language is in `lexer`, `parser` and `interp`."""

import re

from cove_guest.commands.awk.errors import AwkError
from cove_guest.commands.awk.interp import run
from cove_guest.shell.io import Context, Output
from cove_guest.text.errors import UsageError
from cove_guest.text.escapes import echo_escapes
from cove_guest.text.inputs import decode, read_inputs


def awk(ctx: Context, args: list[str]) -> int:

    field_sep = None
    assigns = []
    program = None
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            k += 1
            break
        if a.startswith("-F"):
            if len(a) > 2:
                field_sep = a[2:]
            else:
                k += 1
                field_sep = args[k]
        elif a == "-v":
            k += 1
            name, _, value = args[k].partition("=")
            assigns.append((name, echo_escapes(value)[0]))
        elif a.startswith("-v") and len(a) > 2:
            name, _, value = a[2:].partition("=")
            assigns.append((name, echo_escapes(value)[0]))
        elif a == "-f":
            k += 1
            with open(args[k], encoding="utf-8") as f:
                program = f.read()
        elif a.startswith("-") and a != "-":
            raise UsageError(f"unknown option {a}")
        else:
            break
        k += 1
    rest = args[k:]
    if program is None:
        if not rest:
            raise UsageError("usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]")
        program = rest.pop(0)
    operands = []
    for r in rest:
        if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*=.*", r):
            name, _, value = r.partition("=")
            assigns.append((name, value))
        else:
            operands.append(r)
    data, status = read_inputs(ctx, operands, "awk")
    inputs = [(name if name != "-" else "", decode(blob)) for name, blob in data]
    try:
        code = run(program, inputs, _TextOut(ctx.out), _TextOut(ctx.err), field_sep, assigns)
    except AwkError as exc:
        ctx.err.write(f"awk: {exc}\n")
        return 2
    return code or (2 if status else 0)


class _TextOut:
    """A command's output as the interpreter writes to it (text only)."""

    def __init__(self, w: Output) -> None:
        self.w = w

    def write(self, s: str) -> None:
        self.w.write(s)

"""The shell's builtins: the commands that act on the shell itself (cd, export,
read, set, source, eval, ...). Each is `name(ctx, args) -> status`, the same convention as the
commands; `ctx.shell` is the interpreter.

Over 500 lines as a list of small functions, one per builtin, and the `BUILTINS` table; none
depends on another, so a longer file costs a reader nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from cove_guest.shell.arrays import AssocArray, Compound, IndexedArray, Value
from cove_guest.shell.conditional import test_command
from cove_guest.shell.errors import FunctionReturn, LoopBreak, LoopContinue, ShellExit
from cove_guest.shell.expand import ifs_split
from cove_guest.shell.io import Context
from cove_guest.shell.parse import ShellSyntaxError, is_name, parse, split_assignment
from cove_guest.text.errors import ShellError, os_message
from cove_guest.text.escapes import shell_quote

if TYPE_CHECKING:
    from cove_guest.shell.interp import Frame, Shell

# The signals a trap may name; none is ever delivered here (no processes, no terminal).
SIGNALS = frozenset(
    (
        "HUP",
        "INT",
        "QUIT",
        "ILL",
        "TRAP",
        "ABRT",
        "BUS",
        "FPE",
        "KILL",
        "USR1",
        "SEGV",
        "USR2",
        "PIPE",
        "ALRM",
        "TERM",
        "STKFLT",
        "CHLD",
        "CONT",
        "STOP",
        "TSTP",
        "TTIN",
        "TTOU",
        "URG",
        "XCPU",
        "XFSZ",
        "VTALRM",
        "PROF",
        "WINCH",
        "IO",
        "PWR",
        "SYS",
    )
)
TRAP_EVENTS = ("EXIT", "ERR", "DEBUG", "RETURN")


def cd(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    target = argv[1] if len(argv) > 1 else (sh.get("HOME") or "/workspace")
    if target == "-":
        target = sh.get("OLDPWD") or os.getcwd()
        ctx.out.write(target + "\n")
    old = os.getcwd()
    try:
        os.chdir(target)
    except FileNotFoundError:
        raise ShellError(f"{target}: No such file or directory") from None
    except NotADirectoryError:
        raise ShellError(f"{target}: Not a directory") from None
    except OSError as exc:
        raise ShellError(f"{target}: {os_message(exc)}") from None
    sh.vars["OLDPWD"] = old
    sh.vars["PWD"] = os.getcwd()
    return 0


def pwd(ctx: Context, args: list[str]) -> int:
    ctx.out.write(os.getcwd() + "\n")
    return 0


def true_(ctx: Context, args: list[str]) -> int:
    """true, :, and the builtins accepted as no-ops here (shopt, wait)."""
    return 0


def false_(ctx: Context, args: list[str]) -> int:
    return 1


def exit_(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    code = sh.status
    if len(argv) > 1:
        try:
            code = int(argv[1]) & 0xFF
        except ValueError:
            ctx.err.write(f"bash: exit: {argv[1]}: numeric argument required\n")
            code = 2
    raise ShellExit(code)


def return_(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    code = int(argv[1]) & 0xFF if len(argv) > 1 else sh.status
    raise FunctionReturn(code)


def break_(ctx: Context, args: list[str]) -> int:
    argv = ctx.argv
    raise LoopBreak(int(argv[1]) if len(argv) > 1 else 1)


def continue_(ctx: Context, args: list[str]) -> int:
    argv = ctx.argv
    raise LoopContinue(int(argv[1]) if len(argv) > 1 else 1)


def export(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    args = [a for a in argv[1:] if a not in ("-n",)]
    if not args or argv[1:] == ["-p"]:
        for name in sorted(sh.exported):
            value = sh.get(name)
            if value is not None:
                ctx.out.write(f'declare -x {name}="{value}"\n')
        return 0
    for a in args:
        name, eq, value = a.partition("=")
        if not is_name(name):
            ctx.err.write(f"bash: export: `{a}': not a valid identifier\n")
            return 1
        if eq:
            sh.set(name, value)
        if "-n" in argv[1:]:
            sh.exported.discard(name)
        else:
            sh.exported.add(name)
    return 0


def unset(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    for a in argv[1:]:
        if a in ("-v", "-f"):
            continue
        if "-f" in argv[1:]:
            sh.functions.pop(a, None)
        else:
            sh.unset(a)
    return 0


def _declared(sh: Shell, name: str, flags: str, frame: Frame | None) -> None:
    """Give `name` the kind `flags` ask for (-a, -A) if it has none yet."""
    current = frame.get(name) if frame is not None else sh.get_var(name)
    value: IndexedArray | AssocArray | str
    if "A" in flags and not isinstance(current, AssocArray):
        value = AssocArray()
    elif "a" in flags and not isinstance(current, (IndexedArray, AssocArray)):
        value = IndexedArray([] if current is None else [current])
    elif frame is not None and name not in frame:
        frame[name] = ""  # a new local: empty, whatever a global of that name holds
        return
    else:
        return
    if frame is not None:
        frame[name] = value
    else:
        sh.set_var(name, value)


def _declare_one(ctx: Context, a: str, flags: str, frame: Frame | None) -> bool:
    """One argument of declare/local/typeset/readonly: `name`, `name=value`, `name=(...)`,
    `name[k]=value`. Returns False (having said why) when it is not a valid one."""
    sh = ctx.shell
    parts = split_assignment(a)
    name = a if parts is None else parts[0]
    if not is_name(name):
        ctx.err.write(f"bash: {ctx.argv[0]}: `{a}': not a valid identifier\n")
        return False
    if parts is None:
        _declared(sh, name, flags, frame)
    else:
        _, sub, append, value = parts
        if isinstance(a, Compound) and sub is None:
            assoc = True if "A" in flags else None
            if "a" in flags:
                assoc = False
            sh.assign_compound(name, value[1:-1], append=append, assoc=assoc, frame=frame)
        else:
            _declared(sh, name, flags, frame)
            if sub is not None:
                sh.set_element(name, sub, value, append=append)
            elif frame is not None:
                current = frame.get(name)
                if append:
                    value = (current if isinstance(current, str) else "") + value
                if isinstance(current, IndexedArray):
                    current.set(0, value)
                elif isinstance(current, AssocArray):
                    current.set("0", value)
                else:
                    frame[name] = value
            else:
                sh.set(name, ((sh.get(name) or "") + value) if append else value)
    if "x" in flags:
        sh.exported.add(name)
    return True


def _elements(value: IndexedArray | AssocArray) -> str:
    """An array's elements as `declare -p` and `set` print them: `([0]="a" [1]="b")`."""
    if isinstance(value, AssocArray):
        keys = value.keys()
        return (
            "("
            + "".join(f'[{k}]="{_dq(v)}" ' for k, v in zip(keys, value.values(), strict=True))
            + ")"
        )
    return "(" + " ".join(f'[{k}]="{_dq(value.items[k])}"' for k in sorted(value.items)) + ")"


def _print_declaration(ctx: Context, name: str, value: Value, flags: str = "") -> None:
    if isinstance(value, AssocArray):
        ctx.out.write(f"declare -A {name}={_elements(value)}\n")
    elif isinstance(value, IndexedArray):
        ctx.out.write(f"declare -a {name}={_elements(value)}\n")
    else:
        kind = "x" if name in ctx.shell.exported else "-"
        ctx.out.write(f'declare -{flags or kind} {name}="{_dq(value)}"\n')


def _dq(value: str) -> str:
    """`value` escaped for double quotes, as `declare -p` prints it."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")


def declare(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    flags = ""
    names: list[str] = []
    for a in argv[1:]:
        if not isinstance(a, Compound) and a[:1] in "-+" and len(a) > 1 and not names:
            flags += a[1:] if a[0] == "-" else ""
            continue
        names.append(a)
    if "p" in flags:
        status = 0
        for name in names or sorted(sh.vars):
            value = sh.get_var(name)
            if value is None:
                ctx.err.write(f"bash: {argv[0]}: {name}: not found\n")
                status = 1
                continue
            _print_declaration(ctx, name, value)
        return status
    if "f" in flags or "F" in flags:
        status = 0
        for name in names:
            if name not in sh.functions:
                status = 1
            elif "F" in flags:
                ctx.out.write(f"{name}\n")
        return status
    frame = sh.locals[-1] if sh.locals and "g" not in flags and argv[0] != "readonly" else None
    status = 0
    for a in names:
        if not _declare_one(ctx, a, flags, frame):
            status = 1
    return status


def local(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    if not sh.locals:
        ctx.err.write("bash: local: can only be used in a function\n")
        return 1
    flags = ""
    status = 0
    for a in argv[1:]:
        if not isinstance(a, Compound) and a[:1] == "-" and len(a) > 1:
            flags += a[1:]
            continue
        if not _declare_one(ctx, a, flags, sh.locals[-1]):
            status = 1
    return status


def mapfile(ctx: Context, args: list[str]) -> int:
    """mapfile / readarray: stdin's lines into an indexed array (MAPFILE by default)."""
    sh = ctx.shell
    strip, delim, count, skip, origin = False, "\n", 0, 0, None
    i = 0
    try:
        while i < len(args) and args[i].startswith("-") and len(args[i]) > 1:
            opt = args[i]
            if opt == "-t":
                strip = True
            elif opt in ("-d", "-n", "-s", "-O", "-u", "-C", "-c"):
                i += 1
                value = args[i]
                if opt == "-d":
                    delim = value[:1] or "\0"
                elif opt == "-n":
                    count = int(value)
                elif opt == "-s":
                    skip = int(value)
                elif opt == "-O":
                    origin = int(value)
                elif opt == "-u" and value != "0":
                    ctx.err.write(f"bash: {ctx.argv[0]}: {value}: invalid file descriptor\n")
                    return 1
            else:
                ctx.err.write(f"bash: {ctx.argv[0]}: {opt}: invalid option\n")
                return 2
            i += 1
    except (IndexError, ValueError):
        ctx.err.write(f"bash: {ctx.argv[0]}: option requires a valid argument\n")
        return 2
    name = args[i] if i < len(args) else "MAPFILE"
    if not is_name(name):
        ctx.err.write(f"bash: {ctx.argv[0]}: `{name}': not a valid identifier\n")
        return 1
    data = ctx.stdin.decode("utf-8", "surrogateescape") if isinstance(ctx.stdin, bytes) else ""
    lines = []
    start = 0
    while start < len(data):
        end = data.find(delim, start)
        stop = len(data) if end < 0 else end + 1
        lines.append(data[start:stop])
        start = stop
    lines = lines[skip:]
    if count:
        lines = lines[:count]
    if strip:
        lines = [line[:-1] if line.endswith(delim) else line for line in lines]
    current = sh.get_var(name)
    if origin is not None and isinstance(current, IndexedArray):
        for k, line in enumerate(lines):
            current.set(origin + k, line)
        return 0
    array = IndexedArray()
    for k, line in enumerate(lines):
        array.set((origin or 0) + k, line)
    if sh.locals and name in sh.locals[-1]:
        sh.locals[-1][name] = array
    else:
        sh.set_var(name, array)
    return 0


def trap(ctx: Context, args: list[str]) -> int:
    """trap: EXIT runs when the command line (or subshell) ends, ERR after a command fails;
    signals are never delivered here, so a trap on one is kept but never runs (said once)."""
    sh = ctx.shell
    if args[:1] == ["--"]:
        args = args[1:]
    if not args or args == ["-p"]:
        for name, command in sh.traps.items():
            ctx.out.write(f"trap -- {shell_quote(command)} {name}\n")
        return 0
    if args[0] == "-p":
        for given in args[1:]:
            found = sh.traps.get(_signal(given) or given)
            if found is not None:
                ctx.out.write(f"trap -- {shell_quote(found)} {_signal(given)}\n")
        return 0
    if args[0] == "-l":
        ctx.out.write(" ".join(f"SIG{s}" for s in sorted(SIGNALS)) + "\n")
        return 0
    action: str | None
    if len(args) == 1 or args[0] == "-":
        action, events = None, args[1:] if args[0] == "-" else args
    else:
        action, events = args[0], args[1:]
    status = 0
    ignored = []
    for given in events:
        event = _signal(given)
        if event is None:
            ctx.err.write(f"bash: trap: {given}: invalid signal specification\n")
            status = 1
            continue
        if action is None:
            sh.traps.pop(event, None)
            continue
        sh.traps[event] = action
        if event not in TRAP_EVENTS and action:
            ignored.append(event)
    if ignored:
        ctx.err.write(
            f"bash: trap: {' '.join(ignored)}: signals are never delivered in this sandbox"
            " (no processes, no terminal): this trap will not run; EXIT and ERR traps do\n"
        )
    return status


def _signal(name: str) -> str | None:
    """The event or signal `name` names (EXIT, INT, ...; `SIGINT`, `int`, `2` too), or None."""
    upper = name.upper().removeprefix("SIG")
    if upper in TRAP_EVENTS or upper in SIGNALS:
        return upper
    numbers = {"0": "EXIT", "1": "HUP", "2": "INT", "3": "QUIT", "9": "KILL", "15": "TERM"}
    return numbers.get(name)


def bash(ctx: Context, args: list[str]) -> int:
    """`bash`/`sh` [-euxo opt] (-c COMMAND [NAME [ARG...]] | FILE [ARG...] | < stdin): a new
    shell (what is exported, not variables nor functions) on this command's input and output."""
    sh = ctx.shell
    opts = {}
    command = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            i += 1
            break
        if a == "-c":
            command = ""
            i += 1
            continue
        if a in ("-o", "+o") and i + 1 < len(args):
            opts[args[i + 1]] = a == "-o"
            i += 2
            continue
        if a[:1] in "-+" and len(a) > 1 and not a.startswith("--"):
            for ch in a[1:]:
                if ch == "c":
                    command = ""
                elif ch in "eux":
                    opts[{"e": "errexit", "u": "nounset", "x": "xtrace"}[ch]] = a[0] == "-"
                elif ch not in "ilsv":
                    ctx.err.write(f"{ctx.argv[0]}: -{ch}: invalid option\n")
                    return 2
            i += 1
            continue
        if a.startswith("--"):
            i += 1
            continue
        break
    rest = args[i:]
    if command is not None:
        if not rest:
            ctx.err.write(f"{ctx.argv[0]}: -c: option requires an argument\n")
            return 2
        source_text, arg0, positional = (
            rest[0],
            (rest[1] if len(rest) > 1 else ctx.argv[0]),
            rest[2:],
        )
        stdin = ctx.stdin
    elif rest:
        try:
            with open(rest[0], encoding="utf-8", errors="surrogateescape") as f:
                source_text = f.read()
        except OSError as exc:
            ctx.err.write(f"{ctx.argv[0]}: {rest[0]}: {os_message(exc)}\n")
            return 127
        arg0, positional, stdin = rest[0], rest[1:], ctx.stdin
    else:
        data = ctx.stdin if isinstance(ctx.stdin, bytes) else b""
        source_text, arg0, positional, stdin = (
            data.decode("utf-8", "surrogateescape"),
            ctx.argv[0],
            [],
            b"",
        )
    return sh.run_child(
        source_text, ctx.io, stdin=stdin, arg0=arg0, positional=positional, opts=opts
    )


def shift(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    k = int(argv[1]) if len(argv) > 1 else 1
    if k > len(sh.positional):
        return 1
    sh.positional = sh.positional[k:]
    return 0


def set_(ctx: Context, args: list[str]) -> int:
    sh = ctx.shell
    names = {"e": "errexit", "u": "nounset", "x": "xtrace"}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            sh.positional = args[i + 1 :]
            return 0
        if a in ("-o", "+o") and i + 1 < len(args):
            opt = args[i + 1]
            if opt not in sh.opts:
                ctx.err.write(f"bash: set: {opt}: invalid option name\n")
                return 1
            sh.opts[opt] = a == "-o"
            i += 2
            continue
        if a[:1] in "-+" and len(a) > 1:
            for ch in a[1:]:
                if ch in names:
                    sh.opts[names[ch]] = a[0] == "-"
                elif ch == "o" and i + 1 < len(args):
                    # `set -euo pipefail`: the option's name is the next word.
                    i += 1
                    opt = args[i]
                    if opt not in sh.opts:
                        ctx.err.write(f"bash: set: {opt}: invalid option name\n")
                        return 1
                    sh.opts[opt] = a[0] == "-"
                elif ch in "hBH":
                    continue
                else:
                    ctx.err.write(f"bash: set: {a[0]}{ch}: invalid option\n")
                    return 2
            i += 1
            continue
        sh.positional = args[i:]
        return 0
    if not args:
        for name in sorted(sh.vars):
            value = sh.vars[name]
            if value is None:
                continue
            shown = shell_quote(value) if isinstance(value, str) else _elements(value)
            ctx.out.write(f"{name}={shown}\n")
    return 0


def read(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    raw = False
    delim = "\n"
    names: list[str] = []
    array_name = None
    count = None
    i = 0
    while i < len(args):
        a = args[i]
        if not a.startswith("-") or len(a) == 1 or names:
            names.append(a)
            i += 1
            continue
        # A cluster of flags (`-ra`, `-rd ''`); an option's value is the rest of its word,
        # else the next word.
        k = 1
        while k < len(a):
            flag = a[k]
            if flag in "rse":
                raw = raw or flag == "r"
                k += 1
                continue
            if flag not in "adpntu":
                ctx.err.write(f"bash: read: -{flag}: invalid option\n")
                return 2
            if k + 1 < len(a):
                value = a[k + 1 :]
            elif i + 1 < len(args):
                i += 1
                value = args[i]
            else:
                ctx.err.write(f"bash: read: -{flag}: option requires an argument\n")
                return 2
            if flag == "a":
                array_name = value
            elif flag == "d":
                delim = value[:1] if value else "\0"
            elif flag == "n":
                count = int(value) if value.isdigit() else None
            break
        i += 1
    names = names or ["REPLY"]
    data = ctx.stdin.decode("utf-8", "surrogateescape") if isinstance(ctx.stdin, bytes) else ""
    # Consume one line from this command's stdin (shared across a loop's iterations).
    pos = sh.__dict__.setdefault("_read_pos", {})
    key = id(ctx.stdin)
    offset = pos.get(key, 0)
    if offset >= len(data):
        for name in names:
            sh.set(name, "")
        return 1
    end = data.find(delim, offset)
    if count is not None and (end < 0 or end - offset > count):
        end = offset + count if offset + count < len(data) else -1
        eof = end < 0
        line = data[offset:] if eof else data[offset:end]
        pos[key] = len(data) if eof else end
    else:
        eof = end < 0
        line = data[offset:] if eof else data[offset:end]
        pos[key] = len(data) if eof else end + 1
    if not raw:
        line = re.sub(r"\\(.)", r"\1", line.replace("\\\n", ""))
    ifs = sh.get("IFS")
    ifs = " \t\n" if ifs is None else ifs
    if array_name is not None:
        array = IndexedArray(ifs_split(line, ifs))
        if sh.locals and array_name in sh.locals[-1]:
            sh.locals[-1][array_name] = array
        else:
            sh.set_var(array_name, array)
        return 1 if eof and not line else 0
    if names == ["REPLY"] and len(names) == 1 and names[0] == "REPLY" and argv.count("REPLY") == 0:
        sh.set("REPLY", line)
        return 1 if eof and not line else 0
    ws = "".join(c for c in ifs if c in " \t\n")
    stripped = line.strip(ws) if ws else line
    fields = []
    rest = stripped
    for k in range(len(names)):
        if k == len(names) - 1:
            fields.append(rest.rstrip(ws) if ws else rest)
            break
        parts = ifs_split(rest, ifs)
        if not parts:
            fields.append("")
            rest = ""
            continue
        first = parts[0]
        idx = rest.find(first) + len(first)
        fields.append(first)
        rest = rest[idx:]
        rest = rest.lstrip(ws)
        if rest[:1] and rest[0] in ifs and rest[0] not in ws:
            rest = rest[1:].lstrip(ws)
    for name, value in zip(names, fields + [""] * len(names), strict=False):
        sh.set(name, value)
    return 1 if eof else 0


def eval_(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    src = " ".join(argv[1:])
    try:
        tree = parse(src)
    except ShellSyntaxError as exc:
        ctx.err.write(f"bash: eval: line 1: {exc}\n")
        return 2
    return sh.exec_list(tree, ctx.io)


def source(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    if len(argv) < 2:
        ctx.err.write("bash: source: filename argument required\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8", errors="surrogateescape") as f:
            src = f.read()
    except OSError:
        ctx.err.write(f"bash: {argv[1]}: No such file or directory\n")
        return 1
    saved = sh.positional
    if len(argv) > 2:
        sh.positional = argv[2:]
    try:
        return sh.exec_list(parse(src), ctx.io)
    except FunctionReturn as r:
        return r.code
    finally:
        sh.positional = saved


def type_(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    status = 0
    which = argv[0] == "which"
    for name in argv[1:]:
        if name.startswith("-"):
            continue
        if name in sh.functions and not which:
            ctx.out.write(f"{name} is a function\n")
        elif name in BUILTINS and not which:
            ctx.out.write(f"{name} is a shell builtin\n")
        elif name in sh.commands or name in BUILTINS:
            ctx.out.write(f"/usr/bin/{name}\n" if which else f"{name} is /usr/bin/{name}\n")
        else:
            if not which:
                ctx.err.write(f"bash: type: {name}: not found\n")
            status = 1
    return status


def command(ctx: Context, args: list[str]) -> int:
    sh = ctx.shell
    if args and args[0] == "-v":
        status = 0
        for name in args[1:]:
            if name in sh.functions or name in BUILTINS:
                ctx.out.write(name + "\n")
            elif name in sh.commands:
                ctx.out.write(f"/usr/bin/{name}\n")
            else:
                status = 1
        return status
    if not args:
        return 0
    saved = sh.functions
    sh.functions = {}
    try:
        return sh.call(args, ctx.io)
    finally:
        sh.functions = saved


def test(ctx: Context, args: list[str]) -> int:
    argv = ctx.argv
    if argv[0] == "[":
        if not args or args[-1] != "]":
            ctx.err.write("bash: [: missing `]'\n")
            return 2
        args = args[:-1]
    try:
        return 0 if test_command(args) else 1
    except ShellError as exc:
        ctx.err.write(f"bash: {argv[0]}: {exc}\n")
        return 2


def let(ctx: Context, args: list[str]) -> int:
    sh, argv = ctx.shell, ctx.argv
    value = 0
    for expr in argv[1:]:
        value = sh.arith(expr)
    return 0 if value != 0 else 1


def umask(ctx: Context, args: list[str]) -> int:
    ctx.out.write("0022\n")
    return 0


# A builtin or a command: `name(ctx, args) -> status`.
Command = Callable[[Context, list[str]], int]

BUILTINS: dict[str, Command] = {
    "cd": cd,
    "pwd": pwd,
    "true": true_,
    "false": false_,
    "exit": exit_,
    "return": return_,
    "break": break_,
    "continue": continue_,
    "export": export,
    "unset": unset,
    "local": local,
    "declare": declare,
    "typeset": declare,
    "readonly": declare,
    "shift": shift,
    "set": set_,
    "read": read,
    "eval": eval_,
    "source": source,
    ".": source,
    "type": type_,
    "which": type_,
    "command": command,
    "test": test,
    "[": test,
    "let": let,
    ":": true_,
    "shopt": true_,
    "trap": trap,
    "wait": true_,
    "mapfile": mapfile,
    "readarray": mapfile,
    "bash": bash,
    "sh": bash,
    "umask": umask,
}

"""The shell's builtins: the commands that act on the shell itself (cd, export,
read, set, source, eval, ...). Each is `name(ctx, args) -> status`, the same convention as the
commands; `ctx.shell` is the interpreter.
"""

import os
import re

from cove_guest.shell.conditional import test_command
from cove_guest.shell.errors import FunctionReturn, LoopBreak, LoopContinue, ShellExit
from cove_guest.shell.expand import ifs_split
from cove_guest.shell.parse import ShellSyntaxError, is_name, parse
from cove_guest.text.errors import ShellError, os_message
from cove_guest.text.escapes import shell_quote


def cd(ctx, args):
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


def pwd(ctx, args):
    ctx.out.write(os.getcwd() + "\n")
    return 0


def true_(ctx, args):
    """true, :, and the builtins accepted as no-ops here (shopt, trap, wait)."""
    return 0


def false_(ctx, args):
    return 1


def exit_(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    code = sh.status
    if len(argv) > 1:
        try:
            code = int(argv[1]) & 0xFF
        except ValueError:
            ctx.err.write(f"bash: exit: {argv[1]}: numeric argument required\n")
            code = 2
    raise ShellExit(code)


def return_(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    code = int(argv[1]) & 0xFF if len(argv) > 1 else sh.status
    raise FunctionReturn(code)


def break_(ctx, args):
    argv = ctx.argv
    raise LoopBreak(int(argv[1]) if len(argv) > 1 else 1)


def continue_(ctx, args):
    argv = ctx.argv
    raise LoopContinue(int(argv[1]) if len(argv) > 1 else 1)


def export(ctx, args):
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


def unset(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    for a in argv[1:]:
        if a in ("-v", "-f"):
            continue
        if "-f" in argv[1:]:
            sh.functions.pop(a, None)
        else:
            sh.unset(a)
    return 0


def local(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    if not sh.locals:
        ctx.err.write("bash: local: can only be used in a function\n")
        return 1
    for a in argv[1:]:
        name, eq, value = a.partition("=")
        sh.locals[-1][name] = value if eq else ""
    return 0


def declare(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    args = [a for a in argv[1:] if not a.startswith("-")]
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    if "a" in flags or "A" in flags:
        ctx.err.write("bash: declare: arrays are not supported in this shell\n")
        return 1
    for a in args:
        name, eq, value = a.partition("=")
        if sh.locals and "g" not in flags:
            sh.locals[-1][name] = value if eq else (sh.get(name) or "")
        elif eq:
            sh.set(name, value)
        if "x" in flags:
            sh.exported.add(name)
    return 0


def shift(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    k = int(argv[1]) if len(argv) > 1 else 1
    if k > len(sh.positional):
        return 1
    sh.positional = sh.positional[k:]
    return 0


def set_(ctx, args):
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
            ctx.out.write(f"{name}={shell_quote(sh.vars[name])}\n")
    return 0


def read(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    raw = False
    delim = "\n"
    names = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-r":
            raw = True
        elif a == "-p":
            i += 1
        elif a == "-d":
            i += 1
            delim = args[i][:1] if args[i] else "\0"
        elif a in ("-s", "-e"):
            pass
        elif a.startswith("-"):
            ctx.err.write(f"bash: read: {a}: unsupported option\n")
            return 2
        else:
            names.append(a)
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
    eof = end < 0
    line = data[offset:] if eof else data[offset:end]
    pos[key] = len(data) if eof else end + 1
    if not raw:
        line = re.sub(r"\\(.)", r"\1", line.replace("\\\n", ""))
    ifs = sh.get("IFS")
    ifs = " \t\n" if ifs is None else ifs
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


def eval_(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    src = " ".join(argv[1:])
    try:
        tree = parse(src)
    except ShellSyntaxError as exc:
        ctx.err.write(f"bash: eval: line 1: {exc}\n")
        return 2
    return sh.exec_list(tree, ctx.io)


def source(ctx, args):
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


def type_(ctx, args):
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


def command(ctx, args):
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


def test(ctx, args):
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


def let(ctx, args):
    sh, argv = ctx.shell, ctx.argv
    value = 0
    for expr in argv[1:]:
        value = sh.arith(expr)
    return 0 if value != 0 else 1


def umask(ctx, args):
    ctx.out.write("0022\n")
    return 0


BUILTINS = {
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
    "trap": true_,
    "wait": true_,
    "umask": umask,
}

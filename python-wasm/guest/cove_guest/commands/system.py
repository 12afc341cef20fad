"""Commands about the environment: sleep, env, printenv, yes, uname, whoami,
hostname, and python (through the host: a fresh interpreter)."""

import re
import time

from cove_guest.shell.builtins import BUILTINS
from cove_guest.shell.io import Context, full_io
from cove_guest.text.errors import ShellError, UsageError


def sleep(ctx: Context, args: list[str]) -> int:
    total = 0.0
    for a in args:
        m = re.fullmatch(r"(\d*\.?\d+)([smhd]?)", a)
        if not m:
            raise UsageError(f"invalid time interval '{a}'")
        total += float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
    time.sleep(total)
    return 0


def env(ctx: Context, args: list[str]) -> int:
    if args and args[0] not in ("-i", "-u") and "=" not in args[0]:
        return ctx.shell.call(args, full_io(ctx))
    for name, value in sorted(ctx.env.items()):
        ctx.out.write(f"{name}={value}\n")
    return 0


def printenv(ctx: Context, args: list[str]) -> int:
    env_ = ctx.env
    if args:
        status = 0
        for a in args:
            if a in env_:
                ctx.out.write(env_[a] + "\n")
            else:
                status = 1
        return status
    for name, value in sorted(env_.items()):
        ctx.out.write(f"{name}={value}\n")
    return 0


def yes(ctx: Context, args: list[str]) -> int:
    raise ShellError("yes: refused: it never ends without a process to kill it", 1)


def uname(ctx: Context, args: list[str]) -> int:
    if "-a" in args:
        ctx.out.write("Linux cove 6.0 #1 SMP wasm32 GNU/Linux\n")
    elif "-m" in args:
        ctx.out.write("wasm32\n")
    else:
        ctx.out.write("Linux\n")
    return 0


def whoami(ctx: Context, args: list[str]) -> int:
    ctx.out.write("user\n")
    return 0


def hostname(ctx: Context, args: list[str]) -> int:
    ctx.out.write("cove\n")
    return 0


def python(ctx: Context, args: list[str]) -> int:
    host = ctx.shell.host
    if host is None:
        ctx.err.write("python: not available in this context\n")
        return 127
    return host.python(ctx, args)


_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def timeout(ctx: Context, args: list[str]) -> int:
    """timeout DURATION COMMAND: the command runs in the shell, which cannot interrupt it; its
    status is the command's (and `timeout N sleep M` sleeps N and says 124, as when stopped).
    The call's own deadline still bounds it."""
    k = 0
    preserve = False
    while k < len(args) and args[k].startswith("-") and args[k] != "-":
        a = args[k]
        if a in ("-s", "-k", "--signal", "--kill-after"):
            k += 2
            continue
        if a == "--preserve-status":
            preserve = True
        elif a == "--":
            k += 1
            break
        elif not (
            a in ("-v", "--verbose", "--foreground")
            or a.startswith(("-s", "-k", "--signal=", "--kill-after="))
        ):
            ctx.err.write(f"timeout: invalid option -- '{a[1:2]}'\n")
            return 125
        k += 1
    rest = args[k:]
    if len(rest) < 2:
        after = f" after '{rest[0]}'" if rest else ""
        ctx.err.write(
            f"timeout: missing operand{after}\nTry 'timeout --help' for more information.\n"
        )
        return 125
    m = re.fullmatch(r"(\d*\.?\d+(?:[eE][-+]?\d+)?)([smhd]?)", rest[0])
    if not m:
        ctx.err.write(f"timeout: invalid time interval '{rest[0]}'\n")
        return 125
    limit = float(m.group(1)) * _UNITS[m.group(2)]
    argv = rest[1:]
    if argv[0] == "sleep" and limit > 0:
        wanted = 0.0
        for x in argv[1:]:
            n = re.fullmatch(r"(\d*\.?\d+)([smhd]?)", x)
            wanted += float(n.group(1)) * _UNITS[n.group(2)] if n else 0.0
        if wanted > limit:
            time.sleep(limit)
            return 143 if preserve else 124
    if argv[0] not in ctx.shell.commands and argv[0] not in BUILTINS and "/" not in argv[0]:
        ctx.err.write(f"timeout: failed to run command '{argv[0]}': No such file or directory\n")
        return 127
    return ctx.shell.call(argv, full_io(ctx))

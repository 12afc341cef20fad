"""Commands about the environment: sleep, env, printenv, yes, uname, whoami,
hostname, and python (through the host: a fresh interpreter)."""

import re
import time

from cove_guest.shell.io import full_io
from cove_guest.text.errors import ShellError, UsageError


def sleep(ctx, args):
    total = 0.0
    for a in args:
        m = re.fullmatch(r"(\d*\.?\d+)([smhd]?)", a)
        if not m:
            raise UsageError(f"invalid time interval '{a}'")
        total += float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
    time.sleep(total)
    return 0


def env(ctx, args):
    if args and args[0] not in ("-i", "-u") and "=" not in args[0]:
        return ctx.shell.call(args, full_io(ctx))
    for name, value in sorted(ctx.env.items()):
        ctx.out.write(f"{name}={value}\n")
    return 0


def printenv(ctx, args):
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


def yes(ctx, args):
    raise ShellError("yes: refused: it never ends without a process to kill it", 1)


def uname(ctx, args):
    if "-a" in args:
        ctx.out.write("Linux cove 6.0 #1 SMP wasm32 GNU/Linux\n")
    elif "-m" in args:
        ctx.out.write("wasm32\n")
    else:
        ctx.out.write("Linux\n")
    return 0


def whoami(ctx, args):
    ctx.out.write("user\n")
    return 0


def hostname(ctx, args):
    ctx.out.write("cove\n")
    return 0


def python(ctx, args):
    host = ctx.shell.host
    if host is None:
        ctx.err.write("python: not available in this context\n")
        return 127
    return host.python(ctx, args)

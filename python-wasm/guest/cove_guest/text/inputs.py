"""Reading a command's operands: a file, `-` for stdin, `/dev/null`; decoding bytes
the way every command does (UTF-8 with surrogate escapes, so any byte survives); and the
depth-first directory walk find, grep -r, tar and zip share.
"""

import os

from cove_guest.text.errors import os_message


def read_operand(ctx, name):
    if name == "-":
        return ctx.stdin
    if name == "/dev/null":
        return b""
    with open(name, "rb") as f:
        return f.read()


def read_inputs(ctx, names, cmd):
    """Yield (name, bytes) for each operand (stdin when none); errors reported, status kept."""
    status = 0
    out = []
    for name in names or ["-"]:
        try:
            out.append((name, read_operand(ctx, name)))
        except FileNotFoundError:
            ctx.err.write(f"{cmd}: {name}: No such file or directory\n")
            status = 1
        except IsADirectoryError:
            ctx.err.write(f"{cmd}: {name}: Is a directory\n")
            status = 1
        except OSError as exc:
            ctx.err.write(f"{cmd}: {name}: {os_message(exc)}\n")
            status = 1
    return out, status


def split_lines(data):
    """Split bytes into lines keeping terminators."""
    return data.splitlines(keepends=True)


def decode(b):
    return b.decode("utf-8", "surrogateescape")


def encode(s):
    return s.encode("utf-8", "surrogateescape")


def walk_tree(root, maxdepth, state=None):
    """Paths under root, depth first in directory order; `state` (find's) can prune, and gets
    unreadable directories reported."""
    stack = [(root, 0)]
    while stack:
        path, depth = stack.pop()
        yield path, depth
        if state is not None and state.prune:
            continue
        if (
            os.path.isdir(path)
            and not os.path.islink(path)
            and (maxdepth is None or depth < maxdepth)
        ):
            try:
                # readdir order, as GNU find walks (and the same file system gives the same order)
                entries = list(reversed(os.listdir(path)))
            except OSError as exc:
                if state is not None:
                    state.ctx.err.write(f"find: '{path}': {os_message(exc)}\n")
                    state.failed = True
                continue
            for e in entries:
                stack.append((os.path.join(path, e) if path != "/" else "/" + e, depth + 1))

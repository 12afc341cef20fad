"""Reading a command's operands: a file, `-` for stdin, `/dev/null`; decoding bytes
the way every command does (UTF-8 with surrogate escapes, so any byte survives); and the
depth-first directory walk find, grep -r, tar and zip share.
"""

import os
from collections.abc import Iterator
from typing import Protocol

from cove_guest.text.errors import os_message


class TextSink(Protocol):
    """Where a command writes text (the shell's `Writer`)."""

    def write(self, data: str, /) -> object: ...


class Streams(Protocol):
    """What reading operands needs of a command's context (the shell's `Context`)."""

    @property
    def stdin(self) -> bytes: ...

    @property
    def err(self) -> TextSink: ...


class WalkState(Protocol):
    """What `walk_tree` needs of find's state: whether to prune the current path, and where to
    report an unreadable directory."""

    prune: bool
    failed: bool

    @property
    def ctx(self) -> Streams: ...


def read_operand(ctx: Streams, name: str) -> bytes:
    """An operand's bytes: stdin for `-`, nothing for `/dev/null`, else the file's."""
    if name == "-":
        return ctx.stdin
    if name == "/dev/null":
        return b""
    with open(name, "rb") as f:
        return f.read()


def read_inputs(ctx: Streams, names: list[str], cmd: str) -> tuple[list[tuple[str, bytes]], int]:
    """(name, bytes) for each operand (stdin when none), and the status: a file that cannot
    be read is reported on stderr and skipped."""
    status = 0
    out: list[tuple[str, bytes]] = []
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


def split_lines(data: bytes) -> list[bytes]:
    """Split bytes into lines keeping terminators."""
    return data.splitlines(keepends=True)


def decode(b: bytes) -> str:
    """Bytes as text, any byte kept (UTF-8 with surrogate escapes)."""
    return b.decode("utf-8", "surrogateescape")


def encode(s: str) -> bytes:
    """`decode`'s inverse."""
    return s.encode("utf-8", "surrogateescape")


def walk_tree(
    root: str, maxdepth: int | None, state: WalkState | None = None
) -> Iterator[tuple[str, int]]:
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

"""What a command reads and writes: byte sinks (`Writer`, `NullSink`), the stdin and
stdout/stderr triple (`IO`), the `Context` every builtin and command receives, and opening the
targets of redirections.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any, Protocol

from cove_guest.text.errors import ShellError, os_message

if TYPE_CHECKING:
    from cove_guest.shell.interp import Shell


class ByteSink(Protocol):
    """What a `Writer` writes to: a buffer, a file, a bounded stream."""

    def write(self, data: bytes, /) -> object: ...


class Writer:
    """A byte sink that takes text too: a buffer, a file opened by a redirection, or a sink
    handed in (the session's bounded streams)."""

    def __init__(self, target: ByteSink | None = None) -> None:
        self.target: Any = target if target is not None else io.BytesIO()

    def write(self, data: str | bytes) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        self.target.write(data)

    def getvalue(self) -> bytes:
        """What a buffer holds (a `Writer` made without a target)."""
        value: bytes = self.target.getvalue()
        return value


class NullSink:
    """Writes go nowhere: `/dev/null`, and stderr where nothing will read it."""

    def write(self, data: str | bytes) -> int:
        return len(data)

    def close(self) -> None:
        pass


# Where a command's output goes: a `Writer`, or `NullSink` for `>&-`.
Output = Writer | NullSink


class IO:
    """A command's stdin (bytes, read whole) and its stdout and stderr."""

    __slots__ = ("err", "out", "stdin")

    def __init__(self, stdin: bytes, out: Output, err: Output) -> None:
        self.stdin = stdin
        self.out = out
        self.err = err


class Context:
    """What a builtin or command sees: argv, stdin bytes, stdout/stderr writers, the shell.

    Builtins and commands share one signature, `name(ctx, args) -> status`, where `args` is
    `ctx.argv[1:]`.
    """

    def __init__(self, shell: Shell, argv: list[str], io_: IO) -> None:
        self.shell = shell
        self.argv = argv
        self.io = io_
        self.stdin = io_.stdin
        self.out = io_.out
        self.err = io_.err

    @property
    def env(self) -> dict[str, str]:
        return self.shell.environ()

    def error(self, message: str) -> None:
        self.err.write(f"{self.argv[0]}: {message}\n")


def read_path(path: str) -> bytes:
    """The bytes of a redirection's source (`<`); `/dev/null` and stdin read as empty."""
    if path == "/dev/null":
        return b""
    if path in ("/dev/stdin", "-"):
        return b""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise ShellError(f"{path}: No such file or directory") from None
    except IsADirectoryError:
        raise ShellError(f"{path}: Is a directory") from None
    except OSError as exc:
        raise ShellError(f"{path}: {os_message(exc)}") from None


def open_writer(path: str, mode: str) -> Writer:
    """The `Writer` for a redirection's target (`>`, `>>`)."""
    if path == "/dev/null":
        return Writer(NullSink())
    if path == "/dev/stdout" or path == "/dev/stderr":
        raise ShellError(f"{path}: use >&1 or >&2")
    try:
        return Writer(open(path, mode))
    except IsADirectoryError:
        raise ShellError(f"{path}: Is a directory") from None
    except FileNotFoundError:
        raise ShellError(f"{path}: No such file or directory") from None
    except OSError as exc:
        raise ShellError(f"{path}: {os_message(exc, write=True)}") from None


def command_io(ctx: Context) -> IO:
    """The streams for a command a command runs (find -exec, xargs): no stdin."""
    return IO(b"", ctx.out, ctx.err)


def full_io(ctx: Context) -> IO:
    """The streams of `ctx`, to hand to a command it runs."""
    return IO(ctx.stdin, ctx.out, ctx.err)

"""`/dev/null` for `open()`: the guest's file system has no devices.

Model code silences output with `open(os.devnull, "w")` (with `contextlib.redirect_stdout`,
`print(file=...)`, or as a subprocess's `stdout`), and libraries save to it to measure or to
discard (matplotlib's `savefig(os.devnull)`, Pillow's `save`). Here `open`, `io.open` and
`pathlib.Path.open` of that path give a file object whose writes go nowhere and whose reads
find nothing, in the modes CPython accepts for it: text or binary, buffered or not, and `x`
raising `FileExistsError` as it does for a file that exists. It has no descriptor:
`fileno()` raises `io.UnsupportedOperation` (WASI has no device to give one for), and so does
`os.open(os.devnull, ...)` still (`PermissionError`, the root being read-only). Every other
path goes to CPython's `io.open` unchanged.
"""

import builtins
import errno
import io
import os
from typing import Any

_io_open = io.open
_NAMES = (os.devnull, os.fsencode(os.devnull))


class NullFile(io.RawIOBase):
    """The raw file under `open(os.devnull)`: empty to read, endless to write, seekable and
    always at 0, as the device is."""

    def __init__(self, name: Any, mode: str) -> None:
        super().__init__()
        self.name = name
        self._readable = "r" in mode or "+" in mode
        self._writable = any(c in mode for c in "wax+")
        # FileIO's own spelling of the mode ("w+" is "rb+", "a" is "ab")
        plus = "+" if self._readable and self._writable else ""
        if "a" in mode:
            self.mode = "ab" + plus
        elif self._readable:
            self.mode = "rb" + plus
        else:
            self.mode = "wb"

    def readable(self) -> bool:
        self._checkClosed()
        return self._readable

    def writable(self) -> bool:
        self._checkClosed()
        return self._writable

    def seekable(self) -> bool:
        self._checkClosed()
        return True

    def readinto(self, buffer: Any) -> int:
        if not self.readable():
            raise io.UnsupportedOperation("File not open for reading")
        return 0

    def write(self, data: Any) -> int:
        if not self.writable():
            raise io.UnsupportedOperation("File not open for writing")
        with memoryview(data) as view:
            return view.nbytes

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self._checkClosed()
        return 0

    def tell(self) -> int:
        self._checkClosed()
        return 0

    def truncate(self, size: int | None = None) -> int:
        self._checkClosed()
        return 0

    def fileno(self) -> int:
        raise io.UnsupportedOperation(
            "/dev/null has no file descriptor in this sandbox (WASI has no devices): "
            "its writes are discarded and its reads are empty, through this file object"
        )

    def isatty(self) -> bool:
        return False


def _check_mode(mode: str, buffering: int, encoding: Any, errors: Any, newline: Any) -> None:
    """io.open's own checks of its arguments, with its messages."""
    if not isinstance(mode, str):
        raise TypeError(f"open() argument 'mode' must be str, not {type(mode).__name__}")
    if not isinstance(buffering, int):
        raise TypeError(f"'{type(buffering).__name__}' object cannot be interpreted as an integer")
    modes = set(mode)
    if modes - set("axrwb+t") or len(mode) > len(modes):
        raise ValueError(f"invalid mode: '{mode}'")
    kinds = sum(c in modes for c in "rwax")
    if kinds > 1:
        raise ValueError("must have exactly one of create/read/write/append mode")
    if "t" in modes and "b" in modes:
        raise ValueError("can't have text and binary mode at once")
    if "b" in modes:
        for article, name, value in (
            ("an", "encoding", encoding),
            ("an", "errors", errors),
            ("a", "newline", newline),
        ):
            if value is not None:
                raise ValueError(f"binary mode doesn't take {article} {name} argument")
    if kinds == 0:  # FileIO's own check, and message
        raise ValueError(
            "Must have exactly one of create/read/write/append mode and at most one plus"
        )
    if "b" not in modes and buffering == 0:
        raise ValueError("can't have unbuffered text I/O")


def open(  # it is builtins.open, as io.open is
    file: Any,
    mode: str = "r",
    buffering: int = -1,
    encoding: str | None = None,
    errors: str | None = None,
    newline: str | None = None,
    closefd: bool = True,
    opener: Any = None,
) -> Any:
    """io.open, but for os.devnull (this module's docstring)."""
    if opener is not None or not isinstance(file, (str, bytes, os.PathLike)):
        return _io_open(file, mode, buffering, encoding, errors, newline, closefd, opener)
    if os.fspath(file) not in _NAMES:
        return _io_open(file, mode, buffering, encoding, errors, newline, closefd, opener)
    _check_mode(mode, buffering, encoding, errors, newline)
    if "x" in mode:
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), file)
    raw = NullFile(file, mode.replace("t", ""))
    if buffering == 0:
        return raw
    size = io.DEFAULT_BUFFER_SIZE if buffering in (-1, 1) else buffering
    if "+" in mode:
        buffered: Any = io.BufferedRandom(raw, size)
    elif "r" in mode:
        buffered = io.BufferedReader(raw, size)
    else:
        buffered = io.BufferedWriter(raw, size)
    if "b" in mode:
        return buffered
    text = io.TextIOWrapper(buffered, encoding, errors, newline, line_buffering=buffering == 1)
    text.mode = mode  # type: ignore[misc]  # as io.open sets it
    return text


open.__doc__ = _io_open.__doc__


def install() -> None:
    """`open`, `io.open` (which `pathlib` calls) and `builtins.open` become `open` above."""
    io.open = open
    builtins.open = open

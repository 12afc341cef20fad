"""Bounded capture of a call's output: the guest's stdout and stderr while a call runs.

Each stream keeps the first `limit` UTF-8 bytes written to it and counts the rest, so output
is bounded while it is written, not after.
"""

import io
import sys
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")


class BoundedText(io.TextIOBase):
    """A text stream keeping the first `limit` UTF-8 bytes written to it and counting the rest."""

    def __init__(self, limit: int) -> None:
        self._parts: list[bytes] = []
        self._size = 0
        self._limit = limit
        self.dropped = 0

    # TextIOBase declares encoding and errors as attributes; real text streams make them
    # read-only, as these properties do.
    @property
    def encoding(self) -> str:  # type: ignore[override]
        return "utf-8"

    @property
    def errors(self) -> str:  # type: ignore[override]
        return "surrogateescape"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, s: str) -> int:
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        self.write_bytes(s.encode("utf-8", "surrogateescape"))
        return len(s)

    def write_bytes(self, data: bytes) -> None:
        """Keep what fits of `data` (UTF-8, or any bytes) and count the rest."""
        room = self._limit - self._size
        if room >= len(data):
            self._parts.append(data)
            self._size += len(data)
        else:
            if room > 0:
                self._parts.append(data[:room])
                self._size += room
            self.dropped += len(data) - max(room, 0)

    @property
    def buffer(self) -> "BinaryView":
        return BinaryView(self)

    def getvalue(self) -> str:
        text = b"".join(self._parts).decode("utf-8", "replace")
        if self.dropped:
            text += f"\n[output truncated: {self.dropped} more bytes were dropped]\n"
        return text


class BinaryView(io.RawIOBase):
    """`sys.stdout.buffer` for code that writes bytes."""

    def __init__(self, text: BoundedText) -> None:
        self._text = text

    def writable(self) -> bool:
        return True

    def write(self, b: bytes) -> int:  # type: ignore[override]
        self._text.write_bytes(bytes(b))
        return len(b)


def redirected_streams(
    limit: int, body: Callable[[BoundedText, BoundedText], _T]
) -> tuple[_T, BoundedText, BoundedText]:
    """Run `body(out, err)` with sys.stdout/stderr captured and stdin empty.

    Returns (body's result, out, err); the streams are restored whatever happens.
    """
    out, err = BoundedText(limit), BoundedText(limit)
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    try:
        rc = body(out, err)
    finally:
        for stream in (out, err):
            try:
                stream.flush()
            except BaseException:
                pass
        sys.stdout, sys.stderr, sys.stdin = saved
    return rc, out, err

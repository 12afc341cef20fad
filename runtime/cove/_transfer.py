"""Files moved between a client and a workspace in bounded pieces, never whole in memory.

- `WorkspaceFile`: a workspace file opened for reading (`Session.open_file`). The path is
  resolved and the file opened (O_NOFOLLOW) under the session's lock; the pieces are read
  afterwards, in worker threads, from the open descriptor, so a slow reader holds one
  descriptor and one piece, not the file, and never holds up the session.
- `Upload`: an upload being received (`Session.new_upload`). Its bytes go to a private
  temporary file outside the workspace (in the pool's own directory, on the same file system),
  refused as soon as they pass the session's `max_file_bytes`; `Session.place_upload` then
  moves the file into the workspace with the workspace's checks.
- `check_new_name`: names created through the host's file API carry no control characters
  (the guest can still make such names; downloads of them are served with safe headers).

Both objects own a descriptor: close them (`close()`, or `with`); if one is dropped unclosed,
its descriptor is closed (and a spool file removed) when it is garbage-collected.
"""

from __future__ import annotations

import errno
import os
import pathlib
import shutil
import tempfile
import threading
import weakref
from types import TracebackType

import anyio

from ._errors import InvalidRequestError, TooLargeError

__all__ = ["CHUNK_BYTES", "Upload", "WorkspaceFile", "check_new_name"]

CHUNK_BYTES = 64 * 1024
"""The size of the pieces a file is read in."""

_FLUSH_BYTES = 256 * 1024


def check_new_name(path: str) -> None:
    """Refuse a name to create that holds a control character (U+0001 to U+001F, U+007F).

    NUL is left to the workspace's resolver, which refuses it as an escape.

    Raises:
        InvalidRequestError: naming the first control character found.
    """
    for char in path:
        code = ord(char)
        if (0 < code < 0x20) or code == 0x7F:
            raise InvalidRequestError(
                f"path {path[:200]!r} contains the control character U+{code:04X}; "
                "file names with control characters are not accepted"
            )


def _write_all(fd: int, data: bytes | bytearray) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _discard(fd: int, path: pathlib.Path) -> None:
    try:
        os.close(fd)
    finally:
        path.unlink(missing_ok=True)


class WorkspaceFile:
    """A workspace file open for reading in pieces (see `Session.open_file`).

    Attributes:
        path: The file, relative to the workspace root.
        size_bytes: Its size when opened; `read` returns at most this many bytes in all, even
            if the file grows afterwards.
        media_type: Guessed from the name (`application/octet-stream` when unknown).
    """

    def __init__(self, fd: int, *, path: str, size_bytes: int, media_type: str) -> None:
        self.path: str = path
        self.size_bytes: int = size_bytes
        self.media_type: str = media_type
        self.bytes_read: int = 0
        self._fd = fd
        self._finalizer = weakref.finalize(self, os.close, fd)
        self._lock = threading.Lock()  # close and revoke: the number is ours until closed

    @property
    def closed(self) -> bool:
        return not self._finalizer.alive

    @property
    def complete(self) -> bool:
        """All `size_bytes` were read (False if the file shrank while being read)."""
        return self.bytes_read == self.size_bytes

    async def read(self, max_bytes: int = CHUNK_BYTES) -> bytes:
        """The next piece, at most `max_bytes`, read in a worker thread; b"" at the end.

        Raises:
            ValueError: the file is closed.
        """
        if self.closed:
            raise ValueError("read from a closed WorkspaceFile")
        want = min(max_bytes, self.size_bytes - self.bytes_read)
        if want <= 0:
            return b""
        data = await anyio.to_thread.run_sync(os.pread, self._fd, want, self.bytes_read)
        self.bytes_read += len(data)
        return data

    def close(self) -> None:
        """Close the descriptor. Idempotent; never blocks."""
        with self._lock:
            self._finalizer()

    def revoke(self) -> None:
        """Let go of the file now, from any thread, while a read may be under way: the
        descriptor is pointed at /dev/null (its number stays this object's, so a read in
        progress can never reach another file), and reads from here on find the end early.
        The disk space of a deleted file is freed. Idempotent."""
        with self._lock:
            if self.closed:
                return
            null = os.open(os.devnull, os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.dup2(null, self._fd, inheritable=False)
            finally:
                os.close(null)

    def held_bytes(self) -> int:
        """Disk bytes this open file alone keeps: its size once it has no name left (the guest
        deleted or renamed over it; they are the session's until it is closed), else 0."""
        if self.closed:
            return 0
        try:
            st = os.fstat(self._fd)
        except OSError:
            return 0
        return st.st_size if st.st_nlink == 0 else 0

    def __enter__(self) -> WorkspaceFile:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class Upload:
    """An upload being received, spooled to a private file outside the workspace.

    Create it with `Session.new_upload`; `write` its pieces; hand it to
    `Session.place_upload`, which moves it into the workspace. `discard()` (or `with`) removes
    whatever was not placed.

    Attributes:
        size_bytes: Bytes received so far.
        max_bytes: The most it may hold (the session's `max_file_bytes`).
    """

    def __init__(self, directory: pathlib.Path, max_bytes: int) -> None:
        """Make the spool file in `directory` (blocking: call it in a worker thread)."""
        fd, name = tempfile.mkstemp(dir=directory, prefix=".cove-upload-")
        self.max_bytes: int = max_bytes
        self.size_bytes: int = 0
        self._fd = fd
        self._path = pathlib.Path(name)
        self._buffer = bytearray()
        self._finalizer = weakref.finalize(self, _discard, fd, self._path)

    @property
    def discarded(self) -> bool:
        """Placed into a workspace, or thrown away."""
        return not self._finalizer.alive

    async def write(self, data: bytes) -> None:
        """Append `data`; what is buffered is written in a worker thread.

        Raises:
            TooLargeError: the upload passed `max_bytes`; it is discarded at once.
            ValueError: the upload was already placed or discarded.
        """
        if self.discarded:
            raise ValueError("write to a discarded Upload")
        self.size_bytes += len(data)
        if self.size_bytes > self.max_bytes:
            self.discard()
            raise TooLargeError("the file", self.size_bytes, self.max_bytes)
        self._buffer += data
        if len(self._buffer) >= _FLUSH_BYTES:
            await self.flush()

    async def flush(self) -> None:
        """Write what is buffered to the spool file, in a worker thread."""
        if self._buffer and not self.discarded:
            pending, self._buffer = self._buffer, bytearray()
            await anyio.to_thread.run_sync(_write_all, self._fd, pending)

    def move_to(self, target: pathlib.Path) -> None:
        """Put the spool file at `target`, atomically replacing what is there (blocking).

        For the workspace's use, after its checks and under the session's lock; call `flush()`
        first. The upload is spent afterwards.
        """
        if self.discarded:
            raise ValueError("move of a discarded Upload")
        if self._buffer:
            raise ValueError("move of an Upload with unflushed bytes")
        try:
            os.replace(self._path, target)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            # Not on the workspace's file system: copy beside the target, then replace.
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".cove-upload-")
            try:
                with os.fdopen(fd, "wb") as out, open(self._path, "rb") as src:
                    shutil.copyfileobj(src, out)
                os.replace(tmp, target)
            except BaseException:
                pathlib.Path(tmp).unlink(missing_ok=True)
                raise
            self._path.unlink(missing_ok=True)
        self._finalizer.detach()
        os.close(self._fd)

    def discard(self) -> None:
        """Close and remove the spool file. Idempotent; a placed upload is left alone."""
        self._finalizer()
        self._buffer = bytearray()

    def __enter__(self) -> Upload:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.discard()

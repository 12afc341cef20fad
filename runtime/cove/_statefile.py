"""The state file: the format a session's saved interpreter state (its *image*) is kept in.

Between calls an interpreter's whole state is its linear memory (and `__stack_pointer`, back at
its initial value then; it is saved anyway): wasi-libc keeps the working directory and the
environment in that memory, the function table is never written, and everything host-side (the
WASI descriptor table) is rebuilt by a fresh instance. So a session's state is the snapshot plus
the pages the session changed (`_pages.changed_runs`), and restoring it is instantiating the
snapshot and writing those pages back. This module is the file those pages and the session's
record are written to, for a suspend or a restart; it knows nothing of guests or sessions.

The file (`write_state` / `open_state`), all integers little-endian:

    b"COVEIMG1" | u32 header length | header (JSON, `StateHeader`) | zstd frame (level 3) of
    the pages of every run, in order | sha256 of everything before it (32 bytes)

The header names the artifact the image was made from (an image is refused for any other),
the memory's size, the stack pointer, the runs of pages (sorted, disjoint, inside the memory)
and the session's record. A truncated, corrupted or foreign image is refused with
`StateFileError`, never loaded in part. Images are written to a private file (0600, in the pool's
0700 directory) and replaced atomically.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import io
import os
import pathlib
import struct
from collections.abc import Generator, Iterator
from typing import Annotated, Any, BinaryIO, cast

import msgspec
import zstandard

from ._errors import CoveError
from ._pages import PAGE
from ._settings import SESSION_ID_PATTERN, Limits

__all__ = [
    "SessionRecord",
    "StateFileError",
    "StateHeader",
    "decompress_pages",
    "open_state",
    "read_state",
    "read_state_header",
    "write_state",
]

MAGIC = b"COVEIMG1"
_DIGEST = 32
# Far above any real header (a few hundred bytes plus 8 per run), far below a memory's worth.
_MAX_HEADER = 16 << 20
_MAX_MEMORY = 4 << 30  # wasm32

_ZSTD_LEVEL = 3
_PAGES_MISMATCH = "the session image's pages do not match its header"


class StateFileError(CoveError):
    """A session image cannot be used: made from another artifact, truncated, or corrupted."""


_Uint = Annotated[int, msgspec.Meta(ge=0)]


class SessionRecord(msgspec.Struct, frozen=True, kw_only=True):
    """What a session is besides its memory and its files (kept in its image's header)."""

    session_id: Annotated[str, msgspec.Meta(pattern=SESSION_ID_PATTERN)]
    created_at: float
    last_activity_at: float
    limits: Limits
    image: Annotated[str, msgspec.Meta(max_length=200)]
    calls: _Uint = 0
    resets: _Uint = 0


class StateHeader(msgspec.Struct, frozen=True, kw_only=True):
    """An image's header: which artifact, the memory's layout, and the session."""

    artifact_sha256: Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")]
    memory_bytes: Annotated[int, msgspec.Meta(ge=0, le=_MAX_MEMORY)]
    stack_pointer: Annotated[int, msgspec.Meta(ge=0, lt=2**32)]
    runs: list[tuple[_Uint, _Uint]]  # (first page, page count)
    session: SessionRecord


def _header_bytes(header: StateHeader) -> bytes:
    encoded = msgspec.json.encode(header)
    return MAGIC + struct.pack("<I", len(encoded)) + encoded


def write_state(
    path: pathlib.Path,
    header: StateHeader,
    pages: Iterator[bytes | memoryview],
    *,
    durable: bool = False,
) -> int:
    """Write an image atomically (a private temporary file renamed over `path`); returns its
    size in bytes. `pages` yields the runs' bytes in `header.runs`' order. `durable`: synced
    to disk before it replaces `path` (an image meant to outlive the process)."""
    digest = hashlib.sha256()
    temporary = path.with_name(path.name + ".partial")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    size = 0
    try:
        with os.fdopen(fd, "wb") as out:

            def put(data: bytes | memoryview) -> None:
                nonlocal size
                digest.update(data)
                out.write(data)
                size += len(data)

            put(_header_bytes(header))
            compressor = zstandard.ZstdCompressor(level=_ZSTD_LEVEL).compressobj()
            for data in pages:
                put(compressor.compress(data))
            put(compressor.flush())
            out.write(digest.digest())
            size += _DIGEST
            out.flush()
            if durable:
                os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return size


def _parse_header(
    data: bytes, artifact_sha256: str, max_memory_bytes: int
) -> tuple[StateHeader, int]:
    if len(data) < len(MAGIC) + 4 + _DIGEST or data[: len(MAGIC)] != MAGIC:
        raise StateFileError("not a Cove session image")
    (length,) = struct.unpack_from("<I", data, len(MAGIC))
    start = len(MAGIC) + 4
    if length > _MAX_HEADER or start + length > len(data):
        raise StateFileError("the session image is truncated")
    try:
        header = msgspec.json.decode(data[start : start + length], type=StateHeader)
    except msgspec.ValidationError as exc:
        raise StateFileError(f"the session image's header is invalid: {exc}") from exc
    except msgspec.DecodeError as exc:
        raise StateFileError("the session image's header is corrupted") from exc
    if header.artifact_sha256 != artifact_sha256:
        raise StateFileError(
            f"the session image was made by another interpreter artifact "
            f"({header.artifact_sha256[:12]}…, this server runs {artifact_sha256[:12]}…)"
        )
    if header.memory_bytes % 65536:
        raise StateFileError("the session image's memory size is not whole wasm pages")
    if header.memory_bytes > max_memory_bytes:
        raise StateFileError("the session image's memory is over the session's memory limit")
    end = 0
    for first, count in header.runs:
        if count == 0 or first < end or (first + count) * PAGE > header.memory_bytes:
            raise StateFileError("the session image's page runs are invalid")
        end = first + count
    return header, start + length


def _read_head(f: BinaryIO) -> bytes:
    """The magic, the header's length and at most `_MAX_HEADER` bytes of header."""
    head = f.read(len(MAGIC) + 4)
    if len(head) == len(MAGIC) + 4 and head[: len(MAGIC)] == MAGIC:
        (length,) = struct.unpack_from("<I", head, len(MAGIC))
        head += f.read(min(length, _MAX_HEADER))
    return head


def read_state_header(
    path: pathlib.Path, artifact_sha256: str, max_memory_bytes: int = _MAX_MEMORY
) -> StateHeader:
    """An image's header, checked (not its pages: `open_state` checks the whole file).

    Raises:
        StateFileError: not an image, from another artifact, or a header that does not hold.
        OSError: the file cannot be read.
    """
    with open(path, "rb") as f:
        head = _read_head(f)
        size = os.fstat(f.fileno()).st_size
    if size < len(head) + _DIGEST:
        raise StateFileError("the session image is truncated")
    header, _ = _parse_header(head + b"\0" * _DIGEST, artifact_sha256, max_memory_bytes)
    return header


_READ_BYTES = 1 << 20  # an image is read and hashed in pieces of this size


class _Body(io.RawIOBase):
    """The compressed pages of an open image file: its bytes from `start`, `length` of them."""

    def __init__(self, f: BinaryIO, start: int, length: int) -> None:
        self._f = f
        self._left = length
        f.seek(start)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        with memoryview(buffer).cast("B") as view:
            want = min(len(view), self._left)
            if want <= 0:
                return 0
            data = self._f.read(want)
            view[: len(data)] = data
        self._left -= len(data)
        return len(data)


@contextlib.contextmanager
def open_state(
    path: pathlib.Path, artifact_sha256: str, max_memory_bytes: int
) -> Generator[tuple[StateHeader, BinaryIO]]:
    """An image's header and a reader of its compressed pages, its digest and header verified
    (the pages are checked as `decompress_pages` writes them). The file is read in pieces, so
    opening an image costs `_READ_BYTES` of memory, whatever its size.

    Raises:
        StateFileError: truncated, corrupted, made from another artifact, or over
            `max_memory_bytes`.
        OSError: the file cannot be read.
    """
    with open(path, "rb", buffering=0) as f:
        size = os.fstat(f.fileno()).st_size
        if size < len(MAGIC) + 4 + _DIGEST:
            raise StateFileError("the session image is truncated")
        body_end = size - _DIGEST
        digest = hashlib.sha256()
        left = body_end
        while left:
            piece = f.read(min(_READ_BYTES, left))
            if not piece:
                raise StateFileError("the session image is truncated")
            digest.update(piece)
            left -= len(piece)
        if digest.digest() != f.read(_DIGEST):
            raise StateFileError("the session image is corrupted (its digest does not match)")
        f.seek(0)
        header, start = _parse_header(
            _read_head(f) + b"\0" * _DIGEST, artifact_sha256, max_memory_bytes
        )
        if start > body_end:
            raise StateFileError("the session image is truncated")
        body = io.BufferedReader(_Body(f, start, body_end - start), _READ_BYTES)
        yield header, cast(BinaryIO, body)


def decompress_pages(header: StateHeader, body: BinaryIO, base: int) -> None:
    """Write an image's pages, read from `body` (`open_state`), into the memory at `base`
    (each run at its own pages), exactly as many as the header declares; nothing outside the
    runs is written.

    Raises:
        StateFileError: the pages do not decompress, or not to exactly the declared amount.
    """
    try:
        with zstandard.ZstdDecompressor().stream_reader(body, read_size=_READ_BYTES) as reader:
            for first, count in header.runs:
                size = count * PAGE
                target = (ctypes.c_char * size).from_address(base + first * PAGE)
                with memoryview(target).cast("B") as view:
                    got = 0
                    while got < size:
                        n: int = reader.readinto(view[got:])  # pyright: ignore[reportUnknownMemberType]
                        if not n:
                            raise StateFileError(
                                "the session image's pages do not match its header"
                            )
                        got += n
            if reader.read(1):
                raise StateFileError(_PAGES_MISMATCH)
    except zstandard.ZstdError as exc:
        raise StateFileError("the session image's pages are corrupted") from exc


def read_state(
    path: pathlib.Path, artifact_sha256: str, max_memory_bytes: int
) -> tuple[StateHeader, bytearray]:
    """A whole image, verified: its header, and its runs' pages end to end (exactly as many
    as the header declares, which is at most `max_memory_bytes`).

    Raises:
        StateFileError: truncated, corrupted, or made from another artifact.
        OSError: the file cannot be read.
    """
    with open_state(path, artifact_sha256, max_memory_bytes) as (header, body):
        pages = bytearray(sum(count for _, count in header.runs) * PAGE)
        if pages:
            # The runs end to end in `pages`: the same runs, renumbered from page 0.
            packed: list[tuple[int, int]] = []
            first = 0
            for _, count in header.runs:
                packed.append((first, count))
                first += count
            packed_header = msgspec.structs.replace(header, runs=packed)
            address = ctypes.addressof(ctypes.c_char.from_buffer(pages))
            decompress_pages(packed_header, body, address)
        else:
            decompress_pages(header, body, 0)
    return header, pages

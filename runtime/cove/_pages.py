"""Operations on runs of a guest's linear-memory pages: what differs from the snapshot, making
pages private ahead of use, copying them between instances, viewing them.

Pages are numbered from the start of a memory; a *run* is (first page, count). Finding the
changed pages: with `memory_init_cow` an instance's memory maps the snapshot's image; a page the
guest never wrote is either not present or still the image's (file-backed, or a shared
anonymous page when the module was compiled in memory). `/proc/self/pagemap` (Linux, readable
by the process itself without privileges) tells which pages are present, swapped or
file-backed: only present-or-swapped, private pages are candidates. A candidate mapped only
here (bit 56) was written by the guest and is kept; any other (the shared zero page a read
maps, or a page shared with a forked child process) is compared with a pristine instance's page
(`memcmp`) and kept only if it differs. Where pagemap is unavailable every page is compared:
slower, same result. A page left out is always one that equals the snapshot's.

Blocking, and only between calls into the guests involved (nothing may run or grow them).
"""

from __future__ import annotations

import concurrent.futures
import ctypes
import os
import re
from collections.abc import Callable, Iterable, Iterator

from ._linux import Madvise, Pagemap, madvise, memcmp, read_own_memory

__all__ = ["PAGE", "Copier", "Run", "changed_runs", "prefault", "views"]

PAGE = 4096
Run = tuple[int, int]  # (first page, page count)

_ZERO_PAGE = ctypes.create_string_buffer(PAGE)


# Each page's pagemap entry by its top byte (bits 56-63), as one of three classes:
# b"\0" unchanged (not present and not swapped, or still the image's: file-backed or shared),
# b"w" written (swapped out, or present, private and mapped only here),
# b"c" to compare (present and private but shared, e.g. the zero page a read maps).
def _page_class(top: int) -> int:
    if top & (Pagemap.SWAPPED >> 56):
        return ord("w")
    if top & (Pagemap.PRESENT >> 56) and not top & (Pagemap.FILE_OR_SHARED >> 56):
        return ord("w") if top & (Pagemap.EXCLUSIVE >> 56) else ord("c")
    return 0


_CLASSES = bytes(_page_class(top) for top in range(256))
_CANDIDATE_RUNS = re.compile(rb"[wc]+")
_CLASS_RUNS = re.compile(rb"w+|c+")


def _page_classes(address: int, pages: int) -> bytes:
    """One class byte per page at `address` (every page "c" without pagemap)."""
    try:
        fd = os.open("/proc/self/pagemap", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return b"c" * pages
    try:
        entries = os.pread(fd, pages * 8, (address // PAGE) * 8)
    except OSError:
        entries = b""
    finally:
        os.close(fd)
    if len(entries) != pages * 8:
        return b"c" * pages
    # The entries are little-endian: every 8th byte from the 7th is an entry's top byte.
    return entries[7::8].translate(_CLASSES)


def changed_runs(
    address: int,
    size: int,
    pristine_address: int,
    pristine_size: int,
    compare: bytes | bytearray = b"",
) -> list[Run]:
    """Runs (first page, count) of the memory at `address` whose pages differ from the pristine
    instance's at `pristine_address` (beyond its size, from zero pages).

    `compare` (one byte a page, from page 0; non-zero: compare it) names pages made private
    ahead of use (`prefault`): written, as far as the page map can tell, but holding the
    snapshot's bytes until the guest writes them. Those are compared rather than taken as
    changed (a spare's first-call pages the session never wrote: ~90 of a typical session's
    ~2,100, ~125 of a fresh one's ~360, measured on 2026-12-02)."""
    changed: list[Run] = []

    def add(first: int, count: int) -> None:
        if changed and changed[-1][0] + changed[-1][1] == first:
            changed[-1] = (changed[-1][0], changed[-1][1] + count)
        else:
            changed.append((first, count))

    classes = _page_classes(address, size // PAGE)
    if compare:
        classes = _to_compare(classes, compare)
    for candidates in _CANDIDATE_RUNS.finditer(classes):
        first, end = candidates.span()
        if b"c" not in candidates.group():  # the common case: all written
            add(first, end - first)
        else:
            _compare_runs(classes, first, end, address, pristine_address, pristine_size, add)
    return changed


_MARKED = re.compile(rb"[^\0]+")


def _to_compare(classes: bytes, marks: bytes | bytearray) -> bytes:
    """`classes` with every written ("w") page that `marks` marks turned into one to compare."""
    out = bytearray(classes)
    for marked in _MARKED.finditer(marks, 0, len(out)):
        first, end = marked.span()
        out[first:end] = out[first:end].replace(b"w", b"c")
    return bytes(out)


def _compare_runs(
    classes: bytes,
    start: int,
    stop: int,
    address: int,
    pristine_address: int,
    pristine_size: int,
    add: Callable[[int, int], None],
) -> None:
    zero = ctypes.addressof(_ZERO_PAGE)
    for found in _CLASS_RUNS.finditer(classes, start, stop):
        first, end = found.span()
        if found.group()[0] == ord("w"):
            add(first, end - first)
            continue
        # Pages to compare come in long runs that mostly equal the pristine's (the zero pages
        # reads mapped): a run is compared whole first, page by page only when it differs.
        if end * PAGE <= pristine_size and not memcmp(
            address + first * PAGE, pristine_address + first * PAGE, (end - first) * PAGE
        ):
            continue
        for page in range(first, end):
            offset = page * PAGE
            reference = pristine_address + offset if offset < pristine_size else zero
            if memcmp(address + offset, reference, PAGE) != 0:
                add(page, 1)


def prefault(base: int, size: int, runs: Iterable[Run], ahead: bytearray) -> None:
    """Make these pages of the memory at `base` (`size` bytes) private, their bytes unchanged,
    so the copy-on-write faults (~2 µs a page here) are taken now rather than by the guest's
    first call. One `madvise(MADV_POPULATE_WRITE)` per run, which releases the GIL (Linux
    5.14+); elsewhere each page is read and written back. Pages past `size` are skipped. Each
    page done is marked in `ahead` (one byte a page, grown as needed), for `changed_runs`'
    `compare`."""
    pages = size // PAGE
    for first, count in runs:
        count = min(first + count, pages) - first
        if count <= 0:
            continue
        if len(ahead) < first + count:
            ahead.extend(bytes(first + count - len(ahead)))
        ahead[first : first + count] = b"\1" * count
        if madvise(base + first * PAGE, count * PAGE, Madvise.POPULATE_WRITE):
            continue
        for page in range(first, first + count):
            byte = ctypes.c_char.from_address(base + page * PAGE)
            byte.value = byte.value


def views(base: int, runs: Iterable[Run]) -> Iterator[memoryview]:
    """Each run of pages of the memory at `base`, in order, as a view (no copy; valid while
    the memory neither runs nor grows)."""
    for first, count in runs:
        pages = (ctypes.c_char * (count * PAGE)).from_address(base + first * PAGE)
        yield memoryview(pages).cast("B")


# Page copies this large use a second thread (`Copier.copy`).
_PARALLEL_COPY_BYTES = 2 << 20


class Copier:
    """Copies runs of pages between memories of this process, with a helper thread kept for
    large copies (idle, it costs a parked thread; starting one per copy costs ~0.1 ms). One
    per engine, closed with it."""

    def __init__(self) -> None:
        self._helper = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="cove-copy"
        )
        self._kernel = True  # process_vm_readv works here (cleared at its first refusal)

    def copy(self, source: int, dest: int, runs: list[Run]) -> None:
        """Copy these runs of the memory at `source` to the same pages of the memory at `dest`.

        The cost is the destination's first-touch page faults (~1.5-2 µs a page here), not the
        copying: past `_PARALLEL_COPY_BYTES` the second half of the runs is copied on the
        helper thread while this one copies the first. The helper copies its half with one
        `process_vm_readv` of this process, not a `memmove` per run: a session's changed pages
        come in hundreds of runs, and two threads each taking the GIL back after every run hand
        it to each other hundreds of times (docs/benchmarks.md, "Session images"). Where the
        system refuses that call, everything is copied on this thread."""

        def by_memmove(part: list[Run]) -> None:
            for first, count in part:
                ctypes.memmove(dest + first * PAGE, source + first * PAGE, count * PAGE)

        pages = sum(count for _, count in runs)
        if pages * PAGE < _PARALLEL_COPY_BYTES or not self._kernel:
            by_memmove(runs)
            return
        # Two halves of (nearly) the same number of pages; the run across the middle is split.
        mine: list[Run] = []
        theirs: list[Run] = []
        left = pages // 2
        for first, count in runs:
            take = min(count, left)
            if take:
                mine.append((first, take))
                left -= take
            if take < count:
                theirs.append((first + take, count - take))
        segments = [
            (dest + first * PAGE, source + first * PAGE, count * PAGE) for first, count in theirs
        ]
        helper = self._helper.submit(read_own_memory, segments)
        try:
            by_memmove(mine)
        finally:
            copied = helper.result()
        if not copied:
            self._kernel = False
            by_memmove(theirs)

    def close(self) -> None:
        """Let the helper thread go (a copy in progress finishes first). Idempotent."""
        self._helper.shutdown(wait=False)

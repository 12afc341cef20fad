"""Workspace accounting kept across calls: the kernel's change notices (inotify), not a full
walk, tell which paths a call touched.

`Workspace.scan` walks every entry of a workspace and its /tmp; done twice per call, that is
0.07 ms with 10 files and ~75 ms with 10,000 (the default file limit). A `Tracker` keeps the
result of one walk and brings it up to date from the paths the kernel says were touched since:
one `inotify` instance per pool (`Watcher`), a watch on every directory of every tracked
workspace. The notices are only hints: the tracker trusts nothing but its own `lstat`s, made
the way the full walk makes them (each directory on the way opened `O_NOFOLLOW`, so a link is
never followed), and it walks a new directory's subtree whole. Every writer is seen, whatever
it is: the session's code, a nested `python`, the shell, the host's own PutFile.

It falls back to full walks, with the same results, whenever the notices cannot be trusted to
be complete:

- no inotify, no /proc, or a watch refused (the per-user limits): that workspace is walked in
  full at every call;
- the kernel's queue overflowed (`IN_Q_OVERFLOW`; another session may have caused it): every
  tracked workspace is walked once;
- a directory was renamed (the watches below it would name old paths): that workspace is
  walked once;
- a directory was made where its host path passes PATH_MAX (a subtree's walk starts from a
  path): that workspace is walked once, by descriptors from its root;
- a regular file has more than one link (a change through one name is reported for the other
  name's directory only, and each name is charged its share of the file, `disk_share`):
  walked in full while such a file exists;
- and every `RESCAN_EVERY` calls regardless, so nothing can drift for long.

Tests compare a tracker's answers with full walks after each kind of change
(tests/runtime/test_watch.py).
"""

from __future__ import annotations

import errno
import logging
import os
import pathlib
import stat
import struct
import threading
from collections.abc import Callable

from . import _linux as linux
from ._linux import Inotify

__all__ = ["PATH_MAX", "RESCAN_EVERY", "Tracker", "Watcher", "disk_share"]

_log = logging.getLogger("cove")

RESCAN_EVERY = 1000  # calls between full walks of a tracked workspace
PATH_MAX = 4096  # the host's limit on a path's length (Linux)

# Plain ints (an IntFlag operand makes every `&` build a flag object: this is per notice).
_IN_MOVED_FROM = int(Inotify.MOVED_FROM)
_IN_MOVED_TO = int(Inotify.MOVED_TO)
_IN_CREATE = int(Inotify.CREATE)
_IN_DELETE_SELF = int(Inotify.DELETE_SELF)
_IN_MOVE_SELF = int(Inotify.MOVE_SELF)
_IN_Q_OVERFLOW = int(Inotify.Q_OVERFLOW)
_IN_IGNORED = int(Inotify.IGNORED)
_IN_ISDIR = int(Inotify.ISDIR)
_WATCH_MASK = Inotify(
    Inotify.MODIFY
    | Inotify.ATTRIB
    | Inotify.MOVED_FROM
    | Inotify.MOVED_TO
    | Inotify.CREATE
    | Inotify.DELETE
    | Inotify.DELETE_SELF
    | Inotify.MOVE_SELF
    | Inotify.ONLYDIR
)
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of NUL-padded name
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

# A tree's entry: (is a regular file, size if regular else 0, mtime_ns, links).
Entry = tuple[bool, int, int, int]
WORKSPACE, TMP = 0, 1  # the two trees of a workspace


class Watcher:
    """One inotify instance for a pool's workspaces; thread-safe. `fd` is None when the system
    has no inotify (or refused another instance): every tracker then walks in full."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.fd: int | None = None
        if linux.INOTIFY:
            fd = linux.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
            if fd >= 0:
                self.fd = fd
            else:
                _log.info(
                    "no inotify (%s): workspaces are walked in full at every call",
                    os.strerror(linux.errno()),
                )
        self._warned = False  # about the watch limit, once
        # Watch descriptor -> (tracker, tree, directory's path relative to its tree's root).
        self._watches: dict[int, tuple[Tracker, int, str]] = {}

    def close(self) -> None:
        with self._lock:
            if self.fd is not None:
                os.close(self.fd)
                self.fd = None
            for tracker, _, _ in self._watches.values():
                tracker.broken = True
            self._watches.clear()

    def watch(
        self, tracker: Tracker, tree: int, rel: str, dir_fd: int, name: str | None = None
    ) -> bool:
        """Watch a directory as `rel` of `tracker`'s `tree`; False if refused.

        The directory is `dir_fd` (opened `O_NOFOLLOW` by the caller), or the entry `name` in
        it. It is named by `/proc/self/fd/<dir_fd>`: the one link followed is that magic link,
        to exactly the directory the caller holds; `name`, if a link, is not followed."""
        path = f"/proc/self/fd/{dir_fd}"
        mask = _WATCH_MASK
        if name is not None:
            path, mask = f"{path}/{name}", mask | Inotify.DONT_FOLLOW
        with self._lock:
            if self.fd is None:
                return False
            wd = linux.inotify_add_watch(self.fd, os.fsencode(path), mask)
            if wd < 0:
                if linux.errno() == errno.ENOSPC and not self._warned:
                    self._warned = True
                    _log.warning(
                        "the inotify watch limit is reached (fs.inotify.max_user_watches): "
                        "some workspaces are walked in full at every call"
                    )
                return False
            self._watches[wd] = (tracker, tree, rel)
            tracker.wds.add(wd)
            return True

    def forget(self, tracker: Tracker) -> None:
        """Stop watching `tracker`'s directories (its notices still queued are dropped)."""
        with self._lock:
            for wd in tracker.wds:
                if self._watches.pop(wd, (None,))[0] is tracker and self.fd is not None:
                    linux.inotify_rm_watch(self.fd, wd)  # gone already: harmless EINVAL
            tracker.wds.clear()

    def drain(self) -> None:
        """Read every queued notice and hand each to its tracker."""
        with self._lock:
            fd = self.fd
            if fd is None:
                return
            while True:
                try:
                    data = os.read(fd, 65536)
                except BlockingIOError:
                    return
                except OSError as exc:
                    _log.warning("reading inotify failed (%s): walking every workspace", exc)
                    self._overflowed()
                    return
                self._dispatch(data)

    def _dispatch(self, data: bytes) -> None:
        offset = 0
        watches = self._watches
        while offset + _EVENT.size <= len(data):
            wd, mask, _cookie, length = _EVENT.unpack_from(data, offset)
            name = data[offset + _EVENT.size : offset + _EVENT.size + length].rstrip(b"\0")
            offset += _EVENT.size + length
            if mask & _IN_Q_OVERFLOW:
                self._overflowed()
                continue
            found = watches.get(wd)
            if found is None:
                continue
            tracker, tree, rel = found
            if mask & _IN_IGNORED:
                del watches[wd]
                tracker.wds.discard(wd)
                continue
            if not name:
                # About the watched directory itself: its parent's watch reports the same
                # change by name, except for the roots of the trees (never removed or moved
                # by anyone but the host): walk again to be sure.
                if mask & (_IN_DELETE_SELF | _IN_MOVE_SELF) and not rel:
                    tracker.stale = True
                continue
            path = f"{rel}/{os.fsdecode(name)}" if rel else os.fsdecode(name)
            if mask & _IN_ISDIR and mask & (_IN_MOVED_FROM | _IN_MOVED_TO):
                tracker.stale = True  # the watches below it now name old paths
            elif mask & _IN_ISDIR and mask & _IN_CREATE:
                tracker.new_dirs.add((tree, path))
            else:
                tracker.touched.add((tree, path))

    def _overflowed(self) -> None:
        _log.info("inotify's queue overflowed: every tracked workspace is walked once")
        for tracker, _, _ in self._watches.values():
            tracker.stale = True

    def take(self, tracker: Tracker) -> tuple[set[tuple[int, str]], set[tuple[int, str]], bool]:
        """Drain, then hand over `tracker`'s touched paths, new directories and staleness."""
        self.drain()
        with self._lock:
            touched, new_dirs, stale = tracker.touched, tracker.new_dirs, tracker.stale
            tracker.touched, tracker.new_dirs, tracker.stale = set(), set(), False
            return touched, new_dirs, stale


Visit = Callable[[str, os.stat_result, int, str], None]
Walk = Callable[[pathlib.Path, Visit], None]


class Tracker:
    """One workspace's usage (bytes and entries of both trees) and its files' signatures, kept
    up to date across calls. Used by one thread at a time (the session's lock)."""

    def __init__(
        self, watcher: Watcher | None, roots: tuple[pathlib.Path, pathlib.Path], walk: Walk
    ):
        self._watcher = watcher
        self._roots = roots
        self._walk = walk
        self.wds: set[int] = set()
        # Filled by the watcher (under its lock).
        self.touched: set[tuple[int, str]] = set()
        self.new_dirs: set[tuple[int, str]] = set()
        self.stale: bool = True  # nothing walked yet
        self.broken: bool = watcher is None or watcher.fd is None  # walk in full every time
        self._trees: tuple[dict[str, Entry], dict[str, Entry]] = ({}, {})
        self.signatures: dict[str, tuple[int, int]] = {}  # workspace files: (mtime_ns, size)
        self.bytes: int = 0
        self._linked = 0  # regular files with more than one link
        self._rewalk_pending = False  # a new directory could not be walked by its path
        self._calls = 0
        # Since `mark`: each workspace file's signature before its first change (None: absent).
        self._before: dict[str, tuple[int, int] | None] = {}
        self.walks: int = 0  # full walks made (for tests and the benchmark)

    @property
    def files(self) -> int:
        return len(self._trees[0]) + len(self._trees[1])

    # -- the operations a session uses ---------------------------------------------------------

    def refresh(self) -> None:
        """Bring the counts and signatures up to date."""
        watcher = self._watcher
        if watcher is None or watcher.fd is None:
            self._rewalk(watch=False)
            return
        touched, new_dirs, stale = watcher.take(self)
        if stale:
            self._rewalk(watch=True)
        elif self.broken or self._linked:
            self._rewalk(watch=False)
        else:
            walked: list[str] = []
            for tree, path in sorted(new_dirs):
                if not any(path.startswith(w) for w in walked):  # a parent's walk took it
                    self._walk_new_dir(tree, path)
                    walked.append(path + "/")
            for tree, path in touched:
                self._update(tree, path)
            if self.broken or self._linked:  # a watch was refused, or a link was just made
                self._rewalk(watch=False)
            elif self._rewalk_pending:
                self._rewalk(watch=True)

    def mark(self) -> None:
        """Start a call: from now, `changed` reports files that differ from their state now.
        Every `RESCAN_EVERY` marks, the next refresh walks in full."""
        self._before = {}
        self._calls += 1
        if self._calls % RESCAN_EVERY == 0:
            self.stale = True

    def changed(self) -> list[str]:
        """Workspace files present now that were absent or different at `mark`, sorted."""
        sigs = self.signatures
        return sorted(p for p, old in self._before.items() if (new := sigs.get(p)) and new != old)

    def close(self) -> None:
        if self._watcher is not None:
            self._watcher.forget(self)

    # -- keeping the trees ---------------------------------------------------------------------

    def _set(self, tree: int, path: str, entry: Entry | None) -> None:
        entries = self._trees[tree]
        old = entries.get(path)
        if old == entry:
            return
        if old is not None:
            if old[0]:
                self.bytes -= disk_share(old[1], old[3])
                self._linked -= old[3] > 1
            del entries[path]
        if entry is not None:
            if entry[0]:
                self.bytes += disk_share(entry[1], entry[3])
                self._linked += entry[3] > 1
            entries[path] = entry
        if tree == WORKSPACE:
            old_sig = self.signatures.get(path)
            new_sig = (entry[2], entry[1]) if entry is not None and entry[0] else None
            if old_sig != new_sig:
                self._before.setdefault(path, old_sig)
                if new_sig is None:
                    del self.signatures[path]
                else:
                    self.signatures[path] = new_sig

    def _drop_below(self, tree: int, path: str) -> None:
        prefix = path + "/"
        for p in [p for p in self._trees[tree] if p.startswith(prefix)]:
            self._set(tree, p, None)

    def _rewalk(self, *, watch: bool) -> None:
        """Walk both trees in full (watching every directory if `watch`)."""
        self.walks += 1
        self._rewalk_pending = False
        watcher = self._watcher if watch else None
        if watcher is not None:
            watcher.forget(self)
            self.broken = False
        for tree, root in enumerate(self._roots):
            watch = self._walk_tree(tree, root, watch=watch)
        if watcher is not None:
            if self.broken:  # some watch was refused: walk in full until the next retry
                watcher.forget(self)
            # Notices queued by the walk's own watches before it finished are old news.
            watcher.take(self)

    def _walk_tree(self, tree: int, root: pathlib.Path, *, watch: bool) -> bool:
        """Walk one tree in full and take what it finds; False if a watch was refused."""
        if watch and not self._watch_root(tree, root):
            watch = False
        self._take_walk(tree, root, "", watch=watch)
        return watch and not self.broken

    def _take_walk(self, tree: int, directory: pathlib.Path, prefix: str, *, watch: bool) -> None:
        """Walk `directory` (the tree's root, `prefix` "", or the directory `prefix` names) and
        take what the walk finds as the tree's entries below it, watching every directory on
        the way if `watch`."""
        found: dict[str, Entry] = {}

        def visit(rel: str, st: os.stat_result, dir_fd: int, name: str) -> None:
            path = prefix + rel
            found[path] = _entry(st)
            if watch and not self.broken and stat.S_ISDIR(st.st_mode):
                self._watch(tree, path, dir_fd, name)

        self._walk(directory, visit)
        entries = self._trees[tree]
        for p in [p for p in entries if p.startswith(prefix) and p not in found]:
            self._set(tree, p, None)
        for p, entry in found.items():
            self._set(tree, p, entry)

    def _watch_root(self, tree: int, root: pathlib.Path) -> bool:
        try:
            fd = os.open(root, _DIR_FLAGS)
        except OSError:
            self.broken = True
            return False
        try:
            return self._watch(tree, "", fd)
        finally:
            os.close(fd)

    def _watch(self, tree: int, rel: str, dir_fd: int, name: str | None = None) -> bool:
        assert self._watcher is not None
        if not self._watcher.watch(self, tree, rel, dir_fd, name):
            self.broken = True
            return False
        return True

    def _update(self, tree: int, path: str) -> None:
        st = _lstat(self._roots[tree], path)
        if st is None:
            self._set(tree, path, None)
            self._drop_below(tree, path)
            return
        if stat.S_ISDIR(st.st_mode):
            old = self._trees[tree].get(path)
            if old is None or old[0]:  # not known as a directory: nothing below it was watched
                self._walk_new_dir(tree, path)
            else:
                self._set(tree, path, _entry(st))
            return
        self._set(tree, path, _entry(st))
        self._drop_below(tree, path)

    def _walk_new_dir(self, tree: int, path: str) -> None:
        """A directory made since the last refresh (nothing below it was watched): watch it and
        everything below it, then take its subtree as the walk finds it."""
        root = self._roots[tree]
        if len(os.fsencode(root / path)) >= PATH_MAX:
            # The walk starts from a path; past PATH_MAX only a walk of the whole tree (by
            # descriptors, from its root) reaches it.
            self._rewalk_pending = True
            return
        fd = _open_dir(root, path)
        if fd is None:
            self._set(tree, path, None)
            self._drop_below(tree, path)
            return
        try:
            st = os.fstat(fd)
            if not self._watch(tree, path, fd):
                return
        finally:
            os.close(fd)
        self._set(tree, path, _entry(st))
        self._take_walk(tree, root / path, path + "/", watch=True)


def disk_share(size: int, links: int) -> int:
    """The bytes one name of a regular file is charged: its share of the file, so that a file
    with several names (hard links, which the guest makes for an entry and no bytes) counts
    once in all, as on the disk, rounded up."""
    return -(-size // links) if links > 1 else size


def _entry(st: os.stat_result) -> Entry:
    regular = stat.S_ISREG(st.st_mode)
    return (regular, st.st_size if regular else 0, st.st_mtime_ns, st.st_nlink)


def _open_dir(root: pathlib.Path, path: str) -> int | None:
    """An fd of the directory `root/path`, every component opened O_NOFOLLOW; None if any
    component is missing, a link or not a directory."""
    try:
        fd = os.open(root, _DIR_FLAGS)
    except OSError:
        return None
    for part in path.split("/"):
        try:
            child = os.open(part, _DIR_FLAGS, dir_fd=fd)
        except OSError:
            os.close(fd)
            return None
        os.close(fd)
        fd = child
    return fd


def _lstat(root: pathlib.Path, path: str) -> os.stat_result | None:
    """`lstat` of `root/path` as the full walk would see it: None where a component on the way
    is missing, a link or not a directory."""
    head, _, name = path.rpartition("/")
    if head:
        fd = _open_dir(root, head)
    else:
        try:
            fd = os.open(root, _DIR_FLAGS)
        except OSError:
            fd = None
    if fd is None:
        return None
    try:
        return os.stat(name, dir_fd=fd, follow_symlinks=False)
    except OSError:
        return None
    finally:
        os.close(fd)

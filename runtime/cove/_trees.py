"""Whole directory trees on the host: walked and removed by descriptors, copied for a fork.

Nothing here follows a link: a walk enters each directory by a descriptor opened relative to
its parent (`O_NOFOLLOW`), a removal unlinks by descriptor, a copy copies links as links.
"""

from __future__ import annotations

import errno
import logging
import os
import pathlib
import stat
from collections.abc import Callable

__all__ = ["TreeCopy", "Visit", "remove_tree", "walk"]

_log = logging.getLogger("cove")

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

Visit = Callable[[str, os.stat_result, int, str], None]
Leave = Callable[[int, str], None]


def walk(root: pathlib.Path, visit: Visit, leave: Leave | None = None) -> None:
    """Depth-first walk of every entry below `root`, never following a link.

    Calls `visit(relative_path, lstat, dir_fd, name)` for each entry (directories before their
    contents) and `leave(parent_fd, name)` after a directory's contents. No recursion and no
    host paths: a directory is entered by an fd opened relative to its parent (O_NOFOLLOW) and
    left through its `..`, so neither the depth of the tree nor the length of its paths
    (beyond PATH_MAX) matters, and at most two descriptors are open at a time. Entries that
    vanish or cannot be read are skipped. Guest code never runs during a walk (the session's
    lock), so the tree holds still.
    """
    try:
        fd = os.open(root, _DIR_FLAGS)
    except OSError:
        return
    # One frame per directory being walked: its relative prefix and the subdirectories left.
    frames: list[tuple[str, list[str]]] = []
    names: list[str] = []  # the name of each entered directory, for `leave`

    def list_dir(prefix: str) -> None:
        subdirs: list[str] = []
        try:
            entries = list(os.scandir(fd))
        except OSError:
            entries = []
        for entry in entries:
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            visit(prefix + entry.name, st, fd, entry.name)
            if stat.S_ISDIR(st.st_mode):
                subdirs.append(entry.name)
        frames.append((prefix, subdirs))

    try:
        list_dir("")
        while frames:
            prefix, subdirs = frames[-1]
            if subdirs:
                name = subdirs.pop()
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError:
                    continue
                os.close(fd)
                fd = child
                names.append(name)
                list_dir(f"{prefix}{name}/")
                continue
            frames.pop()
            if names:
                try:
                    parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
                except OSError:
                    return
                os.close(fd)
                fd = parent
                name = names.pop()
                if leave is not None:
                    leave(fd, name)
    finally:
        os.close(fd)


def remove_tree(root: pathlib.Path) -> None:
    """Delete `root` and everything below it, at any depth, never following links; never raises."""

    def unlink(_rel: str, st: os.stat_result, dir_fd: int, name: str) -> None:
        if not stat.S_ISDIR(st.st_mode):
            try:
                os.unlink(name, dir_fd=dir_fd)
            except OSError:
                pass

    def rmdir(parent_fd: int, name: str) -> None:
        try:
            os.rmdir(name, dir_fd=parent_fd)
        except OSError:
            pass

    try:
        walk(root, unlink, rmdir)
        root.rmdir()
    except FileNotFoundError:
        pass
    except OSError as exc:
        _log.warning("could not remove %s completely: %s", root, exc)


def _copy_data(source: int, target: int, size: int) -> None:
    """`size` bytes from the descriptor `source` to `target`, in the kernel: `copy_file_range`
    (a reflink or an in-kernel copy), or `sendfile` where the system refuses it."""
    left = size
    try:
        while left > 0:
            done = os.copy_file_range(source, target, left)
            if done == 0:
                return
            left -= done
    except OSError as exc:
        if exc.errno not in (errno.EXDEV, errno.ENOSYS, errno.EOPNOTSUPP, errno.EINVAL):
            raise
        offset = size - left
        while left > 0:
            done = os.sendfile(target, source, offset, left)
            if done == 0:
                return
            offset += done
            left -= done


class TreeCopy:
    """Copies of workspace directory trees (`copy`), hard links kept as links across every
    tree it copies, and the distinct bytes written held to `max_bytes`.

    Links (symbolic and hard) are copied as links (never followed); FIFOs, sockets and devices
    are left out (the guest cannot make them, but the host never opens one). Files are opened
    `O_NOFOLLOW` and copied in the kernel (`copy_file_range`, or `sendfile` where that is
    refused). Directories are walked by path, recursively: a tree deeper than Python's
    recursion limit, or with paths past PATH_MAX, is refused (`RecursionError`, `OSError`).
    Used by `Pool.fork_session`, with the source session's lock held, so nothing changes
    underneath. In the guest a
    hard link costs an entry and no bytes, so a copy never writes more than the quota allowed
    the source: a file is written once, its other names linked to it, and past `max_bytes`
    the copy stops (EDQUOT).
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._copied: dict[tuple[int, int], str] = {}  # (device, inode) -> the copy's path

    def copy(self, source: pathlib.Path, target: pathlib.Path) -> None:
        """Copy the tree `source` to `target` (which must not exist), private (0700).

        Raises:
            OSError: EDQUOT past `max_bytes`, or what the file system says.
            RecursionError: deeper than Python's recursion limit.
        """
        os.mkdir(target, 0o700)
        with os.scandir(source) as entries:
            for entry in entries:
                src, dst = os.path.join(source, entry.name), os.path.join(target, entry.name)
                if entry.is_symlink():
                    os.symlink(os.readlink(src), dst)
                elif entry.is_dir(follow_symlinks=False):
                    self.copy(pathlib.Path(src), pathlib.Path(dst))
                elif entry.is_file(follow_symlinks=False):
                    self._copy_file(src, dst)

    def _copy_file(self, src: str, dst: str) -> None:
        fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        try:
            st = os.fstat(fd)
            key = (st.st_dev, st.st_ino)
            first = self._copied.get(key) if st.st_nlink > 1 else None
            if first is not None:
                os.link(first, dst)
                return
            if self.bytes + st.st_size > self.max_bytes:
                raise OSError(errno.EDQUOT, "the copy would pass the workspace quota")
            self.bytes += st.st_size
            out = os.open(dst, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            try:
                _copy_data(fd, out, st.st_size)
                os.utime(out, ns=(st.st_atime_ns, st.st_mtime_ns))
            finally:
                os.close(out)
            if st.st_nlink > 1:
                self._copied[key] = dst
        finally:
            os.close(fd)

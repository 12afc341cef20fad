"""A pool's directory on disk: `<workspace root>/pool-<random>/`, locked while the pool is open.

It holds one workspace per session (and the image of each suspended one) and a `.lock` file the
pool keeps locked (flock) while open. At start, any sibling pool directory whose lock can be
taken belongs to a process that died without cleaning up: it is removed, after `rescue` has
taken out of it what is to be kept. Two pools in one process never touch each other's
directories. Without a workspace root, the pool makes a private temporary root of its own and
removes it at the end.
"""

from __future__ import annotations

import fcntl
import logging
import os
import pathlib
import secrets
import tempfile
from collections.abc import Callable

from ._trees import remove_tree

__all__ = ["PoolDirectory"]

_log = logging.getLogger("cove")


def _clean_stale(root: pathlib.Path, rescue: Callable[[pathlib.Path], None] | None = None) -> int:
    """Remove pool directories whose owner process is gone; returns how many. `rescue(dir)`
    first takes out of each what is to be kept (suspended sessions, with `persist_sessions`).

    Never raises: a directory that cannot be inspected or removed is logged and skipped, so a
    leftover from a crash never stops the next start.
    """
    removed = 0
    for candidate in root.glob("pool-*"):
        lock_path = candidate / ".lock"
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            continue  # a live pool holds it
        try:
            if rescue is not None:
                rescue(candidate)
            remove_tree(candidate)
            removed += 1
        except Exception:
            _log.exception("could not remove the stale pool directory %s", candidate)
        finally:
            os.close(fd)
    return removed


class PoolDirectory:
    """The directory of one pool (`make` it, then `remove` it)."""

    def __init__(self, workspace_root: str | None) -> None:
        self._root = None if workspace_root is None else pathlib.Path(workspace_root)
        self._owned_root: pathlib.Path | None = None
        self._lock_fd: int | None = None
        self.path: pathlib.Path | None = None
        self.stale_removed = 0

    def make(self, rescue: Callable[[pathlib.Path], None] | None = None) -> pathlib.Path:
        """Make the root if need be, remove dead pools' directories (`rescue` first takes out
        of each what is kept), then make this pool's directory and lock it. Blocking."""
        if self._root is None:
            root = self._owned_root = pathlib.Path(tempfile.mkdtemp(prefix="cove-"))
        else:
            root = self._root
            root.mkdir(parents=True, exist_ok=True)
            self.stale_removed = _clean_stale(root, rescue)
        path = self.path = root / f"pool-{secrets.token_hex(8)}"
        path.mkdir(mode=0o700)
        self._lock_fd = os.open(path / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        return path

    def remove(self) -> None:
        """Remove the directory and everything in it, and the root if it is the pool's own.
        Blocking; idempotent."""
        if self.path is not None:
            remove_tree(self.path)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        if self._owned_root is not None:
            remove_tree(self._owned_root)

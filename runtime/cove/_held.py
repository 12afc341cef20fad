"""Held sessions: the root's `held/` directory, where sessions wait out a restart.

With `persist_sessions`, closing a pool moves each session into `<workspace root>/held/`: its
image (`<id>.image`), workspace (`<id>`), tmp (`<id>.tmp`) and a record of its clocks and limits
(`<id>.record`, written last: a move cut short leaves no record, and the next start removes what
it left). Opening a pool takes them back (`adopt`). After a SIGKILL, the suspended sessions in
the dead process's pool directory are moved here before that directory is removed (`rescue`).
`held/.lock` (flock) keeps two pools from doing any of this at once.

A held session whose image belongs to another artifact, or whose record or image header does not
hold, is removed with a log line; one whose clocks ran out while the server was down is reaped.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import pathlib
import time
from collections.abc import Callable, Generator, Mapping
from typing import Protocol, TypeVar

import anyio
import msgspec

from ._settings import Limits
from ._statefile import SessionRecord, StateFileError, read_state_header
from ._trees import remove_tree

__all__ = ["HeldSessions", "Persistable", "move_to_held"]

_log = logging.getLogger("cove")

# What `held/` keeps of a session `<id>`: its workspace `<id>`, and these (an id holds a dot
# when the pool has a replica name, so names are taken apart by their known endings).
_HELD_SUFFIXES = (".record.partial", ".image.partial", ".record", ".image", ".tmp")


def _held_session_of(name: str) -> str:
    """The session a file or directory in `held/` belongs to."""
    for suffix in _HELD_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _remove_held(path: pathlib.Path) -> None:
    try:
        if path.is_dir() and not path.is_symlink():
            remove_tree(path)
        else:
            path.unlink(missing_ok=True)
    except OSError:
        _log.exception("could not remove %s", path)


def move_to_held(
    held: pathlib.Path, record: SessionRecord, paths: tuple[pathlib.Path, ...]
) -> None:
    """Move a session's image, workspace and tmp (`paths`) into `held` beside a record of it,
    written last: a held session is whole once `<id>.record` is there (a move cut short leaves
    no record, and the next start removes what it left)."""
    target = held / f"{record.session_id}.record"
    partial = target.with_name(target.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(msgspec.json.encode(record))
    for path in paths:
        path.rename(held / path.name)
    partial.rename(target)


# Makes and registers the session a held one becomes (its id, clamped limits and record), and
# returns where its workspace, tmp and image go, or None when the pool has no room for it (it
# is then left where it is).
Admit = Callable[[str, Limits, SessionRecord], tuple[pathlib.Path, ...] | None]


class Persistable(Protocol):
    """A session as persisting sees it (`_sessionops.PoolSession`)."""

    def drain(self) -> None: ...

    async def persist(self, held: pathlib.Path, *, close_files: bool = True) -> bool: ...


_S = TypeVar("_S", bound=Persistable)


class HeldSessions:
    """The `held/` directory of a workspace root, for a pool running this artifact."""

    def __init__(self, root: pathlib.Path, artifact_sha256: str) -> None:
        self.path = root / "held"
        self._artifact = artifact_sha256

    def _lock(self) -> int:
        """Make `held/` if need be and take its flock (blocking); the caller closes the
        descriptor returned."""
        self.path.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(self.path / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except BaseException:
            os.close(fd)
            raise
        return fd

    @contextlib.contextmanager
    def _locked(self) -> Generator[pathlib.Path]:
        fd = self._lock()
        try:
            yield self.path
        finally:
            os.close(fd)

    def rescue(self, stale: pathlib.Path) -> None:
        """Move the suspended sessions of a dead process's pool directory into `held/`: a
        SIGKILL loses only what was not suspended. Their records are their images' own (the
        image is complete: it was renamed into place whole); anything that does not hold is
        left to be removed with the directory. Blocking."""
        images = list(stale.glob("*.image"))
        if not images:
            return
        with self._locked() as held:
            for image in images:
                sid = image.name[: -len(".image")]
                workspace, tmp = stale / sid, stale / f"{sid}.tmp"
                try:
                    header = read_state_header(image, self._artifact)
                    if header.session.session_id != sid or not (
                        workspace.is_dir() and tmp.is_dir()
                    ):
                        continue
                    move_to_held(held, header.session, (workspace, tmp, image))
                except (StateFileError, OSError) as exc:
                    _log.error("suspended session %s of a dead process is lost: %s", sid, exc)

    def adopt(self, ceilings: Limits, admit: Admit) -> int:
        """Take back the sessions a closed pool left in `held/`, each through `admit`, their
        files moved to the session's own paths; returns how many were reaped instead (their
        clocks ran out while no pool held them). Blocking (a worker thread, at open)."""
        if not self.path.is_dir():
            return 0
        reaped = 0
        with self._locked() as held:
            records = {p.name[: -len(".record")]: p for p in held.glob("*.record")}
            for entry in held.iterdir():
                # What a persist cut short left (it writes the record last): not a session.
                sid = _held_session_of(entry.name)
                if entry.name != ".lock" and sid not in records:
                    _remove_held(entry)
            now = time.time()
            for sid, record_path in sorted(records.items()):
                reaped += self._adopt_one(held, sid, record_path, now, ceilings, admit)
        return reaped

    def _adopt_one(
        self,
        held: pathlib.Path,
        sid: str,
        record_path: pathlib.Path,
        now: float,
        ceilings: Limits,
        admit: Admit,
    ) -> int:
        paths = [held / sid, held / f"{sid}.tmp", held / f"{sid}.image"]
        try:
            record = msgspec.json.decode(record_path.read_bytes(), type=SessionRecord)
            if record.session_id != sid:
                raise StateFileError("its record names another session")
            limits = record.limits.clamp(ceilings)
            header = read_state_header(paths[2], self._artifact, limits.memory_bytes)
            if header.session.session_id != sid:
                raise StateFileError("its image belongs to another session")
            if not (paths[0].is_dir() and paths[1].is_dir()):
                raise StateFileError("its workspace is missing")
        except (StateFileError, OSError, msgspec.MsgspecError) as exc:
            _log.error("held session %s cannot be restored and is removed: %s", sid, exc)
            for path in (*paths, record_path):
                _remove_held(path)
            return 0
        if (
            now - record.created_at >= limits.max_lifetime_s
            or now - record.last_activity_at >= limits.idle_timeout_s
        ):
            for path in (*paths, record_path):
                _remove_held(path)
            return 1
        targets = admit(sid, limits, record)
        if targets is None:
            _log.warning("held session %s left in %s: the pool is at max_sessions", sid, held)
            return 0
        for path, target in zip(paths, targets, strict=True):
            path.rename(target)
        record_path.unlink()
        return 0

    async def persist(self, sessions: Mapping[str, _S], kept: Callable[[str, _S], None]) -> None:
        """Move every session it can into `held/` (`PoolSession.persist`), calling `kept(id,
        session)` for each one moved, then sync the disks once (one sync instead of one per
        image, tens of milliseconds each). Calls still queued are refused first.

        As many at once as there are worker threads (each takes the pool's limiter). First
        every session whose code holds no file open: nothing runs in a guest, so no session's
        code can hold up another's (each waits only for its running call). Then the others,
        each closing its files in at most `HOUSEKEEPING_S`."""
        lock_fd = await anyio.to_thread.run_sync(self._lock)
        try:
            for session in sessions.values():
                session.drain()
            for close_files in (False, True):
                async with anyio.create_task_group() as tg:
                    for sid, session in list(sessions.items()):
                        tg.start_soon(self._persist_one, self.path, sid, session, close_files, kept)
            await anyio.to_thread.run_sync(os.sync)
        finally:
            os.close(lock_fd)

    @staticmethod
    async def _persist_one(
        held: pathlib.Path,
        sid: str,
        session: _S,
        close_files: bool,
        kept: Callable[[str, _S], None],
    ) -> None:
        try:
            moved = await session.persist(held, close_files=close_files)
        except Exception:
            _log.exception("could not keep session %s across the restart", sid)
            moved = False
        if moved:
            kept(sid, session)
        elif close_files:
            _log.warning(
                "session %s is not kept across the restart: its code holds files open that"
                " could not be closed",
                sid,
            )

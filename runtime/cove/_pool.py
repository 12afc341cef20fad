"""A pool of sessions sharing one engine: creation, lookup, capacity, reaping, shutdown.

Each pool owns a directory under the workspace root (`pool-<random>/`) holding one workspace
per session (and the image of each suspended one) and a `.lock` file it keeps locked (flock)
while open. At start, any sibling pool directory whose lock can be taken belongs to a process
that died without cleaning up: it is removed. Two pools in one process never touch each other's
directories.

With `persist_sessions`, closing the pool moves each session (its image, workspace, and a record
of its clocks and limits) into the root's `held/` directory, and opening a pool takes them back;
`held/.lock` (flock) keeps two pools from doing either at once. A held session whose image
belongs to another artifact, or whose record or image header does not hold, is removed with a
log line; one whose clocks ran out while the server was down is reaped. After a SIGKILL, the
suspended sessions in the dead process's pool directory are moved to `held/` before it is
removed (with `persist_sessions`).
"""

from __future__ import annotations

import collections
import fcntl
import logging
import math
import os
import pathlib
import secrets
import tempfile
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TypeVar, cast

import anyio
import anyio.abc
import anyio.from_thread
import anyio.lowlevel
import msgspec

from . import _protocol as protocol
from ._artifact import Artifact, declared_memory_bytes, trim_heap
from ._engine import Engine
from ._errors import CapacityError, InterpreterError, InvalidRequestError, SessionNotFoundError
from ._guest import Guest
from ._results import fmt_bytes
from ._session import Session
from ._settings import PoolSettings, SessionOptions
from ._statefile import SessionRecord, StateFileError, move_to_held, read_state_header
from ._tools import ExecResult, ToolCall
from ._watch import Watcher
from ._workspace import Workspace, remove_tree

__all__ = ["Pool", "PoolStatistics"]

_log = logging.getLogger("cove")
_T = TypeVar("_T")

_MAX_REAPER_SLEEP_S = 60.0  # the reaper looks at least this often, whatever is due


class PoolStatistics(msgspec.Struct, frozen=True, kw_only=True):
    """A snapshot of a pool's state (`Pool.statistics()`)."""

    sessions: int
    max_sessions: int
    calls: int
    resets: int
    sessions_created: int
    sessions_reaped: int
    worker_threads: int
    artifact_sha256: str
    sessions_suspended: int = 0
    sessions_restored: int = 0


async def _in_daemon_thread(work: Callable[[], _T]) -> _T:
    """`work()` in a daemon thread of its own, awaited; on cancellation the thread is left to
    finish by itself (unpacking or compiling the interpreter: neither can be interrupted, and
    a daemon thread never holds up the process's exit, as a worker thread would)."""
    done = anyio.Event()
    token = anyio.lowlevel.current_token()
    outcome: list[tuple[bool, object]] = []

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:
            outcome.append((False, exc))
        try:
            anyio.from_thread.run_sync(done.set, token=token)
        except Exception:
            pass  # the event loop is gone (the process is exiting)

    threading.Thread(target=run, name="cove-open", daemon=True).start()
    await done.wait()
    ok, value = outcome[0]
    if not ok:
        assert isinstance(value, BaseException)
        raise value
    return cast(_T, value)


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


class Pool:
    """Sessions of sandboxed Python, run in-process on one wasmtime engine.

    Use it as an async context manager (or call `aclose()`):

        async with cove.Pool(cove.PoolSettings(workspace_root="/srv/cove")) as pool:
            session = await pool.create_session()
            result = await session.run_code("print(6 * 7)")

    Opening a pool verifies the interpreter artifact and compiles it (seconds on a cold
    cache, milliseconds with `cache_dir` warm), in a worker thread.
    """

    def __init__(self, settings: PoolSettings | None = None) -> None:
        self.settings: PoolSettings = settings or PoolSettings()
        self._sessions: dict[str, Session] = {}
        self._pending = 0
        self._last_reap = 0.0
        self._engine: Engine | None = None
        self._dir: pathlib.Path | None = None
        self._owned_root: pathlib.Path | None = None
        self._lock_fd: int | None = None
        self._tg: anyio.abc.TaskGroup | None = None
        self._limiter = anyio.CapacityLimiter(self.settings.worker_threads)
        self._closed = False
        self._created = 0
        self._reaped = 0
        self._calls_closed = 0
        self._resets_closed = 0
        self._pristine: Guest | None = None
        self._watcher: Watcher | None = None  # made at open: every workspace's change notices
        # The reaper: when it next wakes, and the earliest a session may be due (`_reaper`).
        self._wake_at = 0.0
        self._next_due = 0.0
        self._reaper_wake: anyio.Event | None = None
        # Spare sessions (`PoolSettings.spare_sessions`): made ahead, handed over at creation.
        self._spares: collections.deque[Session] = collections.deque()
        self._making_spares = False
        self._first_call_runs: list[tuple[int, int]] = []
        self._restored = 0
        # What `open` is doing now ("compiling the interpreter", ...), and since when.
        self.opening: str | None = None
        self.opening_since: float = 0.0
        self._opened = False  # `open` finished: held sessions are back
        self.stale_removed: int = 0

    async def __aenter__(self) -> Pool:
        await self.open()
        # Within `async with`, a background task reaps expired sessions every reap_interval_s.
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        self._tg.start_soon(self._reaper)
        self._tg.start_soon(self._keep_spares)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            self._not_open_yet()
        assert self._engine is not None
        return self._engine

    def _not_open_yet(self) -> None:
        if self.opening is not None:
            waited = time.monotonic() - self.opening_since
            raise InterpreterError(
                f"the interpreter is being prepared ({self.opening}, {waited:.0f} s so far);"
                " try again shortly"
            )
        raise InterpreterError("the pool is not open")

    def check(self) -> None:
        """What can be checked before the interpreter is unpacked or compiled: the default
        memory limit holds the memory the interpreter starts with (read from its module's
        header). Cheap; `open` does it first.

        Raises:
            InterpreterError: the default memory limit is below the interpreter's initial memory.
        """
        floor = declared_memory_bytes(self.settings.artifact_dir)
        if floor is not None:
            self._check_floor(floor)

    def _check_floor(self, floor: int) -> None:
        memory = self.settings.defaults.memory_bytes
        if memory < floor:
            raise InterpreterError(
                f"the default memory limit, {fmt_bytes(memory)}, is below the {fmt_bytes(floor)}"
                " the interpreter starts with (its snapshot, numpy and pandas imported)"
            )

    async def open(self) -> None:
        """Verify and compile the interpreter and prepare the workspace root.

        Prefer `async with Pool(...)`, which also runs the reaper as a background task. A pool
        opened with `open()` (and closed with `aclose()`, from any task) reaps expired sessions
        when sessions are created, and whenever `reap()` is called. While it runs, `opening`
        names what it is doing. Cancelling it returns at once: unpacking and compiling go on in
        a daemon thread of their own, which never holds up the process's exit.

        Raises:
            ArtifactError: the interpreter artifact is missing or fails verification.
            InterpreterError: the default memory limit is below the interpreter's initial memory.
        """
        if self._engine is not None:
            return
        settings = self.settings
        self.opening_since = time.monotonic()
        try:
            self.opening = "checking the interpreter"
            self.check()
            self.opening = "unpacking and verifying the interpreter"
            artifact = await _in_daemon_thread(
                lambda: Artifact(settings.artifact_dir, unpack_dir=settings.cache_dir)
            )
            self.opening = "compiling the interpreter"
            engine = await _in_daemon_thread(
                lambda: Engine(
                    artifact,
                    consume_fuel=settings.metered,
                    epoch_tick_s=settings.epoch_tick_s,
                    cache_dir=settings.cache_dir,
                    max_open_files=settings.max_open_files,
                    max_directory_depth=settings.max_directory_depth,
                    timeout_grace_s=settings.timeout_grace_s,
                )
            )
            try:
                self._check_floor(engine.initial_memory_bytes)
            except InterpreterError:
                engine.close()
                raise
            self._engine = engine
            self.opening = "preparing the workspace root and taking back held sessions"
            await self._finish_open()
            self._opened = True
        finally:
            self.opening = None

    async def _finish_open(self) -> None:
        settings = self.settings
        await anyio.to_thread.run_sync(self._prepare_dirs)
        if settings.persist_sessions:
            await anyio.to_thread.run_sync(self._adopt_held)
        self._last_reap = time.monotonic()

    def _prepare_dirs(self) -> None:
        if self.settings.workspace_root is None:
            root = pathlib.Path(tempfile.mkdtemp(prefix="cove-"))
            self._owned_root = root
        else:
            root = pathlib.Path(self.settings.workspace_root)
            root.mkdir(parents=True, exist_ok=True)
            rescue = self._rescue_suspended if self.settings.persist_sessions else None
            self.stale_removed = _clean_stale(root, rescue)
        self._dir = root / f"pool-{secrets.token_hex(8)}"
        self._dir.mkdir(mode=0o700)
        self._watcher = Watcher()
        self._lock_fd = os.open(self._dir / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        # A never-run interpreter: sessions' images keep only the pages that differ from it.
        pristine = self._dir / ".pristine"
        pristine.mkdir(mode=0o700)
        engine = self.engine
        self._pristine = Guest(
            engine, pristine, tmp=pristine, memory_bytes=engine.initial_memory_bytes
        )
        if self.settings.spare_sessions:
            self._first_call_runs = self._learn_first_call()

    def _learn_first_call(self) -> list[tuple[int, int]]:
        """The pages a fresh interpreter's first call writes (a trivial one, in a throwaway
        instance with no quota): what spares make private ahead of their first call."""
        assert self._pristine is not None
        assert self._dir is not None
        engine = self.engine
        throwaway = Guest(
            engine,
            self._dir / ".pristine",
            tmp=self._dir / ".pristine",
            memory_bytes=engine.initial_memory_bytes,
        )
        try:
            request = protocol.ExecRequest(code="pass", max_output_bytes=1024)
            if throwaway.request(request, bytes_left=0, files_left=0, timeout_s=10.0) is None:
                return []
            return throwaway.changed_runs(self._pristine)
        finally:
            throwaway.close()

    def _workspace(self, session_id: str) -> Workspace:
        assert self._dir is not None
        return Workspace(
            self._dir / session_id,
            max_depth=self.settings.max_directory_depth,
            watcher=self._watcher,
        )

    def _session(self, session_id: str, workspace: Workspace, **kwargs: object) -> Session:
        settings = self.settings
        return Session(
            session_id=session_id,
            engine=self.engine,
            workspace=workspace,
            image=settings.image,
            limiter=self._limiter,
            max_queued_calls=settings.max_queued_calls,
            retry_after_s=settings.retry_after_s,
            pristine=self._pristine,
            fork=self._fork,
            on_resume=self._schedule,
            **kwargs,  # type: ignore[arg-type]
        )

    def _held_dir(self) -> tuple[pathlib.Path, int]:
        """The root's `held/` directory, locked (flock; the caller closes the descriptor)."""
        assert self.settings.workspace_root is not None
        held = pathlib.Path(self.settings.workspace_root) / "held"
        held.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(held / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        fcntl.flock(fd, fcntl.LOCK_EX)
        return held, fd

    def _rescue_suspended(self, stale: pathlib.Path) -> None:
        """Move the suspended sessions of a dead process's pool directory into `held/`: a
        SIGKILL loses only what was not suspended. Their records are their images' own (the
        image is complete: it was renamed into place whole); anything that does not hold is
        left to be removed with the directory."""
        images = list(stale.glob("*.image"))
        if not images:
            return
        held, lock_fd = self._held_dir()
        try:
            for image in images:
                sid = image.name[: -len(".image")]
                workspace, tmp = stale / sid, stale / f"{sid}.tmp"
                try:
                    header = read_state_header(image, self.engine.artifact.sha256)
                    if header.session.session_id != sid or not (
                        workspace.is_dir() and tmp.is_dir()
                    ):
                        continue
                    move_to_held(held, header.session, (workspace, tmp, image))
                except (StateFileError, OSError) as exc:
                    _log.error("suspended session %s of a dead process is lost: %s", sid, exc)
        finally:
            os.close(lock_fd)

    def _adopt_held(self) -> None:
        """Take back the sessions a closed pool left in `held/` (worker thread, at open)."""
        assert self.settings.workspace_root is not None
        if not (pathlib.Path(self.settings.workspace_root) / "held").is_dir():
            return
        held, lock_fd = self._held_dir()
        try:
            records = {p.name[: -len(".record")]: p for p in held.glob("*.record")}
            for entry in held.iterdir():
                # What a persist cut short left (it writes the record last): not a session.
                sid = _held_session_of(entry.name)
                if entry.name != ".lock" and sid not in records:
                    _remove_held(entry)
            now = time.time()
            for sid, record_path in sorted(records.items()):
                self._adopt_one(held, sid, record_path, now)
        finally:
            os.close(lock_fd)

    def _adopt_one(
        self, held: pathlib.Path, sid: str, record_path: pathlib.Path, now: float
    ) -> None:
        settings = self.settings
        paths = [held / sid, held / f"{sid}.tmp", held / f"{sid}.image"]
        try:
            record = msgspec.json.decode(record_path.read_bytes(), type=SessionRecord)
            if record.session_id != sid:
                raise StateFileError("its record names another session")
            limits = record.limits.clamp(settings.ceilings)
            header = read_state_header(paths[2], self.engine.artifact.sha256, limits.memory_bytes)
            if header.session.session_id != sid:
                raise StateFileError("its image belongs to another session")
            if not (paths[0].is_dir() and paths[1].is_dir()):
                raise StateFileError("its workspace is missing")
        except (StateFileError, OSError, msgspec.MsgspecError) as exc:
            _log.error("held session %s cannot be restored and is removed: %s", sid, exc)
            for path in (*paths, record_path):
                _remove_held(path)
            return
        if (
            now - record.created_at >= limits.max_lifetime_s
            or now - record.last_activity_at >= limits.idle_timeout_s
        ):
            for path in (*paths, record_path):
                _remove_held(path)
            self._reaped += 1
            return
        if len(self._sessions) >= settings.max_sessions:
            _log.warning("held session %s left in %s: the pool is at max_sessions", sid, held)
            return
        assert self._dir is not None
        workspace = self._workspace(sid)
        session = self._session(sid, workspace, limits=limits, record=record)
        for path, target in zip(
            paths, (workspace.root, workspace.tmp, session.image_path), strict=True
        ):
            path.rename(target)
        record_path.unlink()
        self._sessions[sid] = session
        self._restored += 1

    async def create_session(self, options: SessionOptions | None = None) -> Session:
        """Lease a new session: a fresh interpreter and an empty workspace.

        Raises:
            CapacityError: the pool already holds `max_sessions` sessions (retryable).
            InvalidRequestError: a hint is not a positive number, or asks for less memory than
                the interpreter starts with.
        """
        settings = self.settings
        if self._closed:
            raise InterpreterError("the pool is closed")
        if not self._opened:
            self._not_open_yet()
        engine = self.engine
        if self._tg is None and time.monotonic() - self._last_reap >= settings.reap_interval_s:
            await self.reap()
        if len(self._sessions) + self._pending >= settings.max_sessions:
            raise CapacityError(
                f"at capacity: {settings.max_sessions} sessions are live",
                retry_after_s=settings.retry_after_s,
            )
        limits = settings.session_limits(options)
        if limits.memory_bytes < engine.initial_memory_bytes:
            raise InvalidRequestError(
                f"memory_bytes {fmt_bytes(limits.memory_bytes)} is below the"
                f" {fmt_bytes(engine.initial_memory_bytes)} the interpreter starts with"
            )
        if self._spares and self._spares[0].limits.memory_bytes == limits.memory_bytes:
            spare = self._spares.popleft()
            spare.hand_over(limits)
            self._sessions[spare.session_id] = spare
            self._schedule(spare)
            self._created += 1
            if self._tg is not None:
                self._tg.start_soon(self._keep_spares)
            return spare
        session_id = settings.new_session_id()
        assert self._dir is not None
        # Count the slot before awaiting, so concurrent creations respect max_sessions.
        self._pending += 1
        try:
            session = await Session.create(
                self._session(
                    session_id,
                    self._workspace(session_id),
                    limits=limits,
                )
            )
        finally:
            self._pending -= 1
        self._sessions[session_id] = session
        self._schedule(session)
        self._created += 1
        return session

    async def _keep_spares(self) -> None:
        """Make spares until there are `spare_sessions` (within `max_sessions`, counting them);
        one task at a time, in the pool's task group. Never raises."""
        settings = self.settings
        if self._making_spares or not settings.spare_sessions:
            return
        self._making_spares = True
        try:
            while (
                not self._closed
                and len(self._spares) < settings.spare_sessions
                and len(self._sessions) + self._pending + len(self._spares) < settings.max_sessions
            ):
                session_id = settings.new_session_id()
                spare = self._session(
                    session_id, self._workspace(session_id), limits=settings.session_limits(None)
                )
                # Shielded (a few milliseconds): a spare made is either kept or closed here,
                # never dropped half-made by the pool's closing.
                with anyio.CancelScope(shield=True):
                    await Session.create(spare, prefault=self._first_call_runs)
                if self._closed:
                    await spare.aclose()
                    return
                self._spares.append(spare)
        except Exception:
            _log.exception("could not make a spare session")
        finally:
            self._making_spares = False

    async def fork_session(self, session_id: str) -> Session:
        """A new session with a copy of `session_id`'s state and workspace (`Session.fork`).

        Raises:
            SessionNotFoundError: no live session has this id.
            SessionStateError: its code holds files open.
            CapacityError: the pool already holds `max_sessions` sessions.
        """
        return await self._fork(self.get_session(session_id))

    async def _fork(self, source: Session) -> Session:
        settings = self.settings
        if self._closed:
            raise InterpreterError("the pool is closed")
        if len(self._sessions) + self._pending >= settings.max_sessions:
            raise CapacityError(
                f"at capacity: {settings.max_sessions} sessions are live",
                retry_after_s=settings.retry_after_s,
            )
        session_id = settings.new_session_id()
        assert self._dir is not None
        workspace = self._workspace(session_id)
        child = self._session(session_id, workspace, limits=source.limits)
        self._pending += 1
        try:
            await source.fork_into(child)
        finally:
            self._pending -= 1
        self._sessions[session_id] = child
        self._schedule(child)
        self._created += 1
        if self._tg is not None:
            self._tg.start_soon(child.settle)  # its own randomness, while the caller goes on
        return child

    def get_session(self, session_id: str) -> Session:
        """The live session with this id.

        Raises:
            SessionNotFoundError: no live session has this id.
            InterpreterError: the pool is not open yet (its held sessions are not back yet).
        """
        session = self._sessions.get(session_id)
        if session is None or session.closed:
            if not self._opened and not self._closed:
                self._not_open_yet()
            raise SessionNotFoundError(session_id)
        return session

    async def execute(self, session_id: str, call: ToolCall) -> ExecResult:
        """Run `call` in the session `session_id` (see `Session.execute`)."""
        return await self.get_session(session_id).execute(call)

    async def destroy_session(self, session_id: str) -> bool:
        """Destroy a session and its workspace; False if there was no such session.

        The id stops resolving at once; the interpreter and directory are released as soon
        as a call still running in it ends (by its deadline at the latest).
        """
        session = self._sessions.pop(session_id, None)
        if session is None:
            return False
        self._count_closed(session)
        if self._tg is not None:
            self._tg.start_soon(self._close_session, session)
        else:
            await self._close_session(session)
        return True

    async def _close_session(self, session: Session) -> None:
        # Runs in the pool's task group: an error escaping here would cancel every other task
        # (and with them the reaper), so it is logged, never raised.
        try:
            await session.aclose()
        except Exception:
            _log.exception("error while closing session %s", session.session_id)

    def _count_closed(self, session: Session) -> None:
        self._calls_closed += session.calls
        self._resets_closed += session.resets

    async def _reaper(self) -> None:
        """Reap when something may be due: it sleeps until the earliest time a session could
        expire or be suspended (at least `reap_interval_s`, at most `_MAX_REAPER_SLEEP_S`),
        so an idle server with held sessions does not wake every second. A session made with
        an earlier due time wakes it (`_schedule`)."""
        while True:
            now = time.time()
            delay = min(
                max(self._next_due - now, self.settings.reap_interval_s), _MAX_REAPER_SLEEP_S
            )
            self._wake_at = now + delay
            wake = self._reaper_wake = anyio.Event()
            with anyio.move_on_after(delay):
                await wake.wait()
            if wake.is_set():
                continue  # woken by a new session: sleep again, until the new due time
            try:
                await self.reap()
            except Exception:
                _log.exception("error while reaping sessions")

    def _schedule(self, session: Session) -> None:
        """A session joined the pool, or came back from its image: wake the reaper if it is due
        before the reaper's wake."""
        due = session.due_at(self.settings.suspend_after_s)
        self._next_due = min(self._next_due, due)
        wake = self._reaper_wake
        if wake is not None and due < self._wake_at and not wake.is_set():
            wake.set()

    async def reap(self, *, now: float | None = None) -> int:
        """Destroy every session expired at `now` (default: the current time); returns how many.

        The background reaper calls this every `reap_interval_s`.
        """
        self._last_reap = time.monotonic()
        if self._closed:
            return 0
        now = time.time() if now is None else now
        # Sessions that closed themselves: their image could not be restored (they are gone).
        for sid in [sid for sid, s in self._sessions.items() if s.closed]:
            self._count_closed(self._sessions.pop(sid))
        # Without the background task group a destroy is awaited inline, so a session still
        # running a call is left for a later pass rather than waited for here.
        expired = [
            sid
            for sid, s in self._sessions.items()
            if s.expired(now) and (self._tg is not None or not s.busy)
        ]
        for sid in expired:
            await self.destroy_session(sid)
        self._reaped += len(expired)
        idle_s = self.settings.suspend_after_s
        if idle_s is not None and math.isfinite(idle_s):
            await self.suspend_idle(idle_s, now=now)
        suspend_after = idle_s if idle_s is not None and math.isfinite(idle_s) else None
        self._next_due = min(
            (s.due_at(suspend_after) for s in self._sessions.values() if not s.closed),
            default=math.inf,
        )
        return len(expired)

    async def suspend_idle(self, idle_s: float, *, now: float | None = None) -> int:
        """Suspend every session idle for `idle_s` seconds or more (`Session.suspend`); returns
        how many were suspended. The reaper does this with `suspend_after_s`."""
        now = time.time() if now is None else now
        suspended = 0
        for session in list(self._sessions.values()):
            if (
                session.suspended
                or session.busy
                or session.closed
                or now - session.last_activity_at < idle_s
            ):
                continue
            try:
                if await session.suspend(idle_s=idle_s):
                    suspended += 1
            except SessionNotFoundError:
                continue
            except Exception:
                _log.exception("could not suspend session %s", session.session_id)
        if suspended:
            await anyio.to_thread.run_sync(trim_heap)
        return suspended

    def session_ids(self) -> list[str]:
        return [sid for sid, s in self._sessions.items() if not s.closed]

    def statistics(self) -> PoolStatistics:
        """Counts of sessions and calls; cheap, never blocks."""
        live = [s for s in self._sessions.values() if not s.closed]
        return PoolStatistics(
            sessions=len(live),
            max_sessions=self.settings.max_sessions,
            calls=self._calls_closed + sum(s.calls for s in live),
            resets=self._resets_closed + sum(s.resets for s in live),
            sessions_created=self._created,
            sessions_reaped=self._reaped,
            worker_threads=self.settings.worker_threads,
            artifact_sha256=self._engine.artifact.sha256 if self._engine else "",
            sessions_suspended=sum(1 for s in live if s.suspended),
            sessions_restored=self._restored,
        )

    @property
    def alive(self) -> bool:
        """Open and not closed: sessions can be created and served (what /health reports)."""
        return self._opened and not self._closed

    @property
    def ready(self) -> bool:
        """Open, not closing, and below `max_sessions`."""
        return (
            self._opened
            and not self._closed
            and len(self._sessions) + self._pending < self.settings.max_sessions
        )

    async def aclose(self) -> None:
        """Destroy every session and its workspace (with `persist_sessions`, move each into
        `held/` instead, for the next open), stop the reaper and the engine. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.settings.persist_sessions and self._dir is not None and self._sessions:
            with anyio.CancelScope(shield=True):
                await self._persist_all()
        # Each session's aclose is shielded, so this finishes even if the caller is cancelled.
        for sid in list(self._sessions):
            await self.destroy_session(sid)
        if self._tg is not None:
            # Cancels the reaper and the making of spares; session closings already started
            # are shielded and run to the end before the task group exits.
            tg, self._tg = self._tg, None
            tg.cancel_scope.cancel()
            await tg.__aexit__(None, None, None)
        while self._spares:
            with anyio.CancelScope(shield=True):
                await self._spares.popleft().aclose()
        if self._pristine is not None:
            self._pristine.close()
        if self._watcher is not None:
            self._watcher.close()
        if self._engine is not None:
            self._engine.close()
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(self._remove_dirs)

    async def _persist_all(self) -> None:
        held, lock_fd = await anyio.to_thread.run_sync(self._held_dir)
        try:
            for session in self._sessions.values():
                session.drain()
            # As many at once as there are worker threads (each takes the pool's limiter).
            # First every session whose code holds no file open: nothing runs in a guest, so
            # no session's code can hold up another's (each waits only for its running call).
            # Then the others, each closing its files in at most HOUSEKEEPING_S.
            for close_files in (False, True):
                async with anyio.create_task_group() as tg:
                    for sid, session in list(self._sessions.items()):
                        tg.start_soon(self._persist_one, held, sid, session, close_files)
            # One flush of everything written (images, records, renames) before the process
            # goes: one sync instead of one per image (tens of milliseconds each).
            await anyio.to_thread.run_sync(os.sync)
        finally:
            os.close(lock_fd)

    async def _persist_one(
        self, held: pathlib.Path, sid: str, session: Session, close_files: bool
    ) -> None:
        try:
            kept = await session.persist(held, close_files=close_files)
        except Exception:
            _log.exception("could not keep session %s across the restart", sid)
            kept = False
        if kept:
            if self._sessions.pop(sid, None) is session:
                self._count_closed(session)
        elif close_files:
            _log.warning(
                "session %s is not kept across the restart: its code holds files open that"
                " could not be closed",
                sid,
            )

    def _remove_dirs(self) -> None:
        if self._dir is not None:
            remove_tree(self._dir)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None
        if self._owned_root is not None:
            remove_tree(self._owned_root)

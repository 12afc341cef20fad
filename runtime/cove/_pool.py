"""A pool of sessions sharing one engine: the registry, capacity, creation, forks, reaping,
opening and closing.

What a pool opens it closes in one place: every resource goes on one `AsyncExitStack` as it is
made, and `aclose` unwinds it. Its background work (the reaper, spares, a destroyed session's
closing, a fork's reseed) runs in a task group within `async with Pool(...)`
(`_background.Background`). The pool's directory is `_pooldir`'s, held sessions
(`persist_sessions`) `_held`'s, spares `_spares`', what the pool does to one session
`_sessionops`'.

Why one module (over ~500 lines): the registry and its count of slots (sessions, creations in
progress, spares) are read and changed by creation, forks, held sessions' return, reaping and
closing; each of those is a few lines against it here, and what is more than that lives in the
modules above.
"""

from __future__ import annotations

import contextlib
import logging
import math
import pathlib
import time
from types import TracebackType

import anyio
import msgspec

from ._artifact import Artifact, declared_memory_bytes, trim_heap
from ._background import Background, in_daemon_thread
from ._engine import Engine
from ._errors import (
    CapacityError,
    InterpreterError,
    InvalidRequestError,
    PoolClosedError,
    SessionNotFoundError,
)
from ._guest import Guest
from ._held import HeldSessions
from ._pooldir import PoolDirectory
from ._results import fmt_bytes
from ._session import Session
from ._sessionops import PoolSession
from ._settings import Limits, PoolSettings, SessionOptions
from ._spares import Spares, first_call_runs
from ._statefile import SessionRecord
from ._tools import ExecResult, ToolCall
from ._watch import Watcher
from ._workspace import Workspace

__all__ = ["Pool", "PoolStatistics"]

_log = logging.getLogger("cove")

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
        self._sessions: dict[str, PoolSession] = {}
        self._pending = 0
        self._last_reap = 0.0
        self._engine: Engine | None = None
        self._dir: pathlib.Path | None = None
        self._pool_dir = PoolDirectory(self.settings.workspace_root)
        # Everything `open` made, released in reverse by `aclose`; the background last made.
        self._stack = contextlib.AsyncExitStack()
        self._background = Background()
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
        self._spares = Spares(
            self.settings.spare_sessions,
            learn=self._learn_first_call,
            make=self._new_spare,
            room=self._room_for_spare,
        )
        self._held: HeldSessions | None = None  # with persist_sessions, once open
        self._restored = 0
        # What `open` is doing now ("compiling the interpreter", ...), and since when.
        self.opening: str | None = None
        self.opening_since: float = 0.0
        self._opened = False  # `open` finished: held sessions are back

    async def __aenter__(self) -> Pool:
        await self.open()
        try:
            await self._stack.enter_async_context(self._background.entered())
        except BaseException:
            await self.aclose()
            raise
        # Within `async with`, a background task reaps expired sessions every reap_interval_s.
        self._background.start_soon(self._reaper)
        self._background.start_soon(self._spares.keep)
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
                " the interpreter starts with (its snapshot, numpy, pandas and matplotlib imported)"
            )

    async def open(self) -> None:
        """Verify and compile the interpreter and prepare the workspace root.

        Prefer `async with Pool(...)`, which also runs the reaper, the making of spares and
        other background work in a task group. A pool opened with `open()` alone (and closed
        with `aclose()`, from any task) has no background: it reaps expired sessions when
        sessions are created and whenever `reap()` is called, and makes no spares. While it
        runs, `opening` names what it is doing. Cancelling it returns at once: unpacking and
        compiling go on in a daemon thread of their own, which never holds up the process's
        exit.

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
            artifact = await in_daemon_thread(
                lambda: Artifact(settings.artifact_dir, unpack_dir=settings.cache_dir)
            )
            self.opening = "compiling the interpreter"
            engine = await in_daemon_thread(
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
            self._stack.callback(engine.close)
            self._engine = engine
            self.opening = "preparing the workspace root and taking back held sessions"
            await self._finish_open()
            self._opened = True
        finally:
            self.opening = None

    async def _finish_open(self) -> None:
        settings = self.settings
        self._stack.push_async_callback(self._remove_dirs)
        await anyio.to_thread.run_sync(self._prepare_dirs)
        if self._held is not None:
            held = self._held
            self._reaped += await anyio.to_thread.run_sync(
                lambda: held.adopt(settings.ceilings, self._admit_held)
            )
        self._stack.push_async_callback(self._spares.aclose)
        self._last_reap = time.monotonic()

    def _prepare_dirs(self) -> None:
        settings = self.settings
        if settings.workspace_root is not None and settings.persist_sessions:
            root = pathlib.Path(settings.workspace_root)
            self._held = HeldSessions(root, self.engine.artifact.sha256)
        self._dir = self._pool_dir.make(self._held.rescue if self._held else None)
        watcher = self._watcher = Watcher()
        self._stack.callback(watcher.close)
        # A never-run interpreter: sessions' images keep only the pages that differ from it.
        pristine = self._dir / ".pristine"
        pristine.mkdir(mode=0o700)
        engine = self.engine
        self._pristine = Guest(
            engine, pristine, tmp=pristine, memory_bytes=engine.initial_memory_bytes
        )
        self._stack.callback(self._pristine.close)

    def _learn_first_call(self) -> list[tuple[int, int]]:
        assert self._pristine is not None
        assert self._dir is not None
        return first_call_runs(self.engine, self._pristine, self._dir / ".pristine")

    def _workspace(self, session_id: str) -> Workspace:
        assert self._dir is not None
        return Workspace(
            self._dir / session_id,
            max_depth=self.settings.max_directory_depth,
            watcher=self._watcher,
        )

    def _new_session(
        self, session_id: str, *, limits: Limits, record: SessionRecord | None = None
    ) -> PoolSession:
        """A session object of this pool's (its directories and interpreter not made yet)."""
        settings = self.settings
        return PoolSession(
            session_id=session_id,
            engine=self.engine,
            workspace=self._workspace(session_id),
            limits=limits,
            image=settings.image,
            limiter=self._limiter,
            max_queued_calls=settings.max_queued_calls,
            retry_after_s=settings.retry_after_s,
            pristine=self._pristine,
            fork=self._fork,
            record=record,
            on_resume=self._schedule,
        )

    def _new_spare(self) -> PoolSession:
        settings = self.settings
        return self._new_session(settings.new_session_id(), limits=settings.session_limits(None))

    def _room_for_spare(self) -> bool:
        return (
            not self._closed
            and len(self._sessions) + self._pending + len(self._spares) < self.settings.max_sessions
        )

    def _admit_held(
        self, sid: str, limits: Limits, record: SessionRecord
    ) -> tuple[pathlib.Path, ...] | None:
        """A held session taken back (`HeldSessions.adopt`): registered, suspended, and where
        its files go; None at `max_sessions`."""
        if len(self._sessions) >= self.settings.max_sessions:
            return None
        session = self._new_session(sid, limits=limits, record=record)
        self._sessions[sid] = session
        self._restored += 1
        workspace = session.workspace
        return (workspace.root, workspace.tmp, session.image_path)

    async def create_session(self, options: SessionOptions | None = None) -> Session:
        """Lease a new session: a fresh interpreter and an empty workspace.

        Raises:
            CapacityError: the pool already holds `max_sessions` sessions (retryable).
            InvalidRequestError: a hint is not a positive number, or asks for less memory than
                the interpreter starts with.
            PoolClosedError: the pool is closed.
            InterpreterError: the pool is not open yet.
        """
        settings = self.settings
        if self._closed:
            raise PoolClosedError("the pool is closed")
        if not self._opened:
            self._not_open_yet()
        engine = self.engine
        if (
            not self._background.running
            and time.monotonic() - self._last_reap >= settings.reap_interval_s
        ):
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
        spare = self._spares.take(limits.memory_bytes)
        if spare is not None:
            spare.hand_over(limits)
            self._sessions[spare.session_id] = spare
            self._schedule(spare)
            self._created += 1
            self._background.start_soon(self._spares.keep)
            return spare
        session_id = settings.new_session_id()
        session = self._new_session(session_id, limits=limits)
        # Count the slot before awaiting, so concurrent creations respect max_sessions.
        self._pending += 1
        try:
            await session.start()
        finally:
            self._pending -= 1
        self._sessions[session_id] = session
        self._schedule(session)
        self._created += 1
        return session

    async def fork_session(self, session_id: str) -> Session:
        """A new session with a copy of `session_id`'s interpreter state and workspace: its own
        id, limits (the same as the source's), clocks (starting now) and random state. The one
        way to fork (`Session.fork` is deprecated).

        Raises:
            SessionNotFoundError: no live session has this id.
            SessionStateError: its code holds files open.
            CapacityError: the pool already holds `max_sessions` sessions.
            SessionClosedError, SessionLostError: the source is being destroyed, or is gone.
            PoolClosedError: the pool is closed.
        """
        return await self._fork(self.get_session(session_id))

    async def _fork(self, source: Session) -> Session:
        settings = self.settings
        assert isinstance(source, PoolSession), "a pool forks its own sessions"
        if self._closed:
            raise PoolClosedError("the pool is closed")
        if len(self._sessions) + self._pending >= settings.max_sessions:
            raise CapacityError(
                f"at capacity: {settings.max_sessions} sessions are live",
                retry_after_s=settings.retry_after_s,
            )
        session_id = settings.new_session_id()
        child = self._new_session(session_id, limits=source.limits)
        self._pending += 1
        try:
            await source.fork_into(child)
        finally:
            self._pending -= 1
        self._sessions[session_id] = child
        self._schedule(child)
        self._created += 1
        self._background.start_soon(child.settle)  # its own randomness, while the caller goes on
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
        await self._background.run(self._close_session, session)
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
        assert isinstance(session, PoolSession)
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
        # Without a background a destroy is awaited inline, so a session still running a call
        # is left for a later pass rather than waited for here.
        waits = not self._background.running
        expired = [
            sid for sid, s in self._sessions.items() if s.expired(now) and not (waits and s.busy)
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
        `held/` instead, for the next open), stop the background and the engine. Idempotent.
        Runs to its end even if the caller is cancelled."""
        if self._closed:
            return
        self._closed = True
        self._spares.close()
        with anyio.CancelScope(shield=True):
            if self._held is not None and self._sessions:
                await self._held.persist(self._sessions, self._kept)
            # Each session's aclose is shielded, so this finishes even if the caller is
            # cancelled.
            for sid in list(self._sessions):
                await self.destroy_session(sid)
        # The background is cancelled (the reaper, the making of spares); session closings
        # already started are shielded and run to the end first. Then the spares, the pristine
        # interpreter, the watcher, the directories and the engine go, each shielded.
        await self._stack.aclose()

    def _kept(self, sid: str, session: PoolSession) -> None:
        """A session moved into `held/` (`HeldSessions.persist`): the pool forgets it."""
        if self._sessions.pop(sid, None) is session:
            self._count_closed(session)

    @property
    def stale_removed(self) -> int:
        """Directories of dead pools removed when this one opened."""
        return self._pool_dir.stale_removed

    async def _remove_dirs(self) -> None:
        with anyio.CancelScope(shield=True):
            await anyio.to_thread.run_sync(self._pool_dir.remove)

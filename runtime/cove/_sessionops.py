"""The pool's operations on its sessions, kept off `Session`'s public surface.

A pool makes every session as a `PoolSession`: to the user it is a `Session`, and these are what
only the pool does with one — start it (a spare with its first-call pages made private and a
warm-up answered), hand a spare over, tell when it is due for reaping or suspension, copy it
into a fork, finish a fork's reseed, and move it into `held/` at shutdown.
"""

from __future__ import annotations

import logging
import pathlib
import time

import anyio

from . import _protocol as protocol
from ._errors import InterpreterError, SessionClosedError, SessionLostError, SessionStateError
from ._guest import Guest
from ._held import move_to_held
from ._host import HostServices
from ._pages import Run
from ._session import Session, SessionState
from ._settings import Limits
from ._statefile import SessionRecord
from ._trees import TreeCopy

__all__ = ["PoolSession"]

_log = logging.getLogger("cove")


class PoolSession(Session):
    """A session as its pool holds it."""

    async def start(self, *, prefault: list[Run] | None = None) -> None:
        """Make the session's workspace directory and interpreter, on the session's thread.
        With `prefault` (a spare, made ahead): those pages of its memory are made private
        now (`Guest.prefault`), a first request made, and the workspace's tracker set up, so
        the first call skips all of it."""

        def setup() -> None:
            self.workspace.make()
            try:
                guest = self._guest = self._new_guest()
                self._set_state(SessionState.LIVE)
                if prefault is not None:
                    guest.prefault(prefault)
                    # A first request (the driver's per-session start, its fresh randomness,
                    # and the exec path once, counted nowhere) also warms what a new instance
                    # sets up lazily; nothing the model's code can see changes.
                    answer = guest.request(
                        protocol.WarmUpRequest(),
                        bytes_left=0,
                        files_left=0,
                        timeout_s=protocol.HOUSEKEEPING_S,
                    )
                    if answer is None:
                        raise InterpreterError("a spare interpreter did not answer")
                    self.workspace.usage()
            except BaseException:
                self.workspace.remove()
                raise

        # On the session's own thread, which is then still there (for `_worker.IDLE_EXIT_S`)
        # when its first call comes: that call does not start one (a spare's first call after
        # its hand-over, docs/benchmarks.md).
        await self._worker.run(setup, self._limiter)

    def hand_over(self, limits: Limits) -> None:
        """A spare given to its user: its limits (with the memory limit it was made with) and
        its clocks, from now."""
        assert limits.memory_bytes == self.limits.memory_bytes, "a spare's memory is fixed"
        self.limits = limits
        self._host = HostServices(self.workspace, limits, self._new_guest)
        self.created_at = self.last_activity_at = time.time()

    def due_at(self, suspend_after_s: float | None) -> float:
        """The earliest time (POSIX seconds) this session could expire or be suspended, as
        things stand: its use only ever moves this later."""
        limits = self.limits
        due = min(
            self.created_at + limits.max_lifetime_s,
            self.last_activity_at + limits.idle_timeout_s,
        )
        if suspend_after_s is not None and not self.suspended:
            due = min(due, self.last_activity_at + suspend_after_s)
        return due

    def expired(self, now: float) -> bool:
        """Idle past its idle timeout (and not running a call), or past its lifetime."""
        if now - self.created_at >= self.limits.max_lifetime_s:
            return True
        return not self.busy and now - self.last_activity_at >= self.limits.idle_timeout_s

    def record(self) -> SessionRecord:
        """What the session's image keeps besides its memory."""
        return self._record()

    async def fork_into(self, child: PoolSession) -> None:
        """Give `child` (new, empty, not yet made) a copy of this session's state, in turn.
        On failure `child` is left without directories.

        Raises:
            SessionStateError: this session's code holds files open (they cannot be copied), or
                its workspace tree cannot be copied (deeper than Python's recursion limit or
                with paths past PATH_MAX; only renames of deep trees make one).
            SessionClosedError, SessionLostError.
        """

        def make_child() -> Guest:
            try:
                # Hard links stay links, and the copy stops at the quota: a fork never
                # writes more than its source could.
                trees = TreeCopy(self.limits.workspace_bytes)
                trees.copy(self.workspace.root, child.workspace.root)
                trees.copy(self.workspace.tmp, child.workspace.tmp)
            except (OSError, RecursionError) as exc:
                # A tree deeper than the guest's mkdir limit (made by renames) or with paths
                # past PATH_MAX: refused, nothing of the copy left.
                child.workspace.remove()
                raise SessionStateError(f"the session's files cannot be copied: {exc}") from exc
            except BaseException:
                child.workspace.remove()
                raise
            try:
                return child._new_guest()
            except BaseException:
                child.workspace.remove()
                raise

        def copy() -> None:
            guest = self._live_guest()
            held = guest.open_files()
            if held:
                raise SessionStateError(
                    f"the session's code holds {held} file(s) open; close them before forking"
                )
            assert self._pristine is not None, "a pool's sessions have its pristine"
            runs = guest.changed_runs(self._pristine, exact=False)
            fresh = make_child()  # its own failures clean up after themselves
            try:
                fresh.restore(
                    guest.memory_bytes(),
                    guest.stack_pointer(),
                    lambda base: guest.copy_pages_to(runs, base),
                )
            except BaseException:
                fresh.close()
                child.workspace.remove()
                raise
            child._guest = fresh
            # Its random state is the source's until reseeded: done before anything else runs
            # in it (`_live_guest`), and started right away by the pool (`settle`).
            child._set_state(SessionState.FORKED)

        await self._locked(copy)

    async def settle(self) -> None:
        """Finish what a fork left for later (fresh randomness) now, in turn; never raises."""
        try:
            await self._locked(self._live_guest, activity=False)
        except (SessionClosedError, SessionLostError):
            return  # destroyed (or gone) before its turn: nothing to settle
        except Exception as exc:
            _log.warning("session %s: %s", self.session_id, exc)

    def persist_now(self, held: pathlib.Path, *, close_files: bool = True) -> bool:
        """Suspend and move the image and the workspace into `held`, for the next start;
        worker thread, lock held. With `close_files`, the files its code holds open are closed
        first (a housekeeping request, at most `HOUSEKEEPING_S`); without, nothing runs in the
        guest. False: it cannot be carried (descriptors still open) and nothing was moved. Not
        synced to disk: the pool syncs once when every session is moved."""
        if not self._suspend_now(close_files=close_files):
            return False
        if not self.suspended:  # no interpreter state at all: save a fresh one's
            self._guest = self._new_guest()
            self._set_state(SessionState.LIVE)
            if not self._suspend_now(close_files=False):
                return False
        # The record as of now (an image written at an earlier suspend has an older one): the
        # idle and lifetime clocks go on from here after the restart.
        move_to_held(
            held, self._record(), (self.workspace.root, self.workspace.tmp, self.image_path)
        )
        self._state = SessionState.CLOSED
        return True

    def drain(self) -> None:
        """Take no more calls: those still queued are refused (`SessionClosedError`), so
        persisting waits only for the call that is running (the pool's shutdown)."""
        self._draining = True

    async def persist(self, held: pathlib.Path, *, close_files: bool = True) -> bool:
        """`persist_now` in turn (the pool's shutdown). Kept: the session is closed after it;
        not kept, it stays as it was, for another try or for its destruction."""
        done = False
        with anyio.CancelScope(shield=True):
            done = await self._locked(
                lambda: self.persist_now(held, close_files=close_files), activity=False
            )
            if done:
                self._worker.close()
        return done

"""A session: one interpreter, one workspace, calls run one at a time in arrival order.

Life of a call: the session's lock is taken (FIFO; a bounded number may wait), the workspace's
usage is brought up to date (it gives the guest its quota; `_watch` keeps it across calls and
finds the files the call changes), the request goes into the guest on a worker thread behind
the pool's capacity limiter, and the guest's JSON response becomes an `ExecResult`. A trap
(deadline, fuel, stack, exit, crash) replaces the interpreter with a fresh one from the
snapshot, keeping the workspace: a *reset*.

The session owns turn-taking, where its interpreter is (`SessionState`) and its files. What
crosses into the guest is `_protocol`'s; what the guest may ask of the host is `_host`'s; how an
outcome becomes a result (and what the model reads about it) is `_results`'; what only the pool
does with a session (start, hand over, fork into, persist) is `_sessionops`'.

A session may be *suspended*: its interpreter's state written to an image beside its workspace
(`_statefile`: the memory pages that differ from the snapshot) and the interpreter released.
Its next call resumes it from the image, transparently; file operations never need the
interpreter. A session whose code holds files open is not suspended (the descriptors would not
carry over).

Why one module (over ~500 lines): every field here is guarded by the session's one lock, and
every operation, a call, a file operation, a suspend or a resume, goes through `_locked`;
split across modules, the rules of who may touch the interpreter when would be too.
"""

from __future__ import annotations

import enum
import logging
import math
import pathlib
import time
import warnings
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import msgspec

from . import _hostview as hostview
from . import _protocol as protocol
from . import _results as results
from ._engine import Engine
from ._errors import (
    InterpreterError,
    InvalidRequestError,
    SessionBusyError,
    SessionClosedError,
    SessionLostError,
    TooLargeError,
)
from ._guest import Guest, GuestOutcome
from ._host import HostServices
from ._settings import Limits
from ._statefile import (
    SessionRecord,
    StateFileError,
    StateHeader,
    decompress_pages,
    open_state,
    write_state,
)
from ._tools import (
    BashExecution,
    CodeExecution,
    CodeExecutionInput,
    ExecResult,
    TextEditor,
    ToolCall,
)
from ._transfer import Upload, WorkspaceFile, check_new_name
from ._worker import SessionWorker
from ._workspace import FileInfo, Usage, Workspace

__all__ = ["Session", "SessionInfo", "SessionState"]

_log = logging.getLogger("cove")


class SessionState(enum.Enum):
    """Where a session's interpreter is."""

    EMPTY = "empty"  # none yet (or a reset could not make one): the next call makes it fresh
    LIVE = "live"  # in memory
    FORKED = "forked"  # in memory with its source's random state: reseeded before it runs
    SUSPENDED = "suspended"  # in the session's image on disk: the next call resumes it
    CLOSED = "closed"  # destroyed (or moved to `held/`): no call is taken


class SessionInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A session's handle: what the contract's CreateSession returns, plus the limits in force."""

    session_id: str
    created_at: float
    last_activity_at: float
    idle_timeout_seconds: int
    max_lifetime_seconds: int
    image: str
    limits: Limits


class Session:
    """One sandboxed Python session. Create it with `Pool.create_session`.

    Every method is a coroutine that waits its turn behind calls already running or queued on
    this session. None of them blocks the event loop.
    """

    def __init__(
        self,
        *,
        session_id: str,
        engine: Engine,
        workspace: Workspace,
        limits: Limits,
        image: str,
        limiter: anyio.CapacityLimiter,
        max_queued_calls: int,
        retry_after_s: int,
        pristine: Guest | None = None,
        fork: Callable[[Session], Awaitable[Session]] | None = None,
        record: SessionRecord | None = None,
        on_resume: Callable[[Session], None] | None = None,
    ) -> None:
        self.session_id = session_id
        self.workspace = workspace
        self.limits: Limits = limits
        self.image = image
        self.created_at: float = time.time()
        self.last_activity_at: float = self.created_at
        self._engine = engine
        self._limiter = limiter
        self._worker = SessionWorker(f"cove-session-{session_id[:8]}")
        # No checkpoint when free: every call takes it (anyio's Lock would yield once).
        self._lock = anyio.Lock(fast_acquire=True)
        self._max_queued = max_queued_calls
        self._retry_after_s = retry_after_s
        self._guest: Guest | None = None
        self._state = SessionState.EMPTY
        self._host = HostServices(workspace, limits, self._new_guest)
        self.calls: int = 0
        self.resets: int = 0
        # Images: a never-run interpreter to tell changed pages by, and how the pool forks.
        self._pristine = pristine
        self._fork = fork
        self.image_path: pathlib.Path = workspace.root.with_name(workspace.root.name + ".image")
        self._draining = False  # persisting: calls still queued are refused
        # Told (on the event loop) when the session comes back from its image: the pool's
        # reaper then knows it may be due for suspension again sooner than it thought.
        self._on_resume = on_resume
        if record is not None:  # a session carried across a restart: suspended, as it was
            self.created_at = record.created_at
            self.last_activity_at = record.last_activity_at
            self.calls = record.calls
            self.resets = record.resets
            self._state = SessionState.SUSPENDED

    def _set_state(self, state: SessionState) -> None:
        """Move to `state`, unless the session is closed (a call still running when it was
        destroyed ends in the closed state)."""
        if self._state is not SessionState.CLOSED:
            self._state = state

    def _new_guest(self, memory_bytes: int | None = None) -> Guest:
        memory = self.limits.memory_bytes if memory_bytes is None else memory_bytes
        workspace = self.workspace
        return Guest(self._engine, workspace.root, tmp=workspace.tmp, memory_bytes=memory)

    def info(self) -> SessionInfo:
        """The session's handle and the limits in force."""
        return SessionInfo(
            session_id=self.session_id,
            created_at=self.created_at,
            last_activity_at=self.last_activity_at,
            idle_timeout_seconds=math.ceil(self.limits.idle_timeout_s),
            max_lifetime_seconds=math.ceil(self.limits.max_lifetime_s),
            image=self.image,
            limits=self.limits,
        )

    @property
    def closed(self) -> bool:
        """Destroyed, or being destroyed."""
        return self._state is SessionState.CLOSED

    @property
    def busy(self) -> bool:
        """A call or file operation is running."""
        return self._lock.locked()

    @property
    def suspended(self) -> bool:
        """The interpreter's state is in the session's image, not in memory."""
        return self._state is SessionState.SUSPENDED

    # -- the turn-taking every operation goes through ------------------------------------------

    async def _locked(self, func: Callable[[], Any], *, activity: bool = True) -> Any:
        """Run `func` in a worker thread once every earlier call on this session is done.
        Unless `activity` is False (housekeeping), it counts as use of the session."""
        if self.closed:
            raise SessionClosedError(self.session_id)
        lock = self._lock
        if lock.locked():
            queued = lock.statistics().tasks_waiting
            if queued >= self._max_queued:
                raise SessionBusyError(self.session_id, queued, retry_after_s=self._retry_after_s)
        async with lock:
            if self.closed or (self._draining and activity):
                raise SessionClosedError(self.session_id)
            was_suspended = self.suspended
            try:
                return await self._worker.run(func, self._limiter)
            finally:
                if activity:
                    self.last_activity_at = time.time()
                if was_suspended and not self.suspended and self._on_resume is not None:
                    self._on_resume(self)

    # -- tool calls ----------------------------------------------------------------------------

    async def execute(self, call: ToolCall) -> ExecResult:
        """Run one tool call and return its result.

        Failures of the code itself, and limits that fire, are in the result (`return_code`,
        `stderr`, `outcome`, `limit`), not raised.

        Raises:
            InvalidRequestError: a tool input is over the request-size limit. (A text-editor
                command missing its fields cannot reach here: its input refuses to be built.)
            SessionClosedError: the session is being destroyed.
            SessionBusyError: too many calls are already queued on this session.
        """
        timeout_s = self.limits.timeout_s
        if call.timeout_seconds is not None:
            timeout_s = min(float(call.timeout_seconds), self.limits.timeout_s)
        limit = self.limits.max_output_bytes
        request: protocol.GuestRequest
        if isinstance(call, BashExecution):
            self._check_size(call.input.command, "command")
            request = protocol.BashRequest(command=call.input.command, max_output_bytes=limit)
        elif isinstance(call, CodeExecution):
            self._check_size(call.input.code, "code")
            request = protocol.ExecRequest(code=call.input.code, max_output_bytes=limit)
        else:
            assert isinstance(call, TextEditor)
            edit = call.input
            for name, value in (
                ("file_text", edit.file_text),
                ("old_str", edit.old_str),
                ("new_str", edit.new_str),
            ):
                if value is not None:
                    self._check_size(value, name)
            if edit.command == "view" and edit.path:
                viewed = await self._view_on_host(call, edit.path, edit.view_range)
                if viewed is not None:
                    return viewed
            request = protocol.EditRequest(
                command=edit.command,
                path=edit.path,
                file_text=edit.file_text,
                old_str=edit.old_str,
                new_str=edit.new_str,
                insert_line=edit.insert_line,
                view_range=edit.view_range,
                max_output_bytes=limit,
            )
        try:
            data = protocol.encode(request)
        except (msgspec.EncodeError, UnicodeEncodeError) as exc:  # a lone surrogate
            raise InvalidRequestError(f"the tool input is not valid Unicode text: {exc}") from exc
        tool = call.tool_kind()
        done: ExecResult = await self._locked(lambda: self._run(tool, data, timeout_s))
        return done

    async def run_code(self, code: str, *, timeout_s: float | None = None) -> ExecResult:
        """Shorthand for `execute(CodeExecution(...))`."""
        if not code:
            raise InvalidRequestError("code must not be empty")
        timeout = None if timeout_s is None else max(1, math.ceil(timeout_s))
        return await self.execute(
            CodeExecution(input=CodeExecutionInput(code=code), timeout_seconds=timeout)
        )

    async def _view_on_host(
        self, call: TextEditor, path: str, view_range: list[int] | None
    ) -> ExecResult | None:
        """A text-editor `view` answered on the host, inline (`_hostview`), or None: the
        guest answers. Taken in turn like any call; only on a live interpreter without fuel
        metering, whose result fields (memory, fuel) the host can give as the guest would."""
        if self.closed or self._lock.locked():
            return None
        async with self._lock:
            guest = self._guest
            if self.closed or guest is None or self._engine.consume_fuel:
                return None
            limits = self.limits
            text = hostview.view_text(self.workspace, path, view_range, limits.max_output_bytes)
            if text is None:
                return None
            self.calls += 1
            self.last_activity_at = time.time()
            tracker = self.workspace.tracker
            result, _ = results.translate(
                call.tool_kind(),
                GuestOutcome(
                    response=msgspec.json.encode(protocol.GuestResponse(stdout=text)),
                    memory_bytes=guest.memory_bytes(),
                ),
                Usage(tracker.bytes, tracker.files, {}),
                [],
                elapsed_ms=0,
                timeout_s=limits.timeout_s,
                limits=limits,
            )
            return result

    def _check_size(self, text: str, what: str) -> None:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.limits.max_request_bytes:
            raise InvalidRequestError(
                f"{what} is {size} bytes; the limit is {self.limits.max_request_bytes} bytes"
            )

    def _run(self, tool: str, data: bytes, timeout_s: float) -> ExecResult:
        """Worker-thread half of a call: usage, run in the guest, usage and changes, translate.
        The call's deadline is set once, here: resuming and reseeding count against it."""
        deadline = time.monotonic() + timeout_s
        self.calls += 1
        limits = self.limits
        before = self.workspace.begin_call()
        guest = self._live_guest(deadline)
        started = time.perf_counter()
        self._host.start_call()
        outcome = guest.call(
            data,
            timeout_s=max(0.0, deadline - time.monotonic()),
            fuel=limits.fuel,
            bytes_left=max(0, limits.workspace_bytes - before.bytes),
            files_left=max(0, limits.workspace_files - before.files),
            max_response_bytes=protocol.max_response_bytes(limits.max_output_bytes),
            host=self._host,
            deadline=deadline,
        )
        elapsed_ms = int((time.perf_counter() - started) * 1000)
        after, changed = self.workspace.end_call()
        try:
            result, reset = results.translate(
                tool,
                outcome,
                after,
                changed,
                elapsed_ms=elapsed_ms,
                timeout_s=timeout_s,
                limits=limits,
            )
        except Exception as exc:  # a response the host cannot make sense of is the guest's fault
            result, reset = (
                results.crashed(
                    tool,
                    outcome,
                    changed,
                    elapsed_ms=elapsed_ms,
                    limits=limits,
                    detail=f"bad response: {exc}",
                ),
                True,
            )
        if reset:
            self._reset_guest()
        return result

    def _reset_guest(self) -> None:
        guest, self._guest = self._guest, None
        if guest is not None:
            guest.close()
        self._drop_image()
        # A fresh interpreter reseeds itself on its first call.
        self._set_state(SessionState.EMPTY)
        self.resets += 1
        # If a fresh interpreter cannot be made now, the next call tries again (and says why).
        self._guest = self._new_guest()
        self._set_state(SessionState.LIVE)

    async def reset(self) -> None:
        """Replace the interpreter with a fresh one from the snapshot; the workspace is kept."""
        await self._locked(self._reset_guest)

    # -- files -----------------------------------------------------------------------------------

    async def list_files(self, path: str = ".") -> list[FileInfo]:
        """One level of the workspace directory `path`.

        Raises:
            PathOutsideWorkspaceError, WorkspaceFileNotFoundError, NotAFileError.
        """
        result: list[FileInfo] = await self._locked(lambda: self.workspace.list(path))
        return result

    async def read_file(self, path: str) -> tuple[bytes, str]:
        """A workspace file's bytes and media type.

        Raises:
            PathOutsideWorkspaceError, WorkspaceFileNotFoundError, NotAFileError, TooLargeError.
        """
        limit = max(self.limits.workspace_bytes, self.limits.max_file_bytes)
        result: tuple[bytes, str] = await self._locked(
            lambda: self.workspace.read(path, max_bytes=limit)
        )
        return result

    async def write_file(self, path: str, data: bytes) -> FileInfo:
        """Write `data` to the workspace file `path`, creating parent directories.

        Refuses, without writing anything, data over `max_file_bytes` or over the workspace
        quota.

        Raises:
            TooLargeError, PathOutsideWorkspaceError, NotAFileError.
        """
        if len(data) > self.limits.max_file_bytes:
            raise TooLargeError("the file", len(data), self.limits.max_file_bytes)

        def write() -> FileInfo:
            usage = self.workspace.usage()
            rel = self.workspace.write(
                path,
                data,
                usage=usage,
                bytes_limit=self.limits.workspace_bytes,
                files_limit=self.limits.workspace_files,
            )
            return FileInfo(path=rel, size_bytes=len(data), mime_type=None, modified_at=time.time())

        result: FileInfo = await self._locked(write)
        return result

    # -- end -------------------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Destroy the interpreter and the workspace. Idempotent.

        Waits for a call already running (it ends by its deadline at the latest); queued calls
        get `SessionClosedError`.
        """
        if self.closed:
            return
        self._state = SessionState.CLOSED
        with anyio.CancelScope(shield=True):
            async with self._lock:
                guest, self._guest = self._guest, None
                if guest is not None:
                    await anyio.to_thread.run_sync(guest.close)
                await anyio.to_thread.run_sync(self._drop_image)
                await anyio.to_thread.run_sync(self.workspace.remove)
                self._worker.close()

    # -- images: suspend, resume, fork -----------------------------------------------------------

    def _record(self) -> SessionRecord:
        """What the session's image keeps besides its memory."""
        return SessionRecord(
            session_id=self.session_id,
            created_at=self.created_at,
            last_activity_at=self.last_activity_at,
            limits=self.limits,
            image=self.image,
            calls=self.calls,
            resets=self.resets,
        )

    def _live_guest(self, deadline: float | None = None) -> Guest:
        """The interpreter, resumed from the image if the session is suspended, or made fresh
        if there is none (a reset that could not make one); a fork's reseeded first, by
        `deadline` (monotonic seconds) at the latest. Worker thread, lock held.

        Raises:
            SessionLostError: the image cannot be restored; the session is gone.
        """
        if self._guest is None:
            suspended = self._state is SessionState.SUSPENDED
            self._guest = self._resume() if suspended else self._new_guest()
            self._set_state(SessionState.LIVE)
        if self._state is SessionState.FORKED:
            self._reseed(self._guest, deadline)
        assert self._guest is not None
        return self._guest

    def _resume(self) -> Guest:
        image = open_state(self.image_path, self._engine.artifact.sha256, self.limits.memory_bytes)
        try:
            with image as (header, body):
                if header.session.session_id != self.session_id:
                    raise StateFileError("the session image belongs to another session")
                guest = self._new_guest()
                try:
                    guest.restore(
                        header.memory_bytes,
                        header.stack_pointer,
                        lambda base: decompress_pages(header, body, base),
                    )
                except BaseException:
                    guest.close()
                    raise
        except (StateFileError, InterpreterError, OSError) as exc:
            _log.error("session %s cannot be resumed: %s", self.session_id, exc)
            self._state = SessionState.CLOSED  # the pool forgets it (`get_session`, `reap`)
            self._drop_image()
            self.workspace.remove()
            raise SessionLostError(self.session_id, str(exc)) from exc
        self._drop_image()
        return guest

    def _drop_image(self) -> None:
        try:
            self.image_path.unlink(missing_ok=True)
        except OSError as exc:
            _log.warning("could not remove the image of session %s: %s", self.session_id, exc)

    def _suspend_now(self, *, close_files: bool, idle_s: float | None = None) -> bool:
        """Write the interpreter's state to the image and release it; worker thread, lock held.
        False when it stays live (files held open, or used within `idle_s`)."""
        if self._state is SessionState.SUSPENDED:
            return True
        if idle_s is not None and time.time() - self.last_activity_at < idle_s:
            return False
        if self._state is SessionState.FORKED and self._guest is not None:
            self._live_guest()  # a fork's own randomness first: the image keeps it
        guest = self._guest
        if guest is None:
            return True  # no interpreter state: the next call starts a fresh one, as it would
        if guest.open_files() and close_files:
            bytes_left, files_left = self._host.quota_left()
            closing = protocol.CloseFilesRequest()
            answer = guest.request(
                closing,
                bytes_left=bytes_left,
                files_left=files_left,
                timeout_s=protocol.HOUSEKEEPING_S,
            )
            if answer is None:
                return False  # the interpreter failed at it: its state is not to be kept
        if guest.open_files() or self._pristine is None:
            return False
        runs = guest.changed_runs(self._pristine)
        header = StateHeader(
            artifact_sha256=self._engine.artifact.sha256,
            memory_bytes=guest.memory_bytes(),
            stack_pointer=guest.stack_pointer(),
            runs=runs,
            session=self._record(),
        )
        write_state(self.image_path, header, guest.pages(runs))
        self._guest = None
        self._set_state(SessionState.SUSPENDED)
        guest.close()
        return True

    async def suspend(self, *, idle_s: float | None = None) -> bool:
        """Write the interpreter's state to disk and release its memory; the next call resumes
        it. Returns False, leaving the session live, when its code holds files open (they
        would not carry over) or, with `idle_s`, when it was used within the last `idle_s`
        seconds. Does not count as activity.

        Raises:
            SessionClosedError: the session is being destroyed.
        """
        done: bool = await self._locked(
            lambda: self._suspend_now(close_files=False, idle_s=idle_s), activity=False
        )
        return done

    async def fork(self) -> Session:
        """Deprecated: use `Pool.fork_session(session.session_id)`, the one way to fork; this
        goes in the next release. A new session with a copy of this one's interpreter state and
        workspace.

        Raises:
            SessionStateError, CapacityError, SessionClosedError, SessionLostError: as
                `Pool.fork_session`.
        """
        warnings.warn(
            "Session.fork() is deprecated: use Pool.fork_session(session_id); the old name goes"
            " in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        if self._fork is None:
            raise RuntimeError("this session was not made by a pool, which forks it")
        return await self._fork(self)

    def _reseed(self, guest: Guest, deadline: float | None) -> None:
        """Fresh randomness for a fork, within `HOUSEKEEPING_S` and `deadline`. A fork that
        cannot take it (its code broke the interpreter) is given a fresh interpreter instead,
        which seeds itself: it never keeps its source's random state, and never fails every
        call."""
        timeout_s = protocol.HOUSEKEEPING_S
        if deadline is not None:
            timeout_s = min(timeout_s, max(0.0, deadline - time.monotonic()))
        bytes_left, files_left = self._host.quota_left()
        answer = guest.request(
            protocol.ReseedRequest(),
            bytes_left=bytes_left,
            files_left=files_left,
            timeout_s=timeout_s,
        )
        self._set_state(SessionState.LIVE)
        if answer is None:
            _log.warning(
                "session %s: the forked interpreter did not take fresh randomness; it is"
                " replaced by a fresh one",
                self.session_id,
            )
            self._reset_guest()

    # -- files in pieces -------------------------------------------------------------------------

    async def open_file(self, path: str) -> WorkspaceFile:
        """Open a workspace file to read it in pieces (`WorkspaceFile.read`), never whole.

        The path is resolved and the file opened (O_NOFOLLOW) under the session's lock; the
        lock is released before this returns, so reading waits for no call and holds none up.
        The caller closes the file.

        Raises:
            PathOutsideWorkspaceError, WorkspaceFileNotFoundError, NotAFileError, TooLargeError.
        """
        limit = max(self.limits.workspace_bytes, self.limits.max_file_bytes)
        opened: WorkspaceFile = await self._locked(
            lambda: self.workspace.open_file(path, max_bytes=limit)
        )
        return opened

    async def new_upload(self) -> Upload:
        """An empty upload to receive a file in pieces, spooled outside the workspace (in the
        pool's private directory) and capped at `max_file_bytes`. Place it with
        `place_upload`; discard it if it is not placed.

        Raises:
            SessionClosedError: the session is being destroyed.
        """
        if self.closed:
            raise SessionClosedError(self.session_id)
        directory = self.workspace.root.parent
        limit = self.limits.max_file_bytes
        upload: Upload = await anyio.to_thread.run_sync(lambda: Upload(directory, limit))
        return upload

    async def place_upload(self, path: str, upload: Upload) -> FileInfo:
        """Move a received upload into the workspace at `path`, creating parent directories.

        The same refusals as `write_file` (nothing is written): over `max_file_bytes`, over the
        workspace quota, a path escape; and names with control characters.

        Raises:
            TooLargeError, PathOutsideWorkspaceError, NotAFileError, InvalidRequestError.
        """
        check_new_name(path)
        if upload.size_bytes > self.limits.max_file_bytes:
            raise TooLargeError("the file", upload.size_bytes, self.limits.max_file_bytes)
        await upload.flush()
        size = upload.size_bytes

        def place() -> FileInfo:
            rel = self.workspace.place(
                path,
                upload,
                usage=self.workspace.usage(),
                bytes_limit=self.limits.workspace_bytes,
                files_limit=self.limits.workspace_files,
            )
            return FileInfo(path=rel, size_bytes=size, mime_type=None, modified_at=time.time())

        result: FileInfo = await self._locked(place)
        return result

"""A session: one interpreter, one workspace, calls run one at a time in arrival order.

Life of a call: the session's lock is taken (FIFO; a bounded number may wait), the workspace is
scanned (its usage gives the guest its quota; its signatures find the files the call changes),
the request goes into the guest on a worker thread behind the pool's capacity limiter, and the
guest's JSON response becomes an `ExecResult`. A trap (deadline, fuel, stack, exit, crash)
replaces the interpreter with a fresh one from the snapshot, keeping the workspace: a *reset*.

The session owns turn-taking, its lifecycle and its files. What crosses into the guest is
`_protocol`'s; what the guest may ask of the host is `_host`'s; how an outcome becomes a
result (and what the model reads about it) is `_results`'.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import anyio
import msgspec

from . import _protocol as protocol
from . import _results as results
from ._engine import Engine
from ._errors import (
    InvalidRequestError,
    SessionBusyError,
    SessionClosedError,
    TooLargeError,
)
from ._guest import Guest
from ._host import HostServices
from ._settings import Limits
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
from ._workspace import FileInfo, Workspace

__all__ = ["Session", "SessionInfo"]


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
    ) -> None:
        self.session_id = session_id
        self.workspace = workspace
        self.limits = limits
        self.image = image
        self.created_at: float = time.time()
        self.last_activity_at: float = self.created_at
        self._engine = engine
        self._limiter = limiter
        self._worker = SessionWorker(f"cove-session-{session_id[:8]}")
        self._lock = anyio.Lock()
        self._max_queued = max_queued_calls
        self._retry_after_s = retry_after_s
        self._guest: Guest | None = None
        self._closed = False
        self._host = HostServices(workspace, limits, self._new_guest)
        self.calls: int = 0
        self.resets: int = 0

    @classmethod
    async def create(cls, **kwargs: Any) -> Session:
        """Make a session: its workspace directory and its interpreter, in one worker thread."""
        session = cls(**kwargs)

        def setup() -> None:
            session.workspace.make()
            try:
                session._guest = session._new_guest()
            except BaseException:
                session.workspace.remove()
                raise

        await anyio.to_thread.run_sync(setup, limiter=session._limiter)
        return session

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
        return self._closed

    @property
    def busy(self) -> bool:
        """A call or file operation is running."""
        return self._lock.locked()

    def expired(self, now: float) -> bool:
        """Idle past its idle timeout (and not running a call), or past its lifetime."""
        if now - self.created_at >= self.limits.max_lifetime_s:
            return True
        return not self._lock.locked() and (
            now - self.last_activity_at >= self.limits.idle_timeout_s
        )

    # -- the turn-taking every operation goes through ------------------------------------------

    async def _locked(self, func: Callable[[], Any]) -> Any:
        """Run `func` in a worker thread once every earlier call on this session is done."""
        if self._closed:
            raise SessionClosedError(self.session_id)
        lock = self._lock
        if lock.locked():
            queued = lock.statistics().tasks_waiting
            if queued >= self._max_queued:
                raise SessionBusyError(self.session_id, queued, retry_after_s=self._retry_after_s)
        async with lock:
            if self._closed:
                raise SessionClosedError(self.session_id)
            try:
                return await self._worker.run(func, self._limiter)
            finally:
                self.last_activity_at = time.time()

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
        except msgspec.EncodeError as exc:
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

    def _check_size(self, text: str, what: str) -> None:
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > self.limits.max_request_bytes:
            raise InvalidRequestError(
                f"{what} is {size} bytes; the limit is {self.limits.max_request_bytes} bytes"
            )

    def _run(self, tool: str, data: bytes, timeout_s: float) -> ExecResult:
        """Worker-thread half of a call: scan, run in the guest, scan again, translate."""
        self.calls += 1
        limits = self.limits
        before = self.workspace.scan()
        if self._guest is None:
            self._guest = self._new_guest()
        started = time.perf_counter()
        self._host.begin_call(time.monotonic() + timeout_s)
        outcome = self._guest.call(
            data,
            timeout_s=timeout_s,
            fuel=limits.fuel,
            bytes_left=max(0, limits.workspace_bytes - before.bytes),
            files_left=max(0, limits.workspace_files - before.files),
            max_response_bytes=results.max_response_bytes(limits.max_output_bytes),
            host=self._host,
        )
        elapsed_ms = int((time.perf_counter() - started) * 1000)
        after = self.workspace.scan()
        try:
            result, reset = results.translate(
                tool,
                outcome,
                before,
                after,
                elapsed_ms=elapsed_ms,
                timeout_s=timeout_s,
                limits=limits,
            )
        except Exception as exc:  # a response the host cannot make sense of is the guest's fault
            result, reset = (
                results.crashed(
                    tool,
                    outcome,
                    before,
                    after,
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
        self.resets += 1
        # If a fresh interpreter cannot be made now, the next call tries again (and says why).
        self._guest = self._new_guest()

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
            usage = self.workspace.scan()
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
        if self._closed:
            return
        self._closed = True
        with anyio.CancelScope(shield=True):
            async with self._lock:
                guest, self._guest = self._guest, None
                if guest is not None:
                    await anyio.to_thread.run_sync(guest.close)
                await anyio.to_thread.run_sync(self.workspace.remove)
                self._worker.close()

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
        if self._closed:
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
                usage=self.workspace.scan(),
                bytes_limit=self.limits.workspace_bytes,
                files_limit=self.limits.workspace_files,
            )
            return FileInfo(path=rel, size_bytes=size, mime_type=None, modified_at=time.time())

        result: FileInfo = await self._locked(place)
        return result

"""A session: one interpreter, one workspace, calls run one at a time in arrival order.

Life of a call: the session's lock is taken (FIFO; a bounded number may wait), the workspace is
scanned (its usage gives the guest its quota; its signatures find the files the call changes),
the request goes into the guest on a worker thread behind the pool's capacity limiter, and the
guest's JSON response becomes an `ExecResult`. A trap (deadline, fuel, stack, exit, crash)
replaces the interpreter with a fresh one from the snapshot, keeping the workspace: a *reset*.

One module over the usual size: the turn-taking, the translation of outcomes and the host
services a call uses (the shell's `python`) all act on one session's interpreter and lock.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable
from typing import Annotated, Any

import anyio
import msgspec

from ._engine import Engine, HostCall
from ._errors import (
    InterpreterError,
    InvalidRequestError,
    SessionBusyError,
    SessionClosedError,
    TooLargeError,
)
from ._guest import Guest, GuestOutcome, Trapped
from ._settings import Limits, MiB
from ._tools import (
    BashExecution,
    CodeExecution,
    CodeExecutionInput,
    ExecResult,
    FileRef,
    Outcome,
    TextEditor,
    ToolCall,
)
from ._transfer import Upload, WorkspaceFile, check_new_name
from ._workspace import FileInfo, Usage, Workspace, changed_files

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


# What the guest's driver answers. Guest code can forge it, so every field is bounded: a
# response outside these shapes is the guest's crash, never an error of the host's.
_ReturnCode = Annotated[int, msgspec.Meta(ge=-(2**31), lt=2**31)]
_Count = Annotated[int, msgspec.Meta(ge=0, lt=2**62)]


class _GuestResponse(msgspec.Struct, frozen=True):
    stdout: str = ""
    stderr: str = ""
    return_code: _ReturnCode = 0
    stdout_dropped: _Count = 0
    stderr_dropped: _Count = 0
    exc_type: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    error: str | None = None


_response_decoder = msgspec.json.Decoder(_GuestResponse)


class _HostRequest(msgspec.Struct, frozen=True):
    op: str
    data: object = None


_host_request_decoder = msgspec.json.Decoder(_HostRequest)


class _PythonRequest(msgspec.Struct, frozen=True):
    argv: list[str]
    cwd: str = "/workspace"
    env: dict[str, str] = msgspec.field(default_factory=dict[str, str])
    stdin_b64: str = ""


_python_request_decoder = msgspec.json.Decoder(_PythonRequest)


_RESET_NOTE = (
    "the interpreter was reset: variables and imports are gone, files in /workspace are kept"
)


def _fmt_bytes(n: int) -> str:
    return f"{n / MiB:g} MiB" if n >= MiB else f"{n} bytes"


def _fmt_s(seconds: float) -> str:
    return f"{seconds:g} s"


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
        self._lock = anyio.Lock()
        self._max_queued = max_queued_calls
        self._retry_after_s = retry_after_s
        self._guest: Guest | None = None
        self._closed = False
        self._deadline = 0.0
        # The memory limit of each interpreter running in the current call, outermost first:
        # a nested `python` gets what its caller leaves of the session's limit.
        self._memory_limits: list[int] = []
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
                return await anyio.to_thread.run_sync(func, limiter=self._limiter)
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
        payload: dict[str, object]
        if isinstance(call, BashExecution):
            self._check_size(call.input.command, "command")
            payload = {"op": "bash", "command": call.input.command}
        elif isinstance(call, CodeExecution):
            self._check_size(call.input.code, "code")
            payload = {"op": "exec", "code": call.input.code}
        else:
            assert isinstance(call, TextEditor)
            fields = msgspec.structs.asdict(call.input)
            for name in ("file_text", "old_str", "new_str"):
                value = fields.get(name)
                if isinstance(value, str):
                    self._check_size(value, name)
            payload = {"op": "edit", **{k: v for k, v in fields.items() if v is not None}}
        payload["max_output_bytes"] = self.limits.max_output_bytes
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8", "surrogatepass")
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
        self._deadline = time.monotonic() + timeout_s
        self._memory_limits = [limits.memory_bytes]
        outcome = self._guest.call(
            data,
            timeout_s=timeout_s,
            fuel=limits.fuel,
            bytes_left=max(0, limits.workspace_bytes - before.bytes),
            files_left=max(0, limits.workspace_files - before.files),
            max_response_bytes=_max_response_bytes(limits.max_output_bytes),
            host=self._host_call,
        )
        elapsed_ms = int((time.perf_counter() - started) * 1000)
        after = self.workspace.scan()
        try:
            return self._translate(tool, outcome, before, after, elapsed_ms, timeout_s)
        except Exception as exc:  # a response the host cannot make sense of is the guest's fault
            bad = msgspec.structs.replace(
                outcome, response=None, trapped=Trapped.CRASH, detail=f"bad response: {exc}"
            )
            return self._trap_result(bad, timeout_s, _common(tool, bad, before, after, elapsed_ms))

    def _reset_guest(self) -> None:
        guest, self._guest = self._guest, None
        if guest is not None:
            guest.close()
        self.resets += 1
        # If a fresh interpreter cannot be made now, the next call tries again (and says why).
        self._guest = self._new_guest()

    def _translate(
        self,
        tool: str,
        outcome: GuestOutcome,
        before: Usage,
        after: Usage,
        elapsed_ms: int,
        timeout_s: float,
    ) -> ExecResult:
        """The one place guest outcomes (traps included) become results."""
        common = _common(tool, outcome, before, after, elapsed_ms)
        if outcome.trapped is not None:
            return self._trap_result(outcome, timeout_s, common)
        try:
            response = _response_decoder.decode(outcome.response or b"")
        except msgspec.DecodeError:
            response = _GuestResponse(error="the guest returned an unreadable response")
        if response.error is not None:
            self._reset_guest()
            failed = f"the interpreter failed ({response.error[:200]})"
            return ExecResult(
                stdout="",
                stderr=f"[cove] {failed}; {_RESET_NOTE}\n",
                return_code=1,
                outcome="crash",
                reset=True,
                limit=failed,
                **common,
            )
        limits = self.limits
        # The guest's driver bounds each stream; the host holds it to the same bound, so
        # guest code that lifts its own bound gains nothing.
        stdout, stdout_cut = _bounded(response.stdout, limits.max_output_bytes)
        stderr, stderr_cut = _bounded(response.stderr, limits.max_output_bytes)
        rc = response.return_code
        state: Outcome = "ok" if rc == 0 else "error"
        limit: str | None = None
        if response.exc_type == "MemoryError":
            state = "memory"
            limit = (
                f"execution ran out of memory: the {_fmt_bytes(limits.memory_bytes)} "
                "memory limit was reached"
            )
        if (
            outcome.quota_hit
            or after.bytes > limits.workspace_bytes
            or after.files > limits.workspace_files
        ):
            state = "workspace_full"
            limit = (
                f"the workspace limit was reached ({_fmt_bytes(limits.workspace_bytes)}, "
                f"{limits.workspace_files} files): writes were refused; delete files to free space"
            )
            rc = rc or 1
        stderr = stderr if limit is None else f"{stderr}[cove] {limit}\n"
        return ExecResult(
            stdout=stdout,
            stderr=stderr,
            return_code=rc,
            outcome=state,
            limit=limit,
            stdout_dropped_bytes=response.stdout_dropped + stdout_cut,
            stderr_dropped_bytes=response.stderr_dropped + stderr_cut,
            **common,
        )

    def _trap_result(
        self, outcome: GuestOutcome, timeout_s: float, common: dict[str, Any]
    ) -> ExecResult:
        self._reset_guest()
        trapped = outcome.trapped
        if trapped is Trapped.EXIT:
            code = outcome.exit_code if outcome.exit_code is not None else 1
            return ExecResult(
                stdout="",
                stderr=f"[cove] the interpreter exited with status {code}; {_RESET_NOTE}\n",
                return_code=code,
                outcome="exit",
                reset=True,
                **common,
            )
        state: Outcome
        if trapped is Trapped.TIMEOUT:
            state, rc = "timeout", 124
            limit = f"execution exceeded the {_fmt_s(timeout_s)} time limit and was stopped"
        elif trapped is Trapped.OUT_OF_FUEL:
            state, rc = "out_of_fuel", 124
            limit = f"execution used up its fuel budget of {self.limits.fuel} units and was stopped"
        elif trapped is Trapped.STACK_OVERFLOW:
            state, rc = "stack_overflow", 1
            limit = "execution overflowed the interpreter's stack (recursion too deep)"
        else:
            state, rc = "crash", 1
            first_line = outcome.detail.splitlines()[0] if outcome.detail else "trap"
            limit = f"the interpreter crashed ({first_line})"
        return ExecResult(
            stdout="",
            stderr=f"[cove] {limit}; {_RESET_NOTE}\n",
            return_code=rc,
            outcome=state,
            reset=True,
            limit=limit,
            **common,
        )

    def _host_call(self, call: HostCall) -> bytes:
        """Requests guest code makes through `_cove.host_call` (JSON in, JSON out).

        `echo` answers its data back; `python` (the shell's python command) runs
        `python ARGV...` in a fresh interpreter from the snapshot on the same workspace, within
        what is left of the calling call's deadline, fuel and memory.
        """
        try:
            message = _host_request_decoder.decode(call.request)
        except msgspec.DecodeError as exc:
            return _error_reply(f"malformed request: {exc}")
        if message.op == "echo":
            return msgspec.json.encode({"ok": True, "echo": message.data})
        if message.op == "python":
            return self._nested_python(call)
        return _error_reply(f"unknown host operation {message.op[:100]!r}")

    def _nested_python(self, call: HostCall) -> bytes:
        try:
            spec = _python_request_decoder.decode(call.request)
        except msgspec.DecodeError as exc:
            return _error_reply(f"malformed python request: {exc}")
        depth = self.limits.max_nested_python
        if len(self._memory_limits) > depth:
            return _error_reply(f"python nested more than {depth} levels deep")
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            return _error_reply("no time left in this call")
        # One memory limit for the session, whatever runs inside it: the nested interpreter
        # gets what its caller has not used.
        memory_left = self._memory_limits[-1] - call.memory_bytes
        payload = msgspec.json.encode(
            {
                "op": "script",
                "argv": spec.argv,
                "cwd": spec.cwd,
                "env": spec.env,
                "stdin_b64": spec.stdin_b64,
                "max_output_bytes": self.limits.max_output_bytes,
            }
        )
        usage = self.workspace.scan()
        try:
            guest = self._new_guest(memory_left)
        except InterpreterError:
            return _error_reply(
                f"not enough memory left for another interpreter ({_fmt_bytes(max(0, memory_left))}"
                f" of the session's {_fmt_bytes(self.limits.memory_bytes)} limit)"
            )
        self._memory_limits.append(memory_left)
        saved_deadline = self._deadline
        try:
            outcome = guest.call(
                payload,
                timeout_s=remaining,
                fuel=call.fuel_left,
                bytes_left=max(0, self.limits.workspace_bytes - usage.bytes),
                files_left=max(0, self.limits.workspace_files - usage.files),
                max_response_bytes=_max_response_bytes(self.limits.max_output_bytes),
                host=self._host_call,
            )
        finally:
            self._memory_limits.pop()
            self._deadline = saved_deadline
            guest.close()
        # Nested work is the caller's work: it counts against the caller's fuel.
        call.fuel_spent = outcome.fuel_used or 0
        return _nested_reply(outcome, self.limits.max_output_bytes)

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


def _common(
    tool: str, outcome: GuestOutcome, before: Usage, after: Usage, elapsed_ms: int
) -> dict[str, Any]:
    files = tuple(
        FileRef(file_id=p, filename=p.rsplit("/", 1)[-1]) for p in changed_files(before, after)
    )
    return {
        "tool": tool,
        "files": files,
        "execution_time_ms": elapsed_ms,
        "fuel_used": outcome.fuel_used,
        "peak_memory_bytes": outcome.memory_bytes,
    }


def _max_response_bytes(max_output_bytes: int) -> int:
    """The longest response a guest driver that bounds its streams can give: two streams of
    `max_output_bytes`, each byte escaped to at most 6 in JSON, plus room for the rest."""
    return 2 * 6 * max_output_bytes + (64 << 10)


# Room for the guest driver's own truncation line on top of the kept bytes.
_TRUNCATION_SLACK = 200


def _bounded(text: str, limit: int) -> tuple[str, int]:
    """`text` cut to `limit` UTF-8 bytes (with a note), and how many bytes were cut."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit + _TRUNCATION_SLACK:
        return text, 0
    cut = len(data) - limit
    kept = data[:limit].decode("utf-8", "ignore")
    return f"{kept}\n[output truncated: {cut} more bytes were dropped]\n", cut


def _error_reply(message: str) -> bytes:
    return msgspec.json.encode({"error": message})


_NESTED_TRAPS = {
    Trapped.TIMEOUT: "python: killed: the call's time limit was reached",
    Trapped.OUT_OF_FUEL: "python: killed: the fuel budget was used up",
    Trapped.STACK_OVERFLOW: "python: the interpreter's stack overflowed",
}


def _nested_reply(outcome: GuestOutcome, max_output_bytes: int) -> bytes:
    """A nested interpreter's outcome as the shell's python command reports it."""
    if outcome.trapped is Trapped.EXIT:
        code = outcome.exit_code if outcome.exit_code is not None else 1
        return msgspec.json.encode({"stdout": "", "stderr": "", "return_code": code})
    if outcome.trapped is not None:
        words = _NESTED_TRAPS.get(
            outcome.trapped, f"python: the interpreter crashed ({outcome.detail[:200]})"
        )
        return msgspec.json.encode({"stdout": "", "stderr": words + "\n", "return_code": 137})
    try:
        response = _response_decoder.decode(outcome.response or b"")
    except msgspec.DecodeError:
        response = _GuestResponse(error="the nested interpreter returned an unreadable response")
    if response.error is not None:
        return msgspec.json.encode(
            {"stdout": "", "stderr": f"python: {response.error[:200]}\n", "return_code": 1}
        )
    stdout, _ = _bounded(response.stdout, max_output_bytes)
    stderr, _ = _bounded(response.stderr, max_output_bytes)
    return msgspec.json.encode(
        {"stdout": stdout, "stderr": stderr, "return_code": response.return_code}
    )

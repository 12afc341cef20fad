"""The routes: the contract's six operations (`SessionController`, plus the fork extension) and
the operations endpoints (`/health`, `/ready`, `/metrics`, `/schema/openapi.json`).

Handlers are declared at module level; what they share (the pool, the settings, the metrics,
how far an owned pool's opening has come) is one `AppState`, kept in the app's `state` and
which Litestar hands them as `state`. ExecuteToolCall's work is `execute_call`, which the
route and the plain-ASGI fast path (`_edge.ExecFastPath`) both run.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import msgspec
from litestar import Controller, Request, Response, delete, get, post
from litestar.datastructures import State
from litestar.exceptions import InternalServerException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.params import FromPath, FromQuery
from litestar.types import Receive, Scope

import cove
import cove.tools

from ._files import FileDownload, receive_upload
from ._metrics import Metrics
from ._settings import ServerSettings
from ._wire import (
    CreateSessionRequest,
    ExecResponse,
    FileList,
    FileUploadResult,
    SessionHandle,
    new_tool_use_id,
)

__all__ = [
    "EXEC_FAST_PATH",
    "OPERATIONS",
    "AppState",
    "SessionController",
    "app_state_of",
    "execute_call",
]

# The route option marking ExecuteToolCall, which `_edge.ExecFastPath` serves itself.
EXEC_FAST_PATH = "cove_exec_fast_path"

_create_decoder = msgspec.json.Decoder(CreateSessionRequest)
_exec_encoder = msgspec.json.Encoder()


class AppState:
    """What the routes and the middleware share, one per app (`app.state.cove`)."""

    __slots__ = ("draining", "failure", "metrics", "openapi", "pool", "settings")

    def __init__(
        self,
        pool: cove.Pool,
        settings: ServerSettings,
        *,
        metrics: Metrics,
        openapi: bytes,
        draining: threading.Event | None,
    ) -> None:
        self.pool = pool
        self.settings = settings
        self.metrics = metrics
        self.openapi = openapi  # the served document, encoded
        self.draining = draining
        self.failure: str | None = None  # why an owned pool did not open

    def is_draining(self) -> bool:
        return self.draining is not None and self.draining.is_set()

    def serving(self) -> bool:
        """Whether `/health` answers 200: the pool is open and the server is not draining."""
        return self.pool.alive and not self.is_draining()

    def status(self) -> dict[str, Any]:
        """`/health`'s body (and part of `/ready`'s): ok, draining, or how far the opening is."""
        if self.is_draining():
            return {"status": "draining"}
        if self.pool.alive:
            return {"status": "ok"}
        if self.failure is not None:
            return {"status": "failed", "error": self.failure}
        if self.pool.opening is not None:
            return {
                "status": "starting",
                "stage": self.pool.opening,
                "elapsed_s": round(time.monotonic() - self.pool.opening_since, 1),
            }
        return {"status": "unavailable"}


def app_state_of(state: State) -> AppState:
    """The app's `AppState`, from the `state` Litestar hands a handler."""
    app_state: AppState = state.cove
    return app_state


async def read_body(scope: Scope, receive: Receive, limit: int) -> bytes:
    """A request's whole body, refused past `limit` bytes (announced or received) with 413,
    as Litestar's `Request.body` refuses it."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                announced = int(value)
            except ValueError:
                break
            if announced > limit:
                raise RequestEntityTooLarge
            break
    chunks: list[bytes] = []
    total = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise InternalServerException("client disconnected prematurely")
        if message["type"] != "http.request":
            continue
        chunk = message.get("body", b"")
        if chunk:
            total += len(chunk)
            if total > limit:
                raise RequestEntityTooLarge
            chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


async def execute_call(app_state: AppState, scope: Scope, receive: Receive) -> bytes:
    """ExecuteToolCall's work: the session, the body (Litestar's limit), the call, the
    encoded reply."""
    session = app_state.pool.get_session(scope["path_params"]["session_id"])
    call = cove.tools.decode_tool_call(
        await read_body(scope, receive, app_state.settings.max_body_bytes)
    )
    started = time.perf_counter()
    result = await session.execute(call)
    app_state.metrics.record_call(result, time.perf_counter() - started)
    return _exec_encoder.encode(ExecResponse.of(call.tool_use_id or new_tool_use_id(), result))


class SessionController(Controller):
    """The contract's operations on sessions and their files, and the fork extension."""

    path = "/sessions"

    @post("/", status_code=201)
    async def create_session(self, request: Request[Any, Any, Any], state: State) -> SessionHandle:
        body = await request.body()
        try:
            hints = _create_decoder.decode(body) if body.strip() else CreateSessionRequest()
        except msgspec.DecodeError as exc:
            raise cove.InvalidRequestError(f"malformed CreateSession body: {exc}") from exc
        options = cove.SessionOptions(
            idle_timeout_s=hints.idle_timeout_seconds,
            max_lifetime_s=hints.max_lifetime_seconds,
            image=hints.image,
        )
        session = await app_state_of(state).pool.create_session(options)
        return SessionHandle.of(session.info())

    @post("/{session_id:str}/fork", status_code=201)
    async def fork_session(self, session_id: FromPath[str], state: State) -> SessionHandle:
        child = await app_state_of(state).pool.fork_session(session_id)
        return SessionHandle.of(child.info())

    @delete("/{session_id:str}", status_code=204)
    async def destroy_session(self, session_id: FromPath[str], state: State) -> None:
        await app_state_of(state).pool.destroy_session(session_id)

    @post("/{session_id:str}/exec", status_code=200, opt={EXEC_FAST_PATH: True})
    async def execute(self, request: Request[Any, Any, Any], state: State) -> Response[bytes]:
        """ExecuteToolCall. `ExecFastPath` serves this route's requests without reaching here;
        the route still does the routing, and this handler gives the same reply wherever the
        fast path is not taken."""
        payload = await execute_call(app_state_of(state), request.scope, request.receive)
        return Response(payload, media_type="application/json")

    @get("/{session_id:str}/files/list")
    async def list_files(
        self, session_id: FromPath[str], state: State, path: FromQuery[str] = "."
    ) -> FileList:
        session = app_state_of(state).pool.get_session(session_id)
        return FileList(files=await session.list_files(path))

    @get("/{session_id:str}/files")
    async def get_file(
        self, session_id: FromPath[str], path: FromQuery[str], state: State
    ) -> FileDownload:
        app_state = app_state_of(state)
        session = app_state.pool.get_session(session_id)
        if not path:
            raise cove.InvalidRequestError("path must not be empty")
        # From here the response owns the open file and closes it, whatever happens.
        stall_s = app_state.settings.body_idle_timeout_s
        return FileDownload(await session.open_file(path), path=path, stall_s=stall_s)

    @post("/{session_id:str}/files", status_code=201)
    async def put_file(
        self, session_id: FromPath[str], request: Request[Any, Any, Any], state: State
    ) -> FileUploadResult:
        app_state = app_state_of(state)
        session = app_state.pool.get_session(session_id)
        limit = app_state.settings.max_body_bytes
        return await receive_upload(request, session, max_body_bytes=limit)


def _json(body: Any, status: int = 200) -> Response[bytes]:
    return Response(msgspec.json.encode(body), media_type="application/json", status_code=status)


@get("/health")
async def health(state: State) -> Response[bytes]:
    app_state = app_state_of(state)
    return _json(app_state.status(), 200 if app_state.serving() else 503)


@get("/ready")
async def ready(state: State) -> Response[bytes]:
    app_state = app_state_of(state)
    stats = app_state.pool.statistics()
    is_ready = app_state.pool.ready and app_state.serving()
    body = {
        "ready": is_ready,
        "sessions": stats.sessions,
        "max_sessions": stats.max_sessions,
        "artifact_sha256": stats.artifact_sha256,
        **app_state.status(),
    }
    return _json(body, 200 if is_ready else 503)


@get("/metrics")
async def prometheus(state: State) -> Response[str]:
    app_state = app_state_of(state)
    text = app_state.metrics.render(app_state.pool.statistics())
    return Response(content=text, media_type="text/plain; version=0.0.4")


@get("/schema/openapi.json")
async def openapi(state: State) -> Response[bytes]:
    return Response(content=app_state_of(state).openapi, media_type="application/json")


OPERATIONS = [health, ready, prometheus, openapi]

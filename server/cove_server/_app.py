"""The Litestar app: the contract's six operations, operations endpoints, auth and logging.

`create_app()` builds a fresh app (no module-level state). Given no pool, the app owns one: it
opens it at startup (with `open_in_background`, as `cove serve` does, startup returns at once
and the pool opens behind it, so the server answers while the interpreter is prepared:
`/health` and `/ready` say how far along it is, with 503, and every contract operation answers
503 with `Retry-After`); at shutdown it destroys every session and its directory, or, if the
pool is still opening, leaves the compile behind.
"""

from __future__ import annotations

import hmac
import json
import logging
import pathlib
import re
import threading
import time
from collections.abc import AsyncGenerator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import msgspec
from litestar import Litestar, Request, Response, delete, get, post
from litestar.exceptions import HTTPException, InternalServerException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.params import FromPath, FromQuery
from litestar.types import ASGIApp, Receive, Scope, Send

import cove
import cove.tools

from ._deadlines import BodyDeadline
from ._errors import cove_error_handler, handle_http_exception, handle_unexpected
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

__all__ = ["create_app"]

access_log = logging.getLogger("cove_server.access")

_CONTRACT = pathlib.Path(__file__).with_name("contract-openapi.json")
_OPEN_PATHS = frozenset({"/health", "/ready"})
_SESSION_SEGMENT = re.compile(r"^/sessions/[^/]+")
_create_decoder = msgspec.json.Decoder(CreateSessionRequest)
_exec_encoder = msgspec.json.Encoder()
_JSON_TYPE = (b"content-type", b"application/json")


_UNAUTHORIZED_START: dict[str, Any] = {
    "type": "http.response.start",
    "status": 401,
    "headers": [(b"content-type", b"application/json"), (b"www-authenticate", b"Bearer")],
}
_UNAUTHORIZED_BODY: dict[str, Any] = {
    "type": "http.response.body",
    "body": b'{"detail": "missing or invalid bearer token", "error": "Unauthorized"}',
}


def _route_of(path: str) -> str:
    if not path.startswith("/sessions/"):
        return path
    return _SESSION_SEGMENT.sub("/sessions/{session_id}", path, count=1)


class _Edge:
    """ASGI middleware: bearer-token check (constant time) and one structured log line per
    request (method, route, status, duration; never bodies, never the token). A route whose
    handler function is in `fast` is served by the plain ASGI app given for it instead of the
    rest of Litestar's chain (the exec route: `exec_app`)."""

    def __init__(
        self, app: ASGIApp, token: str | None, metrics: Metrics, fast: dict[Any, Any]
    ) -> None:
        self.app: Any = app
        self.token = token.encode() if token else None
        self.metrics = metrics
        self.fast = fast

    # Plain ASGI, typed loosely on purpose: scopes and messages are dictionaries by protocol.
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        path = str(scope["path"])

        async def send_wrapper(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            if self.token is not None and path not in _OPEN_PATHS and not self._authorised(scope):
                body = json.dumps(
                    {"detail": "missing or invalid bearer token", "error": "Unauthorized"}
                )
                await send_wrapper(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                        ],
                    }
                )
                await send_wrapper({"type": "http.response.body", "body": body.encode()})
                return
            handler = scope.get("route_handler")
            app = self.fast.get(getattr(handler, "fn", None), self.app)
            await app(scope, receive, send_wrapper)
        finally:
            route = _route_of(path)
            method = str(scope["method"])
            self.metrics.record_http(method, route, status)
            if access_log.isEnabledFor(logging.INFO):
                access_log.info(
                    "request",
                    extra={
                        "http": {
                            "method": method,
                            "route": route,
                            "status": status,
                            "duration_ms": round((time.perf_counter() - started) * 1000, 3),
                        }
                    },
                )

    def _authorised(self, scope: Any) -> bool:
        assert self.token is not None
        for name, value in scope["headers"]:
            if name == b"authorization":
                scheme, _, credential = value.partition(b" ")
                if scheme.lower() == b"bearer":
                    return hmac.compare_digest(credential.strip(), self.token)
        return False


def _handler_for(handlers: dict[int | type[Exception], Any], exc: Exception) -> Any:
    """The exception handler Litestar would pick for `exc`: the nearest class in its MRO."""
    for cls in type(exc).__mro__:
        if cls in handlers:
            return handlers[cls]
    return handlers[Exception]


async def _read_body(scope: Scope, receive: Receive, limit: int) -> bytes:
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


def _served_openapi() -> dict[str, Any]:
    """The contract's OpenAPI document, plus Cove's operations endpoints."""
    doc: dict[str, Any] = json.loads(_CONTRACT.read_text())
    doc["info"] = {**doc["info"], "title": "Cove (Otari code-execution protocol, contract v1)"}
    doc["servers"] = [{"url": "/"}]
    plain = {"200": {"description": "OK"}}
    doc["paths"]["/health"] = {
        "get": {
            "operationId": "Health",
            "summary": "Liveness",
            "responses": {
                **plain,
                "503": {"description": "The pool is not open, or the server is draining"},
            },
        }
    }
    doc["paths"]["/ready"] = {
        "get": {
            "operationId": "Ready",
            "summary": "Readiness",
            "responses": {**plain, "503": {"description": "Not ready"}},
        }
    }
    doc["paths"]["/metrics"] = {
        "get": {"operationId": "Metrics", "summary": "Prometheus metrics", "responses": plain}
    }
    doc["paths"]["/sessions/{session_id}/fork"] = {
        "post": {
            "operationId": "ForkSession",
            "summary": "Fork a session (Cove extension, not part of contract v1)",
            "description": (
                "A new session with a copy of the session's interpreter state (variables, "
                "imports, working directory, environment) and of its workspace, with its own "
                "id, random state and clocks, and the same limits. Additive: the contract's "
                "own operations are unchanged."
            ),
            "x-cove-extension": True,
            "parameters": [{"$ref": "#/components/parameters/SessionId"}],
            "responses": {
                "201": {
                    "description": "The new session",
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/SessionHandle"}
                        }
                    },
                },
                "401": {"$ref": "#/components/responses/Unauthorized"},
                "404": {"description": "No such session"},
                "409": {"description": "The session's code holds files open"},
                "503": {"description": "At capacity"},
            },
        }
    }
    return doc


_PROGRESS_EVERY_S = 10.0  # how often the log says the interpreter is still being prepared


def create_app(
    pool: cove.Pool | None = None,
    settings: ServerSettings | None = None,
    *,
    open_in_background: bool = False,
    on_open_failure: Callable[[BaseException], None] | None = None,
    draining: threading.Event | None = None,
) -> Litestar:
    """A Cove HTTP app.

    Args:
        pool: A pool to serve (its owner opens and closes it). None: the app creates one from
            `settings.pool` and owns it: opened in the background from startup, closed (every
            session destroyed) at shutdown.
        settings: Server settings. None: resolved from the environment
            (`ServerSettings.resolve()`, the defaults `cove serve` uses too).
        open_in_background: Startup returns at once and an owned pool opens behind it (see
            above); otherwise startup returns once the pool is open, or raises.
        on_open_failure: Called (on the event loop) when an owned pool fails to open in the
            background; the failure is logged in one line either way, and `/health` says it.
        draining: Once set, `/health` and `/ready` answer 503 (`{"status": "draining"}`) while
            everything else is served as before: `cove serve` sets it at SIGTERM, for
            `COVE_DRAIN_S` before it stops listening, so routers stop sending first.
    """
    settings = settings if settings is not None else ServerSettings.resolve()
    owned = pool is None
    the_pool = pool if pool is not None else cove.Pool(settings.pool)
    metrics = Metrics()
    openapi_doc = msgspec.json.encode(_served_openapi())
    log = logging.getLogger("cove_server")
    failure: list[str] = []  # why an owned pool did not open

    async def run_pool(closing: anyio.Event, progress: anyio.CancelScope) -> None:
        started = time.monotonic()
        try:
            async with the_pool:
                progress.cancel()
                log.info("ready in %.1f s", time.monotonic() - started)
                await closing.wait()
        except Exception as exc:
            progress.cancel()
            failure.append(str(exc))
            log.error("the interpreter could not be prepared: %s", exc)
            if on_open_failure is not None:
                on_open_failure(exc)

    async def report_progress(progress: anyio.CancelScope) -> None:
        with progress:
            while True:
                await anyio.sleep(_PROGRESS_EVERY_S)
                if the_pool.opening is not None:
                    waited = time.monotonic() - the_pool.opening_since
                    log.info(
                        "still preparing the interpreter: %s (%.0f s)", the_pool.opening, waited
                    )

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncGenerator[None]:
        if not owned:
            yield
            return
        if not open_in_background:
            async with the_pool:
                yield
            return
        closing = anyio.Event()
        progress = anyio.CancelScope()  # the progress log, while the pool opens
        async with anyio.create_task_group() as tg:
            tg.start_soon(run_pool, closing, progress)
            tg.start_soon(report_progress, progress)
            try:
                yield
            finally:
                closing.set()
                progress.cancel()
                if not the_pool.alive:
                    # Still opening (a compile cannot be interrupted): left behind in its
                    # daemon thread, so a stop during the first start is immediate.
                    tg.cancel_scope.cancel()

    def serving() -> bool:
        return the_pool.alive and not (draining is not None and draining.is_set())

    def starting_body() -> dict[str, Any]:
        if draining is not None and draining.is_set():
            return {"status": "draining"}
        if the_pool.alive:
            return {"status": "ok"}
        if failure:
            return {"status": "failed", "error": failure[-1]}
        if the_pool.opening is not None:
            return {
                "status": "starting",
                "stage": the_pool.opening,
                "elapsed_s": round(time.monotonic() - the_pool.opening_since, 1),
            }
        return {"status": "unavailable"}

    async def run_exec(scope: Scope, receive: Receive) -> bytes:
        """ExecuteToolCall's work: the session, the body (Litestar's limit), the call, the
        encoded reply."""
        session = the_pool.get_session(scope["path_params"]["session_id"])
        call = cove.tools.decode_tool_call(
            await _read_body(scope, receive, settings.max_body_bytes)
        )
        started = time.perf_counter()
        result = await session.execute(call)
        metrics.record_call(result, time.perf_counter() - started)
        return _exec_encoder.encode(ExecResponse.of(call.tool_use_id or new_tool_use_id(), result))

    async def exec_app(scope: Scope, receive: Receive, send: Send) -> None:
        """ExecuteToolCall as plain ASGI, the hot path: Litestar's parameter parsing and
        response machinery cost more than the rest of Cove's own work on a trivial call
        (docs/benchmarks.md). Errors become the same responses as everywhere else, from the
        same handlers (`exception_handlers`)."""
        try:
            payload = await run_exec(scope, receive)
        except Exception as exc:
            request: Request[Any, Any, Any] = Request(scope, receive, send)
            response = _handler_for(exception_handlers, exc)(request, exc)
            await response.to_asgi_response(app=None, request=request)(scope, receive, send)
            return
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [_JSON_TYPE, (b"content-length", str(len(payload)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": payload, "more_body": False})

    @post("/sessions", status_code=201)
    async def create_session(request: Request[Any, Any, Any]) -> SessionHandle:
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
        session = await the_pool.create_session(options)
        return SessionHandle.of(session.info())

    @post("/sessions/{session_id:str}/fork", status_code=201)
    async def fork_session(session_id: FromPath[str]) -> SessionHandle:
        child = await the_pool.fork_session(session_id)
        return SessionHandle.of(child.info())

    @delete("/sessions/{session_id:str}", status_code=204)
    async def destroy_session(session_id: FromPath[str]) -> None:
        await the_pool.destroy_session(session_id)

    @post("/sessions/{session_id:str}/exec", status_code=200)
    async def execute(request: Request[Any, Any, Any]) -> Response[bytes]:
        """ExecuteToolCall. `_Edge` serves this route's requests on its fast path
        (`exec_app`) without reaching here; the route still does the routing, and this handler
        gives the same reply wherever the fast path is not taken."""
        payload = await run_exec(request.scope, request.receive)
        return Response(payload, media_type="application/json")

    @get("/sessions/{session_id:str}/files/list")
    async def list_files(session_id: FromPath[str], path: FromQuery[str] = ".") -> FileList:
        session = the_pool.get_session(session_id)
        return FileList(files=await session.list_files(path))

    @get("/sessions/{session_id:str}/files")
    async def get_file(session_id: FromPath[str], path: FromQuery[str]) -> FileDownload:
        session = the_pool.get_session(session_id)
        if not path:
            raise cove.InvalidRequestError("path must not be empty")
        # From here the response owns the open file and closes it, whatever happens.
        return FileDownload(
            await session.open_file(path), path=path, stall_s=settings.body_idle_timeout_s
        )

    @post("/sessions/{session_id:str}/files", status_code=201)
    async def put_file(
        session_id: FromPath[str], request: Request[Any, Any, Any]
    ) -> FileUploadResult:
        session = the_pool.get_session(session_id)
        return await receive_upload(request, session, max_body_bytes=settings.max_body_bytes)

    @get("/health")
    async def health() -> Response[bytes]:
        return Response(
            content=msgspec.json.encode(starting_body()),
            media_type="application/json",
            status_code=200 if serving() else 503,
        )

    @get("/ready")
    async def ready() -> Response[bytes]:
        stats = the_pool.statistics()
        is_ready = the_pool.ready and serving()
        body = {
            "ready": is_ready,
            "sessions": stats.sessions,
            "max_sessions": stats.max_sessions,
            "artifact_sha256": stats.artifact_sha256,
            **starting_body(),
        }
        return Response(
            content=msgspec.json.encode(body),
            media_type="application/json",
            status_code=200 if is_ready else 503,
        )

    @get("/metrics")
    async def prometheus() -> Response[str]:
        return Response(
            content=metrics.render(the_pool.statistics()), media_type="text/plain; version=0.0.4"
        )

    @get("/schema/openapi.json")
    async def openapi() -> Response[bytes]:
        return Response(content=openapi_doc, media_type="application/json")

    def body_deadline(app: ASGIApp) -> ASGIApp:
        return BodyDeadline(
            app, idle_s=settings.body_idle_timeout_s, total_s=settings.body_timeout_s
        )

    def edge(app: ASGIApp) -> ASGIApp:
        return _Edge(app, settings.token, metrics, fast={execute.fn: body_deadline(exec_app)})

    exception_handlers: dict[int | type[Exception], Any] = {
        cove.CoveError: cove_error_handler(settings.unavailable_retry_after_s),
        HTTPException: handle_http_exception,
        Exception: handle_unexpected,
    }

    return Litestar(
        route_handlers=[
            create_session,
            destroy_session,
            fork_session,
            execute,
            list_files,
            get_file,
            put_file,
            health,
            ready,
            prometheus,
            openapi,
        ],
        lifespan=[lifespan],
        middleware=[edge, body_deadline],
        exception_handlers=exception_handlers,
        request_max_body_size=settings.max_body_bytes,
        openapi_config=None,
        logging_config=None,
        debug=False,
    )

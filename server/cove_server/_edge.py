"""The app's ASGI middleware, outermost first: `AccessLog` (one log line and the HTTP metrics
per request), `BearerAuth` (the token, in constant time), and `ExecFastPath` (ExecuteToolCall
served as plain ASGI, past Litestar's handler machinery).

They are plain ASGI, typed loosely on purpose: scopes and messages are dictionaries by
protocol.
"""

from __future__ import annotations

import hmac
import logging
import re
import time
from typing import Any

import msgspec
from litestar import Request
from litestar.types import ASGIApp

from ._deadlines import BodyDeadline
from ._errors import handle_error
from ._routes import EXEC_FAST_PATH, AppState, execute_call
from ._wire import ErrorBody

__all__ = ["AccessLog", "BearerAuth", "ExecFastPath"]

access_log = logging.getLogger("cove_server.access")

_SESSION_SEGMENT = re.compile(r"^/sessions/[^/]+")
_JSON_TYPE = (b"content-type", b"application/json")


def _route_of(path: str) -> str:
    """The path with its session id replaced, so that the metrics' routes stay few."""
    if not path.startswith("/sessions/"):
        return path
    return _SESSION_SEGMENT.sub("/sessions/{session_id}", path, count=1)


class AccessLog:
    """One structured log line per request (method, route, status, duration; never bodies,
    never the token), and the request counted in the HTTP metrics."""

    def __init__(self, app: ASGIApp, *, app_state: AppState) -> None:
        self.app: Any = app
        self.metrics = app_state.metrics

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_wrapper(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            route = _route_of(str(scope["path"]))
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


_OPEN_PATHS = frozenset({"/health", "/ready"})
_UNAUTHORIZED = msgspec.json.encode(
    ErrorBody(detail="missing or invalid bearer token", error="Unauthorized")
)
_UNAUTHORIZED_HEADERS = [
    _JSON_TYPE,
    (b"www-authenticate", b"Bearer"),
    (b"content-length", str(len(_UNAUTHORIZED)).encode()),
]


class BearerAuth:
    """With a token set, every request but `/health` and `/ready` must carry it
    (`Authorization: Bearer ...`, compared in constant time), or is answered 401."""

    def __init__(self, app: ASGIApp, *, token: str | None) -> None:
        self.app: Any = app
        self.token = token.encode() if token else None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if (
            self.token is None
            or scope["type"] != "http"
            or scope["path"] in _OPEN_PATHS
            or self._authorised(scope["headers"], self.token)
        ):
            await self.app(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 401, "headers": _UNAUTHORIZED_HEADERS})
        await send({"type": "http.response.body", "body": _UNAUTHORIZED})

    @staticmethod
    def _authorised(headers: list[tuple[bytes, bytes]], token: bytes) -> bool:
        for name, value in headers:
            if name == b"authorization":
                scheme, _, credential = value.partition(b" ")
                if scheme.lower() == b"bearer":
                    return hmac.compare_digest(credential.strip(), token)
        return False


class ExecFastPath:
    """ExecuteToolCall (the route marked `EXEC_FAST_PATH`) as plain ASGI, the hot path:
    Litestar's parameter parsing and response machinery cost more than the rest of Cove's own
    work on a trivial call (docs/benchmarks.md). Litestar still does the routing; the body
    keeps its deadlines (`BodyDeadline`, as on every other route), and an
    error becomes the response the app's own handler gives it (`_errors.handle_error`)."""

    def __init__(self, app: ASGIApp, *, app_state: AppState) -> None:
        self.app: Any = app
        self.app_state = app_state
        settings = app_state.settings
        self.fast = BodyDeadline(
            self._exec, idle_s=settings.body_idle_timeout_s, total_s=settings.body_timeout_s
        )
        self.handle_error = handle_error(settings.unavailable_retry_after_s)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        handler = scope.get("route_handler") if scope["type"] == "http" else None
        if handler is not None and handler.opt.get(EXEC_FAST_PATH):
            await self.fast(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _exec(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            payload = await execute_call(self.app_state, scope, receive)
        except Exception as exc:
            request: Request[Any, Any, Any] = Request(scope, receive, send)
            # Litestar's Response types its request loosely: the rendering is typed as Any here.
            response: Any = self.handle_error(request, exc)
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

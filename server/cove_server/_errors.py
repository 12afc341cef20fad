"""The one table from runtime errors to HTTP statuses, and the handlers that render them.

Every error body is JSON `{"detail": ..., "error": ...}`; a bad request never becomes a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException

import cove

from ._wire import ErrorBody

__all__ = ["STATUS", "cove_error_handler", "handle_error", "status_of"]

logger = logging.getLogger("cove_server")

# Most specific first; status_of walks the exception's MRO, so a subclass not listed gets its
# parent's status. tests/server/test_app.py checks every CoveError subclass has one.
STATUS: dict[type[cove.CoveError], int] = {
    cove.SessionNotFoundError: 404,
    cove.SessionLostError: 404,
    cove.SessionClosedError: 404,
    cove.SessionStateError: 409,
    cove.WorkspaceFileNotFoundError: 404,
    cove.PathOutsideWorkspaceError: 403,
    cove.UnknownToolError: 400,
    cove.NotAFileError: 400,
    cove.InvalidRequestError: 422,
    cove.TooLargeError: 413,
    cove.SessionBusyError: 503,
    cove.CapacityError: 503,
    cove.ArtifactError: 503,
    cove.PoolClosedError: 503,
    cove.InterpreterError: 503,
    cove.CoveError: 500,
}


def status_of(exc: cove.CoveError) -> int:
    for cls in type(exc).__mro__:
        if cls in STATUS:
            return STATUS[cls]
    return 500


def error_response(
    status: int, detail: str, error: str, headers: dict[str, str] | None = None
) -> Response[bytes]:
    return Response(
        content=msgspec.json.encode(ErrorBody(detail=detail, error=error)),
        status_code=status,
        media_type="application/json",
        headers=headers,
    )


def cove_error_handler(
    unavailable_retry_after_s: int,
) -> Callable[[Request[Any, Any, Any], Exception], Response[bytes]]:
    """The handler rendering any `CoveError`: its status from `STATUS`, and a `Retry-After`
    on 503s (a capacity error's own hint, else `unavailable_retry_after_s`)."""

    def handle_cove_error(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
        assert isinstance(exc, cove.CoveError)
        status = status_of(exc)
        headers = None
        if isinstance(exc, cove.CapacityError):
            headers = {"Retry-After": str(max(1, exc.retry_after_s))}
        elif status == 503:
            headers = {"Retry-After": str(max(1, unavailable_retry_after_s))}
        if status >= 500:
            logger.error(
                "%s on %s %s: %s", type(exc).__name__, request.method, request.url.path, exc
            )
        return error_response(status, str(exc), type(exc).__name__, headers)

    return handle_cove_error


def handle_http_exception(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    # Litestar reports an unparseable body as a 400; the contract calls it malformed (422).
    if status == 400:
        status = 422
    detail = exc.detail or str(exc)
    return error_response(status, detail, type(exc).__name__, dict(exc.headers or {}))


def handle_unexpected(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    logger.exception("unexpected error on %s %s", request.method, request.url.path)
    return error_response(500, "internal error", "InternalError")


def handle_error(
    unavailable_retry_after_s: int,
) -> Callable[[Request[Any, Any, Any], Exception], Response[bytes]]:
    """The app's one exception handler (registered for `Exception`, and called by the exec
    fast path): a `CoveError` by `STATUS`, an HTTP error by its status, anything else 500."""
    handle_cove_error = cove_error_handler(unavailable_retry_after_s)

    def handle(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
        if isinstance(exc, cove.CoveError):
            return handle_cove_error(request, exc)
        if isinstance(exc, HTTPException):
            return handle_http_exception(request, exc)
        return handle_unexpected(request, exc)

    return handle

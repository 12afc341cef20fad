"""`create_app()`: the Litestar app declared from its parts (the routes in `_routes`, the
middleware in `_edge`, the error handler in `_errors`), and the lifespan of a pool it owns.

Each call builds a fresh app (no module-level state). Given no pool, the app owns one: it
opens it at startup (with `open_in_background`, as `cove serve` does, startup returns at once
and the pool opens behind it, so the server answers while the interpreter is prepared:
`/health` and `/ready` say how far along it is, with 503, and every contract operation answers
503 with `Retry-After`); at shutdown it destroys every session and its directory, or, if the
pool is still opening, leaves the compile behind.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncGenerator, Callable
from contextlib import asynccontextmanager

import anyio
from litestar import Litestar
from litestar.datastructures import State
from litestar.middleware import DefineMiddleware

import cove

from ._deadlines import BodyDeadline
from ._edge import AccessLog, BearerAuth, ExecFastPath
from ._errors import handle_error
from ._metrics import Metrics
from ._openapi import served_openapi
from ._routes import OPERATIONS, AppState, SessionController
from ._settings import ServerSettings

__all__ = ["create_app"]

log = logging.getLogger("cove_server")

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
    app_state = AppState(
        pool if pool is not None else cove.Pool(settings.pool),
        settings,
        metrics=Metrics(),
        openapi=served_openapi(),
        draining=draining,
    )

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncGenerator[None]:
        if not owned:
            yield
        elif not open_in_background:
            async with app_state.pool:
                yield
        else:
            async with _opening_in_background(app_state, on_open_failure):
                yield

    return Litestar(
        route_handlers=[SessionController, *OPERATIONS],
        state=State({"cove": app_state}),
        lifespan=[lifespan],
        middleware=[
            DefineMiddleware(AccessLog, app_state=app_state),
            DefineMiddleware(BearerAuth, token=settings.token),
            DefineMiddleware(ExecFastPath, app_state=app_state),
            DefineMiddleware(
                BodyDeadline, idle_s=settings.body_idle_timeout_s, total_s=settings.body_timeout_s
            ),
        ],
        exception_handlers={Exception: handle_error(settings.unavailable_retry_after_s)},
        request_max_body_size=settings.max_body_bytes,
        openapi_config=None,
        logging_config=None,
        debug=False,
    )


@asynccontextmanager
async def _opening_in_background(
    app_state: AppState, on_open_failure: Callable[[BaseException], None] | None
) -> AsyncGenerator[None]:
    """The pool opens in a task while the app serves, logging its progress; at exit it is
    closed, or, still opening (a compile cannot be interrupted), left behind in its daemon
    thread, so that a stop during the first start is immediate."""
    pool = app_state.pool
    closing = anyio.Event()
    progress = anyio.CancelScope()  # the progress log, while the pool opens

    async def run_pool() -> None:
        started = time.monotonic()
        try:
            async with pool:
                progress.cancel()
                log.info("ready in %.1f s", time.monotonic() - started)
                await closing.wait()
        except Exception as exc:
            progress.cancel()
            app_state.failure = str(exc)
            log.error("the interpreter could not be prepared: %s", exc)
            if on_open_failure is not None:
                on_open_failure(exc)

    async def report_progress() -> None:
        with progress:
            while True:
                await anyio.sleep(_PROGRESS_EVERY_S)
                if pool.opening is not None:
                    waited = time.monotonic() - pool.opening_since
                    log.info("still preparing the interpreter: %s (%.0f s)", pool.opening, waited)

    async with anyio.create_task_group() as tg:
        tg.start_soon(run_pool)
        tg.start_soon(report_progress)
        try:
            yield
        finally:
            closing.set()
            progress.cancel()
            if not pool.alive:
                tg.cancel_scope.cancel()

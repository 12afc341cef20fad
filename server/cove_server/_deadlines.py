"""Deadlines for slow clients: no connection is held by a client that stops sending.

Three bounds, each in its one place:

- **The request head** (request line and headers) must arrive within `header_timeout_s` of its
  first byte, or of the connection's opening; else the connection is closed. uvicorn has no
  such bound, so `http_protocol` returns its protocol class (httptools or h11) with a timer
  added: armed when the connection opens and when bytes arrive with no request in progress
  (the start of the next head, or the rest of a body nobody reads), disarmed when a head is
  complete. The timer measures from the first byte, so trickling a head byte by byte does not
  extend it.
- **The request body**, as the app reads it: at most `body_idle_timeout_s` between pieces and
  `body_timeout_s` in all, or the request gets 408 and its connection is closed (`BodyDeadline`,
  an ASGI middleware, so it holds under any server and in the test client).
- **Idle connections** after a response: uvicorn's `timeout_keep_alive`, set from
  `keepalive_timeout_s` by the CLI.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.util
import time
from typing import Any, ClassVar, cast

import anyio
from litestar.exceptions import HTTPException
from litestar.types import ASGIApp
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["BodyDeadline", "http_protocol"]


class _HeadTimer:
    """Closes a transport whose request head is not complete within `timeout_s`."""

    def __init__(
        self, loop: asyncio.AbstractEventLoop, transport: asyncio.BaseTransport, timeout_s: float
    ) -> None:
        self._loop = loop
        self._transport = transport
        self._timeout_s = timeout_s
        self._handle: asyncio.TimerHandle | None = None

    def start(self) -> None:
        """Arm the timer, unless it is already running (a head's time counts from its start)."""
        if self._handle is None:
            self._handle = self._loop.call_later(self._timeout_s, self._expire)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def after_data(self, before: object, current: object) -> None:
        """Called after the protocol took in bytes; `before`/`current` are its request cycle
        before and after. A new cycle means a head was completed; bytes that arrive while no
        request is in progress are the start of a head (or a body nobody reads)."""
        if current is not before:
            self.stop()
        elif getattr(current, "response_complete", True):
            self.start()

    def _expire(self) -> None:
        self._handle = None
        if not self._transport.is_closing():
            self._transport.close()


class _HeadDeadline:
    """Mixed into a uvicorn HTTP protocol class: the head timer around its connection events.

    (The protocols' attributes `loop` and `cycle` are uvicorn's; typed loosely here.)
    """

    header_timeout_s: ClassVar[float] = 10.0
    _head_timer: _HeadTimer

    def connection_made(self, transport: asyncio.Transport) -> None:
        protocol: Any = self
        super().connection_made(transport)  # type: ignore[misc]
        self._head_timer = _HeadTimer(protocol.loop, transport, self.header_timeout_s)
        self._head_timer.start()

    def data_received(self, data: bytes) -> None:
        protocol: Any = self
        before: object = protocol.cycle
        super().data_received(data)  # type: ignore[misc]
        self._head_timer.after_data(before, protocol.cycle)

    def connection_lost(self, exc: Exception | None) -> None:
        self._head_timer.stop()
        super().connection_lost(exc)  # type: ignore[misc]


class _H11(_HeadDeadline, H11Protocol):  # type: ignore[misc]
    pass


@functools.cache
def _httptools_class() -> type[asyncio.Protocol]:
    # Imported only when chosen: the module needs httptools installed.
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    class _HttpTools(_HeadDeadline, HttpToolsProtocol):  # type: ignore[misc]
        pass

    return _HttpTools


def http_protocol(implementation: str, header_timeout_s: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (for `uvicorn.run(http=...)`) with the head deadline.

    Args:
        implementation: "httptools", "h11", or "auto" (httptools when it is installed).
        header_timeout_s: Seconds a request head may take to arrive.
    """
    if implementation == "auto":
        has_httptools = importlib.util.find_spec("httptools") is not None
        implementation = "httptools" if has_httptools else "h11"
    base: type[asyncio.Protocol] = _httptools_class() if implementation == "httptools" else _H11
    guarded = type(base.__name__, (base,), {"header_timeout_s": header_timeout_s})
    return cast("type[asyncio.Protocol]", guarded)


async def _receive_within(
    loop: asyncio.AbstractEventLoop,
    receive: Any,
    wait_s: float,
    error: Any,
) -> Any:
    """`await receive()`, cancelled after `wait_s` (then `error()` is raised): one timer on
    the loop, without anyio's cancel scope, which looks up the running loop several times (a
    `getpid` system call each on Python 3.11) on every request."""
    task = asyncio.current_task(loop)
    assert task is not None
    fired = False

    def expire() -> None:
        nonlocal fired
        fired = True
        task.cancel()

    timer = loop.call_later(wait_s, expire)
    try:
        return await receive()
    except asyncio.CancelledError:
        if fired and task.uncancel() == 0:
            raise error() from None
        raise
    finally:
        timer.cancel()


class BodyDeadline:
    """ASGI middleware: a request body must keep arriving (`idle_s` between pieces) and be
    complete within `total_s` of the request's start; else 408, and the connection is closed."""

    def __init__(self, app: ASGIApp, *, idle_s: float, total_s: float) -> None:
        self.app: Any = app
        self.idle_s = idle_s
        self.total_s = total_s

    # Plain ASGI, typed loosely on purpose: scopes and messages are dictionaries by protocol.
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        deadline = time.monotonic() + self.total_s
        done = False

        def too_slow(left: float) -> HTTPException:
            return HTTPException(
                status_code=408,
                detail=(
                    f"the request body did not arrive within {self.total_s:g} s"
                    if left <= self.idle_s
                    else f"the request body paused for more than {self.idle_s:g} s"
                ),
                headers={"Connection": "close"},
            )

        async def bounded_receive() -> Any:
            nonlocal done
            if done:  # the body is in: what is left to hear is a disconnect
                return await receive()
            left = deadline - time.monotonic()
            wait_s = max(0.0, min(self.idle_s, left))
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # not asyncio (trio): anyio's cancel scope
                message: Any = None
                with anyio.move_on_after(wait_s):
                    message = await receive()
                if message is None:
                    raise too_slow(left) from None
            else:
                message = await _receive_within(loop, receive, wait_s, lambda: too_slow(left))
            if message["type"] != "http.request" or not message.get("more_body", False):
                done = True
            return message

        await self.app(scope, bounded_receive, send)

"""`cove serve`'s uvicorn server: its quiet main loop, on real uvicorn objects and a real
loopback connection."""

from __future__ import annotations

import asyncio
import email.utils
import hashlib
import inspect
import threading
import time
from typing import Any

import uvicorn

from cove_server._cli import _quiet_server  # pyright: ignore[reportPrivateUsage]
from cove_server._deadlines import http_protocol


async def _app(scope: Any, receive: Any, send: Any) -> None:  # never reached here
    raise AssertionError("no request is sent")


def test_a_new_connection_refreshes_a_stale_date_before_its_first_request() -> None:
    """The loop does not tick while no connection is open, so the Date header every response
    starts from may be old when one opens: the connection refreshes it as it is made, before
    any byte of it is read (here no main loop runs at all)."""
    config = uvicorn.Config(_app, http=http_protocol("auto", 10.0), log_config=None)
    server = _quiet_server(config, threading.Event(), 0.0)
    config.load()
    server.server_state.default_headers = [(b"date", b"Thu, 01 Jan 1970 00:00:00 GMT")]

    async def connect() -> None:
        loop = asyncio.get_running_loop()
        listener = await loop.create_server(
            lambda: config.http_protocol_class(  # type: ignore[call-arg]
                config=config, server_state=server.server_state, app_state={}
            ),
            "127.0.0.1",
            0,
        )
        port = listener.sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(100):  # until the server side has taken the connection
            if server.server_state.connections:
                break
            await asyncio.sleep(0.01)
        writer.close()
        listener.close()
        await listener.wait_closed()

    asyncio.run(connect())
    headers = dict(server.server_state.default_headers)
    assert (
        abs(email.utils.parsedate_to_datetime(headers[b"date"].decode()).timestamp() - time.time())
        <= 2
    )


# What `_quiet_server` replaces (main_loop), extends (on_tick, handle_exit) or reads
# (server_state.default_headers and .connections, config.encoded_headers and .date_header,
# should_exit, started) of uvicorn's Server is not uvicorn's public API: the sources it was
# written against are pinned here by digest (uvicorn 0.55.0). When uvicorn changes them, this
# test fails: read _quiet_server against the new sources, then add their digests.
_UVICORN_SOURCES = {
    "main_loop": {"afccb353a119333f206ffa120abc9efdc46a1ac60fe93485acfda2a271d75a62"},
    "on_tick": {"60ea49b06ccf68c11e91a3b8676b56f3b8ab13c86e6c9fa4654731063d8f9bd0"},
    "handle_exit": {"553276efa26e09ea84b4626425f1d03647f1b043084f5a42994f3ae7e0d1aa1e"},
}


def test_quiet_server_was_written_against_these_uvicorn_sources() -> None:
    changed: list[str] = []
    for name, known in _UVICORN_SOURCES.items():
        source = inspect.getsource(getattr(uvicorn.Server, name))
        if hashlib.sha256(source.encode()).hexdigest() not in known:
            changed.append(name)
    assert not changed, f"uvicorn {uvicorn.__version__} changed Server.{changed}: see above"
    config = uvicorn.Config(_app, log_config=None)
    state = uvicorn.Server(config).server_state
    assert isinstance(state.default_headers, list)
    assert isinstance(state.connections, set)
    assert isinstance(config.date_header, bool)
    config.load()
    assert isinstance(config.encoded_headers, list)

"""`cove serve`'s uvicorn server: its quiet main loop, on real uvicorn objects and a real
loopback connection."""

from __future__ import annotations

import asyncio
import email.utils
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

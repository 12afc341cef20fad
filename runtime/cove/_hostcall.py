"""The guest→host channel: a host call from guest code, routed to its session's handler.

The reactor imports two host functions (`_protocol.IMPORTS`): `cove.host_call(ptr, n)` hands
the host a request and returns the reply's length (or -1), `cove.host_reply(ptr)` copies the
reply in. The engine defines them once, for every store (`HOST_FUNCTIONS`); a call finds its
session's handler through a thread-local, because a wasmtime `Caller` carries no per-store data
and a worker thread runs one guest call at a time. `Guest.call` installs the handler and the
call's deadline (`enter_call`) and takes them off after (`leave_call`). The caps
(`_protocol.MAX_HOST_REQUEST_BYTES`, `MAX_HOST_REPLY_BYTES`) and the deadline are checked here,
before and after the handler runs; what a request means is the handler's (`_host.HostServices`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import cast

import msgspec
import wasmtime

from . import _protocol as protocol

__all__ = ["HOST_FUNCTIONS", "HostCall", "HostHandler", "enter_call", "leave_call"]


class HostCall(msgspec.Struct, kw_only=True):
    """One request from guest code to the host, with what the caller has left.

    Attributes:
        request: The request's bytes.
        deadline: When the calling call's time is up (`time.monotonic()` seconds): work done
            for it ends by then.
        fuel_left: The calling interpreter's fuel at the time of the call (None: not metered).
        memory_bytes: The calling interpreter's linear memory size.
        fuel_spent: Set by the handler: fuel that work done on the caller's behalf used; it is
            taken from the caller's fuel when the handler returns.
        refresh_quota: Sets the calling interpreter's workspace quota to (bytes, entries) left
            by the host's count now, and returns the bytes it may grow by (its open orphans
            taken off); None if the interpreter has no such export. Valid during the call only.
    """

    request: bytes
    deadline: float
    fuel_left: int | None
    memory_bytes: int
    fuel_spent: int = 0
    refresh_quota: Callable[[int, int], int] | None = None


HostHandler = Callable[[HostCall], bytes]


class _HostState(threading.local):
    handler: HostHandler | None = None
    reply: bytes | None = None
    deadline: float = 0.0  # time.monotonic() at which the current call's time is up
    metered: bool = False  # the calling store consumes fuel
    # Brings the calling store's epoch deadline forward to now (its Guest's deadline stage).
    expire: Callable[[wasmtime.Store], None] | None = None


_host = _HostState()


def _memory(caller: wasmtime.Caller) -> wasmtime.Memory:
    memory = caller.get("memory")
    if not isinstance(memory, wasmtime.Memory):
        raise RuntimeError("guest exports no memory")
    return memory


def _caller_store(caller: wasmtime.Caller) -> wasmtime.Store:
    # A Caller is a store context for the duration of the host call; wasmtime-py's fuel
    # accessors only need that context, so they are applied to it directly.
    return cast(wasmtime.Store, caller)


def _host_call(caller: wasmtime.Caller, ptr: int, length: int) -> int:
    # An exception escaping a host callback would unwind through wasm: everything is caught.
    # Past the call's deadline nothing is done, and the guest's next epoch check ends the call
    # (`_past_deadline`).
    _host.reply = None
    handler = _host.handler
    if handler is None or not 0 <= length <= protocol.MAX_HOST_REQUEST_BYTES:
        return -1
    if time.monotonic() >= _host.deadline:
        return _past_deadline(caller)
    try:
        memory = _memory(caller)
        start = ptr & 0xFFFFFFFF
        if start + length > memory.data_len(caller):
            return -1
        store = _caller_store(caller)
        fuel_left: int | None = None
        if _host.metered:
            fuel_left = wasmtime.Store.get_fuel(store)
        call = HostCall(
            request=bytes(memory.read(caller, start, start + length)),
            deadline=_host.deadline,
            fuel_left=fuel_left,
            memory_bytes=memory.data_len(caller),
            refresh_quota=_quota_refresher(caller),
        )
        reply = handler(call)
        if fuel_left is not None and call.fuel_spent:
            wasmtime.Store.set_fuel(store, max(0, fuel_left - call.fuel_spent))
    except Exception:
        return -1
    if time.monotonic() >= _host.deadline:
        return _past_deadline(caller)
    if len(reply) > protocol.MAX_HOST_REPLY_BYTES:
        return -1
    _host.reply = reply
    return len(reply)


def _past_deadline(caller: wasmtime.Caller) -> int:
    """The call's time ran out on the host's clock (a nested python ran to the deadline, say):
    the calling store's epoch deadline is brought forward to now, so that its next epoch check
    interrupts the call as the deadline would, rather than when the epoch ticker, which lags the
    clock on a loaded machine, gets there (until then the code ran on, saw the refusal as an
    OSError, and could finish as an ordinary call). Returns the refusal."""
    expire = _host.expire
    if expire is not None:
        try:
            expire(_caller_store(caller))
        except Exception:
            pass  # the ticker still gets there
    return -1


def _quota_refresher(caller: wasmtime.Caller) -> Callable[[int, int], int] | None:
    refresh = caller.get("cove_quota_refresh")
    if not isinstance(refresh, wasmtime.Func):
        return None

    def refresh_quota(bytes_left: int, files_left: int) -> int:
        left = refresh(caller, bytes_left, files_left)
        return left if isinstance(left, int) else 0

    return refresh_quota


def _host_reply(caller: wasmtime.Caller, ptr: int) -> None:
    reply, _host.reply = _host.reply, None
    if reply:
        try:
            _memory(caller).write(caller, reply, ptr & 0xFFFFFFFF)
        except Exception:
            return


_CallState = tuple[HostHandler | None, float, bool, Callable[[wasmtime.Store], None] | None]


def enter_call(
    handler: HostHandler | None,
    deadline: float,
    metered: bool,
    expire: Callable[[wasmtime.Store], None] | None = None,
) -> _CallState:
    """Route this thread's guest host calls to `handler` until `deadline` (monotonic seconds);
    returns the previous routing, for `leave_call` (calls nest: the shell's python). `expire`
    brings the calling store's epoch deadline forward to now (`_past_deadline`)."""
    previous = (_host.handler, _host.deadline, _host.metered, _host.expire)
    _host.handler, _host.deadline, _host.metered, _host.expire = (
        handler,
        deadline,
        metered,
        expire,
    )
    return previous


def leave_call(previous: _CallState) -> None:
    """Restore the routing `enter_call` replaced, and drop any reply the guest never took."""
    _host.handler, _host.deadline, _host.metered, _host.expire = previous
    _host.reply = None


HOST_FUNCTIONS: dict[str, Callable[..., object]] = {
    "host_call": _host_call,
    "host_reply": _host_reply,
}
"""The implementations of the `cove` imports, by name (`_protocol.IMPORTS`)."""

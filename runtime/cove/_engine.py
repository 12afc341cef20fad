"""One wasmtime engine per pool: configuration, the epoch ticker, imports resolved once.

The engine always has epoch interruption on (a daemon thread advances the epoch every
`epoch_tick_s`), which is how wall-clock deadlines fire inside running wasm. The reactor's two
host imports (`cove.host_call`, `cove.host_reply`) are defined once on the linker; a call finds
its session's handler through a thread-local, because a wasmtime `Caller` carries no per-store
data and a worker thread runs one guest call at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import wasmtime

from ._artifact import Artifact

__all__ = ["Engine", "HostHandler"]

HostHandler = Callable[[bytes], bytes]

_I32 = wasmtime.ValType.i32()


class _HostState(threading.local):
    handler: HostHandler | None = None
    reply: bytes | None = None


_host = _HostState()


def _memory(caller: wasmtime.Caller) -> wasmtime.Memory:
    memory = caller.get("memory")
    if not isinstance(memory, wasmtime.Memory):
        raise RuntimeError("guest exports no memory")
    return memory


def _host_call(caller: wasmtime.Caller, ptr: int, length: int) -> int:
    # An exception escaping a host callback would unwind through wasm: everything is caught.
    _host.reply = None
    handler = _host.handler
    if handler is None or length < 0:
        return -1
    try:
        request = bytes(_memory(caller).read(caller, ptr, ptr + length))
        reply = handler(request)
    except Exception:
        return -1
    _host.reply = reply
    return len(reply)


def _host_reply(caller: wasmtime.Caller, ptr: int) -> None:
    reply, _host.reply = _host.reply, None
    if reply:
        try:
            _memory(caller).write(caller, reply, ptr)
        except Exception:
            return


class Engine:
    """A wasmtime engine with the interpreter compiled and its imports resolved."""

    def __init__(
        self, artifact: Artifact, *, consume_fuel: bool, epoch_tick_s: float, cache_dir: str | None
    ) -> None:
        """Compile (or load from cache) the interpreter and start the epoch ticker.

        Blocking: call from a worker thread.
        """
        config = wasmtime.Config()
        config.epoch_interruption = True
        config.consume_fuel = consume_fuel
        # Copy-on-write instantiation from the snapshot's memory image.
        config.memory_init_cow = True
        self.wasmtime: wasmtime.Engine = wasmtime.Engine(config)
        self.artifact = artifact
        self.consume_fuel = consume_fuel
        self.epoch_tick_s = epoch_tick_s
        engine_key = f"epoch=1;fuel={int(consume_fuel)};cow=1"
        self.module: wasmtime.Module = artifact.compile(self.wasmtime, engine_key, cache_dir)
        linker = wasmtime.Linker(self.wasmtime)
        linker.define_wasi()
        linker.define_func(
            "cove",
            "host_call",
            wasmtime.FuncType([_I32, _I32], [_I32]),
            _host_call,
            access_caller=True,
        )
        linker.define_func(
            "cove", "host_reply", wasmtime.FuncType([_I32], []), _host_reply, access_caller=True
        )
        self.instance_pre: wasmtime.InstancePre = linker.instantiate_pre(self.module)
        self._linker = linker
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="cove-epoch", daemon=True)
        self._ticker.start()

    def _tick(self) -> None:
        while not self._stop.wait(self.epoch_tick_s):
            self.wasmtime.increment_epoch()

    def ticks(self, seconds: float) -> int:
        """Epoch ticks for a deadline `seconds` from now (at least one, plus one for phase)."""
        return max(1, round(seconds / self.epoch_tick_s)) + 1

    def close(self) -> None:
        """Stop the ticker. Idempotent."""
        self._stop.set()
        if self._ticker.is_alive() and self._ticker is not threading.current_thread():
            self._ticker.join(timeout=1.0)


def set_host_handler(handler: HostHandler | None) -> HostHandler | None:
    """Route this thread's guest host calls to `handler`; returns the previous one."""
    previous, _host.handler = _host.handler, handler
    return previous

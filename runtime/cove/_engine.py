"""One wasmtime engine per pool: configuration, the epoch ticker, imports resolved once.

The engine always has epoch interruption on (a daemon thread advances the epoch every
`epoch_tick_s` while guest code runs, and sleeps a second after the last call ends), which is
how wall-clock deadlines fire inside running wasm. The reactor's two host imports
(`cove.host_call`, `cove.host_reply`) are defined once on the linker, with their caps; a call
finds its session's handler through a thread-local, because a wasmtime `Caller` carries no
per-store data and a worker thread runs one guest call at a time.
"""

from __future__ import annotations

import pathlib
import platform
import threading
import time
from collections.abc import Callable
from typing import cast

import msgspec
import wasmtime

from ._artifact import Artifact
from ._pages import Copier

__all__ = [
    "MAX_HOST_REPLY_BYTES",
    "MAX_HOST_REQUEST_BYTES",
    "PORTABLE_X86_64",
    "Engine",
    "HostCall",
    "HostHandler",
    "compile_to_cache",
]

# The largest request guest code may hand the host, and the largest reply the host gives back.
# A request over the cap is refused before anything is copied or decoded, so no host call costs
# the host more than a small multiple of these (the host decodes at most one request per
# worker thread at a time).
MAX_HOST_REQUEST_BYTES = 8 << 20
MAX_HOST_REPLY_BYTES = 64 << 20


class HostCall(msgspec.Struct, kw_only=True):
    """One request from guest code to the host, with what the caller has left.

    Attributes:
        request: The request's bytes.
        fuel_left: The calling interpreter's fuel at the time of the call (None: not metered).
        memory_bytes: The calling interpreter's linear memory size.
        fuel_spent: Set by the handler: fuel that work done on the caller's behalf used; it is
            taken from the caller's fuel when the handler returns.
        refresh_quota: Sets the calling interpreter's workspace quota to (bytes, entries) left
            by the host's count now, and returns the bytes it may grow by (its open orphans
            taken off); None if the interpreter has no such export. Valid during the call only.
    """

    request: bytes
    fuel_left: int | None
    memory_bytes: int
    fuel_spent: int = 0
    refresh_quota: Callable[[int, int], int] | None = None


HostHandler = Callable[[HostCall], bytes]

# The CPU features a portable compile assumes on x86-64 (x86-64-v2: every x86-64 server CPU
# since about 2009); anything newer (AVX, AVX2, BMI, FMA) is left unused. A machine without
# them cannot load such a compile, and compiles again natively (saying why). Other
# architectures compile for their baseline as it is.
PORTABLE_X86_64 = ("has_sse3", "has_ssse3", "has_sse41", "has_sse42", "has_popcnt")


def _config(consume_fuel: bool, *, portable: bool = False) -> tuple[wasmtime.Config, str]:
    """The wasmtime configuration every engine of Cove's uses, and its key in the compile
    cache (a portable compile shares the key: a native engine loads it)."""
    config = wasmtime.Config()
    config.epoch_interruption = True
    config.consume_fuel = consume_fuel
    # Copy-on-write instantiation from the snapshot's memory image.
    config.memory_init_cow = True
    if portable and platform.machine() in ("x86_64", "AMD64"):
        config.target = "x86_64-unknown-linux-gnu"
        for flag in PORTABLE_X86_64:
            config.cranelift_flag_enable(flag)
    return config, f"epoch=1;fuel={int(consume_fuel)};cow=1"


def compile_to_cache(
    artifact: Artifact, *, consume_fuel: bool, cache_dir: str, portable: bool = False
) -> tuple[pathlib.Path, bool]:
    """Compile the interpreter into `cache_dir` for engines of this configuration, unless an
    entry that loads is there already: the entry's path, and whether it was compiled now.
    `portable`: for the x86-64-v2 baseline (`PORTABLE_X86_64`) rather than this CPU, so the
    cache may move to another machine (a build step's).

    Blocking (minutes on a cold cache); call it from a worker thread.
    """
    config, key = _config(consume_fuel, portable=portable)
    entry, loaded = artifact.compile_entry(wasmtime.Engine(config), key, cache_dir)
    return entry, loaded is None


_I32 = wasmtime.ValType.i32()
# How long the epoch ticker goes on after the last guest call ends before it sleeps.
_IDLE_AFTER_S = 1.0


class _HostState(threading.local):
    handler: HostHandler | None = None
    reply: bytes | None = None
    deadline: float = 0.0  # time.monotonic() at which the current call's time is up
    metered: bool = False  # the calling store consumes fuel


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
    # Past the call's deadline nothing is done: the guest's next epoch check ends the call.
    _host.reply = None
    handler = _host.handler
    if handler is None or not 0 <= length <= MAX_HOST_REQUEST_BYTES:
        return -1
    if time.monotonic() >= _host.deadline:
        return -1
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
            fuel_left=fuel_left,
            memory_bytes=memory.data_len(caller),
            refresh_quota=_quota_refresher(caller),
        )
        reply = handler(call)
        if fuel_left is not None and call.fuel_spent:
            wasmtime.Store.set_fuel(store, max(0, fuel_left - call.fuel_spent))
    except Exception:
        return -1
    if len(reply) > MAX_HOST_REPLY_BYTES or time.monotonic() >= _host.deadline:
        return -1
    _host.reply = reply
    return len(reply)


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


class Engine:
    """A wasmtime engine with the interpreter compiled and its imports resolved."""

    def __init__(
        self,
        artifact: Artifact,
        *,
        consume_fuel: bool,
        epoch_tick_s: float,
        cache_dir: str | None,
        max_open_files: int = 256,
        max_directory_depth: int = 64,
        timeout_grace_s: float = 1.0,
    ) -> None:
        """Compile (or load from cache) the interpreter and start the epoch ticker.

        `max_open_files` and `max_directory_depth` are handed to every interpreter, whose libc
        layer enforces them (python-wasm/guest/c/cove_quota.c).

        Blocking: call from a worker thread.
        """
        self.max_open_files = max_open_files
        self.max_directory_depth = max_directory_depth
        # After a call's deadline interrupts its code, the epoch ticks it has to return before
        # the hard deadline ends it (`_rawcall.SoftDeadline`); 0: no soft stage.
        self.grace_ticks: int = (
            max(1, round(timeout_grace_s / epoch_tick_s)) if timeout_grace_s else 0
        )
        config, engine_key = _config(consume_fuel)
        self.wasmtime: wasmtime.Engine = wasmtime.Engine(config)
        self.artifact = artifact
        self.consume_fuel = consume_fuel
        self.epoch_tick_s = epoch_tick_s
        self.module: wasmtime.Module = artifact.compile(self.wasmtime, engine_key, cache_dir)
        # The snapshot's memory (numpy and pandas imported): a session's memory limit must hold it.
        self.initial_memory_bytes: int = next(
            e.type.limits.min * 65536
            for e in self.module.exports
            if isinstance(e.type, wasmtime.MemoryType)
        )
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
        # Copies pages between this engine's instances (forks), with a helper thread of its own.
        self.copier: Copier = Copier()
        self._stop = threading.Event()
        # The ticker runs only while wasm runs (and for a moment after): an idle server burns
        # no CPU on it. `_active` counts calls in progress; `_wake` rouses an idle ticker.
        self._lock = threading.Lock()
        self._active = 0
        self._last_end = 0.0
        self._idle = False
        self._wake = threading.Event()
        self._ticker = threading.Thread(target=self._tick, name="cove-epoch", daemon=True)
        self._ticker.start()

    @property
    def idle(self) -> bool:
        """The epoch ticker sleeps (no guest call for a while): the engine burns no CPU."""
        return self._idle

    def call_started(self) -> None:
        """A guest call begins on this engine: its deadline needs the ticker."""
        with self._lock:
            self._active += 1
        if self._idle:
            self._wake.set()

    def call_ended(self) -> None:
        """The guest call `call_started` announced is over."""
        with self._lock:
            self._active -= 1
            self._last_end = time.monotonic()

    def _tick(self) -> None:
        # Ticks follow the wall clock: after a stall (the GIL held elsewhere, a paused
        # process) the missed ticks are all made up at once, so deadlines stay wall-clock.
        # After _IDLE_AFTER_S with no call, the ticker sleeps until the next call starts.
        tick = self.epoch_tick_s
        while not self._stop.is_set():
            started = time.monotonic()
            ticks = 0
            while not self._stop.wait(tick):
                now = time.monotonic()
                due = int((now - started) / tick)
                while ticks < due:
                    self.wasmtime.increment_epoch()
                    ticks += 1
                if self._active == 0 and now - self._last_end > _IDLE_AFTER_S:
                    break
            self._idle = True
            self._wake.clear()
            # `close` may have set both flags just before the clear: checked after it, so the
            # ticker never sleeps through its own stop (a close then waited out its join).
            if self._active == 0 and not self._stop.is_set():
                self._wake.wait()
            self._idle = False

    def ticks(self, seconds: float) -> int:
        """Epoch ticks for a deadline `seconds` from now (at least one, plus one for phase)."""
        return max(1, round(seconds / self.epoch_tick_s)) + 1

    def close(self) -> None:
        """Stop the ticker and the page copier's helper thread. Idempotent."""
        self.copier.close()
        self._stop.set()
        self._wake.set()
        if self._ticker.is_alive() and self._ticker is not threading.current_thread():
            self._ticker.join(timeout=1.0)


_CallState = tuple[HostHandler | None, float, bool]


def enter_call(handler: HostHandler | None, deadline: float, metered: bool) -> _CallState:
    """Route this thread's guest host calls to `handler` until `deadline` (monotonic seconds);
    returns the previous routing, for `leave_call` (calls nest: the shell's python)."""
    previous = (_host.handler, _host.deadline, _host.metered)
    _host.handler, _host.deadline, _host.metered = handler, deadline, metered
    return previous


def leave_call(previous: _CallState) -> None:
    """Restore the routing `enter_call` replaced, and drop any reply the guest never took."""
    _host.handler, _host.deadline, _host.metered = previous
    _host.reply = None

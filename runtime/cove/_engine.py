"""One wasmtime engine per pool: configuration, the compiled interpreter, the epoch ticker.

The engine always has epoch interruption on (a daemon thread advances the epoch every
`epoch_tick_s` while guest code runs, and sleeps a second after the last call ends), which is
how wall-clock deadlines fire inside running wasm. The reactor's host imports
(`_protocol.IMPORTS`) are defined once on the linker, pointing at `_hostcall`'s routing.
"""

from __future__ import annotations

import pathlib
import platform
import threading
import time

import wasmtime

from ._artifact import Artifact
from ._hostcall import HOST_FUNCTIONS
from ._pages import Copier
from ._protocol import IMPORTS

__all__ = ["PORTABLE_X86_64", "Engine", "compile_to_cache"]

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


_VALTYPES = {"i32": wasmtime.ValType.i32(), "i64": wasmtime.ValType.i64()}
# How long the epoch ticker goes on after the last guest call ends before it sleeps.
_IDLE_AFTER_S = 1.0


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
        # The snapshot's memory (numpy, pandas and matplotlib imported): a session's memory
        # limit must hold it.
        self.initial_memory_bytes: int = next(
            e.type.limits.min * 65536
            for e in self.module.exports
            if isinstance(e.type, wasmtime.MemoryType)
        )
        linker = wasmtime.Linker(self.wasmtime)
        linker.define_wasi()
        for (module, name), (params, result) in IMPORTS.items():
            func_type = wasmtime.FuncType(
                [_VALTYPES[p] for p in params], [_VALTYPES[result]] if result else []
            )
            linker.define_func(module, name, func_type, HOST_FUNCTIONS[name], access_caller=True)
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

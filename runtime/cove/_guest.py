"""One interpreter instance: a wasmtime store plus an instance of the snapshot.

Blocking and single-threaded: a `Guest` is driven from one worker thread at a time (its
session's lock guarantees it). Every trap is translated into an outcome in exactly one place,
`Guest.call`; after any trap the interpreter inside is unusable (stale frames, redirected
streams), so the session replaces the guest with a fresh one from the snapshot.
"""

from __future__ import annotations

import enum
import pathlib
import struct

import msgspec
import wasmtime

from ._engine import Engine, HostHandler, set_host_handler
from ._errors import InterpreterError

__all__ = ["Guest", "GuestOutcome", "Trapped"]

# Fuel given to a call with no fuel limit: effectively unbounded, but still metered.
FUEL_UNLIMITED = (1 << 63) - 1
# struct cove_limits in cove_driver.c: int64 bytes_left, int64 files_left, int32 hit.
_LIMITS = struct.Struct("<qqi")


class Trapped(enum.Enum):
    """Why a call ended without the guest returning a response."""

    TIMEOUT = "timeout"
    OUT_OF_FUEL = "out_of_fuel"
    STACK_OVERFLOW = "stack_overflow"
    EXIT = "exit"
    CRASH = "crash"


class GuestOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """What came back from one call into the guest."""

    response: bytes | None
    trapped: Trapped | None = None
    exit_code: int | None = None
    detail: str = ""
    fuel_used: int | None = None
    memory_bytes: int = 0
    quota_hit: bool = False


def _classify(trap: wasmtime.Trap) -> Trapped:
    code = trap.trap_code
    if code == wasmtime.TrapCode.INTERRUPT:
        return Trapped.TIMEOUT
    if code == wasmtime.TrapCode.OUT_OF_FUEL:
        return Trapped.OUT_OF_FUEL
    if code == wasmtime.TrapCode.STACK_OVERFLOW:
        return Trapped.STACK_OVERFLOW
    return Trapped.CRASH


class Guest:
    """A live interpreter with its own store, memory limit and workspace preopen."""

    def __init__(self, engine: Engine, workspace: pathlib.Path, *, memory_bytes: int) -> None:
        """Instantiate the snapshot (copy-on-write) with `workspace` preopened as /workspace.

        Raises:
            InterpreterError: instantiation failed (for example a memory limit below the
                snapshot's own size).
        """
        self.engine = engine
        store = wasmtime.Store(engine.wasmtime)
        store.set_limits(memory_size=memory_bytes, instances=1, tables=2, memories=1)
        wasi = wasmtime.WasiConfig()
        # Order matters: the snapshot froze wasi-libc's preopen table (fd 3, then fd 4).
        wasi.preopen_dir(str(engine.artifact.stdlib_dir), "/usr/lib", False)
        wasi.preopen_dir(str(workspace), "/workspace", True)
        store.set_wasi(wasi)
        store.set_epoch_deadline(engine.ticks(5.0))
        if engine.consume_fuel:
            store.set_fuel(FUEL_UNLIMITED)
        try:
            instance = engine.instance_pre.instantiate(store)
        except (wasmtime.WasmtimeError, wasmtime.Trap) as exc:
            store.close()
            raise InterpreterError(f"cannot instantiate the interpreter: {exc}") from exc
        exports = instance.exports(store)
        memory = exports["memory"]
        funcs = {
            name: exports[name]
            for name in ("cove_alloc", "cove_free", "cove_call", "cove_response", "cove_limits")
        }
        if not isinstance(memory, wasmtime.Memory) or not all(
            isinstance(f, wasmtime.Func) for f in funcs.values()
        ):
            store.close()
            raise InterpreterError("the interpreter artifact lacks Cove's call-in exports")
        self._store = store
        self._memory = memory
        self._alloc, self._free, self._call, self._response, limits = (
            f for f in funcs.values() if isinstance(f, wasmtime.Func)
        )
        self._limits_ptr = int(limits(store))
        self.closed = False

    def call(
        self,
        payload: bytes,
        *,
        timeout_s: float,
        fuel: int | None,
        bytes_left: int,
        files_left: int,
        host: HostHandler | None = None,
    ) -> GuestOutcome:
        """Run one request in the guest and return its outcome; never raises for guest faults.

        Blocks the calling thread for up to `timeout_s` (plus one epoch tick).
        """
        store, memory = self._store, self._memory
        store.set_epoch_deadline(self.engine.ticks(timeout_s))
        budget = FUEL_UNLIMITED
        if self.engine.consume_fuel:
            budget = fuel if fuel is not None else FUEL_UNLIMITED
            store.set_fuel(budget)
        memory.write(store, _LIMITS.pack(bytes_left, files_left, 0), self._limits_ptr)
        previous = set_host_handler(host)
        try:
            return self._run(payload, budget)
        finally:
            set_host_handler(previous)

    def _run(self, payload: bytes, budget: int) -> GuestOutcome:
        store, memory = self._store, self._memory
        trapped: Trapped | None = None
        exit_code: int | None = None
        detail = ""
        response: bytes | None = None
        try:
            ptr = self._alloc(store, len(payload))
            if not ptr:
                trapped, detail = Trapped.CRASH, "the guest could not allocate the request"
            else:
                memory.write(store, payload, ptr)
                length = self._call(store, ptr, len(payload))
                if length < 0:
                    trapped, detail = Trapped.CRASH, "the guest driver failed"
                else:
                    start = self._response(store)
                    response = bytes(memory.read(store, start, start + length))
                    self._free(store, ptr)
        except wasmtime.Trap as trap:
            trapped, detail = _classify(trap), trap.message
        except wasmtime.ExitTrap as exc:
            trapped, exit_code, detail = Trapped.EXIT, exc.code, str(exc)
        except wasmtime.WasmtimeError as exc:
            trapped, detail = Trapped.CRASH, str(exc)
        fuel_used = budget - store.get_fuel() if self.engine.consume_fuel else None
        quota_hit = False
        if trapped is None:
            quota_hit = bool(
                _LIMITS.unpack(
                    memory.read(store, self._limits_ptr, self._limits_ptr + _LIMITS.size)
                )[2]
            )
        return GuestOutcome(
            response=response,
            trapped=trapped,
            exit_code=exit_code,
            detail=detail,
            fuel_used=fuel_used,
            memory_bytes=memory.data_len(store),
            quota_hit=quota_hit,
        )

    def memory_bytes(self) -> int:
        """Current size of the guest's linear memory."""
        return self._memory.data_len(self._store)

    def close(self) -> None:
        """Release the store and everything in it. Idempotent."""
        if not self.closed:
            self.closed = True
            self._store.close()

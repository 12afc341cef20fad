"""One interpreter instance: a wasmtime store plus an instance of the snapshot.

Blocking and single-threaded: a `Guest` is driven from one worker thread at a time (its
session's lock guarantees it). Every trap is translated into an outcome in exactly one place,
`Guest.call`; after any trap the interpreter inside is unusable (stale frames, redirected
streams), so the session replaces the guest with a fresh one from the snapshot.
"""

from __future__ import annotations

import enum
import pathlib
import time

import msgspec
import wasmtime

from ._engine import Engine, HostHandler, enter_call, leave_call
from ._errors import InterpreterError
from ._protocol import unpack_call_result
from ._rawcall import RawFunc, RawMemory

__all__ = ["Guest", "GuestOutcome", "Trapped"]

# Fuel given to a call with no fuel limit: effectively unbounded, but still metered.
FUEL_UNLIMITED = (1 << 63) - 1


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

    def __init__(
        self, engine: Engine, workspace: pathlib.Path, *, tmp: pathlib.Path, memory_bytes: int
    ) -> None:
        """Instantiate the snapshot (copy-on-write) with `workspace` preopened as /workspace
        and `tmp` as /tmp (both writable; the session's quota covers both).

        Raises:
            InterpreterError: instantiation failed (for example a memory limit below the
                snapshot's own size).
        """
        self.engine = engine
        store = wasmtime.Store(engine.wasmtime)
        store.set_limits(memory_size=memory_bytes, instances=1, tables=2, memories=1)
        wasi = wasmtime.WasiConfig()
        # Order matters: the snapshot froze wasi-libc's preopen table (fd 3, 4, 5), and the
        # artifact's manifest names it (`Artifact.PREOPENS`).
        wasi.preopen_dir(str(engine.artifact.stdlib_dir), "/usr/lib", False)
        wasi.preopen_dir(str(workspace), "/workspace", True)
        wasi.preopen_dir(str(tmp), "/tmp", True)
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
        buffer, call = exports["cove_buffer"], exports["cove_call"]
        if not (
            isinstance(memory, wasmtime.Memory)
            and isinstance(buffer, wasmtime.Func)
            and isinstance(call, wasmtime.Func)
        ):
            store.close()
            raise InterpreterError("the interpreter artifact lacks Cove's call-in exports")
        limits = exports.get("cove_limits")
        if isinstance(limits, wasmtime.Func):
            try:
                limits(store, engine.max_open_files, engine.max_directory_depth)
            except (wasmtime.WasmtimeError, wasmtime.Trap) as exc:
                store.close()
                raise InterpreterError(f"cannot configure the interpreter: {exc}") from exc
        self._store = store
        self._memory = RawMemory(store, memory)
        self._buffer = RawFunc(store, buffer, ("i32",), "i32")
        self._call = RawFunc(store, call, ("i32", "i64", "i64"), "i64")
        self._buffer_ptr = 0
        self._buffer_cap = 0
        self.closed = False

    def call(
        self,
        payload: bytes,
        *,
        timeout_s: float,
        fuel: int | None,
        bytes_left: int,
        files_left: int,
        max_response_bytes: int,
        host: HostHandler | None = None,
    ) -> GuestOutcome:
        """Run one request in the guest and return its outcome; never raises for guest faults.

        A response longer than `max_response_bytes` is not read (the guest's driver bounds
        what it returns; only tampered-with guest code exceeds it): the call is a crash.

        Blocks the calling thread for up to `timeout_s` (plus one epoch tick).
        """
        store = self._store
        store.set_epoch_deadline(self.engine.ticks(timeout_s))
        budget = FUEL_UNLIMITED
        if self.engine.consume_fuel:
            budget = fuel if fuel is not None else FUEL_UNLIMITED
            store.set_fuel(budget)
        previous = enter_call(host, time.monotonic() + timeout_s, self.engine.consume_fuel)
        self.engine.call_started()
        try:
            return self._run(payload, budget, bytes_left, files_left, max_response_bytes)
        finally:
            self.engine.call_ended()
            leave_call(previous)

    def _run(
        self, payload: bytes, budget: int, bytes_left: int, files_left: int, max_response: int
    ) -> GuestOutcome:
        store, memory = self._store, self._memory
        trapped: Trapped | None = None
        exit_code: int | None = None
        detail = ""
        response: bytes | None = None
        quota_hit = False
        try:
            if len(payload) > self._buffer_cap:
                self._buffer_ptr = self._buffer(len(payload)) & 0xFFFFFFFF
                self._buffer_cap = len(payload) if self._buffer_ptr else 0
            if not self._buffer_ptr:
                trapped, detail = Trapped.CRASH, "the guest could not allocate the request"
            else:
                memory.write(self._buffer_ptr, payload)
                packed = self._call(len(payload), bytes_left, files_left)
                start, length, quota_hit = unpack_call_result(packed)
                if packed < 0:
                    trapped, detail = Trapped.CRASH, "the guest driver failed"
                elif length > max_response or start + length > memory.size():
                    trapped = Trapped.CRASH
                    detail = "the guest returned a response outside its bounds"
                else:
                    response = memory.read(start, length)
        except wasmtime.Trap as trap:
            trapped, detail = _classify(trap), trap.message
        except wasmtime.ExitTrap as exc:
            trapped, exit_code, detail = Trapped.EXIT, exc.code, str(exc)
        except Exception as exc:  # WasmtimeError, or anything odd: the guest's fault, not ours
            trapped, detail = Trapped.CRASH, f"{type(exc).__name__}: {exc}"
        fuel_used: int | None = None
        if self.engine.consume_fuel:
            try:
                fuel_used = budget - store.get_fuel()
            except wasmtime.WasmtimeError:
                fuel_used = budget
        return GuestOutcome(
            response=response,
            trapped=trapped,
            exit_code=exit_code,
            detail=detail,
            fuel_used=fuel_used,
            memory_bytes=memory.size(),
            quota_hit=quota_hit,
        )

    def memory_bytes(self) -> int:
        """Current size of the guest's linear memory."""
        return self._memory.size()

    def close(self) -> None:
        """Release the store and everything in it. Idempotent."""
        if not self.closed:
            self.closed = True
            self._store.close()

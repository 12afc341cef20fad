"""One interpreter instance: a wasmtime store plus an instance of the snapshot.

Blocking and single-threaded: a `Guest` is driven from one worker thread at a time (its
session's lock guarantees it). Every trap is translated into an outcome in exactly one place,
`Guest.call`; after any trap the interpreter inside is unusable (stale frames, redirected
streams), so the session replaces the guest with a fresh one from the snapshot.

A call's deadline has two stages (`_rawcall.SoftDeadline`): at the deadline the running code is
interrupted (it gets `TimeLimitExceeded` at its next bytecode boundary, and the call returns
normally with its state kept: `GuestOutcome.interrupted`); if it has not returned after the
engine's grace period, the call ends with a trap (TIMEOUT) and the interpreter is replaced.
"""

from __future__ import annotations

import enum
import pathlib
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import cast

import msgspec
import wasmtime

from . import _pages
from . import _protocol as protocol
from ._engine import Engine
from ._errors import InterpreterError
from ._hostcall import HostHandler, enter_call, leave_call
from ._protocol import unpack_call_result
from ._rawcall import HardDeadline, RawFunc, RawMemory, SoftDeadline

__all__ = ["Guest", "GuestOutcome", "Trapped"]

# Fuel given to a call with no fuel limit: effectively unbounded, but still metered.
FUEL_UNLIMITED = (1 << 63) - 1

# The deadline of a call into the guest outside `call`: instantiating the snapshot (its start
# functions), `cove_limits`, `cove_open_files`. Each takes microseconds; this only bounds a
# guest that misbehaves.
HOUSEKEEPING_CALL_S = 5.0


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
    interrupted: bool = False


def _raw(store: wasmtime.Store, funcs: Mapping[str, object], name: str) -> RawFunc:
    """The export `name` (checked to be a function) on the lean call path, with its signature
    as `_protocol.EXPORTS` declares it."""
    params, result = protocol.EXPORTS[name]
    assert result is not None
    return RawFunc(store, cast(wasmtime.Func, funcs[name]), params, result)


def _signed32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


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
        # artifact's manifest names it (`Artifact.PREOPENS`). The root is read-only.
        wasi.preopen_dir(str(engine.artifact.root_dir), "/", False)
        wasi.preopen_dir(str(workspace), "/workspace", True)
        wasi.preopen_dir(str(tmp), "/tmp", True)
        store.set_wasi(wasi)
        store.set_epoch_deadline(engine.ticks(HOUSEKEEPING_CALL_S))
        if engine.consume_fuel:
            store.set_fuel(FUEL_UNLIMITED)
        try:
            instance = engine.instance_pre.instantiate(store)
        except (wasmtime.WasmtimeError, wasmtime.Trap) as exc:
            store.close()
            raise InterpreterError(f"cannot instantiate the interpreter: {exc}") from exc
        exports = instance.exports(store)
        memory = exports.get("memory")
        funcs = {name: exports.get(name) for name in protocol.EXPORTS}
        stack_pointer = exports.get("__stack_pointer")
        if not (
            isinstance(memory, wasmtime.Memory)
            and all(isinstance(func, wasmtime.Func) for func in funcs.values())
            and isinstance(stack_pointer, wasmtime.Global)
        ):
            store.close()
            raise InterpreterError("the interpreter artifact lacks Cove's call-in exports")
        interrupt = cast(wasmtime.Func, funcs["cove_interrupt"])
        self._deadline: SoftDeadline | HardDeadline = (
            SoftDeadline(store, interrupt, stack_pointer, engine.grace_ticks)
            if engine.grace_ticks
            else HardDeadline()
        )
        limits = exports.get("cove_limits")
        if isinstance(limits, wasmtime.Func):
            try:
                limits(store, engine.max_open_files, engine.max_directory_depth)
            except (wasmtime.WasmtimeError, wasmtime.Trap) as exc:
                self._deadline.close()
                store.close()
                raise InterpreterError(f"cannot configure the interpreter: {exc}") from exc
        self._store = store
        self._wasm_memory = memory
        self._limits_func = limits if isinstance(limits, wasmtime.Func) else None
        self._memory = RawMemory(store, memory)
        self._buffer = _raw(store, funcs, "cove_buffer")
        self._call = _raw(store, funcs, "cove_call")
        self._open_files = _raw(store, funcs, "cove_open_files")
        self._stack_pointer = stack_pointer
        self._buffer_ptr = 0
        self._buffer_cap = 0
        # The pages `prefault` made private, one byte a page (1: made private ahead): until the
        # guest writes them they hold the snapshot's bytes, so `changed_runs` compares them.
        self._ahead = bytearray()
        self.closed: bool = False

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
        soft: bool = True,
        deadline: float | None = None,
    ) -> GuestOutcome:
        """Run one request in the guest and return its outcome; never raises for guest faults.

        A response longer than `max_response_bytes` is not read (the guest's driver bounds
        what it returns; only tampered-with guest code exceeds it): the call is a crash.
        Not `soft`: the deadline ends the call at once, with no interruption and grace period
        first (housekeeping). `deadline` (`time.monotonic()` seconds) is the instant `timeout_s`
        counts to, when the caller has it already: host calls made by the guest end by it.

        Blocks the calling thread for up to `timeout_s` (plus the grace period, when `soft`,
        and one epoch tick).
        """
        store = self._store
        self._deadline.arm(soft=soft)
        store.set_epoch_deadline(self.engine.ticks(timeout_s))
        budget = FUEL_UNLIMITED
        if self.engine.consume_fuel:
            budget = fuel if fuel is not None else FUEL_UNLIMITED
            store.set_fuel(budget)
        if deadline is None:
            deadline = time.monotonic() + timeout_s
        previous = enter_call(host, deadline, self.engine.consume_fuel, self._deadline.expire)
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
        if trapped is not None and self._deadline.hard_fired:
            trapped = Trapped.TIMEOUT  # the hard deadline's trap carries no code of its own
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
            interrupted=trapped is None and self._deadline.soft_fired,
        )

    def memory_bytes(self) -> int:
        """Current size of the guest's linear memory."""
        return self._memory.size()

    # -- state: what session images are made of (`_image`) --------------------------------------

    def stack_pointer(self) -> int:
        """The guest's shadow-stack pointer (between calls, its initial value)."""
        value = self._stack_pointer.value(self._store)
        assert isinstance(value, int)
        return value & 0xFFFFFFFF

    def _housekeeping(self) -> None:
        """Before a call into the guest outside `call`: a deadline of its own (the store's is
        the last call's, long past) and no soft stage (only the driver runs)."""
        self._deadline.arm(soft=False)
        self._store.set_epoch_deadline(self.engine.ticks(HOUSEKEEPING_CALL_S))

    def open_files(self) -> int:
        """Descriptors the guest's code holds open (path_open's, not stdio or the preopens).

        Raises:
            InterpreterError: the guest could not answer (it trapped).
        """
        self._housekeeping()
        try:
            return self._open_files()
        except (wasmtime.WasmtimeError, wasmtime.Trap) as exc:
            message = f"the interpreter could not count its open files: {exc}"
            raise InterpreterError(message) from exc

    def changed_runs(self, pristine: Guest, *, exact: bool = True) -> list[_pages.Run]:
        """Runs (first page, count) of this guest's memory pages that differ from `pristine`'s
        (a never-run instance of the same engine). Between calls only.

        Not `exact`: the pages `prefault` made private are taken as changed, not compared (a
        superset, for a fork's copy: copying such a page costs less than comparing it, one
        `memcmp` call per page from Python; measured on 2026-12-02, comparing a typical
        session's ~350 took 1.1-1.6 ms and spared ~90 pages of copying)."""
        return _pages.changed_runs(
            self._memory.address(),
            self._memory.size(),
            pristine._memory.address(),
            pristine._memory.size(),
            self._ahead if exact else b"",
        )

    def pages(self, runs: Iterable[tuple[int, int]]) -> Iterator[memoryview]:
        """Each run of pages, in order, as a view of the guest's memory (no copy; valid while
        the guest neither runs nor grows)."""
        return _pages.views(self._memory.address(), runs)

    def prefault(self, runs: Iterable[tuple[int, int]]) -> None:
        """Make these pages of a fresh guest's memory private ahead of its first call, their
        bytes unchanged (`_pages.prefault`). The pages are remembered: `changed_runs` compares
        them with the pristine's rather than taking them as changed."""
        _pages.prefault(self._memory.address(), self._memory.size(), runs, self._ahead)

    def copy_pages_to(self, runs: list[tuple[int, int]], base: int) -> None:
        """Copy these runs of this guest's pages to the same pages of the memory at `base`
        (`_pages.Copier.copy`, the engine's)."""
        self.engine.copier.copy(self._memory.address(), base, runs)

    def restore(self, memory_bytes: int, stack_pointer: int, fill: Callable[[int], None]) -> None:
        """Make this fresh guest's state another's: grow the memory to `memory_bytes`, let
        `fill(base)` write the other's changed pages at the memory's address `base`, set the
        stack pointer, and bring the guest's descriptor table in line with this instance (none
        of the other's descriptors exist here).

        Raises:
            InterpreterError: the memory cannot grow that far (this guest's limit is lower), or
                the guest refused its configuration.
        """
        size = self._memory.size()
        if memory_bytes < size or memory_bytes % 65536:
            raise InterpreterError("the saved memory is smaller than the interpreter's")
        store = self._store
        if memory_bytes > size:
            try:
                self._wasm_memory.grow(store, (memory_bytes - size) // 65536)
            except wasmtime.WasmtimeError as exc:
                raise InterpreterError(f"cannot grow the interpreter's memory: {exc}") from exc
        fill(self._memory.address())
        self._stack_pointer.set_value(store, wasmtime.Val.i32(_signed32(stack_pointer)))
        if self._limits_func is not None:
            self._housekeeping()
            try:
                self._limits_func(
                    store, self.engine.max_open_files, self.engine.max_directory_depth
                )
            except (wasmtime.WasmtimeError, wasmtime.Trap) as exc:
                raise InterpreterError(f"cannot configure the interpreter: {exc}") from exc

    def request(
        self,
        message: protocol.GuestRequest,
        *,
        bytes_left: int,
        files_left: int,
        timeout_s: float,
    ) -> bytes | None:
        """A housekeeping request (reseed, close files, warm-up), within the workspace quota
        left and `timeout_s` (no grace period: guest memory is the model's, so a request can
        take as long as the host lets it): the guest's answer, or None if it trapped or failed
        (the caller then does without it)."""
        outcome = self.call(
            protocol.encode(message),
            timeout_s=timeout_s,
            fuel=None,
            bytes_left=bytes_left,
            files_left=files_left,
            max_response_bytes=protocol.HOUSEKEEPING_RESPONSE_BYTES,
            soft=False,
        )
        return None if outcome.trapped is not None else outcome.response

    def close(self) -> None:
        """Release the store and everything in it. Idempotent."""
        if not self.closed:
            self.closed = True
            self._deadline.close()
            self._store.close()

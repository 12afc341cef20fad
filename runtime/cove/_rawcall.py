"""The lean path into wasm: wasmtime's C API called with arguments built once.

wasmtime-py's `Func.__call__` converts every argument and result through `Val` objects (about a
dozen ctypes allocations per call, ~17 µs per crossing), and `Memory.read`/`write` copy through
a bytearray. A call into the guest has a fixed signature, so all of that can be prepared once
per interpreter: the argument array, the trap slot, the memory's address.

This module is the one place Cove uses wasmtime-py's private FFI layer (`wasmtime._ffi`; the
version is pinned in pyproject.toml). Everything else goes through the public API; the
behaviour is the public API's (traps raise `wasmtime.Trap`, exits `wasmtime.ExitTrap`, other
failures `wasmtime.WasmtimeError`).
"""

from __future__ import annotations

import ctypes
import itertools
from typing import Any, cast

import wasmtime
from wasmtime import _ffi  # pyright: ignore[reportPrivateUsage]

# The generated ctypes bindings are untyped: used as such.
ffi: Any = _ffi

__all__ = ["RawFunc", "RawMemory"]


def _context(store: wasmtime.Store) -> Any:
    return store._context()  # pyright: ignore[reportPrivateUsage]


class RawFunc:
    """One exported function of one store, called with integer arguments of fixed types.

    `kinds` names each parameter's type ("i32" or "i64"); the result, if any, is an i64 or i32
    read back as a Python int.
    """

    def __init__(
        self, store: wasmtime.Store, func: wasmtime.Func, kinds: tuple[str, ...], result: str
    ) -> None:
        self._context = _context(store)
        self._func = ctypes.byref(func._func)  # pyright: ignore[reportPrivateUsage]
        self._kinds = kinds
        self._result = result
        self._size = max(len(kinds), 1)
        self._values: Any = (ffi.wasmtime_val_raw_t * self._size)()
        self._new_trap_slot()

    def _new_trap_slot(self) -> None:
        trap = cast(Any, ctypes.POINTER(ffi.wasm_trap_t)())
        self._trap: Any = trap
        self._trap_ref: Any = ctypes.byref(trap)

    def __call__(self, *args: int) -> int:
        values = self._values
        for index, (kind, value) in enumerate(zip(self._kinds, args, strict=True)):
            if kind == "i32":
                values[index].i32 = value
            else:
                values[index].i64 = value
        error = ffi.wasmtime_func_call_unchecked(
            self._context, self._func, values, self._size, self._trap_ref
        )
        if error:
            raise wasmtime.WasmtimeError._from_ptr(error)  # pyright: ignore[reportPrivateUsage]
        if self._trap:
            trap = wasmtime.Trap._from_ptr(self._trap)  # pyright: ignore[reportPrivateUsage]
            self._new_trap_slot()
            raise trap
        result = values[0]
        return int(result.i32 if self._result == "i32" else result.i64)


class RawMemory:
    """A store's linear memory, read and written in place (bounds-checked)."""

    def __init__(self, store: wasmtime.Store, memory: wasmtime.Memory) -> None:
        self._context = _context(store)
        self._memory = ctypes.byref(memory._memory)  # pyright: ignore[reportPrivateUsage]

    def size(self) -> int:
        """The memory's current size in bytes (it only grows)."""
        return int(ffi.wasmtime_memory_data_size(self._context, self._memory))

    def address(self) -> int:
        """Where the memory starts in this process. It moves when the memory grows: use it
        only while the guest cannot run."""
        data = ffi.wasmtime_memory_data(self._context, self._memory)
        return ctypes.addressof(data.contents)

    def _address(self, start: int, length: int) -> int:
        if start < 0 or length < 0 or start + length > self.size():
            raise IndexError("outside the guest's memory")
        # The base moves when the memory grows: fetched afresh for every access.
        return self.address() + start

    def write(self, start: int, data: bytes) -> None:
        """Copy `data` into the memory at `start`."""
        ctypes.memmove(self._address(start, len(data)), data, len(data))

    def read(self, start: int, length: int) -> bytes:
        """A copy of `length` bytes at `start`."""
        return ctypes.string_at(self._address(start, length), length)


# -- the soft deadline ---------------------------------------------------------------------------

_context_pointer: Any = cast(Any, ctypes.POINTER(ffi.wasmtime_context_t))
_kind_pointer: Any = cast(Any, ctypes.POINTER(ffi.wasmtime_update_deadline_kind_t))
_EpochCallback = ctypes.CFUNCTYPE(
    ctypes.c_size_t,
    _context_pointer,
    ctypes.c_void_p,
    ctypes.POINTER(ctypes.c_uint64),
    _kind_pointer,
)
_UPDATE_CONTINUE = 0
# LLVM's wasm backend lets a leaf function use up to 128 bytes below __stack_pointer without
# moving it (a red zone): the nested call starts below that, as a signal handler would.
_RED_ZONE = 256
_deadlines: dict[int, SoftDeadline] = {}
_keys = itertools.count(1)  # next() on it is atomic under the GIL: stores are made on many threads


def _on_epoch_deadline(ctx: Any, data: Any, delta: Any, kind: Any) -> int:
    # Called by wasmtime on the thread running the guest, the guest paused at an epoch check.
    # Nothing may unwind through wasmtime: any failure ends the call (the hard deadline).
    try:
        deadline = _deadlines.get(data or 0)
        if deadline is not None and deadline.soft_due(ctx):
            delta[0] = deadline.grace_ticks
            kind[0] = _UPDATE_CONTINUE
            return 0
        if deadline is not None:
            deadline.hard_fired = True
    except BaseException:
        pass
    error = ffi.wasmtime_error_new(b"cove: the call's hard deadline was reached")
    return int(ctypes.cast(error, ctypes.c_void_p).value or 0)


_CALLBACK = _EpochCallback(_on_epoch_deadline)
_NO_FINALIZER = ctypes.cast(0, ctypes.CFUNCTYPE(None, ctypes.c_void_p))


class HardDeadline:
    """A store's deadline with no soft stage (a grace period of 0): wasmtime's own epoch trap
    ends the call at once, no callback is registered."""

    soft_fired = False
    hard_fired = False

    def arm(self, *, soft: bool) -> None:
        """Nothing to arm: the deadline traps."""

    def expire(self, store: wasmtime.Store) -> None:
        """The call's time is up on the host's clock: its next epoch check traps."""
        wasmtime.Store.set_epoch_deadline(store, 0)  # a Caller too (its context)

    def close(self) -> None:
        """Nothing registered."""


class SoftDeadline:
    """A store's two-stage deadline: an interrupt the guest's code sees, then a trap.

    Registered once per store (wasmtime calls `_on_epoch_deadline` instead of trapping when the
    store's epoch deadline passes). When `arm(soft=True)` was called, the first time the deadline
    passes the guest's `cove_interrupt` export is called re-entrantly, with `__stack_pointer`
    lowered past the red zone and restored after, and the guest gets `grace_ticks` more epoch
    ticks; the next time (or the first, when not armed soft) the call ends with a trap, and
    `hard_fired` says so (wasmtime gives that trap no code of its own).
    """

    def __init__(
        self,
        store: wasmtime.Store,
        interrupt: wasmtime.Func,
        stack_pointer: wasmtime.Global,
        grace_ticks: int,
    ) -> None:
        self._key = next(_keys)
        self._interrupt = ctypes.byref(interrupt._func)  # pyright: ignore[reportPrivateUsage]
        self._stack_pointer = ctypes.byref(stack_pointer._global)  # pyright: ignore[reportPrivateUsage]
        self._values: Any = (ffi.wasmtime_val_raw_t * 1)()
        self._sp: Any = ffi.wasmtime_val_t()
        self.grace_ticks = grace_ticks
        self.soft_pending = False
        self.soft_fired = False
        self.hard_fired = False
        _deadlines[self._key] = self
        ffi.wasmtime_store_epoch_deadline_callback(
            store.ptr(), _CALLBACK, ctypes.c_void_p(self._key), _NO_FINALIZER
        )

    def arm(self, *, soft: bool) -> None:
        """A call begins: interrupt first (`soft`), or trap at once, when its deadline passes."""
        self.soft_pending = soft
        self.soft_fired = False
        self.hard_fired = False

    def expire(self, store: wasmtime.Store) -> None:
        """The call's time is up on the host's clock (`_hostcall._past_deadline`): the next
        epoch check interrupts the call (or ends it, when not armed soft), unless the interrupt
        came already: then its grace period runs on, as it would."""
        if not self.soft_fired:
            wasmtime.Store.set_epoch_deadline(store, 0)  # a Caller too (its context)

    def soft_due(self, ctx: Any) -> bool:
        """The deadline passed (wasmtime's callback, guest paused): True if the guest was
        interrupted and gets its grace period, False if the call must end now."""
        if not self.soft_pending:
            return False
        self.soft_pending = False
        self.soft_fired = True
        # First the next deadline, so that the nested call's own epoch checks do not come back.
        ffi.wasmtime_context_set_epoch_deadline(ctx, self.grace_ticks)
        sp = self._sp
        ffi.wasmtime_global_get(ctx, self._stack_pointer, ctypes.byref(sp))
        saved = sp.of.i32
        sp.of.i32 = saved - _RED_ZONE
        error = ffi.wasmtime_global_set(ctx, self._stack_pointer, ctypes.byref(sp))
        if error:
            ffi.wasmtime_error_delete(error)
            return True  # not interrupted: the grace period runs out into the hard deadline
        trap = cast(Any, ctypes.POINTER(ffi.wasm_trap_t)())
        error = ffi.wasmtime_func_call_unchecked(
            ctx, self._interrupt, self._values, 1, ctypes.byref(trap)
        )
        if error:
            ffi.wasmtime_error_delete(error)
        if trap:
            ffi.wasm_trap_delete(trap)
        sp.of.i32 = saved
        error = ffi.wasmtime_global_set(ctx, self._stack_pointer, ctypes.byref(sp))
        if error:
            ffi.wasmtime_error_delete(error)
            return False  # the guest's stack is not its own any more: end the call now
        return True

    def close(self) -> None:
        """Forget the store (it is being closed). Idempotent."""
        _deadlines.pop(self._key, None)

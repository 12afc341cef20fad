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

    def _address(self, start: int, length: int) -> int:
        if start < 0 or length < 0 or start + length > self.size():
            raise IndexError("outside the guest's memory")
        data = ffi.wasmtime_memory_data(self._context, self._memory)
        # The base moves when the memory grows: fetched afresh for every access.
        return ctypes.addressof(data.contents) + start

    def write(self, start: int, data: bytes) -> None:
        """Copy `data` into the memory at `start`."""
        ctypes.memmove(self._address(start, len(data)), data, len(data))

    def read(self, start: int, length: int) -> bytes:
        """A copy of `length` bytes at `start`."""
        return ctypes.string_at(self._address(start, length), length)

"""The memory scribbler: model code that rewrites its interpreter's linear memory through numpy.

numpy hands model code a pointer into the guest's linear memory (an `__array_interface__` with
a raw address), so every byte of it is attacker-controlled. The scribbler does what the attack
round did: it copies the guest's data (everything past the shadow stack, the libc layer's
statics included) before and after an operation with a known effect (12,345 bytes written, 37
files opened or made), finds every aligned integer that moved by exactly that much, and
overwrites each with a hostile value. Then the test tries the limit that counter would have
enforced. A limit that lives on the host (or in a WebAssembly global, which no load or store
reaches) holds; one kept in guest memory does not.

`SCRIBBLER` is Python source that defines `snapshot()` and `scribble(...)` in the guest; the
tests prepend it to their code.
"""

from __future__ import annotations

SCRIBBLER = r'''
import numpy as _np

class _Window:
    def __init__(self, address, count, typestr):
        self.__array_interface__ = {
            "data": (address, False), "shape": (count,), "typestr": typestr, "version": 3,
        }

# --stack-first: the shadow stack is the first 8 MiB; the data and the heap follow.
_LOW = 8 << 20

SPAN = None  # bytes past the stack to scribble over; None: up to the heap's top

def _top():
    if SPAN is not None:
        return _LOW + SPAN
    probe = bytearray(1 << 12)
    return _np.frombuffer(probe, _np.uint8).ctypes.data

def _view(width, top):
    typestr = "<i8" if width == 8 else "<i4"
    return _np.asarray(_Window(_LOW, (top - _LOW) // width, typestr))

def snapshot(width):
    """A copy of the guest's data as integers of `width` bytes."""
    return _view(width, _top()).copy()

def scribble(before, after, delta, value, width):
    """Every integer that moved by exactly `delta` between the two snapshots is set to
    `value` in the live memory; returns how many were."""
    n = min(len(before), len(after))
    live = _view(width, _LOW + n * width)
    found = 0
    step = 1 << 20
    for start in range(0, n, step):
        moved = after[start : start + step] - before[start : start + step]
        hits = _np.nonzero(moved == delta)[0]
        live[start + hits] = value
        found += len(hits)
    return found
'''

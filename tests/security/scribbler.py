"""The memory scribbler: model code that rewrites its interpreter's linear memory through numpy.

numpy hands model code a pointer into the guest's linear memory (an `__array_interface__` with
a raw address), so every byte of it is attacker-controlled. The scribbler does what the attack
round did, a little more carefully: it copies the guest's data (everything past the shadow
stack, the libc layer's statics included), then runs an operation with a known effect and its
undoing and the operation again (12,345 bytes written, the file removed, written again; 37
files opened, closed, opened again), keeps every aligned integer that moved by exactly that
much each time (a counter of that resource, and little else), and overwrites those with a
hostile value. Then the test tries the limit that counter would have
enforced. A limit that lives on the host (or in a WebAssembly global, which no load or store
reaches) holds; one kept in guest memory does not.

`SCRIBBLER` is Python source that defines `Watch` and `scribble` in the guest; the tests
prepend it to their code.
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

class Watch:
    """The guest's data as integers of `width` bytes, watched across operations: `moved(d)`
    after each keeps the integers that moved by exactly `d` since the last (one full copy, at
    the start; then only the candidates are read), `set(v)` overwrites the ones left."""

    def __init__(self, width):
        self.width = width
        self.base = _view(width, _top()).copy()
        self.count = len(self.base)
        self.index = None
        self.values = None

    def _live(self):
        return _view(self.width, _LOW + self.count * self.width)

    def moved(self, delta):
        live = self._live()
        if self.index is None:
            found = []
            step = 1 << 20
            for start in range(0, self.count, step):
                moved = live[start : start + step] - self.base[start : start + step]
                found.append(start + _np.nonzero(moved == delta)[0])
            self.index = _np.concatenate(found)
            self.base = None
        else:
            self.index = self.index[(live[self.index] - self.values) == delta]
        self.values = live[self.index].copy()
        return len(self.index)

    def set(self, value):
        self._live()[self.index] = value
        return len(self.index)


def scribble(width, delta, do, undo, value, now=None):
    """`do()` (which moves a resource's counter by `delta`), `undo()`, `do()` again, watching;
    then every integer that followed all three (and, with `now`, holds that value: a count of
    open files is the number open, where an object's reference count is more) is set to
    `value`. Returns how many were."""
    watch = Watch(width)
    for step, moved in ((do, delta), (undo, -delta), (do, delta)):
        step()
        watch.moved(moved)
    if now is not None:
        watch.index = watch.index[watch._live()[watch.index] == now]
    return watch.set(value)
'''

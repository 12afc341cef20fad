"""The soft deadline: model code stopped by an exception, with the session's state kept.

At a call's deadline the host calls the reactor's `cove_interrupt` export from its epoch-deadline
callback, which trips SIGALRM inside the interpreter (`PyErr_SetInterruptEx`, cove_driver.c).
At the eval loop's next check, the handler installed here raises `TimeLimitExceeded` if model
code is running (`armed()`); otherwise (the driver's own code, between two calls) the interrupt
is dropped and the call simply ends. `TimeLimitExceeded` is a `BaseException`, so a bare
`except Exception:` in model code does not swallow it. Code that never reaches a bytecode
boundary (one long C call), or that catches the exception and goes on, is ended by the host's
hard deadline after a grace period, as before: a trap, and a fresh interpreter.

The wakeup fd is kept off, so that the interrupt makes no WASI call from inside the host's
callback. (Model code can still get the real `set_wakeup_fd` from a fresh `_signal` module;
the write is then an ordinary WASI call of the guest's own, to its own file, and harmless:
tests/integration/test_soft_timeouts.py.)
"""

import builtins
import contextlib
import importlib
import signal
from collections.abc import Iterator
from types import FrameType, TracebackType

__all__ = ["TimeLimitExceeded", "armed", "install", "without_handler"]


class TimeLimitExceeded(BaseException):
    """The call's time limit was reached; the session's variables and imports are kept."""


# A builtin name, so model code can catch it and tracebacks name it plainly.
TimeLimitExceeded.__module__ = "builtins"


_armed = 0


@contextlib.contextmanager
def armed() -> Iterator[None]:
    """Model code runs inside: the interrupt raises `TimeLimitExceeded` there. Nests."""
    global _armed
    _armed += 1
    try:
        yield
    finally:
        _armed -= 1


def _on_deadline(signum: int, frame: FrameType | None) -> None:
    if _armed:
        raise TimeLimitExceeded("the call's time limit was reached")


def without_handler(tb: TracebackType | None) -> TracebackType | None:
    """A traceback without its last entry when that is the handler raising
    `TimeLimitExceeded` (the model's traceback ends at its own line)."""
    entry = tb
    while entry is not None and entry.tb_next is not None:
        if entry.tb_next.tb_frame.f_code is _on_deadline.__code__:
            entry.tb_next = None
            break
        entry = entry.tb_next
    return tb


def _no_wakeup_fd(fd: int, /, *, warn_on_full_buffer: bool = True) -> int:
    """`signal.set_wakeup_fd`, kept off here: nothing is ever written to a wakeup fd."""
    if fd != -1:
        raise ValueError("set_wakeup_fd is not available in this interpreter")
    return -1


def install() -> None:
    """At snapshot time: the handler, and the wakeup fd off for good."""
    # Deliberate patching of builtins and the stdlib: the ignores are for that.
    builtins.TimeLimitExceeded = TimeLimitExceeded  # type: ignore[attr-defined]
    signal.signal(signal.SIGALRM, _on_deadline)
    # `signal` re-exports `_signal`'s function: both names are replaced.
    signal.set_wakeup_fd = _no_wakeup_fd
    importlib.import_module("_signal").set_wakeup_fd = _no_wakeup_fd  # type: ignore[attr-defined]

"""Where a pool's work outside its callers' tasks runs: its background task group, and the
daemon threads that unpack and compile the interpreter."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncGenerator, Callable, Coroutine
from typing import Any, TypeVar, TypeVarTuple, cast

import anyio
import anyio.abc
import anyio.from_thread
import anyio.lowlevel

__all__ = ["Background", "in_daemon_thread"]

_T = TypeVar("_T")
_Ts = TypeVarTuple("_Ts")


async def in_daemon_thread(work: Callable[[], _T]) -> _T:
    """`work()` in a daemon thread of its own, awaited; on cancellation the thread is left to
    finish by itself (unpacking or compiling the interpreter: neither can be interrupted, and
    a daemon thread never holds up the process's exit, as a worker thread would)."""
    done = anyio.Event()
    token = anyio.lowlevel.current_token()
    outcome: list[tuple[bool, object]] = []

    def run() -> None:
        try:
            outcome.append((True, work()))
        except BaseException as exc:
            outcome.append((False, exc))
        try:
            anyio.from_thread.run_sync(done.set, token=token)
        except Exception:
            pass  # the event loop is gone (the process is exiting)

    threading.Thread(target=run, name="cove-open", daemon=True).start()
    await done.wait()
    ok, value = outcome[0]
    if not ok:
        assert isinstance(value, BaseException)
        raise value
    return cast(_T, value)


class Background:
    """Where a pool's background work runs: the task group of `async with Pool(...)`.

    A pool opened with `open()` alone has no task to run it in (anyio ties a task group to the
    task that enters it, and `open()` and `aclose()` may be called from different tasks, even
    different event loops). There the same work is done on demand instead: `run` awaits it at
    once, `start_soon` leaves it undone (what it would do happens when needed: a fork reseeds
    at its first call, no spares are made), and the pool reaps when sessions are created.
    """

    def __init__(self) -> None:
        self._tg: anyio.abc.TaskGroup | None = None

    @property
    def running(self) -> bool:
        """Work started here runs in the background."""
        return self._tg is not None

    @contextlib.asynccontextmanager
    async def entered(self) -> AsyncGenerator[None]:
        """Run background work in a task group until this is left (it is cancelled then; what
        it shields, a session's closing, runs to its end first)."""
        async with anyio.create_task_group() as tg:
            self._tg = tg
            try:
                yield
            finally:
                self._tg = None
                tg.cancel_scope.cancel()

    def start_soon(self, func: Callable[[*_Ts], Coroutine[Any, Any, object]], *args: *_Ts) -> None:
        """`func(*args)` in the background; not at all without one."""
        if self._tg is not None:
            self._tg.start_soon(func, *args)

    async def run(self, func: Callable[[*_Ts], Coroutine[Any, Any, object]], *args: *_Ts) -> None:
        """`func(*args)` in the background, or now, awaited, without one."""
        if self._tg is not None:
            self._tg.start_soon(func, *args)
        else:
            await func(*args)

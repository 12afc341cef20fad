"""A session's own worker thread: how its calls leave the event loop.

`anyio.to_thread.run_sync` costs about twice a dedicated thread per hop (its limiter, cancel
scope, context copy and worker bookkeeping; docs/benchmarks.md's "thread hop baseline"). Under
asyncio, each session runs its calls on a thread of its own, blocked on a queue between calls,
and hands the result back with `loop.call_soon_threadsafe`. The pool's capacity limiter still
bounds how many calls run at once (it is taken in the event loop first). The thread exits when
it has been idle for `IDLE_EXIT_S` and is started again by the next call, so idle sessions hold
no thread. Under other event loops (trio), calls go through anyio's worker threads.

A call is never abandoned: if the awaiting task is cancelled, it still waits for the thread to
finish the call (wasm cannot be interrupted from outside; the call's own deadline ends it), so
the session's lock is never released while its interpreter runs.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import anyio

__all__ = ["SessionWorker"]

T = TypeVar("T")

IDLE_EXIT_S = 5.0

_Job = tuple[Callable[[], Any], asyncio.AbstractEventLoop, "asyncio.Future[Any]"]


class SessionWorker:
    """Runs one session's blocking work off the event loop, one job at a time."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    async def run(self, func: Callable[[], T], limiter: anyio.CapacityLimiter) -> T:
        """`func()` on the session's thread, within `limiter`; its result or its exception.

        Lean on purpose (this is every call's path): on Python 3.11 each lookup of the running
        loop is a `getpid` system call, so the loop is looked up once, and the limiter is taken
        without a checkpoint when a slot is free."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not asyncio (trio): anyio's worker threads
            return await anyio.to_thread.run_sync(func, limiter=limiter)
        task = asyncio.current_task(loop)
        try:
            limiter.acquire_on_behalf_of_nowait(task)
        except anyio.WouldBlock:
            await limiter.acquire_on_behalf_of(task)
        try:
            future: asyncio.Future[T] = loop.create_future()
            self._submit((func, loop, future))
            try:
                return await asyncio.shield(future)
            except asyncio.CancelledError:
                # Cancelled while the call runs: it is never abandoned. Wait for it in a
                # shielded scope (entered only now: it costs several loop lookups), then let
                # the cancellation go on.
                if not future.done():
                    with anyio.CancelScope(shield=True):
                        await asyncio.wait((future,))
                raise
        finally:
            limiter.release_on_behalf_of(task)

    def _submit(self, job: _Job) -> None:
        with self._lock:
            if self._thread is None:
                thread = threading.Thread(target=self._serve, name=self._name, daemon=True)
                thread.start()  # if it raises, nothing is queued and the next call tries again
                self._thread = thread
            self._jobs.put(job)

    def _serve(self) -> None:
        while True:
            try:
                job = self._jobs.get(timeout=IDLE_EXIT_S)
            except queue.Empty:
                with self._lock:
                    if self._jobs.empty():  # nothing came in meanwhile: exit while idle
                        self._thread = None
                        return
                continue
            if job is None:
                return
            func, loop, future = job
            try:
                result = func()
            except BaseException as exc:
                loop.call_soon_threadsafe(_settle, future, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, future, result, None)

    def close(self) -> None:
        """Let the thread exit once the jobs already queued are done. Idempotent."""
        with self._lock:
            if self._thread is not None:
                self._jobs.put(None)
                self._thread = None


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)

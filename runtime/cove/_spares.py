"""Spare sessions: made ahead, in the pool's background, and handed over at creation.

A spare has its interpreter instantiated, the pages a fresh interpreter's first call writes
made private ahead (`Guest.prefault`; which pages is learned once, from a throwaway instance's
first call, before the first spare is made) and a warm-up request answered, so creating a
session with the default memory limit hands one over at once and its first call costs about a
third of a new one's (docs/benchmarks.md). `PoolSettings.spare_sessions` says how many; spares
count against `max_sessions`.
"""

from __future__ import annotations

import collections
import logging
import pathlib
from collections.abc import Callable

import anyio

from . import _protocol as protocol
from ._engine import Engine
from ._guest import Guest
from ._pages import Run
from ._sessionops import PoolSession

__all__ = ["Spares"]

_log = logging.getLogger("cove")

# The first call a spare is prepared for: a trivial one, with time to spare on a loaded host.
_FIRST_CALL_PROBE_S = 10.0


def first_call_runs(engine: Engine, pristine: Guest, scratch: pathlib.Path) -> list[Run]:
    """The pages a fresh interpreter's first call writes (a trivial one, in a throwaway
    instance with no quota, its directories `scratch`). Blocking."""
    throwaway = Guest(engine, scratch, tmp=scratch, memory_bytes=engine.initial_memory_bytes)
    try:
        request = protocol.ExecRequest(code="pass", max_output_bytes=1024)
        answer = throwaway.request(
            request, bytes_left=0, files_left=0, timeout_s=_FIRST_CALL_PROBE_S
        )
        if answer is None:
            return []
        return throwaway.changed_runs(pristine)
    finally:
        throwaway.close()


class Spares:
    """The spares of one pool.

    `make()` builds a new, not yet started session with the default limits; `room()` says
    whether the pool has room for one more (spares included)."""

    def __init__(
        self,
        count: int,
        *,
        learn: Callable[[], list[Run]],
        make: Callable[[], PoolSession],
        room: Callable[[], bool],
    ) -> None:
        self.count = count
        self._learn = learn
        self._make = make
        self._room = room
        self._spares: collections.deque[PoolSession] = collections.deque()
        # The pages a first call writes (`first_call_runs`), learned before the first spare.
        self.first_call: list[Run] | None = None
        self._making = False
        self._closed = False

    def __len__(self) -> int:
        return len(self._spares)

    def __getitem__(self, index: int) -> PoolSession:
        return self._spares[index]

    def take(self, memory_bytes: int) -> PoolSession | None:
        """A spare made for this memory limit, out of the set, or None."""
        if self._spares and self._spares[0].limits.memory_bytes == memory_bytes:
            return self._spares.popleft()
        return None

    async def keep(self) -> None:
        """Make spares until there are `count` (and the pool has room); one task at a time, in
        the pool's background. Never raises."""
        if self._making or not self.count:
            return
        self._making = True
        try:
            if self.first_call is None:
                self.first_call = await anyio.to_thread.run_sync(self._learn)
            while not self._closed and len(self._spares) < self.count and self._room():
                spare = self._make()
                # Shielded (a few milliseconds): a spare made is either kept or closed here,
                # never dropped half-made by the pool's closing.
                with anyio.CancelScope(shield=True):
                    await spare.start(prefault=self.first_call)
                if self._closed:
                    await spare.aclose()
                    return
                self._spares.append(spare)
        except Exception:
            _log.exception("could not make a spare session")
        finally:
            self._making = False

    def close(self) -> None:
        """Make no more spares (one being made is closed when it is done)."""
        self._closed = True

    async def aclose(self) -> None:
        """Close every spare kept. Idempotent."""
        self._closed = True
        while self._spares:
            with anyio.CancelScope(shield=True):
                await self._spares.popleft().aclose()

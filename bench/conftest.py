from __future__ import annotations

import asyncio
import pathlib
import tempfile
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest

import cove

T = TypeVar("T")


class Loop:
    """Runs coroutines on one event loop in this thread (pytest-benchmark times sync calls)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()

    def run(self, factory: Callable[[], Awaitable[T]]) -> T:
        return self.loop.run_until_complete(factory())  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def loop() -> Iterator[Loop]:
    runner = Loop()
    yield runner
    runner.loop.close()


@pytest.fixture(scope="module")
def pool(loop: Loop) -> Iterator[cove.Pool]:
    root = pathlib.Path(tempfile.mkdtemp(prefix="cove-bench-"))
    cache = pathlib.Path(tempfile.gettempdir()) / "cove-bench-cache"
    p = cove.Pool(
        cove.PoolSettings(workspace_root=str(root), cache_dir=str(cache), max_sessions=100_000)
    )

    async def open_() -> None:
        await p.open()

    loop.run(open_)
    yield p

    async def close() -> None:
        await p.aclose()

    loop.run(close)


def run(loop: Loop, coro_fn: Callable[..., Awaitable[Any]], *args: Any) -> Any:
    return loop.run(lambda: coro_fn(*args))

"""A session's own worker thread (runtime/cove/_worker.py): calls leave the event loop on it,
a cancelled caller still waits for its call to finish, and an idle session holds no thread."""

from __future__ import annotations

import anyio
import pytest

import cove
from cove import _worker

pytestmark = pytest.mark.anyio


async def test_a_cancelled_call_still_finishes_before_the_next_one_starts(
    session: cove.Session,
) -> None:
    with anyio.move_on_after(0.05):
        await session.run_code(
            "import time\ntime.sleep(0.5)\nopen('done.txt', 'w').write('finished')"
        )
    # The caller gave up, but the call ran to its end before the session took another one.
    result = await session.run_code("print(open('done.txt').read())")
    assert result.stdout == "finished\n"


async def test_an_idle_session_lets_its_thread_go(
    session: cove.Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_worker, "IDLE_EXIT_S", 0.05)
    worker = session._worker  # pyright: ignore[reportPrivateUsage]
    await session.run_code("x = 1")
    with anyio.fail_after(10):
        while worker._thread is not None:  # pyright: ignore[reportPrivateUsage]
            await anyio.sleep(0.02)
    assert (await session.run_code("print(x + 1)")).stdout == "2\n"


@pytest.mark.parametrize("anyio_backend", ["trio"])
async def test_calls_run_under_trio_through_anyio(settings: cove.PoolSettings) -> None:
    async with cove.Pool(settings) as pool:
        session = await pool.create_session()
        assert (await session.run_code("print(6 * 7)")).stdout == "42\n"


async def test_a_thread_that_cannot_start_fails_the_call_and_the_next_one_works(
    session: cove.Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Nothing is queued for a thread that never started: the next call starts one.
    worker = session._worker  # pyright: ignore[reportPrivateUsage]
    thread = worker._thread  # pyright: ignore[reportPrivateUsage]
    worker.close()
    if thread is not None:  # the one the session was made on: gone before the test starts
        thread.join(10)
        assert not thread.is_alive()

    def refuse(self: object) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(_worker.threading.Thread, "start", refuse)
    with anyio.fail_after(10), pytest.raises(RuntimeError, match="can't start new thread"):
        await session.run_code("x = 1")
    # Nothing left behind that the next call would wait on forever.
    assert worker._thread is None and worker._jobs.empty()  # pyright: ignore[reportPrivateUsage]
    monkeypatch.undo()
    with anyio.fail_after(10):
        assert (await session.run_code("print(41 + 1)")).stdout == "42\n"


async def test_a_new_session_has_its_thread_before_its_first_call(pool: cove.Pool) -> None:
    # Made on its own thread, whether on demand or as a spare handed over: the first call
    # does not have to start one.
    on_demand = await pool.create_session()
    with anyio.fail_after(10):
        while not pool._spares:  # pyright: ignore[reportPrivateUsage]
            await anyio.sleep(0.01)
    spare = pool._spares[0]  # pyright: ignore[reportPrivateUsage]
    handed_over = await pool.create_session()
    assert handed_over is spare
    for session in (on_demand, handed_over):
        worker = session._worker  # pyright: ignore[reportPrivateUsage]
        assert worker._thread is not None and worker._thread.is_alive()  # pyright: ignore[reportPrivateUsage]
        assert (await session.run_code("print(6 * 7)")).stdout == "42\n"

"""Sessions and pools: files, ordering, concurrency, lifecycle, capacity, isolation."""

from __future__ import annotations

import pathlib
import time

import anyio
import msgspec
import pytest

import cove

pytestmark = pytest.mark.anyio


async def test_host_files_round_trip_with_the_guest(session: cove.Session) -> None:
    stored = await session.write_file("data/in.csv", b"a,b\n1,2\n")
    assert (stored.path, stored.size_bytes) == ("data/in.csv", 8)
    result = await session.run_code(
        "import csv\nrows = list(csv.reader(open('data/in.csv')))\nopen('data/out.txt', 'w').write(str(len(rows)))"
    )
    assert [f.file_id for f in result.files] == ["data/out.txt"]
    assert await session.read_file("data/out.txt") == (b"2", "text/plain")
    listing = await session.list_files("data")
    assert [(f.path, f.size_bytes) for f in listing] == [("data/in.csv", 8), ("data/out.txt", 1)]


async def test_changed_files_are_reported_but_untouched_ones_are_not(session: cove.Session) -> None:
    await session.run_code("open('a', 'w').write('1'); open('b', 'w').write('2')")
    result = await session.run_code("open('b', 'w').write('22'); open('c', 'w').write('3')")
    assert [f.file_id for f in result.files] == ["b", "c"]


async def test_upload_over_the_cap_is_refused_not_truncated(
    pool: cove.Pool, settings: cove.PoolSettings
) -> None:
    session = await pool.create_session()
    with pytest.raises(cove.TooLargeError):
        await session.write_file("big", b"x" * (session.limits.max_file_bytes + 1))
    assert await session.list_files() == []


async def test_guest_created_symlink_is_not_followed_by_the_host(session: cove.Session) -> None:
    made = await session.run_code(
        "import os\nfor target in ('../../../../etc/passwd', '/etc/passwd', '..'):\n"
        "    try:\n        os.symlink(target, 'l' + str(len(target)))\n    except OSError as exc:\n        print('refused', target)"
    )
    for entry in await session.list_files():
        with pytest.raises(cove.PathOutsideWorkspaceError):
            await session.read_file(entry.path)
        with pytest.raises(cove.PathOutsideWorkspaceError):
            await session.write_file(entry.path, b"x")
    assert made.return_code == 0


async def test_concurrent_calls_on_one_session_run_in_order_and_never_interleave(
    session: cove.Session,
) -> None:
    await session.run_code("log = []")
    results: dict[int, str] = {}

    async def call(i: int) -> None:
        r = await session.run_code(
            f"log.append({i})\nimport time\ntime.sleep(0.01)\nprint(len(log), {i})"
        )
        results[i] = r.stdout

    async with anyio.create_task_group() as tg:
        for i in range(10):
            tg.start_soon(call, i)
    # Call i found exactly the i calls before it done: arrival order, no interleaving.
    assert results == {i: f"{i + 1} {i}\n" for i in range(10)}
    assert (await session.run_code("print(log)")).stdout == f"{list(range(10))}\n"


async def test_queue_is_bounded_per_session(settings: cove.PoolSettings) -> None:
    async with cove.Pool(msgspec.structs.replace(settings, max_queued_calls=1)) as pool:
        session = await pool.create_session()
        outcomes: list[str] = []

        async def call() -> None:
            try:
                await session.run_code("import time; time.sleep(0.3)")
                outcomes.append("ran")
            except cove.SessionBusyError as exc:
                assert exc.retry_after_s >= 1
                outcomes.append("busy")

        async with anyio.create_task_group() as tg:
            for _ in range(4):
                tg.start_soon(call)
        assert sorted(outcomes) == ["busy", "busy", "ran", "ran"]


async def test_hundred_sessions_executing_concurrently_get_their_own_results(
    pool: cove.Pool,
) -> None:
    sessions = [await pool.create_session() for _ in range(100)]
    outputs: dict[int, str] = {}

    async def run(i: int, s: cove.Session) -> None:
        await s.run_code(f"marker = {i}")
        outputs[i] = (await s.run_code("print(marker * 2)")).stdout

    async with anyio.create_task_group() as tg:
        for i, s in enumerate(sessions):
            tg.start_soon(run, i, s)
    assert outputs == {i: f"{i * 2}\n" for i in range(100)}


async def test_sessions_do_not_share_variables_or_files(pool: cove.Pool) -> None:
    a, b = await pool.create_session(), await pool.create_session()
    await a.run_code("secret = 1\nopen('mine.txt', 'w').write('a')")
    assert "NameError" in (await b.run_code("secret")).stderr
    assert (await b.run_code("import os; print(os.listdir('.'))")).stdout == "[]\n"
    assert await b.list_files() == []


async def test_two_pools_in_one_process_do_not_interfere(settings: cove.PoolSettings) -> None:
    async with cove.Pool(settings) as two:
        s2 = await two.create_session()
        await s2.run_code("v = 'two'")
        async with cove.Pool(settings) as one:
            s1 = await one.create_session()
            await s1.run_code("v = 'one'")
            with pytest.raises(cove.SessionNotFoundError):
                two.get_session(s1.session_id)
            assert (await s1.run_code("print(v)")).stdout == "one\n"
        # Closing one pool destroyed its sessions and nothing of the other's.
        assert s1.closed and not s1.workspace.root.exists()
        assert (await s2.run_code("print(v)")).stdout == "two\n"
        assert two.statistics().sessions == 1


async def test_capacity_refusal_is_retryable(settings: cove.PoolSettings) -> None:
    async with cove.Pool(
        msgspec.structs.replace(settings, max_sessions=2, retry_after_s=3)
    ) as pool:
        await pool.create_session()
        await pool.create_session()
        assert not pool.ready
        with pytest.raises(cove.CapacityError) as info:
            await pool.create_session()
        assert info.value.retry_after_s == 3


async def test_idle_and_lifetime_hints_are_clamped_and_reported(pool: cove.Pool) -> None:
    session = await pool.create_session(
        cove.SessionOptions(idle_timeout_s=10**9, max_lifetime_s=30, image="python:9")
    )
    info = session.info()
    assert info.idle_timeout_seconds == int(pool.settings.ceilings.idle_timeout_s)
    assert info.max_lifetime_seconds == 30
    assert info.image == pool.settings.image
    assert len(info.session_id) >= 32


async def test_less_memory_than_the_interpreter_starts_with_is_refused_plainly(
    pool: cove.Pool, settings: cove.PoolSettings
) -> None:
    floor = pool.engine.initial_memory_bytes
    # the snapshot: numpy, pandas and matplotlib.pyplot imported
    assert 48 * cove.MiB < floor < 96 * cove.MiB
    with pytest.raises(cove.InvalidRequestError, match=r"below the .* the interpreter starts with"):
        await pool.create_session(cove.SessionOptions(memory_bytes=floor - 65536))
    session = await pool.create_session(cove.SessionOptions(memory_bytes=floor))
    assert (await session.run_code("print(1)")).stdout == "1\n"
    low = msgspec.structs.replace(
        settings, defaults=msgspec.structs.replace(settings.defaults, memory_bytes=16 * cove.MiB)
    )
    with pytest.raises(cove.InterpreterError, match="default memory limit, 16 MiB, is below"):
        async with cove.Pool(low):
            pass


async def test_reaper_reclaims_idle_and_old_sessions(pool: cove.Pool) -> None:
    idle = await pool.create_session(cove.SessionOptions(idle_timeout_s=5))
    old = await pool.create_session(cove.SessionOptions(max_lifetime_s=50))
    fresh = await pool.create_session()
    assert await pool.reap(now=time.time() + 10) == 1
    assert await pool.reap(now=time.time() + 100) == 1
    with pytest.raises(cove.SessionNotFoundError):
        pool.get_session(idle.session_id)
    with pytest.raises(cove.SessionNotFoundError):
        pool.get_session(old.session_id)
    assert pool.get_session(fresh.session_id) is fresh


async def test_background_reaper_runs(settings: cove.PoolSettings) -> None:
    fast = msgspec.structs.replace(settings, reap_interval_s=0.01)
    async with cove.Pool(fast) as pool:
        session = await pool.create_session(cove.SessionOptions(idle_timeout_s=0.01))
        with anyio.fail_after(10):
            while session.session_id in pool.session_ids():
                await anyio.sleep(0.01)
        with anyio.fail_after(10):
            while session.workspace.root.exists():
                await anyio.sleep(0.01)


async def test_the_reaper_sleeps_until_a_session_may_be_due(
    settings: cove.PoolSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An idle server does not wake every `reap_interval_s` to find nothing due; a session due
    sooner than the reaper's next wake wakes it."""
    async with cove.Pool(msgspec.structs.replace(settings, reap_interval_s=0.01)) as pool:
        await pool.create_session(cove.SessionOptions(idle_timeout_s=600))
        reaps = 0
        reap = pool.reap

        async def counted(*, now: float | None = None) -> int:
            nonlocal reaps
            reaps += 1
            return await reap(now=now)

        monkeypatch.setattr(pool, "reap", counted)
        await anyio.sleep(0.2)  # any reap already planned has happened
        reaps = 0
        await anyio.sleep(1.0)
        assert reaps == 0  # due in 600 s: no look every 0.01 s
        short = await pool.create_session(cove.SessionOptions(idle_timeout_s=0.2))
        with anyio.fail_after(10):
            while short.session_id in pool.session_ids():
                await anyio.sleep(0.01)
        assert reaps >= 1


async def test_pool_opened_and_closed_from_different_tasks_reaps_on_create(
    settings: cove.PoolSettings,
) -> None:
    pool = cove.Pool(msgspec.structs.replace(settings, reap_interval_s=0.001))
    async with anyio.create_task_group() as tg:
        tg.start_soon(pool.open)
    idle = await pool.create_session(cove.SessionOptions(idle_timeout_s=0.001))
    with anyio.fail_after(10):
        while idle.session_id in pool.session_ids():
            await pool.create_session()
    async with anyio.create_task_group() as tg:
        tg.start_soon(pool.aclose)
    assert list(pathlib.Path(settings.workspace_root or "").iterdir()) == []


async def test_destroy_is_idempotent_and_removes_the_workspace(pool: cove.Pool) -> None:
    session = await pool.create_session()
    await session.run_code("open('f', 'w').write('x')")
    root = session.workspace.root
    assert await pool.destroy_session(session.session_id) is True
    assert await pool.destroy_session(session.session_id) is False
    with pytest.raises(cove.SessionNotFoundError):
        pool.get_session(session.session_id)
    await session.aclose()
    assert not root.exists()


async def test_aclose_destroys_every_session_and_directory(settings: cove.PoolSettings) -> None:
    pool = cove.Pool(settings)
    await pool.open()
    sessions = [await pool.create_session() for _ in range(3)]
    await pool.aclose()
    await pool.aclose()
    assert all(s.closed for s in sessions)
    assert list(pathlib.Path(settings.workspace_root or "").iterdir()) == []
    with pytest.raises(cove.PoolClosedError):
        await pool.create_session()


async def test_stale_workspaces_of_a_dead_process_are_cleaned_at_start(
    settings: cove.PoolSettings,
) -> None:
    root = pathlib.Path(settings.workspace_root or "")
    stale = root / "pool-deadbeef"
    (stale / "session").mkdir(parents=True)
    (stale / ".lock").touch()
    (stale / "session" / "file").write_text("left behind")
    async with cove.Pool(settings) as pool:
        assert pool.stale_removed == 1
        assert not stale.exists()


async def test_closed_session_refuses_calls(pool: cove.Pool) -> None:
    session = await pool.create_session()
    await pool.destroy_session(session.session_id)
    await session.aclose()
    with pytest.raises(cove.SessionClosedError):
        await session.run_code("1")


async def test_pool_runs_under_trio(settings: cove.PoolSettings) -> None:
    async def body() -> str:
        async with cove.Pool(settings) as pool:
            session = await pool.create_session()
            return (await session.run_code("print('trio ok')")).stdout

    out: list[str] = []

    def run() -> None:
        import trio

        out.append(trio.run(body))

    await anyio.to_thread.run_sync(run)
    assert out == ["trio ok\n"]

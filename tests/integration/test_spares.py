"""Spare sessions (`PoolSettings.spare_sessions`): made ahead, handed over at creation, as new
as a session made on demand, and gone with the pool."""

from __future__ import annotations

import ctypes
import pathlib
import time

import anyio
import msgspec
import pytest

import cove
from cove import _pages
from cove._guest import Guest

pytestmark = pytest.mark.anyio


async def _spare_ready(pool: cove.Pool, count: int = 1) -> None:
    with anyio.fail_after(30):
        while len(pool._spares) < count:  # pyright: ignore[reportPrivateUsage]
            await anyio.sleep(0.01)


async def test_a_spare_is_handed_over_with_its_clocks_and_limits_from_now(
    settings: cove.PoolSettings,
) -> None:
    async with cove.Pool(settings) as pool:
        await _spare_ready(pool)
        spare = pool._spares[0]  # pyright: ignore[reportPrivateUsage]
        assert pool.session_ids() == [] and pool.statistics().sessions == 0
        await anyio.sleep(0.05)
        before = time.time()
        session = await pool.create_session(cove.SessionOptions(idle_timeout_s=123))
        assert session is spare
        assert session.created_at >= before and session.last_activity_at >= before
        assert session.limits.idle_timeout_s == 123
        assert pool.session_ids() == [session.session_id]
        # As new as any: the model's first cell is cell 1, nothing in its namespace or files.
        result = await session.run_code(
            "print(sorted(k for k in globals() if not k.startswith('__')))\n1/0"
        )
        assert result.stdout == "[]\n"
        assert "<cell-1>" in result.stderr
        assert await session.list_files() == []
        await _spare_ready(pool)  # and another is made
        assert pool._spares[0] is not session  # pyright: ignore[reportPrivateUsage]


async def test_another_memory_limit_is_made_on_demand(settings: cove.PoolSettings) -> None:
    async with cove.Pool(settings) as pool:
        await _spare_ready(pool)
        spare = pool._spares[0]  # pyright: ignore[reportPrivateUsage]
        bigger = settings.defaults.memory_bytes + (64 << 20)
        session = await pool.create_session(cove.SessionOptions(memory_bytes=bigger))
        assert session is not spare
        assert session.limits.memory_bytes == bigger
        assert pool._spares[0] is spare  # pyright: ignore[reportPrivateUsage]


async def test_prefaulting_keeps_every_byte_and_makes_the_pages_private(
    settings: cove.PoolSettings,
) -> None:
    """`Guest.prefault` takes the copy-on-write faults of a first call's pages ahead without
    changing a byte: a fresh interpreter's memory is the same before and after, page for page.
    The pages are private (written, to the page map), yet not changed: a session's image
    keeps only the prefaulted pages its code then changed."""
    async with cove.Pool(settings) as pool:
        await _spare_ready(pool)
        runs = pool._spares.first_call  # pyright: ignore[reportPrivateUsage]
        assert runs is not None
        assert sum(count for _, count in runs) > 50  # a first call writes hundreds of pages
        pristine = pool._pristine  # pyright: ignore[reportPrivateUsage]
        assert pristine is not None
        root = pathlib.Path(settings.workspace_root or "")
        guest = Guest(pool.engine, root, tmp=root, memory_bytes=settings.defaults.memory_bytes)
        try:
            size = guest.memory_bytes()
            address = guest._memory.address()  # pyright: ignore[reportPrivateUsage]
            before = ctypes.string_at(address, size)
            guest.prefault(runs)
            assert ctypes.string_at(address, size) == before

            page_classes = _pages._page_classes  # pyright: ignore[reportPrivateUsage]
            classes = page_classes(address, size // _pages.PAGE)
            assert all(classes[first : first + count] == b"w" * count for first, count in runs)
            assert guest.changed_runs(pristine) == []
            # A fork's copy takes them all rather than comparing them (a superset).
            inexact = guest.changed_runs(pristine, exact=False)
            assert {p for f, c in inexact for p in range(f, f + c)} >= {
                p for f, c in runs for p in range(f, f + c)
            }
            # One prefaulted page changed, one written with the byte it held: only the first
            # is a change.
            (first, count), (other, _) = runs[0], runs[-1]
            changed = address + (first + count - 1) * _pages.PAGE
            flipped = ctypes.string_at(changed, 1)[0] ^ 1
            ctypes.c_char.from_address(changed).value = bytes([flipped])
            same = ctypes.c_char.from_address(address + other * _pages.PAGE)
            same.value = same.value
            assert guest.changed_runs(pristine) == [(first + count - 1, 1)]
        finally:
            guest.close()


async def test_spares_respect_max_sessions_and_go_with_the_pool(
    settings: cove.PoolSettings,
) -> None:
    root = pathlib.Path(settings.workspace_root or "")
    async with cove.Pool(msgspec.structs.replace(settings, max_sessions=1)) as pool:
        await _spare_ready(pool)
        await pool.create_session()
        await anyio.sleep(0.2)
        assert len(pool._spares) == 0  # pyright: ignore[reportPrivateUsage]
        with pytest.raises(cove.CapacityError):
            await pool.create_session()
    assert list(root.iterdir()) == []
    async with cove.Pool(settings) as pool:
        await _spare_ready(pool)
    assert list(root.iterdir()) == []


async def test_no_spares_when_turned_off(settings: cove.PoolSettings) -> None:
    async with cove.Pool(msgspec.structs.replace(settings, spare_sessions=0)) as pool:
        await anyio.sleep(0.2)
        assert len(pool._spares) == 0  # pyright: ignore[reportPrivateUsage]
        session = await pool.create_session()
        assert (await session.run_code("print(1)")).stdout == "1\n"

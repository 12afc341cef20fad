"""Session images: suspend, resume, fork, a restart, the soft deadline's cost, and capacity.

- per kind of session (fresh after one call; common imports and a 50k-entry dict; a
  100k-row DataFrame): the image's size and the changed memory it holds; `suspend()`; the
  first call after it (which resumes the session) beside a warm call on a live session in the
  same run, and their difference (the resume alone); `fork()` and the fork's first call;
- a restart: a pool with `persist_sessions` closed with 20 sessions of the middle kind and a
  new pool opened on the same root (in this process); its first call per session;
- the soft deadline's cost per call: a trivial guest call (`Guest.call`, where the machinery
  lives) with the soft stage (grace 1 s, the epoch-deadline callback registered on the store)
  against none (grace 0), alternating call by call;
- capacity: sessions created, given state and suspended one after another; this process's
  PSS per held (suspended) session and the disk each takes, against PSS per live session.

    python -m bench --only images
"""

from __future__ import annotations

import ctypes
import mmap
import os
import shutil
import statistics
import tempfile
import time
from typing import Any

import anyio

import cove
from cove import _pages, _statefile
from cove import _protocol as protocol

from ._stats import memory_kib, summary

KINDS = {
    "fresh: after one trivial call": "x = 1",
    "common imports + a 50k-entry dict": (
        "import json, re, decimal, datetime, statistics, collections, itertools\n"
        "d = {i: str(i) for i in range(50_000)}"
    ),
    "a 100k-row DataFrame": (
        "import numpy as np, pandas as pd\nrng = np.random.default_rng(0)\n"
        "df = pd.DataFrame({'k': rng.integers(0, 100, 100_000), 'x': rng.random(100_000),"
        " 'y': rng.random(100_000)})\ndf['s'] = df.k.astype(str)"
    ),
}
CAPACITY_STATE = "import json, statistics\nd = {i: str(i) for i in range(5_000)}"


def _settings(root: str, cache: str, **extra: Any) -> cove.PoolSettings:
    return cove.PoolSettings(workspace_root=root, cache_dir=cache, max_sessions=5000, **extra)


async def _per_kind(pool: cove.Pool, setup: str, rounds: int) -> dict[str, Any]:
    suspend, first_call, warm, fork, fork_first = [], [], [], [], []
    image_bytes, changed_bytes, beyond_bytes = [], [], []
    initial_pages = pool.engine.initial_memory_bytes // _pages.PAGE
    for _ in range(rounds):
        session = await pool.create_session()
        result = await session.run_code(setup)
        assert result.return_code == 0, result.stderr
        for _ in range(5):
            t0 = time.perf_counter()
            await session.run_code("pass")
            warm.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        child = await pool.fork_session(session.session_id)
        fork.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await child.run_code("pass")
        fork_first.append(time.perf_counter() - t0)
        await pool.destroy_session(child.session_id)
        t0 = time.perf_counter()
        assert await session.suspend()
        suspend.append(time.perf_counter() - t0)
        header = _statefile.read_state_header(session.image_path, pool.engine.artifact.sha256)
        image_bytes.append(session.image_path.stat().st_size)
        changed_bytes.append(sum(count for _, count in header.runs) * _pages.PAGE)
        # Changed pages past the snapshot's memory (the session grew it): zero-fill faults in a
        # fork's new instance, which has the snapshot's size.
        beyond = sum(
            max(0, first + count - max(first, initial_pages)) for first, count in header.runs
        )
        beyond_bytes.append(beyond * _pages.PAGE)
        t0 = time.perf_counter()
        await session.run_code("pass")
        first_call.append(time.perf_counter() - t0)
        await pool.destroy_session(session.session_id)
    warm_p50 = statistics.median(warm) * 1000
    first = summary(first_call)
    return {
        "image_mb": statistics.median(image_bytes) / 1e6,
        "changed_mb": statistics.median(changed_bytes) / 1e6,
        "changed_beyond_snapshot_mb": statistics.median(beyond_bytes) / 1e6,
        "suspend": summary(suspend),
        "first_call_after_suspend": first,
        "warm_call_p50_ms": warm_p50,
        "resume_p50_ms": first["p50_ms"] - warm_p50,
        "fork": summary(fork),
        "fork_first_call": summary(fork_first),
    }


async def _restart(root: str, cache: str, sessions: int) -> dict[str, Any]:
    settings = _settings(root, cache, persist_sessions=True)
    setup = KINDS["common imports + a 50k-entry dict"]
    async with cove.Pool(settings) as pool:
        ids = []
        for _ in range(sessions):
            session = await pool.create_session()
            await session.run_code(setup)
            ids.append(session.session_id)
        t0 = time.perf_counter()
    close_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    async with cove.Pool(settings) as pool:
        open_s = time.perf_counter() - t0
        restored = pool.statistics().sessions_restored
        first = []
        for sid in ids:
            t0 = time.perf_counter()
            result = await pool.get_session(sid).run_code("print(len(d))")
            first.append(time.perf_counter() - t0)
            assert result.stdout == "50000\n", result.stderr
        for sid in ids:
            await pool.destroy_session(sid)
    return {
        "sessions": sessions,
        "restored": restored,
        "close_per_session_ms": close_s * 1000 / sessions,
        "open_per_session_ms": open_s * 1000 / sessions,
        "first_call": summary(first),
    }


async def _deadline_cost(cache: str, n: int) -> dict[str, Any]:
    # The machinery lives in `Guest.call` (arming the deadline, reading its flags) and in the
    # store (the callback registered): a trivial call into each guest, alternating call by
    # call, so that drift and noise fall on both alike.
    guests = {}
    pools = []
    for name, grace in (("soft", 1.0), ("none", 0.0)):
        pool = cove.Pool(cove.PoolSettings(cache_dir=cache, timeout_grace_s=grace))
        await pool.open()
        pools.append(pool)
        session = await pool.create_session()
        await session.run_code("pass")
        guests[name] = session._guest  # pyright: ignore[reportPrivateUsage]
    request = protocol.encode(protocol.ExecRequest(code="pass"))
    samples: dict[str, list[float]] = {"soft": [], "none": []}
    try:
        for i in range(n + 50):
            for name in ("soft", "none") if i % 2 == 0 else ("none", "soft"):
                guest = guests[name]
                assert guest is not None
                t0 = time.perf_counter()
                guest.call(
                    request,
                    timeout_s=30,
                    fuel=None,
                    bytes_left=1 << 30,
                    files_left=1000,
                    max_response_bytes=1 << 20,
                )
                if i >= 50:
                    samples[name].append(time.perf_counter() - t0)
    finally:
        for pool in pools:
            await pool.aclose()
    soft, none = summary(samples["soft"]), summary(samples["none"])
    return {"soft": soft, "none": none, "difference_us": (soft["p50_ms"] - none["p50_ms"]) * 1000}


async def _capacity(root: str, cache: str, held: int, live: int) -> dict[str, Any]:
    async with cove.Pool(_settings(root, cache)) as pool:
        # One session made and destroyed first: the pages every session shares are counted.
        warm = await pool.create_session()
        await warm.run_code(CAPACITY_STATE)
        await pool.destroy_session(warm.session_id)
        await anyio.sleep(0.1)
        before = memory_kib()["pss_kib"]
        sessions = []
        for _ in range(held):
            session = await pool.create_session()
            await session.run_code(CAPACITY_STATE)
            assert await session.suspend()
            sessions.append(session)
        after_held = memory_kib()["pss_kib"]
        disk = sum(
            s.image_path.stat().st_size + sum(p.stat().st_size for p in s.workspace.root.rglob("*"))
            for s in sessions
        )
        live_sessions = []
        for _ in range(live):
            session = await pool.create_session()
            await session.run_code(CAPACITY_STATE)
            live_sessions.append(session)
        after_live = memory_kib()["pss_kib"]
        # A sample of the held ones still answers.
        for session in sessions[:: max(1, held // 20)]:
            result = await session.run_code("print(len(d))")
            assert result.stdout == "5000\n", result.stderr
    return {
        "held": held,
        "live": live,
        "pss_per_held_kib": (after_held - before) / held,
        "pss_per_live_kib": (after_live - after_held) / live,
        "disk_per_held_kb": disk / held / 1000,
    }


def _page_fault_us(pages: int = 2048, rounds: int = 5) -> float:
    """This machine's cost of a first-touch page fault: copying into fresh anonymous memory,
    per 4 KiB page (median of rounds)."""
    size = pages * _pages.PAGE
    source = ctypes.create_string_buffer(b"x" * size)
    samples = []
    for _ in range(rounds):
        target = mmap.mmap(-1, size)
        address = ctypes.addressof(ctypes.c_char.from_buffer(target))
        t0 = time.perf_counter()
        ctypes.memmove(address, source, size)
        samples.append((time.perf_counter() - t0) / pages)
        del address
        target.close()
    return statistics.median(samples) * 1e6


def run(cache: str, *, rounds: int = 15) -> dict[str, Any]:
    """All of the above; a dict for bench/results.json."""
    root = tempfile.mkdtemp(prefix="cove-bench-images-")
    # Whatever an earlier run left to write back (the capacity step writes gigabytes) would
    # land in these timings: flushed first.
    os.sync()

    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {"kinds": {}}
        async with cove.Pool(_settings(root + "/kinds", cache)) as pool:
            for name, setup in KINDS.items():
                out["kinds"][name] = await _per_kind(pool, setup, rounds)
        out["restart"] = await _restart(root + "/restart", cache, 20)
        out["deadline"] = await _deadline_cost(cache, 2000)
        out["capacity"] = await _capacity(root + "/capacity", cache, 2000, 50)
        out["page_fault_us"] = _page_fault_us()
        return out

    try:
        return anyio.run(main)
    finally:
        shutil.rmtree(root, ignore_errors=True)

"""A load generator for any backend speaking the code-execution contract (async, HTTP/1.1
keep-alive). Latency scenarios report min/p50/p95/p99; throughput scenarios report calls/s.

    python -m bench.load --base-url http://127.0.0.1:8080 [--pid PID] [--scenario NAME ...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from ._stats import time_calls

TRIVIAL = "x = 1"
CPU_LOOP = "total = 0\nfor i in range(200_000):\n    total += i * i % 7"


def _code(source: str) -> dict[str, Any]:
    return {"tool": "code_execution", "input": {"code": source}, "timeout_seconds": 60}


class Backend:
    def __init__(self, client: httpx.AsyncClient) -> None:
        self.c = client

    async def create(self) -> str:
        r = await self.c.post("/sessions", json={})
        r.raise_for_status()
        return str(r.json()["session_id"])

    async def exec(self, sid: str, body: dict[str, Any]) -> dict[str, Any]:
        r = await self.c.post(f"/sessions/{sid}/exec", json=body)
        r.raise_for_status()
        return dict(r.json())

    async def destroy(self, sid: str) -> None:
        await self.c.delete(f"/sessions/{sid}")


async def create_first_exec(b: Backend, n: int) -> dict[str, float]:
    created: list[str] = []

    async def one() -> None:
        sid = await b.create()
        created.append(sid)
        await b.exec(sid, _code("pass"))

    result = await time_calls(n, one, warmup=2)
    for sid in created:
        await b.destroy(sid)
    return result


async def _on_session(
    b: Backend, n: int, body: dict[str, Any], setup: Callable[[str], Awaitable[None]] | None = None
) -> dict[str, float]:
    sid = await b.create()
    try:
        if setup is not None:
            await setup(sid)
        return await time_calls(n, lambda: b.exec(sid, body))
    finally:
        await b.destroy(sid)


async def warm_exec(b: Backend, n: int) -> dict[str, float]:
    return await _on_session(b, n, _code(TRIVIAL))


async def print_small(b: Backend, n: int) -> dict[str, float]:
    return await _on_session(b, n, _code("print('hello world')"))


async def stdout_1mb(b: Backend, n: int) -> dict[str, float]:
    return await _on_session(b, max(5, n // 10), _code("print('x' * 1_000_000)"))


async def cpu_loop(b: Backend, n: int) -> dict[str, float]:
    return await _on_session(b, max(5, n // 10), _code(CPU_LOOP))


async def editor_view(b: Backend, n: int) -> dict[str, float]:
    async def setup(sid: str) -> None:
        r = await b.c.post(
            f"/sessions/{sid}/files",
            files={"file": ("notes.txt", b"line\n" * 50)},
            data={"path": "notes.txt"},
        )
        r.raise_for_status()

    body = {"tool": "text_editor_code_execution", "input": {"command": "view", "path": "notes.txt"}}
    return await _on_session(b, n, body, setup)


async def bash_echo(b: Backend, n: int) -> dict[str, float]:
    return await _on_session(b, n, {"tool": "bash_code_execution", "input": {"command": "echo hi"}})


async def throughput(b: Backend, concurrency: int, duration_s: float) -> dict[str, float]:
    sids = [await b.create() for _ in range(concurrency)]
    done = 0
    deadline = time.perf_counter() + duration_s

    async def worker(sid: str) -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            await b.exec(sid, _code(TRIVIAL))
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker(s) for s in sids))
    elapsed = time.perf_counter() - started
    for sid in sids:
        await b.destroy(sid)
    return {"concurrency": concurrency, "calls": done, "calls_per_s": done / elapsed}


async def cpu_parallel(b: Backend, sessions: int, rounds: int = 3) -> dict[str, float]:
    sids = [await b.create() for _ in range(sessions)]
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        await asyncio.gather(*(b.exec(s, _code(CPU_LOOP)) for s in sids))
        times.append(time.perf_counter() - t0)
    for sid in sids:
        await b.destroy(sid)
    return {"sessions": sessions, "wall_ms": min(times) * 1000}


async def churn(b: Backend, duration_s: float, concurrency: int = 4) -> dict[str, float]:
    done = 0
    deadline = time.perf_counter() + duration_s

    async def worker() -> None:
        nonlocal done
        while time.perf_counter() < deadline:
            sid = await b.create()
            for _ in range(3):
                await b.exec(sid, _code(TRIVIAL))
            await b.destroy(sid)
            done += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return {"sessions_per_s": done / (time.perf_counter() - started), "concurrency": concurrency}


def tree_memory_kib(pid: int) -> dict[str, int]:
    """RSS and PSS summed over a process and all its descendants."""
    from ._proc import tree_pids
    from ._stats import memory_kib

    pids = tree_pids(pid)
    total = {"rss_kib": 0, "pss_kib": 0, "processes": 0}
    for p in pids:
        try:
            m = memory_kib(p)
        except OSError:
            continue
        total["rss_kib"] += m["rss_kib"]
        total["pss_kib"] += m["pss_kib"]
        total["processes"] += 1
    return total


async def idle_memory(b: Backend, pid: int, sessions: int = 100) -> dict[str, float]:
    await asyncio.sleep(0.5)
    before = tree_memory_kib(pid)
    sids = [await b.create() for _ in range(sessions)]
    for sid in sids:
        await b.exec(sid, _code(TRIVIAL))
    await asyncio.sleep(0.5)
    after = tree_memory_kib(pid)
    for sid in sids:
        await b.destroy(sid)
    return {
        "sessions": sessions,
        "rss_kib_per_session": (after["rss_kib"] - before["rss_kib"]) / sessions,
        "pss_kib_per_session": (after["pss_kib"] - before["pss_kib"]) / sessions,
        "processes": after["processes"],
    }


LATENCY = {
    "create_first_exec": create_first_exec,
    "warm_exec": warm_exec,
    "print": print_small,
    "stdout_1mb": stdout_1mb,
    "cpu_loop": cpu_loop,
    "editor_view": editor_view,
    "bash_echo": bash_echo,
}


async def run(
    base_url: str,
    *,
    scenarios: list[str] | None = None,
    n: int = 200,
    duration_s: float = 5.0,
    concurrency: tuple[int, ...] = (1, 8, 32),
    pid: int | None = None,
    idle_sessions: int = 100,
) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64)
    async with httpx.AsyncClient(base_url=base_url, timeout=120, limits=limits) as client:
        b = Backend(client)
        out: dict[str, Any] = {}
        wanted = scenarios or [*LATENCY, "throughput", "cpu_parallel", "churn", "idle_memory"]
        for name in wanted:
            if name in LATENCY:
                out[name] = await LATENCY[name](b, n)
            elif name == "throughput":
                out[name] = [await throughput(b, c, duration_s) for c in concurrency]
            elif name == "cpu_parallel":
                out[name] = [await cpu_parallel(b, k) for k in (1, 2)]
            elif name == "churn":
                out[name] = await churn(b, duration_s)
            elif name == "idle_memory" and pid is not None:
                out[name] = await idle_memory(b, pid, idle_sessions)
        return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--scenario", action="append")
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--pid", type=int, help="server PID, for the idle-memory scenario")
    args = parser.parse_args()
    result = asyncio.run(
        run(
            args.base_url, scenarios=args.scenario, n=args.n, duration_s=args.duration, pid=args.pid
        )
    )
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()

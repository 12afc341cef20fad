"""Small helpers shared by the benchmarks: summaries, process memory, and keeping a section's
numbers in bench/results.json."""

from __future__ import annotations

import asyncio
import json
import os
import pathlib
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence


def summary(samples_s: Sequence[float]) -> dict[str, float]:
    """min / median / p95 / p99 / max of samples, in milliseconds."""
    ordered = sorted(samples_s)
    n = len(ordered)

    def pct(p: float) -> float:
        return ordered[min(n - 1, int(p * (n - 1) + 0.5))] * 1000

    return {
        "n": n,
        "min_ms": ordered[0] * 1000,
        "p50_ms": statistics.median(ordered) * 1000,
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "max_ms": ordered[-1] * 1000,
    }


def memory_kib(pid: int | None = None) -> dict[str, int]:
    """RSS, PSS and private (clean + dirty) memory of a process, KiB, from smaps_rollup."""
    path = pathlib.Path(f"/proc/{pid or os.getpid()}/smaps_rollup")
    fields: dict[str, int] = {}
    for line in path.read_text().splitlines()[1:]:
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name.strip()] = int(parts[0])
    return {
        "rss_kib": fields.get("Rss", 0),
        "pss_kib": fields.get("Pss", 0),
        "private_kib": fields.get("Private_Clean", 0) + fields.get("Private_Dirty", 0),
    }


async def time_calls(
    n: int, fn: Callable[[], Awaitable[object]], warmup: int = 10, gap_s: float = 0.0
) -> dict[str, float]:
    """Run `fn` `warmup` times untimed, then `n` times timed one by one (`gap_s` apart,
    untimed); the summary."""
    for _ in range(warmup):
        await fn()
    samples = []
    for _ in range(n):
        if gap_s:
            await asyncio.sleep(gap_s)
        t0 = time.perf_counter()
        await fn()
        samples.append(time.perf_counter() - t0)
    return summary(samples)


def store_section(name: str, results: object) -> None:
    """Keep `results` as section `name` of bench/results.json, beside the others."""
    path = pathlib.Path(__file__).with_name("results.json")
    stored = json.loads(path.read_text()) if path.exists() else {}
    stored[name] = results
    path.write_text(json.dumps(stored, indent=2) + "\n")

"""`python -m bench` (or `make bench`): every benchmark, Cove and the baseline in the same run,
written to bench/results.json and docs/benchmarks.md.

    python -m bench [--rounds 3] [-n 200] [--duration 5] [--skip-http]
    python -m bench --only scientific [--only packages ...]

`--only` runs the named benchmarks alone and replaces just their sections of the existing
bench/results.json (the machine line stays the full run's); docs/benchmarks.md is rendered
again from the merged results.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import importlib.metadata
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import tempfile
from typing import Any

from tests.support.servers import free_port, start_process, stop_server

from . import charts, images, inprocess, interpreter, lean, load, packages, scientific

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results.json"
BENCHMARKS = (
    "interpreter",
    "inprocess",
    "pytest_benchmark",
    "packages",
    "scientific",
    "charts",
    "images",
    "http",
)


def _machine() -> dict[str, Any]:
    model = "unknown"
    for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    mem_kib = int(pathlib.Path("/proc/meminfo").read_text().split()[1])
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "ram_gib": round(mem_kib / 2**20, 1),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "wasmtime": importlib.metadata.version("wasmtime"),
        "litestar": importlib.metadata.version("litestar"),
        "commit": commit + ("+dirty" if dirty else ""),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def _median_of(rounds: list[Any]) -> Any:
    """Median, key by key, of the same-shaped results of several rounds."""
    first = rounds[0]
    if isinstance(first, dict):
        return {k: _median_of([r[k] for r in rounds]) for k in first}
    if isinstance(first, list):
        return [_median_of([r[i] for r in rounds]) for i in range(len(first))]
    if isinstance(first, (int, float)):
        return statistics.median(rounds)
    return first


def run_http(rounds: int, n: int, duration: float) -> dict[str, Any]:
    cache = str(pathlib.Path(tempfile.gettempdir()) / "cove-bench-cache")
    cove_port, base_port = free_port(), free_port()
    cove_root = tempfile.mkdtemp(prefix="cove-bench-srv-")
    cove = start_process(
        [sys.executable, "-m", "cove_server", "serve"],
        cove_port,
        {
            **os.environ,
            "COVE_PORT": str(cove_port),
            "COVE_CACHE_DIR": cache,
            "COVE_WORKSPACE_ROOT": cove_root,
            "COVE_MAX_SESSIONS": "2000",
            "COVE_LOG_LEVEL": "WARNING",
            # Sessions left at the end are destroyed, as the baseline's are, not kept.
            "COVE_PERSIST_SESSIONS": "false",
        },
    )
    baseline = start_process(
        [sys.executable, "-m", "bench.baseline", "--port", str(base_port)], base_port, os.environ
    )
    backends = {
        "cove": (f"http://127.0.0.1:{cove_port}", cove.pid),
        "baseline": (f"http://127.0.0.1:{base_port}", baseline.pid),
    }
    scenarios = [*load.LATENCY, "throughput", "cpu_parallel", "churn"]
    results: dict[str, dict[str, Any]] = {"cove": {}, "baseline": {}}
    try:
        for scenario in scenarios:
            per: dict[str, list[Any]] = {"cove": [], "baseline": []}
            for r in range(rounds):
                # Alternate which backend goes first, so drift and noise hit both.
                for name in ("cove", "baseline") if r % 2 == 0 else ("baseline", "cove"):
                    url, _ = backends[name]
                    out = asyncio.run(load.run(url, scenarios=[scenario], n=n, duration_s=duration))
                    per[name].append(out[scenario])
            for name in per:
                results[name][scenario] = _median_of(per[name])
            print(f"  {scenario}: done", file=sys.stderr)
        # The lean client: latency without httpx's own cost, and server CPU per exec.
        lean_per: dict[str, list[Any]] = {"cove": [], "baseline": []}
        for r in range(rounds):
            for name in ("cove", "baseline") if r % 2 == 0 else ("baseline", "cove"):
                url, pid = backends[name]
                lean_per[name].append(
                    {
                        "latency": lean.latency(url, max(n, 1000)),
                        "cpu_per_exec": lean.cpu_per_exec(url, pid),
                    }
                )
        for name in lean_per:
            results[name]["lean"] = _median_of(lean_per[name])
        print("  lean client: done", file=sys.stderr)
        for name, (url, pid) in backends.items():
            results[name]["idle_memory"] = asyncio.run(
                load.run(url, scenarios=["idle_memory"], pid=pid)
            )["idle_memory"]
            results[name]["idle_cpu"] = lean.idle_cpu(url, pid)
    finally:
        for proc in (cove, baseline):
            stop_server(proc)
    return results


def run_pytest_benchmark() -> dict[str, Any]:
    out = pathlib.Path(tempfile.mkdtemp()) / "pb.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "bench",
            "-q",
            "--benchmark-enable",
            f"--benchmark-json={out}",
            "-p",
            "no:cacheprovider",
        ],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    data = json.loads(out.read_text())
    return {
        b["name"]: {
            "min_ms": b["stats"]["min"] * 1000,
            "p50_ms": b["stats"]["median"] * 1000,
            "mean_ms": b["stats"]["mean"] * 1000,
            "rounds": b["stats"]["rounds"],
        }
        for b in data["benchmarks"]
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument(
        "--only",
        action="append",
        choices=BENCHMARKS,
        help="run only this benchmark (repeatable); merge into the existing results.json",
    )
    args = parser.parse_args()
    selected = set(args.only or BENCHMARKS)
    if args.skip_http:
        selected.discard("http")
    cache = str(pathlib.Path(tempfile.gettempdir()) / "cove-bench-cache")
    machine = _machine()
    # a section's own stamp: a run of some sections alone may be on another machine than the
    # full run's (a VM's host changes), whose line heads docs/benchmarks.md
    run = {"commit": machine["commit"], "date": machine["date"], "cpu": machine["cpu_model"]}
    method = {"rounds": args.rounds, "n": args.n, "duration_s": args.duration}
    results: dict[str, Any] = {}
    if args.only and RESULTS.exists():
        results = json.loads(RESULTS.read_text())
    results.setdefault("machine", machine)
    results.setdefault("method", method)
    if not args.only:
        results.update(machine=machine, method=method)
    if "interpreter" in selected:
        print("interpreter ...", file=sys.stderr)
        results["interpreter"] = interpreter.run(cache, consume_fuel=False)
        results["interpreter_fuel"] = interpreter.run(cache, consume_fuel=True, instances=50)
    # A first run after a new artifact compiles it into the cache (two ~120 MB files): flush
    # them, so that the disk's write-back does not land in the timings that follow.
    os.sync()
    if "inprocess" in selected:
        print("in-process ...", file=sys.stderr)
        results["inprocess"] = {
            **inprocess.run(cache),
            "run": run,
        }
    if "pytest_benchmark" in selected:
        results["pytest_benchmark"] = run_pytest_benchmark()
    if "packages" in selected:
        print("packages ...", file=sys.stderr)
        results["packages"] = packages.run(cache)
    if "scientific" in selected:
        print("scientific ...", file=sys.stderr)
        results["scientific"] = {
            **scientific.run(cache),
            "run": run,
        }
    if "charts" in selected:
        print("charts ...", file=sys.stderr)
        results["charts"] = {
            **charts.run(cache),
            "run": run,
        }
    if "images" in selected:
        print("images ...", file=sys.stderr)
        results["images"] = {
            **images.run(cache),
            "run": run,
        }
    if "http" in selected:
        print("http ...", file=sys.stderr)
        results["method"] = method
        results["http"] = {
            **run_http(args.rounds, args.n, args.duration),
            "run": run,
        }
    RESULTS.write_text(json.dumps(results, indent=2) + "\n")
    from .report import CORE, render

    missing = [k for k in CORE if k not in results]
    if missing:
        print(
            f"wrote bench/results.json; docs/benchmarks.md not rendered (no {', '.join(missing)})",
            file=sys.stderr,
        )
        return
    (ROOT / "docs" / "benchmarks.md").write_text(render(results))
    print("wrote docs/benchmarks.md and bench/results.json", file=sys.stderr)


if __name__ == "__main__":
    main()

"""The first minutes of a deploy: `cove compile` (portable and native), `cove serve`'s time to
its port and to ready on a warm cache, and what the portable compile costs the code it runs.

    python -m bench.coldstart [--repeats 5]

Each compile runs in a process of its own on an empty cache, and reports its own time and peak
memory (`cove compile`'s line). Serving: a fresh `cove serve` on the portable cache, timed from
its start to the first answer on its port and to `/health` 200. The code: the pure-Python
workloads of `bench/interpreter.py` in one guest from each cache, alternating, best of N.
Prints Markdown tables (docs/benchmarks.md, "Cold start") and keeps the numbers in
bench/results.json (`coldstart`), which the docs that quote them are checked against
(tests/server/test_docs.py).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

import httpx

import cove
from cove._engine import Engine
from cove._guest import Guest
from tests.support.servers import free_port

from ._stats import store_section
from .interpreter import WORKLOADS, run_in_guest, time_in_guest


def _compile(cache: pathlib.Path, *, native: bool) -> tuple[float, float]:
    cmd = [sys.executable, "-m", "cove_server", "compile", "--cache-dir", str(cache)]
    done = subprocess.run(
        [*cmd, *(["--native"] if native else [])], capture_output=True, text=True, check=True
    )
    match = re.search(r"; ([\d.]+) s, peak memory (\d+) MiB", done.stdout)
    assert match, done.stdout
    return float(match[1]), float(match[2])


def _serve(cache: pathlib.Path) -> tuple[float, float]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
    env.update(COVE_HOST="127.0.0.1", COVE_PORT=str(port), COVE_CACHE_DIR=str(cache))
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "cove_server", "serve"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    port_s = ready_s = 0.0
    try:
        while not ready_s:
            try:
                status = httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code
            except httpx.TransportError:
                time.sleep(0.01)
                continue
            port_s = port_s or time.monotonic() - started
            if status == 200:
                ready_s = time.monotonic() - started
            else:
                time.sleep(0.01)
    finally:
        process.terminate()
        process.wait()
    return port_s, ready_s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="cove-bench-cold-"))
    caches = {"portable": work / "portable", "native": work / "native"}
    results: dict[str, object] = {}
    print("| compile (empty cache) | seconds | peak memory MiB |")
    print("| --- | --- | --- |")
    for label, cache in caches.items():
        seconds, peak = _compile(cache, native=label == "native")
        results[f"compile_{label}"] = {"seconds": seconds, "peak_mib": peak}
        print(
            f"| `cove compile`{' --native' if label == 'native' else ''} | {seconds:.1f} |"
            f" {peak:.0f} |",
            flush=True,
        )
    starts = [_serve(caches["portable"]) for _ in range(3)]
    port_s = sorted(s[0] for s in starts)[1]
    ready_s = sorted(s[1] for s in starts)[1]
    results["serve_compiled"] = {"port_s": port_s, "ready_s": ready_s}
    print(
        f"\n`cove serve` on the compiled cache (median of 3): port answers after {port_s:.2f} s,"
        f" ready after {ready_s:.2f} s.\n"
    )
    guests = {}
    for label, cache in caches.items():
        artifact = cove.Artifact(unpack_dir=str(cache))
        engine = Engine(artifact, consume_fuel=False, epoch_tick_s=0.01, cache_dir=str(cache))
        guests[label] = Guest(engine, work, tmp=work, memory_bytes=512 << 20)
    print("| workload | native-CPU compile ms | portable compile ms | portable / native |")
    print("| --- | --- | --- | --- |")
    for name, (setup, code) in WORKLOADS.items():
        times: dict[str, list[float]] = {label: [] for label in guests}
        for guest in guests.values():
            if setup:
                run_in_guest(guest, setup)
        for _ in range(args.repeats):
            for label, guest in guests.items():
                times[label].append(time_in_guest(guest, code))
        native, portable = min(times["native"]), min(times["portable"])
        results[f"code_{name}"] = {"native_s": native, "portable_s": portable}
        print(
            f"| {name} | {native * 1e3:.1f} | {portable * 1e3:.1f} | {portable / native:.2f}× |",
            flush=True,
        )

    store_section("coldstart", results)


if __name__ == "__main__":
    main()

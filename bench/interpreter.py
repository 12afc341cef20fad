"""Interpreter-level numbers (the interpreter issue): instantiate-from-snapshot to first call,
a trivial call, memory per idle instance, and a pure-Python loop against native CPython.

Measured on `cove.Guest` directly (no event loop, no thread hop): what the artifact itself costs.
"""

from __future__ import annotations

import gc
import json
import pathlib
import subprocess
import sys
import tempfile
import time
from typing import Any

import cove
from cove._engine import Engine
from cove._guest import Guest

from ._stats import memory_kib, summary

TRIVIAL = json.dumps({"op": "exec", "code": "pass", "max_output_bytes": 1 << 20}).encode()
LOOP = "total = 0\nfor i in range(3_000_000):\n    total += i * i % 7\n"
SUM = "sum(range(10**7))"
# Pure-Python workloads against native CPython 3.11: (setup, untimed; the timed code).
WORKLOADS = {
    "loop": ("", LOOP),
    "sum_range": ("", SUM),
    "genexpr_squares": ("", "sum(i * i for i in range(3_000_000))"),
    "json_100k_dicts": (
        "import json\ndocs = [{'id': i, 'name': f'item {i}', 'tags': ['a', 'b'], 'price': i / 4}"
        " for i in range(100_000)]",
        "json.loads(json.dumps(docs))",
    ),
    "regex_findall_1mb": (
        "import re\ntext = ('lorem ipsum 12345 dolor sit amet, mail ana@example.org now. ' * 20_000)"
        "[:1_000_000]\npattern = re.compile(r'[\\w.]+@[\\w.]+|\\d+|\\b[a-z]{5}\\b')",
        "pattern.findall(text)",
    ),
}


def _call(guest: Guest, payload: bytes) -> bytes:
    outcome = guest.call(
        payload,
        timeout_s=300,
        fuel=None,
        bytes_left=1 << 40,
        files_left=1 << 30,
        max_response_bytes=1 << 30,
    )
    assert outcome.trapped is None and outcome.response is not None, outcome
    return outcome.response


def run_in_guest(guest: Guest, code: str) -> bytes:
    """Run `code` in `guest` as a cell; the driver's JSON response."""
    return _call(
        guest, json.dumps({"op": "exec", "code": code, "max_output_bytes": 1 << 20}).encode()
    )


def time_in_guest(guest: Guest, code: str) -> float:
    """Seconds `code` takes in `guest`, timed inside the guest (no call overhead)."""
    timed = f"import time\n_t = time.perf_counter()\n{code}\nprint(time.perf_counter() - _t)"
    return float(json.loads(run_in_guest(guest, timed))["stdout"])


def _native(setup: str, code: str, repeats: int) -> list[float]:
    program = (
        f"import time\nns = {{}}\nexec({setup!r}, ns)\nc = compile({code!r}, 'b', 'exec')\n"
        f"for _ in range({repeats}):\n"
        "    t = time.perf_counter(); exec(c, ns); print(time.perf_counter() - t)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    return [float(x) for x in out.stdout.split()]


def run(
    cache_dir: str, *, instances: int = 200, repeats: int = 5, consume_fuel: bool = False
) -> dict[str, Any]:
    artifact = cove.Artifact()
    engine = Engine(artifact, consume_fuel=consume_fuel, epoch_tick_s=0.01, cache_dir=cache_dir)
    work = pathlib.Path(tempfile.mkdtemp(prefix="cove-bench-"))
    results: dict[str, Any] = {}
    try:
        # Instantiate from the snapshot, then the first call, on fresh instances.
        inst, first = [], []
        for _ in range(200):
            t0 = time.perf_counter()
            g = Guest(engine, work, tmp=work, memory_bytes=512 << 20)
            t1 = time.perf_counter()
            _call(g, TRIVIAL)
            t2 = time.perf_counter()
            inst.append(t1 - t0)
            first.append(t2 - t1)
            g.close()
        results["instantiate"] = summary(inst)
        results["first_call"] = summary(first)
        results["instantiate_plus_first_call"] = summary(
            [a + b for a, b in zip(inst, first, strict=True)]
        )

        g = Guest(engine, work, tmp=work, memory_bytes=512 << 20)
        _call(g, TRIVIAL)
        trivial = []
        for _ in range(2000):
            t0 = time.perf_counter()
            _call(g, TRIVIAL)
            trivial.append(time.perf_counter() - t0)
        results["trivial_call"] = summary(trivial)

        # Pure Python in the guest against native CPython 3.11 on this machine.
        for name, (setup, code) in WORKLOADS.items():
            if setup:
                run_in_guest(g, setup)
            guest_times = [time_in_guest(g, code) for _ in range(repeats)]
            native_times = _native(setup, code, repeats)
            results[f"python_{name}"] = {
                "guest_ms": min(guest_times) * 1000,
                "native_ms": min(native_times) * 1000,
                "ratio": min(guest_times) / min(native_times),
            }
        g.close()

        # Memory per idle instance: N instances, each after one call, measured as the growth of
        # this process's private memory and PSS.
        gc.collect()
        before = memory_kib()
        idle = []
        for _ in range(instances):
            gi = Guest(engine, work, tmp=work, memory_bytes=512 << 20)
            idle.append(gi)
        after_create = memory_kib()
        for gi in idle:
            _call(gi, TRIVIAL)
        after_call = memory_kib()
        results["memory_per_instance"] = {
            "instances": instances,
            "idle_private_kib": (after_create["private_kib"] - before["private_kib"]) / instances,
            "idle_pss_kib": (after_create["pss_kib"] - before["pss_kib"]) / instances,
            "after_first_call_private_kib": (after_call["private_kib"] - before["private_kib"])
            / instances,
            "after_first_call_pss_kib": (after_call["pss_kib"] - before["pss_kib"]) / instances,
        }
        for gi in idle:
            gi.close()
    finally:
        engine.close()
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return results


if __name__ == "__main__":
    print(json.dumps(run(tempfile.mkdtemp()), indent=2))

"""What the router costs: a warm trivial exec and a new session's create + first exec, through
HAProxy (on the configuration `cove router-config` renders) and straight to the replica, in
the same run.

    python -m bench.router [--calls 2000] [--rounds 5]

Three `cove serve` replicas on loopback behind the router (tests/support/replicas.py, as the
rolling-deploy test runs them), the lean client (bench/lean.py) on one kept-alive connection
to each. Warm exec: one session, its replica's port and the router's taking turns, `--rounds`
rounds of `--calls` calls each; create + first exec: through the router (which places the
session) and straight to one replica, alternating. Prints a Markdown table (docs/benchmarks.md,
"Several replicas: the router") and keeps the numbers in bench/results.json (`router`).
"""

from __future__ import annotations

import argparse
import pathlib
import subprocess
import sys
import tempfile
import time

import cove
from tests.support.replicas import find_haproxy, start_cluster

from ._stats import store_section, summary
from .lean import LeanClient, _code, _create_first_exec

NAMES = ("cove-0", "cove-1", "cove-2")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    haproxy = find_haproxy()
    if haproxy is None:
        sys.exit("bench.router: haproxy is not installed (apt-get install haproxy)")
    version = subprocess.run([haproxy, "-v"], capture_output=True, text=True).stdout.split()[2]
    env = {"COVE_CACHE_DIR": cove.default_cache_dir(), "COVE_LOG_LEVEL": "WARNING"}
    work = pathlib.Path(tempfile.mkdtemp(prefix="cove-bench-router-"))
    with start_cluster(haproxy, work, NAMES, env) as cluster:
        routed = LeanClient(cluster.router_url)
        sid = routed.call("POST", "/sessions", {})["session_id"]
        direct = LeanClient(cluster.replicas[sid.split(".", 1)[0]].url)
        samples: dict[str, list[float]] = {"direct": [], "router": []}
        for _ in range(args.rounds):
            for label, client in (("direct", direct), ("router", routed)):
                request = client.prepare("POST", f"/sessions/{sid}/exec", _code("x = 1"))
                for _ in range(50):
                    client.send(request)
                for _ in range(args.calls):
                    t0 = time.perf_counter()
                    status, body = client.send(request)
                    samples[label].append(time.perf_counter() - t0)
                    assert status == 200, body[:200]
        warm = {label: summary(s) for label, s in samples.items()}
        creates: dict[str, list[dict[str, float]]] = {"direct": [], "router": []}
        for _ in range(args.rounds):
            for label, client in (("direct", direct), ("router", routed)):
                creates[label].append(_create_first_exec(client, 40))
        create = {
            label: {
                key: sorted(r[key] for r in runs)[len(runs) // 2] for key in ("p50_ms", "p95_ms")
            }
            for label, runs in creates.items()
        }
        routed.close()
        direct.close()
    results = {
        "haproxy": version,
        "calls": args.calls,
        "rounds": args.rounds,
        "warm_exec": warm,
        "create_first_exec": create,
    }
    print("| | direct p50 | router p50 | router − direct | direct p95 | router p95 |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, d, r in (
        ("warm exec (`x = 1`)", warm["direct"], warm["router"]),
        ("create + first exec", create["direct"], create["router"]),
    ):
        print(
            f"| {label} | {d['p50_ms']:.3f} | {r['p50_ms']:.3f} | "
            f"{r['p50_ms'] - d['p50_ms']:+.3f} | {d['p95_ms']:.3f} | {r['p95_ms']:.3f} |"
        )
    store_section("router", results)


if __name__ == "__main__":
    main()

"""The hot path of two trees side by side: an earlier commit's checkout and this one, each with
its own runtime, server and committed interpreter, measured in alternating rounds in one run.

    python -m bench.hotpath OLD_TREE [--rounds 5] [-n 1000]

OLD_TREE is a checkout of the commit to compare with (`git worktree add /tmp/old a28eee1`).
Each round starts one process per tree (`PYTHONPATH` puts that tree's `runtime/` and `server/`
first, so its code and artifact are the ones imported) that measures, in process, a trivial
call and a 1 MB file written in 4 KiB unbuffered writes (one WASI write each: the quota's
wrappers at their busiest), and over HTTP with the lean client (`bench/lean.py`) a warm trivial
exec. Prints the median of the rounds' p50s per tree and the ratios. How a change to the hot
path is judged (docs/benchmarks.md, "Hardening round 3: the hot path").
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

from ._stats import store_section

ROOT = pathlib.Path(__file__).resolve().parents[1]
WRITE_1MB = (
    "with open('w.bin', 'wb', buffering=0) as f:\n"
    "    for _ in range(256):\n"
    "        f.write(b'x' * 4096)"
)


def _child(n: int, cache: str) -> dict[str, float]:
    """One tree's numbers (this process imports the tree's cove), p50 in milliseconds."""
    import anyio

    import cove
    from tests.support.servers import start_server, stop_server

    from ._stats import time_calls
    from .lean import LeanClient, _code

    out: dict[str, float] = {}

    async def in_process() -> None:
        root = pathlib.Path(tempfile.mkdtemp(prefix="cove-hotpath-"))
        settings = cove.PoolSettings(workspace_root=str(root), cache_dir=cache)
        async with cove.Pool(settings) as pool:
            session = await pool.create_session()
            await session.run_code(WRITE_1MB)
            trivial = await time_calls(n, lambda: session.run_code("pass"))
            write = await time_calls(n // 5, lambda: session.run_code(WRITE_1MB))
            out["trivial_call"] = trivial["p50_ms"]
            out["write_1mb"] = write["p50_ms"]

    anyio.run(in_process)
    server = start_server(pathlib.Path(tempfile.mkdtemp(prefix="cove-hotpath-http-")), cache)
    try:
        client = LeanClient(server.base_url)
        sid = client.call("POST", "/sessions", {})["session_id"]
        request = client.prepare("POST", f"/sessions/{sid}/exec", _code("x = 1"))
        for _ in range(50):
            client.send(request)
        samples = []
        for _ in range(n):
            t0 = time.perf_counter()
            client.send(request)
            samples.append(time.perf_counter() - t0)
        out["http_warm_exec"] = statistics.median(samples) * 1000
        client.close()
    finally:
        stop_server(server)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", nargs="?")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cache", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.n, args.cache)))
        return
    trees = {"old": pathlib.Path(args.old).resolve(), "new": ROOT}
    caches = {label: tempfile.mkdtemp(prefix=f"cove-hotpath-{label}-") for label in trees}
    rounds: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
    for i in range(args.rounds):
        for label, tree in trees.items():
            env = {**os.environ, "PYTHONPATH": f"{tree / 'runtime'}:{tree / 'server'}:{ROOT}"}
            cmd = [sys.executable, "-m", "bench.hotpath", "--child", "-n", str(args.n)]
            done = subprocess.run(
                [*cmd, "--cache", caches[label]],
                env=env,
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            )
            rounds[label].append(json.loads(done.stdout.strip().splitlines()[-1]))
            print(f"round {i + 1} {label}: {rounds[label][-1]}", file=sys.stderr, flush=True)
    old_commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=trees["old"], capture_output=True, text=True
    ).stdout.strip()
    result: dict[str, object] = {"old": old_commit, "rounds": args.rounds, "n": args.n}
    print("| measure (p50, ms) | old | new | new / old |")
    print("| --- | --- | --- | --- |")
    for measure in rounds["new"][0]:
        old = statistics.median(r[measure] for r in rounds["old"])
        new = statistics.median(r[measure] for r in rounds["new"])
        result[measure] = {"old_ms": old, "new_ms": new}
        print(f"| {measure} | {old:.3f} | {new:.3f} | {new / old:.2f}× |")
    store_section("hotpath", result)


if __name__ == "__main__":
    main()

"""Two interpreter artifacts side by side: the pure-Python workloads of `bench/interpreter.py`
in one guest of each, alternating call by call, and native CPython in the same run. How a
rebuild's compiler flags are judged (docs/benchmarks.md, "Guest CPU: build experiments").

    python -m bench.artifacts OLD_DIR [NEW_DIR] [--repeats 7]

Each directory holds `manifest.json` and the artifact's files, as `runtime/cove/_interpreter/`
does (NEW_DIR defaults to it), e.g. a build's `COVE_WASM_DIST`, or the committed artifact of an
earlier commit (`git show REV:runtime/cove/_interpreter/python.wasm.xz > DIR/python.wasm.xz`,
and the same for the manifest and each file of `root/`). Prints best-of-N milliseconds and
the ratios to native.
"""

from __future__ import annotations

import argparse
import pathlib
import tempfile

import cove
from cove._engine import Engine
from cove._guest import Guest

from .interpreter import WORKLOADS, _native, run_in_guest, time_in_guest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new", nargs="?")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--cache-dir", default=None)
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="cove-bench-artifacts-"))
    cache = args.cache_dir or str(work / "cache")
    guests = {}
    for label, directory in (("old", args.old), ("new", args.new)):
        engine = Engine(
            cove.Artifact(directory), consume_fuel=False, epoch_tick_s=0.01, cache_dir=cache
        )
        guests[label] = Guest(engine, work, tmp=work, memory_bytes=512 << 20)
    print("| workload | old ms | new ms | native ms | old / native | new / native |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, (setup, code) in WORKLOADS.items():
        times: dict[str, list[float]] = {"old": [], "new": []}
        for guest in guests.values():
            if setup:
                run_in_guest(guest, setup)
        for _ in range(args.repeats):
            for label, guest in guests.items():
                times[label].append(time_in_guest(guest, code))
        native = min(_native(setup, code, args.repeats))
        old, new = min(times["old"]), min(times["new"])
        print(
            f"| {name} | {old * 1e3:.1f} | {new * 1e3:.1f} | {native * 1e3:.1f}"
            f" | {old / native:.2f}× | {new / native:.2f}× |",
            flush=True,
        )


if __name__ == "__main__":
    main()

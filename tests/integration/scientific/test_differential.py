"""numpy and pandas in the guest against the same versions natively, output for output.

Every snippet of `cases.py` runs natively (one host subprocess running them all, `runner.py`)
and in Cove's guest (the same runner sent as source, a batch of cases per fresh session); the
normalized outputs (stdout, escaped warnings, the exception raised) must be equal. The
differences that are understood are listed in KNOWN_DIFFERENCES with their cause: the test
fails on any other difference, on a listed one that has gone away (so the list stays true), and
when fewer than 98% of the cases match. The native side runs with numpy's CPU-dispatched SIMD
kernels off (see `native_env`), so that its reference does not depend on the host's CPU.

Set COVE_SCIENTIFIC_DUMP to a directory to keep both sides' outputs (native.json, guest.json).
"""

from __future__ import annotations

import difflib
import json
import os
import pathlib
import subprocess
import sys
import time
from typing import Any

import anyio
import pytest

import cove
from tests.integration.scientific.cases import CASES
from tests.support.recipes import version

pytestmark = pytest.mark.anyio

RUNNER = pathlib.Path(__file__).resolve().with_name("runner.py")
TARGET = 0.98
# The versions the guest ships; the native side must have the same ones to be comparable.
VERSIONS = {name: version(name) for name in ("numpy", "pandas")}
# Native modules the cases need besides numpy and pandas (openpyxl: the Excel cases).
NATIVE_NEEDS = ("openpyxl",)
BATCH = 12  # cases per guest session and call
CONCURRENCY = 2  # guest sessions running at once
CALL_TIMEOUT_S = 240

_INTP = (
    "wasm32: np.intp is int32 (pointer-sized) while the default integer is int64 (patch"
    " numpy/0005), so index results are int32 and their repr shows `dtype=int32`/`np.int32(..)`"
)
# Case name -> why the guest's output differs from native numpy/pandas (and must go on doing so).
# "wasm32:" entries are platform differences (docs/packages.md lists them).
KNOWN_DIFFERENCES: dict[str, str] = {
    "np_dtype_default_int": _INTP,
    "np_index_where_nonzero": _INTP,
    "np_broadcast_pairwise_distances": _INTP,
    "np_sort_histogram": _INTP + " (np.histogram's counts with explicit bins are intp)",
    "np_dtype_longdouble": (
        "wasm32: long double is IEEE binary128 (x86-64: 80-bit extended); and its pow/exp/log/sin"
        " are only double-precision (wasi-libc's binary128 libm falls back to double)"
    ),
    "pd_frame_info": (
        "wasm32: 4-byte pointers: an object column takes 4 bytes a value in memory_usage/info,"
        " and a RangeIndex's sys.getsizeof is smaller"
    ),
}


def _native_run(tmp: pathlib.Path, env: dict[str, str]) -> dict[str, Any]:
    """All cases in one native subprocess (a fresh directory per case under `tmp`)."""
    out = tmp / "native.json"
    done = subprocess.run(
        [sys.executable, str(RUNNER), str(out)],
        input=json.dumps([[c.name, c.code] for c in CASES]),
        capture_output=True,
        text=True,
        cwd=tmp,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"the native runner failed:\n{done.stderr}"
    result: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return result


@pytest.fixture(scope="module")
def native_env() -> dict[str, str]:
    """The native side's environment. numpy and pandas are dev dependencies: missing ones fail.

    numpy's runtime-dispatched SIMD kernels (x86-simd-sort, SVML, ...) are switched off, so that
    the native reference does not depend on the host's CPU: the guest has none (wasm32 has no
    dispatch), and e.g. the order of equal keys in the default (unstable) sort differs between
    an AVX-512 machine and numpy's portable code, which the guest runs.
    """
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import importlib.metadata as m, json, numpy, pandas\n"
            f"for n in {NATIVE_NEEDS!r}: __import__(n)\n"
            "from numpy._core import _multiarray_umath as u\n"
            "print(json.dumps({'versions': {n: m.version(n) for n in ('numpy', 'pandas')},"
            " 'dispatch': u.__cpu_dispatch__}))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        pytest.fail(
            "numpy, pandas and openpyxl must be importable natively (dev dependencies) for the"
            f" differential suite:\n{probe.stderr}"
        )
    found = json.loads(probe.stdout)
    assert found["versions"] == VERSIONS, "native numpy/pandas are not the guest's versions"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NPY_"))}
    env.update(PYTHONUTF8="1", PYTHONHASHSEED="0", TZ="UTC")
    env["NPY_DISABLE_CPU_FEATURES"] = " ".join(found["dispatch"])
    return env


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory, native_env: dict[str, str]) -> dict[str, str]:
    """Each case's native output."""
    outputs: dict[str, str] = _native_run(tmp_path_factory.mktemp("native"), native_env)["outputs"]
    return outputs


def _guest_program(batch: list[list[str]]) -> str:
    """Guest code: the runner's source, exec'd as a module, running `batch` in /workspace."""
    source = RUNNER.read_text(encoding="utf-8")
    return (
        "import os as _os\n"
        f"_source = {source!r}\n"
        "_runner = {'__name__': 'cove_scientific_runner'}\n"
        "exec(compile(_source, 'runner.py', 'exec'), _runner)\n"
        f"print(_runner['run_cases_json']({json.dumps(batch)!r}, _os.getcwd()))\n"
    )


async def _run_batch(pool: cove.Pool, batch: list[list[str]]) -> tuple[dict[str, str], str]:
    """Runs `batch` in a fresh session: its outputs by name, or ({}, what went wrong)."""
    session = await pool.create_session()
    try:
        result = await session.run_code(_guest_program(batch), timeout_s=CALL_TIMEOUT_S)
    finally:
        await pool.destroy_session(session.session_id)
    lines = result.stdout.splitlines()
    if result.return_code == 0 and lines:
        try:
            outputs: dict[str, str] = json.loads(lines[-1])["outputs"]
            return outputs, ""
        except (ValueError, KeyError):
            pass
    problem = (
        f"GUEST FAILURE: return code {result.return_code}, outcome {result.outcome},"
        f" limit {result.limit}\n{result.stderr[-3000:]}"
    )
    return {}, problem


@pytest.fixture(scope="module")
async def guest(tmp_path_factory: pytest.TempPathFactory, cache_dir: str) -> dict[str, str]:
    """Each case's output in the guest: batches in fresh sessions; a failed batch case by case."""
    settings = cove.PoolSettings(
        workspace_root=str(tmp_path_factory.mktemp("workspaces")),
        cache_dir=cache_dir,
        defaults=cove.Limits(
            timeout_s=CALL_TIMEOUT_S, memory_bytes=1024 * cove.MiB, max_output_bytes=16 * cove.MiB
        ),
    )
    cases = [[c.name, c.code] for c in CASES]
    batches = [cases[i : i + BATCH] for i in range(0, len(cases), BATCH)]
    outputs: dict[str, str] = {}
    limiter = anyio.CapacityLimiter(CONCURRENCY)
    started = time.perf_counter()
    async with cove.Pool(settings) as pool:

        async def run(batch: list[list[str]]) -> None:
            async with limiter:
                got, problem = await _run_batch(pool, batch)
                if not problem:
                    outputs.update(got)
                    return
                for case in batch:  # one crash must not hide the other cases' results
                    single, problem = await _run_batch(pool, [case])
                    outputs[case[0]] = single.get(case[0], problem)

        async with anyio.create_task_group() as tg:
            for batch in batches:
                tg.start_soon(run, batch)
    print(f"guest: {len(cases)} cases in {time.perf_counter() - started:.1f} s")
    return outputs


def _diff(name: str, want: str, got: str) -> str:
    lines = difflib.unified_diff(
        want.splitlines(), got.splitlines(), "native", "guest", lineterm="", n=2
    )
    return f"--- {name}\n" + "\n".join(lines)


def test_the_cases_are_many_uniquely_named_and_self_contained() -> None:
    names = [c.name for c in CASES]
    assert len(names) >= 220
    assert len(set(names)) == len(names)
    assert all(n.replace("_", "").isalnum() and n.islower() for n in names)
    for case in CASES:
        compile(case.code, case.name, "exec")
        assert "import" in case.code, case.name
    assert set(KNOWN_DIFFERENCES) <= set(names)


def test_the_native_side_is_deterministic(
    native: dict[str, str], native_env: dict[str, str], tmp_path: pathlib.Path
) -> None:
    again: dict[str, str] = _native_run(tmp_path, native_env)["outputs"]
    changed = [n for n in native if native[n] != again.get(n)]
    assert not changed, "\n\n".join(_diff(n, native[n], again.get(n, "")) for n in changed)


async def test_numpy_and_pandas_in_the_guest_match_native(
    native: dict[str, str], guest: dict[str, str]
) -> None:
    names = [c.name for c in CASES]
    dump = os.environ.get("COVE_SCIENTIFIC_DUMP")  # a directory: both sides' outputs as JSON
    if dump:
        pathlib.Path(dump).mkdir(parents=True, exist_ok=True)
        for side, outputs in (("native", native), ("guest", guest)):
            (pathlib.Path(dump) / f"{side}.json").write_text(json.dumps(outputs, indent=1))
    mismatches = [n for n in names if native[n] != guest.get(n)]
    unexplained = [n for n in mismatches if n not in KNOWN_DIFFERENCES]
    stale = [n for n in KNOWN_DIFFERENCES if n not in mismatches]
    rate = 1 - len(mismatches) / len(names)
    report = [f"{len(names) - len(mismatches)}/{len(names)} cases match ({rate:.1%}); differences:"]
    causes: dict[str, list[str]] = {}
    for n in mismatches:
        causes.setdefault(KNOWN_DIFFERENCES.get(n, "UNEXPLAINED"), []).append(n)
    report += [f"- {', '.join(ns)}:\n    {cause}" for cause, ns in causes.items()]
    print("\n".join(report))
    for n in mismatches:  # every difference in full on stdout, shown with the failure
        print(_diff(n, native[n], guest.get(n, "<no output>")))
    if rate < TARGET:
        report.append(f"the match rate is below {TARGET:.0%}")
    if unexplained:
        report.append(f"{len(unexplained)} difference(s) not in KNOWN_DIFFERENCES:")
        report += [_diff(n, native[n], guest.get(n, "<no output>")) for n in unexplained]
    if stale:
        report.append(f"KNOWN_DIFFERENCES entries that now match (remove them): {stale}")
    assert not unexplained and not stale and rate >= TARGET, "\n\n".join(report)

"""The differential suites' shared machinery: a list of cases (`cases.py`,
`document_cases.py`) runs natively (one host subprocess running them all, `runner.py`) and in
Cove's guest (the same runner sent as source, a batch of cases per fresh session); the
normalized outputs (stdout, escaped warnings, the exception raised) are compared. The differences
that are understood are listed by each suite with their cause: a suite fails on any other
difference, on a listed one that has gone away (so the list stays true), and when fewer than its
target share of the cases match.

Set COVE_SCIENTIFIC_DUMP to a directory to keep both sides' outputs (<suite>.native.json,
<suite>.guest.json).
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
from tests.integration.scientific.cases import Case

RUNNER = pathlib.Path(__file__).resolve().with_name("runner.py")
BATCH = 12  # cases per guest session and call
CONCURRENCY = 2  # guest sessions running at once
CALL_TIMEOUT_S = 240


def native_run(cases: list[Case], tmp: pathlib.Path, env: dict[str, str]) -> dict[str, Any]:
    """All cases in one native subprocess (a fresh directory per case under `tmp`)."""
    out = tmp / "native.json"
    done = subprocess.run(
        [sys.executable, str(RUNNER), str(out)],
        input=json.dumps([[c.name, c.code] for c in cases]),
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


def native_env(versions: dict[str, str], needs: tuple[str, ...]) -> dict[str, str]:
    """The native side's environment, after checking that the packages the cases import are
    there natively at the guest's versions (dev dependencies: a missing one fails the suite).

    numpy's runtime-dispatched SIMD kernels (x86-simd-sort, SVML, ...) are switched off, so that
    the native reference does not depend on the host's CPU: the guest has none (wasm32 has no
    dispatch), and e.g. the order of equal keys in the default (unstable) sort differs between
    an AVX-512 machine and numpy's portable code, which the guest runs.
    """
    probe = subprocess.run(
        [
            sys.executable,
            "-c",
            "import importlib.metadata as m, json\n"
            f"for n in {needs!r}: __import__(n)\n"
            "from numpy._core import _multiarray_umath as u\n"
            f"print(json.dumps({{'versions': {{n: m.version(n) for n in {list(versions)!r}}},"
            " 'dispatch': u.__cpu_dispatch__}))",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        pytest.fail(
            f"{', '.join(needs)} must be importable natively (dev dependencies) for the"
            f" differential suite:\n{probe.stderr}"
        )
    found = json.loads(probe.stdout)
    assert found["versions"] == versions, "the native packages are not the guest's versions"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NPY_"))}
    env.update(PYTHONUTF8="1", PYTHONHASHSEED="0", TZ="UTC")
    env["NPY_DISABLE_CPU_FEATURES"] = " ".join(found["dispatch"])
    env["OPENBLAS_NUM_THREADS"] = "1"  # the guest's OpenBLAS has one thread
    return env


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


async def guest_run(
    cases: list[Case], workspace_root: pathlib.Path, cache_dir: str
) -> dict[str, str]:
    """Each case's output in the guest: batches in fresh sessions; a failed batch case by case."""
    settings = cove.PoolSettings(
        workspace_root=str(workspace_root),
        cache_dir=cache_dir,
        defaults=cove.Limits(
            timeout_s=CALL_TIMEOUT_S, memory_bytes=1024 * cove.MiB, max_output_bytes=16 * cove.MiB
        ),
    )
    pending = [[c.name, c.code] for c in cases]
    batches = [pending[i : i + BATCH] for i in range(0, len(pending), BATCH)]
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
    print(f"guest: {len(pending)} cases in {time.perf_counter() - started:.1f} s")
    return outputs


def diff(name: str, want: str, got: str) -> str:
    lines = difflib.unified_diff(
        want.splitlines(), got.splitlines(), "native", "guest", lineterm="", n=2
    )
    return f"--- {name}\n" + "\n".join(lines)


def check_cases(cases: list[Case], known: dict[str, str], minimum: int) -> None:
    """The suite's cases are many, uniquely named, self-contained, and every known difference
    names one of them."""
    names = [c.name for c in cases]
    assert len(names) >= minimum
    assert len(set(names)) == len(names)
    assert all(n.replace("_", "").isalnum() and n.islower() for n in names)
    for case in cases:
        compile(case.code, case.name, "exec")
        assert "import" in case.code, case.name
    assert set(known) <= set(names)


def check_deterministic(
    cases: list[Case], native: dict[str, str], env: dict[str, str], tmp: pathlib.Path
) -> None:
    again: dict[str, str] = native_run(cases, tmp, env)["outputs"]
    changed = [n for n in native if native[n] != again.get(n)]
    assert not changed, "\n\n".join(diff(n, native[n], again.get(n, "")) for n in changed)


def compare(
    suite: str,
    cases: list[Case],
    native: dict[str, str],
    guest: dict[str, str],
    known: dict[str, str],
    target: float,
) -> None:
    names = [c.name for c in cases]
    dump = os.environ.get("COVE_SCIENTIFIC_DUMP")  # a directory: both sides' outputs as JSON
    if dump:
        pathlib.Path(dump).mkdir(parents=True, exist_ok=True)
        for side, outputs in (("native", native), ("guest", guest)):
            path = pathlib.Path(dump) / f"{suite}.{side}.json"
            path.write_text(json.dumps(outputs, indent=1))
    mismatches = [n for n in names if native[n] != guest.get(n)]
    unexplained = [n for n in mismatches if n not in known]
    stale = [n for n in known if n not in mismatches]
    rate = 1 - len(mismatches) / len(names)
    report = [f"{len(names) - len(mismatches)}/{len(names)} cases match ({rate:.1%}); differences:"]
    causes: dict[str, list[str]] = {}
    for n in mismatches:
        causes.setdefault(known.get(n, "UNEXPLAINED"), []).append(n)
    report += [f"- {', '.join(ns)}:\n    {cause}" for cause, ns in causes.items()]
    print("\n".join(report))
    for n in mismatches:  # every difference in full on stdout, shown with the failure
        print(diff(n, native[n], guest.get(n, "<no output>")))
    if rate < target:
        report.append(f"the match rate is below {target:.0%}")
    if unexplained:
        report.append(f"{len(unexplained)} difference(s) not in the known differences:")
        report += [diff(n, native[n], guest.get(n, "<no output>")) for n in unexplained]
    if stale:
        report.append(f"known differences that now match (remove them): {stale}")
    assert not unexplained and not stale and rate >= target, "\n\n".join(report)


class DifferentialSuite:
    """The tests of a differential suite, for a test module's class to inherit and fill in:
    its cases natively and in the guest (one run each, shared by the class's tests), checked
    for shape, for a deterministic native side, and compared."""

    SUITE: str  # the name in the dump's file names (COVE_SCIENTIFIC_DUMP)
    CASES: list[Case]
    KNOWN_DIFFERENCES: dict[str, str]
    TARGET: float
    MINIMUM: int  # cases at least
    VERSIONS: dict[str, str]  # the guest's versions, which the native side must have
    NATIVE_NEEDS: tuple[str, ...]  # modules the cases import natively

    @pytest.fixture(scope="class")
    @classmethod
    def native_env(cls) -> dict[str, str]:
        return native_env(cls.VERSIONS, cls.NATIVE_NEEDS)

    @pytest.fixture(scope="class")
    @classmethod
    def native(
        cls, tmp_path_factory: pytest.TempPathFactory, native_env: dict[str, str]
    ) -> dict[str, str]:
        """Each case's native output."""
        tmp = tmp_path_factory.mktemp("native")
        outputs: dict[str, str] = native_run(cls.CASES, tmp, native_env)["outputs"]
        return outputs

    @pytest.fixture(scope="class")
    async def guest(
        self, tmp_path_factory: pytest.TempPathFactory, cache_dir: str
    ) -> dict[str, str]:
        """Each case's output in the guest."""
        return await guest_run(self.CASES, tmp_path_factory.mktemp("workspaces"), cache_dir)

    def test_the_cases_are_many_uniquely_named_and_self_contained(self) -> None:
        check_cases(self.CASES, self.KNOWN_DIFFERENCES, self.MINIMUM)

    def test_the_native_side_is_deterministic(
        self, native: dict[str, str], native_env: dict[str, str], tmp_path: pathlib.Path
    ) -> None:
        check_deterministic(self.CASES, native, native_env, tmp_path)

    async def test_the_guest_matches_native(
        self, native: dict[str, str], guest: dict[str, str]
    ) -> None:
        compare(self.SUITE, self.CASES, native, guest, self.KNOWN_DIFFERENCES, self.TARGET)

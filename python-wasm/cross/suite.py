"""A built package's own test suite, in Cove sessions of the committed artifact and natively:

    .venv/bin/python -m cross suite lxml [--out report.json]      (from python-wasm/)
        [--only scipy.optimize.tests.test_milp ...] [--limit SECONDS]

Run with the repository's venv (it needs `cove`, and the package's native wheel at the recipe's
version for the native side, which the dev dependencies pin). The recipe names the suite in its
[test] section: `suite` (a script of its files/: called once with MODULE None to list the test
modules, then once per module in a fresh session, printing the module's result as JSON) and
`suite-files` (the files of the unpacked sdist, W/src/<name>-<version>, the script needs; copied
into each session's workspace and into a native scratch directory alike), and `suite-packages`
(pure-Python test tools such as pytest, which the guest does not have: copied from this venv,
at the versions the dev dependencies pin, into `suite-site/` of both, which the script puts
first on sys.path, so both sides run the same tools). A suite under pytest gets, there too,
cove_suite (suite_pytest.py): the running of one module and the JSON it prints, which the
recipes' scripts share.

The report gives, per module, what ran, was skipped, failed and errored in the guest and
natively, and every test that fails in the guest but not natively, with the last line of its
error: docs/packages.md lists them with their causes. Not part of CI (minutes per suite).
"""

from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
import sys
import tempfile
from typing import Any

from .recipe import Recipe
from .toolchain import Toolchain

CALL_TIMEOUT_S = 600  # one test module's time, on each side (--limit)


def _files(tc: Toolchain, recipe: Recipe) -> dict[str, bytes]:
    src = tc.source_dir(recipe)
    if not src.is_dir():
        sys.exit(f"{src}: not there: `python3.11 -m cross build {recipe.name} --step unpack`")
    found: dict[str, bytes] = {}
    for pattern in recipe.suite_files:
        for path in sorted(src.glob(pattern)):
            for file in sorted([path] if path.is_file() else path.rglob("*")):
                if file.is_file() and "__pycache__" not in file.parts:
                    found[file.relative_to(src).as_posix()] = file.read_bytes()
    for name in recipe.suite_packages:
        found.update(_package(name))
    found.update(_shared(recipe))
    return found


def _shared(recipe: Recipe) -> dict[str, bytes]:
    """What the recipes' suite scripts share: for a suite under pytest, cove_suite, its pytest
    side (suite_pytest.py says what it does), in suite-site/."""
    if "pytest" not in recipe.suite_packages:
        return {}
    return {
        "suite-site/cove_suite.py": (pathlib.Path(__file__).parent / "suite_pytest.py").read_bytes()
    }


def _package(name: str) -> dict[str, bytes]:
    """A pure-Python package or module of this venv, as files under suite-site/."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        sys.exit(f"cross suite: {name} is not installed here (the dev dependencies pin it)")
    origin = pathlib.Path(spec.origin)
    if not spec.submodule_search_locations:
        return {f"suite-site/{origin.name}": origin.read_bytes()}
    root = origin.parent
    found: dict[str, bytes] = {}
    for file in sorted(root.rglob("*")):
        if file.is_file() and "__pycache__" not in file.parts:
            if file.suffix in {".so", ".pyd"}:
                sys.exit(f"cross suite: {name} is not pure Python ({file.name})")
            found[f"suite-site/{name}/{file.relative_to(root).as_posix()}"] = file.read_bytes()
    return found


def _script(tc: Toolchain, recipe: Recipe, module: str | None) -> str:
    text = (recipe.directory / "files" / str(recipe.suite)).read_text()
    return f"MODULE = {module!r}\n" + text


def _chosen(modules: list[str], only: list[str]) -> list[str]:
    return [m for m in modules if not only or any(m.startswith(p) for p in only)]


async def _guest(
    tc: Toolchain, recipe: Recipe, files: dict[str, bytes], only: list[str], limit_s: float
) -> dict[str, Any]:
    import anyio
    import msgspec

    import cove

    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as root:
        limits = cove.Limits(
            timeout_s=limit_s,
            memory_bytes=2048 * cove.MiB,
            max_output_bytes=16 * cove.MiB,
            workspace_bytes=1024 * cove.MiB,
            workspace_files=100_000,
        )
        # the ceilings too: a pool's default ceiling on a call's time is 300 s
        settings = cove.PoolSettings(
            workspace_root=root,
            defaults=limits,
            ceilings=msgspec.structs.replace(cove.PoolSettings().ceilings, timeout_s=limit_s),
        )
        async with cove.Pool(settings) as pool:

            async def call(module: str | None) -> Any:
                session = await pool.create_session()
                try:
                    for name, data in files.items():
                        await session.write_file(name, data)
                    result = await session.run_code(_script(tc, recipe, module))
                finally:
                    await pool.destroy_session(session.session_id)
                lines = result.stdout.splitlines()
                if result.return_code == 0 and lines:
                    return json.loads(lines[-1])
                return _failed(module, f"{result.outcome}: {result.stderr[-300:]}")

            modules = _chosen(await call(None), only)
            limiter = anyio.CapacityLimiter(2)

            async def one(module: str) -> None:
                async with limiter:
                    results[module] = await call(module)
                    print(f"guest {module}: {_counts(results[module])}", file=sys.stderr)

            async with anyio.create_task_group() as tg:
                for module in modules:
                    tg.start_soon(one, module)
    return results


def _native(
    tc: Toolchain, recipe: Recipe, files: dict[str, bytes], only: list[str], limit_s: float
) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as root:
        for name, data in files.items():
            (pathlib.Path(root) / name).parent.mkdir(parents=True, exist_ok=True)
            (pathlib.Path(root) / name).write_bytes(data)

        def call(module: str | None) -> Any:
            done = subprocess.run(
                [sys.executable, "-c", _script(tc, recipe, module)],
                cwd=root,
                capture_output=True,
                text=True,
                timeout=limit_s,
                env={**os.environ, "PYTHONHASHSEED": "0"},
                check=False,
            )
            lines = done.stdout.splitlines()
            if done.returncode == 0 and lines:
                return json.loads(lines[-1])
            return {
                "run": 0,
                "skipped": 0,
                "failures": [],
                "errors": [[str(module), done.stderr[-300:]]],
            }

        for module in _chosen(call(None), only):
            results[module] = call(module)
            print(f"native {module}: {_counts(results[module])}", file=sys.stderr)
    return results


def _failed(module: str | None, why: str) -> dict[str, Any]:
    """A module whose run gave no result (a crash, a limit, an import error)."""
    return {"run": 0, "skipped": 0, "failures": [], "errors": [[str(module), why]]}


def _counts(r: dict[str, Any]) -> str:
    failed, errors = len(r["failures"]), len(r["errors"])
    return f"{r['run']} run, {r['skipped']} skipped, {failed} failed, {errors} errors"


def run(
    tc: Toolchain,
    recipe: Recipe,
    out: pathlib.Path | None,
    *,
    only: list[str] | None = None,
    limit_s: float | None = None,
) -> None:
    import anyio

    if not recipe.suite:
        sys.exit(f"cross: {recipe.name} has no [test] suite")
    files = _files(tc, recipe)
    only, limit_s = only or [], limit_s or CALL_TIMEOUT_S
    guest = anyio.run(_guest, tc, recipe, files, only, limit_s)
    native = _native(tc, recipe, files, only, limit_s)
    report: dict[str, Any] = {"guest": guest, "native": native, "only_in_guest": {}}
    totals = {side: [0, 0, 0, 0] for side in ("guest", "native")}
    print("| module | guest: run / skipped / failed / errors | native |")
    print("| --- | --- | --- |")
    for module in sorted(guest):
        g, n = (
            guest[module],
            native.get(module, {"run": 0, "skipped": 0, "failures": [], "errors": []}),
        )
        for side, r in (("guest", g), ("native", n)):
            t = totals[side]
            t[0] += r["run"]
            t[1] += r["skipped"]
            t[2] += len(r["failures"])
            t[3] += len(r["errors"])
        print(f"| {module} | {_counts(g)} | {_counts(n)} |")
        bad_natively = {t for t, _ in n["failures"] + n["errors"]}
        new = [[t, why] for t, why in g["failures"] + g["errors"] if t not in bad_natively]
        if new:
            report["only_in_guest"][module] = new
    for side, t in totals.items():
        print(f"{side}: {t[0]} run, {t[1]} skipped, {t[2]} failed, {t[3]} errors")
    for items in report["only_in_guest"].values():
        for test, why in items:
            print(f"only in the guest: {test}: {why}")
    if out is not None:
        out.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")

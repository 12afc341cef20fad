"""The chart-fidelity suite's native side: renders every case of `chart_cases.py` with the native
matplotlib and seaborn (the guest's versions, dev dependencies) and, run as a script, writes
the renders to tests/integration/fixtures/charts/<case>.<png|pdf|svg>, the references the guest's
renders are compared with (test_charts.py, which also checks that they are still what the
pinned native wheels draw).

    .venv/bin/python -m tests.integration.scientific.make_chart_references

Each case runs through the differential suites' runner (runner.py) in a fresh native process of
its own, as each runs in a fresh guest session: pyplot's figures and seaborn's rcParams do not
leak from one case into the next.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
from typing import NamedTuple

from tests.integration.scientific import harness
from tests.integration.scientific.chart_cases import CASES, ChartCase
from tests.support.recipes import version

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "charts"

# The versions the guest ships; the native side must have the same ones to be comparable.
VERSIONS = {
    "numpy": version("numpy"),
    "pandas": version("pandas"),
    "pillow": version("pillow"),
    "matplotlib": version("matplotlib"),
    "contourpy": version("contourpy"),
    "kiwisolver": version("kiwisolver"),
    "scipy": version("scipy"),
    "seaborn": "0.13.2",
    "cycler": "0.12.1",
    "fonttools": "4.55.3",
    "pyparsing": "3.2.1",
}
NATIVE_NEEDS = ("numpy", "pandas", "PIL", "matplotlib", "seaborn", "scipy")

# One case in a native process: the runner's `run_cases_json` on the [name, code] pairs read from
# stdin, in a directory per case under argv[2]; prints the runner's JSON. scipy is there, as in
# the guest: seaborn's KDE (histplot, kdeplot, violinplot) uses scipy.stats.gaussian_kde and its
# clustermap scipy.cluster.hierarchy.
_NATIVE_PROGRAM = """
import runpy, sys

runner = runpy.run_path(sys.argv[1], run_name="cove_scientific_runner")
print(runner["run_cases_json"](sys.stdin.read(), sys.argv[2]))
"""


class Rendered(NamedTuple):
    text: str  # the runner's normalized output: stdout, stderr, escaped warnings, the exception
    data: bytes | None  # the file the case saved, None if it saved none


def reference(case: ChartCase) -> pathlib.Path:
    """The stored native render of `case`."""
    return FIXTURES / (case.name + pathlib.PurePath(case.output).suffix)


def native_env() -> dict[str, str]:
    """harness.native_env (the versions checked, numpy's CPU dispatch off), with matplotlib's
    settings from the environment dropped: its Agg backend whatever the display (the guest's
    default backend draws with Agg too), and SOURCE_DATE_EPOCH so that the PDF and SVG
    references carry a fixed date (they are compared by page size only)."""
    env = harness.native_env(VERSIONS, NATIVE_NEEDS)
    env = {k: v for k, v in env.items() if not k.startswith("MPL")}
    env.update(MPLBACKEND="agg", SOURCE_DATE_EPOCH="0")
    return env


def render_native(
    cases: list[ChartCase], tmp: pathlib.Path, env: dict[str, str]
) -> dict[str, Rendered]:
    """Each case in a fresh native process, in its own directory under `tmp`; its output and the
    file it saved, by name. matplotlib's configuration and font cache go in a new directory of
    `tmp` (no user matplotlibrc)."""
    config = tmp / "mplconfig"
    config.mkdir(exist_ok=True)
    env = {**env, "MPLCONFIGDIR": str(config)}
    rendered: dict[str, Rendered] = {}
    for case in cases:
        done = subprocess.run(
            [sys.executable, "-c", _NATIVE_PROGRAM, str(harness.RUNNER), str(tmp)],
            input=json.dumps([[case.name, case.code]]),
            capture_output=True,
            text=True,
            cwd=tmp,
            env=env,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"the native runner failed on {case.name}:\n{done.stderr}"
        text: str = json.loads(done.stdout.splitlines()[-1])["outputs"][case.name]
        saved = tmp / case.name / case.output
        rendered[case.name] = Rendered(text, saved.read_bytes() if saved.is_file() else None)
    return rendered


def main() -> int:
    argparse.ArgumentParser(description="Renders the chart cases as references.").parse_args()
    with tempfile.TemporaryDirectory(prefix="cove-charts-") as tmp:
        rendered = render_native(CASES, pathlib.Path(tmp), native_env())
    FIXTURES.mkdir(parents=True, exist_ok=True)
    wanted = {reference(case) for case in CASES}
    for stale in FIXTURES.iterdir():  # a former case's reference
        if stale.suffix in (".png", ".pdf", ".svg") and stale not in wanted:
            stale.unlink()
    total = 0
    failed = False
    for case in CASES:
        data = rendered[case.name].data
        if data is None:
            print(f"{case.name}: saved no {case.output}:\n{rendered[case.name].text}")
            failed = True
            continue
        reference(case).write_bytes(data)
        total += len(data)
        print(f"{reference(case).name}: {len(data)} bytes")
    print(f"{len(CASES)} references, {total} bytes in {FIXTURES}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""matplotlib and seaborn in the guest against the same versions native, in the same run.

- import: the first `import matplotlib.pyplot` (and `import seaborn`) in a new session against
  the import in a fresh native `python -I` process of the host venv (the same versions, from
  wheels); pyplot is imported into the snapshot, so a session finds it in `sys.modules`;
- in-process latency: `pool.create_session()` (p50);
- charts: a 1,000-point line chart and a 10-by-10 seaborn heatmap with annotations, each drawn and
  saved as a PNG (into memory), the same program in a session and in a native process, guest
  and native alternating; the best sample of each side;
- memory: PSS per session that drew a chart (and kept nothing), against a fresh native process
  that did the same;
- sizes: the committed artifact and mpl-data, unpacked and compressed, and the compiled module.

    python -m bench --only charts
"""

from __future__ import annotations

import functools
import json
import pathlib
import statistics
import sys
import tempfile
import time
from typing import Any

import anyio

import cove

from ._stats import summary
from .scientific import (
    ARTIFACT,
    _checked,
    _compiled_entry,
    _native,
    _native_memory,
    _pss_per_session,
    _stats,
    bench_settings,
    guest_versions,
)

_TIMED_IMPORT = (
    "import time\nt = time.perf_counter()\nimport {name}\nprint(time.perf_counter() - t)"
)

# name -> (setup, the timed operation, repeats): one program, the same text on both sides.
CHARTS: dict[str, tuple[str, str, int]] = {
    "line_1000_png": (
        "x = np.linspace(0, 10, 1000)\ny = np.sin(x) + 0.1 * np.cos(7 * x)\n",
        "fig, ax = plt.subplots()\nax.plot(x, y, label='signal')\nax.set_title('A line')\n"
        "ax.set_xlabel('t')\nax.legend()\nfig.savefig(io.BytesIO(), format='png')\nplt.close(fig)",
        7,
    ),
    "seaborn_heatmap_png": (
        "import seaborn as sns\nrng = np.random.default_rng(0)\n"
        "df = pd.DataFrame(rng.normal(size=(10, 10)), columns=list('abcdefghij'))\n",
        "fig, ax = plt.subplots()\nsns.heatmap(df, annot=True, fmt='.1f', ax=ax)\n"
        "fig.savefig(io.BytesIO(), format='png')\nplt.close(fig)",
        5,
    ),
}

_CHART = (
    "import io, json, time\nimport numpy as np\nimport pandas as pd\nimport matplotlib\n"
    "matplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n{setup}"
    "samples = []\nfor _ in range({repeats}):\n"
    "    t = time.perf_counter()\n{op}\n    samples.append(time.perf_counter() - t)\n"
    "print(json.dumps(samples))\n"
)

# What a session that drew a chart holds afterwards: the figure closed, as model code ends.
CHART_ONCE = (
    "import io\nimport numpy as np\nimport matplotlib.pyplot as plt\n"
    "x = np.linspace(0, 10, 1000)\nfig, ax = plt.subplots()\nax.plot(x, np.sin(x))\n"
    "ax.set_title('A line')\nfig.savefig(io.BytesIO(), format='png')\nplt.close(fig)\n"
)

_VERSIONS = "import matplotlib, seaborn\nprint(matplotlib.__version__, seaborn.__version__)"


async def _charts(
    pool: cove.Pool, rounds: int
) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    session = await pool.create_session()
    guest: dict[str, list[float]] = {name: [] for name in CHARTS}
    native: dict[str, list[float]] = {name: [] for name in CHARTS}
    for _ in range(rounds):
        for name, (setup, op, repeats) in CHARTS.items():
            body = "\n".join("    " + line for line in op.splitlines())
            code = _CHART.format(setup=setup, op=body, repeats=repeats)
            guest[name] += json.loads(_checked(await session.run_code(code, timeout_s=240)))
            stdout = await anyio.to_thread.run_sync(functools.partial(_native, code))
            native[name] += json.loads(stdout)
    await pool.destroy_session(session.session_id)
    return {k: _stats(v) for k, v in guest.items()}, {k: _stats(v) for k, v in native.items()}


async def _guest(cache_dir: str, sessions: int, held: int, rounds: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with cove.Pool(bench_settings(cache_dir, "cove-bench-charts-")) as pool:
        out["versions"] = await guest_versions(pool, _VERSIONS)
        create: list[float] = []
        imports: dict[str, list[float]] = {"matplotlib.pyplot": [], "seaborn": []}
        for i in range(5 + sessions):
            t0 = time.perf_counter()
            session = await pool.create_session()
            t1 = time.perf_counter()
            for name in imports:
                stdout = _checked(await session.run_code(_TIMED_IMPORT.format(name=name)))
                if i >= 5:
                    imports[name].append(float(stdout))
            if i >= 5:
                create.append(t1 - t0)
            await pool.destroy_session(session.session_id)
        out["import_ms"] = {k: statistics.median(v) * 1000 for k, v in imports.items()}
        out["create_session"] = summary(create)
        out["memory_chart"] = await _pss_per_session(pool, CHART_ONCE, held)
        out["charts"], out["native_charts"] = await _charts(pool, rounds)
    return out


def _native_all(processes: int) -> dict[str, Any]:
    out: dict[str, Any] = {"versions": _native(_VERSIONS).split()}
    import_ms: dict[str, float] = {}
    for name in ("matplotlib.pyplot", "seaborn"):
        inside = [float(_native(_TIMED_IMPORT.format(name=name))) for _ in range(processes)]
        import_ms[name] = statistics.median(inside) * 1000
    out["import_ms"] = import_ms
    out["memory_chart"] = _native_memory(CHART_ONCE)
    return out


def _sizes(cache_dir: str) -> dict[str, int]:
    artifact = cove.Artifact(unpack_dir=cache_dir)
    data = artifact.root_dir / "usr" / "share" / "matplotlib" / "mpl-data"
    committed = ARTIFACT / "root" / "usr" / "share" / "matplotlib" / "mpl-data"
    entry = _compiled_entry(cache_dir, artifact)
    return {
        "python_wasm_xz_bytes": (ARTIFACT / "python.wasm.xz").stat().st_size,
        "python_wasm_bytes": artifact.wasm_path.stat().st_size,
        "stdlib_zip_xz_bytes": (ARTIFACT / "root" / "usr" / "lib" / "python311.zip.xz")
        .stat()
        .st_size,
        "stdlib_zip_bytes": (artifact.root_dir / "usr" / "lib" / "python311.zip").stat().st_size,
        "mpl_data_bytes": sum(p.stat().st_size for p in data.rglob("*") if p.is_file()),
        "mpl_data_xz_bytes": sum(p.stat().st_size for p in committed.rglob("*") if p.is_file()),
        "compiled_cache_bytes": entry.stat().st_size if entry else 0,
    }


def run(
    cache_dir: str, *, sessions: int = 30, processes: int = 7, held: int = 20, rounds: int = 3
) -> dict[str, Any]:
    guest = anyio.run(_guest, cache_dir, sessions, held, rounds)
    native = {**_native_all(processes), "charts": guest.pop("native_charts")}
    if guest["versions"] != native["versions"]:
        print(f"warning: guest {guest['versions']} != native {native['versions']}", file=sys.stderr)
    ratios = {
        name: guest["charts"][name]["best_ms"] / native["charts"][name]["best_ms"]
        for name in CHARTS
    }
    return {
        "method": {
            "sessions": sessions,
            "processes": processes,
            "held_sessions": held,
            "chart_rounds": rounds,
        },
        "guest": guest,
        "native": native,
        "chart_ratio": ratios,
        "sizes": _sizes(cache_dir),
    }


if __name__ == "__main__":
    cache = str(pathlib.Path(tempfile.gettempdir()) / "cove-bench-cache")
    print(json.dumps(run(cache, sessions=5, processes=3, held=5, rounds=1), indent=2))

"""numpy and pandas in the guest against the same versions native, in the same run.

- import: the first `import numpy` / `import pandas` in a new session (both are imported into
  the snapshot, so this finds them in `sys.modules`) against the import in a fresh native
  `python -I` process of the host venv (same numpy and pandas versions, from wheels);
- in-process latency: `pool.create_session()` (10 ms apart, and back to back), and create + the
  first `import pandas` call;
- memory: PSS per session holding the result of a 10,000-row groupby, against the PSS of a
  fresh native process that did the same;
- compute kernels: the same program (timed with `time.perf_counter` around the operation
  only) in a session and in a native process; the native numpy uses OpenBLAS (one thread
  here), the guest's numpy has no BLAS;
- sizes: the committed artifact, unpacked, numpy's and pandas's share of the archive, and the
  compiled module in the cache.

    python -m bench --only scientific
"""

from __future__ import annotations

import functools
import gc
import hashlib
import importlib.metadata
import json
import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from typing import Any

import anyio

import cove

from ._stats import memory_kib, summary

ROOT = pathlib.Path(__file__).resolve().parents[1]
ARTIFACT = ROOT / "runtime" / "cove" / "_interpreter"

# Between two timed creations: a gateway creates sessions one per conversation, not in a burst
# (bench/inprocess.py's "create session"); back-to-back creation is timed on its own.
CREATE_GAP_S = 0.01

CSV_NAME = "bench.csv"
CSV_BYTES = 10_000_000

_TIMED_IMPORT = (
    "import time\nt = time.perf_counter()\nimport {name}\nprint(time.perf_counter() - t)"
)

# The 10,000-row groupby whose result each session (and the native process) keeps.
GROUPBY_10K = (
    "import numpy as np\nimport pandas as pd\n"
    "rng = np.random.default_rng(0)\n"
    "df = pd.DataFrame({'key': rng.integers(0, 100, 10_000), 'x': rng.random(10_000),"
    " 'y': rng.random(10_000)})\n"
    "out = df.groupby('key').agg(x=('x', 'sum'), y=('y', 'mean'))\n"
    "print(len(out))\n"
)
# A curve fit with scipy whose result each session (and the native process) keeps.
CURVE_FIT = (
    "import numpy as np\nfrom scipy import optimize, stats\n"
    "rng = np.random.default_rng(0)\nt = np.linspace(0, 4, 200)\n"
    "y = 2.5 * np.exp(-1.3 * t) + 0.5 + rng.normal(0, 0.02, 200)\n"
    "popt, pcov = optimize.curve_fit(lambda t, a, b, c: a * np.exp(-b * t) + c, t, y)\n"
    "print(len(popt))\n"
)
# A scikit-learn fit whose model each session (and the native process) keeps.
SKLEARN_FIT = (
    "from sklearn.datasets import load_iris\nfrom sklearn.linear_model import LogisticRegression\n"
    "X, y = load_iris(return_X_y=True)\nmodel = LogisticRegression(max_iter=500).fit(X, y)\n"
    "print(len(model.coef_))\n"
)
# Appended to a native program: its own memory, from /proc/self/smaps_rollup.
_NATIVE_PSS = (
    "\nimport gc\ngc.collect()\n"
    "rollup = open('/proc/self/smaps_rollup').read().splitlines()[1:]\n"
    "f = {l.split(':')[0]: int(l.split()[1]) for l in rollup if l.split()[1].isdigit()}\n"
    "print(f['Pss'], f['Rss'], f['Private_Clean'] + f['Private_Dirty'])\n"
)

# name -> (setup, the timed operation, repeats). Each runs as one program, the same text in the
# guest and natively; only the operation is inside the timer.
KERNELS: dict[str, tuple[str, str, int]] = {
    "read_csv_10mb": ("", f"pd.read_csv({CSV_NAME!r})", 5),
    "groupby_1m": (
        "rng = np.random.default_rng(0)\nn = 1_000_000\n"
        "g = pd.DataFrame({'k': rng.integers(0, 1000, n), 'x': rng.random(n),"
        " 'y': rng.random(n)})\n",
        "g.groupby('k').agg(x=('x', 'sum'), y=('y', 'mean'))",
        7,
    ),
    "matmul_300": (
        "rng = np.random.default_rng(0)\na = rng.random((300, 300))\nb = rng.random((300, 300))\n",
        "a @ b",
        7,
    ),
    "solve_500": (
        "rng = np.random.default_rng(0)\na = rng.random((500, 500)) + 500 * np.eye(500)\n"
        "b = rng.random(500)\n",
        "np.linalg.solve(a, b)",
        7,
    ),
    "ttest_ind_10k": (
        "from scipy import stats\nrng = np.random.default_rng(0)\n"
        "x = rng.normal(0.0, 1.0, 10_000)\ny = rng.normal(0.05, 1.2, 10_000)\n",
        "stats.ttest_ind(x, y, equal_var=False)",
        7,
    ),
    "curve_fit": (
        "from scipy import optimize\nrng = np.random.default_rng(0)\n"
        "t = np.linspace(0, 4, 200)\n"
        "y = 2.5 * np.exp(-1.3 * t) + 0.5 + rng.normal(0, 0.02, 200)\n"
        "def f(t, a, b, c):\n    return a * np.exp(-b * t) + c\n",
        "optimize.curve_fit(f, t, y, p0=(1.0, 1.0, 0.0))",
        7,
    ),
    # scikit-learn: n_jobs left at its default (one job), as natively with one thread
    "random_forest_digits": (
        "from sklearn.datasets import load_digits\n"
        "from sklearn.ensemble import RandomForestClassifier\n"
        "X, y = load_digits(return_X_y=True)\n",
        "RandomForestClassifier(n_estimators=100, random_state=0).fit(X, y)",
        3,
    ),
    "kmeans_10k": (
        "from sklearn.cluster import KMeans\nrng = np.random.default_rng(0)\n"
        "X = np.concatenate([rng.normal(c, 1.0, (2_000, 2)) for c in range(5)])\n",
        "KMeans(n_clusters=5, n_init=3, random_state=0).fit(X)",
        5,
    ),
}

_KERNEL = (
    "import json, time\nimport numpy as np\nimport pandas as pd\n{setup}"
    "samples = []\nfor _ in range({repeats}):\n"
    "    t = time.perf_counter()\n    {op}\n    samples.append(time.perf_counter() - t)\n"
    "print(json.dumps(samples))\n"
)

_VERSIONS = (
    "import numpy, pandas, scipy, sklearn\n"
    "print(numpy.__version__, pandas.__version__, scipy.__version__, sklearn.__version__)"
)


def make_csv() -> bytes:
    """A deterministic CSV of at least CSV_BYTES: ints, a string column, floats, dates."""
    rnd = random.Random(0)
    cities = ("Paris", "Tokyo", "Lima", "Oslo", "Cairo", "Quito", "Perth", "Dakar")
    parts = ["id,key,city,x,y,day\n"]
    size = len(parts[0])
    i = 0
    while size < CSV_BYTES:
        row = (
            f"{i},{int(rnd.random() * 1000)},{cities[int(rnd.random() * 8)]},"
            f"{rnd.random():.6f},{rnd.gauss(0, 1):.6f},"
            f"2024-{1 + int(rnd.random() * 12):02d}-{1 + int(rnd.random() * 28):02d}\n"
        )
        parts.append(row)
        size += len(row)
        i += 1
    return "".join(parts).encode()


# One BLAS thread for the kernels: the guest runs on one core; a threaded OpenBLAS would also
# compete with whatever else the machine runs.
_ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def _native(code: str, cwd: str | None = None, env: dict[str, str] | None = None) -> str:
    """Run `code` in a fresh isolated native process of this venv's Python; its stdout."""
    return subprocess.run(
        [sys.executable, "-I", "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
    ).stdout


def _stats(samples_s: list[float]) -> dict[str, float]:
    return {
        "best_ms": min(samples_s) * 1000,
        "median_ms": statistics.median(samples_s) * 1000,
        "samples": len(samples_s),
    }


def _checked(result: cove.ExecResult) -> str:
    if result.outcome != "ok" or result.return_code != 0:
        raise RuntimeError(f"guest call failed: {result.outcome} {result.stderr[-2000:]}")
    return result.stdout


async def _pss_per_session(pool: cove.Pool, code: str, held: int) -> dict[str, float]:
    """Growth of this process's memory per session, `held` sessions each having run `code`.

    One session runs it first, so that the pages every session shares (the compiled module's,
    the snapshot's read-only ones) are already counted before.
    """
    first = await pool.create_session()
    _checked(await first.run_code(code))
    await pool.destroy_session(first.session_id)
    gc.collect()
    await anyio.sleep(0.2)
    before = memory_kib()
    kept: list[cove.Session] = []
    peak = 0
    for _ in range(held):
        session = await pool.create_session()
        result = await session.run_code(code)
        _checked(result)
        peak = max(peak, result.peak_memory_bytes)
        kept.append(session)
    after = memory_kib()
    for session in kept:
        await pool.destroy_session(session.session_id)
    return {
        "sessions": held,
        "pss_kib": (after["pss_kib"] - before["pss_kib"]) / held,
        "private_kib": (after["private_kib"] - before["private_kib"]) / held,
        "rss_kib": (after["rss_kib"] - before["rss_kib"]) / held,
        "guest_peak_memory_bytes": peak,
    }


async def _kernels(
    pool: cove.Pool, csv: bytes, rounds: int
) -> tuple[dict[str, dict[str, float]], int, dict[str, dict[str, float]]]:
    """Each kernel's program `rounds` times in one session and in fresh native processes,
    guest and native alternating; best and median over every sample of each."""
    work = tempfile.mkdtemp(prefix="cove-bench-sci-native-")
    (pathlib.Path(work) / CSV_NAME).write_bytes(csv)
    session = await pool.create_session()
    await session.write_file(CSV_NAME, csv)
    guest: dict[str, list[float]] = {name: [] for name in KERNELS}
    native: dict[str, list[float]] = {name: [] for name in KERNELS}
    peak = 0
    for _ in range(rounds):
        for name, (setup, op, repeats) in KERNELS.items():
            code = _KERNEL.format(setup=setup, op=op, repeats=repeats)
            result = await session.run_code(code, timeout_s=240)
            guest[name] += json.loads(_checked(result))
            peak = max(peak, result.peak_memory_bytes)
            stdout = await anyio.to_thread.run_sync(
                functools.partial(_native, code, cwd=work, env=_ONE_THREAD)
            )
            native[name] += json.loads(stdout)
    await pool.destroy_session(session.session_id)
    return (
        {k: _stats(v) for k, v in guest.items()},
        peak,
        {k: _stats(v) for k, v in native.items()},
    )


def bench_settings(cache_dir: str, prefix: str) -> cove.PoolSettings:
    """A pool for a benchmark: workspaces in a new temporary directory, no session cap."""
    root = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
    return cove.PoolSettings(workspace_root=str(root), cache_dir=cache_dir, max_sessions=100_000)


async def guest_versions(pool: cove.Pool, code: str) -> list[str]:
    """What `code` prints, split: the packages' versions as a session sees them."""
    warm = await pool.create_session()
    versions = _checked(await warm.run_code(code)).split()
    await pool.destroy_session(warm.session_id)
    return versions


async def _guest(
    cache_dir: str, sessions: int, held: int, rounds: int, csv: bytes
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    async with cove.Pool(bench_settings(cache_dir, "cove-bench-sci-")) as pool:
        out["versions"] = await guest_versions(pool, _VERSIONS)

        # 1 + 2: create, then the first call importing pandas (numpy: in-guest time only); 10 ms
        # apart, as a gateway creates sessions and as bench/inprocess.py times "create session".
        create: list[float] = []
        create_first: list[float] = []
        import_s: dict[str, list[float]] = {"pandas": [], "numpy": []}
        warmup = 5
        for i in range(warmup + sessions):
            await anyio.sleep(CREATE_GAP_S)
            t0 = time.perf_counter()
            session = await pool.create_session()
            t1 = time.perf_counter()
            stdout = _checked(await session.run_code(_TIMED_IMPORT.format(name="pandas")))
            t2 = time.perf_counter()
            if i >= warmup:
                create.append(t1 - t0)
                create_first.append(t2 - t0)
                import_s["pandas"].append(float(stdout))
            await pool.destroy_session(session.session_id)
        for name in ("numpy", "scipy.stats", "sklearn.linear_model"):
            import_s.setdefault(name, [])
            for _ in range(sessions):
                session = await pool.create_session()
                stdout = _checked(await session.run_code(_TIMED_IMPORT.format(name=name)))
                import_s[name].append(float(stdout))
                await pool.destroy_session(session.session_id)
        out["import_ms"] = {k: statistics.median(v) * 1000 for k, v in import_s.items()}
        out["create_session"] = summary(create)
        out["create_import_pandas"] = summary(create_first)
        # ... and back to back (create, destroy, create): faster than spares are made, so most
        # creations instantiate an interpreter while the caller waits.
        back_to_back: list[float] = []
        for i in range(warmup + sessions):
            t0 = time.perf_counter()
            session = await pool.create_session()
            if i >= warmup:
                back_to_back.append(time.perf_counter() - t0)
            await pool.destroy_session(session.session_id)
        out["create_session_back_to_back"] = summary(back_to_back)

        # 3: PSS per session holding a 10,000-row groupby's data, and, for scale, per session
        # that only ran `import pandas`.
        out["memory_groupby_10k"] = await _pss_per_session(pool, GROUPBY_10K, held)
        out["memory_import_pandas"] = await _pss_per_session(pool, "import pandas", held)
        out["memory_curve_fit"] = await _pss_per_session(pool, CURVE_FIT, held)
        out["memory_sklearn_fit"] = await _pss_per_session(pool, SKLEARN_FIT, held)

        # 4: compute kernels, alternating with the native runs (load on the machine drifts).
        kernels, peak, native_kernels = await _kernels(pool, csv, rounds)
        out.update(kernels=kernels, kernels_peak_memory_bytes=peak, native_kernels=native_kernels)
    return out


def _native_memory(code: str, processes: int = 3) -> dict[str, float]:
    """PSS, RSS and private memory of a fresh native process that ran `code` (median)."""
    samples = [[int(x) for x in _native(code + _NATIVE_PSS).split()[-3:]] for _ in range(processes)]
    return {
        "processes": processes,
        "pss_kib": statistics.median(s[0] for s in samples),
        "rss_kib": statistics.median(s[1] for s in samples),
        "private_kib": statistics.median(s[2] for s in samples),
    }


def _native_all(processes: int) -> dict[str, Any]:
    out: dict[str, Any] = {"versions": _native(_VERSIONS).split()}
    import_ms: dict[str, float] = {}
    process_ms: dict[str, float] = {}
    for name in ("pandas", "numpy", "scipy.stats", "sklearn.linear_model"):
        inside: list[float] = []
        whole: list[float] = []
        for _ in range(processes):
            t0 = time.perf_counter()
            stdout = _native(_TIMED_IMPORT.format(name=name))
            whole.append(time.perf_counter() - t0)
            inside.append(float(stdout))
        import_ms[name] = statistics.median(inside) * 1000
        process_ms[name] = statistics.median(whole) * 1000
    out["import_ms"] = import_ms
    out["process_import_ms"] = process_ms

    out["memory_groupby_10k"] = _native_memory(GROUPBY_10K)
    out["memory_import_pandas"] = _native_memory("import pandas")
    out["memory_curve_fit"] = _native_memory(CURVE_FIT)
    out["memory_sklearn_fit"] = _native_memory(SKLEARN_FIT)

    return out


def _compiled_entry(cache_dir: str, artifact: cove.Artifact) -> pathlib.Path | None:
    """The cache entry a pool without fuel metering loads (`Artifact.compile`'s key)."""
    version = importlib.metadata.version("wasmtime")
    engine_key = "epoch=1;fuel=0;cow=1"
    key = hashlib.sha256(f"{version}\0{artifact.sha256}\0{engine_key}".encode()).hexdigest()[:32]
    entry = pathlib.Path(cache_dir) / f"python-{key}.cwasm"
    if entry.is_file():
        return entry
    # The key derivation changed: the newest entry is the one this run wrote or used.
    entries = sorted(
        pathlib.Path(cache_dir).glob("python-*.cwasm"), key=lambda p: p.stat().st_mtime
    )
    return entries[-1] if entries else None


def _sizes(cache_dir: str) -> dict[str, int]:
    artifact = cove.Artifact(unpack_dir=cache_dir)
    archive = artifact.root_dir / "usr" / "lib" / "python311.zip"
    packages: dict[str, int] = {}
    with zipfile.ZipFile(archive) as zf:
        for pkg in ("numpy", "pandas"):
            infos = [i for i in zf.infolist() if i.filename.startswith(f"{pkg}/")]
            packages[f"{pkg}_in_zip_bytes"] = sum(i.compress_size for i in infos)
            packages[f"{pkg}_uncompressed_bytes"] = sum(i.file_size for i in infos)
    entry = _compiled_entry(cache_dir, artifact)
    return {
        "python_wasm_xz_bytes": (ARTIFACT / "python.wasm.xz").stat().st_size,
        "stdlib_zip_xz_bytes": (ARTIFACT / "root" / "usr" / "lib" / "python311.zip.xz")
        .stat()
        .st_size,
        "python_wasm_bytes": artifact.wasm_path.stat().st_size,
        "stdlib_zip_bytes": archive.stat().st_size,
        **packages,
        "compiled_cache_bytes": entry.stat().st_size if entry else 0,
    }


def run(
    cache_dir: str,
    *,
    sessions: int = 50,
    processes: int = 10,
    held: int = 20,
    rounds: int = 3,
) -> dict[str, Any]:
    """Every number of this module; `sessions` / `processes` for the import medians, `held`
    sessions for the memory per session, `rounds` of each kernel's program on each side."""
    csv = make_csv()
    guest = anyio.run(_guest, cache_dir, sessions, held, rounds, csv)
    native = {**_native_all(processes), "kernels": guest.pop("native_kernels")}
    if guest["versions"] != native["versions"]:
        print(
            f"warning: guest numpy/pandas {guest['versions']} != native {native['versions']}",
            file=sys.stderr,
        )
    ratios = {
        name: guest["kernels"][name]["best_ms"] / native["kernels"][name]["best_ms"]
        for name in KERNELS
    }
    return {
        "method": {
            "sessions": sessions,
            "processes": processes,
            "held_sessions": held,
            "csv_bytes": len(csv),
            "csv_rows": csv.count(b"\n") - 1,
            "kernel_rounds": rounds,
            "native_blas_threads": 1,
        },
        "guest": guest,
        "native": native,
        "kernel_ratio": ratios,
        "sizes": _sizes(cache_dir),
    }


if __name__ == "__main__":
    cache = str(pathlib.Path(tempfile.gettempdir()) / "cove-bench-cache")
    print(json.dumps(run(cache, sessions=5, processes=3, held=5, rounds=1), indent=2))

"""The guest's packages: import time in a new session against a native process with the same
pinned wheels, time-zone lookups, and the artifact's sizes."""

from __future__ import annotations

import pathlib
import statistics
import subprocess
import sys
import tempfile
from typing import Any

import anyio

import cove
from tests.support.recipes import version

ROOT = pathlib.Path(__file__).resolve().parents[1]
PINS = ROOT / "python-wasm" / "packages.txt"
ARTIFACT = ROOT / "runtime" / "cove" / "_interpreter"

IMPORTS = (
    "lxml.etree",
    "PIL.Image",
    "docx",
    "pptx",
    "dateutil.parser",
    "pytz",
    "zoneinfo",
    "openpyxl",
    "xlrd",
    "xlsxwriter",
    "pypdf",
    "bs4",
    "sympy",
    "requests",
)

_TIMED = "import time\nt = time.perf_counter()\nimport {name}\nprint(time.perf_counter() - t)"
_ZONES = (
    "import time, zoneinfo\nt = time.perf_counter()\n"
    "for k in ('Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'):\n"
    "    zoneinfo.ZoneInfo(k)\nprint((time.perf_counter() - t) / 4)"
)


async def _guest(cache_dir: str, repeats: int) -> dict[str, float]:
    out: dict[str, float] = {}
    async with cove.Pool(cove.PoolSettings(cache_dir=cache_dir)) as pool:
        for name, code in [(n, _TIMED.format(name=n)) for n in IMPORTS] + [("zone", _ZONES)]:
            samples = []
            for _ in range(repeats):
                session = await pool.create_session()
                result = await session.run_code(code)
                samples.append(float(result.stdout))
                await pool.destroy_session(session.session_id)
            out[name] = statistics.median(samples) * 1000
    return out


def _native(repeats: int) -> dict[str, float]:
    """The same imports in fresh native processes of a venv holding the pinned wheels."""
    venv = pathlib.Path(tempfile.mkdtemp(prefix="cove-bench-native-")) / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", "--require-hashes", "-r", str(PINS)],
        check=True,
    )
    # the packages built from recipes, as their PyPI wheels at the recipes' versions
    built = [f"{n}=={version(n)}" for n in ("lxml", "pillow")]
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", *built], check=True)
    out: dict[str, float] = {}
    for name, code in [(n, _TIMED.format(name=n)) for n in IMPORTS] + [("zone", _ZONES)]:
        samples = [
            float(
                subprocess.run(
                    [python, "-I", "-c", code], capture_output=True, text=True, check=True
                ).stdout
            )
            for _ in range(repeats)
        ]
        out[name] = statistics.median(samples) * 1000
    return out


def _sizes(cache_dir: str) -> dict[str, int]:
    artifact = cove.Artifact(unpack_dir=cache_dir)
    cache = sorted(pathlib.Path(cache_dir).glob("python-*.cwasm"))
    return {
        "python_wasm_bytes": artifact.wasm_path.stat().st_size,
        "stdlib_zip_bytes": (artifact.root_dir / "usr" / "lib" / "python311.zip").stat().st_size,
        "python_wasm_xz_bytes": (ARTIFACT / "python.wasm.xz").stat().st_size,
        "stdlib_zip_xz_bytes": (ARTIFACT / "root" / "usr" / "lib" / "python311.zip.xz")
        .stat()
        .st_size,
        "compiled_cache_bytes": max((p.stat().st_size for p in cache), default=0),
        # the rest of the guest's root: the fonts under usr/share and their licence
        "root_other_bytes": sum(
            p.stat().st_size
            for p in artifact.root_dir.rglob("*")
            if p.is_file() and p.name != "python311.zip"
        ),
        "root_other_xz_bytes": sum(
            p.stat().st_size
            for p in (ARTIFACT / "root").rglob("*.xz")
            if p.name != "python311.zip.xz"
        ),
    }


def run(cache_dir: str, *, repeats: int = 5) -> dict[str, Any]:
    guest = anyio.run(_guest, cache_dir, repeats)
    native = _native(repeats)
    return {"import_ms": {"guest": guest, "native": native}, "sizes": _sizes(cache_dir)}

"""matplotlib and seaborn in the guest against the same versions natively, chart for chart
(chart_cases.py): the guest's PNG must have the native render's size, and its RMS difference
from it (matplotlib's own `matplotlib.testing.compare.calculate_rms`, on the pixels as
`compare_images` loads them) must be at most RMS_TARGET, 1.0, for every chart (measured: 0.073
at most). PDF and SVG output is not rasterized: it must be well-formed and have the native page
size (MediaBox, width/height/viewBox).

The native renders are stored (tests/integration/fixtures/charts, written by
`python -m tests.integration.scientific.make_chart_references`); a native-only test checks that
they are still what the pinned native wheels draw.

The packages are the same versions natively and in the guest. The FreeType under matplotlib's
ft2font is not the same release: the native wheels render text with FreeType 2.6.1, the guest's
FreeType is Debian's 2.12.1 with Cove's `cove-like-2.6.1` property (python-wasm/recipes/freetype,
patch 0001), which matplotlib's ft2font sets (recipes/matplotlib, patch 0004) so that its text is
rendered as 2.6.1 renders it (docs/packages.md, "Images against the native wheels").

Set COVE_CHART_RMS_OUT to a file path to get the per-case measurements as JSON.
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import re
import time
import xml.etree.ElementTree as ET
from typing import Any

import anyio
import numpy as np
import pytest
from matplotlib.testing.compare import calculate_rms
from PIL import Image

import cove
from tests.integration.scientific import harness
from tests.integration.scientific.chart_cases import CASES, KINDS, ChartCase
from tests.integration.scientific.make_chart_references import (
    FIXTURES,
    Rendered,
    native_env,
    reference,
    render_native,
)

pytestmark = pytest.mark.anyio

RMS_TARGET = 1.0  # the acceptance bound, for every case
CALL_TIMEOUT_S = 120

# In the runner's output: an exception, an escaped warning, anything on stderr (logging).
_NOISE = ("EXC ", "WARNING ", "--- stderr ---", "HARNESS ")
VECTOR_CASES = [c for c in CASES if not c.output.endswith(".png")]


def pixels(data: bytes) -> np.ndarray[Any, np.dtype[np.int16]]:
    """A PNG's pixels as matplotlib's `compare_images` loads them (an opaque RGBA image as RGB),
    as signed integers so that they subtract without overflow."""
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        if img.mode != "RGBA" or img.getextrema()[3][0] == 255:
            img = img.convert("RGB")
        return np.asarray(img).astype(np.int16)


def pdf_page_size(data: bytes) -> tuple[float, ...]:
    """The MediaBox of a one-page PDF, after checking that the file is whole: header, trailer,
    and a cross-reference table whose every entry points at its object."""
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    start = int(re.findall(rb"startxref\s+(\d+)", data)[-1])
    table = re.match(rb"xref\s+0 (\d+)\s+", data[start:])
    assert table, "startxref does not point at the cross-reference table"
    count = int(table.group(1))
    entries = data[start + table.end() :].split(b"\n")[:count]
    for number, entry in enumerate(entries):
        offset, _, kind = entry.split()[:3]
        if kind == b"n":
            assert data[int(offset) :].startswith(b"%d 0 obj" % number), f"object {number}"
    size = re.search(rb"trailer\s*<<[^>]*/Size (\d+)", data)
    assert size and int(size.group(1)) == count
    assert len(re.findall(rb"/Type /Page\b", data)) == 1
    boxes = re.findall(rb"/MediaBox \[ ([^\]]*) \]", data)
    assert len(boxes) == 1
    return tuple(float(v) for v in boxes[0].split())


def svg_size(data: bytes) -> tuple[str | None, ...]:
    """An SVG's width, height and viewBox, after parsing it as XML."""
    root = ET.fromstring(data)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root.get("width"), root.get("height"), root.get("viewBox")


def page_size(case: ChartCase, data: bytes) -> tuple[Any, ...]:
    return pdf_page_size(data) if case.output.endswith(".pdf") else svg_size(data)


async def _render_in_guest(pool: cove.Pool, case: ChartCase) -> Rendered:
    """`case` in a fresh session (pyplot's figures and rcParams start afresh, as natively) through
    the differential suites' runner; its output, or what went wrong, and the file it saved."""
    session = await pool.create_session()
    try:
        program = harness._guest_program([[case.name, case.code]])
        result = await session.run_code(program, timeout_s=CALL_TIMEOUT_S)
        lines = result.stdout.splitlines()
        try:
            text: str = json.loads(lines[-1])["outputs"][case.name]
        except (IndexError, ValueError, KeyError):
            text = (
                f"GUEST FAILURE: return code {result.return_code}, outcome {result.outcome},"
                f" limit {result.limit}\n{result.stderr[-3000:]}"
            )
        try:
            data: bytes | None = (await session.read_file(f"{case.name}/{case.output}"))[0]
        except cove.WorkspaceFileNotFoundError:
            data = None
    finally:
        await pool.destroy_session(session.session_id)
    return Rendered(text, data)


async def render_in_guest(
    cases: list[ChartCase], workspace_root: pathlib.Path, cache_dir: str
) -> dict[str, Rendered]:
    settings = cove.PoolSettings(
        workspace_root=str(workspace_root),
        cache_dir=cache_dir,
        defaults=cove.Limits(
            timeout_s=CALL_TIMEOUT_S, memory_bytes=1024 * cove.MiB, max_output_bytes=16 * cove.MiB
        ),
    )
    rendered: dict[str, Rendered] = {}
    limiter = anyio.CapacityLimiter(harness.CONCURRENCY)
    started = time.perf_counter()
    async with cove.Pool(settings) as pool:

        async def run(case: ChartCase) -> None:
            async with limiter:
                rendered[case.name] = await _render_in_guest(pool, case)

        async with anyio.create_task_group() as tg:
            for case in cases:
                tg.start_soon(run, case)
    print(f"guest: {len(cases)} charts in {time.perf_counter() - started:.1f} s")
    return rendered


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rendered]:
    """Each case rendered afresh natively."""
    return render_native(CASES, tmp_path_factory.mktemp("native"), native_env())


@pytest.fixture(scope="module")
async def guest(tmp_path_factory: pytest.TempPathFactory, cache_dir: str) -> dict[str, Rendered]:
    """Each case rendered in the guest."""
    return await render_in_guest(CASES, tmp_path_factory.mktemp("workspaces"), cache_dir)


def test_the_cases_cover_every_kind_and_have_references() -> None:
    names = [c.name for c in CASES]
    assert len(set(names)) == len(names)
    assert all(n.replace("_", "").isalnum() and n.islower() for n in names)
    for case in CASES:
        compile(case.code, case.name, "exec")
        assert "import matplotlib.pyplot as plt" in case.code, case.name
        assert "matplotlib.use" not in case.code, case.name
        assert f'savefig("{case.output}"' in case.code, case.name
        assert pathlib.PurePath(case.output).suffix in (".png", ".pdf", ".svg"), case.name
    assert len(KINDS) == 20 and set(KINDS.values()) <= set(names)
    assert {pathlib.PurePath(c.output).suffix for c in VECTOR_CASES} == {".pdf", ".svg"}
    assert sorted(p.name for p in FIXTURES.iterdir()) == sorted(reference(c).name for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_reference_is_the_pinned_native_render(
    case: ChartCase, native: dict[str, Rendered]
) -> None:
    """The stored reference is what the native wheels draw now: the same pixels (PNG), or the same
    page size (PDF, SVG: their bytes carry a random id salt)."""
    rendered = native[case.name]
    assert rendered.data is not None, f"{case.name} saved no {case.output}:\n{rendered.text}"
    assert not any(mark in rendered.text for mark in _NOISE), rendered.text
    stored = reference(case).read_bytes()
    if case in VECTOR_CASES:
        assert page_size(case, rendered.data) == page_size(case, stored)
        return
    want, got = pixels(stored), pixels(rendered.data)
    assert got.shape == want.shape
    assert calculate_rms(want, got) <= 1e-6


def _measure(case: ChartCase, rendered: Rendered) -> dict[str, Any]:
    """One guest render against its reference: sizes, RMS (PNG) or page sizes (PDF, SVG), and
    what is wrong with it, if anything."""
    stored = reference(case).read_bytes()
    row: dict[str, Any] = {"output": case.output, "problem": ""}
    if rendered.data is None:
        row["problem"] = f"saved no {case.output}:\n{rendered.text}"
        return row
    if any(mark in rendered.text for mark in _NOISE):
        row["problem"] = f"warned or failed:\n{rendered.text}"
        return row
    if case in VECTOR_CASES:
        row["native_page"] = page_size(case, stored)
        try:
            row["guest_page"] = page_size(case, rendered.data)
        except (AssertionError, ValueError, IndexError, ET.ParseError) as exc:
            row["problem"] = f"malformed {case.output}: {exc!r}"
            return row
        if row["guest_page"] != row["native_page"]:
            row["problem"] = f"page size {row['guest_page']}, natively {row['native_page']}"
        return row
    want = pixels(stored)
    try:
        got = pixels(rendered.data)
    except (AssertionError, OSError) as exc:
        row["problem"] = f"not a PNG: {exc!r}"
        return row
    row["native_size"] = [want.shape[1], want.shape[0]]
    row["guest_size"] = [got.shape[1], got.shape[0]]
    if got.shape != want.shape:
        row["problem"] = f"size {got.shape}, natively {want.shape}"
        return row
    rms = float(calculate_rms(want, got))
    row["rms"] = round(rms, 4)
    if rms > RMS_TARGET:
        row["problem"] = f"RMS {rms:.3f} over {RMS_TARGET}"
    return row


async def test_charts_in_the_guest_match_native(
    guest: dict[str, Rendered], tmp_path: pathlib.Path
) -> None:
    rows = {case.name: _measure(case, guest[case.name]) for case in CASES}
    for case in CASES:  # the guest's files, to look at when a case fails
        data = guest[case.name].data
        if data is not None:
            (tmp_path / reference(case).name).write_bytes(data)
    out = os.environ.get("COVE_CHART_RMS_OUT")
    if out:
        pathlib.Path(out).write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    report = [f"guest renders in {tmp_path}; case, RMS against native (at most {RMS_TARGET}):"]
    for name, row in rows.items():
        measured = f"{row['rms']:.3f}" if "rms" in row else "page size"
        failure = f"  FAILED: {row['problem']}" if row["problem"] else ""
        report.append(f"  {name:24} {measured}{failure}")
    print("\n".join(report))
    failed = [name for name, row in rows.items() if row["problem"]]
    assert not failed, "\n".join(report)

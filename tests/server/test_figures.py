"""Over HTTP, on a real `cove serve` on loopback: `plt.show()` in model code comes back as PNG
files the result block names and the client downloads (cove_guest/matplotlib_backend.py)."""

from __future__ import annotations

import io
import pathlib

import httpx
from PIL import Image

from tests.support.servers import start_server, stop_server

CHART = """
import matplotlib.pyplot as plt
import numpy as np
x = np.linspace(0, 2 * np.pi, 200)
plt.plot(x, np.sin(x), label="sin")
plt.title("Revenue by quarter")
plt.legend()
plt.show()
fig, ax = plt.subplots(figsize=(4, 3))
ax.bar(["Q1", "Q2", "Q3"], [3, 5, 4])
plt.show()
"""


def test_plt_show_returns_the_figures_as_files_in_the_result_block(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    server = start_server(tmp_path, cache_dir)
    try:
        base = server.base_url
        sid = httpx.post(f"{base}/sessions", json={}).json()["session_id"]
        response = httpx.post(
            f"{base}/sessions/{sid}/exec",
            json={"tool": "code_execution", "input": {"code": CHART}},
            timeout=120,
        )
        assert response.status_code == 200, response.text
        content = response.json()["result_block"]["content"]
        assert content["return_code"] == 0 and content["stderr"] == "", content["stderr"]
        assert content["stdout"].splitlines() == [
            "Saved figure_1.png in /workspace (a figure cannot be displayed here)",
            "Saved figure_2.png in /workspace (a figure cannot be displayed here)",
        ]
        files = content["content"]
        assert [f["filename"] for f in files] == ["figure_1.png", "figure_2.png"]
        assert all(f["type"] == "code_execution_output" for f in files)
        sizes = []
        for entry in files:
            fetched = httpx.get(f"{base}/sessions/{sid}/files", params={"path": entry["file_id"]})
            assert fetched.status_code == 200
            image = Image.open(io.BytesIO(fetched.content))
            image.load()
            assert image.format == "PNG"
            # not blank: a plotted figure has many colours (lines, text antialiasing)
            assert len(image.convert("RGB").getcolors(maxcolors=1 << 16) or []) > 20
            sizes.append(image.size)
        assert sizes == [(640, 480), (400, 300)]
    finally:
        stop_server(server)

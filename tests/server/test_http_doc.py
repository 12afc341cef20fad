"""docs/http.md's examples, run as written against a live server: every `sh` block in order in
one shell (so `SID` carries from block to block), each answer checked against the `json` block
the doc shows after it (the same fields at every level; the values are the server's)."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.servers import Server, start_server, stop_server

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "http.md"
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.S)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, cache_dir: str) -> Iterator[Server]:
    srv = start_server(tmp_path_factory.mktemp("http-doc"), cache_dir)
    yield srv
    stop_server(srv)


def _examples() -> list[tuple[str, str | None]]:
    """Each `sh` block, and the `json` block right after it (None if there is none)."""
    blocks = FENCE.findall(DOC.read_text())
    out: list[tuple[str, str | None]] = []
    for i, (kind, body) in enumerate(blocks):
        if kind == "sh":
            following = blocks[i + 1] if i + 1 < len(blocks) else None
            out.append((body, following[1] if following and following[0] == "json" else None))
    return out


def _fields(value: Any) -> Any:
    """The shape of a JSON value: its keys at every level (lists by their first item)."""
    if isinstance(value, dict):
        return {k: _fields(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fields(value[0])] if value else []
    return None


def test_every_curl_example_runs_and_answers_as_shown(
    server: Server, tmp_path: pathlib.Path
) -> None:
    examples = _examples()
    assert len(examples) >= 12
    script = ["set -u", f"COVE={server.base_url}"]
    for i, (sh, _) in enumerate(examples):
        if re.fullmatch(r"COVE=\S+\n", sh):
            continue  # the address: the test's own server instead
        script += [f"echo '<<<{i}>>>'", sh.rstrip(), f"echo; echo '<<<end {i} '$?'>>>'"]
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    outputs = dict(
        (int(m[0]), (m[1].strip(), int(m[2])))
        for m in re.findall(r"<<<(\d+)>>>\n(.*?)<<<end \d+ (\d+)>>>", done.stdout, re.S)
    )
    checked = 0
    for i, (sh, shown) in enumerate(examples):
        if i not in outputs:
            continue
        output, status = outputs[i]
        assert status == 0, (sh, output, done.stderr)
        if shown is None:
            continue
        actual = json.loads(output)
        assert _fields(actual) == _fields(json.loads(shown)), (sh, output)
        checked += 1
    assert checked >= 10
    # GetFile wrote the file as the edit left it.
    assert (tmp_path / "out.csv").read_text() == "a,b\n3,4\n"

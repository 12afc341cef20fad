"""diff: recursive and unified with labels."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from ..support import run, shell_in


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, {"d/a.py": "x\n", "d/b.py": "y\ny\n"}) as shell:
        yield shell


@pytest.fixture
def trees(sh: Any, tmp_path: pathlib.Path) -> Any:
    for name, text in {
        "a/f": "1\n2\n",
        "b/f": "1\n3\n",
        "a/only": "o\n",
        "a/s/g": "g\n",
        "b/s/g": "g\n",
        "b/new": "n\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return sh


def test_diff_recursive(trees: Any) -> None:
    out, _, rc = run(trees, "diff -r a b")
    assert out == "diff -r a/f b/f\n2c2\n< 2\n---\n> 3\nOnly in b: new\nOnly in a: only\n"
    assert rc == 1
    assert (
        run(trees, "diff -rq a b")[0]
        == "Files a/f and b/f differ\nOnly in b: new\nOnly in a: only\n"
    )
    assert run(trees, "diff a/s b/s") == ("", "", 0)


def test_diff_unified_with_labels(trees: Any) -> None:
    out, _, rc = run(trees, "diff -u --label x --label y a/f b/f")
    assert (out, rc) == ("--- x\n+++ y\n@@ -1,2 +1,2 @@\n 1\n-2\n+3\n", 1)

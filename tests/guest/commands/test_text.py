"""Text commands: head and tail counts."""

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


def test_head_and_tail_with_negative_and_plus_counts(sh: Any) -> None:
    assert run(sh, "head -c -2 d/b.py") == ("y\n", "", 0)
    assert run(sh, "head -n -1 d/b.py") == ("y\n", "", 0)
    assert run(sh, "printf '1\\n2\\n' | tail -c +2") == ("\n2\n", "", 0)
    assert run(sh, "printf 'abc' | head -c -5") == ("", "", 0)

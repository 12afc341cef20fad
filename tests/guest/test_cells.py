"""Running source as the main module: state between cells, tracebacks, exit statuses."""

from __future__ import annotations

import pytest

from cove_guest.capture import BoundedText
from cove_guest.cells import Cells


def run(cells: Cells, code: str) -> tuple[int, str, str | None]:
    out, err = BoundedText(1 << 16), BoundedText(1 << 16)
    ran = cells.run(code, out, err)
    return ran.status, out.getvalue() + err.getvalue(), ran.exc_type


def test_state_persists_and_cells_are_numbered() -> None:
    cells = Cells()
    assert run(cells, "x = 41")[0] == 0
    rc, text, _ = run(cells, "def f():\n    return x + 1\nraise ValueError(f())")
    assert rc == 1
    assert text.startswith('Traceback (most recent call last):\n  File "<cell-2>", line 3')
    assert text.endswith("ValueError: 42\n")
    assert "cells.py" not in text  # the driver's own frame is dropped


@pytest.mark.parametrize(
    ("code", "rc", "exc"),
    [
        ("raise SystemExit", 0, None),
        ("raise SystemExit(258)", 2, None),
        ("raise SystemExit('bye')", 1, None),
        ("def (", 1, "SyntaxError"),
        ("raise KeyError(1)", 1, "KeyError"),
    ],
)
def test_exit_statuses(code: str, rc: int, exc: str | None) -> None:
    got = run(Cells(), code)
    assert (got[0], got[2]) == (rc, exc)

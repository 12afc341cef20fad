"""awk: the language through the command line."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from cove_guest.commands.awk.interp import run as awk

from ..support import run, shell_in


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, {"d/a.py": "x\n", "d/b.py": "y\ny\n"}) as shell:
        yield shell


def test_awk_compound_assignment_computes_only_its_operator(sh: Any) -> None:
    # `s += $1` used to evaluate every compound operator: cur ** v overflowed, v == 0 divided.
    assert run(sh, "printf '100000\\n400\\n' | awk '{s += $1} END {print s}'") == (
        "100400\n",
        "",
        0,
    )
    assert run(sh, "printf '0\\n5\\n' | awk '{s += $1} END {print s}'") == ("5\n", "", 0)
    assert run(sh, "awk 'BEGIN {x = 10; x ^= 400; print x > 1}'")[2] == 0


def test_awk_language_core() -> None:
    class Out:
        def __init__(self) -> None:
            self.parts: list[str] = []

        def write(self, s: str) -> None:
            self.parts.append(s)

    out, err = Out(), Out()
    program = 'BEGIN {OFS="-"} {n[$1] += $2} END {for (k in n) print k, n[k]; printf "%d\\n", NR}'
    assert awk(program, [("", "a 1\nb 2\na 3\n")], out, err) == 0
    assert "".join(out.parts).splitlines() == ["a-4", "b-2", "3"]


def test_awk_field_separator_and_assignments(sh: Any) -> None:
    assert run(sh, "printf 'a:b\\n' | awk -F: -v x=1 '{print $2 x}'") == ("b1\n", "", 0)

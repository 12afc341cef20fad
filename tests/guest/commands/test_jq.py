"""jq: the language (lexer, parser, evaluation) and its command line."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from cove_guest.commands.jq.evaluate import Env, run
from cove_guest.commands.jq.parser import Parser

from ..support import run as run_line
from ..support import shell_in


def jq(program: str, value: Any) -> list[Any]:
    return list(run(Parser(program).parse(), value, Env({})))


@pytest.mark.parametrize(
    ("program", "value", "out"),
    [
        (".a.b", {"a": {"b": 1}}, [1]),
        (".[] | . * 2", [1, 2], [2, 4]),
        ("map(select(. > 1))", [1, 2, 3], [[2, 3]]),
        ("{x: .a, y: [.b[]]}", {"a": 1, "b": [2]}, [{"x": 1, "y": [2]}]),
        ('if . == null then "t" else "f" end', None, ["t"]),
        ("reduce .[] as $x (0; . + $x)", [1, 2, 3], [6]),
        ('"v=\\(.)"', 5, ["v=5"]),
        ("keys, length", {"b": 1, "a": 2}, [["a", "b"], 2]),
    ],
)
def test_filters(program: str, value: Any, out: list[Any]) -> None:
    assert jq(program, value) == out


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, {"d.json": '{"a": [1, 2], "s": "x"}\n'}) as shell:
        yield shell


def test_command_line_options(sh: Any) -> None:
    assert run_line(sh, "jq -r .s d.json") == ("x\n", "", 0)
    assert run_line(sh, "jq -c --arg k v '{k: $k}' d.json") == ('{"k":"v"}\n', "", 0)
    assert run_line(sh, "jq -e .missing d.json")[2] == 1
    assert run_line(sh, "echo '{' | jq .")[2] == 4

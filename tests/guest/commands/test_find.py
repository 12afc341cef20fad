"""find: -exec … + and -exec … ;, actions on their own branch, time tests."""

from __future__ import annotations

import os
import pathlib
import time
from collections.abc import Iterator
from typing import Any

import pytest

from ..support import run, shell_in


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, {"d/a.py": "x\n", "d/b.py": "y\ny\n"}) as shell:
        yield shell


def test_find_exec_plus_runs_the_command_once_with_all_paths(sh: Any) -> None:
    out, _, rc = run(sh, "find . -name '*.py' -exec wc -l {} + | sort")
    assert (out, rc) == ("1 ./d/a.py\n2 ./d/b.py\n3 total\n", 0)


def test_find_exec_failures_are_reported(sh: Any) -> None:
    assert run(sh, "find . -name a.py -exec false {} +")[2] == 1
    # `-exec … ;` is a test: false when the command fails.
    assert run(sh, "find . -name '*.py' -exec false {} \\; -print") == ("", "", 0)
    assert run(sh, "find . -name a.py -exec true {} \\; -print")[0] == "./d/a.py\n"


def test_find_actions_belong_to_their_branch(sh: Any) -> None:
    assert run(sh, "find . -name a.py -print -o -name b.py")[0] == "./d/a.py\n"


def test_find_mtime_mmin_newer(sh: Any, tmp_path: pathlib.Path) -> None:
    old = tmp_path / "old.txt"
    old.write_text("o")
    t = time.time() - 10 * 86400
    os.utime(old, (t, t))
    (tmp_path / "new.txt").write_text("n")
    assert run(sh, "find . -name '*.txt' -mtime +5")[0] == "./old.txt\n"
    assert run(sh, "find . -name '*.txt' -mtime -1")[0] == "./new.txt\n"
    assert run(sh, "find . -name '*.txt' -mtime 10")[0] == "./old.txt\n"
    assert run(sh, "find . -name '*.txt' -mmin -5")[0] == "./new.txt\n"
    assert run(sh, "find . -name '*.txt' -mmin +60")[0] == "./old.txt\n"
    assert run(sh, "find . -name '*.txt' -newer old.txt")[0] == "./new.txt\n"

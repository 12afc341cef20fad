"""`pip`: the installed packages as `importlib.metadata` sees them, and nothing installed.

Natively the distributions are this test environment's; in the guest they are the
interpreter's (tests/integration/test_packages.py checks those by name and version)."""

from __future__ import annotations

import importlib.metadata
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from cove_guest import reference

from ..support import run, shell_in

MSGSPEC = importlib.metadata.version("msgspec")


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(
        tmp_path, {"requirements.txt": "msgspec>=0.1  # pinned\n\nno-such-pkg-xyz\n"}
    ) as s:
        yield s


def test_list_freeze_and_show_report_the_installed_distributions(sh: Any) -> None:
    out, _, rc = run(sh, "pip list")
    assert rc == 0
    lines = out.splitlines()
    assert lines[0].split() == ["Package", "Version"]
    assert set(lines[1]) <= {"-", " "}
    rows = {line.split()[0].lower(): line.split()[1] for line in lines[2:]}
    assert rows["msgspec"] == MSGSPEC
    names = {d.metadata["Name"].lower() for d in importlib.metadata.distributions()}
    assert set(rows) == names
    out, _, rc = run(sh, "pip3 freeze")
    assert rc == 0 and f"msgspec=={MSGSPEC}" in out.splitlines()
    out, err, rc = run(sh, "pip show msgspec")
    assert rc == 0, err
    assert "Name: msgspec" in out and f"Version: {MSGSPEC}" in out
    assert "Location: /usr/lib/python311.zip" in out
    _, err, rc = run(sh, "pip show msgspec no-such-pkg-xyz")
    assert rc == 1 and "Package(s) not found: no-such-pkg-xyz" in err
    out, _, rc = run(sh, "pip list --format=json")
    assert rc == 0 and f'{{"name": "msgspec", "version": "{MSGSPEC}"}}' in out


def test_install_says_what_is_installed_and_why_nothing_else_can_be(sh: Any) -> None:
    out, err, rc = run(sh, "pip install -q --upgrade msgspec")
    assert rc == 0, err
    assert out == f"Requirement already satisfied: msgspec in /usr/lib/python311.zip ({MSGSPEC})\n"
    out, err, rc = run(sh, "pip install no-such-pkg-xyz")
    assert rc == 1 and "no network access" in err and "pip list" in err
    _, err, rc = run(sh, "pip install 'msgspec==0.0.1'")
    assert rc == 1 and f"msgspec {MSGSPEC} is installed" in err
    out, err, rc = run(sh, "pip install -r requirements.txt")
    assert rc == 1
    assert "Requirement already satisfied: msgspec" in out and "no-such-pkg-xyz" in err
    _, err, rc = run(sh, "pip uninstall -y msgspec")
    assert rc == 1 and "read-only" in err
    out, _, rc = run(sh, "pip --version")
    assert rc == 0 and "no network" in out


def test_a_missing_top_level_module_gets_a_note_and_nothing_else_does() -> None:
    plain = ModuleNotFoundError("No module named 'tabulate'", name="tabulate")
    note = reference.missing_module_note(plain)
    assert note is not None and "pip list" in note
    sub = ModuleNotFoundError("No module named 'numpy.nope'", name="numpy.nope")
    assert reference.missing_module_note(sub) is None
    other = ModuleNotFoundError("No module named 'tabulate': a reason", name="tabulate")
    assert reference.missing_module_note(other) is None

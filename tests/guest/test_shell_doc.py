"""docs/shell.md's grammar table, held to account: each "yes" row's example prints in this shell
what it prints in real bash (stdout and exit status), and each "no" row's example says on
stderr what it cannot do, for its own line, while the rest of the script runs."""

from __future__ import annotations

import pathlib
import re
import shutil

import pytest

from .differential.test_vs_bash import run_bash, run_cove

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "shell.md"


def _rows() -> list[tuple[str, str, str]]:
    text = DOC.read_text()
    table = text.split("### The grammar", 1)[1].split("### Utilities", 1)[0]
    rows = []
    for line in table.splitlines():
        if not line.startswith("| ") or line.startswith(("| Construct", "| ---")):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip("|"))]
        construct, here, example = cells
        code = re.fullmatch(r"(`+) ?(.*?) ?\1", example)
        assert code, f"the example of {construct!r} is not one code span"
        rows.append((construct, here, code.group(2).replace("\\|", "|")))
    return rows


ROWS = _rows()


def test_the_table_has_rows_of_both_kinds() -> None:
    assert len(ROWS) >= 15
    assert {here for _, here, _ in ROWS} == {"yes", "no"}


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs real bash")
@pytest.mark.parametrize(("construct", "here", "example"), ROWS, ids=[r[0][:40] for r in ROWS])
def test_each_row_is_true(tmp_path: pathlib.Path, construct: str, here: str, example: str) -> None:
    script = f"{example}\necho after-the-line"
    out, err, status = run_cove(tmp_path / "cove", script)
    if here == "yes":
        expected = run_bash(tmp_path / "bash", script)
        assert (out, status) == (expected[0], expected[2]), (out, err)
        # Quiet where bash is quiet: a "yes" is not an error message beside the same output.
        assert err if expected[1] else not err, (err, expected[1])
    else:
        assert re.search(rb"not supported|never", err), err
        assert out.endswith(b"after-the-line\n") and status == 0, (out, err)


def _utility_rows() -> list[tuple[list[str], str]]:
    table = DOC.read_text().split("### Utilities", 1)[1].split("## Differential test", 1)[0]
    rows = []
    for line in table.splitlines():
        if not line.startswith("| `"):
            continue
        names_cell, here = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip("|"))][:2]
        rows.append((re.findall(r"`([^`]+)`", names_cell), here))
    return rows


def test_the_utilities_table_names_every_command_once_and_nothing_else() -> None:
    from cove_guest.commands import COMMANDS

    rows = _utility_rows()
    names = [name for row_names, _ in rows for name in row_names]
    assert len(names) == len(set(names)), "a utility is listed twice"
    assert set(names) == set(COMMANDS), (set(COMMANDS) - set(names), set(names) - set(COMMANDS))


@pytest.mark.parametrize("row", _utility_rows(), ids=lambda row: row[0][0])
def test_each_utility_does_what_its_row_says(
    tmp_path: pathlib.Path, row: tuple[list[str], str]
) -> None:
    names, here = row
    for name in names:
        _, err, status = run_cove(tmp_path / name, f"{name} --version </dev/null")
        said = err.decode(errors="replace")
        if here == "no network":
            assert status == 1 and "network" in said, (name, said)
        elif here == "refused":
            assert status != 0 and said, (name, said)
        else:
            assert here == "yes"
            assert f"{name}: command not found" not in said and "network" not in said, (name, said)


def test_the_builtins_line_names_every_builtin() -> None:
    from cove_guest.shell.builtins import BUILTINS

    line = DOC.read_text().split("The shell's builtins:", 1)[1].split("\n\n", 1)[0]
    assert set(re.findall(r"`([^`]+)`", line)) == set(BUILTINS)

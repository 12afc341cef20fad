"""Reading a command's operands."""

from __future__ import annotations

import pathlib
from types import SimpleNamespace

from cove_guest.shell.io import Writer
from cove_guest.text.inputs import decode, encode, read_inputs, walk_tree


def test_read_inputs_reports_each_missing_operand(tmp_path: pathlib.Path) -> None:
    (tmp_path / "a").write_bytes(b"A\n")
    ctx = SimpleNamespace(stdin=b"IN", err=Writer())
    data, status = read_inputs(ctx, [str(tmp_path / "a"), "-", str(tmp_path / "no")], "cat")
    assert [blob for _, blob in data] == [b"A\n", b"IN"]
    assert status == 1
    assert ctx.err.getvalue().endswith(b"no: No such file or directory\n")


def test_bytes_round_trip_through_surrogates() -> None:
    assert encode(decode(b"\xff\xfe ok")) == b"\xff\xfe ok"


def test_walk_tree_is_depth_first(tmp_path: pathlib.Path) -> None:
    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "d" / "e" / "f").write_text("")
    paths = [
        (pathlib.Path(p).relative_to(tmp_path).as_posix(), d)
        for p, d in walk_tree(str(tmp_path), None)
    ]
    assert paths == [(".", 0), ("d", 1), ("d/e", 2), ("d/e/f", 3)]

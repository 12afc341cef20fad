"""The text-editor tool, natively: its commands and their refusals."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

from cove_guest import editor
from cove_guest.capture import BoundedText


@pytest.fixture
def ed(tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch) -> editor.Editor:
    monkeypatch.setattr(editor, "WORKSPACE", str(tmp_path))
    return editor.Editor()


def call(ed: editor.Editor, **req: Any) -> tuple[int, str, str]:
    out, err = BoundedText(1 << 16), BoundedText(1 << 16)
    rc = ed.run(req, out, err)
    return rc, out.getvalue(), err.getvalue()


def test_create_replace_insert_undo(ed: editor.Editor, tmp_path: pathlib.Path) -> None:
    assert call(ed, command="create", path="a.txt", file_text="one\ntwo\n")[0] == 0
    assert call(ed, command="str_replace", path="a.txt", old_str="two", new_str="2")[0] == 0
    assert call(ed, command="insert", path="a.txt", insert_line=0, new_str="zero")[0] == 0
    assert (tmp_path / "a.txt").read_text() == "zero\none\n2\n"
    assert call(ed, command="undo_edit", path="a.txt")[0] == 0
    assert call(ed, command="undo_edit", path="a.txt")[0] == 0
    assert (tmp_path / "a.txt").read_text() == "one\ntwo\n"
    rc, out, _ = call(ed, command="view", path="a.txt", view_range=[2, -1])
    assert (rc, out.splitlines()[1]) == (0, "     2\ttwo")


@pytest.mark.parametrize(
    ("req", "message"),
    [
        ({"command": "view", "path": "missing"}, "does not exist"),
        ({"command": "str_replace", "path": "a.txt", "old_str": "nope"}, "did not appear verbatim"),
        ({"command": "undo_edit", "path": "a.txt"}, "No edit history"),
        ({"command": "view", "path": "/etc/passwd"}, "is outside the workspace"),
        ({"command": "delete", "path": "a.txt"}, "Unrecognized command"),
        # Not a ValueError out of open() (a driver failure, and a reset of the interpreter).
        ({"command": "view", "path": "a\0b"}, "must not contain a NUL byte"),
        ({"command": "create", "path": "a\0b", "file_text": "x"}, "must not contain a NUL byte"),
        # Nor anything else a command raises: text that cannot be encoded, a request of the
        # wrong shape.
        ({"command": "view", "path": "\ud800"}, "UnicodeEncodeError"),
        ({"command": "create", "path": "b.txt", "file_text": "\ud800"}, "UnicodeEncodeError"),
        (
            {"command": "str_replace", "path": "a.txt", "old_str": "x", "new_str": "\ud800"},
            "UnicodeEncodeError",
        ),
        ({"command": ["view"], "path": "a.txt"}, "TypeError"),
    ],
)
def test_refusals_are_errors_on_stderr(
    ed: editor.Editor, tmp_path: pathlib.Path, req: dict[str, Any], message: str
) -> None:
    (tmp_path / "a.txt").write_text("x\n")
    rc, out, err = call(ed, **req)
    assert (rc, out) == (1, "")
    assert message in err


def test_each_editor_owns_its_history(ed: editor.Editor, tmp_path: pathlib.Path) -> None:
    call(ed, command="create", path="a.txt", file_text="1")
    call(ed, command="create", path="a.txt", file_text="2")
    assert call(editor.Editor(), command="undo_edit", path="a.txt")[0] == 1
    assert call(ed, command="undo_edit", path="a.txt")[0] == 0

"""The text-editor tool: Anthropic's five commands, confined to the workspace by WASI."""

from __future__ import annotations

import pytest

import cove

pytestmark = pytest.mark.anyio


def edit(command: str, path: str, **fields: object) -> cove.tools.TextEditor:
    editor_input = cove.tools.TextEditorInput(command=command, path=path, **fields)  # type: ignore[arg-type]
    return cove.tools.TextEditor(input=editor_input)


async def test_create_view_replace_insert_undo(session: cove.Session) -> None:
    created = await session.execute(edit("create", "notes/a.txt", file_text="one\ntwo\nthree"))
    assert created.return_code == 0
    assert created.stdout == "File created successfully at: notes/a.txt\n"
    assert [f.file_id for f in created.files] == ["notes/a.txt"]

    view = await session.execute(edit("view", "notes/a.txt"))
    assert view.stdout == (
        "Here's the result of running `cat -n` on notes/a.txt:\n"
        "     1\tone\n     2\ttwo\n     3\tthree\n"
    )
    ranged = await session.execute(edit("view", "notes/a.txt", view_range=[2, -1]))
    assert "     2\ttwo\n     3\tthree\n" in ranged.stdout and "one" not in ranged.stdout

    replaced = await session.execute(
        edit("str_replace", "notes/a.txt", old_str="two", new_str="TWO")
    )
    assert replaced.return_code == 0
    assert "has been edited" in replaced.stdout and "     2\tTWO" in replaced.stdout

    inserted = await session.execute(edit("insert", "notes/a.txt", insert_line=0, new_str="zero"))
    assert inserted.return_code == 0
    content = await session.run_code("print(open('notes/a.txt').read())")
    assert content.stdout == "zero\none\nTWO\nthree\n"

    undone = await session.execute(edit("undo_edit", "notes/a.txt"))
    assert undone.return_code == 0
    assert (
        await session.run_code("print(open('notes/a.txt').read())")
    ).stdout == "one\nTWO\nthree\n"


async def test_create_at_the_workspace_root_and_overwrite(session: cove.Session) -> None:
    first = await session.execute(edit("create", "top.txt", file_text="a"))
    assert first.stdout == "File created successfully at: top.txt\n"
    again = await session.execute(edit("create", "/workspace/top.txt", file_text="b"))
    assert again.stdout == "File overwritten successfully at: /workspace/top.txt\n"
    assert await session.read_file("top.txt") == (b"b", "text/plain")


async def test_view_of_a_directory_lists_it(session: cove.Session) -> None:
    await session.run_code(
        "import os\nos.makedirs('src/pkg')\nopen('src/pkg/m.py', 'w').close()\nopen('.hidden', 'w').close()"
    )
    result = await session.execute(edit("view", "."))
    assert result.return_code == 0
    assert "/workspace/src/pkg/m.py" in result.stdout
    assert ".hidden" not in result.stdout


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (edit("view", "missing.txt"), "does not exist"),
        (edit("str_replace", "f.txt", old_str="absent", new_str="x"), "did not appear verbatim"),
        (edit("str_replace", "f.txt", old_str="dup", new_str="x"), "Multiple occurrences"),
        (edit("insert", "f.txt", insert_line=99, new_str="x"), "Invalid `insert_line`"),
        (edit("undo_edit", "f.txt"), "No edit history"),
        (edit("view", "f.txt", view_range=[5, 9]), "Invalid view_range"),
        (edit("view", "../../etc/passwd"), "outside the workspace"),
        (edit("view", "/etc/passwd"), "outside the workspace"),
        (edit("create", "/usr/lib/python311.zip", file_text="x"), "outside the workspace"),
    ],
)
async def test_refused_edits_are_rc1_with_the_reason(
    session: cove.Session, call: cove.tools.TextEditor, message: str
) -> None:
    await session.run_code("open('f.txt', 'w').write('dup\\ndup\\n')")
    result = await session.execute(call)
    assert result.return_code == 1
    assert message in result.stderr
    assert result.outcome == "error"


async def test_editor_cannot_follow_a_guest_symlink_out(session: cove.Session) -> None:
    made = await session.run_code(
        "import os\ntry:\n    os.symlink('../../../etc/passwd', 'esc')\nexcept OSError as e:\n    print('refused', e)"
    )
    result = await session.execute(edit("view", "esc"))
    assert "root:" not in result.stdout
    assert result.return_code == 1 or "refused" in made.stdout


@pytest.mark.parametrize(
    ("fields", "missing"),
    [
        ({"command": "create"}, "file_text"),
        ({"command": "str_replace"}, "old_str"),
        ({"command": "insert", "new_str": "x"}, "insert_line"),
        ({"command": "view", "view_range": [1]}, "view_range"),
    ],
)
def test_per_command_fields_are_validated(fields: dict[str, object], missing: str) -> None:
    with pytest.raises(cove.InvalidRequestError, match=missing):
        cove.tools.TextEditorInput(path="f", **fields)  # type: ignore[arg-type]

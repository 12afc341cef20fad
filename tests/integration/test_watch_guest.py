"""The workspace tracker against full walks, for changes the guest makes: Python file
operations, the shell, the text editor, a nested `python`, files kept open across calls, and a
session whose workspace is full of files. Each call's changed files and the usage equal what two
full walks around it give, and the common calls do not walk."""

from __future__ import annotations

import pytest

import cove
from cove._workspace import changed_files
from cove.tools import (
    BashExecution,
    BashExecutionInput,
    CodeExecution,
    CodeExecutionInput,
    TextEditor,
    TextEditorInput,
    ToolCall,
)

pytestmark = pytest.mark.anyio

SETUP = (
    "import os\nos.makedirs('d/e', exist_ok=True)\n"
    "open('keep.txt', 'w').write('kept')\nopen('d/e/inner.txt', 'w').write('inner')\n"
    "open('/tmp/scratch', 'w').write('x' * 100)"
)

CODE = {
    "create": "open('new.txt', 'w').write('new')",
    "append": "open('keep.txt', 'a').write(' and more')",
    "makedirs and write": "import os\nos.makedirs('a/b/c')\nopen('a/b/c/f.txt', 'w').write('f')",
    "rename a file": "import os\nos.rename('keep.txt', 'd/renamed.txt')",
    "rename a dir": "import os\nos.rename('d', 'dd')\nopen('dd/e/after.txt', 'w').write('a')",
    "rmtree": "import shutil\nshutil.rmtree('d')",
    "truncate": "import os\nos.truncate('keep.txt', 2)",
    "utime": "import os\nos.utime('keep.txt', (1, 1))",
    "symlink": "import os\nos.symlink('d', 'link')\nopen('link/through.txt', 'w').write('t')",
    "hard link": "import os\nos.link('keep.txt', 'd/hard.txt')",
    "replace": "import os\nopen('n.txt', 'w').write('replacement')\nos.replace('n.txt', 'keep.txt')",
    "remove and recreate": (
        "import os, shutil\nshutil.rmtree('d')\nos.makedirs('d/e')\n"
        "open('d/e/inner.txt', 'w').write('inner')"
    ),
    "300 files": "for i in range(300):\n    open(f'm{i}.txt', 'w').write(str(i))",
    "1 MB": "open('big.bin', 'wb').write(b'x' * 1_000_000)",
    "tmp only": "import os\nos.remove('/tmp/scratch')\nopen('/tmp/other', 'w').write('o')",
    "pandas to_csv": (
        "import pandas as pd\npd.DataFrame({'a': [1, 2]}).to_csv('d/out.csv', index=False)"
    ),
    "nested python": (
        "import subprocess, sys\nsubprocess.run([sys.executable, '-c', "
        "\"open('by-nested.txt', 'w').write('n')\"], check=True)"
    ),
    "nested python and a change undone": (
        "import os, subprocess, sys\nsubprocess.run([sys.executable, '-c', "
        "\"open('brief.txt', 'w').write('n')\"], check=True)\nos.remove('brief.txt')"
    ),
    "no-op": "x = 1",
}


async def _checked(session: cove.Session, call: ToolCall) -> cove.ExecResult:
    ws = session.workspace
    before = ws.scan()
    result = await session.execute(call)
    after = ws.scan()
    assert [f.file_id for f in result.files] == changed_files(before, after)
    usage = ws.usage()
    assert (usage.bytes, usage.files, dict(usage.signatures)) == (
        after.bytes,
        after.files,
        after.signatures,
    )
    return result


def _code(code: str) -> ToolCall:
    return CodeExecution(input=CodeExecutionInput(code=code))


@pytest.mark.parametrize("name", list(CODE))
async def test_guest_changes_match_full_walks(session: cove.Session, name: str) -> None:
    await _checked(session, _code(SETUP))
    result = await _checked(session, _code(CODE[name]))
    assert result.return_code == 0, result.stderr
    await _checked(session, _code("open('later.txt', 'w').write('later')"))


async def test_the_shell_and_the_editor(session: cove.Session) -> None:
    await _checked(session, _code(SETUP))
    for command in (
        "mkdir -p s/t && echo hi > s/t/u.txt",
        "mv s r && cp keep.txt r/copy.txt",
        "rm -r r && touch z.txt",
    ):
        result = await _checked(session, BashExecution(input=BashExecutionInput(command=command)))
        assert result.return_code == 0, result.stderr
    for edit in (
        TextEditorInput(command="create", path="/workspace/ed.txt", file_text="one\ntwo\n"),
        TextEditorInput(
            command="str_replace", path="/workspace/ed.txt", old_str="one", new_str="1"
        ),
    ):
        await _checked(session, TextEditor(input=edit))


async def test_a_file_kept_open_across_calls(session: cove.Session) -> None:
    await _checked(session, _code("f = open('log.txt', 'w')"))
    for i in range(3):
        result = await _checked(session, _code(f"f.write('line {i}\\n'); f.flush()"))
        assert [x.file_id for x in result.files] == ["log.txt"]
    await _checked(session, _code("f.close()"))


async def test_host_writes_between_calls(session: cove.Session) -> None:
    await _checked(session, _code(SETUP))
    await session.write_file("put/by/host.txt", b"uploaded")
    result = await _checked(session, _code("print(open('put/by/host.txt').read())"))
    assert result.files == ()
    assert result.stdout == "uploaded\n"


async def test_common_calls_do_not_walk(session: cove.Session) -> None:
    await session.run_code(
        "import os\nfor d in range(10):\n    os.makedirs(f'dir{d}')\n"
        "    for i in range(100):\n        open(f'dir{d}/{i}.txt', 'w').write('x')"
    )
    tracker = session.workspace.tracker
    walks = tracker.walks
    for code in (
        "x = 1",
        "open('dir3/7.txt', 'a').write('y')",
        "import os; os.remove('dir9/9.txt')",
    ):
        await _checked(session, _code(code))
    assert tracker.walks == walks
    assert session.workspace.usage().files == 10 + 1000 - 1

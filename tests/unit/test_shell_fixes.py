"""Regression tests for shell bugs (codebase review 937fb08, section 4, and the follow-up list),
run natively on the guest's shell modules."""

from __future__ import annotations

import errno
import json
import os
import pathlib
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

DRIVER = pathlib.Path(__file__).resolve().parents[2] / "python-wasm" / "driver"
sys.path.insert(0, str(DRIVER))

import _cove_shell  # noqa: E402
import _cove_utils  # noqa: E402


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    old = os.getcwd()
    os.chdir(tmp_path)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "a.py").write_text("x\n")
    (tmp_path / "d" / "b.py").write_text("y\ny\n")
    try:
        yield _cove_shell.Shell()
    finally:
        os.chdir(old)


def run(sh: Any, cmd: str) -> tuple[str, str, int]:
    out, err, rc = sh.run(cmd)
    return out.decode(), err.decode(), rc


# -- awk, and no exception escapes the shell ---------------------------------------------------


def test_awk_compound_assignment_computes_only_its_operator(sh: Any) -> None:
    # `s += $1` used to evaluate every compound operator: cur ** v overflowed, v == 0 divided.
    assert run(sh, "printf '100000\\n400\\n' | awk '{s += $1} END {print s}'") == (
        "100400\n",
        "",
        0,
    )
    assert run(sh, "printf '0\\n5\\n' | awk '{s += $1} END {print s}'") == ("5\n", "", 0)
    assert run(sh, "awk 'BEGIN {x = 10; x ^= 400; print x > 1}'")[2] == 0


def test_an_exception_in_a_utility_stays_in_the_shell(sh: Any, monkeypatch: Any) -> None:
    def boom(ctx: Any, args: list[str]) -> int:
        raise OverflowError("numerical result out of range")

    monkeypatch.setitem(sh.utils, "boom", boom)
    out, err, rc = run(sh, "x=1; boom; echo after $x")
    assert out == "after 1\n"
    assert "boom: internal error: OverflowError: numerical result out of range" in err
    assert rc == 0
    assert run(sh, "boom")[2] != 0


def test_an_exception_in_a_builtin_stays_in_the_shell(sh: Any, monkeypatch: Any) -> None:
    def bad(shell: Any, argv: list[str], io_: Any) -> int:
        raise KeyError("k")

    monkeypatch.setitem(_cove_shell.BUILTINS, "badbuiltin", bad)
    out, err, _rc = run(sh, "badbuiltin; echo on")
    assert out == "on\n"
    assert "badbuiltin: internal error: KeyError" in err


def test_memory_and_recursion_errors_in_the_shell_are_not_driver_failures(monkeypatch: Any) -> None:
    import _cove_driver

    class Exploding:
        def __init__(self, exc: BaseException) -> None:
            self.exc = exc

        def run(self, src: str) -> Any:
            raise self.exc

    monkeypatch.setattr(_cove_driver, "_started", True)
    for exc in (MemoryError(), RecursionError("deep"), ZeroDivisionError("x")):
        monkeypatch.setattr(_cove_driver, "_shell", Exploding(exc))
        resp = json.loads(_cove_driver.handle(json.dumps({"op": "bash", "command": "x"}).encode()))
        assert "error" not in resp
        assert resp["return_code"] != 0
        assert type(exc).__name__ in resp["stderr"]


# -- find ----------------------------------------------------------------------------------------


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


# -- head and tail -------------------------------------------------------------------------------


def test_head_and_tail_with_negative_and_plus_counts(sh: Any) -> None:
    assert run(sh, "head -c -2 d/b.py") == ("y\n", "", 0)
    assert run(sh, "head -n -1 d/b.py") == ("y\n", "", 0)
    assert run(sh, "printf '1\\n2\\n' | tail -c +2") == ("\n2\n", "", 0)
    assert run(sh, "printf 'abc' | head -c -5") == ("", "", 0)


# -- command substitution ------------------------------------------------------------------------


def test_command_substitution_keeps_stderr(sh: Any) -> None:
    msg = "ls: cannot access 'nope': No such file or directory\n"
    assert run(sh, 'x=$(ls nope); echo "[$x]"') == ("[]\n", msg, 0)
    assert run(sh, "{ x=$(ls nope); } 2>/dev/null")[1] == ""
    assert run(sh, "echo $(ls nope) 2>/dev/null")[1] == msg


# -- date -d -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arg", "out"),
    [
        ("2024-03-01", "2024-03-01 00:00:00"),
        ("2024-03-01 12:30", "2024-03-01 12:30:00"),
        ("2024-03-01T12:30:00Z", "2024-03-01 12:30:00"),
        ("@1700000000", "2023-11-14 22:13:20"),
        ("2024-03-01 +1 month", "2024-04-01 00:00:00"),
        ("2024-01-31 + 1 day", "2024-02-01 00:00:00"),
        ("2024-03-01 3 days ago", "2024-02-27 00:00:00"),
        ("2024-03-01 -2 weeks", "2024-02-16 00:00:00"),
        ("2024-03-01 1 hour ago", "2024-02-29 23:00:00"),
        # GNU ignores a day of the week next to a calendar date
        ("2024-03-01 next monday", "2024-03-01 00:00:00"),
        ("2024-03-01 next week", "2024-03-08 00:00:00"),
        ("2024-03-01 last month", "2024-02-01 00:00:00"),
        ("2024-01-31 +1 month", "2024-03-02 00:00:00"),
        ("Mar 1 2024 2pm", "2024-03-01 14:00:00"),
        ("2024-03-01T10:00:00+02:00", "2024-03-01 08:00:00"),
        # after a time, GNU reads `+1` as a zone and `hour` as one hour
        ("2024-03-01 12:30 +1 hour", "2024-03-01 12:30:00"),
        ("2024-03-01 tomorrow", "2024-03-02 00:00:00"),
    ],
)
def test_date_d_parses_gnu_forms(sh: Any, arg: str, out: str) -> None:
    assert run(sh, f"TZ=UTC date -d '{arg}' '+%Y-%m-%d %H:%M:%S'") == (out + "\n", "", 0)


def test_date_d_relative_to_now_and_invalid(sh: Any) -> None:
    today = run(sh, "date -u +%F")[0]
    assert run(sh, "date -u -d today +%F")[0] == today
    assert run(sh, "date -u --date=now +%F")[0] == today
    y = run(sh, "date -u -d yesterday +%s")[0]
    assert abs(int(run(sh, "date -u +%s")[0]) - 86400 - int(y)) < 5
    assert run(sh, "date -d xyz") == ("", "date: invalid date 'xyz'\n", 1)
    assert run(sh, "date -d 2024-02-30")[2] == 1
    monday = run(sh, "date -u -d 'next monday' '+%u %s'")[0].split()
    last_friday = run(sh, "date -u -d 'last friday' '+%u %s'")[0].split()
    now = int(run(sh, "date -u +%s")[0])
    assert monday[0] == "1" and 0 < int(monday[1]) - now <= 7 * 86400
    assert last_friday[0] == "5" and 0 < now - int(last_friday[1]) <= 8 * 86400


# -- diff ----------------------------------------------------------------------------------------


@pytest.fixture
def trees(sh: Any, tmp_path: pathlib.Path) -> Any:
    for name, text in {
        "a/f": "1\n2\n",
        "b/f": "1\n3\n",
        "a/only": "o\n",
        "a/s/g": "g\n",
        "b/s/g": "g\n",
        "b/new": "n\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return sh


def test_diff_recursive(trees: Any) -> None:
    out, _, rc = run(trees, "diff -r a b")
    assert out == "diff -r a/f b/f\n2c2\n< 2\n---\n> 3\nOnly in b: new\nOnly in a: only\n"
    assert rc == 1
    assert (
        run(trees, "diff -rq a b")[0]
        == "Files a/f and b/f differ\nOnly in b: new\nOnly in a: only\n"
    )
    assert run(trees, "diff a/s b/s") == ("", "", 0)


def test_diff_unified_with_labels(trees: Any) -> None:
    out, _, rc = run(trees, "diff -u --label x --label y a/f b/f")
    assert (out, rc) == ("--- x\n+++ y\n@@ -1,2 +1,2 @@\n 1\n-2\n+3\n", 1)


# -- file ----------------------------------------------------------------------------------------

PNG_1x1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (PNG_1x1, "PNG image data, 1 x 1, 8-bit/color RGBA, non-interlaced"),
        (b"%PDF-1.4\n%\xe2\xe3\n", "PDF document, version 1.4"),
        (b"hello\n", "ASCII text"),
        (b"a\r\nb\r\n", "ASCII text, with CRLF line terminators"),
        (b"abc", "ASCII text, with no line terminators"),
        ("héllo\n".encode(), "Unicode text, UTF-8 text"),
        (b"", "empty"),
    ],
)
def test_file_reports_like_gnu_file(
    sh: Any, tmp_path: pathlib.Path, data: bytes, kind: str
) -> None:
    (tmp_path / "blob").write_bytes(data)
    assert run(sh, "file blob") == (f"blob: {kind}\n", "", 0)


# -- messages for paths outside the sandbox ------------------------------------------------------


def test_enotcapable_reads_as_bash_would_word_it(sh: Any, monkeypatch: Any) -> None:
    real_open = open

    def wasi_open(path: Any, *a: Any, **k: Any) -> Any:
        if str(path).startswith("/outside"):
            raise OSError(76, "Capabilities insufficient", str(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", wasi_open)
    _out, err, rc = run(sh, "cat /outside/x")
    assert (err, rc) == ("cat: /outside/x: No such file or directory\n", 1)
    _, err, _ = run(sh, "echo hi > /outside/y")
    assert err == "bash: /outside/y: Permission denied\n"
    assert "Capabilities" not in run(sh, "head /outside/x; wc -l /outside/x; grep a /outside/x")[1]
    assert _cove_utils.os_message(OSError(76, "Capabilities insufficient"), write=False) == (
        os.strerror(errno.ENOENT)
    )


def test_file_knows_office_documents_and_gzip(sh: Any, tmp_path: pathlib.Path) -> None:
    import gzip
    import zipfile

    for name, inner in (("a.docx", "word/document.xml"), ("b.xlsx", "xl/workbook.xml")):
        with zipfile.ZipFile(tmp_path / name, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("[Content_Types].xml", "<Types/>")
            z.writestr(inner, "<x/>")
    (tmp_path / "c.gz").write_bytes(gzip.compress(b"hello\n", mtime=0))
    out = run(sh, "file a.docx b.xlsx c.gz")[0]
    assert out == (
        "a.docx: Microsoft Word 2007+\n"
        "b.xlsx: Microsoft Excel 2007+\n"
        "c.gz:   gzip compressed data, max compression, from Unix, original size modulo 2^32 6\n"
    )

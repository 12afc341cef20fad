"""cove_guest.sandbox.devnull: `open(os.devnull)` without a device.

Natively, against this machine's real /dev/null: the stand-in's file object must behave as
CPython's own file over the device does (reads, writes, positions, modes, errors), except that
it has no descriptor. Every other path must reach io.open untouched.
"""

from __future__ import annotations

import contextlib
import io
import os
import pathlib
import subprocess
import sys
from typing import Any

import pytest

from cove_guest.sandbox import devnull

MODES = ["r", "w", "a", "r+", "w+", "a+", "rb", "wb", "ab", "rb+", "wb+", "rt", "wt", "at"]


def _exercise(f: Any, mode: str) -> list[Any]:
    """What a program sees of a file in `mode`: each operation's result or exception type."""
    seen: list[Any] = [f.readable(), f.writable(), f.seekable(), f.isatty(), f.mode, f.name]
    data: Any = b"payload\n" if "b" in mode else "payload\n"
    for op in (
        lambda: f.write(data),
        lambda: f.read(),
        lambda: f.readline(),
        lambda: f.seek(0),
        lambda: f.tell(),
        lambda: list(f),
        lambda: f.seek(5),
        lambda: f.flush(),
    ):
        try:
            seen.append(op())
        except (OSError, ValueError) as exc:
            seen.append(type(exc).__name__)
    f.close()
    seen.append(f.closed)
    try:
        f.write(data)
    except ValueError as exc:
        seen.append(str(exc))
    return seen


@pytest.mark.parametrize("mode", MODES)
def test_each_mode_behaves_as_the_device(mode: str) -> None:
    with devnull.open(os.devnull, mode) as ours, open("/dev/null", mode) as native:
        assert _exercise(ours, mode) == _exercise(native, mode)


@pytest.mark.parametrize("buffering", [0, 1, 64])
def test_buffering_gives_the_same_kinds_of_object(buffering: int) -> None:
    mode = "wb" if buffering == 0 else "w"
    with (
        devnull.open(os.devnull, mode, buffering) as ours,
        open("/dev/null", mode, buffering) as native,
    ):
        assert isinstance(ours, io.RawIOBase) == isinstance(native, io.RawIOBase)
        assert isinstance(ours, io.TextIOBase) == isinstance(native, io.TextIOBase)
        assert getattr(ours, "line_buffering", None) == getattr(native, "line_buffering", None)


@pytest.mark.parametrize(
    ("mode", "kwargs"),
    [
        ("x", {}),
        ("xb", {}),
        ("q", {}),
        ("rw", {}),
        ("rr", {}),
        ("rbt", {}),
        ("", {}),
        ("w", {"buffering": 0}),
        ("wb", {"encoding": "utf-8"}),
        ("wb", {"newline": "\n"}),
        ("wb", {"errors": "strict"}),
    ],
)
def test_a_bad_mode_or_argument_is_the_native_error(mode: str, kwargs: dict[str, Any]) -> None:
    def outcome(opener: Any, path: str) -> tuple[str, str]:
        try:
            opener(path, mode, **kwargs).close()
        except (OSError, ValueError) as exc:
            return type(exc).__name__, str(exc).replace("'/dev/null'", "PATH")
        return "opened", ""

    assert outcome(devnull.open, os.devnull) == outcome(open, "/dev/null")


def test_it_silences_output_as_model_code_does() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        with devnull.open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            print("hidden")
        print("shown")
    assert out.getvalue() == "shown\n"
    sink = devnull.open(pathlib.Path(os.devnull), "w")
    print("to nowhere", file=sink, flush=True)
    sink.close()
    assert devnull.open(os.fsencode(os.devnull), "rb").read() == b""


def test_it_has_no_descriptor_and_says_why() -> None:
    with devnull.open(os.devnull, "wb") as f, pytest.raises(io.UnsupportedOperation, match="WASI"):
        f.fileno()


def test_every_other_path_reaches_io_open(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "data.txt"
    with devnull.open(path, "w") as f:
        assert isinstance(f, io.TextIOWrapper) and f.buffer.raw.fileno() >= 0
        f.write("kept")
    assert path.read_text() == "kept"
    fd = os.open(path, os.O_RDONLY)
    with devnull.open(fd, "r") as f:
        assert f.read() == "kept"
    opened: list[str] = []

    def opener(name: str, flags: int) -> int:
        opened.append(name)
        return os.open(name, flags)

    with devnull.open(os.devnull, "w", opener=opener):  # an opener is CPython's business
        pass
    assert opened == [os.devnull]


def test_install_makes_it_open_io_open_and_what_pathlib_calls() -> None:
    # in a fresh interpreter: install() replaces builtins for the rest of the process
    code = (
        "import builtins, io, os, pathlib\nfrom cove_guest.sandbox import devnull\n"
        "devnull.install()\n"
        "assert open is io.open is devnull.open\n"
        "with pathlib.Path(os.devnull).open('w') as f:\n"
        "    print(type(f.buffer.raw).__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert done.stdout == "NullFile\n"

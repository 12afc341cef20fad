"""The differential corpus (cases.py) run natively: every command line through
`cove_guest.shell.Shell` and through real bash, each in its own copy of the fixture, comparing stdout
and exit status exactly (and stderr, reported separately: bash and coreutils word some messages
differently). The integration test does the same through the built interpreter; this one runs
the current sources, in seconds."""

from __future__ import annotations

import concurrent.futures
import os
import pathlib
import shutil
import subprocess
import sys
from typing import Any

import pytest

from cove_guest.commands import COMMANDS as GUEST_COMMANDS
from cove_guest.shell import Shell

from .cases import COMMANDS, FIXTURE, KNOWN_DIFFERENCES, REQUIRES

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs real bash")

# Commands whose output depends on the machine rather than on the shell (bash's own view of
# itself, the python interpreter's version) are compared on exit status only.
_ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "HOME": "/workspace",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
}


class _NativeHost:
    """The shell's `python` command, natively: a real interpreter process."""

    def python(self, ctx: Any, args: list[str]) -> int:
        done = subprocess.run(
            [sys.executable, *args],
            cwd=os.getcwd(),
            env={**ctx.env, "PATH": _ENV["PATH"]},
            input=ctx.stdin,
            capture_output=True,
            timeout=30,
            check=False,
        )
        ctx.out.write(done.stdout)
        ctx.err.write(done.stderr)
        return done.returncode


def _fixture(tmp: pathlib.Path) -> None:
    tmp.mkdir(parents=True)
    for name, text in FIXTURE.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)


def _clean(data: bytes, tmp: pathlib.Path) -> bytes:
    return data.replace(str(tmp).encode(), b"/workspace")


def run_bash(tmp: pathlib.Path, command: str) -> tuple[bytes, bytes, int]:
    _fixture(tmp)
    done = subprocess.run(
        ["bash", "-c", command], cwd=tmp, capture_output=True, env=_ENV, timeout=30, check=False
    )
    return _clean(done.stdout, tmp), _clean(done.stderr, tmp), done.returncode


def run_cove(tmp: pathlib.Path, command: str) -> tuple[bytes, bytes, int]:
    _fixture(tmp)
    old = os.getcwd()
    os.chdir(tmp)
    try:
        out, err, rc = Shell(commands=GUEST_COMMANDS, host=_NativeHost()).run(command)
    finally:
        os.chdir(old)
    return _clean(out, tmp), _clean(err, tmp), rc


def _runnable(command: str) -> bool:
    words = set(command.replace("|", " ").replace(";", " ").replace("&&", " ").split())
    return all(shutil.which(tool) for word, tool in REQUIRES.items() if word in words)


def _stderr_comparable(err: bytes) -> bytes:
    # bash names itself "bash: line 1:" for -c; cove says "bash:"; compare the message.
    return err.replace(b"bash: line 1: ", b"bash: ").replace(b"bash: -c: line 1: ", b"bash: ")


def test_shell_matches_bash_natively(tmp_path: pathlib.Path) -> None:
    commands = [c for c in COMMANDS if _runnable(c)]
    mismatches: dict[str, str] = {}
    stderr_diff = []
    # bash runs in worker threads while the shell (which changes the process's cwd) runs here.
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        bash_results = [
            pool.submit(run_bash, tmp_path / f"b{k}", c) for k, c in enumerate(commands)
        ]
        cove_results = [run_cove(tmp_path / f"c{k}", c) for k, c in enumerate(commands)]
        bash_done = [f.result() for f in bash_results]
    for command, expected, got in zip(commands, bash_done, cove_results, strict=True):
        if (got[0], got[2]) != (expected[0], expected[2]):
            mismatches[command] = (
                f"{command!r}\n  bash: {expected[0][:300]!r} {expected[2]}"
                f"\n  cove: {got[0][:300]!r} {got[2]} {got[1][:200]!r}"
            )
        elif _stderr_comparable(got[1]) != _stderr_comparable(expected[1]):
            stderr_diff.append(f"{command!r}\n  bash: {expected[1]!r}\n  cove: {got[1]!r}")
    report = "\n".join(mismatches.values())
    print(
        f"native shell differential: {len(commands) - len(mismatches)}/{len(commands)} match;"
        f" stderr differs in {len(stderr_diff)}\n{report}\n--- stderr ---\n"
        + "\n".join(stderr_diff)
    )
    assert len(commands) >= 500
    unexpected = [text for c, text in mismatches.items() if c not in KNOWN_DIFFERENCES]
    assert not unexpected, "\n".join(unexpected)
    fixed = [c for c, (_, strict) in KNOWN_DIFFERENCES.items() if strict and c not in mismatches]
    assert not fixed, f"these now match bash: take them off KNOWN_DIFFERENCES: {fixed}"

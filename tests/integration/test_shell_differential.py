"""The shell against real bash: the same command lines on the same fixture files, stdout and
exit code compared exactly (the fixture's path is shown as /workspace in bash's output)."""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest

import cove
from tests.guest.differential.cases import COMMANDS, FIXTURE, KNOWN_DIFFERENCES, REQUIRES

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.skipif(shutil.which("bash") is None, reason="needs real bash to compare against"),
]


def _bash(tmp: pathlib.Path, command: str) -> tuple[bytes, int]:
    for name, text in FIXTURE.items():
        path = tmp / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": "/workspace",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
    }
    done = subprocess.run(
        ["bash", "-c", command], cwd=tmp, capture_output=True, env=env, timeout=30, check=False
    )
    return done.stdout.replace(str(tmp).encode(), b"/workspace"), done.returncode


def _runnable(command: str) -> bool:
    words = set(command.replace("|", " ").replace(";", " ").replace("&&", " ").split())
    return all(shutil.which(tool) for word, tool in REQUIRES.items() if word in words)


async def test_shell_matches_bash_on_agent_command_lines(
    pool: cove.Pool, tmp_path: pathlib.Path
) -> None:
    mismatches = []
    # A smoke subset through wasm (every fifth line): the whole corpus runs natively, fast,
    # in tests/guest/differential/.
    commands = [c for c in COMMANDS[::5] if _runnable(c)]
    for k, command in enumerate(commands):
        # bash runs in a directory named as the sandbox's is, so `${PWD##*/}` agrees too.
        expected, expected_rc = _bash(tmp_path / f"b{k}" / "workspace", command)
        session = await pool.create_session()
        for name, text in FIXTURE.items():
            await session.write_file(name, text.encode())
        result = await session.execute(
            cove.tools.BashExecution(
                input=cove.tools.BashExecutionInput(command=command), timeout_seconds=20
            )
        )
        got = result.stdout.encode("utf-8", "surrogateescape")
        if (got, result.return_code) != (expected, expected_rc):
            mismatches.append(
                (command, expected, expected_rc, got, result.return_code, result.stderr[:200])
            )
        await pool.destroy_session(session.session_id)
    report = "\n".join(
        f"{c!r}\n  bash: {e!r} {erc}\n  cove: {g!r} {grc} {err!r}"
        for c, e, erc, g, grc, err in mismatches
    )
    print(f"shell differential: {len(commands) - len(mismatches)}/{len(commands)} match\n{report}")
    assert len(commands) >= 100
    # Every line matches bash but the known differences (tests/guest/differential/cases.py).
    differing = {m[0] for m in mismatches}
    assert differing <= set(KNOWN_DIFFERENCES), report
    fixed = [c for c in commands if c in KNOWN_DIFFERENCES and KNOWN_DIFFERENCES[c][1]]
    assert set(fixed) <= differing, (
        f"these now match bash: take them off KNOWN_DIFFERENCES: {fixed}"
    )

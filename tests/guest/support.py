"""Helpers for the guest tests: a shell with every command, in a directory of fixture files."""

from __future__ import annotations

import contextlib
import os
import pathlib
from collections.abc import Iterator, Mapping

from cove_guest.commands import COMMANDS
from cove_guest.shell import Shell


@contextlib.contextmanager
def shell_in(root: pathlib.Path, files: Mapping[str, str | bytes] = {}) -> Iterator[Shell]:
    """A fresh shell with every command, run with `root` (holding `files`) as the cwd."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)
    old = os.getcwd()
    os.chdir(root)
    try:
        yield Shell(commands=COMMANDS)
    finally:
        os.chdir(old)


def run(sh: Shell, cmd: str) -> tuple[str, str, int]:
    """Run a command line; returns (stdout, stderr, status) as text."""
    out, err, rc = sh.run(cmd)
    return out.decode(), err.decode(), rc

"""The text editor's `view` of a small workspace file, answered on the host.

The editor's home is the guest (`cove_guest.editor`, python-wasm/guest): every command, every
error and every path the guest's filesystem resolves. A plain `view` of a small regular file
is the editor's most common command, and in the guest it is four WASI file operations, each
a hand-off to wasmtime's blocking thread pool (~0.3 ms in all). This module answers that one
case on the host, inline, with the exact text the guest would write, and declines every other
case (None): the guest then answers, as before.

Answered here only when all of these hold, else None:

- the path, normalised as the guest's editor does, is a file under /workspace, and has no
  backslash (an ordinary character in the guest, a separator to the file API's resolver);
- every component is a real directory or file, no symbolic link (`Workspace.resolve`,
  opened `O_NOFOLLOW`): the guest would follow a link inside the sandbox;
- the file is regular and at most `INLINE_MAX_BYTES`;
- `view_range`, if given, is one the guest accepts (the guest words the refusals);
- the text fits the output bound uncut (the guest words the truncation).

`tests/integration/test_hostview.py` compares this with the guest's answer on every kind of
file and range.
"""

from __future__ import annotations

import os
import posixpath

from ._errors import CoveError
from ._workspace import Workspace

__all__ = ["INLINE_MAX_BYTES", "view_text"]

# The guest's mount point for the workspace (cove_guest.editor.WORKSPACE).
_GUEST_ROOT = "/workspace"

# Larger files are viewed in the guest, off the event loop.
INLINE_MAX_BYTES = 64 << 10


def _numbered(text: str, start: int) -> str:
    # cove_guest.editor._numbered
    return "\n".join(f"{i:6}\t{line}" for i, line in enumerate(text.split("\n"), start))


def view_text(
    workspace: Workspace, path: str, view_range: list[int] | None, max_output_bytes: int
) -> str | None:
    """What the guest's editor writes to stdout for `view` of `path`, or None when the guest
    must answer (see the module's docstring). Never raises for anything in the workspace."""
    if not path or "\\" in path:
        return None  # a backslash is an ordinary character to the guest, a separator to resolve
    full = posixpath.normpath(path if path.startswith("/") else f"{_GUEST_ROOT}/{path}")
    if not full.startswith(_GUEST_ROOT + "/"):
        return None  # the root (a directory), or outside: the guest's words
    rel = full[len(_GUEST_ROOT) + 1 :]
    try:
        # The file API's own opening: resolved, O_NOFOLLOW, regular files only.
        fd = workspace.open_regular(rel, workspace.resolve(rel))
    except (CoveError, OSError, ValueError):
        return None
    try:
        if os.fstat(fd).st_size > INLINE_MAX_BYTES:
            return None
        data = os.read(fd, INLINE_MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) > INLINE_MAX_BYTES:
        return None
    # The guest reads with encoding="utf-8", errors="replace", newline="": the same text.
    text = data.decode("utf-8", "replace")
    start = 1
    if view_range is not None:
        lines = text.split("\n")
        if len(view_range) != 2 or not all(type(x) is int for x in view_range):
            return None
        first, last = view_range
        if first < 1 or first > len(lines) or (last != -1 and not first <= last <= len(lines)):
            return None
        text = "\n".join(lines[first - 1 :] if last == -1 else lines[first - 1 : last])
        start = first
    out = f"Here's the result of running `cat -n` on {path}:\n{_numbered(text, start)}\n"
    if len(out.encode("utf-8", "surrogatepass")) > max_output_bytes:
        return None
    return out

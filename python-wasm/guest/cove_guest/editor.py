"""The text-editor tool inside the guest: Anthropic's `view`, `create`, `str_replace`, `insert`,
`undo_edit`, acting on files under /workspace.

It runs in the sandbox, so WASI itself confines every path to the session's preopened
directories: an escape is an error from the filesystem, not a check here that could be wrong.
Outcomes are text on stdout (success) or stderr with return code 1 (a refused edit).
"""

import os
from collections.abc import Callable
from io import TextIOBase
from typing import Any

# A decoded `edit` request, and each file's undo history (its texts before each edit).
Request = dict[str, Any]
Undo = dict[str, list[str]]

WORKSPACE = "/workspace"
SNIPPET_LINES = 4
MAX_UNDO = 10


class EditorError(Exception):
    """A refused edit: the message is the tool's answer (on stderr, status 1)."""


def _resolve(path: object) -> str:
    if not isinstance(path, str) or not path:
        raise EditorError("The path parameter must be a non-empty string.")
    if "\0" in path:
        # Before any filesystem call: os functions raise ValueError for it, a driver failure.
        raise EditorError("The path parameter must not contain a NUL byte.")
    full = path if path.startswith("/") else os.path.join(WORKSPACE, path)
    full = os.path.normpath(full)
    if full != WORKSPACE and not full.startswith(WORKSPACE + "/"):
        raise EditorError(f"The path {path} is outside the workspace {WORKSPACE}.")
    return full


def _numbered(text: str, start: int = 1) -> str:
    lines = text.split("\n")
    return "\n".join(f"{i:6}\t{line}" for i, line in enumerate(lines, start))


def _read(full: str, shown: str) -> str:
    try:
        with open(full, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    except FileNotFoundError:
        raise EditorError(
            f"The path {shown} does not exist. Please provide a valid path."
        ) from None
    except IsADirectoryError:
        raise EditorError(f"The path {shown} is a directory.") from None
    except OSError as exc:
        raise EditorError(f"Cannot read {shown}: {exc.strerror or exc}") from None


def _write(full: str, shown: str, text: str) -> None:
    try:
        with open(full, "w", encoding="utf-8", newline="") as f:
            f.write(text)
    except OSError as exc:
        raise EditorError(f"Cannot write {shown}: {exc.strerror or exc}") from None


def _remember(undo: Undo, full: str, text: str) -> None:
    stack = undo.setdefault(full, [])
    stack.append(text)
    del stack[:-MAX_UNDO]


def _view_dir(full: str, shown: str, out: TextIOBase) -> None:
    lines: list[str] = []
    base_depth = full.rstrip("/").count("/")
    for top, dirs, files in os.walk(full):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        depth = top.rstrip("/").count("/") - base_depth
        if depth >= 2:
            dirs[:] = []
        for name in dirs + sorted(f for f in files if not f.startswith(".")):
            lines.append(os.path.join(top, name))
    out.write(
        f"Here's the files and directories up to 2 levels deep in {shown}, "
        "excluding hidden items:\n" + "\n".join([full, *sorted(lines)]) + "\n"
    )


def _view(req: Request, full: str, shown: str, out: TextIOBase, undo: Undo) -> None:
    if os.path.isdir(full):
        if req.get("view_range") is not None:
            raise EditorError(
                "The view_range parameter is not allowed when path points to a directory."
            )
        _view_dir(full, shown, out)
        return
    text = _read(full, shown)
    start = 1
    rng = req.get("view_range")
    if rng is not None:
        if not (isinstance(rng, list) and len(rng) == 2 and all(type(x) is int for x in rng)):
            raise EditorError("Invalid view_range. It should be a list of two integers.")
        lines = text.split("\n")
        first, last = rng
        if first < 1 or first > len(lines):
            raise EditorError(
                f"Invalid view_range: {rng}. Its first element {first} should be within the "
                f"range of lines of the file: [1, {len(lines)}]"
            )
        if last != -1 and (last < first or last > len(lines)):
            raise EditorError(
                f"Invalid view_range: {rng}. Its second element {last} should be -1 or within "
                f"[{first}, {len(lines)}]"
            )
        text = "\n".join(lines[first - 1 :] if last == -1 else lines[first - 1 : last])
        start = first
    out.write(f"Here's the result of running `cat -n` on {shown}:\n{_numbered(text, start)}\n")


def _create(req: Request, full: str, shown: str, out: TextIOBase, undo: Undo) -> None:
    text = req.get("file_text")
    if not isinstance(text, str):
        raise EditorError("Parameter `file_text` is required for command: create")
    if os.path.isdir(full):
        raise EditorError(f"The path {shown} is a directory.")
    old = None
    if os.path.exists(full):
        old = _read(full, shown)
    parent = os.path.dirname(full)
    try:
        # Not makedirs on an existing parent: mkdir of the preopened root itself is refused by
        # WASI with ENOTCAPABLE, which exist_ok does not cover.
        if not os.path.isdir(parent):
            os.makedirs(parent)
    except OSError as exc:
        raise EditorError(f"Cannot create {shown}: {exc.strerror or exc}") from None
    _write(full, shown, text)
    if old is not None:
        _remember(undo, full, old)
        out.write(f"File overwritten successfully at: {shown}\n")
    else:
        out.write(f"File created successfully at: {shown}\n")


def _snippet(text: str, around_line: int, added_lines: int, shown: str) -> str:
    lines = text.split("\n")
    first = max(0, around_line - SNIPPET_LINES)
    last = around_line + added_lines + SNIPPET_LINES
    body = _numbered("\n".join(lines[first:last]), first + 1)
    return (
        f"The file {shown} has been edited. Here's the result of running `cat -n` on a snippet "
        f"of {shown}:\n{body}\nReview the changes and make sure they are as expected. "
        "Edit the file again if necessary.\n"
    )


def _str_replace(req: Request, full: str, shown: str, out: TextIOBase, undo: Undo) -> None:
    old_str, new_str = req.get("old_str"), req.get("new_str")
    if not isinstance(old_str, str):
        raise EditorError("Parameter `old_str` is required for command: str_replace")
    if new_str is None:
        new_str = ""
    if not isinstance(new_str, str):
        raise EditorError("Parameter `new_str` must be a string")
    text = _read(full, shown)
    count = text.count(old_str) if old_str else 0
    if count == 0:
        raise EditorError(
            f"No replacement was performed, old_str `{old_str}` did not appear verbatim in {shown}."
        )
    if count > 1:
        lines = [i + 1 for i, line in enumerate(text.split("\n")) if old_str.split("\n")[0] in line]
        raise EditorError(
            f"No replacement was performed. Multiple occurrences of old_str `{old_str}` in lines "
            f"{lines}. Please ensure it is unique"
        )
    at_line = text.split(old_str)[0].count("\n")
    new_text = text.replace(old_str, new_str)
    _write(full, shown, new_text)
    _remember(undo, full, text)
    out.write(_snippet(new_text, at_line, new_str.count("\n") + 1, shown))


def _insert(req: Request, full: str, shown: str, out: TextIOBase, undo: Undo) -> None:
    line, new_str = req.get("insert_line"), req.get("new_str")
    if type(line) is not int:
        raise EditorError("Parameter `insert_line` is required for command: insert")
    if not isinstance(new_str, str):
        raise EditorError("Parameter `new_str` is required for command: insert")
    text = _read(full, shown)
    lines = text.split("\n")
    if line < 0 or line > len(lines):
        raise EditorError(
            f"Invalid `insert_line` parameter: {line}. It should be within the range of lines "
            f"of the file: [0, {len(lines)}]"
        )
    new_lines = new_str.split("\n")
    new_text = "\n".join(lines[:line] + new_lines + lines[line:])
    _write(full, shown, new_text)
    _remember(undo, full, text)
    out.write(_snippet(new_text, line, len(new_lines), shown))


def _undo_edit(req: Request, full: str, shown: str, out: TextIOBase, undo: Undo) -> None:
    stack = undo.get(full)
    if not stack:
        raise EditorError(f"No edit history found for {shown}.")
    _write(full, shown, stack.pop())
    out.write(
        f"Last edit to {shown} undone successfully. Here's the result of running `cat -n` "
        f"on {shown}:\n{_numbered(_read(full, shown))}\n"
    )


_COMMANDS: dict[str, Callable[[Request, str, str, TextIOBase, Undo], None]] = {
    "view": _view,
    "create": _create,
    "str_replace": _str_replace,
    "insert": _insert,
    "undo_edit": _undo_edit,
}


class Editor:
    """The text-editor tool of one session: runs its commands and owns their undo history."""

    def __init__(self) -> None:
        self.undo: Undo = {}

    def run(self, req: Request, out: TextIOBase, err: TextIOBase) -> int:
        """Run one command; returns the return code (0, or 1 with the reason on err)."""
        command: Any = req.get("command")  # any JSON value: a wrong one is refused below
        try:
            func = _COMMANDS.get(command)
            if func is None:
                raise EditorError(
                    f"Unrecognized command {command!r}. The allowed commands are: "
                    + ", ".join(_COMMANDS)
                )
            path = req.get("path")
            full = _resolve(path)  # a non-empty str from here on
            func(req, full, str(path), out, self.undo)
        except EditorError as exc:
            err.write(f"Error: {exc}\n")
            return 1
        except Exception as exc:
            # The last line: nothing a command raises (a text that cannot be encoded, a request
            # of the wrong shape from an embedding caller) becomes a driver failure, which would
            # reset the interpreter. A deadline's TimeLimitExceeded is no Exception: it passes.
            err.write(f"Error: {type(exc).__name__}: {exc}\n")
            return 1
        return 0

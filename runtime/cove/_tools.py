"""Tool calls and their results, as msgspec Structs shared with the HTTP server.

A tool call is a tagged union on `tool`, exactly the contract's `ExecRequest`: unknown fields
are tolerated (the contract grows additively). The fields a text-editor command needs are
checked when its input is built, so a call is validated exactly once whether it was decoded
(`decode_tool_call`) or constructed in Python. The public names are in `cove.tools`.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from ._errors import InvalidRequestError, UnknownToolError
from ._watch import PATH_MAX

__all__ = [
    "BashExecution",
    "BashExecutionInput",
    "CodeExecution",
    "CodeExecutionInput",
    "ExecResult",
    "FileRef",
    "Outcome",
    "TextEditor",
    "TextEditorInput",
    "ToolCall",
    "decode_tool_call",
]

NonEmpty = Annotated[str, msgspec.Meta(min_length=1)]
PositiveInt = Annotated[int, msgspec.Meta(ge=1)]
# A tool-use id is echoed twice in every response, and the gateway hands it back to the model's
# API: bounded, and in the alphabet of Anthropic's tool-use ids. Empty means absent (one is
# generated), as before the bound.
ToolUseId = Annotated[str, msgspec.Meta(max_length=256, pattern="^[A-Za-z0-9_-]*$")]


class CodeExecutionInput(msgspec.Struct, frozen=True, kw_only=True):
    code: NonEmpty


class BashExecutionInput(msgspec.Struct, frozen=True, kw_only=True):
    command: NonEmpty


EditorCommand = Literal["view", "create", "str_replace", "insert", "undo_edit"]


# The fields each text-editor command needs beyond `path` (the schema cannot say it per command).
_EDITOR_NEEDS: dict[str, tuple[str, ...]] = {
    "create": ("file_text",),
    "str_replace": ("old_str",),
    "insert": ("insert_line", "new_str"),
}


class TextEditorInput(msgspec.Struct, frozen=True, kw_only=True):
    """A text-editor command.

    Raises:
        InvalidRequestError: when built (or decoded) without a field its command needs, or
            with a `view_range` that is not two integers.
    """

    command: EditorCommand
    path: NonEmpty
    file_text: str | None = None
    old_str: str | None = None
    new_str: str | None = None
    insert_line: int | None = None
    view_range: list[int] | None = None

    def __post_init__(self) -> None:
        # msgspec runs this on decode too; InvalidRequestError is not a ValueError, so it
        # propagates as itself instead of becoming a msgspec.ValidationError.
        missing = [
            name for name in _EDITOR_NEEDS.get(self.command, ()) if getattr(self, name) is None
        ]
        if missing:
            raise InvalidRequestError(
                f"text_editor_code_execution {self.command} needs {', '.join(missing)}"
            )
        check_path_length(self.path)
        if self.view_range is not None and len(self.view_range) != 2:
            raise InvalidRequestError("view_range must be two integers [start, end]")


def check_path_length(path: str) -> None:
    """Refuse a client path the host could not open (PATH_MAX bytes or more): before any work
    on it, so the host's work on a path is bounded by PATH_MAX.

    Raises:
        InvalidRequestError: the path is too long.
    """
    if len(path) >= PATH_MAX or len(path.encode("utf-8", "surrogatepass")) >= PATH_MAX:
        raise InvalidRequestError(f"path is longer than the host's limit of {PATH_MAX - 1} bytes")


class _Call(msgspec.Struct, frozen=True, kw_only=True, tag_field="tool"):
    timeout_seconds: PositiveInt | None = None
    tool_use_id: ToolUseId | None = None

    def tool_kind(self) -> str:
        """The contract's tool kind of this call (its `tool` tag)."""
        tag = type(self).__struct_config__.tag
        assert isinstance(tag, str)
        return tag


class CodeExecution(_Call, frozen=True, kw_only=True, tag="code_execution"):
    """Run Python source in the session's persistent interpreter."""

    input: CodeExecutionInput


class BashExecution(_Call, frozen=True, kw_only=True, tag="bash_code_execution"):
    """Run a shell command in the session's workspace."""

    input: BashExecutionInput


class TextEditor(_Call, frozen=True, kw_only=True, tag="text_editor_code_execution"):
    """View or edit a file in the session's workspace."""

    input: TextEditorInput


ToolCall = CodeExecution | BashExecution | TextEditor

_KNOWN_TOOLS = {"code_execution", "bash_code_execution", "text_editor_code_execution"}
_decoder = msgspec.json.Decoder(ToolCall)
_tool_only = msgspec.json.Decoder(dict[str, object])


def decode_tool_call(body: bytes) -> ToolCall:
    """Decode and validate a JSON tool call (the contract's `ExecRequest` body).

    Raises:
        UnknownToolError: `tool` names a kind this backend does not run.
        InvalidRequestError: anything else malformed, with msgspec's path to the bad field.
    """
    try:
        call = _decoder.decode(body)
    except msgspec.ValidationError as exc:
        try:
            raw = _tool_only.decode(body)
        except msgspec.DecodeError:
            raw = {}
        tool = raw.get("tool")
        if isinstance(tool, str) and tool not in _KNOWN_TOOLS:
            raise UnknownToolError(tool) from exc
        raise InvalidRequestError(str(exc)) from exc
    except msgspec.DecodeError as exc:
        raise InvalidRequestError(f"malformed JSON: {exc}") from exc
    return call


class FileRef(msgspec.Struct, frozen=True, kw_only=True):
    """A workspace file a call created or changed; `file_id` is its workspace-relative path."""

    file_id: str
    filename: str


Outcome = Literal[
    "ok",
    "error",
    "timeout",
    "out_of_fuel",
    "memory",
    "stack_overflow",
    "exit",
    "workspace_full",
    "crash",
]


class ExecResult(msgspec.Struct, frozen=True, kw_only=True):
    """The outcome of one tool call. Guest failures and limits are outcomes, never raised.

    Attributes:
        tool: The tool kind that ran.
        stdout: What the call printed (kept up to the output limit, then a truncation line).
        stderr: Errors, tracebacks, and the words of any limit that fired.
        return_code: 0 on success; 1 for an uncaught exception or a refused edit; N for
            `SystemExit(N)`; non-zero whenever a limit fired.
        outcome: What happened, as a typed status.
        files: Workspace files the call created or changed.
        execution_time_ms: Wall-clock time spent running the call.
        reset: The interpreter was replaced by a fresh one from the snapshot (after a trap);
            variables are gone, the workspace is kept.
        limit: The limit that fired, in words a model can act on, or None.
        fuel_used: Wasm fuel the call consumed (None when fuel metering is off).
        peak_memory_bytes: The guest's linear memory size after the call (it only grows).
        stdout_dropped_bytes: Bytes of stdout beyond the output limit.
        stderr_dropped_bytes: Bytes of stderr beyond the output limit.
    """

    tool: str
    stdout: str
    stderr: str
    return_code: int
    outcome: Outcome
    files: tuple[FileRef, ...] = ()
    execution_time_ms: int = 0
    reset: bool = False
    limit: str | None = None
    fuel_used: int | None = None
    peak_memory_bytes: int = 0
    stdout_dropped_bytes: int = 0
    stderr_dropped_bytes: int = 0

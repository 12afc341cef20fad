"""Cove: sandboxed Python sessions for LLM tool calls, on CPython compiled to WASI.

Embed it in a gateway with `Pool` (one wasmtime engine, many sessions), or serve it over HTTP
with `cove_server`. Both have the same semantics: the Otari code-execution contract v1.
"""

from ._adapter import CoveSandbox
from ._artifact import Artifact
from ._errors import (
    ArtifactError,
    CapacityError,
    CoveError,
    InterpreterError,
    InvalidRequestError,
    NotAFileError,
    PathOutsideWorkspaceError,
    SessionBusyError,
    SessionClosedError,
    SessionNotFoundError,
    TooLargeError,
    UnknownToolError,
    WorkspaceFileNotFoundError,
)
from ._pool import Pool, PoolStatistics
from ._session import Session, SessionInfo, result_type
from ._settings import Limits, PoolSettings, SessionOptions
from ._tools import (
    BashExecution,
    BashExecutionInput,
    CodeExecution,
    CodeExecutionInput,
    ExecResult,
    FileRef,
    Outcome,
    TextEditor,
    TextEditorInput,
    ToolCall,
    decode_tool_call,
    validate_call,
)
from ._transfer import Upload, WorkspaceFile, check_new_name
from ._workspace import FileInfo

__all__ = [
    "Artifact",
    "ArtifactError",
    "BashExecution",
    "BashExecutionInput",
    "CapacityError",
    "CodeExecution",
    "CodeExecutionInput",
    "CoveError",
    "CoveSandbox",
    "ExecResult",
    "FileInfo",
    "FileRef",
    "InterpreterError",
    "InvalidRequestError",
    "Limits",
    "NotAFileError",
    "Outcome",
    "PathOutsideWorkspaceError",
    "Pool",
    "PoolSettings",
    "PoolStatistics",
    "Session",
    "SessionBusyError",
    "SessionClosedError",
    "SessionInfo",
    "SessionNotFoundError",
    "SessionOptions",
    "TextEditor",
    "TextEditorInput",
    "TooLargeError",
    "ToolCall",
    "UnknownToolError",
    "Upload",
    "WorkspaceFile",
    "WorkspaceFileNotFoundError",
    "check_new_name",
    "decode_tool_call",
    "result_type",
    "validate_call",
]

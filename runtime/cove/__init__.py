"""Cove: sandboxed Python sessions for LLM tool calls, on CPython compiled to WASI.

Embed it in a gateway with `Pool` (one wasmtime engine, many sessions), or serve it over HTTP
with `cove_server`. Both have the same semantics: the Otari code-execution contract v1.

Namespaces: `cove` is the core (pools, sessions, settings, results, errors); `cove.tools` holds
the contract's tool calls (`CodeExecution`, `decode_tool_call`, ...); `cove.otari` the adapter
for Otari's `SandboxBackend` (`CoveSandbox`).
"""

import warnings as _warnings

from . import otari, tools
from ._artifact import Artifact
from ._errors import (
    ArtifactError,
    CapacityError,
    CoveError,
    InterpreterError,
    InvalidRequestError,
    NotAFileError,
    PathOutsideWorkspaceError,
    PoolClosedError,
    SessionBusyError,
    SessionClosedError,
    SessionLostError,
    SessionNotFoundError,
    SessionStateError,
    TooLargeError,
    UnknownToolError,
    WorkspaceFileNotFoundError,
)
from ._pool import Pool, PoolStatistics
from ._session import Session, SessionInfo
from ._settings import KiB, Limits, MiB, PoolSettings, SessionOptions, default_cache_dir
from ._tools import ExecResult, FileRef, Outcome
from ._transfer import Upload, WorkspaceFile, check_new_name
from ._workspace import FileInfo

__all__ = [
    "Artifact",
    "ArtifactError",
    "CapacityError",
    "CoveError",
    "ExecResult",
    "FileInfo",
    "FileRef",
    "InterpreterError",
    "InvalidRequestError",
    "KiB",
    "Limits",
    "MiB",
    "NotAFileError",
    "Outcome",
    "PathOutsideWorkspaceError",
    "Pool",
    "PoolClosedError",
    "PoolSettings",
    "PoolStatistics",
    "Session",
    "SessionBusyError",
    "SessionClosedError",
    "SessionInfo",
    "SessionLostError",
    "SessionNotFoundError",
    "SessionOptions",
    "SessionStateError",
    "TooLargeError",
    "UnknownToolError",
    "Upload",
    "WorkspaceFile",
    "WorkspaceFileNotFoundError",
    "check_new_name",
    "default_cache_dir",
    "otari",
    "tools",
]

# Names that moved out of the core namespace; importable from `cove` for one more release.
_MOVED = {
    "BashExecution": "cove.tools",
    "BashExecutionInput": "cove.tools",
    "CodeExecution": "cove.tools",
    "CodeExecutionInput": "cove.tools",
    "TextEditor": "cove.tools",
    "TextEditorInput": "cove.tools",
    "ToolCall": "cove.tools",
    "decode_tool_call": "cove.tools",
    "CoveSandbox": "cove.otari",
}


def _validate_call(call: object) -> None:
    """The former `cove.validate_call`: a call is now validated when built, so this is a no-op."""


def _result_type(tool: str) -> str:
    """The former `cove.result_type` (now the server's): the contract's result-block type."""
    return f"{tool}_tool_result"


def __getattr__(name: str) -> object:
    if name in _MOVED:
        home = _MOVED[name]
        _warnings.warn(
            f"cove.{name} moved to {home}.{name}; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(otari if home == "cove.otari" else tools, name)
    if name in ("validate_call", "result_type"):
        _warnings.warn(
            f"cove.{name} is deprecated: "
            + (
                "a tool call is validated when it is built or decoded"
                if name == "validate_call"
                else "the contract's result-block type belongs to the HTTP server"
            ),
            DeprecationWarning,
            stacklevel=2,
        )
        return _validate_call if name == "validate_call" else _result_type
    raise AttributeError(f"module 'cove' has no attribute {name!r}")

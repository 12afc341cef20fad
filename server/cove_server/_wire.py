"""The contract's wire shapes that are the server's own (tool calls are `cove.tools`' Structs).

Requests tolerate unknown fields (the contract grows additively); responses carry additive
fields of Cove's (`outcome`, `fuel_used`, `peak_memory_bytes`, the limits in force).
"""

from __future__ import annotations

import random
import secrets
from typing import Annotated, Literal

import msgspec

import cove

__all__ = [
    "CreateSessionRequest",
    "ErrorBody",
    "ExecResponse",
    "FileList",
    "FileUploadResult",
    "SessionHandle",
    "new_tool_use_id",
    "result_type",
]

Positive = Annotated[int, msgspec.Meta(ge=1)]

# The contract's result-block `type` for each tool kind.
_RESULT_TYPES = {
    "code_execution": "code_execution_tool_result",
    "bash_code_execution": "bash_code_execution_tool_result",
    "text_editor_code_execution": "text_editor_code_execution_tool_result",
}


def result_type(tool: str) -> str:
    """The contract's result-block `type` for a tool kind (`ExecResult.tool`)."""
    return _RESULT_TYPES[tool]


class CreateSessionRequest(msgspec.Struct, frozen=True, kw_only=True):
    image: str | None = None
    idle_timeout_seconds: Positive | None = None
    max_lifetime_seconds: Positive | None = None


class LimitsInForce(msgspec.Struct, frozen=True, kw_only=True):
    timeout_seconds: float
    memory_bytes: int
    max_output_bytes: int
    workspace_bytes: int
    workspace_files: int
    max_file_bytes: int
    fuel: int | None


class SessionHandle(msgspec.Struct, frozen=True, kw_only=True):
    session_id: str
    idle_timeout_seconds: int
    max_lifetime_seconds: int
    created_at: float
    last_activity_at: float
    image: str
    limits: LimitsInForce

    @classmethod
    def of(cls, info: cove.SessionInfo) -> SessionHandle:
        lim = info.limits
        return cls(
            session_id=info.session_id,
            idle_timeout_seconds=info.idle_timeout_seconds,
            max_lifetime_seconds=info.max_lifetime_seconds,
            created_at=info.created_at,
            last_activity_at=info.last_activity_at,
            image=info.image,
            limits=LimitsInForce(
                timeout_seconds=lim.timeout_s,
                memory_bytes=lim.memory_bytes,
                max_output_bytes=lim.max_output_bytes,
                workspace_bytes=lim.workspace_bytes,
                workspace_files=lim.workspace_files,
                max_file_bytes=lim.max_file_bytes,
                fuel=lim.fuel,
            ),
        )


class OutputFile(msgspec.Struct, frozen=True, kw_only=True):
    file_id: str
    filename: str
    type: Literal["code_execution_output"] = "code_execution_output"


class ResultContent(msgspec.Struct, frozen=True, kw_only=True):
    stdout: str
    stderr: str
    return_code: int
    content: list[OutputFile]
    type: Literal["code_execution_result"] = "code_execution_result"


class ResultBlock(msgspec.Struct, frozen=True, kw_only=True):
    type: str
    tool_use_id: str
    content: ResultContent


class ExecResponse(msgspec.Struct, frozen=True, kw_only=True):
    tool_use_id: str
    execution_time_ms: int
    result_block: ResultBlock
    # Additive, Cove's own:
    outcome: str
    reset: bool
    limit: str | None
    fuel_used: int | None
    peak_memory_bytes: int

    @classmethod
    def of(cls, tool_use_id: str, result: cove.ExecResult) -> ExecResponse:
        return cls(
            tool_use_id=tool_use_id,
            execution_time_ms=result.execution_time_ms,
            result_block=ResultBlock(
                type=result_type(result.tool),
                tool_use_id=tool_use_id,
                content=ResultContent(
                    stdout=result.stdout,
                    stderr=result.stderr,
                    return_code=result.return_code,
                    content=[
                        OutputFile(file_id=f.file_id, filename=f.filename) for f in result.files
                    ],
                ),
            ),
            outcome=result.outcome,
            reset=result.reset,
            limit=result.limit,
            fuel_used=result.fuel_used,
            peak_memory_bytes=result.peak_memory_bytes,
        )


class FileList(msgspec.Struct, frozen=True, kw_only=True):
    files: list[cove.FileInfo]


class FileUploadResult(msgspec.Struct, frozen=True, kw_only=True):
    path: str
    size_bytes: int


class ErrorBody(msgspec.Struct, frozen=True, kw_only=True):
    detail: str
    error: str


# Correlation ids grant nothing (session ids are the secrets: `secrets.token_urlsafe`), so they
# come from a generator seeded once from the OS, not a `getrandom` system call per call.
_ids = random.Random(secrets.token_bytes(32))


def new_tool_use_id() -> str:
    """A correlation id in the reference backend's format: `srvtoolu_` and 24 hex digits."""
    return f"srvtoolu_{_ids.getrandbits(96):024x}"

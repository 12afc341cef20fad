"""The one place guest outcomes become results, and the sentences the model reads about them
(a nested `python`'s outcome, as the shell reports it, included: `program_reply`).

Pure functions of an outcome, the workspace's usage after it and the files it changed, and the
limits in force:
`translate` says what happened and whether the interpreter must be reset (after any trap, or a
driver failure); the session does the reset. Output bounds are held here too: the guest's
driver bounds each stream, and the host cuts it to the same bound again, so guest code that
lifts its own bound gains nothing.
"""

from __future__ import annotations

from typing import Any

import msgspec

from . import _protocol as protocol
from ._guest import GuestOutcome, Trapped
from ._settings import Limits, MiB
from ._tools import ExecResult, FileRef, Outcome
from ._workspace import Usage

__all__ = ["RESET_NOTE", "bounded", "fmt_bytes", "program_reply", "translate"]

RESET_NOTE = (
    "the interpreter was reset: variables and imports are gone, files in /workspace are kept"
)
KEPT_NOTE = "the session's variables, imports and files are kept"

# Room for the guest driver's own truncation line on top of the kept bytes.
_TRUNCATION_SLACK = 200


def fmt_bytes(n: int) -> str:
    return f"{n / MiB:g} MiB" if n >= MiB else f"{n} bytes"


def _fmt_s(seconds: float) -> str:
    return f"{seconds:g} s"


def bounded(text: str, limit: int) -> tuple[str, int]:
    """`text` cut to `limit` UTF-8 bytes (with a note), and how many bytes were cut."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit + _TRUNCATION_SLACK:
        return text, 0
    cut = len(data) - limit
    kept = data[:limit].decode("utf-8", "ignore")
    return f"{kept}\n[output truncated: {cut} more bytes were dropped]\n", cut


def translate(
    tool: str,
    outcome: GuestOutcome,
    after: Usage,
    changed: list[str],
    *,
    elapsed_ms: int,
    timeout_s: float,
    limits: Limits,
) -> tuple[ExecResult, bool]:
    """The result of one call, and whether the interpreter must be reset.

    Never raises for anything the guest sent: a response that cannot be made sense of is a
    crash (and a reset).
    """
    common = _common(tool, outcome, changed, elapsed_ms)
    if outcome.trapped is not None:
        return _trapped(outcome, timeout_s, limits, common), True
    try:
        response = protocol.decode_response(outcome.response or b"")
    except msgspec.DecodeError:
        response = protocol.GuestResponse(error="the guest returned an unreadable response")
    if response.error is not None:
        failed = f"the interpreter failed ({response.error[:200]})"
        return ExecResult(
            stdout="",
            stderr=f"[cove] {failed}; {RESET_NOTE}\n",
            return_code=1,
            outcome="crash",
            reset=True,
            limit=failed,
            **common,
        ), True
    stdout, stdout_cut = bounded(response.stdout, limits.max_output_bytes)
    stderr, stderr_cut = bounded(response.stderr, limits.max_output_bytes)
    rc = response.return_code
    state: Outcome = "ok" if rc == 0 else "error"
    limit: str | None = None
    if outcome.interrupted:
        # The soft deadline: the code was stopped by an exception and the call returned.
        state, rc = "timeout", 124
        limit = (
            f"execution exceeded the {_fmt_s(timeout_s)} time limit and was interrupted; "
            f"{KEPT_NOTE}"
        )
    elif response.exc_type == "MemoryError":
        state = "memory"
        limit = (
            f"execution ran out of memory: the {fmt_bytes(limits.memory_bytes)} "
            "memory limit was reached"
        )
    if not outcome.interrupted and (
        outcome.quota_hit
        or after.bytes > limits.workspace_bytes
        or after.files > limits.workspace_files
    ):
        state = "workspace_full"
        limit = (
            f"the workspace limit was reached ({fmt_bytes(limits.workspace_bytes)}, "
            f"{limits.workspace_files} files): writes were refused; delete files to free space"
        )
        rc = rc or 1
    stderr = stderr if limit is None else f"{stderr}[cove] {limit}\n"
    return ExecResult(
        stdout=stdout,
        stderr=stderr,
        return_code=rc,
        outcome=state,
        limit=limit,
        stdout_dropped_bytes=response.stdout_dropped + stdout_cut,
        stderr_dropped_bytes=response.stderr_dropped + stderr_cut,
        **common,
    ), False


def crashed(
    tool: str,
    outcome: GuestOutcome,
    changed: list[str],
    *,
    elapsed_ms: int,
    limits: Limits,
    detail: str,
) -> ExecResult:
    """A call whose answer the host could not turn into a result: the guest's crash."""
    bad = msgspec.structs.replace(outcome, response=None, trapped=Trapped.CRASH, detail=detail)
    return _trapped(bad, 0.0, limits, _common(tool, bad, changed, elapsed_ms))


def _common(
    tool: str, outcome: GuestOutcome, changed: list[str], elapsed_ms: int
) -> dict[str, Any]:
    files = tuple(FileRef(file_id=p, filename=p.rsplit("/", 1)[-1]) for p in changed)
    return {
        "tool": tool,
        "files": files,
        "execution_time_ms": elapsed_ms,
        "fuel_used": outcome.fuel_used,
        "peak_memory_bytes": outcome.memory_bytes,
    }


def _trapped(
    outcome: GuestOutcome, timeout_s: float, limits: Limits, common: dict[str, Any]
) -> ExecResult:
    trapped = outcome.trapped
    if trapped is Trapped.EXIT:
        code = outcome.exit_code if outcome.exit_code is not None else 1
        return ExecResult(
            stdout="",
            stderr=f"[cove] the interpreter exited with status {code}; {RESET_NOTE}\n",
            return_code=code,
            outcome="exit",
            reset=True,
            **common,
        )
    state: Outcome
    if trapped is Trapped.TIMEOUT:
        state, rc = "timeout", 124
        limit = f"execution exceeded the {_fmt_s(timeout_s)} time limit and was stopped"
    elif trapped is Trapped.OUT_OF_FUEL:
        state, rc = "out_of_fuel", 124
        limit = f"execution used up its fuel budget of {limits.fuel} units and was stopped"
    elif trapped is Trapped.STACK_OVERFLOW:
        state, rc = "stack_overflow", 1
        limit = "execution overflowed the interpreter's stack (recursion too deep)"
    else:
        state, rc = "crash", 1
        first_line = outcome.detail.splitlines()[0] if outcome.detail else "trap"
        limit = f"the interpreter crashed ({first_line})"
    return ExecResult(
        stdout="",
        stderr=f"[cove] {limit}; {RESET_NOTE}\n",
        return_code=rc,
        outcome=state,
        reset=True,
        limit=limit,
        **common,
    )


_NESTED_TRAPS = {
    Trapped.TIMEOUT: "python: killed: the call's time limit was reached",
    Trapped.OUT_OF_FUEL: "python: killed: the fuel budget was used up",
    Trapped.STACK_OVERFLOW: "python: the interpreter's stack overflowed",
}


def program_reply(outcome: GuestOutcome, max_output_bytes: int) -> protocol.ProgramReply:
    """A nested interpreter's outcome as the shell's python command reports it."""
    if outcome.trapped is Trapped.EXIT:
        code = outcome.exit_code if outcome.exit_code is not None else 1
        return protocol.ProgramReply(stdout="", stderr="", return_code=code)
    if outcome.trapped is not None:
        words = _NESTED_TRAPS.get(
            outcome.trapped, f"python: the interpreter crashed ({outcome.detail[:200]})"
        )
        return protocol.ProgramReply(stdout="", stderr=words + "\n", return_code=137)
    try:
        response = protocol.decode_response(outcome.response or b"")
    except msgspec.DecodeError:
        response = protocol.GuestResponse(
            error="the nested interpreter returned an unreadable response"
        )
    if response.error is not None:
        return protocol.ProgramReply(
            stdout="", stderr=f"python: {response.error[:200]}\n", return_code=1
        )
    stdout, _ = bounded(response.stdout, max_output_bytes)
    stderr, _ = bounded(response.stderr, max_output_bytes)
    if outcome.interrupted:
        stderr += "python: stopped: the call's time limit was reached\n"
        return protocol.ProgramReply(stdout=stdout, stderr=stderr, return_code=124)
    return protocol.ProgramReply(stdout=stdout, stderr=stderr, return_code=response.return_code)

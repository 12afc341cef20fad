"""The guest half of the host↔guest protocol (the host half, with the full description, is
runtime/cove/_protocol.py; tests/guest/test_protocol.py round-trips every request).

Calls in: `handle` (the driver) receives one JSON object tagged by "op" — `EXEC` {code},
`EDIT` {command, path, file_text?, old_str?, new_str?, insert_line?, view_range?}, `BASH`
{command}, `SCRIPT` {argv, cwd, env, stdin_b64}, `PING`, `WARM_UP` (a spare's first request:
the exec path once, counted nowhere), `RESEED` (fresh randomness, for a forked session) and
`CLOSE_FILES` (flush and close model code's open files, before a session is carried across a
restart) — each with an optional "max_output_bytes", and answers with `response(...)` or
`error(...)`.

Calls out: `python_request` is what the shell's `python` command hands `_cove.host_call`
(op `HOST_PYTHON`); the host answers {stdout, stderr, return_code} or {error}.
"""

import base64
import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

EXEC, EDIT, BASH, SCRIPT, PING = "exec", "edit", "bash", "script", "ping"
RESEED, CLOSE_FILES, WARM_UP = "reseed", "close_files", "warm_up"
HOST_ECHO, HOST_PYTHON = "echo", "python"

DEFAULT_MAX_OUTPUT = 1 << 20


def decode(request: bytes) -> dict[str, Any]:
    """A request's JSON bytes as a dict."""
    decoded: dict[str, Any] = json.loads(request)
    return decoded


def encode(message: Mapping[str, Any]) -> bytes:
    """A response (or host request) as JSON bytes; text that is not valid Unicode is replaced."""
    return json.dumps(message, ensure_ascii=False).encode("utf-8", "replace")


def max_output(request: Mapping[str, Any]) -> int:
    """Bytes kept per stream for this request."""
    return int(request.get("max_output_bytes", DEFAULT_MAX_OUTPUT))


class Captured(Protocol):
    """A bounded stream as a response reports it (`capture.BoundedText`)."""

    dropped: int

    def getvalue(self) -> str: ...


def response(
    out: Captured, err: Captured, return_code: int, exc_type: str | None = None
) -> dict[str, Any]:
    """The answer to a call: two bounded streams (`BoundedText`), the status, and the name of an
    uncaught exception."""
    return {
        "stdout": out.getvalue(),
        "stderr": err.getvalue(),
        "return_code": return_code,
        "stdout_dropped": out.dropped,
        "stderr_dropped": err.dropped,
        "exc_type": exc_type,
    }


def error(message: str) -> dict[str, Any]:
    """The answer when the driver itself failed (the host resets the interpreter)."""
    return {"error": message}


def python_request(argv: Sequence[str], cwd: str, env: Mapping[str, str], stdin: bytes) -> bytes:
    """The host call that runs `python ARGV...` in a fresh interpreter."""
    return encode(
        {
            "op": HOST_PYTHON,
            "argv": list(argv),
            "cwd": cwd,
            "env": dict(env),
            "stdin_b64": base64.b64encode(stdin).decode(),
        }
    )

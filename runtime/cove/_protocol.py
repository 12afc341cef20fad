"""The host↔guest protocol: everything that crosses into the interpreter and back.

The wasm boundary itself is declared here too: the reactor's exports the host calls
(`EXPORTS`, `OPTIONAL_EXPORTS`), its imports the host defines (`IMPORTS`) and their caps, the
bounds of housekeeping requests, and the default output bound.

Calls in (host → guest). The host writes one JSON request into the buffer `cove_buffer(n)`
returns and calls `cove_call(n, bytes_left, files_left) -> i64`:

    GuestRequest = ExecRequest | EditRequest | BashRequest | PythonRequest | PingRequest
                   | WarmUpRequest | ReseedRequest | CloseFilesRequest
                   (a union tagged by "op": exec, edit, bash, script, ping, warm_up, reseed,
                   close_files)

The i64 packs where the answer is (`unpack_call_result`); the answer is a `GuestResponse`.
The guest half is `cove_guest.driver` (python-wasm/guest), which dispatches on the same op
names; `tests/guest/test_protocol.py` round-trips every request through it natively.

Calls out (guest → host). Guest code's one way to the host is `_cove.host_call(bytes) ->
bytes` (imports `cove.host_call` / `cove.host_reply`, routed by `_hostcall.py`):

    HostRequest = EchoRequest | RunPythonRequest   (tagged by "op": echo, python)

answered by an `EchoReply`, a `ProgramReply` (a nested interpreter's output) or an
`ErrorReply`.

Everything the guest sends is untrusted: `GuestResponse` bounds every field, and a response
that does not decode is the guest's crash, never the host's error.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = [
    "DEFAULT_MAX_OUTPUT_BYTES",
    "EXPORTS",
    "HOST_OPERATIONS",
    "HOUSEKEEPING_RESPONSE_BYTES",
    "HOUSEKEEPING_S",
    "IMPORTS",
    "MAX_HOST_REPLY_BYTES",
    "MAX_HOST_REQUEST_BYTES",
    "OPTIONAL_EXPORTS",
    "QUOTA_HIT",
    "BashRequest",
    "CloseFilesRequest",
    "ClosedFiles",
    "EchoReply",
    "EchoRequest",
    "EditRequest",
    "ErrorReply",
    "ExecRequest",
    "GuestRequest",
    "GuestResponse",
    "HostRequest",
    "PingRequest",
    "ProgramReply",
    "PythonRequest",
    "ReseedRequest",
    "RunPythonRequest",
    "WarmUpRequest",
    "decode_closed_files",
    "decode_host_request",
    "decode_response",
    "encode",
    "max_response_bytes",
    "operation_of",
    "unpack_call_result",
]

# -- the wasm boundary -------------------------------------------------------------------------

# A function's wasm signature: (parameter types, result type or None).
Signature = tuple[tuple[str, ...], str | None]

EXPORTS: dict[str, Signature] = {
    "cove_buffer": (("i32",), "i32"),  # a buffer of n bytes for the request; its address
    "cove_call": (("i32", "i64", "i64"), "i64"),  # (n, bytes_left, files_left) -> packed answer
    "cove_interrupt": ((), "i32"),  # the soft deadline: raise TimeLimitExceeded at the next check
    "cove_open_files": ((), "i32"),  # descriptors model code holds open
}
"""The reactor's exports every call needs (besides `memory` and `__stack_pointer`)."""

OPTIONAL_EXPORTS: dict[str, Signature] = {
    "cove_limits": (("i32", "i32"), None),  # (max open files, max directory depth)
    "cove_quota_refresh": (("i64", "i64"), "i64"),  # a nested python's quota, mid-call
}
"""Exports used when the artifact has them."""

IMPORTS: dict[tuple[str, str], Signature] = {
    ("cove", "host_call"): (("i32", "i32"), "i32"),  # (address, length) -> reply length or -1
    ("cove", "host_reply"): (("i32",), None),  # copy the reply to this address
}
"""The host functions the reactor imports (besides WASI)."""

# The largest request guest code may hand the host, and the largest reply the host gives back.
# A request over the cap is refused before anything is copied or decoded, so no host call costs
# the host more than a small multiple of these (the host decodes at most one request per
# worker thread at a time).
MAX_HOST_REQUEST_BYTES = 8 << 20
MAX_HOST_REPLY_BYTES = 64 << 20

DEFAULT_MAX_OUTPUT_BYTES = 1 << 20
"""Bytes kept per stream when a request names no bound (the guest's `DEFAULT_MAX_OUTPUT` and
`Limits.max_output_bytes`' default are the same; tests/runtime/test_protocol.py)."""

HOUSEKEEPING_S = 2.0
"""The most a housekeeping request (a spare's warm-up, a fork's reseed, closing files before a
restart) may take, with no grace period. Each takes milliseconds; guest memory is the model's
own, though, so only this bound holds."""

HOUSEKEEPING_RESPONSE_BYTES = 1 << 16
"""The longest answer to a housekeeping request the host reads."""


def max_response_bytes(max_output_bytes: int) -> int:
    """The longest response a guest driver that bounds its streams can give: two streams of
    `max_output_bytes`, each byte escaped to at most 6 in JSON, plus room for the rest."""
    return 2 * 6 * max_output_bytes + (64 << 10)


# -- calls in ----------------------------------------------------------------------------------


class _Request(msgspec.Struct, frozen=True, kw_only=True, tag_field="op", omit_defaults=True):
    max_output_bytes: int = DEFAULT_MAX_OUTPUT_BYTES


class ExecRequest(_Request, frozen=True, kw_only=True, tag="exec"):
    """Run Python source in the session's namespace."""

    code: str


class EditRequest(_Request, frozen=True, kw_only=True, tag="edit"):
    """One text-editor command."""

    command: str
    path: str
    file_text: str | None = None
    old_str: str | None = None
    new_str: str | None = None
    insert_line: int | None = None
    view_range: list[int] | None = None


class BashRequest(_Request, frozen=True, kw_only=True, tag="bash"):
    """A command line for the session's shell."""

    command: str


class PythonRequest(_Request, frozen=True, kw_only=True, tag="script"):
    """`python ARGV...` in a fresh interpreter (the shell's python command): a
    `RunPythonRequest`'s program, run. The four fields are declared in both (a shared base
    would need a second struct base, which msgspec refuses, or a nested object, which would
    change the wire); tests/runtime/test_protocol.py keeps them the same."""

    argv: list[str]
    cwd: str = "/workspace"
    env: dict[str, str] = msgspec.field(default_factory=dict[str, str])
    stdin_b64: str = ""


class PingRequest(_Request, frozen=True, kw_only=True, tag="ping"):
    """Is the driver there."""


class WarmUpRequest(_Request, frozen=True, kw_only=True, tag="warm_up"):
    """A spare's first request: the exec path once, in a namespace of its own and counted
    nowhere (the session's first cell is still `<cell-1>`), so what a new interpreter does
    lazily on its first call is done before that call."""


class ReseedRequest(_Request, frozen=True, kw_only=True, tag="reseed"):
    """Fresh randomness (`random`, numpy's global state): a forked session's first call."""


class CloseFilesRequest(_Request, frozen=True, kw_only=True, tag="close_files"):
    """Flush and close the files model code holds open (before a session is carried across a
    restart: the new interpreter's descriptor table starts empty). Answered by `ClosedFiles`."""


GuestRequest = (
    ExecRequest
    | EditRequest
    | BashRequest
    | PythonRequest
    | PingRequest
    | WarmUpRequest
    | ReseedRequest
    | CloseFilesRequest
)

_ReturnCode = Annotated[int, msgspec.Meta(ge=-(2**31), lt=2**31)]
_Count = Annotated[int, msgspec.Meta(ge=0, lt=2**62)]


class GuestResponse(msgspec.Struct, frozen=True):
    """The guest's answer. Guest code can forge it, so every field is bounded.

    Attributes:
        stdout, stderr: What the call wrote (each already bounded by the guest's driver).
        return_code: The call's status.
        stdout_dropped, stderr_dropped: Bytes the guest cut from each stream.
        exc_type: The name of an uncaught exception, or None.
        error: Set when the driver itself failed (the interpreter is then reset).
    """

    stdout: str = ""
    stderr: str = ""
    return_code: _ReturnCode = 0
    stdout_dropped: _Count = 0
    stderr_dropped: _Count = 0
    exc_type: Annotated[str, msgspec.Meta(max_length=200)] | None = None
    error: str | None = None


class ClosedFiles(msgspec.Struct, frozen=True):
    """The answer to `CloseFilesRequest`: how many file objects were closed."""

    closed: Annotated[int, msgspec.Meta(ge=0)] = 0


QUOTA_HIT = 1 << 31
"""Bit 31 of the low word of `cove_call`'s result: a write hit the workspace quota."""


def unpack_call_result(packed: int) -> tuple[int, int, bool]:
    """`cove_call`'s i64 as (response address, response length, quota hit).

    A negative value (-1) means the guest's driver failed; callers check that first.
    """
    start, low = (packed >> 32) & 0xFFFFFFFF, packed & 0xFFFFFFFF
    return start, low & (QUOTA_HIT - 1), bool(low & QUOTA_HIT)


# -- calls out ---------------------------------------------------------------------------------


class EchoRequest(msgspec.Struct, frozen=True, tag_field="op", tag="echo"):
    """Answer `data` back (a health check of the channel). Kept as raw JSON, never decoded
    into objects: the host's cost is a scan of its bytes, whatever their shape."""

    data: msgspec.Raw = msgspec.Raw(b"null")


class RunPythonRequest(msgspec.Struct, frozen=True, tag_field="op", tag="python"):
    """Run `python ARGV...` in a fresh interpreter on the same workspace."""

    argv: list[str]
    cwd: str = "/workspace"
    env: dict[str, str] = msgspec.field(default_factory=dict[str, str])
    stdin_b64: str = ""


HostRequest = EchoRequest | RunPythonRequest
HOST_OPERATIONS = frozenset({"echo", "python"})


class _Operation(msgspec.Struct):
    op: str


_operation_decoder = msgspec.json.Decoder(_Operation)


def operation_of(data: bytes) -> str | None:
    """The "op" a host request names, if it names one (to say which is unknown)."""
    try:
        return _operation_decoder.decode(data).op
    except msgspec.DecodeError:
        return None


class EchoReply(msgspec.Struct, frozen=True):
    echo: msgspec.Raw
    ok: bool = True


class ProgramReply(msgspec.Struct, frozen=True):
    """What a program run for the guest printed, and its status."""

    stdout: str
    stderr: str
    return_code: int


class ErrorReply(msgspec.Struct, frozen=True):
    """The host refused or could not do what was asked."""

    error: str


# -- encoding ----------------------------------------------------------------------------------

_encoder = msgspec.json.Encoder()
_response_decoder = msgspec.json.Decoder(GuestResponse)
_closed_files_decoder = msgspec.json.Decoder(ClosedFiles)
_host_request_decoder = msgspec.json.Decoder(HostRequest)


def encode(message: GuestRequest | EchoReply | ProgramReply | ErrorReply) -> bytes:
    """A message as JSON bytes.

    Raises:
        UnicodeEncodeError: a string is not valid Unicode text (a lone surrogate).
    """
    return _encoder.encode(message)


def decode_response(data: bytes) -> GuestResponse:
    """The guest's answer.

    Raises:
        msgspec.DecodeError: not a well-formed, in-bounds response (the guest's fault).
    """
    return _response_decoder.decode(data)


def decode_closed_files(data: bytes) -> ClosedFiles:
    """The guest's answer to `CloseFilesRequest`.

    Raises:
        msgspec.DecodeError: not a well-formed answer (the guest's fault).
    """
    return _closed_files_decoder.decode(data)


def decode_host_request(data: bytes) -> HostRequest:
    """A request guest code made through `_cove.host_call`.

    Raises:
        msgspec.DecodeError: malformed, or an operation the host does not offer.
    """
    return _host_request_decoder.decode(data)

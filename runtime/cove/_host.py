"""What guest code may ask of the host through `_cove.host_call`: its services.

`echo` answers its data back (a check of the channel). `python` (the shell's python command,
and `subprocess` running python) runs `python ARGV...` in a fresh interpreter from the snapshot
on the same workspace, within what is left of the calling call's deadline, fuel and memory:
the session's limits hold whatever runs inside it, and nested work is charged to the caller.
Nothing else is offered; anything else is refused with a reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import msgspec

from . import _protocol as protocol
from ._errors import InterpreterError
from ._guest import Guest
from ._hostcall import HostCall
from ._results import fmt_bytes, program_reply
from ._settings import Limits
from ._workspace import Workspace

__all__ = ["HostServices"]


class HostServices:
    """One session's host services, for the call running in it.

    `new_guest(memory_bytes)` makes a fresh interpreter on the session's workspace.
    """

    def __init__(
        self, workspace: Workspace, limits: Limits, new_guest: Callable[[int], Guest]
    ) -> None:
        self._workspace = workspace
        self._limits = limits
        self._new_guest = new_guest
        # The memory limit of each interpreter running in the current call, outermost first:
        # a nested `python` gets what its caller leaves of the session's limit.
        self._memory_limits: list[int] = []

    def start_call(self) -> None:
        """A call starts in the session's own (outermost) interpreter."""
        self._memory_limits = [self._limits.memory_bytes]

    def __call__(self, call: HostCall) -> bytes:
        """Answer one host call (JSON in, JSON out); never raises for what the guest sent."""
        try:
            request = protocol.decode_host_request(call.request)
        except msgspec.DecodeError as exc:
            op = protocol.operation_of(call.request)
            if op is not None and op not in protocol.HOST_OPERATIONS:
                return _error(f"unknown host operation {op[:100]!r}")
            return _error(f"malformed request: {exc}")
        if isinstance(request, protocol.EchoRequest):
            return protocol.encode(protocol.EchoReply(echo=request.data))
        return self._python(request, call)

    def _python(self, spec: protocol.RunPythonRequest, call: HostCall) -> bytes:
        limits = self._limits
        if len(self._memory_limits) > limits.max_nested_python:
            return _error(f"python nested more than {limits.max_nested_python} levels deep")
        remaining = call.deadline - time.monotonic()
        if remaining <= 0:
            return _error("no time left in this call")
        memory_left = self._memory_limits[-1] - call.memory_bytes
        request = protocol.PythonRequest(
            argv=spec.argv,
            cwd=spec.cwd,
            env=spec.env,
            stdin_b64=spec.stdin_b64,
            max_output_bytes=limits.max_output_bytes,
        )
        # The quota by the disk now (the caller's writes so far included), taken off the
        # caller's orphans; the nested interpreter may grow the workspace by what is left.
        bytes_left, files_left = self.quota_left()
        if call.refresh_quota is not None:
            bytes_left = max(0, call.refresh_quota(bytes_left, files_left))
        try:
            guest = self._new_guest(memory_left)
        except InterpreterError:
            return _error(
                f"not enough memory left for another interpreter ({fmt_bytes(max(0, memory_left))}"
                f" of the session's {fmt_bytes(limits.memory_bytes)} limit)"
            )
        self._memory_limits.append(memory_left)
        try:
            outcome = guest.call(
                protocol.encode(request),
                timeout_s=remaining,
                fuel=call.fuel_left,
                bytes_left=bytes_left,
                files_left=files_left,
                max_response_bytes=protocol.max_response_bytes(limits.max_output_bytes),
                host=self,
                deadline=call.deadline,
            )
        finally:
            self._memory_limits.pop()
            guest.close()
            # What it wrote is the caller's to carry: its quota by the disk again.
            if call.refresh_quota is not None:
                call.refresh_quota(*self.quota_left())
        # Nested work is the caller's work: it counts against the caller's fuel.
        call.fuel_spent = outcome.fuel_used or 0
        return protocol.encode(program_reply(outcome, limits.max_output_bytes))

    def quota_left(self) -> tuple[int, int]:
        """Bytes and entries the workspace may still grow by, by the host's count now."""
        usage = self._workspace.usage()
        limits = self._limits
        return (
            max(0, limits.workspace_bytes - usage.bytes),
            max(0, limits.workspace_files - usage.files),
        )


def _error(message: str) -> bytes:
    return protocol.encode(protocol.ErrorReply(error=message))

"""The guest's one way to the host: `_cove.host_call` (cove_driver.c), used by the shell's
`python` command to run a fresh interpreter."""

import json
import os
from typing import Protocol

from cove_guest import protocol


class _Sink(Protocol):
    def write(self, data: str, /) -> object: ...


class _Context(Protocol):
    """What of the shell's `Context` the command uses."""

    @property
    def env(self) -> dict[str, str]: ...

    @property
    def stdin(self) -> bytes: ...

    @property
    def out(self) -> _Sink: ...

    @property
    def err(self) -> _Sink: ...


class GuestHost:
    """What the shell's `python` command calls: the host starts a fresh interpreter."""

    def python(self, ctx: _Context, args: list[str]) -> int:
        # `_cove` is the builtin module cove_driver.c provides; it exists only inside the guest.
        import _cove

        request = protocol.python_request(args, os.getcwd(), ctx.env, ctx.stdin)
        try:
            reply = json.loads(_cove.host_call(request))
        except (OSError, ValueError) as exc:
            ctx.err.write(f"python: cannot start an interpreter: {exc}\n")
            return 126
        if "error" in reply:
            ctx.err.write(f"python: {reply['error']}\n")
            return 126
        ctx.out.write(reply.get("stdout", ""))
        ctx.err.write(reply.get("stderr", ""))
        return int(reply.get("return_code", 1))

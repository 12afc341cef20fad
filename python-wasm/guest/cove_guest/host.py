"""The guest's one way to the host: `_cove.host_call` (cove_driver.c), used by the shell's
`python` command to run a fresh interpreter."""

import base64
import json
import os


class GuestHost:
    """What the shell's `python` command calls: the host starts a fresh interpreter."""

    def python(self, ctx, args):
        # `_cove` is the builtin module cove_driver.c provides; it exists only inside the guest.
        import _cove

        request = {
            "op": "python",
            "argv": list(args),
            "cwd": os.getcwd(),
            "env": ctx.env,
            "stdin_b64": base64.b64encode(ctx.stdin).decode(),
        }
        try:
            reply = json.loads(_cove.host_call(json.dumps(request).encode()))
        except (OSError, ValueError) as exc:
            ctx.err.write(f"python: cannot start an interpreter: {exc}\n")
            return 126
        if "error" in reply:
            ctx.err.write(f"python: {reply['error']}\n")
            return 126
        ctx.out.write(reply.get("stdout", ""))
        ctx.err.write(reply.get("stderr", ""))
        return int(reply.get("return_code", 1))

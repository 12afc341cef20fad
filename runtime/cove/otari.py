"""Cove in-process behind Otari: `CoveSandbox` has the duck-typed surface of Otari's
`SandboxBackend`, for gateways that embed Cove instead of calling it over HTTP.

    async with cove.otari.CoveSandbox(pool) as sandbox:
        text = await sandbox.call_tool(name, arguments)
"""

from ._adapter import CoveSandbox

__all__ = ["CoveSandbox"]

"""An adapter with the duck-typed surface of Otari's `SandboxBackend`, for gateways that run
Cove in-process instead of over HTTP.

    async with CoveSandbox(pool) as sandbox:        # one session for one request
        tools = sandbox.openai_tools                 # advertise to the model
        if sandbox.owns_tool(name):
            text = await sandbox.call_tool(name, arguments)

`call_tool` flattens a result into labelled `stdout:` / `stderr:` / `return_code:` / `files:`
sections, prefixed with `[tool error] ` when the code failed, which is what a model reads.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from types import TracebackType
from typing import Any

from ._errors import CoveError
from ._pool import Pool
from ._session import Session
from ._settings import SessionOptions
from ._tools import CodeExecution, CodeExecutionInput, ExecResult

__all__ = ["CoveSandbox"]

TOOL_NAME = "code_execution"

_DESCRIPTION = (
    "Run Python 3.11 code in a persistent sandboxed interpreter. Variables and imports persist "
    "between calls; files live in /workspace (the working directory). The standard library is "
    "available; there is no network, and subprocess runs only the sandbox's own shell and "
    "python. Print what you want to see."
)


class CoveSandbox:
    """One Cove session leased for the duration of an `async with` block."""

    def __init__(
        self, pool: Pool, options: SessionOptions | None = None, *, purpose_hint: str | None = None
    ) -> None:
        self._pool = pool
        self._options = options
        self._purpose_hint = purpose_hint
        self._session: Session | None = None

    async def __aenter__(self) -> CoveSandbox:
        self._session = await self._pool.create_session(self._options)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        session, self._session = self._session, None
        if session is not None:
            await self._pool.destroy_session(session.session_id)

    @property
    def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("CoveSandbox is used outside its `async with` block")
        return self._session

    @property
    def openai_tools(self) -> list[dict[str, Any]]:
        """The tool definitions to advertise, in OpenAI's function-tool format."""
        return [
            {
                "type": "function",
                "function": {
                    "name": TOOL_NAME,
                    "description": _DESCRIPTION,
                    "parameters": {
                        "type": "object",
                        "properties": {
                            "code": {"type": "string", "description": "Python source to run."}
                        },
                        "required": ["code"],
                        "additionalProperties": False,
                    },
                },
            }
        ]

    def owns_tool(self, name: str) -> bool:
        """Whether `name` is a tool this sandbox runs."""
        return name == TOOL_NAME

    def purpose_hints(self) -> list[tuple[str, str]]:
        """(tool name, hint) pairs telling the model what the tool is for."""
        hint = self._purpose_hint or "computation, data analysis and file processing in Python"
        return [(TOOL_NAME, hint)]

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | str) -> str:
        """Run a tool call from the model and return the text the model reads.

        Malformed arguments and unknown tools come back as `[tool error] ...` text (the model
        can correct itself); nothing is raised for them.
        """
        if not self.owns_tool(name):
            return f"[tool error] unknown tool {name!r}; the available tool is {TOOL_NAME!r}"
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments)
            except ValueError as exc:
                return f"[tool error] arguments are not valid JSON: {exc}"
        code = arguments.get("code") if isinstance(arguments, Mapping) else None
        if not isinstance(code, str) or not code.strip():
            return "[tool error] the `code` argument must be a non-empty string"
        try:
            result = await self.session.execute(CodeExecution(input=CodeExecutionInput(code=code)))
        except CoveError as exc:
            return f"[tool error] {exc}"
        return flatten(result)


def flatten(result: ExecResult) -> str:
    """The labelled text form of a result that a tool loop hands back to the model."""
    text = (
        f"stdout:\n{result.stdout.removesuffix(chr(10))}\n"
        f"stderr:\n{result.stderr.removesuffix(chr(10))}\n"
        f"return_code: {result.return_code}\n"
    )
    if result.files:
        text += "files:\n" + "".join(f"- /workspace/{f.file_id}\n" for f in result.files)
    return ("[tool error] " + text) if result.return_code != 0 else text

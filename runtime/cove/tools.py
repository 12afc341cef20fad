"""The Otari code-execution contract's tool calls: the request shapes a gateway sends.

    call = cove.tools.decode_tool_call(request_body)    # validated once, here
    result = await session.execute(call)

or build one in Python (validated when built):

    cove.tools.CodeExecution(input=cove.tools.CodeExecutionInput(code="print(1)"))

The contract is versioned on its own clock; its shapes live here, apart from the core runtime.
"""

from ._tools import (
    BashExecution,
    BashExecutionInput,
    CodeExecution,
    CodeExecutionInput,
    TextEditor,
    TextEditorInput,
    ToolCall,
    decode_tool_call,
)

__all__ = [
    "BashExecution",
    "BashExecutionInput",
    "CodeExecution",
    "CodeExecutionInput",
    "TextEditor",
    "TextEditorInput",
    "ToolCall",
    "decode_tool_call",
]

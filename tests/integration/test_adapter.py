"""The gateway adapter, driven the way a tool loop drives Otari's SandboxBackend."""

from __future__ import annotations

import json

import pytest

import cove

pytestmark = pytest.mark.anyio


async def test_adapter_driven_like_a_tool_loop(pool: cove.Pool) -> None:
    # What a model would send over a conversation, as the tool loop receives it.
    model_calls = [
        ("code_execution", json.dumps({"code": "import statistics\ndata = [3, 1, 4, 1, 5]"})),
        (
            "code_execution",
            {"code": "print(statistics.mean(data))\nopen('out.txt', 'w').write('x')"},
        ),
        ("code_execution", {"code": "data[10]"}),
        ("web_search", {"query": "x"}),
        ("code_execution", "{not json"),
        ("code_execution", {"code": ""}),
    ]
    async with cove.otari.CoveSandbox(pool, purpose_hint="maths") as sandbox:
        (tool,) = sandbox.openai_tools
        assert tool["function"]["name"] == "code_execution"
        assert tool["function"]["parameters"]["required"] == ["code"]
        assert sandbox.purpose_hints() == [("code_execution", "maths")]
        replies = []
        for name, arguments in model_calls:
            if sandbox.owns_tool(name) or name == "web_search":
                replies.append(await sandbox.call_tool(name, arguments))
        session_id = sandbox.session.session_id
        assert pool.get_session(session_id)
    with pytest.raises(cove.SessionNotFoundError):
        pool.get_session(session_id)

    first, second, third, unknown, bad_json, empty = replies
    assert first == "stdout:\n\nstderr:\n\nreturn_code: 0\n"
    assert second == "stdout:\n2.8\nstderr:\n\nreturn_code: 0\nfiles:\n- /workspace/out.txt\n"
    assert third.startswith("[tool error] stdout:\n\nstderr:\nTraceback")
    assert "IndexError: list index out of range" in third and third.endswith("return_code: 1\n")
    assert unknown.startswith("[tool error] unknown tool 'web_search'")
    assert bad_json.startswith("[tool error] arguments are not valid JSON")
    assert empty.startswith("[tool error] the `code` argument")

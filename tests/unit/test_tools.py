from __future__ import annotations

import pytest

import cove


def test_decode_code_execution_tolerates_unknown_fields() -> None:
    call = cove.decode_tool_call(
        b'{"tool": "code_execution", "input": {"code": "1", "future": 1}, "extra": true, "timeout_seconds": 5}'
    )
    assert isinstance(call, cove.CodeExecution)
    assert (call.input.code, call.timeout_seconds, call.tool_use_id) == ("1", 5, None)


def test_decode_text_editor() -> None:
    call = cove.decode_tool_call(
        b'{"tool": "text_editor_code_execution", "input": {"command": "view", "path": "a", "view_range": [1, 2]}}'
    )
    assert isinstance(call, cove.TextEditor)
    assert call.input.view_range == [1, 2]


def test_unknown_tool_is_its_own_error() -> None:
    with pytest.raises(cove.UnknownToolError, match="web_search"):
        cove.decode_tool_call(b'{"tool": "web_search", "input": {}}')


@pytest.mark.parametrize(
    "body",
    [
        b"{",
        b"[]",
        b'{"tool": "code_execution"}',
        b'{"tool": "code_execution", "input": {"code": ""}}',
        b'{"tool": "code_execution", "input": {"code": 5}}',
        b'{"tool": "code_execution", "input": {"code": "x"}, "timeout_seconds": -3}',
        b'{"tool": "code_execution", "input": {"code": "x"}, "timeout_seconds": 0}',
        b'{"tool": "text_editor_code_execution", "input": {"command": "delete", "path": "a"}}',
        b'{"tool": "text_editor_code_execution", "input": {"command": "create", "path": "a"}}',
        b'{"input": {"code": "x"}}',
        b"\xff\xfe",
    ],
)
def test_malformed_calls_are_invalid_requests(body: bytes) -> None:
    with pytest.raises(cove.InvalidRequestError):
        cove.decode_tool_call(body)


def test_session_limits_clamp_hints_and_keep_lower_ones() -> None:
    settings = cove.PoolSettings(ceilings=cove.Limits(idle_timeout_s=100, max_lifetime_s=1000))
    limits = settings.session_limits(cove.SessionOptions(idle_timeout_s=10_000, max_lifetime_s=50))
    assert (limits.idle_timeout_s, limits.max_lifetime_s) == (100, 50)
    with pytest.raises(cove.InvalidRequestError):
        settings.session_limits(cove.SessionOptions(idle_timeout_s=-5))


def test_pool_settings_refuse_nonsense() -> None:
    with pytest.raises(cove.InvalidRequestError):
        cove.PoolSettings(max_sessions=0)
    with pytest.raises(cove.InvalidRequestError):
        cove.PoolSettings(consume_fuel=False, defaults=cove.Limits(fuel=10))

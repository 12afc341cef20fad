from __future__ import annotations

import pytest

import cove


def test_decode_code_execution_tolerates_unknown_fields() -> None:
    call = cove.tools.decode_tool_call(
        b'{"tool": "code_execution", "input": {"code": "1", "future": 1}, "extra": true, "timeout_seconds": 5}'
    )
    assert isinstance(call, cove.tools.CodeExecution)
    assert (call.input.code, call.timeout_seconds, call.tool_use_id) == ("1", 5, None)


def test_decode_text_editor() -> None:
    call = cove.tools.decode_tool_call(
        b'{"tool": "text_editor_code_execution", "input": {"command": "view", "path": "a", "view_range": [1, 2]}}'
    )
    assert isinstance(call, cove.tools.TextEditor)
    assert call.input.view_range == [1, 2]


def test_unknown_tool_is_its_own_error() -> None:
    with pytest.raises(cove.UnknownToolError, match="web_search"):
        cove.tools.decode_tool_call(b'{"tool": "web_search", "input": {}}')


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
        cove.tools.decode_tool_call(body)


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


@pytest.mark.parametrize(
    ("fields", "missing"),
    [
        ({"command": "create"}, "file_text"),
        ({"command": "insert", "insert_line": 1}, "new_str"),
        ({"command": "view", "view_range": [1, 2, 3]}, "view_range"),
    ],
)
def test_text_editor_input_built_in_python_is_validated_when_built(
    fields: dict[str, object], missing: str
) -> None:
    # Session.execute takes calls built in Python too: they must not skip the per-command check.
    with pytest.raises(cove.InvalidRequestError, match=missing):
        cove.tools.TextEditorInput(path="a", **fields)  # type: ignore[arg-type]


def test_decoded_text_editor_missing_a_field_is_an_invalid_request_not_a_crash() -> None:
    body = b'{"tool": "text_editor_code_execution", "input": {"command": "insert", "path": "a"}}'
    with pytest.raises(cove.InvalidRequestError, match="insert_line, new_str"):
        cove.tools.decode_tool_call(body)


@pytest.mark.parametrize(
    ("name", "home"),
    [
        ("CodeExecution", "cove.tools"),
        ("decode_tool_call", "cove.tools"),
        ("CoveSandbox", "cove.otari"),
    ],
)
def test_moved_names_are_importable_from_cove_with_a_deprecation_warning(
    name: str, home: str
) -> None:
    with pytest.warns(DeprecationWarning, match=home):
        old = getattr(cove, name)
    assert old is getattr(cove.otari if home == "cove.otari" else cove.tools, name)


def test_retired_helpers_still_work_with_a_deprecation_warning() -> None:
    with pytest.warns(DeprecationWarning, match="result-block"):
        result_type = cove.result_type  # type: ignore[attr-defined]
    assert result_type("bash_code_execution") == "bash_code_execution_tool_result"
    with pytest.warns(DeprecationWarning, match="validated when it is built"):
        cove.validate_call  # type: ignore[attr-defined]  # noqa: B018
    with pytest.raises(AttributeError):
        cove.no_such_name  # type: ignore[attr-defined]  # noqa: B018

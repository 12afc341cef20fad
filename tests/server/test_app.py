"""The real app through Litestar's test client: statuses, shapes, limits, bad input."""

from __future__ import annotations

import pathlib
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

import cove
import cove_server
from cove_server._errors import STATUS, status_of

Client = TestClient[Any]


def code(source: str, **extra: Any) -> dict[str, Any]:
    return {"tool": "code_execution", "input": {"code": source}, **extra}


def test_every_cove_error_has_a_status() -> None:
    def walk(cls: type[cove.CoveError]) -> list[type[cove.CoveError]]:
        return [cls, *(c for sub in cls.__subclasses__() for c in walk(sub))]

    for cls in walk(cove.CoveError):
        assert any(base in STATUS for base in cls.__mro__), cls
    assert status_of(cove.SessionNotFoundError("x")) == 404
    assert status_of(cove.SessionBusyError("x", 3, retry_after_s=1)) == 503
    assert status_of(cove.UnknownToolError("x")) == 400
    assert status_of(cove.TooLargeError("x", 2, 1)) == 413
    assert status_of(cove.PathOutsideWorkspaceError("x", "y")) == 403


def test_session_lifecycle_and_handle(client: Client) -> None:
    response = client.post(
        "/sessions",
        json={
            "idle_timeout_seconds": 10**9,
            "max_lifetime_seconds": 60,
            "image": "whatever:1",
            "future_field": 1,
        },
    )
    assert response.status_code == 201
    handle = response.json()
    assert handle["max_lifetime_seconds"] == 60
    assert handle["idle_timeout_seconds"] == int(cove.PoolSettings().ceilings.idle_timeout_s)
    assert handle["created_at"] <= handle["last_activity_at"]
    sid = handle["session_id"]
    assert len(sid) >= 32
    assert client.delete(f"/sessions/{sid}").status_code == 204
    assert client.delete(f"/sessions/{sid}").status_code == 204
    assert client.delete("/sessions/never-existed").status_code == 204
    assert client.get(f"/sessions/{sid}/files/list").status_code == 404


def test_create_session_without_a_body(client: Client) -> None:
    assert client.post("/sessions").status_code == 201


def test_exec_result_block_envelope(client: Client, sid: str) -> None:
    response = client.post(
        f"/sessions/{sid}/exec",
        json=code("print('hi')\nopen('o.txt','w').write('x')", tool_use_id="toolu_1"),
    )
    assert response.status_code == 200
    body = response.json()
    assert body["tool_use_id"] == "toolu_1"
    block = body["result_block"]
    assert block["type"] == "code_execution_tool_result"
    assert block["tool_use_id"] == "toolu_1"
    assert block["content"] == {
        "type": "code_execution_result",
        "stdout": "hi\n",
        "stderr": "",
        "return_code": 0,
        "content": [{"type": "code_execution_output", "file_id": "o.txt", "filename": "o.txt"}],
    }
    assert body["outcome"] == "ok"
    assert isinstance(body["execution_time_ms"], int)
    fetched = client.get(
        f"/sessions/{sid}/files", params={"path": block["content"]["content"][0]["file_id"]}
    )
    assert fetched.content == b"x"


def test_generated_tool_use_id_has_the_reference_format(client: Client, sid: str) -> None:
    body = client.post(f"/sessions/{sid}/exec", json=code("1")).json()
    assert body["tool_use_id"].startswith("srvtoolu_")
    assert len(body["tool_use_id"]) == len("srvtoolu_") + 24
    int(body["tool_use_id"][9:], 16)


def test_failed_code_is_a_200_with_the_failure_in_the_payload(client: Client, sid: str) -> None:
    response = client.post(f"/sessions/{sid}/exec", json=code("raise KeyError('k')"))
    assert response.status_code == 200
    content = response.json()["result_block"]["content"]
    assert content["return_code"] == 1
    assert "KeyError: 'k'" in content["stderr"]
    assert "error" not in response.json()["result_block"]["content"]["type"]


def test_timeout_is_reported_in_words(client: Client, sid: str) -> None:
    response = client.post(
        f"/sessions/{sid}/exec", json=code("while True: pass", timeout_seconds=1)
    )
    assert response.status_code == 200
    body = response.json()
    assert body["outcome"] == "timeout"
    assert body["reset"] is False  # interrupted: the session's state is kept
    stderr = body["result_block"]["content"]["stderr"]
    assert "TimeLimitExceeded" in stderr
    assert "exceeded the 1 s time limit and was interrupted" in stderr
    assert body["result_block"]["content"]["return_code"] == 124


@pytest.mark.parametrize(
    ("tool", "block_type"),
    [
        (
            {"tool": "bash_code_execution", "input": {"command": "echo hi"}},
            "bash_code_execution_tool_result",
        ),
        (
            {
                "tool": "text_editor_code_execution",
                "input": {"command": "create", "path": "n.txt", "file_text": "x"},
            },
            "text_editor_code_execution_tool_result",
        ),
    ],
)
def test_block_type_follows_the_tool_kind(
    client: Client, sid: str, tool: dict[str, Any], block_type: str
) -> None:
    response = client.post(f"/sessions/{sid}/exec", json=tool)
    assert response.status_code == 200
    assert response.json()["result_block"]["type"] == block_type


@pytest.mark.parametrize(
    ("body", "status"),
    [
        (b"{not json", 422),
        (b"\xff\xfe\x00garbage", 422),
        (b'"just a string"', 422),
        (b"[]", 422),
        (b"", 422),
        (b'{"tool": "code_execution"}', 422),
        (b'{"tool": "code_execution", "input": {"code": ""}}', 422),
        (b'{"tool": "code_execution", "input": {"code": 42}}', 422),
        (b'{"tool": "code_execution", "input": {"code": "1"}, "timeout_seconds": -5}', 422),
        (b'{"tool": "code_execution", "input": {"code": "1"}, "timeout_seconds": "soon"}', 422),
        (b'{"tool": "code_execution", "input": {"code": "1"}, "timeout_seconds": 1e400}', 422),
        (b'{"tool": "web_search", "input": {"query": "x"}}', 400),
        (b'{"tool": 7, "input": {}}', 422),
        (
            b'{"tool": "text_editor_code_execution", "input": {"command": "str_replace", "path": "f"}}',
            422,
        ),
        (
            b'{"tool": "text_editor_code_execution", "input": {"command": "insert", "path": "f", "new_str": "x"}}',
            422,
        ),
        (
            b'{"tool": "text_editor_code_execution", "input": {"command": "view", "path": "f", "view_range": [1]}}',
            422,
        ),
        (b'{"tool": "text_editor_code_execution", "input": {"command": "rm", "path": "f"}}', 422),
        (b'{"tool": "code_execution", "input": {"code": "\\ud800"}}', 422),
    ],
)
def test_bad_exec_bodies_get_a_clear_4xx(
    client: Client, sid: str, body: bytes, status: int
) -> None:
    response = client.post(
        f"/sessions/{sid}/exec", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == status, response.text
    if status != 200:
        assert response.json()["detail"]


def test_unknown_session_is_404_everywhere(client: Client) -> None:
    assert client.post("/sessions/nope/exec", json=code("1")).status_code == 404
    assert client.get("/sessions/nope/files/list").status_code == 404
    assert client.get("/sessions/nope/files", params={"path": "a"}).status_code == 404
    assert client.post("/sessions/nope/files", files={"file": ("a", b"x")}).status_code == 404


def test_bad_create_bodies(client: Client) -> None:
    for body in (
        b"{",
        b'{"idle_timeout_seconds": -1}',
        b'{"idle_timeout_seconds": "x"}',
        b'{"max_lifetime_seconds": 0}',
        b"[1]",
    ):
        response = client.post("/sessions", content=body)
        assert response.status_code == 422, body


def test_body_over_the_limit_is_413(client: Client, sid: str) -> None:
    huge = b'{"tool": "code_execution", "input": {"code": "' + b"#" * (5 << 20) + b'"}}'
    response = client.post(f"/sessions/{sid}/exec", content=huge)
    assert response.status_code == 413


def test_code_over_the_request_limit_is_refused(
    client: Client, sid: str, server_settings: cove_server.ServerSettings
) -> None:
    limit = server_settings.pool.defaults.max_request_bytes
    response = client.post(f"/sessions/{sid}/exec", json=code("#" * (limit + 1)))
    assert response.status_code in (413, 422)


def test_files_put_list_get(client: Client, sid: str) -> None:
    put = client.post(
        f"/sessions/{sid}/files",
        files={"file": ("data.csv", b"a,b\n")},
        data={"path": "in/data.csv"},
    )
    assert put.status_code == 201
    assert put.json() == {"path": "in/data.csv", "size_bytes": 4}
    derived = client.post(f"/sessions/{sid}/files", files={"file": ("../../evil name.txt", b"x")})
    assert derived.json()["path"] == "evil name.txt"
    listing = client.get(f"/sessions/{sid}/files/list").json()["files"]
    assert [(f["path"], f["type"]) for f in listing] == [
        ("evil name.txt", "file"),
        ("in", "directory"),
    ]
    nested = client.get(f"/sessions/{sid}/files/list", params={"path": "in"}).json()["files"]
    assert nested[0]["path"] == "in/data.csv"
    assert nested[0]["mime_type"] == "text/csv"
    got = client.get(f"/sessions/{sid}/files", params={"path": "in/data.csv"})
    assert got.status_code == 200
    assert got.content == b"a,b\n"
    assert got.headers["content-type"].startswith("text/csv")
    assert client.get(f"/sessions/{sid}/files", params={"path": "in"}).status_code == 400
    assert client.get(f"/sessions/{sid}/files", params={"path": "missing"}).status_code == 404
    assert client.get(f"/sessions/{sid}/files/list", params={"path": "missing"}).status_code == 404


def test_upload_over_the_cap_is_413_and_nothing_is_written(client: Client, sid: str) -> None:
    response = client.post(
        f"/sessions/{sid}/files", files={"file": ("big.bin", b"x" * ((1 << 20) + 1))}
    )
    assert response.status_code == 413
    assert client.get(f"/sessions/{sid}/files/list").json()["files"] == []


@pytest.mark.parametrize(
    "path",
    ["../../etc/passwd", "/etc/passwd", "a/../../x", "..", "%2e%2e/%2e%2e/etc/passwd", "a\x00b"],
)
def test_path_tricks_are_403(client: Client, sid: str, path: str) -> None:
    from urllib.parse import unquote

    real = unquote(path)
    assert client.get(f"/sessions/{sid}/files", params={"path": real}).status_code == 403
    assert client.get(f"/sessions/{sid}/files/list", params={"path": real}).status_code == 403
    put = client.post(f"/sessions/{sid}/files", files={"file": ("x", b"x")}, data={"path": real})
    assert put.status_code == 403


def test_guest_symlink_is_refused_by_the_file_api(client: Client, sid: str) -> None:
    client.post(
        f"/sessions/{sid}/exec",
        json=code("import os\ntry:\n    os.symlink('..', 'up')\nexcept OSError:\n    pass"),
    )
    for entry in client.get(f"/sessions/{sid}/files/list").json()["files"]:
        assert client.get(
            f"/sessions/{sid}/files", params={"path": entry["path"] + "/x"}
        ).status_code in (403, 404)


def test_put_file_needs_multipart_with_a_file(client: Client, sid: str) -> None:
    assert client.post(f"/sessions/{sid}/files", content=b"raw").status_code == 422
    assert (
        client.post(
            f"/sessions/{sid}/files", data={"path": "a"}, files={"other": ("a", b"x")}
        ).status_code
        == 422
    )
    assert client.get(f"/sessions/{sid}/files").status_code == 422
    assert client.get(f"/sessions/{sid}/files", params={"path": ""}).status_code in (403, 422, 400)


def test_capacity_is_503_with_retry_after(client: Client) -> None:
    ids = [client.post("/sessions").json()["session_id"] for _ in range(4)]
    refused = client.post("/sessions")
    assert refused.status_code == 503
    assert refused.headers["retry-after"].isdigit()
    assert client.get("/ready").status_code == 503
    client.delete(f"/sessions/{ids[0]}")
    assert client.post("/sessions").status_code == 201


def test_unavailable_interpreter_is_503_with_the_configured_retry_after(
    server_settings: cove_server.ServerSettings,
) -> None:
    settings = msgspec.structs.replace(server_settings, unavailable_retry_after_s=7)
    # A pool the app does not own and nobody opened: no interpreter to run.
    app = cove_server.create_app(pool=cove.Pool(settings.pool), settings=settings)
    with TestClient(app) as c:
        refused = c.post("/sessions")
    assert refused.status_code == 503
    assert refused.json()["error"] == "InterpreterError"
    assert refused.headers["retry-after"] == "7"


def test_operations_endpoints(client: Client, sid: str) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    ready = client.get("/ready").json()
    assert ready["ready"] is True
    assert len(ready["artifact_sha256"]) == 64
    client.post(f"/sessions/{sid}/exec", json=code("print(1)"))
    client.post(f"/sessions/{sid}/exec", json=code("while True: pass", timeout_seconds=1))
    text = client.get("/metrics").text
    assert 'cove_calls_total{tool="code_execution",outcome="ok"} 1' in text
    assert 'cove_limits_fired_total{limit="timeout"} 1' in text
    assert "cove_sessions 1" in text
    assert (
        'cove_http_requests_total{method="POST",route="/sessions/{session_id}/exec",status="200"} 2'
        in text
    )


def test_unknown_route_and_method_are_json_4xx(client: Client) -> None:
    assert client.get("/nowhere").status_code == 404
    assert client.put("/sessions").status_code == 405


def test_bearer_token_guards_every_operation(
    server_settings: cove_server.ServerSettings, caplog: pytest.LogCaptureFixture
) -> None:
    token = "s3cret-token-value"
    settings = msgspec.structs.replace(server_settings, token=token)
    caplog.set_level("DEBUG")
    with TestClient(cove_server.create_app(settings=settings)) as c:
        good = {"Authorization": f"Bearer {token}"}
        for method, path in [
            ("post", "/sessions"),
            ("delete", "/sessions/x"),
            ("post", "/sessions/x/exec"),
            ("get", "/sessions/x/files/list"),
            ("get", "/sessions/x/files?path=a"),
            ("post", "/sessions/x/files"),
            ("get", "/metrics"),
        ]:
            for headers in (
                {},
                {"Authorization": "Bearer wrong"},
                {"Authorization": token},
                {"Authorization": f"Basic {token}"},
            ):
                response = c.request(method.upper(), path, headers=headers)
                assert response.status_code == 401, (method, path, headers)
                assert response.headers["www-authenticate"] == "Bearer"
        assert c.get("/health").status_code == 200
        sid = c.post("/sessions", headers=good).json()["session_id"]
        assert (
            c.post(f"/sessions/{sid}/exec", json=code("print(2)"), headers=good).status_code == 200
        )
    assert token not in caplog.text


def test_app_serves_a_pool_it_does_not_own(settings: cove.PoolSettings) -> None:
    import anyio

    async def main() -> None:
        async with cove.Pool(settings) as pool:
            app = cove_server.create_app(
                pool=pool, settings=cove_server.ServerSettings(pool=settings)
            )
            from litestar.testing import AsyncTestClient

            async with AsyncTestClient(app) as c:
                sid = (await c.post("/sessions")).json()["session_id"]
            # The app shut down; the pool (not the app's) still holds the session.
            assert pool.get_session(sid)

    anyio.run(main)


def test_shutdown_destroys_sessions_and_directories(
    server_settings: cove_server.ServerSettings,
) -> None:
    with TestClient(cove_server.create_app(settings=server_settings)) as c:
        for _ in range(3):
            sid = c.post("/sessions").json()["session_id"]
            c.post(f"/sessions/{sid}/exec", json=code("open('f','w').write('x')"))
    root = pathlib.Path(server_settings.pool.workspace_root or "")
    assert list(root.iterdir()) == []


def test_exec_is_served_on_the_fast_path_with_the_same_errors(
    server_settings: cove_server.ServerSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ExecuteToolCall skips Litestar's handler machinery (`ExecFastPath`), and its
    refusals are still the app's own responses."""
    from litestar.routes.http import HTTPRoute

    handled: list[str] = []
    handle = HTTPRoute.handle

    async def recording(self: HTTPRoute, scope: Any, receive: Any, send: Any) -> None:
        handled.append(scope["path"])
        await handle(self, scope, receive, send)

    monkeypatch.setattr(HTTPRoute, "handle", recording)
    with TestClient(cove_server.create_app(settings=server_settings)) as c:
        sid = c.post("/sessions", json={}).json()["session_id"]
        ok = c.post(f"/sessions/{sid}/exec", json=code("print(6 * 7)"))
        assert ok.status_code == 200
        assert ok.headers["content-type"] == "application/json"
        assert ok.json()["result_block"]["content"]["stdout"] == "42\n"
        assert handled == ["/sessions"]  # the create went through Litestar; the exec did not
        missing = c.post("/sessions/no-such-session/exec", json=code("1"))
        assert (missing.status_code, missing.json()["error"]) == (404, "SessionNotFoundError")
        malformed = c.post(f"/sessions/{sid}/exec", content=b"{not json")
        assert malformed.status_code == 422
        assert "malformed JSON" in malformed.json()["detail"]
        assert c.get(f"/sessions/{sid}/exec").status_code == 405
        assert handled == ["/sessions"]


def test_metric_label_values_are_escaped_as_the_exposition_format_says() -> None:
    from cove_server._metrics import _labels  # pyright: ignore[reportPrivateUsage]

    assert _labels((("route", 'a\\b"c\nd'), ("x", "y"))) == '{route="a\\\\b\\"c\\nd",x="y"}'
    assert _labels(()) == ""

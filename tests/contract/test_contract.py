"""The contract suite: a real server on loopback, every operation and every error status, every
response body validated against the contract's OpenAPI schemas.

It covers the ground of Otari's conformance checker (lease, print, echo, text-editor create then
view, unknown tool, upload/list/download, ../../etc/passwd, delete twice) and more.
"""

from __future__ import annotations

import email.utils
import pathlib
import time

import httpx
import pytest

from tests.support.contract import Contract
from tests.support.servers import Server, start_server, stop_server


def exec_call(
    http: httpx.Client, contract: Contract, sid: str, body: dict[str, object]
) -> dict[str, object]:
    response = http.post(f"/sessions/{sid}/exec", json=body)
    assert response.status_code == 200, response.text
    assert 200 in contract.statuses("/sessions/{session_id}/exec", "post")
    payload = response.json()
    contract.validate("ExecResponse", payload)
    return dict(payload)


def lease(http: httpx.Client, contract: Contract) -> str:
    response = http.post("/sessions", json={})
    assert response.status_code == 201
    contract.validate("SessionHandle", response.json())
    return str(response.json()["session_id"])


def test_conformance_checker_walk(http: httpx.Client, contract: Contract) -> None:
    sid = lease(http, contract)

    printed = exec_call(
        http, contract, sid, {"tool": "code_execution", "input": {"code": "print('conformance')"}}
    )
    assert printed["result_block"]["content"]["stdout"] == "conformance\n"  # type: ignore[index]

    echoed = exec_call(
        http,
        contract,
        sid,
        {"tool": "bash_code_execution", "input": {"command": "echo conformance"}},
    )
    assert echoed["result_block"]["type"] == "bash_code_execution_tool_result"  # type: ignore[index]

    created = exec_call(
        http,
        contract,
        sid,
        {
            "tool": "text_editor_code_execution",
            "input": {"command": "create", "path": "hello.txt", "file_text": "hi there"},
        },
    )
    assert created["result_block"]["content"]["return_code"] == 0  # type: ignore[index]
    viewed = exec_call(
        http,
        contract,
        sid,
        {"tool": "text_editor_code_execution", "input": {"command": "view", "path": "hello.txt"}},
    )
    assert "hi there" in viewed["result_block"]["content"]["stdout"]  # type: ignore[index]

    unknown = http.post(f"/sessions/{sid}/exec", json={"tool": "quantum_execution", "input": {}})
    assert unknown.status_code in (400, 422)
    contract.validate("Error", unknown.json())

    put = http.post(f"/sessions/{sid}/files", files={"file": ("upload.txt", b"uploaded bytes")})
    assert put.status_code == 201
    contract.validate("FileUploadResult", put.json())
    listing = http.get(f"/sessions/{sid}/files/list")
    assert listing.status_code == 200
    contract.validate("FileList", listing.json())
    assert {f["path"] for f in listing.json()["files"]} >= {"hello.txt", "upload.txt"}
    got = http.get(f"/sessions/{sid}/files", params={"path": "upload.txt"})
    assert got.status_code == 200
    assert got.content == b"uploaded bytes"

    escape = http.get(f"/sessions/{sid}/files", params={"path": "../../etc/passwd"})
    assert escape.status_code == 403
    contract.validate("Error", escape.json())

    assert http.delete(f"/sessions/{sid}").status_code == 204
    assert http.delete(f"/sessions/{sid}").status_code == 204


def test_otari_gateway_client_flow(server: Server, contract: Contract) -> None:
    # As Otari drives a held session: {} on create, timeout_seconds 60 with a 70 s read
    # timeout, ListFiles to confirm the session is still held, then DELETE.
    with httpx.Client(base_url=server.base_url, timeout=httpx.Timeout(10, read=70)) as otari:
        created = otari.post("/sessions", json={})
        assert created.status_code == 201
        handle = created.json()
        contract.validate("SessionHandle", handle)
        assert handle["idle_timeout_seconds"] > 0
        sid = handle["session_id"]
        first = otari.post(
            f"/sessions/{sid}/exec",
            json={"tool": "code_execution", "input": {"code": "x = 20"}, "timeout_seconds": 60},
        )
        assert first.status_code == 200
        contract.validate("ExecResponse", first.json())
        held = otari.get(f"/sessions/{sid}/files/list")
        assert held.status_code == 200
        contract.validate("FileList", held.json())
        resumed = otari.post(
            f"/sessions/{sid}/exec",
            json={
                "tool": "code_execution",
                "input": {"code": "print(x + 22)"},
                "timeout_seconds": 60,
            },
        )
        assert resumed.json()["result_block"]["content"]["stdout"] == "42\n"
        assert otari.delete(f"/sessions/{sid}").status_code == 204
        gone = otari.get(f"/sessions/{sid}/files/list")
        assert gone.status_code == 404
        contract.validate("Error", gone.json())


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "contract_path"),
    [
        (
            "post",
            "/sessions/{sid}/exec",
            {"content": b"{broken"},
            422,
            "/sessions/{session_id}/exec",
        ),
        (
            "post",
            "/sessions/missing/exec",
            {"json": {"tool": "code_execution", "input": {"code": "1"}}},
            404,
            "/sessions/{session_id}/exec",
        ),
        ("get", "/sessions/missing/files/list", {}, 404, "/sessions/{session_id}/files/list"),
        (
            "get",
            "/sessions/{sid}/files/list",
            {"params": {"path": "../x"}},
            403,
            "/sessions/{session_id}/files/list",
        ),
        (
            "get",
            "/sessions/{sid}/files",
            {"params": {"path": "nope.txt"}},
            404,
            "/sessions/{session_id}/files",
        ),
        (
            "get",
            "/sessions/{sid}/files",
            {"params": {"path": "."}},
            400,
            "/sessions/{session_id}/files",
        ),
        (
            "get",
            "/sessions/{sid}/files",
            {"params": {"path": "/etc/passwd"}},
            403,
            "/sessions/{session_id}/files",
        ),
        (
            "post",
            "/sessions/{sid}/files",
            {"files": {"file": ("big", b"x" * ((1 << 20) + 1))}},
            413,
            "/sessions/{session_id}/files",
        ),
        (
            "post",
            "/sessions/{sid}/files",
            {"files": {"file": ("x", b"x")}, "data": {"path": "../../x"}},
            403,
            "/sessions/{session_id}/files",
        ),
    ],
)
def test_error_statuses(
    http: httpx.Client,
    contract: Contract,
    method: str,
    path: str,
    kwargs: dict[str, object],
    status: int,
    contract_path: str,
) -> None:
    sid = lease(http, contract)
    try:
        response = http.request(method.upper(), path.format(sid=sid), **kwargs)  # type: ignore[arg-type]
        assert response.status_code == status, response.text
        declared = contract.statuses(contract_path, method)
        assert status in declared or status in (400, 422)
        contract.validate("Error", response.json())
    finally:
        http.delete(f"/sessions/{sid}")


def test_capacity_is_503_with_delay_seconds(http: httpx.Client, contract: Contract) -> None:
    ids = []
    try:
        while True:
            response = http.post("/sessions")
            if response.status_code != 201:
                break
            ids.append(response.json()["session_id"])
            assert len(ids) <= 6
        assert response.status_code == 503
        assert 503 in contract.statuses("/sessions", "post")
        retry = response.headers["retry-after"]
        assert retry.isdigit()
        assert 1 <= len(retry) <= 6
        contract.validate("Error", response.json())
    finally:
        for sid in ids:
            http.delete(f"/sessions/{sid}")


def test_served_openapi_matches_the_contract(http: httpx.Client, contract: Contract) -> None:
    served = http.get("/schema/openapi.json").json()
    for path, operations in contract.doc["paths"].items():
        assert path in served["paths"], path
        for method, operation in operations.items():
            if method == "parameters":
                continue
            mine = served["paths"][path][method]
            assert mine["operationId"] == operation["operationId"]
            assert set(mine["responses"]) == set(operation["responses"])
    assert served["components"]["schemas"] == contract.doc["components"]["schemas"]


def test_bearer_token_server(tmp_path: pathlib.Path, cache_dir: str, contract: Contract) -> None:
    srv = start_server(tmp_path, cache_dir, COVE_TOKEN="loopback-token-123")
    try:
        with httpx.Client(base_url=srv.base_url, timeout=30) as c:
            denied = c.post("/sessions", json={})
            assert denied.status_code == 401
            contract.validate("Error", denied.json())
            ok = c.post(
                "/sessions", json={}, headers={"Authorization": "Bearer loopback-token-123"}
            )
            assert ok.status_code == 201
            sid = ok.json()["session_id"]
            assert c.delete(f"/sessions/{sid}").status_code == 401
            assert (
                c.delete(
                    f"/sessions/{sid}", headers={"Authorization": "Bearer loopback-token-123"}
                ).status_code
                == 204
            )
    finally:
        stop_server(srv)
    assert "loopback-token-123" not in srv.log.read_text()


def test_the_date_header_stays_current_between_requests(http: httpx.Client) -> None:
    """`cove serve` ticks uvicorn's loop once a second while a connection is open, not ten
    times (an idle server's CPU): the Date header, set at those ticks, still moves on."""
    first = email.utils.parsedate_to_datetime(http.get("/health").headers["date"])
    time.sleep(2.2)
    second = email.utils.parsedate_to_datetime(http.get("/health").headers["date"])
    assert (second - first).total_seconds() >= 1
    assert abs(second.timestamp() - time.time()) <= 2


def test_a_connection_to_a_server_that_had_none_gets_a_current_date(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    """With no connection open the loop does not tick at all: a new connection refreshes the
    Date header before its first request is answered, and the server still stops when asked."""
    srv = start_server(tmp_path, cache_dir)
    try:
        with httpx.Client(base_url=srv.base_url, timeout=30) as c:
            first = email.utils.parsedate_to_datetime(c.get("/health").headers["date"])
        time.sleep(2.5)  # no connection open: the loop sleeps
        with httpx.Client(base_url=srv.base_url, timeout=30) as c:
            response = c.get("/health")
            now = time.time()
            second = email.utils.parsedate_to_datetime(response.headers["date"])
        assert (second - first).total_seconds() >= 2
        # The header has whole seconds and is refreshed at most once a second: up to 2 s behind
        # (a stale one, from before the 2.5 s sleep, would be further).
        assert abs(second.timestamp() - now) < 2
    finally:
        assert stop_server(srv) in (0, -15)
    assert "Application shutdown complete" in srv.log.read_text()


@pytest.mark.parametrize("persist", ["true", "false"])
def test_graceful_shutdown_keeps_or_removes_session_directories(
    tmp_path: pathlib.Path, cache_dir: str, persist: str
) -> None:
    srv = start_server(tmp_path, cache_dir, COVE_PERSIST_SESSIONS=persist)
    sids = []
    with httpx.Client(base_url=srv.base_url, timeout=30) as c:
        for _ in range(3):
            sid = c.post("/sessions", json={}).json()["session_id"]
            sids.append(sid)
            c.post(
                f"/sessions/{sid}/exec",
                json={
                    "tool": "code_execution",
                    "input": {"code": "open('f', 'w').write('x' * 1000)"},
                },
            )
    assert any(srv.root.rglob("f"))
    # uvicorn re-raises SIGTERM after a graceful shutdown, so the exit status is -15.
    assert stop_server(srv) in (0, -15)
    assert "Application shutdown complete" in srv.log.read_text()
    if persist == "false":
        assert list(srv.root.iterdir()) == []
        return
    # Kept for the next start: nothing but held/, which holds each session whole.
    assert [p.name for p in srv.root.iterdir()] == ["held"]
    for sid in sids:
        assert (srv.root / "held" / sid / "f").read_text() == "x" * 1000
        assert (srv.root / "held" / f"{sid}.image").is_file()
        assert (srv.root / "held" / f"{sid}.record").is_file()


def test_restart_after_sigkill_cleans_stale_workspaces(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    srv = start_server(tmp_path, cache_dir)
    with httpx.Client(base_url=srv.base_url, timeout=30) as c:
        sid = c.post("/sessions", json={}).json()["session_id"]
        c.post(
            f"/sessions/{sid}/exec",
            json={"tool": "code_execution", "input": {"code": "open('left', 'w').write('x')"}},
        )
    srv.process.kill()
    srv.process.wait()
    assert any(srv.root.rglob("left"))
    again = start_server(tmp_path, cache_dir)
    try:
        assert not any(again.root.rglob("left"))
        with httpx.Client(base_url=again.base_url, timeout=30) as c:
            assert c.get(f"/sessions/{sid}/files/list").status_code == 404
    finally:
        stop_server(again)

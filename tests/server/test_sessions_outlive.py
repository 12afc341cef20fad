"""Over HTTP: the fork extension, and held sessions surviving a restart of a real `cove serve`
on loopback (SIGTERM, a new process on the same workspace root)."""

from __future__ import annotations

import pathlib
import signal
import time
from typing import Any

import httpx
from litestar.testing import TestClient

from tests.support.servers import start_server, stop_server

Client = TestClient[Any]


def code(source: str) -> dict[str, Any]:
    return {"tool": "code_execution", "input": {"code": source}}


def stdout(response: httpx.Response) -> str:
    assert response.status_code == 200, response.text
    return str(response.json()["result_block"]["content"]["stdout"])


def test_fork_endpoint_copies_the_session(client: Client, sid: str) -> None:
    client.post(f"/sessions/{sid}/exec", json=code("x = 41\nopen('f.txt', 'w').write('file')"))
    response = client.post(f"/sessions/{sid}/fork")
    assert response.status_code == 201, response.text
    handle = response.json()
    child = handle["session_id"]
    assert child != sid and handle["idle_timeout_seconds"] > 0
    assert stdout(client.post(f"/sessions/{child}/exec", json=code("x += 1; print(x)"))) == "42\n"
    assert stdout(client.post(f"/sessions/{sid}/exec", json=code("print(x)"))) == "41\n"
    listed = client.get(f"/sessions/{child}/files/list").json()["files"]
    assert [f["path"] for f in listed] == ["f.txt"]


def test_fork_endpoint_refusals(client: Client, sid: str) -> None:
    missing = client.post("/sessions/no-such-session/fork")
    assert missing.status_code == 404
    client.post(f"/sessions/{sid}/exec", json=code("fh = open('o.txt', 'w')"))
    held_open = client.post(f"/sessions/{sid}/fork")
    assert held_open.status_code == 409
    assert held_open.json()["error"] == "SessionStateError"
    assert "holds 1 file(s) open" in held_open.json()["detail"]


def test_the_served_openapi_marks_fork_as_an_extension(client: Client) -> None:
    doc = client.get("/schema/openapi.json").json()
    fork = doc["paths"]["/sessions/{session_id}/fork"]["post"]
    assert fork["x-cove-extension"] is True
    assert "not part of contract v1" in fork["summary"]
    assert set(fork["responses"]) >= {"201", "404", "409", "503"}


def test_a_held_session_survives_a_restart(tmp_path: pathlib.Path, cache_dir: str) -> None:
    server = start_server(tmp_path, cache_dir)
    try:
        sid = httpx.post(f"{server.base_url}/sessions", json={"idle_timeout_seconds": 600}).json()[
            "session_id"
        ]
        setup = (
            "import os, json\nos.makedirs('/workspace/sub', exist_ok=True)\nos.chdir('sub')\n"
            "os.environ['KEPT'] = 'env'\nopen('f.txt', 'w').write('file')\nx = 42"
        )
        assert stdout(httpx.post(f"{server.base_url}/sessions/{sid}/exec", json=code(setup))) == ""
    finally:
        stop_server(server)  # SIGTERM: a graceful shutdown, which keeps the session
    assert (server.root / "held" / f"{sid}.record").exists()
    server = start_server(tmp_path, cache_dir)
    try:
        check = "print(x, os.getcwd(), os.environ['KEPT'], open('f.txt').read(), json.dumps(1))"
        response = httpx.post(f"{server.base_url}/sessions/{sid}/exec", json=code(check))
        assert stdout(response) == "42 /workspace/sub env file 1\n"
        metrics = httpx.get(f"{server.base_url}/metrics").text
        assert "cove_sessions_restored_total 1" in metrics
        listed = httpx.get(f"{server.base_url}/sessions/{sid}/files/list").json()["files"]
        assert [f["path"] for f in listed] == ["sub"]
    finally:
        stop_server(server)


def test_a_sigkill_loses_only_what_was_not_suspended(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    server = start_server(tmp_path, cache_dir, COVE_SUSPEND_AFTER_S="0.5")
    try:
        base = server.base_url
        parked, live = (httpx.post(f"{base}/sessions", json={}).json()["session_id"] for _ in "ab")
        for sid in (parked, live):
            assert stdout(httpx.post(f"{base}/sessions/{sid}/exec", json=code("x = 7"))) == ""
        # The reaper suspends both once idle; then `live` runs again and is live when killed.
        deadline = time.monotonic() + 30
        while "cove_sessions_suspended 2" not in httpx.get(f"{base}/metrics").text:
            assert time.monotonic() < deadline, "the sessions were not suspended"
            time.sleep(0.2)
        assert stdout(httpx.post(f"{base}/sessions/{live}/exec", json=code("print(x)"))) == "7\n"
    finally:
        server.process.send_signal(signal.SIGKILL)
        server.process.wait(timeout=30)
    server = start_server(tmp_path, cache_dir)
    try:
        kept = httpx.post(f"{server.base_url}/sessions/{parked}/exec", json=code("print(x)"))
        assert stdout(kept) == "7\n"
        lost = httpx.post(f"{server.base_url}/sessions/{live}/exec", json=code("print(x)"))
        assert lost.status_code == 404
        # The dead process's pool directory is gone; nothing but held/ and the new pool's.
        assert sorted(p.name.split("-")[0] for p in server.root.iterdir()) == ["held", "pool"]
    finally:
        stop_server(server)

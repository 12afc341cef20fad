"""Hostile code against a real server: each case attacks one promise, then the server must
still create a fresh session and run code."""

from __future__ import annotations

import pathlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.servers import Server


def run(api: httpx.Client, sid: str, code: str, timeout: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"tool": "code_execution", "input": {"code": code}}
    if timeout is not None:
        body["timeout_seconds"] = timeout
    response = api.post(f"/sessions/{sid}/exec", json=body)
    assert response.status_code == 200, response.text
    result = response.json()
    content = result["result_block"]["content"]
    return {
        **content,
        "outcome": result["outcome"],
        "reset": result["reset"],
        "ms": result["execution_time_ms"],
    }


def _workspace(server: Server, sid: str) -> pathlib.Path:
    (found,) = server.root.glob(f"pool-*/{sid}")
    return found


@pytest.fixture
def sid(api: httpx.Client) -> Iterator[str]:
    response = api.post("/sessions", json={})
    assert response.status_code == 201
    session_id = str(response.json()["session_id"])
    yield session_id
    api.delete(f"/sessions/{session_id}")
    # The server survives every case: a fresh session still runs code.
    fresh = api.post("/sessions", json={}).json()["session_id"]
    assert run(api, fresh, "print(6 * 7)")["stdout"] == "42\n"
    api.delete(f"/sessions/{fresh}")


@pytest.mark.parametrize(
    ("code", "outcome"),
    [
        ("while True:\n    pass", "timeout"),
        ("import time\ntime.sleep(3600)", "timeout"),
        ("import time\nwhile True:\n    time.sleep(0.001)", "timeout"),
        ("import sys\nsys.stdin.read()\nwhile True: pass", "timeout"),
        ("x = bytearray(10**9)", "memory"),
        ("a = []\nwhile True:\n    a.append(bytearray(10**6))", "memory"),
        ("s = 'x'\nwhile True:\n    s += s", "memory"),
    ],
)
def test_runaway_code_is_stopped(api: httpx.Client, sid: str, code: str, outcome: str) -> None:
    result = run(api, sid, code, timeout=2)
    assert result["outcome"] == outcome, result
    assert result["return_code"] != 0
    assert result["ms"] < 30_000


def test_recursion_until_the_stack_overflows(api: httpx.Client, sid: str) -> None:
    result = run(
        api,
        sid,
        "import sys\nsys.setrecursionlimit(10**8)\ndef f(n):\n    return f(n+1)\nf(0)",
        timeout=5,
    )
    assert result["return_code"] != 0
    assert run(api, sid, "print('after')")["stdout"] == "after\n"


def test_output_flood_of_hundreds_of_megabytes(api: httpx.Client, sid: str) -> None:
    response = api.post(
        f"/sessions/{sid}/exec",
        json={
            "tool": "code_execution",
            "input": {
                "code": "import sys\nb = 'z' * (1 << 20)\nfor _ in range(400):\n    sys.stdout.write(b)\n    sys.stderr.write(b)"
            },
            "timeout_seconds": 60,
        },
    )
    assert response.status_code == 200
    assert len(response.content) < 2 << 20  # bounded: 256 KiB per stream plus framing
    content = response.json()["result_block"]["content"]
    assert "more bytes were dropped" in content["stdout"]


@pytest.mark.parametrize(
    "code",
    [
        "with open('fill', 'wb') as f:\n    while True:\n        f.write(b'x' * 65536)",
        "import os\ni = 0\nwhile True:\n    open(f'f{i}', 'w').close()\n    i += 1",
        "import os\ni = 0\nwhile True:\n    os.mkdir(f'd{i}')\n    i += 1",
        "import os\nf = open('sparse', 'wb')\nos.ftruncate(f.fileno(), 10**13)",
    ],
)
def test_disk_and_file_count_floods_stop_at_the_quota(
    api: httpx.Client, hostile_server: Server, sid: str, code: str
) -> None:
    result = run(api, sid, code, timeout=20)
    assert result["outcome"] == "workspace_full", result
    workspace = _workspace(hostile_server, sid)
    assert sum(p.lstat().st_size for p in workspace.rglob("*")) <= 8 << 20
    assert len(list(workspace.rglob("*"))) <= 200


@pytest.mark.parametrize(
    "code",
    [
        "print(open('/etc/passwd').read())",
        "import os\nprint(os.listdir('/etc'))",
        "import os\nprint(os.listdir('/workspace/..'))",
        "import os\nprint(os.listdir('/./workspace/../..'))",
        "print(open('/workspace/../../../etc/hostname').read())",
        "import os\nprint(os.listdir('/proc'))",
        "print(open('/usr/lib/../../etc/passwd').read())",
        "import os\nos.chdir('/usr/lib')\nprint(open('../../etc/passwd').read())",
    ],
)
def test_host_files_are_unreachable(api: httpx.Client, sid: str, code: str) -> None:
    result = run(api, sid, code)
    assert result["return_code"] == 1
    assert "root:" not in result["stdout"]
    assert "Error" in result["stderr"]


def test_the_root_a_guest_lists_is_the_artifacts_not_the_hosts(api: httpx.Client, sid: str) -> None:
    # `/` is the artifact's read-only root/ (Artifact.PREOPENS), not the host's
    result = run(api, sid, "import os\nprint(sorted(os.listdir('/')), sorted(os.listdir('/usr')))")
    assert result["stdout"] == "['tmp', 'usr', 'workspace'] ['lib', 'share']\n", result


def test_sockets_cannot_reach_a_loopback_listener(api: httpx.Client, sid: str) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(3)
    port = listener.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        try:
            accepted.append(listener.accept())
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    code = f"import socket\ntry:\n    s = socket.socket()\n    s.connect(('127.0.0.1', {port}))\n    print('CONNECTED')\nexcept Exception as e:\n    print('refused', type(e).__name__)"
    result = run(api, sid, code)
    thread.join()
    listener.close()
    assert "CONNECTED" not in result["stdout"]
    assert accepted == []


@pytest.mark.parametrize(
    ("code", "fails"),
    [
        ("import subprocess\nsubprocess.run(['id'])", True),
        # os.system and multiprocessing run inside the sandbox (its shell, the same interpreter):
        # they work, and reach nothing of the host.
        ("import os\nos.system('id')", False),
        ("import os\nos.system('cat /etc/passwd; ls /proc')", False),
        ("import os\nos.fork()", True),
        ("import os\nos.execv('/bin/sh', ['sh'])", True),
        ("import ctypes", True),
        ("import _ctypes", True),
        ("import multiprocessing\nmultiprocessing.Process(target=print).start()", False),
        ("import signal, os\nos.kill(1, signal.SIGKILL)", True),
        ("import _posixsubprocess", True),
    ],
)
def test_no_processes_and_no_ctypes(api: httpx.Client, sid: str, code: str, fails: bool) -> None:
    result = run(api, sid, code)
    assert (result["return_code"] != 0) is fails, result
    assert "uid=" not in result["stdout"]
    assert "root:" not in result["stdout"]


def test_guest_symlinks_to_host_paths_are_not_followed_by_anything(
    api: httpx.Client, hostile_server: Server, sid: str
) -> None:
    # WASI refuses to create links that leave the workspace; make sure, and also plant a link
    # from the host side (as if a guest had managed to) and attack through every host path.
    made = run(
        api,
        sid,
        "import os\nfor t in ('/etc/passwd', '../../../../etc/passwd', '..'):\n    try:\n        os.symlink(t, 'l' + str(len(t)))\n        print('made', t)\n    except OSError as e:\n        print('refused', t)",
    )
    assert "made /etc/passwd" not in made["stdout"]
    workspace = _workspace(hostile_server, sid)
    (workspace / "planted").symlink_to("/etc/passwd")
    (workspace / "planted_dir").symlink_to("/etc")
    for path in ("planted", "planted_dir/passwd", "planted_dir"):
        got = api.get(f"/sessions/{sid}/files", params={"path": path})
        assert got.status_code == 403, (path, got.status_code)
        listed = api.get(f"/sessions/{sid}/files/list", params={"path": path})
        assert listed.status_code in (403, 400), (path, listed.status_code)
        put = api.post(
            f"/sessions/{sid}/files", files={"file": ("x", b"owned")}, data={"path": path}
        )
        assert put.status_code == 403, (path, put.status_code)
    for command in (
        {"command": "view", "path": "planted"},
        {"command": "create", "path": "planted", "file_text": "owned"},
        {"command": "view", "path": "planted_dir"},
    ):
        edited = api.post(
            f"/sessions/{sid}/exec", json={"tool": "text_editor_code_execution", "input": command}
        ).json()
        assert "root:" not in edited["result_block"]["content"]["stdout"]
    with open("/etc/passwd") as passwd:
        assert "owned" not in passwd.read()
    reading = run(api, sid, "print(open('planted').read())")
    assert "root:" not in reading["stdout"]


@pytest.mark.parametrize(
    "path",
    ["../x", "/etc/passwd", "a/../../b", "..", "./../../", "\x00", "a\x00/../../etc"],
)
def test_path_tricks_on_every_path_parameter(api: httpx.Client, sid: str, path: str) -> None:
    assert api.get(f"/sessions/{sid}/files", params={"path": path}).status_code == 403
    assert api.get(f"/sessions/{sid}/files/list", params={"path": path}).status_code == 403
    assert (
        api.post(
            f"/sessions/{sid}/files", files={"file": ("f", b"x")}, data={"path": path}
        ).status_code
        == 403
    )
    edited = api.post(
        f"/sessions/{sid}/exec",
        json={
            "tool": "text_editor_code_execution",
            "input": {"command": "create", "path": path, "file_text": "x"},
        },
    )
    assert edited.status_code in (200, 422)
    if edited.status_code == 200:
        assert edited.json()["result_block"]["content"]["return_code"] == 1


def test_exit_codes_and_session_survival(api: httpx.Client, sid: str) -> None:
    run(api, sid, "kept = 1")
    assert run(api, sid, "import sys\nsys.exit(5)")["return_code"] == 5
    assert run(api, sid, "print(kept)")["stdout"] == "1\n"
    hard = run(api, sid, "import os\nos._exit(9)")
    assert (hard["return_code"], hard["reset"]) == (9, True)
    assert run(api, sid, "print('alive')")["stdout"] == "alive\n"


def test_concurrent_calls_on_one_session_each_get_their_own_output(
    hostile_server: Server, sid: str
) -> None:
    import asyncio

    async def main() -> list[str]:
        async with httpx.AsyncClient(base_url=hostile_server.base_url, timeout=60) as client:

            async def one(i: int) -> str:
                r = await client.post(
                    f"/sessions/{sid}/exec",
                    json={"tool": "code_execution", "input": {"code": f"print('marker-{i}')"}},
                )
                return str(r.json()["result_block"]["content"]["stdout"])

            return await asyncio.gather(*(one(i) for i in range(20)))

    outputs = asyncio.run(main())
    assert outputs == [f"marker-{i}\n" for i in range(20)]


def test_sessions_are_isolated_in_variables_files_and_listings(api: httpx.Client) -> None:
    a = api.post("/sessions", json={}).json()["session_id"]
    b = api.post("/sessions", json={}).json()["session_id"]
    try:
        run(api, a, "secret = 'A'\nopen('a_only.txt', 'w').write('A')")
        assert "NameError" in run(api, b, "print(secret)")["stderr"]
        assert run(api, b, "import os\nprint(os.listdir('.'))")["stdout"] == "[]\n"
        assert api.get(f"/sessions/{b}/files", params={"path": "a_only.txt"}).status_code == 404
        assert api.get(f"/sessions/{b}/files/list").json()["files"] == []
        randoms = {
            run(api, s, "import random, uuid\nprint(random.random(), uuid.uuid4())")["stdout"]
            for s in (a, b)
        }
        assert len(randoms) == 2
    finally:
        api.delete(f"/sessions/{a}")
        api.delete(f"/sessions/{b}")

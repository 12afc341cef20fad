"""`cove serve` against hostile and careless clients: memory held per transfer, slow clients,
header injection through file names, oversized correlation ids, a missing token source, and a
liveness check that tells the truth. Real servers on loopback unless a test says otherwise."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pathlib
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from litestar.testing import AsyncTestClient

import cove
import cove_server
from tests.support.servers import Server, start_server, stop_server

MiB = 1 << 20
IMPLEMENTATIONS = ["h11", *(["httptools"] if importlib.util.find_spec("httptools") else [])]
# How long a test waits for the server to close a connection it should close after ~1 s
# (generous: a loaded machine; one that is never closed stays open for good).
CLOSE_BOUND_S = 10.0


# -- servers and raw connections -----------------------------------------------------------


@pytest.fixture(scope="module", params=IMPLEMENTATIONS)
def strict(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, cache_dir: str
) -> Iterator[Server]:
    """A server with one-second client deadlines and a 1 MiB upload cap."""
    srv = start_server(
        tmp_path_factory.mktemp("strict"),
        cache_dir,
        COVE_HTTP=str(request.param),
        COVE_HEADER_TIMEOUT_S="1",
        COVE_BODY_IDLE_TIMEOUT_S="1",
        COVE_BODY_TIMEOUT_S="3",
        COVE_KEEPALIVE_TIMEOUT_S="1",
        COVE_MAX_UPLOAD_MB="1",
        COVE_MAX_SESSIONS="32",
    )
    yield srv
    stop_server(srv)


@pytest.fixture(scope="module")
def roomy(tmp_path_factory: pytest.TempPathFactory, cache_dir: str) -> Iterator[Server]:
    """A server with room for large files."""
    srv = start_server(
        tmp_path_factory.mktemp("roomy"),
        cache_dir,
        COVE_MAX_UPLOAD_MB="64",
        COVE_WORKSPACE_MB="256",
        COVE_MAX_SESSIONS="8",
    )
    yield srv
    stop_server(srv)


def client(server: Server) -> httpx.Client:
    # No pooled connections: the strict server closes idle ones after a second.
    return httpx.Client(
        base_url=server.base_url, timeout=60, limits=httpx.Limits(max_keepalive_connections=0)
    )


def new_session(server: Server) -> str:
    with client(server) as c:
        response = c.post("/sessions", json={})
        assert response.status_code == 201, response.text
        return str(response.json()["session_id"])


def run(server: Server, sid: str, code: str) -> dict[str, Any]:
    with client(server) as c:
        response = c.post(
            f"/sessions/{sid}/exec", json={"tool": "code_execution", "input": {"code": code}}
        )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    assert body["result_block"]["content"]["return_code"] == 0, body
    return body


def connect(server: Server) -> socket.socket:
    url = urllib.parse.urlsplit(server.base_url)
    return socket.create_connection((url.hostname or "", url.port or 80), timeout=10)


def read_until_closed(sock: socket.socket, bound_s: float = CLOSE_BOUND_S) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took;
    fails if the connection is still open after `bound_s`."""
    started = time.monotonic()
    received = b""
    while True:
        left = bound_s - (time.monotonic() - started)
        if left <= 0:
            pytest.fail(f"connection still open after {bound_s} s; received {received[:300]!r}")
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    return received, time.monotonic() - started


def pool_dir(server: Server) -> pathlib.Path:
    (found,) = server.root.glob("pool-*")
    return found


def spool_files(server: Server) -> list[pathlib.Path]:
    return list(pool_dir(server).glob(".cove-upload-*"))


def multipart_head(boundary: str, name: str, filename: str | None = None) -> bytes:
    disposition = f'form-data; name="{name}"'
    if filename is not None:
        disposition += f'; filename="{filename}"'
    return f"--{boundary}\r\nContent-Disposition: {disposition}\r\n\r\n".encode()


def proc_status(pid: int) -> dict[str, int]:
    """The memory lines of /proc/<pid>/status, in bytes."""
    values: dict[str, int] = {}
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if rest.strip().endswith("kB"):
            values[key] = int(rest.split()[0]) * 1024
    return values


def open_descriptors_to(pid: int, name: str) -> int:
    count = 0
    for fd in pathlib.Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.endswith("/" + name):
            count += 1
    return count


# -- item 5: transfers in bounded memory ------------------------------------------------------


def test_slow_downloads_stream_in_bounded_memory_and_release_their_files(roomy: Server) -> None:
    size = 32 * MiB
    readers = 8
    sid = new_session(roomy)
    run(
        roomy,
        sid,
        "chunk = b'x' * (1 << 20)\n"
        "with open('big.bin', 'wb') as f:\n"
        f"    for _ in range({size // MiB}):\n"
        "        f.write(chunk)\n"
        "open('small.txt', 'w').write('warm')",
    )
    pid = roomy.process.pid
    with client(roomy) as c:  # warm the download path up before the baseline
        assert c.get(f"/sessions/{sid}/files", params={"path": "small.txt"}).content == b"warm"
    baseline = proc_status(pid)["VmRSS"]

    request = f"GET /sessions/{sid}/files?path=big.bin HTTP/1.1\r\nHost: cove\r\n\r\n".encode()
    socks: list[socket.socket] = []
    try:
        for _ in range(readers):
            sock = connect(roomy)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 * 1024)
            sock.sendall(request)
            head = b""
            while b"\r\n\r\n" not in head:  # the response has started; then stop reading
                chunk = sock.recv(4096)
                assert chunk, head
                head += chunk
            assert head.startswith(b"HTTP/1.1 200"), head[:200]
            assert f"content-length: {size}".encode() in head.lower()
            socks.append(sock)
        grown = proc_status(pid)["VmRSS"] - baseline
        # Held whole, each stalled reader would cost the file (and a copy in the transport).
        assert grown < size, f"RSS grew by {grown / MiB:.1f} MiB for {readers} slow readers"
        assert open_descriptors_to(pid, "big.bin") == readers
    finally:
        for sock in socks:
            sock.close()
    deadline = time.monotonic() + 10
    while open_descriptors_to(pid, "big.bin") and time.monotonic() < deadline:
        time.sleep(0.02)
    assert open_descriptors_to(pid, "big.bin") == 0, "a disconnected download kept its file open"


def test_a_download_whose_client_stops_reading_is_cut_off_and_its_file_released(
    strict: Server,
) -> None:
    # Hardening round 3, row 7: a client that never reads kept the file (and its disk space,
    # after the guest deleted it) for as long as it liked. The strict server's
    # COVE_BODY_IDLE_TIMEOUT_S is 1 s: the download ends when no piece is taken for that long.
    sid = new_session(strict)
    run(strict, sid, "open('held.bin', 'wb').write(b'h' * (16 << 20))")
    pid = strict.process.pid
    sock = connect(strict)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16 * 1024)
        sock.sendall(
            f"GET /sessions/{sid}/files?path=held.bin HTTP/1.1\r\nHost: c\r\n\r\n".encode()
        )
        head = sock.recv(4096)
        assert head.startswith(b"HTTP/1.1 200"), head[:200]
        assert open_descriptors_to(pid, "held.bin") == 1
        run(strict, sid, "import os\nos.remove('held.bin')")  # its bytes stay on the disk
        deadline = time.monotonic() + 30
        while open_descriptors_to(pid, "held.bin") and time.monotonic() < deadline:
            time.sleep(0.05)
        # The socket is still open and unread: the server let go of the file by itself.
        assert open_descriptors_to(pid, "held.bin") == 0, "a stalled download kept its file"
    finally:
        sock.close()


def test_an_editor_path_of_megabytes_is_a_422_not_work(strict: Server) -> None:
    # Hardening round 3, row 3: a 75 MB path was normalised on the event loop.
    sid = new_session(strict)
    body = {
        "tool": "text_editor_code_execution",
        "input": {"command": "view", "path": "a/" * (1 << 19)},
    }
    with client(strict) as c:
        response = c.post(f"/sessions/{sid}/exec", json=body)
        assert response.status_code == 422, response.text
        assert "longer than the host's limit" in response.text
        assert c.get("/health").status_code == 200


def test_a_large_upload_is_spooled_not_held_in_memory(roomy: Server) -> None:
    sid = new_session(roomy)
    pid = roomy.process.pid
    piece = os.urandom(MiB)
    pieces = 48
    digest = hashlib.sha256(piece * pieces).hexdigest()

    def body() -> Iterator[bytes]:
        yield multipart_head("XyZ", "file", "ignored.bin")
        for _ in range(pieces):
            yield piece
        # The path comes after the file.
        yield b"\r\n" + multipart_head("XyZ", "path") + b"up/big.bin\r\n--XyZ--\r\n"

    pathlib.Path(f"/proc/{pid}/clear_refs").write_text("5")  # reset the peak (VmHWM)
    baseline = proc_status(pid)["VmRSS"]
    with client(roomy) as c:
        response = c.post(
            f"/sessions/{sid}/files",
            content=body(),
            headers={"content-type": "multipart/form-data; boundary=XyZ"},
        )
        peak = proc_status(pid)["VmHWM"] - baseline
        assert response.status_code == 201, response.text
        assert response.json() == {"path": "up/big.bin", "size_bytes": pieces * MiB}
        assert peak < 16 * MiB, f"peak RSS grew by {peak / MiB:.1f} MiB for a 48 MiB upload"
        sha = hashlib.sha256()
        with c.stream("GET", f"/sessions/{sid}/files", params={"path": "up/big.bin"}) as got:
            assert got.status_code == 200
            for data in got.iter_bytes():
                sha.update(data)
        assert sha.hexdigest() == digest
    assert spool_files(roomy) == []


def test_an_upload_over_the_cap_is_refused_as_soon_as_it_passes(strict: Server) -> None:
    sid = new_session(strict)
    sock = connect(strict)
    with sock:
        sock.sendall(
            f"POST /sessions/{sid}/files HTTP/1.1\r\nHost: cove\r\n"
            "Content-Type: multipart/form-data; boundary=B\r\n"
            "Transfer-Encoding: chunked\r\n\r\n".encode()
        )

        def chunk(data: bytes) -> bytes:
            return b"%x\r\n" % len(data) + data + b"\r\n"

        sock.sendall(chunk(multipart_head("B", "file", "big.bin")))
        for _ in range(6):  # 1.5 MiB of a file capped at 1 MiB; the body never ends
            sock.sendall(chunk(b"x" * (256 * 1024)))
        received, _ = read_until_closed(sock)
    assert received.startswith(b"HTTP/1.1 413"), received[:300]
    assert spool_files(strict) == []
    with client(strict) as c:
        assert c.get(f"/sessions/{sid}/files/list").json()["files"] == []


@pytest.mark.parametrize("path_first", [True, False])
def test_the_path_field_may_come_before_or_after_the_file(strict: Server, path_first: bool) -> None:
    sid = new_session(strict)
    path_part = multipart_head("B", "path") + b"dir/placed.txt\r\n"
    file_part = multipart_head("B", "file", "other.txt") + b"contents\r\n"
    parts = path_part + file_part if path_first else file_part + path_part
    with client(strict) as c:
        response = c.post(
            f"/sessions/{sid}/files",
            content=parts + b"--B--\r\n",
            headers={"content-type": "multipart/form-data; boundary=B"},
        )
        assert response.status_code == 201, response.text
        assert response.json() == {"path": "dir/placed.txt", "size_bytes": 8}
        got = c.get(f"/sessions/{sid}/files", params={"path": "dir/placed.txt"})
        assert got.content == b"contents"


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("multipart/form-data", b"--B\r\n"),
        ("multipart/form-data; boundary=B", b"--B\r\nContent-Disposition: form-data; name="),
        ("multipart/form-data; boundary=B", b"garbage without any delimiter"),
        ("multipart/form-data; boundary=B", b"--B\r\nX-Other: 1\r\n\r\nx\r\n--B--\r\n"),
        (
            "multipart/form-data; boundary=B",
            b'--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nx',
        ),
        (
            "multipart/form-data; boundary=B",
            b'--B\r\nContent-Disposition: form-data; name="path"\r\n\r\n\xff\xfe\r\n'
            b'--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nx\r\n--B--\r\n',
        ),
        (
            "multipart/form-data; boundary=B",
            b'--B\r\nContent-Disposition: form-data; name="file"\r\n\r\nx\r\n--B--\r\n',
        ),
        (
            "multipart/form-data; boundary=B",
            b'--B\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nx\r\n'
            b'--B\r\nContent-Disposition: form-data; name="file"; filename="b"\r\n\r\ny\r\n--B--\r\n',
        ),
        ("multipart/form-data; boundary=B", b""),
    ],
)
def test_malformed_uploads_get_a_clear_4xx(strict: Server, content_type: str, body: bytes) -> None:
    sid = new_session(strict)
    with client(strict) as c:
        response = c.post(
            f"/sessions/{sid}/files", content=body, headers={"content-type": content_type}
        )
    assert 400 <= response.status_code < 500, response.text
    assert response.json()["detail"]
    assert spool_files(strict) == []


# -- item 6: slow clients ---------------------------------------------------------------------


def test_a_silent_connection_is_closed_within_the_header_timeout(strict: Server) -> None:
    with connect(strict) as sock:
        received, _ = read_until_closed(sock)
    assert received == b""


def test_a_request_head_that_stalls_is_closed_within_the_header_timeout(strict: Server) -> None:
    with connect(strict) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: cove\r\n")
        received, _ = read_until_closed(sock)
    assert received == b""


def test_a_head_sent_byte_by_byte_gets_no_more_time(strict: Server) -> None:
    # ~24 s to send whole: far past CLOSE_BOUND_S, so only the header timeout passes this.
    head = b"GET /health HTTP/1.1\r\nHost: cove\r\nX-Slow: " + b"a" * 200 + b"\r\n\r\n"
    started = time.monotonic()
    with connect(strict) as sock:
        closed = False
        for byte in head:  # one byte every 0.1 s: the client is slow on purpose
            try:
                sock.sendall(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            time.sleep(0.1)
        if not closed:
            received, _ = read_until_closed(sock, 0.1)
            assert b"HTTP/1.1 200" not in received
    assert time.monotonic() - started < CLOSE_BOUND_S


def test_a_body_that_stalls_gets_408_and_its_connection_closed(strict: Server) -> None:
    sid = new_session(strict)
    with connect(strict) as sock:
        sock.sendall(
            f"POST /sessions/{sid}/exec HTTP/1.1\r\nHost: cove\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n"
            '{"tool": '.encode()
        )
        received, _ = read_until_closed(sock)
    assert received.startswith(b"HTTP/1.1 408"), received[:300]
    assert b"paused" in received


def test_an_upload_that_stalls_gets_408_and_leaves_nothing(strict: Server) -> None:
    sid = new_session(strict)
    with connect(strict) as sock:
        head = multipart_head("B", "file", "slow.bin") + b"x" * 1000
        sock.sendall(
            f"POST /sessions/{sid}/files HTTP/1.1\r\nHost: cove\r\n"
            "Content-Type: multipart/form-data; boundary=B\r\n"
            f"Content-Length: {len(head) + 100_000}\r\n\r\n".encode()
            + head
        )
        received, _ = read_until_closed(sock)
    assert received.startswith(b"HTTP/1.1 408"), received[:300]
    assert spool_files(strict) == []
    with client(strict) as c:
        assert c.get(f"/sessions/{sid}/files/list").json()["files"] == []


def test_a_body_trickled_under_the_pause_limit_is_cut_at_the_body_timeout(strict: Server) -> None:
    sid = new_session(strict)
    stop = threading.Event()
    with connect(strict) as sock:
        sock.sendall(
            f"POST /sessions/{sid}/exec HTTP/1.1\r\nHost: cove\r\n"
            "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n".encode()
        )

        def trickle() -> None:
            # A byte every 0.25 s: never a 1 s pause, never finished.
            while not stop.wait(0.25):
                try:
                    sock.sendall(b" ")
                except OSError:
                    return

        sender = threading.Thread(target=trickle)
        sender.start()
        try:
            received, elapsed = read_until_closed(sock, 8)
        finally:
            stop.set()
            sender.join()
    assert received.startswith(b"HTTP/1.1 408"), received[:300]
    assert b"within 3 s" in received
    assert elapsed >= 2


def test_an_idle_connection_is_closed_after_the_keepalive_timeout(strict: Server) -> None:
    with connect(strict) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: cove\r\n\r\n")
        received, _ = read_until_closed(sock, 3)
    assert received.startswith(b"HTTP/1.1 200")


def test_clients_that_keep_pace_are_unaffected(strict: Server) -> None:
    sid = new_session(strict)
    with httpx.Client(base_url=strict.base_url, timeout=60) as c:
        # A call that outlasts every client deadline: the server is the one working.
        slow = c.post(
            f"/sessions/{sid}/exec",
            json={
                "tool": "code_execution",
                "input": {"code": "import time\ntime.sleep(2.5)\nprint('done')"},
            },
        )
        assert slow.status_code == 200
        assert slow.json()["result_block"]["content"]["stdout"] == "done\n"
        data = os.urandom(512 * 1024)
        put = c.post(f"/sessions/{sid}/files", files={"file": ("in.bin", data)})
        assert put.status_code == 201, put.text
        assert c.get(f"/sessions/{sid}/files", params={"path": "in.bin"}).content == data
        for _ in range(3):  # back to back on one kept-alive connection
            assert c.get("/health").status_code == 200


# -- item 14: control characters in file names ----------------------------------------------


@pytest.mark.parametrize(
    ("path", "filename"),
    [
        (b"a\r\nb.txt", b"x.txt"),
        (b"tab\there.txt", b"x.txt"),
        (b"del\x7f.txt", b"x.txt"),
        (b"dir/esc\x1b[31m.txt", b"x.txt"),
        (None, b"evil%0D%0ASet-Cookie: x=1.txt"),  # how browsers encode CR LF in a filename
        (None, b"bell\x07.txt"),
        (b"fine.txt", b"but\x01this.txt"),
    ],
)
def test_names_with_control_characters_are_refused_on_upload(
    strict: Server, path: bytes | None, filename: bytes
) -> None:
    sid = new_session(strict)
    body = b""
    if path is not None:
        body += multipart_head("B", "path") + path + b"\r\n"
    body += (
        b'--B\r\nContent-Disposition: form-data; name="file"; filename="'
        + filename
        + b'"\r\n\r\nx\r\n--B--\r\n'
    )
    with client(strict) as c:
        response = c.post(
            f"/sessions/{sid}/files",
            content=body,
            headers={"content-type": "multipart/form-data; boundary=B"},
        )
        assert response.status_code == 422, response.text
        assert "control character" in response.json()["detail"]
        assert c.get(f"/sessions/{sid}/files/list").json()["files"] == []


def test_guest_made_names_download_with_a_safe_content_disposition(strict: Server) -> None:
    sid = new_session(strict)
    run(
        strict,
        sid,
        "open('a\\r\\nb.txt', 'w').write('x')\n"
        "open('r\\u00e9sum\\u00e9 \"q\";.txt', 'w').write('y')",
    )
    with client(strict) as c:
        crlf = c.get(f"/sessions/{sid}/files", params={"path": "a\r\nb.txt"})
        assert crlf.status_code == 200
        assert crlf.content == b"x"
        assert crlf.headers["content-disposition"] == (
            "attachment; filename=\"a__b.txt\"; filename*=UTF-8''a%0D%0Ab.txt"
        )
        accented = c.get(f"/sessions/{sid}/files", params={"path": 'résumé "q";.txt'})
        assert accented.status_code == 200
        assert accented.content == b"y"
        assert accented.headers["content-disposition"] == (
            'attachment; filename="r_sum_ _q_;.txt"; '
            "filename*=UTF-8''r%C3%A9sum%C3%A9%20%22q%22%3B.txt"
        )


# -- item 15: tool_use_id -----------------------------------------------------------------------


@pytest.mark.parametrize("tool_use_id", ["t" * 257, "has space", "semi;colon", "new\nline"])
def test_an_oversized_or_odd_tool_use_id_is_a_clear_422(strict: Server, tool_use_id: str) -> None:
    sid = new_session(strict)
    with client(strict) as c:
        response = c.post(
            f"/sessions/{sid}/exec",
            json={"tool": "code_execution", "input": {"code": "1"}, "tool_use_id": tool_use_id},
        )
    assert response.status_code == 422, response.text[:300]
    assert "tool_use_id" in response.json()["detail"]


def test_a_tool_use_id_at_the_bound_is_echoed(strict: Server) -> None:
    sid = new_session(strict)
    tool_use_id = "toolu_01-" + "a" * 247
    with client(strict) as c:
        response = c.post(
            f"/sessions/{sid}/exec",
            json={"tool": "code_execution", "input": {"code": "1"}, "tool_use_id": tool_use_id},
        )
    assert response.status_code == 200
    assert response.json()["tool_use_id"] == tool_use_id
    assert response.json()["result_block"]["tool_use_id"] == tool_use_id


# -- item 12: a named token source that is missing ----------------------------------------------


@pytest.mark.parametrize("value", [None, "", "  "], ids=["unset", "empty", "blank"])
def test_token_env_naming_a_missing_token_refuses_to_start(
    tmp_path: pathlib.Path, cache_dir: str, value: str | None
) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
    env.pop("GATEWAY_TOKEN_FOR_TEST", None)
    if value is not None:
        env["GATEWAY_TOKEN_FOR_TEST"] = value
    env.update(
        COVE_TOKEN="a-token-that-must-not-be-used-instead",
        COVE_HOST="127.0.0.1",
        COVE_PORT=str(port),
        COVE_WORKSPACE_ROOT=str(tmp_path / "ws"),
        COVE_CACHE_DIR=cache_dir,
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "cove_server", "serve", "--token-env", "GATEWAY_TOKEN_FOR_TEST"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while process.poll() is None and time.monotonic() < deadline:
            try:
                started = httpx.get(f"http://127.0.0.1:{port}/health", timeout=1)
            except httpx.TransportError:
                started = None
            if started is not None:
                pytest.fail("the server started without the token it was told to read")
            try:
                process.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                pass
        assert process.poll() is not None, "the server neither started nor exited"
    finally:
        if process.poll() is None:
            process.kill()
        _, stderr = process.communicate(timeout=30)
    assert process.returncode != 0
    message = stderr.decode()
    assert "GATEWAY_TOKEN_FOR_TEST" in message
    assert "refusing to start" in message


# -- /health ------------------------------------------------------------------------------------


def test_health_answers_503_unless_the_pool_is_open(settings: cove.PoolSettings) -> None:
    async def main() -> None:
        pool = cove.Pool(settings)
        app = cove_server.create_app(pool=pool, settings=cove_server.ServerSettings(pool=settings))
        async with AsyncTestClient(app) as c:
            before = await c.get("/health")
            assert before.status_code == 503
            assert before.json()["status"] != "ok"
            await pool.open()
            up = await c.get("/health")
            assert (up.status_code, up.json()) == (200, {"status": "ok"})
            await pool.aclose()
            after = await c.get("/health")
            assert after.status_code == 503
            assert after.headers["content-type"].startswith("application/json")
            assert after.json()["status"] != "ok"

    anyio.run(main)

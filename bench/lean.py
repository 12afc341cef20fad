"""A lean HTTP/1.1 client for the benchmarks, and what it measures.

httpx costs ~0.7 ms of CPU per request itself, which caps any server at ~1.1-1.5k requests/s
on two cores and hides the servers' own differences in latency. `LeanClient` sends each
request with one `sendall` on a kept-alive socket (TCP_NODELAY) and reads the reply by its
Content-Length: the least a client can do. With it:

- latency of the warm trivial exec, a print and the editor's view, and of a new session's
  creation and first exec, on each backend;
- server CPU per warm trivial exec: the server's whole process tree (so the baseline's REPL
  subprocesses count), from /proc, over many calls;
- an idle server's CPU per second with 100 held sessions (each after one call).
"""

from __future__ import annotations

import json
import socket
import time
import urllib.parse
from typing import Any

from ._proc import thread_ns_between, tree_cpu_ns, tree_thread_ns
from ._stats import summary


class LeanClient:
    """One keep-alive connection; JSON in, JSON out."""

    def __init__(self, base_url: str) -> None:
        url = urllib.parse.urlsplit(base_url)
        self.host = url.hostname or "127.0.0.1"
        self.port = url.port or 80
        self.sock = socket.create_connection((self.host, self.port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._buf = b""

    def close(self) -> None:
        self.sock.close()

    def prepare(self, method: str, path: str, body: Any = None) -> bytes:
        """The request's bytes, built once and sent as often as wanted."""
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        )
        return head.encode() + data

    def send(self, request: bytes) -> tuple[int, bytes]:
        """Send a prepared request; the status and the body."""
        self.sock.sendall(request)
        buf = self._buf
        while (end := buf.find(b"\r\n\r\n")) < 0:
            buf += self._recv()
        head, buf = buf[:end], buf[end + 4 :]
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
            elif name.strip().lower() == b"transfer-encoding":
                raise RuntimeError("the lean client reads only Content-Length replies")
        while len(buf) < length:
            buf += self._recv()
        self._buf = buf[length:]
        return status, buf[:length]

    def _recv(self) -> bytes:
        chunk = self.sock.recv(1 << 20)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk

    def call(self, method: str, path: str, body: Any = None) -> Any:
        status, data = self.send(self.prepare(method, path, body))
        if status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {data[:200]!r}")
        return json.loads(data) if data else None


def _code(source: str) -> dict[str, Any]:
    return {"tool": "code_execution", "input": {"code": source}, "timeout_seconds": 60}


EDITOR_VIEW = {
    "tool": "text_editor_code_execution",
    "input": {"command": "view", "path": "notes.txt"},
}


def latency(base_url: str, n: int) -> dict[str, Any]:
    """p50 etc. of a warm trivial exec, a print and the editor's view, on one session."""
    client = LeanClient(base_url)
    try:
        sid = client.call("POST", "/sessions", {})["session_id"]
        client.call(
            "POST", f"/sessions/{sid}/exec", _code("open('notes.txt', 'w').write('line\\n' * 50)")
        )
        out: dict[str, Any] = {}
        for name, body in (
            ("warm_exec", _code("x = 1")),
            ("print", _code("print('hello world')")),
            ("editor_view", EDITOR_VIEW),
        ):
            request = client.prepare("POST", f"/sessions/{sid}/exec", body)
            for _ in range(20):
                client.send(request)
            samples = []
            for _ in range(n):
                t0 = time.perf_counter()
                status, _ = client.send(request)
                samples.append(time.perf_counter() - t0)
                assert status < 300, (name, status, _)
            out[name] = summary(samples)
        client.call("DELETE", f"/sessions/{sid}")
        out["create_first_exec"] = _create_first_exec(client, max(20, n // 5))
        return out
    finally:
        client.close()


def _create_first_exec(client: LeanClient, n: int, gap_s: float = 0.01) -> dict[str, float]:
    """A new session and its first exec, timed together, `gap_s` apart (untimed): as a
    gateway creates sessions, one per conversation. (`load.create_first_exec` makes them
    back to back, through httpx.)"""
    create = client.prepare("POST", "/sessions", {})
    first = _code("pass")
    samples = []
    for _ in range(n + 2):
        time.sleep(gap_s)
        t0 = time.perf_counter()
        status, body = client.send(create)
        if status >= 300:
            raise RuntimeError(f"POST /sessions: {status} {body[:200]!r}")
        sid = json.loads(body)["session_id"]
        status, body = client.send(client.prepare("POST", f"/sessions/{sid}/exec", first))
        samples.append(time.perf_counter() - t0)
        if status >= 300:
            raise RuntimeError(f"POST /sessions/{{id}}/exec: {status} {body[:200]!r}")
        client.call("DELETE", f"/sessions/{sid}")
    return summary(samples[2:])


def cpu_per_exec(base_url: str, pid: int, n: int = 3000) -> dict[str, float]:
    """Server CPU (its process tree) per warm trivial exec, over `n` calls in a row."""
    client = LeanClient(base_url)
    try:
        sid = client.call("POST", "/sessions", {})["session_id"]
        request = client.prepare("POST", f"/sessions/{sid}/exec", _code("x = 1"))
        for _ in range(50):
            client.send(request)
        before = tree_cpu_ns(pid)
        t0 = time.perf_counter()
        for _ in range(n):
            client.send(request)
        wall = time.perf_counter() - t0
        used = tree_cpu_ns(pid) - before
        client.call("DELETE", f"/sessions/{sid}")
        return {"calls": n, "cpu_us_per_exec": used / n / 1000, "wall_us_per_exec": wall / n * 1e6}
    finally:
        client.close()


def idle_cpu(
    base_url: str, pid: int, sessions: int = 100, seconds: float = 10.0, settle_s: float = 7.0
) -> dict[str, float]:
    """CPU per second of a server holding `sessions` sessions (each after one call) and
    serving nothing, measured over `seconds` after a settling pause. The pause outlasts Cove's
    session worker threads, which end `cove._worker.IDLE_EXIT_S` (5 s) after their last call:
    what is measured is the steady state, not their exits (run time of a thread that ends inside
    the window is not seen by the per-thread reading at its end)."""
    client = LeanClient(base_url)
    try:
        sids = [client.call("POST", "/sessions", {})["session_id"] for _ in range(sessions)]
        for sid in sids:
            client.call("POST", f"/sessions/{sid}/exec", _code("x = 1"))
        client.close()
        time.sleep(settle_s)
        before = tree_thread_ns(pid)
        time.sleep(seconds)
        used = thread_ns_between(before, tree_thread_ns(pid))
        client = LeanClient(base_url)  # the server has closed the idle connection by now
        for sid in sids:
            client.call("DELETE", f"/sessions/{sid}")
        return {"sessions": sessions, "seconds": seconds, "cpu_ms_per_s": used / 1e6 / seconds}
    finally:
        client.close()

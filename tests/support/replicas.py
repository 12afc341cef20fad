"""Several `cove serve` replicas on loopback behind the real router (HAProxy on the configuration
`cove router-config` renders), for tests/server/test_replicas.py and bench/router.py."""

from __future__ import annotations

import csv
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

import httpx

from cove_server._router import Replica, render_haproxy

from .servers import free_port

__all__ = [
    "Cluster",
    "ReplicaProcess",
    "find_haproxy",
    "router_states",
    "start_cluster",
    "status",
    "wait_until",
]

START_TIMEOUT_S = 120.0


def find_haproxy() -> str | None:
    """HAProxy's executable (the distribution's package puts it in /usr/sbin), or None."""
    found = shutil.which("haproxy")
    if found is None and os.access("/usr/sbin/haproxy", os.X_OK):
        found = "/usr/sbin/haproxy"
    return found


def wait_until(
    predicate: Callable[[], bool], what: str, timeout_s: float = START_TIMEOUT_S
) -> None:
    deadline = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def status(url: str) -> int:
    """The status of GET `url`, 0 when nothing answers."""
    try:
        return httpx.get(url, timeout=2).status_code
    except httpx.TransportError:
        return 0


@dataclass
class ReplicaProcess:
    """One `cove serve` replica: its name, port, workspace root (its own "volume"), log and
    environment; started, stopped and started again on the same root as a pod would be."""

    name: str
    port: int
    root: pathlib.Path
    log: pathlib.Path
    env: Mapping[str, str]
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        environ = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
        environ.update(
            COVE_HOST="127.0.0.1",
            COVE_PORT=str(self.port),
            COVE_REPLICA=self.name,
            COVE_WORKSPACE_ROOT=str(self.root),
            **self.env,
        )
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cove_server", "serve"],
                env=environ,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def wait_ready(self) -> None:
        def ready() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name} exited:\n{self.log.read_text()}")
            return status(f"{self.url}/ready") == 200

        wait_until(ready, f"{self.name} to be ready")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Send `sig` and wait for the exit; its status."""
        assert self.process is not None
        self.process.send_signal(sig)
        try:
            return self.process.wait(timeout=90)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


@dataclass
class Cluster:
    router_url: str
    replicas: dict[str, ReplicaProcess]
    router_log: pathlib.Path
    stats_socket: pathlib.Path


def router_states(stats_socket: pathlib.Path) -> dict[tuple[str, str], str]:
    """Each (backend, server)'s state as the router's checks see it ("UP", "DOWN", ...), from
    HAProxy's `show stat`; empty while its socket does not answer."""
    try:
        with socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(5)
            sock.connect(str(stats_socket))
            sock.sendall(b"show stat\n")
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return {}
    rows = list(csv.reader(data.decode().lstrip("# ").splitlines()))
    if not rows:
        return {}
    column = {name: i for i, name in enumerate(rows[0])}
    return {
        (row[column["pxname"]], row[column["svname"]]): row[column["status"]]
        for row in rows[1:]
        if len(row) > column["status"] and row[column["svname"]] not in ("FRONTEND", "BACKEND")
    }


@contextmanager
def start_cluster(
    haproxy: str, tmp: pathlib.Path, names: tuple[str, ...], env: Mapping[str, str]
) -> Iterator[Cluster]:
    """Replicas `names` (each with `env` besides its port, name and root) and the router, all
    up: every replica ready and seen up by the router's checks."""
    replicas = {
        name: ReplicaProcess(name, free_port(), tmp / name / "volume", tmp / f"{name}.log", env)
        for name in names
    }
    router_port = free_port()
    config = tmp / "haproxy.cfg"
    stats = tmp / "haproxy.sock"
    config.write_text(
        render_haproxy(
            [Replica(r.name, f"127.0.0.1:{r.port}") for r in replicas.values()],
            bind=f"127.0.0.1:{router_port}",
            stats_socket=str(stats),
        )
    )
    checked = subprocess.run([haproxy, "-c", "-q", "-f", str(config)], capture_output=True)
    assert checked.returncode == 0, checked.stderr.decode()
    for replica in replicas.values():
        replica.start()
    router_log = tmp / "haproxy.log"
    with router_log.open("wb") as out:
        router = subprocess.Popen(
            [haproxy, "-db", "-f", str(config)], stdout=out, stderr=subprocess.STDOUT
        )
    try:
        for replica in replicas.values():
            replica.wait_ready()
        router_url = f"http://127.0.0.1:{router_port}"
        wait_until(lambda: status(f"{router_url}/router/health") == 200, "the router")
        for name in names:
            # 404 from the replica, not the router's 503: its checks say it is up.
            probe = f"{router_url}/sessions/{name}.probe/files/list"
            wait_until(lambda probe=probe: status(probe) == 404, f"the router to see {name} up")
        wait_until(
            lambda: (
                router_states(stats)
                == dict.fromkeys(
                    [(backend, name) for name in names for backend in ("any", f"replica-{name}")],
                    "UP",
                )
            ),
            "the router's checks to see every replica up",
        )
        yield Cluster(router_url, replicas, router_log, stats)
    finally:
        router.terminate()
        router.wait(timeout=30)
        for replica in replicas.values():
            if replica.process is not None and replica.process.poll() is None:
                replica.process.kill()
                replica.process.wait()

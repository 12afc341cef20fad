"""Real server processes on loopback: `cove serve` for the contract and security suites, and
any HTTP backend with a `/health` route for bench/."""

from __future__ import annotations

import os
import pathlib
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import IO

import httpx

__all__ = ["Server", "free_port", "start_process", "start_server", "stop_server"]

START_TIMEOUT_S = 120


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (as of this call)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Server:
    """A running `cove serve`: its URL, process, workspace root and log file."""

    base_url: str
    process: subprocess.Popen[bytes]
    root: pathlib.Path
    log: pathlib.Path


def start_process(
    cmd: list[str],
    port: int,
    env: Mapping[str, str],
    *,
    output: IO[bytes] | int = subprocess.DEVNULL,
) -> subprocess.Popen[bytes]:
    """Start `cmd` with exactly `env`, and wait until `/health` on `port` answers 200.

    Raises:
        RuntimeError: the process exited or was not healthy within START_TIMEOUT_S (it is
            killed).
    """
    process = subprocess.Popen(cmd, env=dict(env), stdout=output, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/health"
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise RuntimeError(f"{' '.join(cmd)} did not start")
        time.sleep(0.05)


def start_server(tmp: pathlib.Path, cache_dir: str, **env: str) -> Server:
    """`cove serve` on a free loopback port, with workspaces and a log file under `tmp`.

    The caller's `COVE_*` variables are dropped; `env` adds the test's own.
    """
    port = free_port()
    root = tmp / "workspaces"
    log = tmp / "server.log"
    environ = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
    environ.update(
        COVE_HOST="127.0.0.1",
        COVE_PORT=str(port),
        COVE_WORKSPACE_ROOT=str(root),
        COVE_CACHE_DIR=cache_dir,
        **env,
    )
    with log.open("wb") as out:
        try:
            process = start_process(
                [sys.executable, "-m", "cove_server", "serve"], port, environ, output=out
            )
        except RuntimeError as exc:
            raise RuntimeError(f"{exc}:\n{log.read_text()}") from None
    return Server(f"http://127.0.0.1:{port}", process, root, log)


def stop_server(server: Server | subprocess.Popen[bytes]) -> int:
    """Terminate the server (SIGTERM, a graceful shutdown) and return its exit status."""
    process = server.process if isinstance(server, Server) else server
    process.terminate()
    try:
        return process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        raise

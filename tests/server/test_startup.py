"""`cove serve`'s first minutes: the port answers at once while the interpreter is prepared in
the background, a stop during the compile is immediate, and what can be refused is refused in
one line before anything slow starts. Real processes on loopback, each on an empty cache.

No bound here is a benchmark's: each test tells the behaviour by what the server says (503
"starting" is only possible before the compile has ended) with margins a loaded machine keeps;
the seconds themselves are measured in bench/ and docs/deploy.md.
"""

from __future__ import annotations

import logging
import os
import pathlib
import signal
import socket
import subprocess
import sys
import time

import httpx
import msgspec
import pytest

import cove
from cove._artifact import declared_memory_bytes
from cove_server import _cli
from cove_server._settings import ServerSettings
from tests.support.servers import free_port


def _serve(tmp: pathlib.Path, port: int, **env: str) -> subprocess.Popen[bytes]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
    environ.update(
        COVE_HOST="127.0.0.1",
        COVE_PORT=str(port),
        COVE_CACHE_DIR=str(tmp / "cache"),  # empty: a cold start
        COVE_WORKSPACE_ROOT=str(tmp / "ws"),
    )
    environ.update(env)
    with (tmp / "serve.log").open("wb") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "cove_server", "serve"], env=environ, stdout=log, stderr=log
        )


def _first_answer(port: int, process: subprocess.Popen[bytes]) -> httpx.Response:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        try:
            return httpx.get(f"http://127.0.0.1:{port}/health", timeout=5)
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError("the port never answered")


def test_a_cold_start_answers_at_once_and_a_stop_during_the_compile_is_immediate(
    tmp_path: pathlib.Path,
) -> None:
    port = free_port()
    process = _serve(tmp_path, port)
    try:
        health = _first_answer(port, process)
        # Answered while the interpreter is still being prepared (a cold compile takes
        # minutes here): the port was bound first.
        assert health.status_code == 503
        body = health.json()
        assert body["status"] == "starting" and body["stage"], body
        ready = httpx.get(f"http://127.0.0.1:{port}/ready", timeout=5)
        assert ready.status_code == 503 and ready.json()["ready"] is False
        created = httpx.post(f"http://127.0.0.1:{port}/sessions", json={}, timeout=5)
        assert created.status_code == 503
        assert int(created.headers["retry-after"]) >= 1
        assert "being prepared" in created.json()["detail"]
        call = httpx.post(
            f"http://127.0.0.1:{port}/sessions/any/exec",
            json={"tool": "code_execution", "input": {"code": "1"}},
            timeout=5,
        )
        assert call.status_code == 503  # not 404: the session may be a held one, not back yet
        while (
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).json().get("stage")
            != "compiling the interpreter"
        ):
            time.sleep(0.05)
        stopped = time.monotonic()
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=60)
        # The compile alone takes far longer than this: it was left behind, not waited for.
        assert time.monotonic() - stopped < 20
        assert code in (0, -signal.SIGTERM)  # uvicorn re-raises the signal it handled
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    log = (tmp_path / "serve.log").read_text()
    assert "still preparing" in log or "compiling the interpreter" in log


def test_a_port_in_use_is_one_line_and_a_failure_before_anything_slow(
    tmp_path: pathlib.Path,
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process = _serve(tmp_path, port)
        assert process.wait(timeout=60) != 0
    log = (tmp_path / "serve.log").read_text()
    assert "address already in use" in log.lower()
    assert "compiling" not in log and "unpacking" not in log
    assert "Traceback" not in log


def test_a_memory_limit_below_the_interpreter_is_one_line_and_exit_status(
    tmp_path: pathlib.Path,
) -> None:
    process = _serve(tmp_path, free_port(), COVE_MEMORY_MB="32")
    assert process.wait(timeout=60) != 0
    log = (tmp_path / "serve.log").read_text()
    lines = [line for line in log.splitlines() if line.strip()]
    assert lines[-1].startswith("cove: the default memory limit, 32 MiB, is below"), lines
    assert "Traceback" not in log and "compiling" not in log


def test_the_pool_refuses_a_memory_limit_below_the_interpreter_before_compiling() -> None:
    floor = declared_memory_bytes()
    assert floor is not None and 48 << 20 < floor < 96 << 20
    pool = cove.Pool(cove.PoolSettings(defaults=cove.Limits(memory_bytes=32 << 20)))
    with pytest.raises(cove.InterpreterError, match="below the"):
        pool.check()
    cove.Pool(cove.PoolSettings(defaults=cove.Limits(memory_bytes=floor))).check()


def _fitted(
    monkeypatch: pytest.MonkeyPatch, limit: int, caplog: pytest.LogCaptureFixture, **env: str
) -> ServerSettings:
    import resource

    monkeypatch.setattr(resource, "getrlimit", lambda _: (limit, limit))
    monkeypatch.delenv("COVE_MAX_OPEN_FILES", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = ServerSettings.resolve(os.environ, {})
    with caplog.at_level(logging.INFO, logger="cove_server"):
        return _cli._raise_descriptor_limit(settings)  # pyright: ignore[reportPrivateUsage]


def test_the_default_open_file_cap_is_fitted_to_the_descriptor_limit(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fitted = _fitted(monkeypatch, 20_000, caplog)
    pool = fitted.pool
    interpreters = pool.max_sessions * (1 + pool.defaults.max_nested_python)
    assert 8 <= pool.max_open_files < 256
    assert interpreters * (pool.max_open_files + 9) + 1024 <= 20_000
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("lowered to fit" in r.getMessage() for r in caplog.records)
    caplog.clear()
    # Chosen by the operator: kept, and the misfit said.
    chosen = _fitted(monkeypatch, 20_000, caplog, COVE_MAX_OPEN_FILES="256")
    assert chosen.pool.max_open_files == 256
    assert any(r.levelno == logging.WARNING for r in caplog.records)
    caplog.clear()
    # Room enough: nothing changes, nothing said.
    roomy = _fitted(monkeypatch, 1 << 20, caplog)
    assert (
        roomy.pool.max_open_files == msgspec.structs.asdict(cove.PoolSettings())["max_open_files"]
    )
    assert not caplog.records


# -- a 512 MiB dyno -------------------------------------------------------------------------------

_CGROUP_V1 = pathlib.Path("/sys/fs/cgroup/memory")


def _memory_cgroup(name: str, limit: int) -> pathlib.Path:
    """A memory cgroup (v1) limited to `limit` bytes; skips where none can be made."""
    group = _CGROUP_V1 / name
    try:
        group.mkdir(exist_ok=True)
        (group / "memory.limit_in_bytes").write_text(str(limit))
        (group / "memory.max_usage_in_bytes").write_text("0")
    except OSError as exc:
        pytest.skip(f"no memory cgroup can be made here: {exc}")
    return group


@pytest.mark.slow
def test_512_mib_serves_20_pandas_sessions_after_a_build_step_compile(
    tmp_path: pathlib.Path,
) -> None:
    group = _memory_cgroup(f"cove-test-{os.getpid()}", 512 << 20)
    cache = tmp_path / "cache"
    # The build step, outside the limit (a build machine's memory).
    done = subprocess.run(
        [sys.executable, "-m", "cove_server", "compile", "--cache-dir", str(cache)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    assert "compiled" in done.stdout and "portable" in done.stdout
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
    environ.update(COVE_HOST="127.0.0.1", COVE_PORT=str(port), COVE_CACHE_DIR=str(cache))

    def enter() -> None:
        (group / "cgroup.procs").write_text(str(os.getpid()))

    with (tmp_path / "serve.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "cove_server", "serve"],
            env=environ,
            stdout=log,
            stderr=log,
            preexec_fn=enter,
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "never ready"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        code = (
            "import pandas as pd, numpy as np\n"
            "df = pd.DataFrame({'k': np.arange(20_000) % 7, 'v': np.ones(20_000)})\n"
            "print(int(df.groupby('k').v.sum().sum()))"
        )
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            sids = [client.post("/sessions", json={}).json()["session_id"] for _ in range(20)]
            for sid in sids:
                reply = client.post(
                    f"/sessions/{sid}/exec",
                    json={"tool": "code_execution", "input": {"code": code}},
                ).json()
                assert reply["result_block"]["content"]["stdout"] == "20000\n", reply
        peak = int((group / "memory.max_usage_in_bytes").read_text())
        print(f"512 MiB cgroup: peak {peak >> 20} MiB for the server and 20 pandas sessions")
        assert peak < 512 << 20
    finally:
        process.terminate()
        process.wait(timeout=60)
        try:
            group.rmdir()
        except OSError:
            pass


def test_an_interpreter_that_cannot_be_prepared_is_one_line_and_a_failure(
    tmp_path: pathlib.Path,
) -> None:
    # The cache cannot be written (a path under /proc): unpacking fails in the background,
    # after the port is bound; the server says why in one line and exits non-zero.
    process = _serve(tmp_path, free_port(), COVE_CACHE_DIR="/proc/cove-cannot-be-made")
    assert process.wait(timeout=120) == 3
    log = (tmp_path / "serve.log").read_text()
    failed = [line for line in log.splitlines() if "could not be prepared" in line]
    assert len(failed) == 1, log[-2000:]
    assert "Traceback" not in log

"""The benchmark tools work on a tiny run (the benchmark itself is not part of the test run)."""

from __future__ import annotations

import asyncio
import pathlib

from litestar.testing import TestClient

from bench import baseline, lean, load
from tests.support.servers import Server


def test_load_generator_tiny_run(server: Server) -> None:
    result = asyncio.run(
        load.run(
            server.base_url,
            scenarios=[
                "create_first_exec",
                "warm_exec",
                "editor_view",
                "throughput",
                "churn",
                "idle_memory",
            ],
            n=3,
            duration_s=0.3,
            concurrency=(1, 2),
            pid=server.process.pid,
            idle_sessions=3,
        )
    )
    assert result["warm_exec"]["n"] == 3
    assert 0 < result["warm_exec"]["min_ms"] <= result["warm_exec"]["p50_ms"]
    assert [t["concurrency"] for t in result["throughput"]] == [1, 2]
    assert all(t["calls"] > 0 for t in result["throughput"])
    assert result["churn"]["sessions_per_s"] > 0
    assert result["idle_memory"]["processes"] >= 1


def test_lean_client_tiny_run(server: Server) -> None:
    latency = lean.latency(server.base_url, 3)
    assert set(latency) == {"warm_exec", "print", "editor_view", "create_first_exec"}
    assert all(s["n"] >= 3 and s["min_ms"] > 0 for s in latency.values())
    cpu = lean.cpu_per_exec(server.base_url, server.process.pid, n=20)
    assert cpu["calls"] == 20 and cpu["cpu_us_per_exec"] >= 0
    idle = lean.idle_cpu(server.base_url, server.process.pid, sessions=2, seconds=0.2, settle_s=0)
    assert idle["sessions"] == 2 and idle["cpu_ms_per_s"] >= 0


def test_baseline_backend_speaks_the_contract(tmp_path: pathlib.Path) -> None:
    with TestClient(baseline.create_app(tmp_path)) as client:
        sid = client.post("/sessions").json()["session_id"]
        client.post(
            f"/sessions/{sid}/exec", json={"tool": "code_execution", "input": {"code": "x = 41"}}
        )
        body = client.post(
            f"/sessions/{sid}/exec",
            json={"tool": "code_execution", "input": {"code": "print(x + 1)"}},
        ).json()
        assert body["result_block"]["content"]["stdout"] == "42\n"
        timed = client.post(
            f"/sessions/{sid}/exec",
            json={
                "tool": "code_execution",
                "input": {"code": "while True: pass"},
                "timeout_seconds": 1,
            },
        ).json()
        assert timed["result_block"]["content"]["return_code"] == 124
        assert client.delete(f"/sessions/{sid}").status_code == 204

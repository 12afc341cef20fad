"""The benchmark tools work on a tiny run (the benchmark itself is not part of the test run)."""

from __future__ import annotations

import asyncio
import pathlib

from litestar.testing import TestClient

from bench import baseline, load
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

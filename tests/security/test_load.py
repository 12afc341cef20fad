"""Load and faults against a real server: nothing lost, nothing crossed, clean shutdown."""

from __future__ import annotations

import asyncio
import pathlib
import secrets
import signal
import time

import httpx
import pytest

from tests.support.servers import start_server, stop_server

pytestmark = pytest.mark.slow

CODE = "tool"


def _exec(code: str, timeout: int = 30) -> dict[str, object]:
    return {"tool": "code_execution", "input": {"code": code}, "timeout_seconds": timeout}


async def _load(base_url: str, sessions: int, calls: int) -> tuple[int, list[str]]:
    # The client lets an idle connection go well before the server's keep-alive timeout (5 s,
    # httpx's default expiry too): at equal timeouts a request sent as the server closes the
    # connection is reset (httpx.ReadError), a race of HTTP/1.1 that docs/deploy.md describes.
    limits = httpx.Limits(max_connections=64, max_keepalive_connections=64, keepalive_expiry=2)
    problems: list[str] = []
    done = 0
    async with httpx.AsyncClient(base_url=base_url, timeout=300, limits=limits) as client:
        # Reaper victims: created idle with a 1 s idle timeout, never used again.
        victims = [
            (await client.post("/sessions", json={"idle_timeout_seconds": 1})).json()["session_id"]
            for _ in range(5)
        ]
        # Trapped neighbours: sessions that keep hitting their deadline during the load.
        trapped = [(await client.post("/sessions", json={})).json()["session_id"] for _ in range(3)]

        async def trap(sid: str) -> None:
            for _ in range(3):
                r = await client.post(f"/sessions/{sid}/exec", json=_exec("while True: pass", 1))
                if r.json()["outcome"] != "timeout":
                    problems.append(f"trap in {sid}: {r.json()['outcome']}")

        async def worker(index: int) -> None:
            nonlocal done
            created = await client.post("/sessions", json={})
            if created.status_code != 201:
                problems.append(f"create {index}: {created.status_code}")
                return
            sid = created.json()["session_id"]
            await client.post(f"/sessions/{sid}/exec", json=_exec(f"owner = {index!r}"))
            for call in range(calls):
                marker = f"{index}-{call}-{secrets.token_hex(4)}"
                r = await client.post(
                    f"/sessions/{sid}/exec", json=_exec(f"print(owner, {marker!r})")
                )
                if r.status_code != 200:
                    problems.append(f"exec {marker}: {r.status_code}")
                    continue
                out = r.json()["result_block"]["content"]["stdout"]
                if out != f"{index} {marker}\n":
                    problems.append(f"crossed or lost {marker}: {out!r}")
                done += 1
            await client.delete(f"/sessions/{sid}")

        await asyncio.gather(*(worker(i) for i in range(sessions)), *(trap(s) for s in trapped))
        # By now the reaper has taken the idle victims: they answer 404, cleanly.
        deadline = time.monotonic() + 30
        for sid in victims:
            while True:
                r = await client.get(f"/sessions/{sid}/files/list")
                if r.status_code == 404:
                    break
                if time.monotonic() > deadline:
                    problems.append(f"victim {sid} not reaped: {r.status_code}")
                    break
                await asyncio.sleep(0.2)
            r = await client.post(f"/sessions/{sid}/exec", json=_exec("1"))
            if r.status_code != 404:
                problems.append(f"reaped {sid} answered {r.status_code}")
        for sid in trapped:
            await client.delete(f"/sessions/{sid}")
    return done, problems


def test_200_sessions_by_50_calls_nothing_lost_or_crossed(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    srv = start_server(
        tmp_path,
        cache_dir,
        COVE_MAX_SESSIONS="400",
        COVE_LOG_LEVEL="WARNING",
        COVE_PERSIST_SESSIONS="false",
    )
    try:
        done, problems = asyncio.run(_load(srv.base_url, sessions=200, calls=50))
        assert problems == []
        assert done == 200 * 50
    finally:
        stop_server(srv)
    assert list(srv.root.iterdir()) == []


def test_graceful_shutdown_under_load_leaves_no_directories(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    srv = start_server(tmp_path, cache_dir, COVE_LOG_LEVEL="WARNING", COVE_PERSIST_SESSIONS="false")

    async def busy() -> None:
        async with httpx.AsyncClient(base_url=srv.base_url, timeout=60) as client:

            async def one(i: int) -> None:
                try:
                    sid = (await client.post("/sessions", json={})).json()["session_id"]
                    while True:
                        await client.post(
                            f"/sessions/{sid}/exec",
                            json=_exec(
                                f"open('f{i}', 'w').write('x' * 10000)\nimport time\ntime.sleep(0.05)"
                            ),
                        )
                except (httpx.HTTPError, KeyError, ValueError):
                    return

            tasks = [asyncio.create_task(one(i)) for i in range(20)]
            await asyncio.sleep(2)
            assert any(srv.root.rglob("f*"))
            srv.process.send_signal(signal.SIGTERM)
            await asyncio.gather(*tasks)

    asyncio.run(busy())
    assert srv.process.wait(timeout=60) in (0, -15)
    assert list(srv.root.iterdir()) == []

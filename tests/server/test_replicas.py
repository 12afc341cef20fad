"""Several replicas behind the real router (HAProxy, on the configuration `cove router-config`
renders): sessions spread over the replicas, a rolling deploy keeps every held session and never
answers 502 or 404, a SIGKILL loses only what was not persisted, and the conformance walk and
Otari's call sequence pass through the router.

HAProxy comes from the distribution's package (`.ci/run` installs it when it is missing); a
machine without it skips these tests, except in CI (`CI` set), where that is a failure.
"""

from __future__ import annotations

import os
import pathlib
import signal
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx
import pytest

from tests.contract import test_contract as contract_suite
from tests.support.contract import Contract
from tests.support.replicas import Cluster, find_haproxy, start_cluster, status, wait_until

pytestmark = pytest.mark.slow

NAMES = ("cove-0", "cove-1", "cove-2")
SESSIONS = 30
DRAIN_S = 2.0
START_TIMEOUT_S = 120.0  # the Otari client's patience with a restarting replica


def _haproxy() -> str:
    found = find_haproxy()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("haproxy is not installed (.ci/run installs it: apt-get install haproxy)")
        pytest.skip("haproxy is not installed (apt-get install haproxy)")
    return found


@pytest.fixture
def cluster(tmp_path: pathlib.Path, cache_dir: str) -> Iterator[Cluster]:
    env = {
        "COVE_CACHE_DIR": cache_dir,
        "COVE_DRAIN_S": str(DRAIN_S),
        "COVE_SUSPEND_AFTER_S": "2",
        "COVE_MAX_SESSIONS": "24",
        "COVE_WORKER_THREADS": "2",
    }
    with start_cluster(_haproxy(), tmp_path, NAMES, env) as running:
        yield running


def _replica_of(session_id: str) -> str:
    return session_id.split(".", 1)[0]


def _exec(client: httpx.Client, sid: str, code: str) -> httpx.Response:
    return client.post(
        f"/sessions/{sid}/exec",
        json={"tool": "code_execution", "input": {"code": code}, "timeout_seconds": 60},
    )


@dataclass
class Calls:
    """What the client saw while it kept calling every session through the router."""

    statuses: dict[str, list[tuple[float, int]]] = field(default_factory=lambda: defaultdict(list))
    wrong: list[str] = field(default_factory=list)


def _keep_calling(
    router_url: str, expected: dict[str, int], stop: threading.Event, calls: Calls
) -> None:
    """Call every session in turn until `stop`: `print(x)` must print the session's number;
    a 503 must carry a `Retry-After` of digits; anything else is wrong."""
    with httpx.Client(base_url=router_url, timeout=httpx.Timeout(10, read=70)) as client:
        while not stop.is_set():
            for sid, x in expected.items():
                if stop.is_set():
                    return
                try:
                    response = _exec(client, sid, "print(x)")
                except httpx.TransportError as exc:
                    calls.wrong.append(f"{sid}: {exc!r}")
                    continue
                status = response.status_code
                calls.statuses[_replica_of(sid)].append((time.monotonic(), status))
                if status == 200:
                    stdout = response.json()["result_block"]["content"]["stdout"]
                    if stdout != f"{x}\n":
                        calls.wrong.append(f"{sid}: printed {stdout!r}, not {x}")
                elif status == 503:
                    if not response.headers.get("retry-after", "").isdigit():
                        calls.wrong.append(f"{sid}: 503 without Retry-After")
                    time.sleep(0.02)
                else:
                    calls.wrong.append(f"{sid}: {status} {response.text[:200]}")


def _holds(client: httpx.Client, sid: str, x: int) -> None:
    """The session still has its variable and its file."""
    printed = _exec(client, sid, "print(x)")
    assert printed.status_code == 200, printed.text
    assert printed.json()["result_block"]["content"]["stdout"] == f"{x}\n"
    got = client.get(f"/sessions/{sid}/files", params={"path": "note.txt"})
    assert got.status_code == 200, got.text
    assert got.content == f"session {x}\n".encode()


def test_rolling_deploy_keeps_every_session_and_sigkill_loses_only_the_unpersisted(
    cluster: Cluster,
) -> None:
    expected: dict[str, int] = {}
    with httpx.Client(base_url=cluster.router_url, timeout=httpx.Timeout(10, read=70)) as client:
        for x in range(SESSIONS):
            created = client.post("/sessions", json={})
            assert created.status_code == 201, created.text
            sid = created.json()["session_id"]
            assert _replica_of(sid) in NAMES, sid
            assert _exec(client, sid, f"x = {x}").status_code == 200
            put = client.post(
                f"/sessions/{sid}/files",
                files={"file": ("note.txt", f"session {x}\n".encode())},
                data={"path": "note.txt"},
            )
            assert put.status_code == 201, put.text
            expected[sid] = x
        placed = {name: [s for s in expected if _replica_of(s) == name] for name in NAMES}
        assert all(placed.values()), {n: len(s) for n, s in placed.items()}
        # Each replica holds exactly the sessions its name is on (asked directly).
        for name, sids in placed.items():
            url = cluster.replicas[name].url
            for sid in sids:
                assert status(f"{url}/sessions/{sid}/files/list") == 200
            other = next(s for n, ss in placed.items() if n != name for s in ss)
            assert status(f"{url}/sessions/{other}/files/list") == 404

        # The rolling deploy: each replica in turn stopped with SIGTERM and started again on
        # its volume, as a StatefulSet's rolling update does, while a client keeps calling.
        stop = threading.Event()
        calls = Calls()
        caller = threading.Thread(
            target=_keep_calling, args=(cluster.router_url, expected, stop, calls)
        )
        caller.start()
        stopped_at: dict[str, float] = {}
        back_at: dict[str, float] = {}
        try:
            for name in NAMES:
                replica = cluster.replicas[name]
                time.sleep(1.0)  # calls reach every replica before this one goes
                stopped_at[name] = time.monotonic()
                assert replica.stop() == -signal.SIGTERM, replica.log.read_text()
                replica.start()
                replica.wait_ready()
                ready_at = time.monotonic()

                def served_again(name: str = name, since: float = ready_at) -> bool:
                    return any(s == 200 for t, s in calls.statuses[name] if t > since)

                wait_until(served_again, f"{name}'s sessions to be served again")
                back_at[name] = next(
                    t for t, s in calls.statuses[name] if t > ready_at and s == 200
                )
        finally:
            stop.set()
            caller.join(timeout=120)
        assert not calls.wrong, calls.wrong[:20]
        report = {}
        for name in NAMES:
            unavailable = [t for t, s in calls.statuses[name] if s == 503]
            assert unavailable, f"no call met {name} while it restarted"
            report[name] = {
                "503s": len(unavailable),
                "unavailable_s": round(max(unavailable) - min(unavailable), 2),
                "stop_to_served_s": round(back_at[name] - stopped_at[name], 2),
            }
        print(f"\nrolling deploy, per replica: {report}")
        for sid, x in expected.items():
            _holds(client, sid, x)

        # SIGKILL: what was persisted (suspended, idle) survives; a live session is lost.
        victim = cluster.replicas["cove-2"]
        idle = placed["cove-2"]

        def all_suspended() -> bool:
            return all(any(victim.root.glob(f"pool-*/{sid}.image")) for sid in idle)

        wait_until(all_suspended, "cove-2's idle sessions to be suspended", 60)
        direct = httpx.Client(base_url=victim.url, timeout=httpx.Timeout(10, read=70))
        with direct:
            created = direct.post("/sessions", json={})
            assert created.status_code == 201
            live = created.json()["session_id"]
        assert _replica_of(live) == "cove-2"
        # A file held open keeps the session live: it is not suspended before the kill.
        assert _exec(client, live, "x = -1\nheld = open('held.txt', 'w')").status_code == 200
        assert victim.stop(signal.SIGKILL) == -signal.SIGKILL
        down = _exec(client, live, "print(x)")
        assert down.status_code == 503, down.text
        assert down.headers["retry-after"].isdigit()
        victim.start()
        victim.wait_ready()
        wait_until(
            lambda: _exec(client, idle[0], "pass").status_code == 200,
            "the router to send to cove-2 again",
        )
        for sid in idle:
            _holds(client, sid, expected[sid])
        lost = _exec(client, live, "print(x)")
        assert lost.status_code == 404, lost.text
        assert client.get(f"/sessions/{live}/files/list").status_code == 404


def test_conformance_and_otari_through_the_router(cluster: Cluster) -> None:
    contract = Contract()
    with httpx.Client(base_url=cluster.router_url, timeout=70) as http:
        contract_suite.test_conformance_checker_walk(http, contract)
        # An id no replica minted: any replica answers 404, as for a reclaimed session.
        unknown = http.post(
            "/sessions/nowhere.abc/exec", json={"tool": "code_execution", "input": {"code": "1"}}
        )
        assert unknown.status_code == 404
        contract.validate("Error", unknown.json())

    # Otari's call sequence (create with {}, exec with timeout_seconds 60 and a 70 s read
    # timeout, ListFiles to see the session is still held, DELETE) across a rolling deploy of
    # every replica; a 503's Retry-After is honoured, as Otari's caller is told to.
    def call(otari: httpx.Client, method: str, path: str, **kwargs: object) -> httpx.Response:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            response = otari.request(method, path, **kwargs)  # type: ignore[arg-type]
            if response.status_code != 503 or time.monotonic() > deadline:
                return response
            time.sleep(min(float(response.headers["retry-after"]), 1.0))

    with httpx.Client(base_url=cluster.router_url, timeout=httpx.Timeout(10, read=70)) as otari:
        created = otari.post("/sessions", json={})
        assert created.status_code == 201
        contract.validate("SessionHandle", created.json())
        sid = created.json()["session_id"]
        first = call(
            otari,
            "POST",
            f"/sessions/{sid}/exec",
            json={"tool": "code_execution", "input": {"code": "x = 20"}, "timeout_seconds": 60},
        )
        assert first.status_code == 200
        for name in NAMES:
            replica = cluster.replicas[name]
            assert replica.stop() == -signal.SIGTERM
            replica.start()
            held = call(otari, "GET", f"/sessions/{sid}/files/list")
            assert held.status_code == 200, held.text
            contract.validate("FileList", held.json())
        resumed = call(
            otari,
            "POST",
            f"/sessions/{sid}/exec",
            json={
                "tool": "code_execution",
                "input": {"code": "print(x + 22)"},
                "timeout_seconds": 60,
            },
        )
        assert resumed.status_code == 200, resumed.text
        contract.validate("ExecResponse", resumed.json())
        assert resumed.json()["result_block"]["content"]["stdout"] == "42\n"
        assert call(otari, "DELETE", f"/sessions/{sid}").status_code == 204
        assert otari.get(f"/sessions/{sid}/files/list").status_code == 404

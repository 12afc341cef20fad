"""What several replicas need of each replica, and the router's configuration: replica names in
session ids, `COVE_REPLICA`'s default under Kubernetes, the drain on SIGTERM, and the one
render of HAProxy's configuration (checked by HAProxy itself where it is installed; the
committed Kubernetes copy equal to it). The replicas behind the real router: test_replicas.py.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import time

import httpx
import pytest

import cove
from cove._settings import SESSION_ID_PATTERN
from cove_server import _cli
from cove_server._router import Replica, kubernetes_replicas, render_haproxy
from cove_server._settings import ServerSettings
from tests.support.servers import free_port, start_process

ROOT = pathlib.Path(__file__).resolve().parents[2]
KUBERNETES_CONFIG = ROOT / "deploy" / "kubernetes" / "haproxy.cfg"
# How deploy/kubernetes/haproxy.cfg is rendered (docs/deploy.md says the same).
KUBERNETES_ARGS = ["router-config", "--statefulset", "cove", "--count", "3", "--namespace", "cove"]


def test_a_replica_name_starts_every_id_its_pool_mints() -> None:
    settings = cove.PoolSettings(replica="cove-2", cache_dir=None)
    ids = {settings.new_session_id() for _ in range(100)}
    assert len(ids) == 100
    for sid in ids:
        replica, _, token = sid.partition(".")
        assert replica == "cove-2" and len(token) == 32 and "." not in token
        assert re.match(SESSION_ID_PATTERN, sid)
    plain = cove.PoolSettings(cache_dir=None).new_session_id()
    assert "." not in plain and re.match(SESSION_ID_PATTERN, plain)


@pytest.mark.parametrize("name", ["", "Cove-0", "cove_0", "-cove", "cove-", "a.b", "x" * 64])
def test_a_replica_name_must_be_a_dns_label(name: str) -> None:
    with pytest.raises(cove.InvalidRequestError, match="DNS label"):
        cove.PoolSettings(replica=name, cache_dir=None)
    if name:
        with pytest.raises(ValueError, match="COVE_REPLICA"):
            ServerSettings.resolve({"COVE_REPLICA": name})


def test_the_replica_defaults_to_the_pod_name_under_kubernetes_only() -> None:
    pod = {"KUBERNETES_SERVICE_HOST": "10.0.0.1", "HOSTNAME": "cove-1"}
    assert ServerSettings.resolve(pod).pool.replica == "cove-1"
    assert ServerSettings.resolve({"HOSTNAME": "cove-1"}).pool.replica is None
    # A host name that is no DNS label is not a replica name: ids stay random alone.
    odd = {"KUBERNETES_SERVICE_HOST": "10.0.0.1", "HOSTNAME": "Laptop.local"}
    assert ServerSettings.resolve(odd).pool.replica is None
    named = {**pod, "COVE_REPLICA": "east-3"}
    assert ServerSettings.resolve(named).pool.replica == "east-3"


def test_a_draining_server_fails_its_checks_and_still_serves_then_stops(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
    environ.update(
        COVE_HOST="127.0.0.1",
        COVE_PORT=str(port),
        COVE_CACHE_DIR=cache_dir,
        COVE_WORKSPACE_ROOT=str(tmp_path / "ws"),
        COVE_REPLICA="cove-7",
        COVE_DRAIN_S="30",
    )
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = start_process(
            [sys.executable, "-m", "cove_server", "serve"], port, environ, output=out
        )
    url = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            sid = client.post("/sessions", json={}).json()["session_id"]
            assert sid.startswith("cove-7.")
            process.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 20
            while client.get("/health").status_code == 200:
                assert time.monotonic() < deadline, "never drained"
                time.sleep(0.02)
            health = client.get("/health")
            assert health.status_code == 503 and health.json() == {"status": "draining"}
            ready = client.get("/ready")
            assert ready.status_code == 503 and ready.json()["status"] == "draining"
            # Still serving: a router that has not noticed yet loses nothing.
            served = client.post(
                f"/sessions/{sid}/exec",
                json={"tool": "code_execution", "input": {"code": "print(6 * 7)"}},
            )
            assert served.status_code == 200
            assert served.json()["result_block"]["content"]["stdout"] == "42\n"
            assert process.poll() is None
        # A second signal stops at once, persisting as always (and exits as uvicorn does on
        # a signal: by that signal).
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == -signal.SIGTERM
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (tmp_path / "ws" / "held" / f"{sid}.record").exists()
    assert "draining" in log.read_text()


def test_without_a_drain_sigterm_stops_at_once(tmp_path: pathlib.Path, cache_dir: str) -> None:
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
    environ.update(COVE_HOST="127.0.0.1", COVE_PORT=str(port), COVE_CACHE_DIR=cache_dir)
    process = start_process([sys.executable, "-m", "cove_server", "serve"], port, environ)
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == -signal.SIGTERM


def _render(replicas: list[Replica]) -> str:
    return render_haproxy(replicas, bind="127.0.0.1:8080")


def test_the_router_sends_each_session_to_the_replica_its_id_names() -> None:
    config = _render([Replica("cove-0", "10.0.0.1:8080"), Replica("cove-1", "10.0.0.2:8080")])
    assert "path,field(3,/),field(1,.)" in config
    for name, address in (("cove-0", "10.0.0.1:8080"), ("cove-1", "10.0.0.2:8080")):
        assert f"use_backend replica-{name} if {{ var(txn.replica) -m str {name} }}" in config
        backend = config.split(f"backend replica-{name}\n", 1)[1].split("\n\n", 1)[0]
        assert "option httpchk GET /health" in backend
        assert f"server {name} {address} check" in backend
    anywhere = config.split("backend any\n", 1)[1].split("\n\n", 1)[0]
    assert "option httpchk GET /ready" in anywhere and "balance leastconn" in anywhere
    assert "default_backend any" in config
    # The router's own 503s say when to retry.
    assert re.search(r"http-error status 503 .* hdr Retry-After \d+", config)


@pytest.mark.parametrize(
    "replicas",
    [[], [Replica("cove-0", "a:1"), Replica("cove-0", "b:2")]],
    ids=["none", "twice"],
)
def test_the_router_needs_distinct_replicas(replicas: list[Replica]) -> None:
    with pytest.raises(ValueError, match="distinct names"):
        _render(replicas)


@pytest.mark.parametrize(
    ("name", "address"), [("Cove-0", "a:1"), ("cove-0", "a"), ("cove-0", "a:1 backup")]
)
def test_a_replica_is_a_dns_label_at_host_and_port(name: str, address: str) -> None:
    with pytest.raises(ValueError, match=r"DNS label|host:port"):
        Replica(name, address)


def test_a_statefulset_replicas_are_its_pods_dns_names() -> None:
    pods = kubernetes_replicas("cove", 2, service="cove-hl", namespace="prod", port=9000)
    assert pods == [
        Replica("cove-0", "cove-0.cove-hl.prod.svc.cluster.local:9000"),
        Replica("cove-1", "cove-1.cove-hl.prod.svc.cluster.local:9000"),
    ]
    config = render_haproxy(pods, dns=True)
    assert config.count("resolvers system init-addr last,libc,none") == 4
    assert "parse-resolv-conf" in config


@pytest.mark.parametrize(
    "config",
    [
        _render([Replica("cove-0", "127.0.0.1:9001"), Replica("cove-1", "127.0.0.1:9002")]),
        render_haproxy(kubernetes_replicas("cove", 3, service="cove", namespace="x"), dns=True),
    ],
    ids=["loopback", "kubernetes"],
)
def test_haproxy_accepts_the_render(config: str, tmp_path: pathlib.Path) -> None:
    haproxy = shutil.which("haproxy") or shutil.which("/usr/sbin/haproxy")
    if haproxy is None:
        if os.environ.get("CI"):
            pytest.fail("haproxy is not installed (.ci/run installs it)")
        pytest.skip("haproxy is not installed")
    path = tmp_path / "haproxy.cfg"
    path.write_text(config)
    checked = subprocess.run([haproxy, "-c", "-f", str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # No warning but the one about names that resolve only inside the cluster.
    warnings = [
        line
        for line in checked.stdout.splitlines() + checked.stderr.splitlines()
        if "[WARNING]" in line and "could not resolve address" not in line
    ]
    assert not warnings, warnings


def test_the_kubernetes_router_config_is_the_render(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        _cli.serve_settings(KUBERNETES_ARGS)
    assert stopped.value.code == 0
    rendered = capsys.readouterr().out
    assert KUBERNETES_CONFIG.read_text() == rendered, (
        "deploy/kubernetes/haproxy.cfg is stale: regenerate it with "
        f"cove {' '.join(KUBERNETES_ARGS)} > deploy/kubernetes/haproxy.cfg"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["router-config"], "name the replicas"),
        (["router-config", "--replica", "cove-0"], "expected NAME=HOST:PORT"),
        (["router-config", "--replica", "Cove=a:1"], "DNS label"),
        (
            ["router-config", "--replica", "a=b:1", "--statefulset", "cove"],
            "two ways",
        ),
        (["router-config", "--statefulset", "cove", "--count", "0"], "at least one"),
    ],
)
def test_router_config_refuses_bad_replicas_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        _cli.serve_settings(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err

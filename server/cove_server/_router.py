"""The router in front of several replicas: its HAProxy configuration, rendered in one place.

Every session id a replica mints starts with the replica's name (`COVE_REPLICA`,
`<replica>.<random>`), so the router needs no shared state: `/sessions/<id>/...` goes to the
replica the id names, everything else (creating a session, `/health`, `/metrics`, the schema)
to any ready replica, the least busy first. The configuration here is the only one:
`cove router-config` prints it, deploy/kubernetes/haproxy.cfg is its render for the
manifests (a test keeps the two equal), and the rolling-deploy test runs HAProxy on a render
for replicas on loopback.

What the router answers itself, and why:

- A replica that is starting, draining (`COVE_DRAIN_S`) or gone fails its `/health` check and
  is out of rotation within about a second; its sessions' calls then get **503 with
  `Retry-After`** (the contract's "temporarily unavailable"), as does a call whose connection
  is refused before the check notices (after `retries` attempts). A session whose replica is
  up but does not hold it gets the replica's own 404.
- 502 only when a replica's connection breaks after the request was sent (a crash mid-call):
  the call's outcome is unknown then, and the contract says such a call must not be replayed
  blindly, so the router does not retry it and does not dress it up as a 503.
- HAProxy rather than nginx or Envoy: active health checks and its own error responses in the
  open-source build (nginx's are commercial), and it is one small Debian package (Envoy is not
  packaged by Debian).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from cove import InvalidRequestError
from cove._settings import check_replica

__all__ = ["Replica", "kubernetes_replicas", "render_haproxy"]

_ADDRESS = re.compile(r"[A-Za-z0-9.-]+:[0-9]{1,5}")


@dataclass(frozen=True, slots=True)
class Replica:
    """One replica: its `COVE_REPLICA` name and where it listens (`host:port`)."""

    name: str
    address: str

    def __post_init__(self) -> None:
        try:
            check_replica(self.name)
        except InvalidRequestError as exc:
            raise ValueError(str(exc)) from None
        if not _ADDRESS.fullmatch(self.address):
            raise ValueError(f"replica address {self.address!r} is not host:port")


def kubernetes_replicas(
    statefulset: str, count: int, *, service: str, namespace: str, port: int = 8080
) -> list[Replica]:
    """A StatefulSet's pods, by the stable DNS names its headless Service gives them."""
    if count < 1:
        raise ValueError("a router needs at least one replica")
    return [
        Replica(
            f"{statefulset}-{i}",
            f"{statefulset}-{i}.{service}.{namespace}.svc.cluster.local:{port}",
        )
        for i in range(count)
    ]


def _error(status: int, error: str, detail: str, retry_after_s: int | None) -> str:
    body = json.dumps({"detail": detail, "error": error}, separators=(",", ":"))
    hdr = f" hdr Retry-After {retry_after_s}" if retry_after_s is not None else ""
    # HAProxy's quoting: single quotes keep the JSON's double quotes as they are.
    assert "'" not in body
    return f"    http-error status {status} content-type application/json string '{body}'{hdr}"


def render_haproxy(
    replicas: Sequence[Replica],
    *,
    bind: str = ":8080",
    dns: bool = False,
    retry_after_s: int = 1,
    longest_request_s: int = 660,
    stats_socket: str | None = None,
) -> str:
    """HAProxy's configuration for `replicas`.

    Args:
        replicas: Every replica, by name and address. Their names must be unique.
        bind: Where the router listens.
        dns: Resolve the addresses at run time, again every second, from the system's
            resolvers (Kubernetes: a restarted pod comes back on a new address); without it
            they are resolved once, at start.
        retry_after_s: The `Retry-After` of the router's own 503s.
        longest_request_s: How long a request may take end to end, both sides (a call's
            ceiling of 300 s plus its grace, an upload's `COVE_BODY_TIMEOUT_S` of 600 s).
        stats_socket: A Unix socket where HAProxy answers `show stat` (each replica's state
            as the router sees it), readable by its user only; None: none.
    """
    names = [r.name for r in replicas]
    if not replicas or len(set(names)) != len(names):
        raise ValueError("a router needs replicas with distinct names")
    resolve = " resolvers system init-addr last,libc,none" if dns else ""
    lines = [
        "# Rendered by `cove router-config` (server/cove_server/_router.py): change it there.",
        "global",
        "    maxconn 4096",
        "    log stdout format raw local0 info",
        *([f"    stats socket {stats_socket} mode 600 level user"] if stats_socket else []),
        "",
        "defaults",
        "    mode http",
        "    log global",
        "    option httplog",
        "    option dontlognull",
        "    timeout connect 2s",
        f"    timeout client {longest_request_s}s",
        f"    timeout server {longest_request_s}s",
        "    timeout http-request 15s",
        # Below a replica's own keep-alive (COVE_KEEPALIVE_TIMEOUT_S, 5 s by default).
        "    timeout http-keep-alive 4s",
        "    timeout check 2s",
        # Connection attempts only: a request that reached a replica is never sent again.
        "    retries 3",
        _error(
            503,
            "ReplicaUnavailable",
            "the replica holding this session is starting, stopping or gone; retry",
            retry_after_s,
        ),
        _error(
            502,
            "ReplicaConnectionLost",
            "the connection to the replica broke during the request: its outcome is unknown",
            None,
        ),
        _error(504, "ReplicaTimeout", "the replica did not answer in time", None),
        "",
    ]
    if dns:
        lines += [
            "resolvers system",
            "    parse-resolv-conf",
            "    hold valid 1s",
            "    hold obsolete 1s",
            "    hold nx 1s",
            "    hold refused 1s",
            "    hold timeout 1s",
            "    hold other 1s",
            "    timeout resolve 1s",
            "",
        ]
    lines += [
        "frontend cove",
        f"    bind {bind}",
        # HAProxy's own check: 200 while it runs, whatever the replicas do (while none
        # serves, the router still answers their calls with 503 and Retry-After, which a
        # router taken out of its Service could not).
        "    monitor-uri /router/health",
        # /sessions/<replica>.<random>/...: the id's part before its first dot.
        "    http-request set-var(txn.replica) path,field(3,/),field(1,.) "
        "if { path_beg /sessions/ }",
    ]
    lines += [
        f"    use_backend replica-{r.name} if {{ var(txn.replica) -m str {r.name} }}"
        for r in replicas
    ]
    lines += [
        # Creating a session, /health, /ready, /metrics, the schema; and an id no replica
        # minted, which any replica answers with its 404.
        "    default_backend any",
        "",
        "backend any",
        "    balance leastconn",
        _error(503, "NoReplicaReady", "no replica is ready; retry", retry_after_s),
        # A connection refused (a replica between its last check and the next) tries another.
        "    option redispatch",
        # /ready: open, and below max_sessions.
        "    option httpchk GET /ready",
        "    default-server check inter 1s fastinter 500ms fall 2 rise 1",
    ]
    lines += [f"    server {r.name} {r.address}{resolve}" for r in replicas]
    for r in replicas:
        lines += [
            "",
            f"backend replica-{r.name}",
            # /health: open and not draining (a replica at capacity still serves its own).
            "    option httpchk GET /health",
            f"    server {r.name} {r.address} check inter 500ms fall 2 rise 1{resolve}",
        ]
    return "\n".join(lines) + "\n"

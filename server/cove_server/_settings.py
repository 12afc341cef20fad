"""Server settings, read from the environment once, inside `create_app()` or the CLI.

Every variable is listed in docs/configuration.md (a test checks the two agree).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, Literal

import msgspec

import cove

__all__ = ["ENVIRONMENT", "ServerSettings"]

MiB = 1 << 20


class ServerSettings(msgspec.Struct, frozen=True, kw_only=True):
    """How the HTTP server runs, and the pool it serves.

    Attributes:
        host: Interface to listen on.
        port: TCP port.
        token: Bearer token every contract operation must present; None: no authentication.
        max_body_bytes: Largest request body accepted (413 beyond).
        log_level: Python logging level name for Cove's access and error logs.
        http: HTTP implementation: "httptools", "h11", or "auto" (httptools when installed).
        header_timeout_s: A request's head (request line and headers) must arrive within this
            many seconds of its first byte, or of the connection's opening; else the
            connection is closed.
        body_idle_timeout_s: Longest pause while a request body is being read (408 beyond).
        body_timeout_s: Longest time to read a whole request body (408 beyond).
        keepalive_timeout_s: An idle connection is closed this long after its last response.
        pool: Settings of the pool of sessions.
    """

    host: str = "127.0.0.1"
    port: int = 8080
    token: str | None = None
    max_body_bytes: int = 80 * MiB
    log_level: str = "INFO"
    http: Literal["auto", "httptools", "h11"] = "auto"
    header_timeout_s: float = 10.0
    body_idle_timeout_s: float = 30.0
    body_timeout_s: float = 600.0
    keepalive_timeout_s: float = 5.0
    pool: cove.PoolSettings = msgspec.field(default_factory=cove.PoolSettings)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServerSettings:
        """Settings from environment variables (`os.environ` by default).

        Raises:
            ValueError: a variable has a value that does not parse, naming the variable.
        """
        env = os.environ if environ is None else environ
        server: dict[str, Any] = {}
        pool: dict[str, Any] = {}
        limits: dict[str, Any] = {}
        ceilings: dict[str, Any] = {}
        targets = {"server": server, "pool": pool, "limits": limits, "ceilings": ceilings}
        for var, (target, field, parse, _doc) in ENVIRONMENT.items():
            raw = env.get(var)
            if raw is None or raw == "":
                continue
            try:
                value = parse(raw)
            except ValueError as exc:
                raise ValueError(f"{var}={raw!r}: {exc}") from None
            targets[target][field] = value
        if "port" not in server and env.get("PORT"):
            server["port"] = _int(env["PORT"])
        base = cove.PoolSettings()
        # A default set above the built-in ceiling raises that ceiling, unless it is set too.
        for field, value in limits.items():
            top = getattr(base.ceilings, field)
            if field not in ceilings and value is not None and (top is None or value > top):
                ceilings[field] = value
        defaults = msgspec.structs.replace(base.defaults, **limits)
        tops = msgspec.structs.replace(base.ceilings, **ceilings)
        try:
            pool_settings = cove.PoolSettings(defaults=defaults.clamp(tops), ceilings=tops, **pool)
        except cove.InvalidRequestError as exc:
            raise ValueError(str(exc)) from None
        return cls(pool=pool_settings, **server)


def _int(raw: str) -> int:
    value = int(raw)
    if value < 0:
        raise ValueError("must not be negative")
    return value


def _float(raw: str) -> float:
    return float(raw)


def _seconds(raw: str) -> float:
    value = float(raw)
    if not value > 0 or value == float("inf"):
        raise ValueError("must be a positive number of seconds")
    return value


def _http(raw: str) -> str:
    if raw not in ("auto", "httptools", "h11"):
        raise ValueError("expected auto, httptools or h11")
    return raw


def _mib(raw: str) -> int:
    return int(float(raw) * MiB)


def _str(raw: str) -> str:
    return raw


def _bool(raw: str) -> bool:
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise ValueError("expected true or false")


Parse = Callable[[str], Any]

# variable -> (where it goes, field, parser, description). docs/configuration.md mirrors this.
ENVIRONMENT: dict[str, tuple[str, str, Parse, str]] = {
    "COVE_HOST": ("server", "host", _str, "Interface to listen on (default 127.0.0.1)."),
    "COVE_PORT": ("server", "port", _int, "TCP port (default 8080; `PORT` is used when unset)."),
    "COVE_TOKEN": ("server", "token", _str, "Bearer token required on every contract operation."),
    "COVE_MAX_BODY_MB": ("server", "max_body_bytes", _mib, "Largest request body (default 80)."),
    "COVE_LOG_LEVEL": ("server", "log_level", _str, "Logging level (default INFO)."),
    "COVE_HTTP": ("server", "http", _http, "HTTP implementation: auto, httptools or h11."),
    "COVE_HEADER_TIMEOUT_S": (
        "server",
        "header_timeout_s",
        _seconds,
        "Seconds for a request's head to arrive (default 10).",
    ),
    "COVE_BODY_IDLE_TIMEOUT_S": (
        "server",
        "body_idle_timeout_s",
        _seconds,
        "Longest pause in a request body (default 30).",
    ),
    "COVE_BODY_TIMEOUT_S": (
        "server",
        "body_timeout_s",
        _seconds,
        "Seconds to receive a whole request body (default 600).",
    ),
    "COVE_KEEPALIVE_TIMEOUT_S": (
        "server",
        "keepalive_timeout_s",
        _seconds,
        "Idle connections are closed after this (default 5).",
    ),
    "COVE_WORKSPACE_ROOT": ("pool", "workspace_root", _str, "Directory for session workspaces."),
    "COVE_CACHE_DIR": ("pool", "cache_dir", _str, "Compiled-interpreter cache directory."),
    "COVE_MAX_SESSIONS": ("pool", "max_sessions", _int, "Live sessions at most (default 256)."),
    "COVE_MAX_QUEUED_CALLS": ("pool", "max_queued_calls", _int, "Calls queued per session."),
    "COVE_WORKER_THREADS": ("pool", "worker_threads", _int, "Threads running wasm (default CPUs)."),
    "COVE_CONSUME_FUEL": ("pool", "consume_fuel", _bool, "Meter wasm fuel (default: when a fuel limit is set)."),
    "COVE_MAX_OPEN_FILES": ("pool", "max_open_files", _int, "Open files per interpreter."),
    "COVE_MAX_DIRECTORY_DEPTH": ("pool", "max_directory_depth", _int, "Directory nesting."),
    "COVE_TIMEOUT_S": ("limits", "timeout_s", _float, "Default wall-clock limit per call."),
    "COVE_MAX_TIMEOUT_S": ("ceilings", "timeout_s", _float, "Ceiling for timeout_seconds."),
    "COVE_FUEL": ("limits", "fuel", _int, "Fuel per call (default: unlimited)."),
    "COVE_MEMORY_MB": ("limits", "memory_bytes", _mib, "Guest memory per session, MiB."),
    "COVE_MAX_OUTPUT_KB": (
        "limits",
        "max_output_bytes",
        lambda raw: int(float(raw) * 1024),
        "Kept per stream.",
    ),
    "COVE_WORKSPACE_MB": ("limits", "workspace_bytes", _mib, "Workspace size per session, MiB."),
    "COVE_WORKSPACE_FILES": ("limits", "workspace_files", _int, "Files per workspace."),
    "COVE_MAX_UPLOAD_MB": ("limits", "max_file_bytes", _mib, "Largest PutFile upload, MiB."),
    "COVE_MAX_CODE_KB": (
        "limits",
        "max_request_bytes",
        lambda raw: int(float(raw) * 1024),
        "Largest tool input.",
    ),
    "COVE_IDLE_TIMEOUT_S": ("limits", "idle_timeout_s", _float, "Default idle timeout."),
    "COVE_MAX_IDLE_TIMEOUT_S": ("ceilings", "idle_timeout_s", _float, "Idle timeout ceiling."),
    "COVE_MAX_LIFETIME_S": ("limits", "max_lifetime_s", _float, "Default maximum lifetime."),
    "COVE_MAX_MAX_LIFETIME_S": ("ceilings", "max_lifetime_s", _float, "Lifetime ceiling."),
}

"""Server settings, and `SETTINGS`: the one table of Cove's environment variables.

Each `Setting` row is the single home of a variable: the field it sets, its parser, its
`cove serve` flag (where one exists), its default as documented and its description.
`ServerSettings.resolve` applies the table (to `create_app()` and `cove serve` alike), the CLI
generates its flags from it, and docs/configuration.md's tables are rendered from it
(`python -m cove_server._settings_doc`; a test compares the file with the render).

Over 500 lines because the table is: one row per variable, each with its description, kept in
one place so that the flags, the defaults and the docs cannot drift apart.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import msgspec

import cove
from cove import KiB, MiB
from cove._settings import check_replica

__all__ = ["SETTINGS", "ServerSettings", "Setting"]


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
        body_idle_timeout_s: Longest pause while a request body is being read (408 beyond), and
            while a download waits for its client to take the next piece (cut off beyond).
        body_timeout_s: Longest time to read a whole request body (408 beyond).
        keepalive_timeout_s: An idle connection is closed this long after its last response.
        unavailable_retry_after_s: The `Retry-After` of a 503 that is not about capacity (the
            interpreter cannot run); capacity errors carry the pool's own `retry_after_s`.
        drain_s: `cove serve`, on SIGTERM: seconds to keep serving while `/health` and
            `/ready` answer 503, before the listener closes.
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
    unavailable_retry_after_s: int = 5
    drain_s: float = 0.0
    pool: cove.PoolSettings = msgspec.field(default_factory=cove.PoolSettings)

    @classmethod
    def resolve(
        cls,
        environ: Mapping[str, str] | None = None,
        overrides: Mapping[str, object] | None = None,
    ) -> ServerSettings:
        """Settings from `SETTINGS`: environment variables, then typed overrides.

        Args:
            environ: The environment (`os.environ` by default). Empty values count as unset.
            overrides: Values that win over the environment, already parsed, keyed by the
                variable they replace (`{"COVE_PORT": 9000}`); `cove serve` passes its flags
                this way.

        Raises:
            ValueError: a variable has a value that does not parse, or the values together
                make invalid settings; the message names the variable.
        """
        env = os.environ if environ is None else environ
        given = {} if overrides is None else dict(overrides)
        unknown = given.keys() - {s.env for s in SETTINGS}
        if unknown:
            raise ValueError(f"no such setting: {', '.join(sorted(unknown))}")
        values: dict[str, dict[str, Any]] = {"server": {}, "pool": {}, "limits": {}, "ceilings": {}}
        for setting in SETTINGS:
            if setting.env in given:
                value = given[setting.env]
            elif (found := setting.read(env)) is not None:
                value = found
            elif setting.default is not None:
                value = setting.default(env)
            else:
                continue
            values[setting.target][setting.field] = value
        limits, ceilings = values["limits"], values["ceilings"]
        base = cove.PoolSettings()
        # A default set above the built-in ceiling raises that ceiling, unless it is set too.
        for field, value in limits.items():
            top = getattr(base.ceilings, field)
            if field not in ceilings and value is not None and (top is None or value > top):
                ceilings[field] = value
        try:
            defaults = msgspec.structs.replace(base.defaults, **limits)
            tops = msgspec.structs.replace(base.ceilings, **ceilings)
            pool = cove.PoolSettings(defaults=defaults.clamp(tops), ceilings=tops, **values["pool"])
        except cove.InvalidRequestError as exc:
            raise ValueError(str(exc)) from None
        return cls(pool=pool, **values["server"])

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServerSettings:
        """Settings from environment variables alone: `resolve(environ)`.

        Raises:
            ValueError: a variable has a value that does not parse, naming the variable.
        """
        return cls.resolve(environ)


Target = Literal["server", "pool", "limits", "ceilings"]


@dataclass(frozen=True, kw_only=True, slots=True)
class Setting:
    """One environment variable: where its value goes, how it parses, how it is documented.

    Attributes:
        env: The variable's name.
        target: What it sets: a `ServerSettings` field ("server"), a `PoolSettings` field
            ("pool"), or a field of the pool's default `Limits` ("limits") or ceilings
            ("ceilings").
        field: The field's name in its target.
        parse: Turns the variable's text into the field's value; raises ValueError.
        doc: What it means (Markdown, one paragraph): the documentation and `--help` text.
        default_doc: The default as documented: a value in backticks when it is one (a test
            checks it against the real default), else words.
        flag: The `cove serve` option that overrides it, or None.
        aliases: Variables read, in order, when `env` is unset (`PORT` for `COVE_PORT`).
        default: Computes the default from the environment when it is not the target's own
            (the cache directory under `$XDG_CACHE_HOME`).
    """

    env: str
    target: Target
    field: str
    parse: Callable[[str], object]
    doc: str
    default_doc: str
    flag: str | None = None
    aliases: tuple[str, ...] = ()
    default: Callable[[Mapping[str, str]], object] | None = None

    def read(self, environ: Mapping[str, str]) -> object | None:
        """The parsed value of this variable (or of an alias) in `environ`; None when unset.

        Raises:
            ValueError: the text does not parse; the message names the variable.
        """
        for name in (self.env, *self.aliases):
            raw = environ.get(name)
            if raw:
                try:
                    return self.parse(raw)
                except ValueError as exc:
                    raise ValueError(f"{name}={raw!r}: {exc}") from None
        return None


def _int(raw: str) -> int:
    value = int(raw)
    if value < 0:
        raise ValueError("must not be negative")
    return value


def _positive_int(raw: str) -> int:
    value = int(raw)
    if value < 1:
        raise ValueError("must be at least 1")
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


def _kib(raw: str) -> int:
    return int(float(raw) * KiB)


def _str(raw: str) -> str:
    return raw


def _float_not_negative(raw: str) -> float:
    value = float(raw)
    if not 0 <= value < float("inf"):
        raise ValueError("must be a number of seconds, 0 or more")
    return value


def _replica(raw: str) -> str:
    try:
        return check_replica(raw)
    except cove.InvalidRequestError as exc:
        raise ValueError(str(exc)) from None


def _default_replica(environ: Mapping[str, str]) -> str | None:
    """The pod's name (`HOSTNAME`) when Kubernetes runs the process and it is a DNS label."""
    if not environ.get("KUBERNETES_SERVICE_HOST"):
        return None
    try:
        return _replica(environ.get("HOSTNAME", ""))
    except ValueError:
        return None


def _bool(raw: str) -> bool:
    if raw.lower() in {"1", "true", "yes", "on"}:
        return True
    if raw.lower() in {"0", "false", "no", "off"}:
        return False
    raise ValueError("expected true or false")


def _seconds_or_never(raw: str) -> float:
    if raw.lower() in {"never", "off"}:
        return float("inf")
    value = float(raw)
    if not value >= 0:
        raise ValueError("expected a number of seconds, or never")
    return value


def _default_cache_dir(environ: Mapping[str, str]) -> str:
    return cove.default_cache_dir(environ)


SETTINGS: tuple[Setting, ...] = (
    Setting(
        env="COVE_HOST",
        target="server",
        field="host",
        parse=_str,
        flag="--host",
        default_doc="`127.0.0.1`",
        doc="Interface to listen on. Use `0.0.0.0` on a PaaS.",
    ),
    Setting(
        env="COVE_PORT",
        target="server",
        field="port",
        parse=_int,
        flag="--port",
        aliases=("PORT",),
        default_doc="`8080`",
        doc="TCP port. When it is unset, `PORT` is used (Heroku-style platforms set it).",
    ),
    Setting(
        env="COVE_TOKEN",
        target="server",
        field="token",
        parse=_str,
        default_doc="unset",
        doc="When set, every contract operation and `/metrics` needs `Authorization: Bearer "
        "<token>` (compared in constant time, never logged); `/health` and `/ready` stay open. "
        "`cove serve --token-env VAR` reads it from another variable, and refuses to start "
        "when that one is empty.",
    ),
    Setting(
        env="COVE_MAX_BODY_MB",
        target="server",
        field="max_body_bytes",
        parse=_mib,
        default_doc="`80`",
        doc="Largest request body; larger bodies get 413.",
    ),
    Setting(
        env="COVE_LOG_LEVEL",
        target="server",
        field="log_level",
        parse=_str,
        default_doc="`INFO`",
        doc="Level of Cove's JSON logs on stderr (one line per request: method, route, status, "
        "duration; never bodies).",
    ),
    Setting(
        env="COVE_HTTP",
        target="server",
        field="http",
        parse=_http,
        default_doc="`auto`",
        doc="HTTP implementation: `httptools`, `h11`, or `auto` (httptools when installed, "
        "else h11).",
    ),
    Setting(
        env="COVE_HEADER_TIMEOUT_S",
        target="server",
        field="header_timeout_s",
        parse=_seconds,
        default_doc="`10`",
        doc="A request's head (request line and headers) must arrive within this many seconds "
        "of its first byte, or of the connection opening; otherwise the connection is closed.",
    ),
    Setting(
        env="COVE_BODY_IDLE_TIMEOUT_S",
        target="server",
        field="body_idle_timeout_s",
        parse=_seconds,
        default_doc="`30`",
        doc="Longest pause while a request body is read; beyond it the request gets 408 and "
        "its connection is closed. Also the longest a download waits for its client to take "
        "the next piece; beyond it the download is cut off and its file released.",
    ),
    Setting(
        env="COVE_BODY_TIMEOUT_S",
        target="server",
        field="body_timeout_s",
        parse=_seconds,
        default_doc="`600`",
        doc="Longest time to receive a whole request body (408 beyond).",
    ),
    Setting(
        env="COVE_KEEPALIVE_TIMEOUT_S",
        target="server",
        field="keepalive_timeout_s",
        parse=_seconds,
        default_doc="`5`",
        doc="An idle connection is closed this long after its last response (rounded up to "
        "whole seconds).",
    ),
    Setting(
        env="COVE_UNAVAILABLE_RETRY_AFTER_S",
        target="server",
        field="unavailable_retry_after_s",
        parse=_positive_int,
        default_doc="`5`",
        doc="`Retry-After` of a 503 when the interpreter cannot run (a capacity 503 says `1`).",
    ),
    Setting(
        env="COVE_WORKSPACE_ROOT",
        target="pool",
        field="workspace_root",
        parse=_str,
        flag="--workspace-root",
        default_doc="a private temp dir",
        doc="Directory holding one workspace directory per session. Stale workspaces of a "
        "crashed process under it are removed at start.",
    ),
    Setting(
        env="COVE_CACHE_DIR",
        target="pool",
        field="cache_dir",
        parse=_str,
        flag="--cache-dir",
        default=_default_cache_dir,
        default_doc="`$XDG_CACHE_HOME/cove` or `~/.cache/cove`",
        doc="Where the compiled interpreter is cached: the first start compiles it (about half a "
        "minute on 2 cores, in the background), later starts load it in under a second; "
        "`cove compile` fills it at build time. Pools made with `cove.PoolSettings()` share "
        "the same default.",
    ),
    Setting(
        env="COVE_MAX_SESSIONS",
        target="pool",
        field="max_sessions",
        parse=_int,
        flag="--max-sessions",
        default_doc="`256`",
        doc="Live sessions at most; one more gets 503 with `Retry-After`.",
    ),
    Setting(
        env="COVE_MAX_QUEUED_CALLS",
        target="pool",
        field="max_queued_calls",
        parse=_int,
        default_doc="`32`",
        doc="Calls that may wait behind a running one on the same session; more get 503.",
    ),
    Setting(
        env="COVE_WORKER_THREADS",
        target="pool",
        field="worker_threads",
        parse=_int,
        default_doc="CPU count",
        doc="Threads running wasm at once.",
    ),
    Setting(
        env="COVE_CONSUME_FUEL",
        target="pool",
        field="consume_fuel",
        parse=_bool,
        default_doc="on when `COVE_FUEL` is set",
        doc="Meter wasm fuel (reported as `fuel_used`, null when off; needed for `COVE_FUEL`). "
        "Metering costs ~10-15% on CPU-bound code, so it is off unless a fuel limit asks for it.",
    ),
    Setting(
        env="COVE_MAX_OPEN_FILES",
        target="pool",
        field="max_open_files",
        parse=_int,
        default_doc="`256`",
        doc="Files and directories one interpreter may hold open (each is a host file "
        'descriptor); past it, opening fails with "Too many open files". `cove serve` raises '
        "its soft descriptor limit to the hard one; when `max_sessions × 4 × (cap + 9) + 1024` "
        "does not fit under it, the default cap is lowered to fit (logged), and a cap set "
        "here is kept with a warning.",
    ),
    Setting(
        env="COVE_MAX_DIRECTORY_DEPTH",
        target="pool",
        field="max_directory_depth",
        parse=_int,
        default_doc="`64`",
        doc="How deep directories may nest below /workspace (the guest's mkdir and rename, and "
        "host-side paths).",
    ),
    Setting(
        env="COVE_TIMEOUT_GRACE_S",
        target="pool",
        field="timeout_grace_s",
        parse=_float,
        default_doc="`1`",
        doc="At a call's deadline its code is interrupted (`TimeLimitExceeded`, a "
        "`BaseException`) and the session keeps its variables; code still running this many "
        "seconds later (one long C call, or code that catches the exception) is stopped by "
        "force and the interpreter reset. A call can last its timeout plus this. `0`: no "
        "soft stage (every timeout resets the interpreter).",
    ),
    Setting(
        env="COVE_SUSPEND_AFTER_S",
        target="pool",
        field="suspend_after_s",
        parse=_seconds_or_never,
        default=lambda environ: 300.0,
        default_doc="`300`",
        doc="A session idle this long is suspended to disk (the memory pages it changed, "
        "compressed; typically 0.3-2 MB) and its memory released; its next call resumes it in "
        "milliseconds. `never` turns it off. A session whose code holds files open stays live.",
    ),
    Setting(
        env="COVE_SPARE_SESSIONS",
        target="pool",
        field="spare_sessions",
        parse=_int,
        default_doc="`1`",
        doc="Sessions made ahead: creating a session hands a spare over at once (no "
        "interpreter to instantiate), with the pages a first call writes already private and "
        "a first request made, so its first call costs about a third of a new one's; another "
        "is made in the background. Sessions asking for a memory limit other than the "
        "default are made on demand. `0`: none.",
    ),
    Setting(
        env="COVE_PERSIST_SESSIONS",
        target="pool",
        field="persist_sessions",
        parse=_bool,
        default=lambda environ: bool(environ.get("COVE_WORKSPACE_ROOT")),
        default_doc="on when `COVE_WORKSPACE_ROOT` is set",
        doc="On shutdown, suspend every session into `COVE_WORKSPACE_ROOT/held/` instead of "
        "destroying it, and take them back at the next start: held sessions keep their "
        "variables and files across a restart or deploy (their idle and lifetime clocks keep "
        "running). Files the session's code left open are flushed and closed first. Needs "
        "`COVE_WORKSPACE_ROOT` (a private temp dir does not outlive the process).",
    ),
    Setting(
        env="COVE_REPLICA",
        target="pool",
        field="replica",
        parse=_replica,
        flag="--replica",
        default=_default_replica,
        default_doc="the pod's name under Kubernetes (`$HOSTNAME`), else none",
        doc="This replica's name among several behind one router: every session id it mints "
        "starts with it (`<replica>.<random>`), so the router sends each session's calls to "
        'the replica that holds it from the id alone (docs/deploy.md, "Several replicas"). '
        "A DNS label (lowercase letters, digits, `-`), such as a StatefulSet pod's name.",
    ),
    Setting(
        env="COVE_DRAIN_S",
        target="server",
        field="drain_s",
        parse=_float_not_negative,
        default_doc="`0`",
        doc="On SIGTERM, keep serving this many seconds with `/health` and `/ready` answering "
        "503 (`draining`) before the listener closes, so a router's health checks take the "
        "replica out of rotation first and no request meets a closing socket. `0`: stop at "
        "once.",
    ),
    Setting(
        env="COVE_TIMEOUT_S",
        target="limits",
        field="timeout_s",
        parse=_float,
        flag="--timeout",
        default_doc="`30`",
        doc="Wall-clock limit per call when the request gives no `timeout_seconds`.",
    ),
    Setting(
        env="COVE_MAX_TIMEOUT_S",
        target="ceilings",
        field="timeout_s",
        parse=_float,
        default_doc="`300`",
        doc="Ceiling for `timeout_seconds` (larger requests are clamped).",
    ),
    Setting(
        env="COVE_FUEL",
        target="limits",
        field="fuel",
        parse=_int,
        default_doc="unlimited",
        doc="Wasm fuel per call.",
    ),
    Setting(
        env="COVE_MEMORY_MB",
        target="limits",
        field="memory_bytes",
        parse=_mib,
        default_doc="`512`",
        doc=(
            "Guest memory per session; past it, allocation raises `MemoryError` in the guest."
            " At least the ~73 MiB the interpreter starts with (its snapshot, numpy, pandas and"
            " matplotlib's pyplot imported): below it the server refuses to start."
        ),
    ),
    Setting(
        env="COVE_MAX_OUTPUT_KB",
        target="limits",
        field="max_output_bytes",
        parse=_kib,
        default_doc="`1024`",
        doc="Bytes of stdout and of stderr kept per call; the rest is counted and dropped.",
    ),
    Setting(
        env="COVE_WORKSPACE_MB",
        target="limits",
        field="workspace_bytes",
        parse=_mib,
        default_doc="`256`",
        doc="Total size of a session's workspace files.",
    ),
    Setting(
        env="COVE_WORKSPACE_FILES",
        target="limits",
        field="workspace_files",
        parse=_int,
        default_doc="`10000`",
        doc="Files and directories in a session's workspace.",
    ),
    Setting(
        env="COVE_MAX_UPLOAD_MB",
        target="limits",
        field="max_file_bytes",
        parse=_mib,
        default_doc="`64`",
        doc="Largest file PutFile accepts (413 beyond, nothing written).",
    ),
    Setting(
        env="COVE_MAX_CODE_KB",
        target="limits",
        field="max_request_bytes",
        parse=_kib,
        default_doc="`4096`",
        doc="Largest code, command or file text in one tool call (422 beyond).",
    ),
    Setting(
        env="COVE_IDLE_TIMEOUT_S",
        target="limits",
        field="idle_timeout_s",
        parse=_float,
        default_doc="`600`",
        doc="A session unused this long is reclaimed (reported as `idle_timeout_seconds`).",
    ),
    Setting(
        env="COVE_MAX_IDLE_TIMEOUT_S",
        target="ceilings",
        field="idle_timeout_s",
        parse=_float,
        default_doc="`86400`",
        doc="Ceiling for the `idle_timeout_seconds` hint.",
    ),
    Setting(
        env="COVE_MAX_LIFETIME_S",
        target="limits",
        field="max_lifetime_s",
        parse=_float,
        default_doc="`3600`",
        doc="A session is reclaimed this long after creation.",
    ),
    Setting(
        env="COVE_MAX_MAX_LIFETIME_S",
        target="ceilings",
        field="max_lifetime_s",
        parse=_float,
        default_doc="`86400`",
        doc="Ceiling for the `max_lifetime_seconds` hint.",
    ),
)

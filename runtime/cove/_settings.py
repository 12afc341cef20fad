"""Configuration as values: per-session limits, and the pool's settings.

The runtime never reads the environment: a gateway or the server builds these and passes them
in. Limits have defaults (what a session gets when it asks for nothing) and ceilings (the most
a session or a call may ask for); hints above a ceiling are clamped, never refused.
"""

from __future__ import annotations

import math
import os
import re
import secrets
from collections.abc import Mapping

import msgspec

from ._errors import InvalidRequestError

__all__ = ["KiB", "Limits", "MiB", "PoolSettings", "SessionOptions"]

# Size units, for building settings in bytes: `Limits(memory_bytes=256 * MiB)`.
KiB = 1 << 10
MiB = 1 << 20

# A replica's name (RFC 1123 label, as Kubernetes names pods): never holds the id's dot.
_REPLICA = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")
# Every session id a pool mints (`PoolSettings.new_session_id`), and so every one a held
# session's record may name: it becomes file names, so nothing else is ever accepted.
SESSION_ID_PATTERN = rf"^({_REPLICA.pattern}\.)?[A-Za-z0-9_-]{{16,64}}$"


def check_replica(name: str) -> str:
    """`name` if it may name a replica (`PoolSettings.replica`).

    Raises:
        InvalidRequestError: it is not an RFC 1123 label.
    """
    if not _REPLICA.fullmatch(name):
        raise InvalidRequestError(
            f"replica {name!r} is not a DNS label (lowercase letters, digits and '-', not at"
            " either end, at most 63 characters)"
        )
    return name


class Limits(msgspec.Struct, frozen=True, kw_only=True):
    """What one session may use. Sizes are bytes, times are seconds.

    Attributes:
        timeout_s: Wall-clock limit of one call (enforced by wasmtime's epoch deadline).
        fuel: Wasm fuel per call, or None for no fuel limit (wall clock still applies).
        memory_bytes: The guest's linear memory; past it, allocation raises `MemoryError`.
        max_output_bytes: Bytes kept per stream (stdout, stderr) per call; the rest is counted.
        workspace_bytes: Total size of the files in the session's workspace.
        workspace_files: Number of files and directories in the workspace.
        max_file_bytes: Largest file a host-side upload may write.
        max_request_bytes: Largest tool input (code, command, file text) accepted.
        idle_timeout_s: A session unused this long is reclaimed.
        max_lifetime_s: A session is reclaimed this long after creation.
        max_nested_python: How deep the shell's `python` command may nest inside one call (a
            `python` that runs `python` ...); each level is a whole interpreter, sharing the
            call's deadline, fuel and memory.
    """

    timeout_s: float = 30.0
    fuel: int | None = None
    memory_bytes: int = 512 * MiB
    max_output_bytes: int = 1 * MiB
    workspace_bytes: int = 256 * MiB
    workspace_files: int = 10_000
    max_file_bytes: int = 64 * MiB
    max_request_bytes: int = 4 * MiB
    idle_timeout_s: float = 600.0
    max_lifetime_s: float = 3600.0
    max_nested_python: int = 3

    def __post_init__(self) -> None:
        for name in self.__struct_fields__:
            value = getattr(self, name)
            if value is None:
                continue
            if not math.isfinite(value) or value <= 0:
                raise InvalidRequestError(f"limit {name} must be a positive number, not {value!r}")

    def clamp(self, ceiling: Limits) -> Limits:
        """These limits, each lowered to `ceiling`'s where it is above it."""
        changes: dict[str, object] = {}
        for name in self.__struct_fields__:
            mine, top = getattr(self, name), getattr(ceiling, name)
            if top is not None and (mine is None or mine > top):
                changes[name] = top
        return msgspec.structs.replace(self, **changes) if changes else self


class SessionOptions(msgspec.Struct, frozen=True, kw_only=True):
    """Hints a client gives when creating a session; each is clamped to the pool's ceilings.

    Attributes:
        idle_timeout_s: Requested idle timeout.
        max_lifetime_s: Requested maximum lifetime.
        timeout_s: Requested default wall-clock limit per call.
        memory_bytes: Requested guest memory.
        image: An image hint, accepted and ignored: Cove has one interpreter, which runs
            whatever is asked for (the contract forbids failing because of it); the session's
            `SessionInfo.image` names the one that runs (`PoolSettings.image`).
    """

    idle_timeout_s: float | None = None
    max_lifetime_s: float | None = None
    timeout_s: float | None = None
    memory_bytes: int | None = None
    image: str | None = None


def default_cache_dir(environ: Mapping[str, str] | None = None) -> str:
    """The compiled interpreter's cache shared by every pool of this user, unless told
    otherwise: `$XDG_CACHE_HOME/cove`, or `~/.cache/cove`. Entries are keyed by the artifact,
    wasmtime's version and the engine's configuration, so one never goes stale."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "cove")


def _default_workers() -> int:
    return max(1, os.cpu_count() or 1)


class PoolSettings(msgspec.Struct, frozen=True, kw_only=True):
    """Settings of one pool of sessions (one wasmtime engine).

    Attributes:
        workspace_root: Directory under which each session gets its workspace directory. None:
            a private temporary directory, removed on close.
        cache_dir: Where the compiled interpreter is cached (default: `default_cache_dir()`,
            the one `cove serve` uses). None: no disk cache (every pool compiles, which takes
            about half a minute and ~940 MiB).
        artifact_dir: The interpreter artifact (python.wasm, lib/, manifest.json). None: the
            one shipped inside this package.
        max_sessions: Live sessions at most; creating one more raises `CapacityError`.
        max_queued_calls: Calls waiting behind a running one on the same session, at most.
        worker_threads: Threads running wasm at once (None: one per CPU).
        defaults: Limits a session gets when it asks for nothing.
        ceilings: The most any session or call may ask for.
        consume_fuel: Wasmtime fuel metering (needed for `Limits.fuel` and for reporting
            `fuel_used`; costs ~10-15% on CPU-bound code). None (the default): metered only
            when a fuel limit is configured (a default or a ceiling); `metered` says which.
        epoch_tick_s: Period of the epoch ticker; deadlines are accurate to about this.
        timeout_grace_s: At a call's deadline its code is interrupted (`TimeLimitExceeded`
            at its next bytecode boundary) and the session keeps its state; code that has not
            stopped this much later (one long C call, or code that catches the exception) is
            ended by force, and the interpreter is reset. 0: no soft stage (every timeout
            resets the interpreter).
        reap_interval_s: The shortest time between two looks for expired sessions (and idle
            ones to suspend); between them the reaper sleeps until one may be due.
        retry_after_s: The retry hint given with `CapacityError`.
        image: The name reported for the one interpreter image Cove runs.
        max_open_files: Files and directories one interpreter may hold open at once (each is a
            host file descriptor); past it, opening fails with "Too many open files".
        max_directory_depth: How deep directories may nest below /workspace, for the guest's
            mkdir and rename and for host-side file operations.
        suspend_after_s: A session idle this long is suspended: its interpreter's state is
            written to disk (the pages it changed, compressed) and its memory released; its
            next call resumes it. None (or infinity): never. A session whose code holds files
            open stays live.
        persist_sessions: On close, suspend every session into `workspace_root`'s `held/`
            directory instead of destroying it, and on open take back what is there: held
            sessions survive a restart, their clocks still running. Needs `workspace_root`.
        spare_sessions: Sessions kept made ahead (interpreter instantiated, the pages a first
            call writes already private, a first request made), so that creating one hands a
            spare over at once and its first call costs about a third of a new one's; made
            again in the background. Used for sessions with the default memory limit, within
            `async with Pool(...)` only. 0: none.
        replica: This pool's name among several replicas behind one router: every session id
            it mints starts with it (`<replica>.<random>`), so a router sends a session's calls
            to the replica that holds it from the id alone (docs/deploy.md, "Several
            replicas"). A DNS label: lowercase letters, digits and `-`, at most 63
            characters. None: ids are random alone.
    """

    workspace_root: str | None = None
    cache_dir: str | None = msgspec.field(default_factory=lambda: default_cache_dir())
    artifact_dir: str | None = None
    max_sessions: int = 256
    max_queued_calls: int = 32
    worker_threads: int = msgspec.field(default_factory=_default_workers)
    defaults: Limits = Limits()
    ceilings: Limits = Limits(
        timeout_s=300.0,
        memory_bytes=2048 * MiB,
        max_output_bytes=16 * MiB,
        workspace_bytes=1024 * MiB,
        workspace_files=100_000,
        max_file_bytes=256 * MiB,
        max_request_bytes=16 * MiB,
        idle_timeout_s=86_400.0,
        max_lifetime_s=86_400.0,
    )
    consume_fuel: bool | None = None
    epoch_tick_s: float = 0.01
    timeout_grace_s: float = 1.0
    reap_interval_s: float = 1.0
    retry_after_s: int = 1
    image: str = "python:3.11"
    max_open_files: int = 256
    max_directory_depth: int = 64
    suspend_after_s: float | None = None
    persist_sessions: bool = False
    spare_sessions: int = 1
    replica: str | None = None

    def __post_init__(self) -> None:
        if self.replica is not None:
            check_replica(self.replica)
        if self.max_sessions < 1 or self.max_queued_calls < 0 or self.worker_threads < 1:
            raise InvalidRequestError("max_sessions and worker_threads must be at least 1")
        if not 0 <= self.spare_sessions <= 64:
            raise InvalidRequestError("spare_sessions must be between 0 and 64")
        if not 8 <= self.max_open_files <= 4096 or not 1 <= self.max_directory_depth <= 1024:
            raise InvalidRequestError(
                "max_open_files must be 8 to 4096, max_directory_depth 1 to 1024"
            )
        if not 0.001 <= self.epoch_tick_s <= 1.0:
            raise InvalidRequestError("epoch_tick_s must be between 0.001 and 1 second")
        if not (self.timeout_grace_s == 0 or 0.01 <= self.timeout_grace_s <= 60.0):
            raise InvalidRequestError("timeout_grace_s must be 0, or 0.01 to 60 seconds")
        if self.suspend_after_s is not None and not self.suspend_after_s >= 0:
            raise InvalidRequestError("suspend_after_s must be a number of seconds, 0 or more")
        if self.persist_sessions and self.workspace_root is None:
            raise InvalidRequestError("persist_sessions needs a workspace_root to keep them in")
        if self.consume_fuel is False and (
            self.defaults.fuel is not None or self.ceilings.fuel is not None
        ):
            raise InvalidRequestError("a fuel limit needs fuel metering (consume_fuel)")

    def new_session_id(self) -> str:
        """A new session id: 144 random bits, URL-safe, after `replica` and a dot if set."""
        token = secrets.token_urlsafe(24)
        return token if self.replica is None else f"{self.replica}.{token}"

    @property
    def metered(self) -> bool:
        """Whether wasm fuel is metered: `consume_fuel`, or a fuel limit when it is None."""
        if self.consume_fuel is not None:
            return self.consume_fuel
        return self.defaults.fuel is not None or self.ceilings.fuel is not None

    def session_limits(self, options: SessionOptions | None) -> Limits:
        """The limits in force for a new session asking for `options`."""
        limits = self.defaults
        if options is not None:
            hints = {
                name: getattr(options, name)
                for name in ("idle_timeout_s", "max_lifetime_s", "timeout_s", "memory_bytes")
                if getattr(options, name) is not None
            }
            if hints:
                limits = msgspec.structs.replace(limits, **hints)
        return limits.clamp(self.ceilings)

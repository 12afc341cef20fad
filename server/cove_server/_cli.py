"""`cove serve`: run the HTTP server (settings from the environment, overridden by flags).
`cove compile`: compile the interpreter into the cache, for a build step (docs/deploy.md).

One process holds every session and runs wasm on parallel threads, so there is deliberately
no `--workers`: several processes would scatter sessions across them. Scale out with replicas
behind a load balancer with session affinity (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ._settings import SETTINGS, ServerSettings, Setting

if TYPE_CHECKING:
    import uvicorn

__all__ = ["main"]


class _JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message and any structured `extra`."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        http: object = getattr(record, "http", None)
        if isinstance(http, dict):
            entry.update(cast("dict[str, Any]", http))
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def _configure_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_JsonFormatter())
    for name in ("cove", "cove_server", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False


def _flag_type(setting: Setting) -> Callable[[str], object]:
    """The setting's parser, reporting a bad value the way argparse expects."""

    def parse(raw: str) -> object:
        try:
            return setting.parse(raw)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(f"{raw!r}: {exc}") from None

    return parse


def _help(setting: Setting) -> str:
    text = f"{setting.doc} ({setting.env}; default {setting.default_doc})"
    # argparse formats help with %; Markdown backticks read as noise in a terminal.
    return text.replace("`", "").replace("%", "%%")


def serve_settings(argv: list[str] | None = None) -> ServerSettings:
    """The settings `cove serve ARGV` runs with: the environment, overridden by the flags.

    Raises:
        SystemExit: a flag or a variable is invalid (argparse reports which, exit status 2).
    """
    parser = argparse.ArgumentParser(prog="cove", description="Cove code-execution backend")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the Otari code-execution contract v1 over HTTP")
    flagged = [s for s in SETTINGS if s.flag is not None]
    for setting in flagged:
        assert setting.flag is not None
        serve.add_argument(
            setting.flag,
            dest=setting.env,
            type=_flag_type(setting),
            metavar=setting.flag.removeprefix("--").replace("-", "_").upper(),
            help=_help(setting),
        )
    serve.add_argument(
        "--token-env",
        metavar="VAR",
        help="read the bearer token from this environment variable (default COVE_TOKEN)",
    )
    compile_ = sub.add_parser(
        "compile",
        help="compile the interpreter into the cache (COVE_CACHE_DIR), for a build step",
        description="Compile the interpreter into the cache `cove serve` loads it from "
        "(COVE_CACHE_DIR or --cache-dir, the same settings as serve), so that a deploy "
        "starts in seconds. By default for a portable CPU baseline (x86-64-v2), since a "
        "build machine's CPU may not be the runtime's; a runtime that cannot load it "
        "compiles again, saying why.",
    )
    compile_.add_argument(
        "--cache-dir", dest="COVE_CACHE_DIR", metavar="CACHE_DIR", help="the cache directory"
    )
    compile_.add_argument(
        "--native",
        action="store_true",
        help="compile for this machine's CPU (faster code, not portable)",
    )
    router = sub.add_parser(
        "router-config",
        help="print the HAProxy configuration that routes to several replicas",
        description="Print HAProxy's configuration for a router in front of several `cove "
        "serve` replicas: each session's calls go to the replica its id names, the rest to "
        "any ready one (docs/deploy.md, 'Several replicas'). Name the replicas one by one "
        "(--replica NAME=HOST:PORT, repeated), or as a Kubernetes StatefulSet's pods.",
    )
    router.add_argument(
        "--replica",
        action="append",
        default=[],
        metavar="NAME=HOST:PORT",
        help="a replica: its COVE_REPLICA and its address (repeat for each)",
    )
    router.add_argument("--statefulset", metavar="NAME", help="the StatefulSet's name")
    router.add_argument("--count", type=int, default=3, help="its replicas (default 3)")
    router.add_argument("--service", metavar="NAME", help="its headless Service (default: NAME)")
    router.add_argument("--namespace", default="default", help="its namespace (default default)")
    router.add_argument("--port", type=int, default=8080, help="the replicas' port (8080)")
    router.add_argument("--bind", default=":8080", help="where the router listens (:8080)")
    args = parser.parse_args(argv)
    if args.command == "router-config":
        _router_config(parser, args)
        sys.exit(0)
    if args.command == "compile":
        cache: dict[str, object] = {"COVE_CACHE_DIR": args.COVE_CACHE_DIR}
        try:
            settings = ServerSettings.resolve(os.environ, cache if args.COVE_CACHE_DIR else {})
        except ValueError as exc:
            parser.error(str(exc))
        _compile(settings, portable=not args.native)
        sys.exit(0)
    overrides: dict[str, object] = {
        s.env: getattr(args, s.env) for s in flagged if getattr(args, s.env) is not None
    }
    if args.token_env is not None:
        # A token source named on the command line must hold a token: starting without
        # authentication because a variable is missing would fail open.
        token = os.environ.get(args.token_env, "")
        if not token.strip():
            parser.error(
                f"--token-env {args.token_env}: the variable is "
                f"{'empty' if args.token_env in os.environ else 'not set'}; refusing to start "
                "without the bearer token it should hold"
            )
        overrides["COVE_TOKEN"] = token
    try:
        return ServerSettings.resolve(os.environ, overrides)
    except ValueError as exc:
        parser.error(str(exc))


def _router_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """`cove router-config`: the rendered configuration on stdout."""
    from ._router import Replica, kubernetes_replicas, render_haproxy

    replicas: list[Replica] = []
    try:
        if args.statefulset is not None:
            if args.replica:
                parser.error("--replica and --statefulset name the replicas two ways: pick one")
            replicas = kubernetes_replicas(
                args.statefulset,
                args.count,
                service=args.service or args.statefulset,
                namespace=args.namespace,
                port=args.port,
            )
        else:
            for given in args.replica:
                name, sep, address = given.partition("=")
                if not sep:
                    parser.error(f"--replica {given!r}: expected NAME=HOST:PORT")
                replicas.append(Replica(name, address))
            if not replicas:
                parser.error("name the replicas: --replica NAME=HOST:PORT, or --statefulset")
        sys.stdout.write(render_haproxy(replicas, bind=args.bind, dns=args.statefulset is not None))
    except ValueError as exc:
        parser.error(str(exc))


def _compile(settings: ServerSettings, *, portable: bool) -> None:
    """`cove compile`: the cache entry `cove serve` with these settings loads."""
    _configure_logging(settings.log_level)
    import cove
    from cove._engine import compile_to_cache

    pool = settings.pool
    if pool.cache_dir is None:
        sys.exit("cove: no cache directory to compile into (COVE_CACHE_DIR)")
    try:
        cove.Pool(pool).check()
        started = time.monotonic()
        artifact = cove.Artifact(pool.artifact_dir, unpack_dir=pool.cache_dir)
        entry, compiled = compile_to_cache(
            artifact, consume_fuel=pool.metered, cache_dir=pool.cache_dir, portable=portable
        )
    except cove.CoveError as exc:
        sys.exit(f"cove: {exc}")
    import resource

    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    what = "compiled" if compiled else "already compiled (loads here)"
    target = "portable x86-64-v2" if portable else "this CPU"
    print(
        f"cove: {what}: {entry} ({target}; {time.monotonic() - started:.1f} s, "
        f"peak memory {peak_mib:.0f} MiB)"
    )


def main(argv: list[str] | None = None) -> None:
    settings = serve_settings(argv)
    _configure_logging(settings.log_level)

    import uvicorn

    import cove

    from ._app import create_app
    from ._deadlines import http_protocol

    log = logging.getLogger("cove_server")
    # Whatever can be refused is refused now, in one line, before anything slow starts.
    try:
        cove.Pool(settings.pool).check()
    except cove.CoveError as exc:
        sys.exit(f"cove: {exc}")
    settings = _raise_descriptor_limit(settings)
    failed: list[BaseException] = []
    server: uvicorn.Server | None = None

    def open_failed(exc: BaseException) -> None:
        failed.append(exc)
        if server is not None:
            server.stop_soon()  # type: ignore[attr-defined]  # _quiet_server's

    draining = threading.Event()
    app = create_app(
        settings=settings,
        open_in_background=True,
        on_open_failure=open_failed,
        draining=draining,
    )
    config = uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        workers=1,
        access_log=False,
        log_config=None,
        lifespan="on",
        timeout_graceful_shutdown=30,
        http=http_protocol(settings.http, settings.header_timeout_s),
        timeout_keep_alive=math.ceil(settings.keepalive_timeout_s),
    )
    server = _quiet_server(config, draining, settings.drain_s)
    # The port is bound now, before the interpreter is prepared (which takes minutes on a cold
    # cache, in the background): a platform sees the process listening at once, and a port in
    # use is one line and exit status 1 (uvicorn's words) before anything else starts.
    sock = config.bind_socket()
    log.info(
        "serving on http://%s:%d (auth %s); /health says when the interpreter is ready",
        settings.host,
        settings.port,
        "on" if settings.token else "off",
    )
    server.run(sockets=[sock])
    if failed:
        sys.exit(3)
    if not server.started:
        sys.exit(3)  # uvicorn's STARTUP_FAILURE: the app or the socket failed to start


def _quiet_server(
    config: uvicorn.Config, draining: threading.Event, drain_s: float
) -> uvicorn.Server:
    """uvicorn's server, ticking once a second while a connection is open and not at all
    while none is; a first SIGTERM with `drain_s` sets `draining` and stops `drain_s` later.

    Draining: `/health` and `/ready` answer 503 (the app reads `draining`) while every request
    is still served, so a router's health checks take this replica out of rotation before its
    listener closes and no request meets a closing socket. A second signal stops at once.

    uvicorn's main loop wakes every 0.1 s to see whether a signal asked it to stop, and once
    in ten of those ticks sets the Date header. Each wake-up costs CPU (docs/benchmarks.md has
    the measurement), so an idle server paid for its ticks alone. Here the loop ticks once a
    second (every tick is a Date-header tick) while connections are open, and sleeps while
    there are none. A new connection refreshes the Date header before its first request is
    read, when the last refresh is more than a second old, and wakes the loop; a signal wakes
    it at once, so it still stops as soon as asked.

    uvicorn does not offer these hooks: the methods of its `Server` this relies on are pinned
    by digest in tests/server/test_cli.py, which fails when uvicorn changes them.
    """

    import asyncio
    from email.utils import formatdate
    from types import FrameType

    import uvicorn

    class Server(uvicorn.Server):
        _woken: asyncio.Event | None = None
        _loop: asyncio.AbstractEventLoop | None = None
        _dated_at: float = 0.0
        _asleep: bool = False

        def refresh_date(self) -> None:
            """What uvicorn's tick does to the headers every response starts from."""
            now = time.time()
            self._dated_at = now
            date = [(b"date", formatdate(now, usegmt=True).encode())]
            self.server_state.default_headers = (
                date if self.config.date_header else []
            ) + self.config.encoded_headers

        def connection_opened(self) -> None:
            """Called by the protocol as a connection opens, before its bytes are read."""
            if time.time() - self._dated_at >= 1.0:
                self.refresh_date()
            if self._asleep and self._woken is not None:
                self._asleep = False
                self._woken.set()

        async def main_loop(self) -> None:
            self._loop = asyncio.get_running_loop()
            self._woken = asyncio.Event()
            counter = 0
            should_exit = await self.on_tick(counter)
            while not should_exit:
                counter = (counter + 10) % 864_000
                self._woken.clear()
                if self.server_state.connections:
                    try:
                        await asyncio.wait_for(self._woken.wait(), 1.0)
                    except TimeoutError:
                        pass
                else:
                    self._asleep = True
                    await self._woken.wait()
                    self._asleep = False
                should_exit = await self.on_tick(counter)

        async def on_tick(self, counter: int) -> bool:
            self._dated_at = time.time()
            return await super().on_tick(counter)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            loop = self._loop
            if (
                sig == signal.SIGTERM
                and drain_s > 0
                and not draining.is_set()
                and loop is not None
                and self.started
            ):
                draining.set()
                logging.getLogger("cove_server").info(
                    "draining: /health and /ready answer 503 for %.1f s, then stopping", drain_s
                )
                loop.call_soon_threadsafe(loop.call_later, drain_s, self.end_drain, sig)
                return
            super().handle_exit(sig, frame)
            self.stop_soon()

        def end_drain(self, sig: int) -> None:
            """Stop as the signal that began the drain would have (its exit status too)."""
            if not self.should_exit:
                super().handle_exit(sig, None)
                self.stop_soon()

        def stop_soon(self) -> None:
            """Stop as a signal would (the loop, asleep while no connection is open, is
            woken), but without one: the exit status is the caller's to choose."""
            self.should_exit = True
            if self._loop is not None and self._woken is not None:
                self._loop.call_soon_threadsafe(self._woken.set)

    server = Server(config)
    protocol = config.http
    if not isinstance(protocol, str):
        # Every connection tells the server it opened (uvicorn has no hook for it).
        def connection_made(self: Any, transport: Any) -> None:
            server.connection_opened()
            protocol.connection_made(self, transport)

        config.http = type(protocol.__name__, (protocol,), {"connection_made": connection_made})
    return server


# Descriptors the server keeps for itself (connections, logs, the compiled module, spools).
_SERVER_DESCRIPTORS = 1024
# Host descriptors an interpreter holds besides its guest's files: its three preopened
# directories, and the six numbers below the first counted one (cove_quota.c).
_PER_INTERPRETER = 9


def _raise_descriptor_limit(settings: ServerSettings) -> ServerSettings:
    """Lift the soft RLIMIT_NOFILE to the hard limit, and fit every interpreter's open-file cap
    under it: what all sessions may hold open at once, plus a reserve for the server itself,
    must fit, or one session's files could starve the others' (and the server's). The default
    cap is lowered to fit, saying so; a cap set by COVE_MAX_OPEN_FILES is kept, with a warning
    when it does not fit. Returns the settings to run with."""
    import resource

    import msgspec

    log = logging.getLogger("cove_server")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as exc:
            log.warning("could not raise the open-file limit from %d to %d: %s", soft, hard, exc)
    pool = settings.pool
    if soft == resource.RLIM_INFINITY:
        return settings
    # A session runs its interpreter and at most `max_nested_python` nested ones, each with
    # its own cap.
    interpreters = pool.max_sessions * (1 + pool.defaults.max_nested_python)
    fits = (soft - _SERVER_DESCRIPTORS) // interpreters - _PER_INTERPRETER
    if pool.max_open_files <= fits:
        return settings
    if "COVE_MAX_OPEN_FILES" in os.environ or fits < 8:
        log.warning(
            "the open-file limit is %d, but %d sessions may hold %d open files each: lower "
            "COVE_MAX_SESSIONS or COVE_MAX_OPEN_FILES, or raise the limit (docs/deploy.md)",
            soft,
            pool.max_sessions,
            interpreters // pool.max_sessions * (pool.max_open_files + _PER_INTERPRETER),
        )
        return settings
    log.info(
        "each interpreter may hold %d open files (COVE_MAX_OPEN_FILES %d lowered to fit the "
        "open-file limit %d, shared by %d sessions of up to %d interpreters)",
        fits,
        pool.max_open_files,
        soft,
        pool.max_sessions,
        interpreters // pool.max_sessions,
    )
    fitted = msgspec.structs.replace(pool, max_open_files=fits)
    return msgspec.structs.replace(settings, pool=fitted)


if __name__ == "__main__":
    main()

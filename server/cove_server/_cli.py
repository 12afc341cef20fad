"""`cove serve`: run the HTTP server (settings from the environment, overridden by flags).

One process holds every session and runs wasm on parallel threads, so there is deliberately
no `--workers`: several processes would scatter sessions across them. Scale out with replicas
behind a load balancer with session affinity (docs/deploy.md).
"""

from __future__ import annotations

import argparse
import json
import logging
import math
import sys
import time
from typing import Any, cast

import msgspec

from ._settings import ServerSettings

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
    for name in ("cove_server", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="cove", description="Cove code-execution backend")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the Otari code-execution contract v1 over HTTP")
    serve.add_argument("--host", help="interface (COVE_HOST, default 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (COVE_PORT or PORT, default 8080)")
    serve.add_argument("--workspace-root", help="session workspaces (COVE_WORKSPACE_ROOT)")
    serve.add_argument("--cache-dir", help="compiled interpreter cache (COVE_CACHE_DIR)")
    serve.add_argument("--max-sessions", type=int, help="live sessions at most (COVE_MAX_SESSIONS)")
    serve.add_argument("--timeout", type=float, help="default seconds per call (COVE_TIMEOUT_S)")
    serve.add_argument(
        "--token-env",
        metavar="VAR",
        help="read the bearer token from this environment variable (default COVE_TOKEN)",
    )
    args = parser.parse_args(argv)

    import os

    env = dict(os.environ)
    if args.token_env is not None:
        # A token source named on the command line must hold a token: starting without
        # authentication because a variable is missing would fail open.
        token = env.get(args.token_env, "")
        if not token.strip():
            parser.error(
                f"--token-env {args.token_env}: the variable is "
                f"{'empty' if args.token_env in env else 'not set'}; refusing to start "
                "without the bearer token it should hold"
            )
        env["COVE_TOKEN"] = token
    for flag, var in (
        ("host", "COVE_HOST"),
        ("port", "COVE_PORT"),
        ("workspace_root", "COVE_WORKSPACE_ROOT"),
        ("cache_dir", "COVE_CACHE_DIR"),
        ("max_sessions", "COVE_MAX_SESSIONS"),
        ("timeout", "COVE_TIMEOUT_S"),
    ):
        value = getattr(args, flag)
        if value is not None:
            env[var] = str(value)
    try:
        settings = ServerSettings.from_env(env)
    except ValueError as exc:
        parser.error(str(exc))
    if settings.pool.cache_dir is None:
        settings = msgspec.structs.replace(
            settings, pool=msgspec.structs.replace(settings.pool, cache_dir=_default_cache_dir())
        )
    _configure_logging(settings.log_level)

    import uvicorn

    from ._app import create_app
    from ._deadlines import http_protocol

    _raise_descriptor_limit(settings)
    app = create_app(settings=settings)
    logging.getLogger("cove_server").info(
        "serving on http://%s:%d (auth %s)",
        settings.host,
        settings.port,
        "on" if settings.token else "off",
    )
    uvicorn.run(
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


# Descriptors the server keeps for itself (connections, logs, the compiled module, spools).
_SERVER_DESCRIPTORS = 1024
# A session runs its interpreter and at most three nested ones, each with its own cap.
_INTERPRETERS_PER_SESSION = 4


def _raise_descriptor_limit(settings: ServerSettings) -> None:
    """Lift the soft RLIMIT_NOFILE to the hard limit, and warn when what sessions may hold
    open, plus a reserve for the server itself, does not fit under it."""
    import resource

    log = logging.getLogger("cove_server")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError) as exc:
            log.warning("could not raise the open-file limit from %d to %d: %s", soft, hard, exc)
    pool = settings.pool
    needed = (
        pool.max_sessions * _INTERPRETERS_PER_SESSION * pool.max_open_files + _SERVER_DESCRIPTORS
    )
    if soft != resource.RLIM_INFINITY and needed > soft:
        log.warning(
            "the open-file limit is %d, but %d sessions may hold %d open files each: lower "
            "COVE_MAX_SESSIONS or COVE_MAX_OPEN_FILES, or raise the limit (docs/deploy.md)",
            soft,
            pool.max_sessions,
            _INTERPRETERS_PER_SESSION * pool.max_open_files,
        )


def _default_cache_dir() -> str:
    import os
    import pathlib

    base = os.environ.get("XDG_CACHE_HOME") or str(pathlib.Path.home() / ".cache")
    return str(pathlib.Path(base) / "cove")


if __name__ == "__main__":
    main()

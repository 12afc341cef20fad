# Cove's server image: `cove serve` with the interpreter compiled at build time, so a start
# loads it in about a second instead of compiling for ~22 s with ~945 MiB (docs/deploy.md).
# deploy/kubernetes/statefulset.yaml runs it.
#
#   docker build -t cove .
#   docker run --rm -p 8080:8080 -e COVE_TOKEN=... cove
FROM python:3.11-slim-bookworm

WORKDIR /app
COPY . /app

# README's install command, as it is.
RUN python3 -m venv .venv && .venv/bin/pip install -e '.[server]'

# The interpreter compiled into the image (for the portable x86-64-v2 baseline, since the build
# machine's CPU may not be the runtime's), then made readable by the user that serves: the
# cache's files are written private to their owner (root here). Cove's own modules are compiled
# to bytecode too, since the serving user cannot write beside them.
RUN COVE_CACHE_DIR=/app/.cove-cache .venv/bin/cove compile \
    && chmod -R a+rX /app/.cove-cache \
    && .venv/bin/python -m compileall -q runtime server

# An unprivileged user that owns nothing in the image: the cache and the code are read-only to
# it; it writes only under COVE_WORKSPACE_ROOT (a volume; without one, a private temp dir).
RUN groupadd --system --gid 10001 cove \
    && useradd --system --uid 10001 --gid cove --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin cove

ENV COVE_CACHE_DIR=/app/.cove-cache COVE_HOST=0.0.0.0 \
    PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
USER 10001:10001
EXPOSE 8080
# COVE_PORT (default 8080) sets the port; `cove serve` stops gracefully on SIGTERM, keeping
# held sessions when COVE_WORKSPACE_ROOT is a volume (docs/deploy.md, "Restarts").
CMD [".venv/bin/cove", "serve"]

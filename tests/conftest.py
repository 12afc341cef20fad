from __future__ import annotations

import pathlib
from collections.abc import AsyncIterator

import pytest

import cove
from cove._engine import compile_to_cache


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def cache_dir() -> str:
    # The user's compiled-module cache, as `cove serve` and every pool use by default: kept
    # across runs (entries are keyed by the artifact, wasmtime's version and the engine's
    # configuration, so none goes stale), so only the first run on a machine compiles. That
    # compile happens here, once, before any fixture starts a server with a start deadline.
    directory = cove.default_cache_dir()
    artifact = cove.Artifact(unpack_dir=directory)
    compile_to_cache(artifact, consume_fuel=False, cache_dir=directory)
    return directory


# A session's time limit per call, which also caps the `timeout_s` a test asks for: generous,
# for the suite passes on a loaded 2-core machine (a first `import scipy.stats`, or a help()
# that imports every package, takes seconds there). A test of the time limit asks for its own.
CALL_LIMIT_S = 300.0


@pytest.fixture
def settings(tmp_path: pathlib.Path, cache_dir: str) -> cove.PoolSettings:
    return cove.PoolSettings(
        workspace_root=str(tmp_path / "workspaces"),
        cache_dir=cache_dir,
        defaults=cove.Limits(timeout_s=CALL_LIMIT_S, memory_bytes=256 << 20),
    )


@pytest.fixture
async def pool(settings: cove.PoolSettings) -> AsyncIterator[cove.Pool]:
    async with cove.Pool(settings) as p:
        yield p


@pytest.fixture
async def session(pool: cove.Pool) -> cove.Session:
    return await pool.create_session()

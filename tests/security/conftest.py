from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.support.contract import Contract
from tests.support.servers import Server, start_server, stop_server


@pytest.fixture(scope="session")
def contract() -> Contract:
    return Contract()


@pytest.fixture(scope="module")
def hostile_server(tmp_path_factory: pytest.TempPathFactory, cache_dir: str) -> Iterator[Server]:
    srv = start_server(
        tmp_path_factory.mktemp("hostile"),
        cache_dir,
        COVE_MAX_SESSIONS="64",
        COVE_MEMORY_MB="128",
        COVE_WORKSPACE_MB="8",
        COVE_WORKSPACE_FILES="200",
        COVE_MAX_UPLOAD_MB="1",
        COVE_TIMEOUT_S="5",
        COVE_MAX_OUTPUT_KB="256",
    )
    yield srv
    stop_server(srv)


@pytest.fixture
def api(hostile_server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=hostile_server.base_url, timeout=120) as client:
        yield client

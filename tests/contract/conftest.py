"""Fixtures: a real `cove serve` process on loopback, and the contract's JSON Schemas."""

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
def server(tmp_path_factory: pytest.TempPathFactory, cache_dir: str) -> Iterator[Server]:
    srv = start_server(
        tmp_path_factory.mktemp("srv"), cache_dir, COVE_MAX_SESSIONS="6", COVE_MAX_UPLOAD_MB="1"
    )
    yield srv
    stop_server(srv)


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, timeout=70) as client:
        yield client

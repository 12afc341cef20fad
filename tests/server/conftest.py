from __future__ import annotations

from collections.abc import Iterator

import msgspec
import pytest
from litestar.testing import TestClient

import cove
import cove_server


@pytest.fixture
def server_settings(settings: cove.PoolSettings) -> cove_server.ServerSettings:
    limits = msgspec.structs.replace(settings.defaults, max_file_bytes=1 << 20)
    pool = msgspec.structs.replace(settings, max_sessions=4, defaults=limits)
    return cove_server.ServerSettings(pool=pool, max_body_bytes=4 << 20)


@pytest.fixture
def client(server_settings: cove_server.ServerSettings) -> Iterator[TestClient[object]]:
    with TestClient(cove_server.create_app(settings=server_settings)) as c:
        yield c


@pytest.fixture
def sid(client: TestClient[object]) -> str:
    response = client.post("/sessions", json={})
    assert response.status_code == 201
    return str(response.json()["session_id"])

"""Fuzzing the API: schemathesis generates requests from the served OpenAPI document (valid and
invalid ones), against a real server: no 5xx, and every response the contract describes has
the contract's shape."""

from __future__ import annotations

import pathlib
from collections import Counter
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

from tests.support.contract import Contract
from tests.support.servers import start_server, stop_server

pytestmark = pytest.mark.slow

EXAMPLES_PER_OPERATION_AND_MODE = 800

# Which contract schema a response must match, by operation and status class.
SUCCESS_SCHEMA = {
    ("POST", "/sessions"): "SessionHandle",
    ("POST", "/sessions/{session_id}/exec"): "ExecResponse",
    ("GET", "/sessions/{session_id}/files/list"): "FileList",
    ("POST", "/sessions/{session_id}/files"): "FileUploadResult",
}


def test_fuzz_the_served_openapi(
    tmp_path: pathlib.Path, cache_dir: str, contract: Contract
) -> None:
    srv = start_server(
        tmp_path,
        cache_dir,
        COVE_MAX_SESSIONS="100000",
        COVE_TIMEOUT_S="2",
        COVE_LOG_LEVEL="WARNING",
    )
    statuses: Counter[int] = Counter()
    violations: list[str] = []
    try:
        live = httpx.post(f"{srv.base_url}/sessions", json={}).json()["session_id"]
        schema = schemathesis.openapi.from_url(f"{srv.base_url}/schema/openapi.json")
        for result in schema.get_all_operations():
            operation = result.ok()
            key = (operation.method.upper(), operation.path)
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                overrides: dict[str, Any] = {}
                # Valid requests address a live session (DELETE excepted: it would end it).
                if (
                    "{session_id}" in operation.path
                    and mode is GenerationMode.POSITIVE
                    and key[0] != "DELETE"
                ):
                    overrides["path_parameters"] = {"session_id": live}
                strategy = operation.as_strategy(generation_mode=mode, **overrides)

                @settings(
                    max_examples=EXAMPLES_PER_OPERATION_AND_MODE,
                    deadline=None,
                    database=None,
                    suppress_health_check=list(HealthCheck),
                    derandomize=True,
                )
                # `fuzz` runs right here, inside this iteration: the loop variables it reads
                # (B023) cannot change under it.
                @given(case=strategy)
                def fuzz(case: schemathesis.Case) -> None:
                    response = case.call(base_url=srv.base_url, timeout=60)
                    statuses[response.status_code] += 1
                    where = f"{key[0]} {key[1]} -> {response.status_code}"  # noqa: B023
                    if response.status_code >= 500:
                        violations.append(f"{where}: {response.text[:200]}")
                        return
                    name = SUCCESS_SCHEMA.get(key) if response.status_code < 300 else "Error"  # noqa: B023
                    if name is None or "application/json" not in response.headers.get(
                        "content-type", ""
                    ):
                        return
                    try:
                        contract.validate(name, response.json())
                    except Exception as exc:
                        violations.append(f"{where}: {str(exc)[:200]}")

                try:
                    fuzz()
                except Unsatisfiable:
                    # Nothing invalid can be generated for this operation (no parameters, no
                    # body): its positive run covered it.
                    assert mode is GenerationMode.NEGATIVE, key
        assert httpx.get(f"{srv.base_url}/sessions/{live}/files/list").status_code == 200
        assert httpx.get(f"{srv.base_url}/health").status_code == 200
        assert httpx.post(f"{srv.base_url}/sessions", json={}).status_code == 201
    finally:
        stop_server(srv)
    total = sum(statuses.values())
    print(f"fuzz: {total} requests, statuses {dict(sorted(statuses.items()))}")
    assert violations == []
    assert total >= 5000

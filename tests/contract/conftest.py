"""A real `cove serve` process on loopback, and the contract's JSON Schemas."""

from __future__ import annotations

import json
import os
import pathlib
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema
import pytest
import referencing
import referencing.jsonschema

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "contract" / "code-execution-openapi.yaml"
VENDORED = ROOT / "server" / "cove_server" / "contract-openapi.json"


def contract_document() -> dict[str, Any]:
    """The contract's OpenAPI document: the shared copy when present, else the vendored one."""
    if SHARED.exists():
        import yaml

        return dict(yaml.safe_load(SHARED.read_text()))
    return dict(json.loads(VENDORED.read_text()))


class Contract:
    def __init__(self) -> None:
        self.doc = contract_document()
        resource = referencing.Resource.from_contents(
            self.doc, default_specification=referencing.jsonschema.DRAFT202012
        )
        self.registry: referencing.Registry[Any] = referencing.Registry().with_resource(
            "urn:contract", resource
        )

    def validate(self, schema_name: str, instance: object) -> None:
        schema = {"$ref": f"urn:contract#/components/schemas/{schema_name}"}
        jsonschema.Draft202012Validator(schema, registry=self.registry).validate(instance)

    def statuses(self, path: str, method: str) -> set[int]:
        return {int(code) for code in self.doc["paths"][path][method]["responses"]}


@pytest.fixture(scope="session")
def contract() -> Contract:
    return Contract()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(
        self, base_url: str, process: subprocess.Popen[bytes], root: pathlib.Path, log: pathlib.Path
    ) -> None:
        self.base_url = base_url
        self.process = process
        self.root = root
        self.log = log


def start_server(tmp: pathlib.Path, cache_dir: str, **env: str) -> Server:
    port = _free_port()
    root = tmp / "workspaces"
    log = tmp / "server.log"
    environ = {k: v for k, v in os.environ.items() if not k.startswith("COVE_")}
    environ.update(
        COVE_HOST="127.0.0.1",
        COVE_PORT=str(port),
        COVE_WORKSPACE_ROOT=str(root),
        COVE_CACHE_DIR=cache_dir,
        **env,
    )
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "cove_server", "serve"],
            env=environ,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base_url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{base_url}/health", timeout=1).status_code == 200:
                return Server(base_url, process, root, log)
        except httpx.TransportError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"server did not start:\n{log.read_text()}")
        time.sleep(0.05)


def stop_server(server: Server) -> int:
    server.process.terminate()
    try:
        return server.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.process.kill()
        raise


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

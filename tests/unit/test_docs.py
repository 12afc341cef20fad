"""Docs that must match the code: configuration variables, the error tree, the contract copy."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

import cove
from cove_server._settings import ENVIRONMENT

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_configuration_doc_lists_every_environment_variable() -> None:
    text = (ROOT / "docs" / "configuration.md").read_text()
    documented = set(re.findall(r"`((?:COVE_[A-Z_]+)|PORT)`", text))
    assert documented == {*ENVIRONMENT, "PORT"}


def test_errors_doc_names_every_error() -> None:
    text = (ROOT / "docs" / "errors.md").read_text()
    errors = {n for n in cove.__all__ if n.endswith("Error")}
    assert errors <= set(re.findall(r"`(\w+Error)`", text))


def test_vendored_contract_is_the_shared_one() -> None:
    shared = ROOT.parent / "shared" / "contract" / "code-execution-openapi.yaml"
    if not shared.exists():
        pytest.skip("../shared/contract is not beside this checkout")
    import yaml

    vendored = json.loads((ROOT / "server" / "cove_server" / "contract-openapi.json").read_text())
    assert vendored == yaml.safe_load(shared.read_text())


def test_server_settings_from_environment() -> None:
    from cove_server import ServerSettings

    s = ServerSettings.from_env(
        {"PORT": "9000", "COVE_MEMORY_MB": "4096", "COVE_TIMEOUT_S": "5", "COVE_TOKEN": "t"}
    )
    assert (s.port, s.token) == (9000, "t")
    assert s.pool.defaults.memory_bytes == 4096 << 20
    assert s.pool.ceilings.memory_bytes >= 4096 << 20
    assert s.pool.defaults.timeout_s == 5
    assert ServerSettings.from_env({"COVE_PORT": "1", "PORT": "2"}).port == 1
    with pytest.raises(ValueError, match="COVE_MAX_SESSIONS"):
        ServerSettings.from_env({"COVE_MAX_SESSIONS": "many"})
    with pytest.raises(ValueError, match="COVE_CONSUME_FUEL"):
        ServerSettings.from_env({"COVE_CONSUME_FUEL": "maybe"})

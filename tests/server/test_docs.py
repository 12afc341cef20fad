"""Docs that must match the code: configuration variables, the error tree, the contract copy."""

from __future__ import annotations

import json
import pathlib
import re

import pytest

import cove
from cove_server._settings import SETTINGS
from cove_server._settings_doc import render

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_configuration_doc_is_rendered_from_the_settings_table() -> None:
    path = ROOT / "docs" / "configuration.md"
    text = path.read_text()
    assert text == render(text), (
        "docs/configuration.md's tables differ from SETTINGS (server/cove_server/_settings.py); "
        "regenerate them with: python -m cove_server._settings_doc"
    )
    documented = set(re.findall(r"\| `(COVE_[A-Z_]+)` \|", text))
    assert documented == {s.env for s in SETTINGS}, "a generated region is missing"


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


def test_the_cold_start_numbers_the_docs_quote_are_the_benchmarks() -> None:
    results = json.loads((ROOT / "bench" / "results.json").read_text())["coldstart"]
    compile_ = results["compile_portable"]
    quoted = re.compile(r"about (\d+) s (?:on 2 cores )?and ~(\d+) MiB")
    for doc in ("README.md", "docs/deploy.md"):
        found = quoted.findall((ROOT / doc).read_text())
        assert found, f"{doc} quotes no cold-compile numbers"
        for seconds, mib in found:
            # Rounded as a reader rounds: within a second or two and a few MiB of the measure.
            assert abs(int(seconds) - compile_["seconds"]) <= 2, (doc, seconds, compile_)
            assert abs(int(mib) - compile_["peak_mib"]) <= 10, (doc, mib, compile_)

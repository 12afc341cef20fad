from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import types

import pytest

import cove

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_all_lists_exactly_the_public_names() -> None:
    public = {name for name in vars(cove) if not name.startswith("_")}
    assert set(cove.__all__) == public
    assert sorted(cove.__all__) == cove.__all__


@pytest.mark.parametrize("namespace", [cove.tools, cove.otari], ids=lambda m: m.__name__)
def test_namespace_all_lists_exactly_its_public_names(namespace: types.ModuleType) -> None:
    public = {name for name in vars(namespace) if not name.startswith("_")}
    assert set(namespace.__all__) == public
    assert not set(namespace.__all__) & set(cove.__all__)


def test_import_cove_does_not_import_litestar() -> None:
    code = "import sys, cove; print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {'litestar', 'uvicorn', 'cove_server'})))"
    out = subprocess.run(
        [sys.executable, "-c", "import json; " + code], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == []


def test_every_error_derives_from_cove_error() -> None:
    for name in cove.__all__:
        obj = getattr(cove, name)
        if isinstance(obj, type) and issubclass(obj, Exception):
            assert issubclass(obj, cove.CoveError), name
            assert name.endswith("Error")

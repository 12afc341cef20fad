"""The guest package's layers: every module imports on its own in a fresh interpreter (no
cycle), pulls in nothing from a higher layer, and no function imports a guest module (imports
of the standard library and of `_cove` inside a function are allowed).

    text      the leaf: imports nothing else from cove_guest
    protocol  nothing either: the guest half of the host↔guest protocol
    deadline  nothing either: the soft deadline's exception and handler
    reference nothing either: what model code is told of a package that is not here
    shell     text, deadline
    commands  text, shell, deadline
    editor    text
    sandbox   text, deadline (stand-ins for processes, threads and the network; handed what
              they run)
    extensions  nothing: finds the extension modules linked into the interpreter
    matplotlib_backend  nothing: matplotlib's default backend in the guest (matplotlib imports
              it by the name its matplotlibrc gives)
    capture, cells, python_cli, host   text, protocol, deadline, reference and each other (the
              driver's parts)
    driver    everything: it wires the shell to the commands
"""

from __future__ import annotations

import ast
import json
import pathlib
import subprocess
import sys

import pytest

GUEST = pathlib.Path(__file__).resolve().parents[2] / "python-wasm" / "guest"
PACKAGE = GUEST / "cove_guest"
DRIVER_PARTS = {"capture", "cells", "python_cli", "host"}
ALLOWED = {
    "text": {"text"},
    "protocol": {"protocol"},
    "deadline": {"deadline"},
    "reference": {"reference"},
    "shell": {"text", "shell", "deadline"},
    "commands": {"text", "shell", "commands", "deadline"},
    "editor": {"text", "editor"},
    "sandbox": {"text", "sandbox", "deadline"},
    "extensions": {"extensions"},
    "matplotlib_backend": {"matplotlib_backend"},
    **{part: {"text", "protocol", "deadline", "reference"} | DRIVER_PARTS for part in DRIVER_PARTS},
    "driver": {
        "text",
        "protocol",
        "deadline",
        "reference",
        "shell",
        "commands",
        "editor",
        "sandbox",
        "extensions",
        "driver",
    }
    | DRIVER_PARTS,
}


def _modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(GUEST).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def test_every_module_is_in_a_layer() -> None:
    assert {_layer(m) for m in _modules()} - {None} == set(ALLOWED)


@pytest.mark.parametrize("module", _modules())
def test_module_imports_alone_and_only_from_lower_layers(module: str) -> None:
    code = (
        f"import sys; sys.path.insert(0, {str(GUEST)!r}); import {module}; import json; "
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('cove_guest'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = {_layer(m) for m in json.loads(done.stdout)} - {None}
    layer = _layer(module)
    allowed = ALLOWED[layer] if layer is not None else set()
    assert loaded <= allowed | ({layer} if layer else set()), (module, loaded - allowed)


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.name)
def test_no_function_imports_a_guest_module(path: pathlib.Path) -> None:
    tree = ast.parse(path.read_text())
    for func in ast.walk(tree):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("cove_guest"), (path, node.lineno)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("cove_guest") for a in node.names), path

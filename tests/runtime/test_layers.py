"""The runtime's modules: the import graph among them has no cycle, no function hides an import
of one, each opens with a docstring saying its job, and one over ~500 lines says at its top why
it is one unit ("Why one module").

The graph is read from the source (every `from . import x`, `from ._x import ...`, `import
cove._x`, at any depth), so a cycle held together by a function-local or TYPE_CHECKING import
is caught as well as one that fails at import time.
"""

from __future__ import annotations

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "runtime" / "cove"
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py"))
MAX_LINES = 500


def _imports(name: str) -> set[str]:
    tree = ast.parse((PACKAGE / f"{name}.py").read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module is None:
                found.update(alias.name for alias in node.names)
            elif node.level == 1 and node.module is not None:
                found.add(node.module.split(".")[0])
            elif node.level == 0 and (node.module or "").startswith("cove."):
                found.add((node.module or "").split(".")[1])
        elif isinstance(node, ast.Import):
            found.update(
                alias.name.split(".")[1] for alias in node.names if alias.name.startswith("cove.")
            )
    return found & set(MODULES) - {name}


GRAPH = {name: _imports(name) for name in MODULES}


def _cycle() -> list[str] | None:
    """A cycle in GRAPH, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for dep in sorted(GRAPH[name]):
            if state.get(dep) == 1:
                return [*path[path.index(dep) :], dep]
            if dep not in state and (found := visit(dep)) is not None:
                return found
        path.pop()
        state[name] = 2
        return None

    for name in MODULES:
        if name not in state and (found := visit(name)) is not None:
            return found
    return None


def test_the_import_graph_has_no_cycle() -> None:
    assert _cycle() is None, " -> ".join(_cycle() or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    saved = dict(GRAPH)
    try:
        GRAPH["_errors"] = GRAPH["_errors"] | {"_pool"}  # _pool imports _errors, at some depth
        assert _cycle() is not None
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


@pytest.mark.parametrize("name", MODULES)
def test_no_function_imports_a_runtime_module(name: str) -> None:
    tree = ast.parse((PACKAGE / f"{name}.py").read_text())
    for func in ast.walk(tree):
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom):
                    assert node.level == 0 and not (node.module or "").startswith("cove"), (
                        name,
                        node.lineno,
                    )


@pytest.mark.parametrize("name", MODULES)
def test_each_module_says_its_job_and_why_it_is_long(name: str) -> None:
    source = (PACKAGE / f"{name}.py").read_text()
    docstring = ast.get_docstring(ast.parse(source))
    assert docstring, f"{name} has no opening docstring"
    if len(source.splitlines()) > MAX_LINES:
        assert "Why one module" in docstring, f"{name} is over {MAX_LINES} lines"


def test_the_design_lists_every_module_in_import_order() -> None:
    text = (ROOT / "docs" / "design.md").read_text()
    block = text[text.index("The host half, `runtime/cove/`") :]
    block = block[block.index("```") + 3 :]
    block = block[: block.index("```")]
    listed = [m.removesuffix(".py") for m in re.findall(r"^(_[a-z]\w*\.py)", block, re.MULTILINE)]
    assert sorted(listed) == sorted(m for m in MODULES if m.startswith("_") and m != "__init__")
    position = {name: i for i, name in enumerate(listed)}
    upward = [
        (name, dep)
        for name in listed
        for dep in GRAPH[name]
        if dep in position and position[dep] < position[name]
    ]
    assert upward == [], "a module imports one listed before it in docs/design.md"

"""The guest's package recipes (python-wasm/recipes), read by python-wasm/cross's own loader:
the one home of each built package's version, for the tests that compare against native."""

from __future__ import annotations

import pathlib
import sys

PYTHON_WASM = pathlib.Path(__file__).resolve().parents[2] / "python-wasm"
if str(PYTHON_WASM) not in sys.path:
    sys.path.insert(0, str(PYTHON_WASM))

from cross.recipe import Recipe, load_all, recipe_tools, versions  # noqa: E402  (python-wasm is no package)

RECIPES: dict[str, Recipe] = load_all()
__all__ = ["RECIPES", "Recipe", "recipe_tools", "version", "versions"]


def version(name: str) -> str:
    return RECIPES[name].version

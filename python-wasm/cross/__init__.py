"""Cove's cross-build driver for the guest's packages with C extensions.

One recipe per package (python-wasm/recipes/<name>/recipe.toml, recipe.py), one toolchain
(toolchain.py), the same named steps for every recipe (steps.py), one backend module per build
system (meson.py), and what the interpreter takes (collect.py, stage.py). build.sh's
`extensions` step runs it; `python3.11 -m cross --help` (from python-wasm/) says the rest.
"""

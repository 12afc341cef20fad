"""Everything CI checks, in the order a developer wants to hear about failures.

    python tools/check.py            lint, format, types (incl. the public API's type
                                     completeness), then the test suite
    python tools/check.py --fast     skip the slow-marked fuzz and load tests
    python tools/check.py tests/runtime  extra pytest arguments are passed through

Run it with the project's virtual environment's Python (README's test command does).
"""

from __future__ import annotations

import os
import subprocess
import sys

PY = sys.executable


def run(*cmd: str, env: dict[str, str] | None = None) -> None:
    print("$", " ".join(cmd), flush=True)
    code = subprocess.call(cmd, env=env)
    if code != 0:
        sys.exit(code)


def main() -> None:
    args = sys.argv[1:]
    fast = "--fast" in args
    args = [a for a in args if a != "--fast"]
    # python-wasm/guest: the guest package (cove_guest) that runs inside the sandbox.
    paths = (".",)  # everything: runtime, server, the guest, the build scripts, tests, docs
    run(PY, "-m", "ruff", "check", *paths)
    run(PY, "-m", "ruff", "format", "--check", *paths)
    # Strict on runtime and server; check_untyped_defs on the guest (pyproject.toml's overrides).
    run(PY, "-m", "mypy")
    run(PY, "-m", "pyright", "--pythonpath", PY)
    # verifytypes finds the installed package through the active environment.
    venv = {
        **os.environ,
        "VIRTUAL_ENV": sys.prefix,
        "PATH": os.path.dirname(PY) + os.pathsep + os.environ.get("PATH", ""),
    }
    run(PY, "-m", "pyright", "--verifytypes", "cove", "--ignoreexternal", env=venv)
    marker = ["-m", "not slow"] if fast else []
    run(PY, "-m", "pytest", *marker, *args)


if __name__ == "__main__":
    main()

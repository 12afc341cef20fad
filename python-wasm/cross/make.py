"""The make backend (a C library whose build is its own Makefiles, with no configure step:
OpenBLAS): built in its source tree, static only, installed into W/deps (DESTDIR, prefix /usr)
as the CMake backend installs.

The recipe's `setup-args` are make's: the targets to build and the variables every make of the
library is given (`NAME=value`; the install gets the variables only). The compilers and flags
go in CC itself, with the flags every recipe gets (toolchain.py): a Makefile that sets its own
CFLAGS from variables (OpenBLAS's Makefile.system) would drop ours otherwise.
"""

from __future__ import annotations

import subprocess

from .recipe import Recipe
from .toolchain import JOBS, Toolchain, run


def _variables(tc: Toolchain, recipe: Recipe) -> list[str]:
    cc = " ".join([str(tc.bin / "wasi-cc"), *tc.cflags(recipe)])
    return [
        f"CC={cc}",
        "HOSTCC=cc",
        f"AR={tc.llvm}/llvm-ar",
        f"RANLIB={tc.llvm}/llvm-ranlib",
        *(a for a in tc.expand(recipe, recipe.setup_args) if "=" in a),
    ]


def configure(tc: Toolchain, recipe: Recipe) -> None:
    """Nothing to configure (the Makefiles read make's variables); a tree built before is
    cleaned, so a changed variable takes effect."""
    run("make", "-s", "clean", cwd=tc.source_dir(recipe), env=tc.env(recipe), nice=True)


def compile_(tc: Toolchain, recipe: Recipe) -> None:
    targets = [a for a in recipe.setup_args if "=" not in a]
    run(
        "make",
        f"-j{JOBS}",
        *targets,
        *_variables(tc, recipe),
        cwd=tc.source_dir(recipe),
        env=tc.env(recipe),
        nice=True,
    )


def install(tc: Toolchain, recipe: Recipe) -> None:
    subprocess.run(
        ["make", "install", "PREFIX=/usr", f"DESTDIR={tc.deps}", *_variables(tc, recipe)],
        cwd=tc.source_dir(recipe),
        env=tc.env(recipe),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    tc.relocate_deps()

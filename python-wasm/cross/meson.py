"""The meson backend (numpy, pandas, and most of the scientific stack): configure, install,
and the extension modules as meson lists them.

meson's introspection, not a scan of the build tree, names the modules and gives their order:
the order of the static libraries on the reactor's link line follows it, and the artifact is
byte-for-byte what it was before the recipes.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
from typing import Any

from .collect import Module
from .recipe import Recipe
from .toolchain import JOBS, Toolchain, run


def _meson(tc: Toolchain, recipe: Recipe, src: pathlib.Path) -> list[str]:
    python = str(tc.venv_of(recipe) / "bin" / "python")
    if recipe.meson:
        return [python, str(src / recipe.meson)]
    return [str(tc.venv_of(recipe) / "bin" / "meson")]


def configure(tc: Toolchain, recipe: Recipe) -> None:
    src, build = tc.source_dir(recipe), tc.build_dir(recipe)
    shutil.rmtree(build, ignore_errors=True)
    run(
        *_meson(tc, recipe, src),
        "setup",
        build,
        "--cross-file",
        tc.cross_file(recipe),
        "--buildtype=release",
        "-Db_ndebug=if-release",
        *recipe.setup_args,
        "--prefix=/usr",
        cwd=src,
        env=tc.env(recipe),
        nice=True,
    )


def compile_(tc: Toolchain, recipe: Recipe) -> None:
    run("ninja", f"-j{JOBS}", cwd=tc.build_dir(recipe), env=tc.env(recipe), nice=True)


def install(tc: Toolchain, recipe: Recipe) -> None:
    subprocess.run(
        [
            *_meson(tc, recipe, tc.source_dir(recipe)),
            "install",
            "--destdir",
            str(tc.install_dir(recipe)),
            "--no-rebuild",
        ],
        cwd=tc.build_dir(recipe),
        env=tc.env(recipe),
        check=True,
        stdout=subprocess.DEVNULL,
    )


def _introspect(tc: Toolchain, recipe: Recipe, what: str) -> Any:
    return json.loads(
        subprocess.check_output(
            [
                *_meson(tc, recipe, tc.source_dir(recipe)),
                "introspect",
                what,
                str(tc.build_dir(recipe)),
            ],
            env=tc.env(recipe),
        )
    )


def modules(tc: Toolchain, recipe: Recipe) -> list[Module]:
    """Every extension module ("shared module" target): wasi-cc made an archive at its .so path
    and <so>.link beside it. Its dotted name is where it is installed (matplotlib builds its
    modules in src/ and installs them in matplotlib/), read from meson's install plan by the
    built file: `--targets` gives two targets of the same name (scipy's optimize._zeros and
    optimize.cython_optimize._zeros) the same install_filename."""
    targets = _introspect(tc, recipe, "--targets")
    plan: dict[str, str] = _introspect(tc, recipe, "--installed")
    found = []
    for t in targets:
        if t["type"] == "shared module":
            so = pathlib.Path(t["filename"][0])
            installed = plan.get(str(so), t["install_filename"][0])
            if "-packages/" not in installed:
                raise SystemExit(f"{recipe.name}: {so.name} is not installed as a package's module")
            site_path = installed.split("-packages/", 1)[1]
            found.append(Module.installed(so, tc.build_dir(recipe), site_path))
    return found

"""The setuptools backend (lxml, Pillow): the sdist's setup.py, run by the build's target
"python" (the host python3.11 posing as the cross CPython), with wasi-cc as its compiler and
linker. build_py and build_ext write into W/build-<name>/lib; wasi-cc turns each extension
module's link into an archive there (the module's name reaches it as `--cove-module=<dotted>`,
added by sitecustomize.py), which is what collect takes.

The cross CPython's sysconfig data carries the interpreter's own compile flags (LTO, its PGO
profile): WASI_CROSS_VARS replaces them with the toolchain's for every extension.
"""

from __future__ import annotations

import json
import pathlib
import shutil

from .collect import Module
from .recipe import Recipe
from .toolchain import Toolchain, run


def _env(tc: Toolchain, recipe: Recipe) -> dict[str, str]:
    env = tc.tools_env(recipe)
    cc = str(tc.bin / "wasi-cc")
    cross_vars = {
        "CC": cc,
        "CXX": str(tc.bin / "wasi-c++"),
        "LDSHARED": f"{cc} -shared",
        "LDCXXSHARED": f"{tc.bin / 'wasi-c++'} -shared",
        "CFLAGS": "",
        "OPT": "",
        "CCSHARED": "",
        "LDFLAGS": "",
        "CPPFLAGS": "",
        "AR": str(tc.llvm / "llvm-ar"),
        "ARFLAGS": "rcs",
    }
    env["WASI_CROSS_VARS"] = json.dumps(cross_vars)
    # distutils takes CC and LDSHARED from the environment before the sysconfig ones, and adds
    # the environment's CFLAGS, CPPFLAGS and LDFLAGS (the toolchain's, from tools_env) to them
    for name in ("CC", "CXX"):
        env.pop(name, None)
    env["LDSHARED"] = cross_vars["LDSHARED"]
    return env


def _python(tc: Toolchain, recipe: Recipe) -> pathlib.Path:
    return tc.bin / f"python-wasi-{recipe.name}"


def configure(tc: Toolchain, recipe: Recipe) -> None:
    shutil.rmtree(tc.build_dir(recipe), ignore_errors=True)
    tc.build_dir(recipe).mkdir(parents=True)


def compile_(tc: Toolchain, recipe: Recipe) -> None:
    build, src = tc.build_dir(recipe), tc.source_dir(recipe)
    python, env = _python(tc, recipe), _env(tc, recipe)
    run(python, "setup.py", "build_py", "--build-lib", build / "lib", cwd=src, env=env, nice=True)
    run(
        python,
        "setup.py",
        "build_ext",
        "--build-lib",
        build / "lib",
        "--build-temp",
        build / "temp",
        *tc.expand(recipe, recipe.setup_args),
        cwd=src,
        env=env,
        nice=True,
    )


def install(tc: Toolchain, recipe: Recipe) -> None:
    site = tc.install_dir(recipe) / "usr" / "lib" / "python3.11" / "site-packages"
    shutil.copytree(tc.build_dir(recipe) / "lib", site)


def modules(tc: Toolchain, recipe: Recipe) -> list[Module]:
    lib = tc.build_dir(recipe) / "lib"
    return [Module.at(so, lib) for so in sorted(lib.rglob("*.so"))]

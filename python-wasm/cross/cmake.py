"""The CMake backend (the C libraries, from Debian's sources: libxml2, libxslt, libjpeg-turbo, ...):
a toolchain file per recipe, Ninja, static only, prefix /usr, installed into W/deps
(DESTDIR). A library with no CMake build of its own that cross-compiles (libf2c) has one in its
recipe's files/CMakeLists.txt."""

from __future__ import annotations

import shutil
import subprocess

from .recipe import Recipe
from .toolchain import _LDFLAGS, HERE, JOBS, Toolchain, run


def _toolchain_file(tc: Toolchain, recipe: Recipe) -> str:
    def words(flags: list[str]) -> str:
        return " ".join(flags)

    return f"""# written by python-wasm/cross/cmake.py
set(CMAKE_SYSTEM_NAME WASI)
list(APPEND CMAKE_MODULE_PATH "{HERE / "cmake"}")
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_C_COMPILER "{tc.bin}/wasi-cc")
set(CMAKE_CXX_COMPILER "{tc.bin}/wasi-c++")
set(CMAKE_AR "{tc.llvm}/llvm-ar")
set(CMAKE_RANLIB "{tc.llvm}/llvm-ranlib")
set(CMAKE_C_FLAGS_INIT "{words(tc.cflags(recipe))}")
set(CMAKE_CXX_FLAGS_INIT "{words(tc.cxxflags(recipe))}")
set(CMAKE_EXE_LINKER_FLAGS_INIT "{words(_LDFLAGS)}")
set(CMAKE_FIND_ROOT_PATH "{tc.deps}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
"""


def configure(tc: Toolchain, recipe: Recipe) -> None:
    own = tc.recipe_dir(recipe) / "files" / "CMakeLists.txt"
    if own.is_file():
        # a library whose own build cannot cross-compile (libf2c's makefile.u runs a program it
        # has just built) has a CMake build in its recipe, put at the top of its source tree
        shutil.copyfile(own, tc.source_dir(recipe) / "CMakeLists.txt")
    build = tc.build_dir(recipe)
    shutil.rmtree(build, ignore_errors=True)
    build.mkdir(parents=True)
    toolchain = tc.work / f"wasi-{recipe.name}.cmake"
    toolchain.write_text(_toolchain_file(tc, recipe))
    run(
        "cmake",
        "-G",
        "Ninja",
        "-S",
        tc.source_dir(recipe),
        "-B",
        build,
        f"-DCMAKE_TOOLCHAIN_FILE={toolchain}",
        "-DCMAKE_BUILD_TYPE=Release",
        "-DCMAKE_INSTALL_PREFIX=/usr",
        "-DCMAKE_INSTALL_LIBDIR=lib",
        "-DBUILD_SHARED_LIBS=OFF",
        *tc.expand(recipe, recipe.setup_args),
        cwd=build,
        env=tc.env(recipe),
        nice=True,
    )


def compile_(tc: Toolchain, recipe: Recipe) -> None:
    run("ninja", f"-j{JOBS}", cwd=tc.build_dir(recipe), env=tc.env(recipe), nice=True)


def install(tc: Toolchain, recipe: Recipe) -> None:
    subprocess.run(
        ["ninja", "install"],
        cwd=tc.build_dir(recipe),
        env={**tc.env(recipe), "DESTDIR": str(tc.deps)},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    tc.relocate_deps()

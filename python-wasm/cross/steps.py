"""The steps every recipe goes through, in order, each stamped so a rerun skips it:

    fetch      the sdist (of the package, or the one that carries a C library), by name and
               version from the package index as a file (toolchain.fetch_sdist), checked by
               sha256; or a C library's Debian source package (apt-get source), its .dsc
               checked by sha256 (dpkg-source checks the .dsc's files against it)
    unpack     into W/src/<name>-<version> (a C library from an sdist: its `tree` directory),
               the recipe's patches applied in name order, then
               the method-table check (methdefs.py) when the recipe asks for it
    configure  the backend's configure, with this recipe's cross file and wrappers
    compile    the backend's build (nice, -j the machine's cores)
    collect    each extension module's archive, its link inputs and its init symbol (collect.py)
               (a C library: nothing; its packages' links name its archive)
    install    the backend's install into W/install-<name>; then what the recipes that require
               this one build against (its stand-in module, its .pxd files). A C library
               installs into W/deps, where the packages that use it find it, and each archive
               it installs is checked for calls that disagree with their callee's signature
               (signatures.py)
    stage      the Python tree, dist-info and module lists the interpreter takes (stage.py); a
               C library's version, source and licence files

A step asked for by name runs again even if stamped (as build.sh's steps do).
"""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys
from types import ModuleType

from . import cmake, collect, make, meson, methdefs, setup_py, signatures, stage
from .recipe import Recipe
from .toolchain import Toolchain, check_sha256, fetch_sdist, log, run

STEPS = ("fetch", "unpack", "configure", "compile", "collect", "install", "stage")
BACKENDS: dict[str, ModuleType] = {
    "meson": meson,
    "setuptools": setup_py,
    "cmake": cmake,
    "make": make,
}


def site_of(tc: Toolchain, recipe: Recipe) -> pathlib.Path:
    """The site-packages directory of the recipe's install."""
    top = recipe.import_names[0]
    found = sorted(
        p.parent for p in tc.install_dir(recipe).rglob(top) if p.parent.name.endswith("-packages")
    )
    if not found:
        sys.exit(f"{recipe.name}: no {top}/ in {tc.install_dir(recipe)}: run its install step")
    return found[0]


def fetch(tc: Toolchain, recipe: Recipe, requires: list[Recipe]) -> None:
    tc.downloads.mkdir(parents=True, exist_ok=True)
    sdist = tc.downloads / recipe.sdist
    if recipe.debian and not sdist.is_file():
        # the .dsc and the files it lists; a version the archive no longer serves fails here
        run(
            "apt-get",
            "source",
            "-q",
            "--download-only",
            f"{recipe.debian}={recipe.version}",
            cwd=tc.downloads,
        )
    elif not sdist.is_file():
        # the file itself, not a package to prepare: `pip download --no-binary` would prepare
        # its metadata with its build backend natively first (meson-python builds the whole
        # package for that: scikit-learn's, minutes; cmeel-openblas's would build OpenBLAS)
        fetch_sdist(recipe.pypi or recipe.name, recipe.version, sdist)
    check_sha256(sdist, recipe.sdist_sha256)


def unpack(tc: Toolchain, recipe: Recipe, requires: list[Recipe]) -> None:
    src = tc.source_dir(recipe)
    shutil.rmtree(src, ignore_errors=True)
    src.parent.mkdir(parents=True, exist_ok=True)
    if recipe.debian:
        # Debian's source with Debian's patches (its security fixes among them)
        run("dpkg-source", "-q", "--no-check", "-x", tc.downloads / recipe.sdist, src)
    elif recipe.pypi:
        # the library's directory of the sdist (`tree`), as the source directory
        top = recipe.sdist.removesuffix(".tar.gz")
        src.mkdir()
        strip = f"--strip-components={1 + len(str(recipe.tree).split('/'))}"
        run("tar", "-C", src, strip, "-xzf", tc.downloads / recipe.sdist, f"{top}/{recipe.tree}")
    else:
        # the sdist's one top directory (PEP 625 names it as the file) as the source directory
        src.mkdir()
        run("tar", "-C", src, "--strip-components=1", "-xzf", tc.downloads / recipe.sdist)
    for patch in sorted((tc.recipe_dir(recipe) / "patches").glob("*.patch")):
        with patch.open("rb") as f:
            subprocess.run(["patch", "-p1", "-s", "-f"], stdin=f, cwd=src, check=True)
    if recipe.check_method_tables:
        bad = methdefs.mismatches(src, list(recipe.check_method_tables))
        if bad:
            sys.exit("\n".join([*bad, f"{recipe.name}: {len(bad)} method-table mismatches"]))


def configure(tc: Toolchain, recipe: Recipe, requires: list[Recipe]) -> None:
    tc.write_wrappers(recipe, requires)
    BACKENDS[recipe.backend].configure(tc, recipe)


def compile_(tc: Toolchain, recipe: Recipe, requires: list[Recipe]) -> None:
    BACKENDS[recipe.backend].compile_(tc, recipe)


def collect_(tc: Toolchain, recipe: Recipe, requires: list[Recipe]) -> None:
    if recipe.library:
        return
    modules = BACKENDS[recipe.backend].modules(tc, recipe)
    objects = []
    for c_file in recipe.objects:
        obj = tc.out_dir(recipe) / f"{pathlib.Path(c_file).stem}.o"
        obj.parent.mkdir(parents=True, exist_ok=True)
        source = tc.recipe_dir(recipe) / "files" / c_file
        run(*tc.cc(), *tc.cflags(recipe), "-c", source, "-o", obj)
        objects.append(obj)
    collect.write(tc.out_dir(recipe), modules, tc.build_dir(recipe), objects, tc.work)


def install(tc: Toolchain, recipe: Recipe, requires: list[Recipe]) -> None:
    if recipe.library:
        before = signatures.archives(tc)
        BACKENDS[recipe.backend].install(tc, recipe)
        for archive in signatures.check_installed(tc, before):
            print(f"{archive.name}: every call agrees with its callee's signature")
        return
    shutil.rmtree(tc.install_dir(recipe), ignore_errors=True)
    BACKENDS[recipe.backend].install(tc, recipe)
    site = site_of(tc, recipe)
    if recipe.stub:
        hook = tc.work / f"pyhook-{recipe.name}" / recipe.import_names[0]
        shutil.rmtree(hook.parent, ignore_errors=True)
        hook.mkdir(parents=True)
        text = (tc.recipe_dir(recipe) / "files" / recipe.stub).read_text()
        (hook / "__init__.py").write_text(
            text.replace("{site}", str(site)).replace("{version}", recipe.version)
        )
    if recipe.pxd:
        pxd = tc.work / f"pxd-{recipe.name}"
        shutil.rmtree(pxd, ignore_errors=True)
        for top in recipe.import_names:
            for path in sorted((site / top).rglob("*.pxd")):
                target = pxd / path.relative_to(site)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, target)


def stage_(tc: Toolchain, recipe: Recipe, requires: list[Recipe]) -> None:
    if recipe.library:
        stage.library(tc, recipe, tc.source_dir(recipe))
    else:
        stage.recipe(tc, recipe, tc.source_dir(recipe), site_of(tc, recipe))


ACTIONS = {
    "fetch": fetch,
    "unpack": unpack,
    "configure": configure,
    "compile": compile_,
    "collect": collect_,
    "install": install,
    "stage": stage_,
}


def build(
    tc: Toolchain, recipes: list[Recipe], by_name: dict[str, Recipe], steps: tuple[str, ...] | None
) -> None:
    stamps = tc.work / "stamps"
    stamps.mkdir(parents=True, exist_ok=True)
    for recipe in recipes:
        requires = [by_name[n] for n in recipe.requires]
        for step in STEPS:
            stamp = stamps / f"{recipe.name}.{step}"
            if steps is not None:
                if step not in steps:
                    continue
            elif stamp.exists():
                log(f"{recipe.name} {step}: done already")
                continue
            log(f"{recipe.name} {step}")
            ACTIONS[step](tc, recipe, requires)
            stamp.touch()

"""A package's recipe (`recipes/<name>/recipe.toml`): read, checked, and nothing else.

A recipe says what to build and how it differs from every other package: its source and pin,
its build backend's arguments, its flags, its patches (`patches/*.patch`, applied in name
order), its symbol fixes for the static link (`symbols/`, read by wasi-cc), its licence, what
it offers the recipes that build against it, and what to stage. Everything the recipes share is
the driver's (python-wasm/cross). The fields are listed in recipes/README.md.
"""

from __future__ import annotations

import dataclasses
import graphlib
import pathlib
import re
import tomllib
from typing import Any

RECIPES = pathlib.Path(__file__).resolve().parent.parent / "recipes"
VERSIONS = pathlib.Path(__file__).resolve().parent.parent / "versions.toml"

BACKENDS = frozenset({"meson", "setuptools", "cmake", "make"})
# The backends a C library (a recipe from a Debian source package, or from an sdist that carries
# a C library's source) builds with.
LIBRARY_BACKENDS = frozenset({"cmake", "make"})
_SHA256 = re.compile(r"[0-9a-f]{64}")
_NAME = re.compile(r"[a-z0-9][a-z0-9-]*")


class RecipeError(Exception):
    """A recipe that cannot be built as written: the message names the file and the field."""


@dataclasses.dataclass(frozen=True)
class Recipe:
    name: str
    version: str
    license: str  # SPDX expression, read by hand from the licence files (recipe.toml says which)
    license_files: tuple[str, ...]
    requires: tuple[str, ...]  # recipes this one compiles against (built first)
    import_names: tuple[str, ...]  # top-level packages it installs (none for a C library)
    sdist_sha256: str  # of the sdist, or of a C library's Debian .dsc (which pins the rest)
    debian: str | None  # a C library: its Debian source package (version is Debian's)
    pypi: str | None  # a C library: the PyPI project whose sdist carries its source
    tree: str | None  # with `pypi`: the library's directory inside the sdist
    backend: str
    meson: str | None  # a meson.py inside the sdist to run instead of the build tools' meson
    setup_args: tuple[str, ...]
    cflags: tuple[str, ...]  # C and C++; "{recipe}" is this recipe's directory in the build
    cxxflags: tuple[str, ...]
    objects: tuple[str, ...]  # C files of files/ compiled and linked with the modules
    check_method_tables: tuple[str, ...]  # source directories whose method tables are checked
    stub: str | None  # provides: a file of files/ that stands in for the package at build time
    pxd: bool  # provides: its .pxd files on Cython's include path
    keep: tuple[str, ...]  # staged although under an excluded directory (tests/)
    root: tuple[tuple[str, str], ...]  # (site directory, place in the guest's root): cross/stage.py
    test_imports: tuple[str, ...]
    suite: str | None  # a script of files/ that runs the package's own tests (cross/suite.py)
    suite_files: tuple[str, ...]  # what of the unpacked sdist it needs (glob patterns)
    suite_packages: tuple[str, ...]  # pure-Python test tools copied in (pytest: cross/suite.py)
    directory: pathlib.Path

    @property
    def library(self) -> bool:
        """A C library (from Debian's source, or from an sdist that carries it), installed for
        the packages to link, not staged."""
        return self.debian is not None or self.pypi is not None

    @property
    def sdist(self) -> str:
        """The pinned file: a C library's .dsc (its name has no epoch), or the sdist (of the
        package, or the one that carries a C library), named as PEP 625 normalises its
        project's name (scikit-learn's is scikit_learn-1.6.1.tar.gz)."""
        if self.debian is not None:
            return f"{self.debian}_{self.version.split(':')[-1]}.dsc"
        project = self.pypi or self.name
        return f"{re.sub(r'[-_.]+', '_', project).lower()}-{self.version}.tar.gz"

    @property
    def patches(self) -> list[pathlib.Path]:
        return sorted((self.directory / "patches").glob("*.patch"))


_REQUIRED = object()


def _take(table: dict[str, Any], key: str, kind: type, where: str, default: Any = _REQUIRED) -> Any:
    if key not in table:
        if default is _REQUIRED:
            raise RecipeError(f"{where}: `{key}` is required")
        return default
    value = table.pop(key)
    if kind is tuple:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RecipeError(f"{where}: `{key}` must be a list of strings")
        return tuple(value)
    if not isinstance(value, kind):
        raise RecipeError(f"{where}: `{key}` must be a {kind.__name__}")
    return value


def _no_more(table: dict[str, Any], where: str) -> None:
    if table:
        raise RecipeError(f"{where}: unknown field(s) {sorted(table)}")


# The guest's root holds these already (build.sh assemble_root; the session's own directories).
_ROOT_TAKEN = ("usr/lib", "workspace", "tmp")


def _check_root(recipe: Recipe, source: str, place: str, where: str) -> None:
    """A directory of the package that goes to the guest's read-only root, not into the zip:
    inside one of its import names, to a relative place that is none of the root's own."""
    for value in (source, place):
        if (
            not isinstance(value, str)
            or value.startswith("/")
            or {"", ".", ".."} & set(value.split("/"))
        ):
            raise RecipeError(f"{where}: {value!r} is not a plain relative path")
    if source.split("/")[0] not in recipe.import_names or "/" not in source:
        raise RecipeError(f"{where}: {source!r} is not a directory inside {recipe.import_names}")
    if any(place == t or place.startswith(t + "/") for t in _ROOT_TAKEN):
        raise RecipeError(f"{where}: {place!r} is the guest's own (usr/lib, workspace, tmp)")


def load(directory: pathlib.Path) -> Recipe:
    path = directory / "recipe.toml"
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RecipeError(f"{path}: {exc}") from exc
    sections = {k: dict(v) for k, v in data.items() if isinstance(v, dict)}
    unknown = set(data) - {"package", "source", "build", "provides", "stage", "test"}
    if unknown or len(sections) != len(data):
        raise RecipeError(f"{path}: unknown or malformed section(s) {sorted(unknown)}")
    pkg = sections.get("package", {})
    src = sections.get("source", {})
    build = sections.get("build", {})
    provides = sections.get("provides", {})
    stage = sections.get("stage", {})
    test = sections.get("test", {})
    w = f"{path} [package]"
    name = _take(pkg, "name", str, w)
    if not _NAME.fullmatch(name) or name != directory.name:
        raise RecipeError(f"{w}: name {name!r} must be the directory's, lower case")
    debian = _take(src, "debian", str, f"{path} [source]", None)
    pypi = _take(src, "pypi", str, f"{path} [source]", None)
    library = debian is not None or pypi is not None
    recipe = Recipe(
        name=name,
        version=_take(pkg, "version", str, w),
        license=_take(pkg, "license", str, w),
        license_files=_take(pkg, "license-files", tuple, w),
        requires=_take(pkg, "requires", tuple, w, ()),
        import_names=_take(pkg, "import-names", tuple, w, () if library else (name,)),
        sdist_sha256=_take(src, "sha256", str, f"{path} [source]"),
        debian=debian,
        pypi=pypi,
        tree=_take(src, "tree", str, f"{path} [source]", None),
        backend=_take(build, "backend", str, f"{path} [build]"),
        meson=_take(build, "meson", str, f"{path} [build]", None),
        setup_args=_take(build, "setup-args", tuple, f"{path} [build]", ()),
        cflags=_take(build, "cflags", tuple, f"{path} [build]", ()),
        cxxflags=_take(build, "cxxflags", tuple, f"{path} [build]", ()),
        objects=_take(build, "objects", tuple, f"{path} [build]", ()),
        check_method_tables=_take(build, "check-method-tables", tuple, f"{path} [build]", ()),
        stub=_take(provides, "stub", str, f"{path} [provides]", None),
        pxd=_take(provides, "pxd", bool, f"{path} [provides]", False),
        keep=_take(stage, "keep", tuple, f"{path} [stage]", ()),
        root=tuple(sorted(_take(stage, "root", dict, f"{path} [stage]", {}).items())),
        test_imports=_take(test, "imports", tuple, f"{path} [test]", () if library else _REQUIRED),
        suite=_take(test, "suite", str, f"{path} [test]", None),
        suite_files=_take(test, "suite-files", tuple, f"{path} [test]", ()),
        suite_packages=_take(test, "suite-packages", tuple, f"{path} [test]", ()),
        directory=directory,
    )
    for where, table in (
        (w, pkg),
        (f"{path} [source]", src),
        (f"{path} [build]", build),
        (f"{path} [provides]", provides),
        (f"{path} [stage]", stage),
        (f"{path} [test]", test),
    ):
        _no_more(table, where)
    if not _SHA256.fullmatch(recipe.sdist_sha256):
        raise RecipeError(f"{path} [source]: sha256 must be 64 lower-case hex digits")
    if recipe.backend not in BACKENDS:
        raise RecipeError(f"{path} [build]: backend {recipe.backend!r} is not one of {BACKENDS}")
    if debian is not None and pypi is not None:
        raise RecipeError(f"{path} [source]: a C library's source is `debian` or `pypi`, not both")
    if (recipe.tree is not None) != (pypi is not None) or (
        recipe.tree is not None
        and (recipe.tree.startswith("/") or {"", ".", ".."} & set(recipe.tree.split("/")))
    ):
        raise RecipeError(f"{path} [source]: `tree` is a relative directory, and goes with `pypi`")
    if recipe.library:
        if recipe.backend not in LIBRARY_BACKENDS:
            raise RecipeError(
                f"{path} [build]: a C library builds with one of {sorted(LIBRARY_BACKENDS)}"
            )
        if recipe.import_names or recipe.test_imports or recipe.stub or recipe.pxd:
            raise RecipeError(f"{path}: a C library has no import-names, stub, pxd or [test]")
    elif recipe.backend in LIBRARY_BACKENDS:
        raise RecipeError(
            f"{path} [build]: {recipe.backend} builds C libraries ([source] debian or pypi)"
        )
    for source, place in recipe.root:
        _check_root(recipe, source, place, f"{path} [stage] root")
    if (recipe.suite_files or recipe.suite_packages) and not recipe.suite:
        raise RecipeError(f"{path} [test]: suite-files and suite-packages need a `suite`")
    for rel in (
        *recipe.objects,
        *([recipe.stub] if recipe.stub else []),
        *([recipe.suite] if recipe.suite else []),
    ):
        if not (directory / "files" / rel).is_file():
            raise RecipeError(f"{path}: files/{rel} does not exist")
    return recipe


def load_all(root: pathlib.Path = RECIPES) -> dict[str, Recipe]:
    """Every recipe, in an order where each comes after the ones it requires."""
    recipes = {d.name: load(d) for d in sorted(root.iterdir()) if (d / "recipe.toml").is_file()}
    graph: dict[str, set[str]] = {}
    for r in recipes.values():
        missing = set(r.requires) - set(recipes)
        if missing:
            raise RecipeError(f"{r.name}: requires unknown recipe(s) {sorted(missing)}")
        graph[r.name] = set(r.requires)
    try:
        order = list(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as exc:
        raise RecipeError(f"recipes require each other in a cycle: {exc.args[1]}") from exc
    return {n: recipes[n] for n in order}


def versions(path: pathlib.Path = VERSIONS) -> dict[str, dict[str, str]]:
    """versions.toml's flat tables (section -> name -> value): every table but
    [recipe-build-tools], which tool_pins() reads."""
    data = tomllib.loads(path.read_text())
    return {
        section: dict(table) for section, table in data.items() if section != "recipe-build-tools"
    }


def _project(wheel: str) -> str:
    """A wheel file's project, normalized as PEP 503 does (meson_python and meson-python)."""
    return re.sub(r"[-_.]+", "-", wheel.split("-")[0]).lower()


def recipe_tools(path: pathlib.Path = VERSIONS) -> dict[str, dict[str, str]]:
    """versions.toml's [recipe-build-tools]: recipe -> its own build tools' wheels -> sha256."""
    table = tomllib.loads(path.read_text()).get("recipe-build-tools", {})
    return {name: dict(wheels) for name, wheels in table.items()}


def tool_pins(recipe: str | None = None, path: pathlib.Path = VERSIONS) -> dict[str, str]:
    """The build tools a recipe builds with, wheel file -> sha256: versions.toml's
    [build-tools], with the recipe's own [recipe-build-tools.<recipe>] wheels in place of the
    same projects' (scipy needs a newer meson than pandas' pin) and added to them."""
    pins = dict(versions(path)["build-tools"])
    own = recipe_tools(path).get(recipe, {}) if recipe else {}
    replaced = {_project(w) for w in own}
    pins = {w: d for w, d in pins.items() if _project(w) not in replaced}
    pins.update(own)
    return pins

"""python-wasm/cross and the recipes: every recipe is valid, its version has one home, and the
driver's pure parts (the recipe loader, the module lists, the stage's kept files, the method-table
check) do what build.sh relies on. The build itself is not run here (it needs the toolchain and
half an hour); the committed artifact's manifest is checked against the recipes in
tests/runtime/test_artifact.py."""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys
import tomllib

import pytest

from tests.support.recipes import PYTHON_WASM, RECIPES, versions

from cross import collect, methdefs, stage  # isort: skip  (on sys.path through tests.support)
from cross.recipe import Recipe, RecipeError, load, load_all, tool_pins  # isort: skip
from cross.toolchain import Toolchain  # isort: skip

ROOT = PYTHON_WASM.parent

NUMPY_LIKE = """\
[package]
name = "{name}"
version = "1.0"
license = "MIT"
license-files = ["LICENSE"]
{extra_package}
[source]
sha256 = "{sha}"

[build]
backend = "meson"

[test]
imports = ["{name}"]
"""


def _write(
    root: pathlib.Path, name: str, *, sha: str = "0" * 64, extra_package: str = "", append: str = ""
) -> pathlib.Path:
    directory = root / name
    directory.mkdir(parents=True)
    text = NUMPY_LIKE.format(name=name, sha=sha, extra_package=extra_package) + append
    (directory / "recipe.toml").write_text(text)
    return directory


LIBRARY = """\
[package]
name = "{name}"
version = "1:2.0-1"
license = "MIT"
license-files = ["COPYING"]

[source]
debian = "{name}-src"
sha256 = "{sha}"

[build]
backend = "{backend}"
"""

PACKAGES = [
    "numpy",
    "pandas",
    "lxml",
    "pillow",
    "kiwisolver",
    "contourpy",
    "matplotlib",
    "scipy",
    "scikit-learn",
]
LIBRARIES = [
    "libxml2",
    "libxslt",
    "libjpeg-turbo",
    "freetype",
    "libwebp",
    "libtiff",
    "qhull",
    "libf2c",
]
# C libraries whose source is in an sdist (no Debian source package carries it)
SDIST_LIBRARIES = ["openblas"]


def test_every_recipe_loads_and_comes_after_what_it_requires() -> None:
    assert sorted(RECIPES) == sorted(PACKAGES + LIBRARIES + SDIST_LIBRARIES)
    for position, recipe in enumerate(RECIPES.values()):
        assert set(recipe.requires) <= set(list(RECIPES)[:position])
        assert recipe.license and recipe.license_files
        # a package has modules to import in the guest; a C library is Debian's (or an
        # sdist's), and neither
        assert recipe.library == (recipe.name in LIBRARIES + SDIST_LIBRARIES)
        assert bool(recipe.test_imports) == (not recipe.library)
        assert (recipe.name in LIBRARIES) == recipe.sdist.endswith(".dsc")
        assert (recipe.name in SDIST_LIBRARIES) == (recipe.pypi is not None)


def test_a_c_library_is_debian_s_source_and_builds_with_cmake(tmp_path: pathlib.Path) -> None:
    directory = tmp_path / "libdemo"
    directory.mkdir()
    (directory / "recipe.toml").write_text(
        LIBRARY.format(name="libdemo", sha="0" * 64, backend="cmake")
    )
    recipe = load(directory)
    # the pinned file is the .dsc, named as Debian names it (no epoch)
    assert (recipe.library, recipe.sdist, recipe.import_names) == (
        True,
        "libdemo-src_2.0-1.dsc",
        (),
    )
    (directory / "recipe.toml").write_text(
        LIBRARY.format(name="libdemo", sha="0" * 64, backend="setuptools")
    )
    with pytest.raises(RecipeError, match="a C library builds with one of"):
        load(directory)
    (directory / "recipe.toml").write_text(
        LIBRARY.format(name="libdemo", sha="0" * 64, backend="cmake")
        + '\n[test]\nimports = ["libdemo"]\n'
    )
    with pytest.raises(RecipeError, match="a C library has no import-names"):
        load(directory)
    package = _write(tmp_path, "demo")
    text = (package / "recipe.toml").read_text()
    (package / "recipe.toml").write_text(text.replace('backend = "meson"', 'backend = "cmake"'))
    with pytest.raises(RecipeError, match=r"cmake builds C libraries \(\[source\] debian or pypi"):
        load(package)


def test_a_c_library_may_come_from_an_sdist_s_directory(tmp_path: pathlib.Path) -> None:
    directory = tmp_path / "libdemo"
    directory.mkdir()
    text = LIBRARY.format(name="libdemo", sha="0" * 64, backend="make").replace(
        'debian = "libdemo-src"', 'pypi = "Cmeel.Libdemo"\ntree = "LibDemo"'
    )
    (directory / "recipe.toml").write_text(text.replace('version = "1:2.0-1"', 'version = "2.0"'))
    recipe = load(directory)
    # the pinned file is the sdist, named as PEP 625 normalises the project's name
    assert (recipe.library, recipe.sdist, recipe.tree, recipe.import_names) == (
        True,
        "cmeel_libdemo-2.0.tar.gz",
        "LibDemo",
        (),
    )
    assert stage.library_record(recipe) == {
        "version": "2.0",
        "pypi_sdist": "cmeel_libdemo-2.0.tar.gz",
        "sdist_sha256": "0" * 64,
        "tree": "LibDemo",
        "license": "MIT",
    }
    for bad, message in (
        (text.replace('tree = "LibDemo"\n', ""), "`tree` is a relative directory"),
        (text.replace('tree = "LibDemo"', 'tree = "../up"'), "`tree` is a relative directory"),
        (text.replace('pypi = "Cmeel.Libdemo"', 'pypi = "x"\ndebian = "y"'), "not both"),
    ):
        (directory / "recipe.toml").write_text(bad)
        with pytest.raises(RecipeError, match=message):
            load(directory)


def test_each_built_package_has_its_version_in_one_place() -> None:
    # pyproject's native pins (the differential tests compare against them) and the docs' table
    # say what the recipe says.
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = [p for deps in pyproject["project"]["optional-dependencies"].values() for p in deps]
    table = (ROOT / "docs" / "packages.md").read_text()
    for recipe in RECIPES.values():
        if not recipe.library:  # a C library has no native pin: its package's wheel bundles it
            assert f"{recipe.name}=={recipe.version}" in pins, recipe.name
        row = re.search(rf"^\| {recipe.name} \| ([^|]+) \| ([^|]+) \|", table, re.M)
        assert row is not None, f"docs/packages.md has no row for {recipe.name}"
        assert (row[1].strip(), row[2].strip()) == (recipe.version, recipe.license)


def test_every_patch_names_the_upstream_change_it_corresponds_to() -> None:
    patched = [r for r in RECIPES.values() if r.patches]
    assert {r.name for r in patched} >= {"numpy", "pandas", "libxml2", "pillow"}
    for recipe in patched:
        for patch in recipe.patches:
            head = patch.read_text().split("\n---", 1)[0]
            assert re.search(r"^Upstream:", head, re.M), f"{patch}: no `Upstream:` line"


def test_a_recipe_s_own_build_tools_replace_the_same_projects_and_add_the_rest(
    tmp_path: pathlib.Path,
) -> None:
    pins = tmp_path / "versions.toml"
    pins.write_text(
        '[build-tools]\n"meson-1.2.1-py3-none-any.whl" = "a"\n'
        '"meson_python-0.13.1-py3-none-any.whl" = "b"\n"Cython-3.0.12-cp311.whl" = "c"\n'
        '[recipe-build-tools.scipy]\n"meson-1.5.2-py3-none-any.whl" = "d"\n'
        '"Meson_Python-0.17.1-py3-none-any.whl" = "e"\n"numpy-2.2.6-cp311.whl" = "f"\n'
    )
    shared = {
        "meson-1.2.1-py3-none-any.whl": "a",
        "meson_python-0.13.1-py3-none-any.whl": "b",
        "Cython-3.0.12-cp311.whl": "c",
    }
    assert tool_pins(None, pins) == shared
    assert tool_pins("pandas", pins) == shared
    # a wheel's project is the file name's first part, compared as PEP 503 normalizes it:
    # Meson_Python is meson_python, and neither is meson
    assert tool_pins("scipy", pins) == {
        "Cython-3.0.12-cp311.whl": "c",
        "meson-1.5.2-py3-none-any.whl": "d",
        "Meson_Python-0.17.1-py3-none-any.whl": "e",
        "numpy-2.2.6-cp311.whl": "f",
    }
    # the flat tables stay flat
    assert "recipe-build-tools" not in versions(pins)


def test_every_recipe_with_build_tools_of_its_own_is_a_recipe() -> None:
    own = tomllib.loads((PYTHON_WASM / "versions.toml").read_text()).get("recipe-build-tools", {})
    assert set(own) <= set(RECIPES)


def test_build_sh_takes_its_versions_from_versions_toml() -> None:
    build_sh = (PYTHON_WASM / "build.sh").read_text()
    pins = versions()
    for section in ("debian", "npm"):
        for value in pins[section].values():
            if len(value) > 2:  # "19" is too short to look for
                assert value not in build_sh, f"build.sh repeats {value}"
    env = subprocess.run(
        [sys.executable, "-m", "cross", "env"],
        cwd=PYTHON_WASM,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "DEBIAN_CLANG='1:19.1.7-3~deb12u1'" in env.splitlines()
    assert f"NPM_BINARYEN={pins['npm']['binaryen']}" in env.splitlines()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"sha": "abc"}, "64 lower-case hex"),
        ({"append": "\n[build2]\nx = 1\n"}, "unknown or malformed section"),
        ({"extra_package": 'homepage = "x"'}, r"unknown field\(s\) \['homepage'\]"),
        ({"append": '\n[provides]\nstub = "nothere.py"\n'}, "files/nothere.py does not exist"),
        ({"extra_package": 'requires = "numpy"'}, "`requires` must be a list of strings"),
        ({"append": "\n[provides]\nstub = 3\n"}, "`stub` must be a str"),
        ({"append": '\n[stage]\nkeep = "a.py"\n'}, "`keep` must be a list of strings"),
        ({"append": 'suite = "nothere.py"\n'}, "files/nothere.py does not exist"),
        ({"append": 'suite-files = "tests"\n'}, "`suite-files` must be a list of strings"),
        ({"append": 'suite-packages = ["pytest"]\n'}, "need a `suite`"),
        ({"append": '\n[stage]\nroot = {"demo/data" = "usr/lib/data"}\n'}, "the guest's own"),
        ({"append": '\n[stage]\nroot = {"demo/data" = "tmp"}\n'}, "the guest's own"),
        (
            {"append": '\n[stage]\nroot = {"other/data" = "usr/share/d"}\n'},
            "not a directory inside",
        ),
        ({"append": '\n[stage]\nroot = {"demo" = "usr/share/d"}\n'}, "not a directory inside"),
        ({"append": '\n[stage]\nroot = {"demo/../x" = "usr/share/d"}\n'}, "plain relative path"),
        ({"append": '\n[stage]\nroot = {"demo/data" = "/usr/share/d"}\n'}, "plain relative path"),
        ({"append": '\n[stage]\nroot = {"demo/data" = 3}\n'}, "plain relative path"),
        ({"append": '\n[stage]\nroot = ["demo/data"]\n'}, "`root` must be a dict"),
        ({"append": 'suite-files = ["tests"]\n'}, "need a `suite`"),
    ],
)
def test_a_bad_recipe_is_refused_with_its_file_and_field(
    tmp_path: pathlib.Path, change: dict[str, str], message: str
) -> None:
    directory = _write(tmp_path, "demo", **change)
    with pytest.raises(RecipeError, match=message) as info:
        load(directory)
    assert str(directory / "recipe.toml") in str(info.value)


def test_a_recipe_must_name_its_directory_and_a_known_backend(tmp_path: pathlib.Path) -> None:
    directory = _write(tmp_path, "demo")
    (directory / "recipe.toml").write_text(
        (directory / "recipe.toml").read_text().replace('backend = "meson"', 'backend = "scons"')
    )
    with pytest.raises(RecipeError, match="backend 'scons'"):
        load(directory)
    other = _write(tmp_path, "other")
    (other / "recipe.toml").write_text(
        (other / "recipe.toml").read_text().replace('name = "other"', 'name = "demo"')
    )
    with pytest.raises(RecipeError, match="must be the directory's"):
        load(other)


def test_requirements_order_the_recipes_and_a_cycle_or_an_unknown_one_is_refused(
    tmp_path: pathlib.Path,
) -> None:
    _write(tmp_path / "ok", "zeta")
    _write(tmp_path / "ok", "alpha", extra_package='requires = ["zeta"]')
    assert list(load_all(tmp_path / "ok")) == ["zeta", "alpha"]
    _write(tmp_path / "cycle", "a", extra_package='requires = ["b"]')
    _write(tmp_path / "cycle", "b", extra_package='requires = ["a"]')
    with pytest.raises(RecipeError, match="cycle"):
        load_all(tmp_path / "cycle")
    _write(tmp_path / "unknown", "a", extra_package='requires = ["nope"]')
    with pytest.raises(RecipeError, match=r"unknown recipe\(s\) \['nope'\]"):
        load_all(tmp_path / "unknown")


def test_collect_lists_modules_by_dotted_name_and_link_inputs_once(tmp_path: pathlib.Path) -> None:
    build = tmp_path / "build"
    (build / "pkg" / "sub").mkdir(parents=True)
    b = build / "pkg" / "sub" / "_b.cpython-311-wasm32-wasi.so"
    a = build / "pkg" / "_a.cpython-311-wasm32-wasi.so"
    for so, links in ((b, "libcommon.a -lm /abs/libx.a"), (a, "libcommon.a -lz -lm")):
        so.write_bytes(b"!<arch>\n")
        pathlib.Path(f"{so}.link").write_text(links.replace(" ", "\n") + "\n")
    # meson's order (b, then a) is kept for the libraries; the modules are sorted
    modules = [collect.Module.at(b, build), collect.Module.at(a, build)]
    assert [m.dotted for m in modules] == ["pkg.sub._b", "pkg._a"]
    assert modules[0].init == "PyInit_pkg_sub__b"
    out = tmp_path / "out"
    collect.write(out, modules, build, [tmp_path / "stub.o"], tmp_path)
    assert (out / "modules.tsv").read_text().splitlines() == [
        f"pkg._a\tPyInit_pkg__a\t{out}/lib/pkg._a.a",
        f"pkg.sub._b\tPyInit_pkg_sub__b\t{out}/lib/pkg.sub._b.a",
    ]
    assert (out / "link.txt").read_text().splitlines() == [
        f"{out}/lib/pkg._a.a",
        f"{out}/lib/pkg.sub._b.a",
        f"{build}/libcommon.a",
        "/abs/libx.a",
        "-lm",
        "-lz",
        f"{tmp_path}/stub.o",
    ]
    assert (out / "lib" / "pkg._a.a").read_bytes() == b"!<arch>\n"


def test_a_module_built_elsewhere_is_named_where_it_is_installed(tmp_path: pathlib.Path) -> None:
    # matplotlib builds matplotlib._path as src/_path: the import name is where meson installs
    # it; the init symbol stays the one wasi-cc compiled from the build tree's path
    build = tmp_path / "build"
    so = build / "src" / "_path.cpython-311-wasm32-wasi.so"
    module = collect.Module.installed(so, build, "matplotlib/_path.cpython-311-wasm32-wasi.so")
    assert (module.dotted, module.init) == ("matplotlib._path", "PyInit_src__path")
    same = collect.Module.installed(
        build / "pkg" / "_a.cpython-311-wasm32-wasi.so", build, "pkg/_a.cpython-311-wasm32-wasi.so"
    )
    assert (same.dotted, same.init, same.built_as) == ("pkg._a", "PyInit_pkg__a", "")


def test_collect_names_a_c_library_by_its_archive_and_refuses_a_host_library_directory(
    tmp_path: pathlib.Path,
) -> None:
    build, deps = tmp_path / "build", tmp_path / "deps" / "usr" / "lib"
    (build / "pkg").mkdir(parents=True)
    deps.mkdir(parents=True)
    (deps / "libxml2.a").write_bytes(b"!<arch>\n")
    so = build / "pkg" / "etree.cpython-311-wasm32-wasi.so"
    so.write_bytes(b"!<arch>\n")
    # as pkg-config writes it: a -L through the .pc file's directory
    pathlib.Path(f"{so}.link").write_text(f"-L{deps}/pkgconfig/../../lib\n-lxml2\n-lrt\n")
    out = tmp_path / "out"
    collect.write(out, [collect.Module.at(so, build)], build, [], tmp_path)
    assert (out / "link.txt").read_text().splitlines() == [
        f"{out}/lib/pkg.etree.a",
        f"{deps}/libxml2.a",  # by path: the duplicate-symbol check sees it
        "-lrt",  # not a library built here: left to the reactor's link (wasi-libc's)
    ]
    pathlib.Path(f"{so}.link").write_text("-L/usr/lib/x86_64-linux-gnu\n-lxml2\n")
    with pytest.raises(SystemExit, match="a host library directory"):
        collect.write(out, [collect.Module.at(so, build)], build, [], tmp_path)


def test_a_kept_file_brings_its_package_init_files() -> None:
    assert stage.kept(RECIPES["numpy"]) == [
        "numpy/_core/__init__.py",
        "numpy/_core/tests/__init__.py",
        "numpy/_core/tests/_natype.py",
    ]
    assert stage._staged(pathlib.PurePosixPath("numpy/linalg/_umath_linalg.py"))
    for excluded in (
        "numpy/_core/tests/test_a.py",
        "numpy/_core/include/numpy/x.h",
        "pandas/_libs/lib.pyx",
        "numpy/random/c_distributions.pxd",
        "lxml/etree.pxi",
    ):
        assert not stage._staged(pathlib.PurePosixPath(excluded)), excluded


def test_the_method_table_check_finds_a_flag_signature_mismatch(tmp_path: pathlib.Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.c").write_text(
        "static PyObject *\nok(PyObject *self, PyObject *args)\n{ return NULL; }\n"
        "static PyObject *\nbad(PyObject *self, PyObject *args)\n{ return NULL; }\n"
        "static PyMethodDef methods[] = {\n"
        '    {"ok", (PyCFunction)ok, METH_VARARGS, NULL},\n'
        '    {"bad", (PyCFunction)bad, METH_VARARGS | METH_KEYWORDS, NULL},\n'
        "};\n"
    )
    found = methdefs.mismatches(tmp_path, ["pkg"])
    assert len(found) == 1
    assert "bad -> bad flags [METH_VARARGS | METH_KEYWORDS] wants 3 params" in found[0]


def test_a_suite_under_pytest_gets_the_shared_runner_and_others_do_not() -> None:
    from cross import suite  # isort: skip  (imports cove lazily, at run time)

    for name in ("numpy", "pillow", "matplotlib"):
        shared = suite._shared(RECIPES[name])
        assert list(shared) == ["suite-site/cove_suite.py"]
        # and the recipe's script uses it
        script = (RECIPES[name].directory / "files" / str(RECIPES[name].suite)).read_text()
        assert "cove_suite.run(MODULE" in script
    assert b"def run(module: str, args: list[str]" in shared["suite-site/cove_suite.py"]
    assert suite._shared(RECIPES["lxml"]) == {}  # unittest: nothing of pytest's


def test_a_suites_test_tools_are_copied_from_the_venv_and_must_be_pure_python() -> None:
    from cross import suite  # isort: skip  (imports cove lazily, at run time)

    pillow = RECIPES["pillow"]
    assert pillow.suite == "suite.py" and "pytest" in pillow.suite_packages
    files = suite._package("iniconfig")
    assert "suite-site/iniconfig/__init__.py" in files
    assert not any("__pycache__" in name for name in files)
    assert list(suite._package("py")) == ["suite-site/py.py"]  # a module, not a package
    with pytest.raises(SystemExit, match="not pure Python"):
        suite._package("msgspec")
    with pytest.raises(SystemExit, match="not installed"):
        suite._package("no_such_tool_here")


def _staged_demo(work: pathlib.Path, name: str, root: str) -> Recipe:
    """A built package as the install step leaves it, and its recipe, for stage.recipe."""
    directory = _write(work / "recipes", name, append=f"\n[stage]\nroot = {root}\n")
    r = load(directory)
    site, src = work / f"site-{name}", work / f"src-{name}"
    for rel in (f"{name}/__init__.py", f"{name}/data/a.txt", f"{name}/data/fonts/b.ttf"):
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(rel)
    src.mkdir()
    (src / "PKG-INFO").write_text(f"Name: {name}\n")
    (src / "LICENSE").write_text("MIT")
    out = work / f"out-{name}"
    out.mkdir()
    (out / "modules.tsv").write_text("")
    (out / "link.txt").write_text("")
    stage.recipe(Toolchain(work, work), r, src, site)
    return r


def test_a_recipes_stage_root_moves_a_directory_from_the_zip_to_the_guests_root(
    tmp_path: pathlib.Path,
) -> None:
    # matplotlib's mpl-data, for one: FreeType and the package's Python open its files by path
    r = _staged_demo(tmp_path, "demo", '{"demo/data" = "usr/share/demo"}')
    assert r.root == (("demo/data", "usr/share/demo"),)
    stage.combine(Toolchain(tmp_path, tmp_path), [r])
    combined = tmp_path / "stage"
    assert sorted(
        p.relative_to(combined / "root").as_posix()
        for p in (combined / "root").rglob("*")
        if p.is_file()
    ) == ["usr/share/demo/a.txt", "usr/share/demo/fonts/b.ttf"]
    assert (combined / "site" / "demo" / "__init__.py").is_file()
    assert not (combined / "site" / "demo" / "data").exists()
    # two recipes may not put the same file in the root
    other = _staged_demo(tmp_path, "other", '{"other/data" = "usr/share/demo"}')
    with pytest.raises(SystemExit, match="as another recipe does"):
        stage.combine(Toolchain(tmp_path, tmp_path), [r, other])
    # and a directory the package does not install is a mistake, not an empty stage
    with pytest.raises(SystemExit, match="not a directory it installs"):
        _staged_demo(tmp_path / "x", "demo", '{"demo/nothere" = "usr/share/demo"}')


def test_a_top_level_module_among_the_import_names_is_staged(tmp_path: pathlib.Path) -> None:
    # matplotlib installs pylab.py beside its packages
    directory = _write(tmp_path / "recipes", "demo", extra_package='import-names = ["demo", "lab"]')
    site, src = tmp_path / "site", tmp_path / "src"
    for rel in ("demo/__init__.py", "lab.py"):
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(rel)
    src.mkdir()
    (src / "PKG-INFO").write_text("Name: demo\n")
    (src / "LICENSE").write_text("MIT")
    (tmp_path / "out-demo").mkdir()
    for name in ("modules.tsv", "link.txt"):
        (tmp_path / "out-demo" / name).write_text("")
    stage.recipe(Toolchain(tmp_path, tmp_path), load(directory), src, site)
    staged = tmp_path / "stage" / "demo" / "site"
    assert (staged / "lab.py").read_text() == "lab.py"
    assert (staged / "demo" / "__init__.py").is_file()

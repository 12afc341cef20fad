# matplotlib's own test suite (lib/matplotlib/tests and lib/mpl_toolkits/*/tests, with their
# baseline images), one test module a call, under pytest: `python -m cross suite matplotlib`
# runs this in Cove sessions and natively. The sdist's test directories are in the current
# directory as the sdist lays them out; pytest and what it needs are in suite-site/ (the
# recipe's suite-packages); the matplotlib under test is the installed one (the guest's zip,
# the venv's wheel). MODULE None: print the modules (dotted names); else run that module and
# print the result as JSON: tests run (skipped ones included), skipped, and each failure and
# error with the last line of its report.
#
# The test modules import as matplotlib.tests.test_xxx (mpl_toolkits.mplot3d.tests.test_xxx),
# which the installed package cannot give: the guest's zip has no tests/, the wheel's has no
# baseline_images/ (its tests/__init__.py refuses to import without them). So a finder first
# on sys.meta_path gives those test packages, and only them, from the copied directories:
# `matplotlib.tests` is the copy, `matplotlib` and every other submodule the installed one.
# pytest imports the files the way matplotlib's own pyproject.toml says
# (--import-mode=importlib), and with consider_namespace_packages it walks up from the copied
# tests/ (lib/matplotlib has no __init__.py here) to the first dotted name that imports as
# that file, matplotlib.tests.test_xxx; conftest.py (matplotlib.testing's fixtures: agg, the
# classic test style, warnings as errors) comes the same way. The finder is a sitecustomize.py
# in suite-child/, which PYTHONPATH names, so that the Python processes some tests start
# (test_determinism's `from matplotlib.tests.test_determinism import ...`) import the same
# copy natively; the guest's `python` command reads no PYTHONPATH and takes no -R (those
# tests fail there, as do the children that import pytest, which only suite-site/ has).
# The image comparisons find their baselines next to the file (func.__code__.co_filename)
# and write result_images/ in the current directory. Both sides run the same copied files the
# same way.
#
# The tolerances are matplotlib's own, raised nowhere here. matplotlib's baselines are drawn
# with FreeType 2.6.1; the guest's is Debian's 2.12.1, which renders matplotlib's text as 2.6.1
# does through the `cove-like-2.6.1` property matplotlib's ft2font sets (recipes/freetype
# 0001, matplotlib 0004) but for a few glyphs at some sizes, so matplotlib._init_tests logs
# its "Expect many image comparison failures" warning there. matplotlib 3.9.4 makes no other
# allowance for a FreeType version than the image_comparison(freetype_version=...) xfail some
# tests carry, and the tol= others give for platforms other than x86_64 (platform.machine()
# is "wasm32" in the guest: those apply there). PDF, SVG and EPS comparisons are skipped on
# both sides (no Ghostscript, no Inkscape), as are the usetex and pgf tests (no TeX).
#
# How pytest runs and what the result says is cove_suite's, the pytest side the suite scripts
# share (cross/suite_pytest.py, in suite-site/). Plugins installed in the venv are not loaded
# (PYTEST_DISABLE_PLUGIN_AUTOLOAD), so both sides run pytest's own plugins only.
import json
import os
import sys

MODULE = globals().get("MODULE")
sys.path.insert(0, os.path.join(os.getcwd(), "suite-site"))
# matplotlib's packages with tests/ in the sdist, each a directory of lib/
PACKAGES = [
    "matplotlib",
    "mpl_toolkits.axes_grid1",
    "mpl_toolkits.axisartist",
    "mpl_toolkits.mplot3d",
]


def directory(package):
    return os.path.join(os.getcwd(), "lib", *package.split("."))


TESTS = {f"{p}.tests": os.path.join(directory(p), "tests") for p in PACKAGES}

if MODULE is None:
    import cove_suite

    print(json.dumps(cove_suite.modules_of(TESTS)))
else:
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    import cove_suite
    import pytest

    cove_suite.install_test_packages(TESTS)

    # Tests that wait for a threading.Timer to press a key or a button while they block: the
    # guest runs a thread's run() to completion in start() (cove_guest.sandbox.threads), so
    # the press comes before the wait and the wait never ends; each fails at once in the
    # guest, without running, instead of holding the call until its time limit
    BLOCKS = {"lib/matplotlib/tests/test_figure.py::test_waitforbuttonpress"}
    BLOCKED = "blocks until the time limit: needs a Timer thread to run alongside it"

    class Blocks:
        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_call(self, item):
            if sys.platform == "wasi" and item.nodeid in BLOCKS:
                raise RuntimeError(BLOCKED)

    path = os.path.join("lib", *MODULE.split(".")) + ".py"
    imports = ["--import-mode=importlib", "-o", "consider_namespace_packages=true"]
    # matplotlib's conftest turns every warning into an error; two kinds come from the test
    # tools being newer than matplotlib 3.9.4 (on both sides alike), not from what is tested:
    # pytest 9 deprecating what these tests do (non-Collection parametrize, class-scoped
    # fixtures as methods: collection errors), Pillow 11.3 deprecating Image.fromarray's mode=,
    # which matplotlib 3.9.4 passes
    newer = [
        "ignore::pytest.PytestRemovedIn10Warning",
        "ignore:'mode' parameter is deprecated:DeprecationWarning",
    ]
    tools = [arg for action in newer for arg in ("-W", action)]
    cove_suite.run(MODULE, [path, *imports, *tools], plugins=[Blocks()])

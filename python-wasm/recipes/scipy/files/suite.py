# scipy's own tests of the modules model code uses (stats, optimize, interpolate, integrate,
# signal, linalg, sparse with sparse.linalg and csgraph, spatial, special, fft, ndimage,
# cluster, io), one test module a call, under pytest: `python -m cross suite scipy` runs this in
# Cove sessions and natively. The sdist's test directories, scipy/conftest.py (scipy's fixtures:
# the array-API backends, the FPU-mode check) and pytest.ini (its warnings filter, errors but
# for the listed ones) are in the current directory as the sdist lays them out; pytest and what
# it needs are in suite-site/ (the recipe's suite-packages); the scipy under test is the
# installed one (the guest's zip, the venv's wheel).
#
# The test modules import as scipy.stats.tests.test_xxx, and import each other that way
# (`from .common_tests import ...`, `from scipy.optimize.tests.test_minpack import ...`), which
# the installed package cannot give: the guest's zip has no tests/. So a finder first on
# sys.meta_path gives those test packages, and only them, from the copied directories, on both
# sides alike (as matplotlib's suite does): `scipy.stats.tests` is the copy, `scipy` and every
# other submodule the installed one. pytest imports the files with --import-mode=importlib and
# consider_namespace_packages, walking up from the copied tests/ to the first dotted name that
# imports as that file. Test data scipy's build writes (special's boost.npz, gsl.npz, local.npz)
# is not in the sdist: the tests that read it skip or fail on both sides alike.
#
# How pytest runs and what the result says is cove_suite's (cross/suite_pytest.py, in
# suite-site/). Plugins installed in the venv are not loaded (PYTEST_DISABLE_PLUGIN_AUTOLOAD),
# so both sides run pytest's own plugins only; hypothesis is not there, and scipy's tests that
# need it skip on both sides.
import json
import os
import sys

MODULE = globals().get("MODULE")
sys.path.insert(0, os.path.join(os.getcwd(), "suite-site"))
import cove_suite  # noqa: E402 (in suite-site/)

if sys.platform == "wasi":
    # scipy/conftest.py asks multiprocessing for the 'forkserver' start method (against fork
    # from threads), which the guest, starting no processes, does not have: the request is
    # dropped there, so that pytest configures at all.
    import multiprocessing

    _set_start_method = multiprocessing.set_start_method

    def _start_method(method, force=False):
        if method in multiprocessing.get_all_start_methods():
            _set_start_method(method, force=force)

    multiprocessing.set_start_method = _start_method

    # scipy's thread-safety tests run a function on several threads at once, each waiting at a
    # threading.Barrier for the others; the guest's threads run one after another
    # (cove_guest/sandbox/threads.py), so the first waits for ever and the module runs into
    # its time limit (interpolate's eight test modules did). They skip in the guest, saying why.
    import pytest
    import scipy._lib._testutils

    def _run_concurrent_barrier(n_workers, fn, *args, **kwargs):
        pytest.skip(f"{n_workers} threads at a barrier at once: the guest runs one thread")

    scipy._lib._testutils._run_concurrent_barrier = _run_concurrent_barrier
MODULES = ["stats", "optimize", "interpolate", "integrate", "signal", "linalg", "sparse",
           "spatial", "special", "fft", "ndimage", "cluster", "io"]  # fmt: skip


def packages():
    """The test packages of MODULES in the copy: dotted name -> directory."""
    return cove_suite.packages_with_tests("scipy", MODULES)


if MODULE is None:
    print(json.dumps(cove_suite.modules_of(packages())))
else:
    cove_suite.run_test_module(MODULE, packages())

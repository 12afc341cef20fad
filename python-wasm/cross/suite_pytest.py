# The pytest side the recipes' suite scripts share (numpy's, Pillow's, matplotlib's, scipy's,
# scikit-learn's): list the test modules, run one and print its result as JSON, the way
# cross/suite.py reads it. cross/suite.py copies this file into suite-site/ as cove_suite.py,
# next to pytest itself, for a recipe whose suite-packages include pytest; it runs in a Cove
# session and natively alike, so it imports nothing but pytest and the standard library.
#
# The result: tests run (skipped ones included), skipped, and each failure and error with the
# last line of its report (once a test: setup, call or teardown), plus the skip reasons (for
# reading; the runner reads only the counts). Output capture is pytest's `sys` kind: the guest
# has no dup(), which the default `fd` kind needs, as does the faulthandler plugin (off; a
# crash is the call's outcome anyway); the logging plugin writes to pytest.log; the cache
# plugin is off (it would write .pytest_cache); --basetemp, because pytest's own temporary
# directory would be named by os.getuid(), which WASI does not have.
from __future__ import annotations

import gc
import glob
import importlib
import json
import os
import sys
from collections.abc import Iterable
from typing import Any

import pytest

OFF = ["-p", "no:cacheprovider", "-p", "no:faulthandler", "-o", "log_file=pytest.log"]


def last_line(report: Any) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)  # "OSError: [Errno 58] ..."
    if crash is not None:
        return str(crash.message.splitlines()[0][:300] if crash.message else report.outcome)
    lines = [line for line in str(report.longreprtext).splitlines() if line.strip()]
    return lines[-1][:300] if lines else str(report.outcome)


class Results:
    """A pytest plugin that counts what a module's run did."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.run = self.skipped = 0
        self.failures: list[list[str]] = []
        self.errors: list[list[str]] = []
        self.skip_reasons: dict[str, int] = {}  # reason: tests (the runner reads the counts)
        self.seen: set[str] = set()

    def result(self) -> dict[str, Any]:
        return {
            "run": self.run,
            "skipped": self.skipped,
            "failures": self.failures,
            "errors": self.errors,
            "skip_reasons": self.skip_reasons,
        }

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.errors.append([report.nodeid or self.module, last_line(report)])

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "setup":
            self.run += 1
        if report.when == "teardown" and report.nodeid in self.seen:
            # a failed test's frames outlive it: pytest keeps the last failure's traceback for
            # post-mortem debugging, and the failure's traceback, frames and pytest.raises
            # context make a cycle only the collector frees. After a test that ran out of the
            # guest's memory, that memory would be held through the next tests
            sys.last_type = sys.last_value = sys.last_traceback = None
            gc.collect()
        if report.skipped and not hasattr(report, "wasxfail"):
            self.skipped += 1
            reason = str(report.longrepr[-1])[:120] if isinstance(report.longrepr, tuple) else ""
            self.skip_reasons[reason] = self.skip_reasons.get(reason, 0) + 1
        elif report.failed and report.nodeid not in self.seen:
            self.seen.add(report.nodeid)
            kind = self.failures if report.when == "call" else self.errors
            kind.append([report.nodeid, last_line(report)])


def run(module: str, args: list[str], plugins: Iterable[object] = ()) -> None:
    """Run pytest on `args` (the module's file first) with `plugins`; print the result."""
    results = Results(module)
    code = pytest.main(
        [*args, "-q", "--capture=sys", "--basetemp=pytest-tmp", *OFF],
        plugins=[results, *plugins],
    )
    if code not in (0, 1, 5) and not results.errors:  # 5: nothing collected
        results.errors.append([module, f"pytest exited with {code!r}"])
    print(json.dumps(results.result()))


FINDER = """# the package's test packages from the copied sdist (cove_suite.install_test_packages)
import importlib.util
import sys

TESTS = {tests!r}


class TestPackages:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name in TESTS:
            init = TESTS[name] + "/__init__.py"
            return importlib.util.spec_from_file_location(
                name, init, submodule_search_locations=[TESTS[name]]
            )
        return None


sys.meta_path.insert(0, TestPackages)
"""


def install_test_packages(tests: dict[str, str]) -> None:
    """Import the test packages `tests` (dotted name -> directory of the copy) from the copied
    sdist, and only them, by a finder first on sys.meta_path: the installed package has no
    tests/ (the guest's zip). In this process and, through a sitecustomize on PYTHONPATH, in
    the interpreters its tests start."""
    child = os.path.abspath("suite-child")
    os.makedirs(child, exist_ok=True)
    with open(os.path.join(child, "sitecustomize.py"), "w") as f:
        f.write(FINDER.format(tests=tests))
    os.environ["PYTHONPATH"] = child
    sys.path.insert(0, child)
    importlib.import_module("sitecustomize")  # the finder, in this process too


def packages_with_tests(package: str, subpackages: Iterable[str]) -> dict[str, str]:
    """The test packages (a tests/ with its __init__.py, at any depth) of each of `subpackages`
    of `package` in the copy, which the current directory holds as the sdist lays it out: dotted
    name -> directory."""
    found: dict[str, str] = {}
    for sub in subpackages:
        pattern = os.path.join(package, sub, "**", "tests", "__init__.py")
        for init in glob.glob(pattern, recursive=True):
            directory = os.path.dirname(init)
            found[".".join(directory.split(os.sep))] = os.path.abspath(directory)
    return dict(sorted(found.items()))


def modules_of(tests: dict[str, str], only: dict[str, list[str]] | None = None) -> list[str]:
    """The dotted names of the test modules (test_*.py) of each test package of `tests` (dotted
    name -> directory of the copy), in order; of a package `only` names, just those it lists."""
    names: list[str] = []
    for package, directory in tests.items():
        files = sorted(
            n[:-3] for n in os.listdir(directory) if n.startswith("test_") and n.endswith(".py")
        )
        keep = (only or {}).get(package)
        names += [f"{package}.{n}" for n in files if keep is None or n in keep]
    return names


def run_test_module(module: str, tests: dict[str, str]) -> None:
    """Run the test module `module` (a dotted name modules_of gave) from the copy, its test
    packages `tests` imported from there (install_test_packages), pytest's plugins only
    (PYTEST_DISABLE_PLUGIN_AUTOLOAD), and print the result. pytest imports it as that dotted
    name: --import-mode=importlib with namespace packages walks up from the copied tests/ to
    the first dotted name that imports as that file."""
    os.environ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    install_test_packages(tests)
    path = os.path.join(*module.split(".")) + ".py"
    run(module, [path, "--import-mode=importlib", "-o", "consider_namespace_packages=true"])

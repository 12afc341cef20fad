# numpy's own tests of its linear algebra (numpy/linalg/tests: every routine against the
# identities it must satisfy, in float32, float64, complex64 and complex128, with empty,
# stacked and non-contiguous arrays), one test module a call, under pytest: `python -m cross
# suite numpy` runs this in Cove sessions and natively. The sdist's test directory is in the
# current directory as the sdist lays it out, imported by file (--import-mode=importlib) so
# that the numpy under test is the installed one (the guest's, the venv's wheel); pytest and
# what it needs are in suite-site/ (the recipe's suite-packages). MODULE None: print the
# modules; else run numpy/linalg/tests/MODULE.py and print the result as JSON: tests run
# (skipped ones included), skipped, and each failure and error with the last line of its
# report. numpy's tests skip, on both sides alike, what needs a subprocess or threads in
# WebAssembly (numpy.testing.IS_WASM) and what needs more memory than is sensible (slow
# marks run). Output capture is pytest's `sys` kind: the guest has no dup(), which the
# default `fd` kind needs, as does the faulthandler plugin (off); the cache plugin is off.
import json
import os
import sys

MODULE = globals().get("MODULE")
sys.path.insert(0, os.path.join(os.getcwd(), "suite-site"))
TESTS = os.path.join("numpy", "linalg", "tests")
if MODULE is None:
    names = sorted(n[:-3] for n in os.listdir(TESTS) if n.startswith("test_") and n[-3:] == ".py")
    print(json.dumps(names))
else:
    import pytest

    out = {"run": 0, "skipped": 0, "failures": [], "errors": []}
    seen = set()
    reasons = out["skip_reasons"] = {}  # reason: tests (the runner reads only the counts)

    def last_line(report):
        crash = getattr(report.longrepr, "reprcrash", None)
        if crash is not None:
            return crash.message.splitlines()[0][:300] if crash.message else report.outcome
        lines = [line for line in str(report.longreprtext).splitlines() if line.strip()]
        return lines[-1][:300] if lines else report.outcome

    class Collect:
        def pytest_collectreport(self, report):
            if report.failed:
                out["errors"].append([report.nodeid or MODULE, last_line(report)])

        def pytest_runtest_logreport(self, report):
            if report.when == "setup":
                out["run"] += 1
            xfail = hasattr(report, "wasxfail")
            if report.skipped and not xfail:
                out["skipped"] += 1
                reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else ""
                reasons[reason[:120]] = reasons.get(reason[:120], 0) + 1
            elif report.failed and report.nodeid not in seen:
                seen.add(report.nodeid)
                kind = "failures" if report.when == "call" else "errors"
                out[kind].append([report.nodeid, last_line(report)])

    off = ["-p", "no:cacheprovider", "-p", "no:faulthandler", "-o", "log_file=pytest.log"]
    args = [
        os.path.join(TESTS, f"{MODULE}.py"),
        "-q",
        "--capture=sys",
        "--import-mode=importlib",
        "--basetemp=pytest-tmp",
        *off,
    ]
    code = pytest.main(args, plugins=[Collect()])
    if code not in (0, 1, 5) and not out["errors"]:  # 5: nothing collected
        out["errors"].append([MODULE, f"pytest exited with {code!r}"])
    print(json.dumps(out))

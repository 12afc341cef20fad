# Pillow's own test suite (Tests/, with its images and fonts), one test module a call, under
# pytest: `python -m cross suite pillow` runs this in Cove sessions and natively. The sdist's
# files are in the current directory as the sdist lays them out (pyproject.toml holds pytest's
# settings; Tests/ is a package, so its relative imports hold); pytest and what it needs are in
# suite-site/ (the recipe's suite-packages); the PIL under test is the installed one (src/ is
# not copied). MODULE None: print the modules; else run Tests/MODULE.py and print the result as
# JSON: tests run (skipped ones included), skipped, and each failure and error with the last
# line of its report. Output capture is pytest's `sys` kind: the guest has no dup(), which the
# default `fd` kind needs, as does the faulthandler plugin (off; a crash is the call's
# outcome anyway), and as does the capfd fixture (its tests are skipped in the guest, below);
# the logging plugin writes to /dev/null unless given a file, and the guest has no /dev/null;
# the cache plugin is off (it would write .pytest_cache).
import json
import os
import sys

MODULE = globals().get("MODULE")
sys.path.insert(0, os.path.join(os.getcwd(), "suite-site"))
if MODULE is None:
    names = sorted(n[:-3] for n in os.listdir("Tests") if n.startswith("test_") and n[-3:] == ".py")
    print(json.dumps(names))
else:
    import pytest

    out = {"run": 0, "skipped": 0, "failures": [], "errors": []}
    seen = set()
    reasons = out["skip_reasons"] = {}  # reason: tests (the runner reads only the counts)

    def last_line(report):
        crash = getattr(report.longrepr, "reprcrash", None)  # "OSError: [Errno 58] ..."
        if crash is not None:
            return crash.message.splitlines()[0][:300] if crash.message else report.outcome
        lines = [line for line in str(report.longreprtext).splitlines() if line.strip()]
        return lines[-1][:300] if lines else report.outcome

    class Collect:
        def pytest_collectreport(self, report):
            if report.failed:
                out["errors"].append([report.nodeid or MODULE, last_line(report)])

        def pytest_collection_modifyitems(self, items):
            # capfd (file-descriptor capture) needs dup(), which WASI does not have: a test
            # asking for it is skipped in the guest (its failed set-up would leave pytest's
            # capture broken for every later test of the module)
            if sys.platform == "wasi":
                skip = pytest.mark.skip(reason="capfd needs dup(), which WASI does not have")
                for item in items:
                    if "capfd" in getattr(item, "fixturenames", ()):
                        item.add_marker(skip)

        def pytest_runtest_logreport(self, report):
            if report.when == "setup":
                out["run"] += 1
            xfail = hasattr(report, "wasxfail")
            if report.skipped and not xfail:
                out["skipped"] += 1
                reason = str(report.longrepr[-1]) if isinstance(report.longrepr, tuple) else ""
                reasons[reason[:120]] = reasons.get(reason[:120], 0) + 1
            elif report.failed and report.nodeid not in seen:  # once a test (setup, teardown)
                seen.add(report.nodeid)
                kind = "failures" if report.when == "call" else "errors"
                out[kind].append([report.nodeid, last_line(report)])

    off = ["-p", "no:cacheprovider", "-p", "no:faulthandler", "-o", "log_file=pytest.log"]
    # --basetemp: pytest's own temporary directory would be named by os.getuid(), which WASI
    # does not have
    args = [f"Tests/{MODULE}.py", "-q", "--capture=sys", "--basetemp=pytest-tmp", *off]
    code = pytest.main(args, plugins=[Collect()])
    if code not in (0, 1, 5) and not out["errors"]:  # 5: nothing collected
        out["errors"].append([MODULE, f"pytest exited with {code!r}"])
    print(json.dumps(out))

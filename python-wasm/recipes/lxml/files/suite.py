# lxml's own test suite (src/lxml/tests, with the doctests of doc/*.txt), one test module a call:
# `python -m cross suite lxml` runs this in Cove sessions and natively. The sdist's files are in
# the current directory as the sdist lays them out; src/lxml is put on sys.path, so the tests
# import as the package `tests` (their relative imports and __file__-relative paths hold), and
# the lxml under test is the installed one. MODULE None: print the modules; else run MODULE
# (its test_suite(), lxml's convention) and print the result as JSON.
import importlib
import io
import json
import os
import sys
import unittest

MODULE = globals().get("MODULE")
sys.path.insert(0, os.path.join(os.getcwd(), "src", "lxml"))
if MODULE is None:
    names = sorted(
        n[:-3] for n in os.listdir("src/lxml/tests") if n.startswith("test_") and n.endswith(".py")
    )
    print(json.dumps(names))
else:
    out = {"run": 0, "skipped": 0, "failures": [], "errors": []}
    try:
        suite = importlib.import_module("tests." + MODULE).test_suite()
        result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
        out["run"], out["skipped"] = result.testsRun, len(result.skipped)
        for kind, items in (("failures", result.failures), ("errors", result.errors)):
            for test, text in items:
                last = [line for line in text.strip().splitlines() if line.strip()][-1]
                out[kind].append([test.id(), last[:300]])
    except Exception as exc:  # the module does not import
        out["errors"].append([MODULE, f"{type(exc).__name__}: {exc}"[:300]])
    print(json.dumps(out))

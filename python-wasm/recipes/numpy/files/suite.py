# numpy's own tests of its linear algebra (numpy/linalg/tests: every routine against the
# identities it must satisfy, in float32, float64, complex64 and complex128, with empty,
# stacked and non-contiguous arrays), one test module a call, under pytest: `python -m cross
# suite numpy` runs this in Cove sessions and natively. The sdist's test directory is in the
# current directory as the sdist lays it out, imported by file (--import-mode=importlib) so
# that the numpy under test is the installed one (the guest's, the venv's wheel); pytest and
# what it needs are in suite-site/ (the recipe's suite-packages), with cove_suite, the pytest
# side the suite scripts share (cross/suite_pytest.py: how it runs and what it prints).
# MODULE None: print the modules; else run numpy/linalg/tests/MODULE.py. numpy's tests skip,
# on both sides alike, what needs a subprocess or threads in WebAssembly
# (numpy.testing.IS_WASM).
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
    import cove_suite

    cove_suite.run(MODULE, [os.path.join(TESTS, f"{MODULE}.py"), "--import-mode=importlib"])

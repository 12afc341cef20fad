import sys
import time

sys.argv = ["pytest"]
import os  # noqa: E402

os.chdir("/tmp")
# test-harness shims for WASI: pytest's tmp_path asks os.getuid() (absent on WASI)
if not hasattr(os, "getuid"):
    os.getuid = lambda: 0
import pytest  # noqa: E402

# the test tree (with its pytest.ini): numpy's, or pandas' (NP_TEST_ROOT)
root = os.environ.get("NP_TEST_ROOT", "/usr/lib/test-site")
t = time.perf_counter()
rc = pytest.main(
    [
        "-c",
        f"{root}/pytest.ini",
        "--rootdir",
        root,
        "-p",
        "no:cacheprovider",
        "-p",
        "no:capture",
        "-p",
        "no:faulthandler",
        "-p",
        "no:logging",
        "-x" if "-x" in sys.argv else "-q",
        "--tb=short",
        "--continue-on-collection-errors",
        "-W",
        "ignore::pytest.PytestUnraisableExceptionWarning",
        *os.environ["NP_TESTS"].split(),
    ]
)
print("pytest rc", rc, "%.1f s" % (time.perf_counter() - t))

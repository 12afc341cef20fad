import sys
import time

sys.argv = ["pytest"]
import os  # noqa: E402

os.chdir("/tmp")
# test-harness shims for WASI: pytest's tmp_path asks os.getuid() (absent on WASI)
if not hasattr(os, "getuid"):
    os.getuid = lambda: 0
import pytest  # noqa: E402

t = time.perf_counter()
rc = pytest.main(
    [
        "-c",
        "/usr/lib/test-site/pytest.ini",
        "--rootdir",
        "/usr/lib/test-site",
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
        *__import__("os").environ["NP_TESTS"].split(),
    ]
)
print("pytest rc", rc, "%.1f s" % (time.perf_counter() - t))

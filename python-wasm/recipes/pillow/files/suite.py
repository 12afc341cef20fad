# Pillow's own test suite (Tests/, with its images and fonts), one test module a call, under
# pytest: `python -m cross suite pillow` runs this in Cove sessions and natively. The sdist's
# files are in the current directory as the sdist lays them out (pyproject.toml holds pytest's
# settings; Tests/ is a package, so its relative imports hold); pytest and what it needs are in
# suite-site/ (the recipe's suite-packages), with cove_suite, the pytest side the suite scripts
# share (cross/suite_pytest.py: how it runs and what it prints); the PIL under test is the
# installed one (src/ is not copied). MODULE None: print the modules; else run
# Tests/MODULE.py. The capfd fixture needs dup(), which the guest does not have: its tests are
# skipped there (below).
import json
import os
import sys

MODULE = globals().get("MODULE")
sys.path.insert(0, os.path.join(os.getcwd(), "suite-site"))
if MODULE is None:
    names = sorted(n[:-3] for n in os.listdir("Tests") if n.startswith("test_") and n[-3:] == ".py")
    print(json.dumps(names))
else:
    import cove_suite
    import pytest

    class NoCapfd:
        def pytest_collection_modifyitems(self, items):
            # capfd (file-descriptor capture) needs dup(), which WASI does not have: a test
            # asking for it is skipped in the guest (its failed set-up would leave pytest's
            # capture broken for every later test of the module)
            if sys.platform == "wasi":
                skip = pytest.mark.skip(reason="capfd needs dup(), which WASI does not have")
                for item in items:
                    if "capfd" in getattr(item, "fixturenames", ()):
                        item.add_marker(skip)

    cove_suite.run(MODULE, [f"Tests/{MODULE}.py"], plugins=[NoCapfd()])

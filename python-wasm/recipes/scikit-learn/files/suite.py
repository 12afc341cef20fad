# scikit-learn's own tests of the modules model code uses (linear_model, ensemble, cluster,
# decomposition, svm, tree, neighbors, model_selection, metrics, preprocessing, datasets,
# manifold, feature_extraction, impute, inspection, and the pipeline and naive Bayes tests of
# sklearn/tests), one test module a call, under pytest: `python -m cross suite scikit-learn`
# runs this in Cove sessions and natively. The sdist's test directories and sklearn/conftest.py
# (its fixtures: the dataset fetchers, which skip without SKLEARN_SKIP_NETWORK_TESTS=0, the
# global random seed, the thread limits) are in the current directory as the sdist lays them
# out; pytest and what it needs are in suite-site/ (the recipe's suite-packages); the
# scikit-learn under test is the installed one (the guest's zip, the venv's wheel).
#
# The test packages import as sklearn.linear_model.tests.test_xxx and import each other that
# way, which the installed package cannot give (the guest's zip has no tests/): cove_suite's
# finder gives those packages, and only them, from the copied directories, on both sides
# alike (scipy's suite does the same, and says more). setup.cfg's pytest options
# (--doctest-modules) are not taken: the docstrings' examples are not the suite's subject.
import json
import os
import sys

MODULE = globals().get("MODULE")
sys.path.insert(0, os.path.join(os.getcwd(), "suite-site"))
import cove_suite  # noqa: E402 (in suite-site/)

PACKAGES = ["linear_model", "ensemble", "cluster", "decomposition", "svm", "tree", "neighbors",
            "model_selection", "metrics", "preprocessing", "datasets", "manifold",
            "feature_extraction", "impute", "inspection"]  # fmt: skip
TOP_LEVEL = ["test_pipeline", "test_naive_bayes"]  # sklearn/tests: sklearn.pipeline, naive_bayes


def packages():
    """The test packages of PACKAGES in the copy, and sklearn.tests: dotted name -> directory."""
    found = cove_suite.packages_with_tests("sklearn", PACKAGES)
    found["sklearn.tests"] = os.path.abspath(os.path.join("sklearn", "tests"))
    return dict(sorted(found.items()))


if MODULE is None:
    print(json.dumps(cove_suite.modules_of(packages(), only={"sklearn.tests": TOP_LEVEL})))
else:
    cove_suite.run_test_module(MODULE, packages())

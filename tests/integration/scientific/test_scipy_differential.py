"""scipy and scikit-learn in the guest against the same versions natively, output for output.

The cases of `scipy_cases.py` (tests, fits, regressions, splines, integration, optimisation,
FFT, sparse solves, ...) and `sklearn_cases.py` (datasets, preprocessing, regressions,
classifiers, clustering, PCA, pipelines, cross-validation, metrics, persistence) run natively
and in Cove's guest (harness.py), as test_differential.py runs numpy's and pandas'; each case
states its tolerance (the precision it prints). The test
fails on an unexplained difference, on a listed one that has gone away, and when fewer than 98%
of the cases match. Natively OpenBLAS runs single-threaded (harness.native_env), as the guest's.

Set COVE_SCIENTIFIC_DUMP to a directory to keep both sides' outputs (scipy.native.json,
scipy.guest.json).
"""

from __future__ import annotations

import pytest

from tests.integration.scientific import harness, scipy_cases, sklearn_cases
from tests.support.recipes import version

pytestmark = pytest.mark.anyio

TARGET = 0.98
CASES = scipy_cases.CASES + sklearn_cases.CASES
VERSIONS = {name: version(name) for name in ("numpy", "scipy", "scikit-learn")}
NATIVE_NEEDS = ("numpy", "scipy", "sklearn")

# Case name -> why the guest's output differs from native scipy (and must go on doing so).
KNOWN_DIFFERENCES: dict[str, str] = {}


class TestScipyAndScikitLearn(harness.DifferentialSuite):
    SUITE = "scipy"
    CASES = CASES
    KNOWN_DIFFERENCES = KNOWN_DIFFERENCES
    TARGET = TARGET
    MINIMUM = 66
    VERSIONS = VERSIONS
    NATIVE_NEEDS = NATIVE_NEEDS

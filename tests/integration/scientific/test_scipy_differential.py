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

import pathlib

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


@pytest.fixture(scope="module")
def native_env() -> dict[str, str]:
    return harness.native_env(VERSIONS, NATIVE_NEEDS)


@pytest.fixture(scope="module")
def native(tmp_path_factory: pytest.TempPathFactory, native_env: dict[str, str]) -> dict[str, str]:
    """Each case's native output."""
    tmp = tmp_path_factory.mktemp("native")
    outputs: dict[str, str] = harness.native_run(CASES, tmp, native_env)["outputs"]
    return outputs


@pytest.fixture(scope="module")
async def guest(tmp_path_factory: pytest.TempPathFactory, cache_dir: str) -> dict[str, str]:
    """Each case's output in the guest."""
    return await harness.guest_run(CASES, tmp_path_factory.mktemp("workspaces"), cache_dir)


def test_the_cases_are_many_uniquely_named_and_self_contained() -> None:
    harness.check_cases(CASES, KNOWN_DIFFERENCES, 66)


def test_the_native_side_is_deterministic(
    native: dict[str, str], native_env: dict[str, str], tmp_path: pathlib.Path
) -> None:
    harness.check_deterministic(CASES, native, native_env, tmp_path)


async def test_scipy_and_scikit_learn_in_the_guest_match_native(
    native: dict[str, str], guest: dict[str, str]
) -> None:
    harness.compare("scipy", CASES, native, guest, KNOWN_DIFFERENCES, TARGET)

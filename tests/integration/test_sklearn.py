"""scikit-learn in the guest (docs/packages.md, "scikit-learn"; python-wasm/recipes/scikit-learn).

What the recipe and the sandbox had to get right, each held by a test: every public module
native scikit-learn has imports; `n_jobs=-1` runs (sequentially: joblib sees one CPU, and
threadpoolctl finds no thread pool) without a warning; the datasets that ship with the package
load from the zip, and the ones that download fail at once with the sandbox's no-network
message; libsvm's and liblinear's random generators are their own, as in their own shared
objects natively (seeded, a fit gives the same numbers every time, and native's); a fit past
the session's memory limit raises MemoryError and the session lives. (Numbers against native
for the rest: test_scipy_differential.py's scikit-learn cases.)
"""

from __future__ import annotations

import json

import pytest

import cove
from tests.integration.test_scipy import IMPORT, PUBLIC, native, run

pytestmark = pytest.mark.anyio


async def test_every_public_module_native_scikit_learn_has_imports(
    session: cove.Session,
) -> None:
    names = json.loads(native(PUBLIC.format(package="sklearn")))
    assert len(names) > 50 and "sklearn.linear_model" in names
    assert json.loads(native(IMPORT.format(names=names))) == {}
    assert json.loads(await run(session, IMPORT.format(names=names), timeout_s=300)) == {}


PARALLEL = """
import warnings
warnings.simplefilter("error")  # a fallback warning from joblib would fail the cell
import joblib, threadpoolctl
from sklearn.datasets import load_iris
from sklearn.ensemble import RandomForestClassifier
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
X, y = load_iris(return_X_y=True)
forest = RandomForestClassifier(n_estimators=20, random_state=0, n_jobs=-1)
print(cross_val_score(forest, X, y, cv=3, n_jobs=-1).round(6).tolist())
grid = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 5, 9]}, cv=3, n_jobs=-1).fit(X, y)
print(grid.best_params_, round(grid.best_score_, 6))
with threadpoolctl.threadpool_limits(limits=1, user_api="blas"):
    print(joblib.Parallel(n_jobs=-1)(joblib.delayed(pow)(i, 2) for i in range(5)))
"""


async def test_n_jobs_minus_one_runs_sequentially_without_a_warning(
    session: cove.Session,
) -> None:
    out = await run(session, PARALLEL)
    assert out == native(PARALLEL)
    assert await run(
        session,
        "import joblib, threadpoolctl\nprint(joblib.cpu_count(), threadpoolctl.threadpool_info())",
    ) == ("1 []\n")


DATASETS = """
from sklearn import datasets
for name in ("iris", "digits", "diabetes", "wine", "breast_cancer", "linnerud"):
    bunch = getattr(datasets, "load_" + name)()
    print(name, bunch.data.shape, round(float(bunch.data.sum()), 6), bunch.DESCR.splitlines()[1])
images = datasets.load_sample_images()
print([f.rsplit("/", 1)[1] for f in images.filenames], [i.shape for i in images.images])
print(datasets.load_iris(as_frame=True).frame.shape)
"""


async def test_the_datasets_that_ship_with_the_package_load_offline(
    session: cove.Session,
) -> None:
    assert await run(session, DATASETS) == native(DATASETS)


async def test_a_dataset_that_downloads_fails_at_once_saying_there_is_no_network(
    session: cove.Session,
) -> None:
    # at once: no retries (three, a second apart, each with a warning, before patches/0002);
    # what remains is the data home, ~ being the workspace, with openml's empty cache directory
    result = await session.run_code(
        "import os, warnings\nfrom sklearn import datasets\n"
        "for fetch in (datasets.fetch_california_housing, lambda: datasets.fetch_openml('iris')):\n"
        "    with warnings.catch_warnings(record=True) as caught:\n"
        "        warnings.simplefilter('always')\n"
        "        try:\n"
        "            fetch()\n"
        "        except OSError as e:\n"
        "            print(type(e).__name__, e, [str(w.message) for w in caught])\n"
        "print(datasets.get_data_home(), os.listdir(datasets.get_data_home()))\n",
        timeout_s=60,
    )
    no_network = "<urlopen error [Errno 40] network access is not available in this sandbox>"
    assert result.stdout == (
        f"URLError {no_network} []\n" * 2 + "/workspace/scikit_learn_data ['openml']\n"
    ), result.stderr


SEEDED = """
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC, LinearSVC
X, y = load_breast_cancer(return_X_y=True)
X = StandardScaler().fit_transform(X)
for _ in range(2):
    svc = SVC(kernel="linear", probability=True, random_state=0).fit(X, y)
    lin = LinearSVC(C=0.1, dual=True, random_state=3, max_iter=20000).fit(X, y)
    print(f"{svc.probA_[0]:.9f} {svc.probB_[0]:.9f} {lin.coef_[0, :3].round(6).tolist()}")
"""


async def test_libsvm_and_liblinear_draw_from_their_own_seeded_generators(
    session: cove.Session,
) -> None:
    # Platt scaling shuffles the training set with libsvm's generator, liblinear's dual solver
    # its coordinates with liblinear's: each seeded from random_state at the fit. Statically
    # linked, newrand.h's inline bounded_rand_int was one copy for both (and _newrand), reading
    # one generator that no fit seeded, so every fit shuffled differently (symbols/, and
    # check_link.py's weak-symbol check).
    out = await run(session, SEEDED)
    first, second = out.splitlines()
    assert first == second
    assert out == native(SEEDED)


async def test_a_fit_past_the_memory_limit_raises_memory_error_and_the_session_lives(
    session: cove.Session,
) -> None:
    # Kernel PCA of 7,000 points builds their 7,000 x 7,000 kernel matrix (392 MB) at once:
    # past the session's 256 MiB, natively a fit that would succeed.
    result = await session.run_code(
        "import numpy as np\nfrom sklearn.decomposition import KernelPCA\n"
        "x = np.random.default_rng(0).standard_normal((7000, 4))\n"
        "try:\n"
        "    KernelPCA(n_components=2, kernel='rbf').fit(x)\n"
        "except MemoryError:\n"
        "    print('MemoryError')\n",
        timeout_s=120,
    )
    assert result.stdout == "MemoryError\n", result.stderr
    out = await run(
        session,
        "from sklearn.linear_model import LinearRegression\n"
        "print(LinearRegression().fit([[0], [1], [2]], [1, 3, 5]).coef_.round(6))",
    )
    assert out == "[2.]\n"

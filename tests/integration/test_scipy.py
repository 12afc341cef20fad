"""scipy in the guest (docs/packages.md, "scipy"; python-wasm/recipes/scipy).

What the recipe's build had to get right, each held by a test against native scipy at the same
version where there is a number to compare: every public module native scipy has imports; the
Fortran compiled by f2c (FITPACK, ODRPACK, f2py's LAPACK wrappers, whose string arguments carry
hidden lengths) computes what gfortran's does; the C++ that locks mutexes (HiGHS) or would
start threads (fast_matrix_market, pocketfft's workers) runs on the guest's one thread; each
module's own copy of what several compile (patches/0004, symbols/) stays its own; errors are
scipy's exceptions and the session lives on.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

import pytest

import cove

pytestmark = pytest.mark.anyio


async def run(session: cove.Session, code: str, timeout_s: float = 120) -> str:
    result = await session.run_code(code, timeout_s=timeout_s)
    assert result.return_code == 0 and result.stderr == "", result.stderr
    return result.stdout


def native(code: str) -> str:
    """What `code` prints natively, run in a directory of its own (it may write files)."""
    with tempfile.TemporaryDirectory(prefix="cove-scipy-native-") as cwd:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=cwd,
            env={"OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"},
        )
    return done.stdout


# Every public module of a package natively (no part private, no tests; conftest.py is
# pytest's, which the guest does not have), imported in the guest: natively every one imports.
# (The guest's own walk would miss its compiled modules: they are built in, not files.)
PUBLIC = """
import json, pkgutil, {package}
names = sorted(
    m.name for m in pkgutil.walk_packages({package}.__path__, "{package}.")
    if not any(part.startswith("_") or part in ("tests", "conftest") for part in m.name.split("."))
)
print(json.dumps(names))
"""
IMPORT = """
import importlib, json, warnings
failed = {{}}
for name in {names!r}:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # deprecated and experimental modules warn
            importlib.import_module(name)
    except Exception as e:
        failed[name] = f"{{type(e).__name__}}: {{e}}"
print(json.dumps(failed))
"""


async def test_every_public_module_native_scipy_has_imports(session: cove.Session) -> None:
    names = json.loads(native(PUBLIC.format(package="scipy")))
    assert len(names) > 100
    assert json.loads(native(IMPORT.format(names=names))) == {}
    assert json.loads(await run(session, IMPORT.format(names=names), timeout_s=300)) == {}


# Fortran through f2c: FITPACK's splines (interpolate._dfitpack, __fitpack), ODRPACK with a
# Python callback, and LAPACK routines whose f2py wrappers pass CHARACTER arguments (Schur
# with sorting, generalized Schur: their hidden string lengths) or call-back functions.
FORTRAN = """
import numpy as np
from scipy import interpolate, linalg, odr
x = np.linspace(0, 10, 40)
y = np.sin(x) + 0.1 * np.cos(3 * x)
tck = interpolate.splrep(x, y, s=0.05)
xs = np.linspace(0, 10, 7)
print("splev", np.round(interpolate.splev(xs, tck), 10).tolist())
print("splint", round(float(interpolate.splint(0, 10, tck)), 10))
spl = interpolate.UnivariateSpline(x, y, k=4, s=0.2)
print("roots", np.round(spl.derivative().roots(), 8).tolist())
xx, yy = np.meshgrid(np.linspace(-1, 1, 9), np.linspace(-1, 1, 9))
import warnings
with warnings.catch_warnings(record=True) as caught:  # FITPACK's own: its storage too small
    warnings.simplefilter("always")
    bs = interpolate.SmoothBivariateSpline(xx.ravel(), yy.ravel(), (xx * yy + xx ** 2).ravel(), s=0)
print("bivariate", np.round(bs(0.3, -0.2), 10).tolist(), [str(w.message).split(":")[0] for w in caught])
def f(beta, x):
    return beta[0] * np.exp(beta[1] * x)
rng = np.random.default_rng(7)
xd = np.linspace(0, 2, 30)
yd = 2.0 * np.exp(0.7 * xd) + rng.normal(0, 0.05, 30)
out = odr.ODR(odr.RealData(xd, yd), odr.Model(f), beta0=[1.0, 0.5]).run()
# ODRPACK stops within its tolerance (about 1.5e-8, relative): the last digits of where it
# stops follow the last bits of exp, which wasi-libc's and glibc's differ in
print("odr", np.round(out.beta, 6).tolist(), out.info)
a = np.array([[4.0, -2, 1, 3], [3, 6, -4, 2], [2, 1, 8, -5], [1, -3, 2, 7]])
t, z, sdim = linalg.schur(a, sort="lhp")
print("schur", sdim, np.allclose(z @ t @ z.T, a), np.round(np.sort(np.linalg.eigvals(a).real), 8).tolist())
b = np.eye(4) + 0.1 * a.T
aa, bb, q, zz = linalg.qz(a, b)
print("qz", np.allclose(q @ aa @ zz.T, a), np.allclose(q @ bb @ zz.T, b))
print("expm", np.round(linalg.expm(a / 10), 10).tolist()[0])
print("lu", np.round(linalg.lu_factor(a)[0], 10).tolist()[0])
"""


async def test_fortran_through_f2c_computes_what_gfortran_s_does(session: cove.Session) -> None:
    assert await run(session, FORTRAN) == native(FORTRAN)


CPP = """
import io, numpy as np
from scipy import optimize, io as sio, sparse, fft
# HiGHS (C++ with mutexes and a task scheduler sized by the hardware's threads)
c = [-1, 4]
res = optimize.linprog(c, A_ub=[[-3, 1], [1, 2]], b_ub=[6, 4], bounds=[(None, None), (-3, None)])
print("linprog", res.status, round(res.fun, 10), np.round(res.x, 10).tolist())
res = optimize.milp(c=[-1, -2], constraints=optimize.LinearConstraint([[1, 1], [2, 1]], ub=[4.5, 6]),
                    integrality=[1, 1], bounds=optimize.Bounds(0, 10))
print("milp", res.status, round(res.fun, 10), res.x.tolist())
res = optimize.linprog([1, 1], A_ub=[[1, 1]], b_ub=[-1], bounds=[(0, None), (0, None)])
print("infeasible", res.status, res.message)
# fast_matrix_market (C++ with a thread pool it sizes by the hardware's threads)
m = sparse.random_array((50, 40), density=0.1, random_state=3, format="coo")
buf = io.BytesIO()
sio.mmwrite(buf, m)
back = sio.mmread(io.BytesIO(buf.getvalue()))
print("mm", back.shape, back.nnz, float(abs(back - m).max()))
sio.mmwrite("m.mtx", m.toarray())
print("mm dense", np.array_equal(sio.mmread("m.mtx"), m.toarray()), sio.mminfo("m.mtx"))
# pocketfft asked for workers (single-threaded in the guest)
x = np.random.default_rng(1).standard_normal(4096)
print("fft", np.allclose(fft.fft(x, workers=-1), fft.fft(x)), np.round(abs(fft.rfft(x))[:3], 8).tolist())
"""


async def test_cpp_that_locks_or_would_start_threads_runs_on_one_thread(
    session: cove.Session,
) -> None:
    assert await run(session, CPP) == native(CPP)


SPECIAL = """
import numpy as np
from scipy import special, stats, optimize
from scipy.optimize import cython_optimize  # its root finders are its own copies (symbols/)
x = np.array([0.1, 0.5, 1.5, 4.0, 10.0])
print(np.round(special.gamma(x), 10).tolist(), np.round(special.erf(x), 12).tolist())
print(np.round(special.wofz(x + 1j), 12).tolist())
print(np.round(special.jv(1.5, x), 12).tolist(), np.round(special.psi(x), 12).tolist())
print(np.round(special.hyp2f1(0.5, 1.5, 2.5, x / 11), 12).tolist())
print(np.round(stats.norm.ppf([0.01, 0.5, 0.975]), 12).tolist())
print(round(optimize.brentq(lambda t: t ** 3 - 2, 0, 2), 12))
with np.errstate(all="ignore"):
    special.seterr(all="raise")
    try:
        special.gamma(-1.0)
    except special.SpecialFunctionError as e:
        print("raised", e)
    finally:
        special.seterr(all="ignore")
"""


async def test_special_functions_and_their_error_reporting_are_native(
    session: cove.Session,
) -> None:
    assert await run(session, SPECIAL) == native(SPECIAL)


# numpy derives the floating-point flags of its own ufuncs' results (numpy/0006); another
# package's ufuncs (scipy.special's) return NaN or infinity by choice outside their domain,
# which natively raises no flag and no warning (numpy/0009): with warnings as errors, importing
# scipy.stats and calling them outside their domain is as quiet as natively, and numpy's own
# errors still raise.
WARNINGS = """
import warnings
warnings.simplefilter("error")
import numpy as np
import scipy.stats
from scipy import special
print(special.gamma(np.array([-1.0, 0.0, 171.7, 2.5])).tolist())
print(special.binom(np.array([-1.5, 3.0, 10.0]), np.array([2.5, 2.5, -1.0])).tolist())
print(special.gammaln(np.array([-1.0, 0.0])).tolist(), special.xlogy(0.0, 0.0))
with np.errstate(all="raise"):
    for f, x in ((np.log, -1.0), (np.divide, 0.0)):
        try:
            f(np.array([x]), np.array([0.0])) if f is np.divide else f(np.array([x]))
        except FloatingPointError as e:
            print("numpy:", e)
"""


async def test_scipy_special_warns_as_natively_and_numpy_s_errors_still_raise(
    session: cove.Session,
) -> None:
    assert await run(session, WARNINGS) == native(WARNINGS)


# The known difference of scipy.special's integer loops on wasm32 (scipy/0011): an order or count
# the kernel's 32-bit long (or Py_ssize_t) cannot hold is NaN with a domain error, where native
# passes it on (an order of 2**40 would take natively as long as its recurrence runs).
ORDER_OUT_OF_RANGE = """
import numpy as np
from scipy import special
special.seterr(domain="raise")
for f in (lambda: special.eval_hermite(2**40, 0.5), lambda: special.kn(2**33, 1.0)):
    try:
        print(f())
    except special.SpecialFunctionError as e:
        print("SpecialFunctionError:", e)
special.seterr(domain="ignore")
print(special.yn(np.array([2, 2**35], dtype=np.int64), 1.0).tolist())
"""


async def test_an_integer_order_past_32_bits_is_nan_and_a_domain_error(
    session: cove.Session,
) -> None:
    assert await run(session, ORDER_OUT_OF_RANGE) == (
        "SpecialFunctionError: scipy.special/eval_hermite: (domain error) invalid input argument\n"
        "SpecialFunctionError: scipy.special/kn: (domain error) invalid input argument\n"
        f"[{native('from scipy import special; print(special.yn(2, 1.0))').strip()}, nan]\n"
    )


async def test_errors_are_scipy_s_exceptions_and_the_session_lives(
    session: cove.Session,
) -> None:
    result = await session.run_code(
        "import numpy as np\nfrom scipy import linalg\nlinalg.solve(np.ones((3, 3)), np.ones(3))"
    )
    assert result.return_code == 1
    assert "LinAlgError" in result.stderr and "singular" in result.stderr
    result = await session.run_code(
        "from scipy import interpolate\ninterpolate.splrep([1, 2, 3], [1, 2], s=0)"
    )
    assert result.return_code == 1 and "TypeError" in result.stderr
    result = await session.run_code(
        "from scipy.sparse.linalg import spsolve\nfrom scipy import sparse\n"
        "import numpy as np\nA = sparse.csc_array(np.zeros((3, 3)))\n"
        "import warnings\nwarnings.simplefilter('error')\nspsolve(A, np.ones(3))"
    )
    assert result.return_code == 1 and "singular" in result.stderr.lower()
    assert await run(session, "print(1 + 1)") == "2\n"


async def test_a_fit_past_the_memory_limit_raises_memory_error_and_the_session_lives(
    session: cove.Session,
) -> None:
    # Ward clustering of 9,000 points needs their 40.5 million distances (324 MB) at once: past
    # the session's 256 MiB, natively a fit that would succeed.
    result = await session.run_code(
        "import numpy as np\nfrom scipy.cluster import hierarchy\n"
        "x = np.random.default_rng(0).standard_normal((9000, 8))\n"
        "try:\n"
        "    hierarchy.linkage(x, 'ward')\n"
        "except MemoryError:\n"
        "    print('MemoryError')\n",
        timeout_s=120,
    )
    assert result.stdout == "MemoryError\n", result.stderr
    out = await run(session, "import scipy.stats as s\nprint(round(s.norm.cdf(0), 3))")
    assert out == "0.5\n"


MILP = """
import numpy as np
from scipy.optimize import milp
# scipy's test_milp.py::test_result: a 3x3 magic square (each 1..9 once, one a cell, rows,
# columns and diagonals summing to 15) as 0/1 variables x[k, i, j], a random objective
n, M = 3, 15
numbers = (np.arange(n**4) // n**2 + 1).reshape(n**2, n, n)
rows = []
for k in range(n**2):
    a = np.zeros((n**2, n, n)); a[k] = 1; rows.append((a, 1))
for i in range(n):
    for j in range(n):
        a = np.zeros((n**2, n, n)); a[:, i, j] = 1; rows.append((a, 1))
for i in range(n):
    a = np.zeros((n**2, n, n)); a[:, i, :] = numbers[:, i, :]; rows.append((a, M))
    a = np.zeros((n**2, n, n)); a[:, :, i] = numbers[:, :, i]; rows.append((a, M))
for cols in (range(n), range(-1, -n - 1, -1)):
    a = np.zeros((n**2, n, n)); a[:, range(n), cols] = numbers[:, range(n), cols]
    rows.append((a, M))
A = np.vstack([a.ravel() for a, _ in rows]); b = np.array([v for _, v in rows], float)
c = np.random.default_rng(92350948245690509234).random(A.shape[1])
for _ in range(2):  # the second solve reads the scheduler the first left in a thread_local
    print(milp(c=c, constraints=(A, b, b), bounds=(0, 1), integrality=1).status)
"""


async def test_a_mixed_integer_program_is_solved_twice_in_a_session(session: cove.Session) -> None:
    # HiGHS keeps its task scheduler in thread_local variables. Built with -pthread, wasm-ld 19
    # put them at the wrong addresses (llvm-project#116136), and the second solve trapped on a
    # misaligned atomic; cross/wasi-cc drops -pthread, and check_link.py `tls` holds the link.
    assert native(MILP) == "0\n0\n"
    result = await session.run_code(MILP)
    assert result.stdout == "0\n0\n", result.stderr

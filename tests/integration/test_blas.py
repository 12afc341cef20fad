"""numpy's linear algebra on OpenBLAS in the guest (docs/packages.md, "numpy and pandas").

numpy is linked to the openblas recipe (python-wasm/recipes/openblas: the generic C kernels, a
SIMD128 DGEMM kernel, the whole of LAPACK in C). These tests hold what that link must keep:
numpy says which BLAS it uses; products and solves too large for one of OpenBLAS's blocks (its
R blocks shrink to fit a 4 MiB work buffer, recipes/openblas 0003) agree with native ones, in
every precision and layout; LAPACK's own argument errors are reported as natively; and the
work buffer is in every session from the start, so a session at its memory limit can still
multiply and solve.
"""

from __future__ import annotations

import io

import numpy
import pytest

import cove
from tests.support.recipes import version

pytestmark = pytest.mark.anyio


async def run(session: cove.Session, code: str) -> str:
    result = await session.run_code(code, timeout_s=120)
    assert result.return_code == 0 and result.stderr == "", result.stderr
    return result.stdout


async def test_numpy_says_it_uses_openblas_for_blas_and_lapack(session: cove.Session) -> None:
    out = await run(
        session,
        "import numpy as np\n"
        "deps = np.show_config(mode='dicts')['Build Dependencies']\n"
        "for k in ('blas', 'lapack'):\n"
        "    print(k, deps[k]['name'], deps[k]['found'], deps[k]['version'])",
    )
    assert out.splitlines() == [
        f"blas openblas True {version('openblas')}",
        f"lapack openblas True {version('openblas')}",
    ]


# Operand shapes that cross OpenBLAS's blocks in the guest: P (rows of A packed at once, 128
# real, 96 and 64 complex), Q (the inner dimension, 120 or 240) and R (columns of B, 2048, or
# 1024 for complex128). Each product also comes transposed and from a strided view, which take
# other packing routines.
PRODUCTS = """
import numpy as np
rng = np.random.default_rng(29)
out = {}
for dtype, m, k, n in [("float64", 131, 250, 2100), ("float32", 131, 500, 2100),
                       ("complex128", 70, 250, 1100), ("complex64", 100, 250, 2100)]:
    def draw(*shape):
        x = rng.standard_normal(shape)
        if dtype.startswith("complex"):
            x = x + 1j * rng.standard_normal(shape)
        return x.astype(dtype)
    a, b = draw(m, k), draw(k, n)
    out[dtype] = a @ b
    out[dtype + "_tt"] = b.T @ a.T
    wide = draw(m, 2 * k)
    out[dtype + "_strided"] = wide[:, ::2] @ b
"""


async def both_sides(
    session: cove.Session, program: str
) -> tuple[dict[str, numpy.ndarray], dict[str, numpy.ndarray]]:
    """The arrays `program` leaves in its dict `out`, computed in the guest and natively (this
    process: numpy's wheel, its OpenBLAS with kernels for this CPU), by name."""
    await run(session, program + 'np.savez("out.npz", **out)\n')
    data, _ = await session.read_file("out.npz")
    with numpy.load(io.BytesIO(data)) as saved:
        guest = {name: saved[name] for name in saved.files}
    scope: dict[str, object] = {}
    exec(program, scope)
    native: dict[str, numpy.ndarray] = scope["out"]  # type: ignore[assignment]
    assert sorted(guest) == sorted(native)
    return guest, native


async def test_products_past_one_block_agree_with_native(session: cove.Session) -> None:
    guest, native = await both_sides(session, PRODUCTS)
    for name, expected in native.items():
        got = guest[name]
        assert got.dtype == expected.dtype and got.shape == expected.shape, name
        # different kernels sum in a different order: the difference is rounding's
        single = expected.dtype in (numpy.float32, numpy.complex64)
        tol = 1e-5 if single else 1e-11
        scale = numpy.abs(expected).max()
        assert numpy.abs(got - expected).max() <= tol * scale, name


SOLVES = """
import numpy as np
rng = np.random.default_rng(7)
out = {}
for n in (5, 127, 700):
    a = rng.standard_normal((n, n)) + n ** 0.5 * np.eye(n)
    out[f"solve_{n}"] = np.linalg.solve(a, rng.standard_normal(n))
    out[f"inv_{n}"] = np.linalg.inv(a)
# many right-hand sides: a triangular solve wider than one R block
a = rng.standard_normal((200, 200)) + 20 * np.eye(200)
out["solve_many"] = np.linalg.solve(a, rng.standard_normal((200, 2100)))
s = rng.standard_normal((300, 300))
s = s @ s.T + 300 * np.eye(300)
out["cholesky"] = np.linalg.cholesky(s)
out["eigvalsh"] = np.linalg.eigvalsh(s)
out["svd"] = np.linalg.svd(rng.standard_normal((260, 140)), compute_uv=False)
q, r = np.linalg.qr(rng.standard_normal((300, 130)))
out["qr_abs"] = np.abs(r)  # the signs of R's rows are LAPACK's choice
out["lstsq"] = np.linalg.lstsq(rng.standard_normal((400, 30)), rng.standard_normal(400),
                               rcond=None)[0]
out["det"] = np.array([np.linalg.slogdet(rng.standard_normal((250, 250)))[1]])
out["eigvals"] = np.sort_complex(np.linalg.eigvals(rng.standard_normal((150, 150))))
"""


async def test_solves_and_decompositions_agree_with_native(session: cove.Session) -> None:
    guest, native = await both_sides(session, SOLVES)
    for name, expected in native.items():
        got = guest[name]
        assert got.shape == expected.shape, name
        assert numpy.allclose(got, expected, rtol=1e-8, atol=1e-10), name


async def test_a_lapack_argument_error_is_reported_as_natively(session: cove.Session) -> None:
    # OpenBLAS's xerbla reports LAPACK's message and the routine returns info < 0, natively and
    # here (numpy's own xerbla, which raises, stays numpy's: lapack_lite.xerbla() below). The
    # message is C's printf, to the process's standard output natively; the guest's C-level
    # output goes nowhere (docs/packages.md), so it is not in the call's stdout.
    code = (
        "import numpy as np\n"
        "from numpy.linalg import lapack_lite\n"
        "a, tau, work = np.zeros(4), np.zeros(2), np.zeros(10)\n"
        "print(lapack_lite.dgeqrf(2, 2, a, -5, tau, work, 10, 0)['info'], flush=True)\n"
        "try:\n"
        "    lapack_lite.xerbla()\n"
        "except ValueError as e:\n"
        "    print('ValueError', e)\n"
    )
    guest = await session.run_code(code, timeout_s=60)
    assert guest.return_code == 0, guest.stderr
    assert guest.stdout.splitlines() == [
        "-4",
        "ValueError On entry to test parameter number -1 had an illegal value",
    ]


async def test_blas_works_in_a_session_at_its_memory_limit(session: cove.Session) -> None:
    # OpenBLAS takes its work buffer (4 MiB) on a level-3 call, and exits the process if it
    # cannot; the snapshot has it already, so a session whose memory is full but for a little
    # still multiplies and solves, and lives on.
    fill = await session.run_code(
        "blocks = []\n"
        "try:\n"
        "    while True:\n"
        "        blocks.append(bytearray(1 << 20))\n"
        "except MemoryError:\n"
        "    pass\n"
        "del blocks[-2:]\n"
        "print(len(blocks) > 100)",
        timeout_s=60,
    )
    assert fill.return_code == 0 and fill.stdout == "True\n", fill.stderr
    out = await run(
        session,
        "import numpy as np\n"
        "rng = np.random.default_rng(1)\n"
        "a = rng.standard_normal((150, 150)) + 20 * np.eye(150)\n"
        "x = np.linalg.solve(a, np.ones(150))\n"
        "print(np.allclose(a @ x, 1.0), (a @ a).shape, len(blocks) > 100)",
    )
    assert out == "True (150, 150) True\n"

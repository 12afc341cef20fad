"""numpy and pandas snippets for the differential suite: the same code natively and in the guest.

Each case is the kind of code a model writes in a data-analysis tool call: its own imports,
seeded randomness, results printed. Outputs are deterministic (no times, addresses, "now", set
order of strings); files go in the current directory under a name unique to the case. Results of
BLAS/LAPACK and of transcendental functions are rounded (native numpy uses OpenBLAS's kernels for
the host's CPU and SIMD math, the guest OpenBLAS's generic kernels and libm: the last bits may
differ, the values may not). A case may
raise on purpose: the runner records the exception.
"""

from __future__ import annotations

import textwrap
from typing import NamedTuple


class Case(NamedTuple):
    name: str
    code: str


CASES: list[Case] = []


def _case(name: str, code: str, tail: str = "") -> None:
    CASES.append(Case(name, textwrap.dedent(code).strip() + "\n" + tail.lstrip("\n")))


# --- numpy: construction and dtypes -----------------------------------------------------------

_case(
    "np_dtype_default_int",
    """
    import numpy as np
    a = np.array([1, 2])
    print(a.dtype, a.itemsize, np.dtype(int), np.int_, np.intp)
    print(np.zeros(3, dtype=int).dtype, np.arange(5).dtype, np.array(7).dtype)
    """,
)
_case(
    "np_dtype_arange_sum_large",
    """
    import numpy as np
    print(np.arange(100_000).sum(), np.arange(100_000).mean(), np.arange(1, 21).prod())
    """,
)
_case(
    "np_dtype_square_sum_overflow32",
    """
    import numpy as np
    x = np.arange(70_000)
    print((x**2).sum(), (x**2).max(), (x * x).dtype)
    """,
)
_case(
    "np_dtype_astype_int",
    """
    import numpy as np
    f = np.array([1.7, -2.3, 3e9, 12.5])
    i = f.astype(int)
    print(i, i.dtype)
    print(np.array(["10", "20", "3000000000"]).astype(int))
    """,
)
_case(
    "np_dtype_int_scalar",
    """
    import numpy as np
    x = np.int_(2) ** 40
    print(x, type(x).__name__, np.iinfo(np.int_).max, np.iinfo(int).bits)
    """,
)
_case(
    "np_dtype_python_int_conversion",
    """
    import numpy as np
    a = np.array([2**40, 5])
    print(a, a.dtype)
    print(np.array([3_000_000_000]).dtype, np.asarray(range(3)).dtype)
    print(np.array([1, 2]).tolist(), type(np.array([1, 2]).tolist()[0]).__name__)
    """,
)
_case(
    "np_dtype_cumsum_and_len",
    """
    import numpy as np
    counts = np.ones(50_000, dtype=int) * 50_000
    print(counts.cumsum()[-1], np.sum(counts), counts.sum(dtype=np.int64))
    """,
)
_case(
    "np_dtype_promotion",
    """
    import numpy as np
    print((np.array([1, 2], dtype=np.int8) + np.array([1], dtype=np.int16)).dtype)
    print((np.array([1, 2]) + 1.5).dtype, (np.array([1], dtype=np.float32) * 2).dtype)
    print(np.result_type(np.uint8, np.int8), np.promote_types('i4', 'f4'))
    print((np.uint8(200) + 100), np.array([200], dtype=np.uint8) + 100)
    """,
)
_case(
    "np_dtype_linspace_logspace",
    """
    import numpy as np
    print(np.linspace(0, 1, 5))
    print(np.linspace(0, 10, 4, endpoint=False, retstep=True))
    print(np.logspace(0, 3, 4), np.geomspace(1, 1000, 4))
    """,
)
_case(
    "np_dtype_constructors",
    """
    import numpy as np
    print(np.zeros((2, 3)))
    print(np.ones((2, 2), dtype=np.int16))
    print(np.full((2, 2), 7.5), np.eye(3, k=1), np.identity(2, dtype=bool), sep="\\n")
    print(np.empty(0).shape, np.zeros_like(np.arange(4)), np.tri(3, dtype=int))
    """,
)
_case(
    "np_dtype_reshape_stack",
    """
    import numpy as np
    a = np.arange(12).reshape(3, 4)
    print(a.T, a.ravel()[:5], a.reshape(-1, 6).shape, sep="\\n")
    print(np.vstack([a[0], a[1]]), np.hstack([a[:, :1], a[:, 3:]]), sep="\\n")
    print(np.concatenate([a, a], axis=1).shape, np.stack([a, a]).shape, np.column_stack([[1, 2], [3, 4]]))
    """,
)
_case(
    "np_dtype_finfo_iinfo",
    """
    import numpy as np
    for t in (np.float16, np.float32, np.float64):
        fi = np.finfo(t)
        print(t.__name__, fi.bits, fi.eps, fi.max, fi.tiny, fi.precision)
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint64):
        ii = np.iinfo(t)
        print(t.__name__, ii.min, ii.max)
    """,
)
_case(
    "np_dtype_longdouble",
    """
    import numpy as np
    fi = np.finfo(np.longdouble)
    print(np.dtype(np.longdouble).itemsize, fi.nmant, fi.eps)
    print(np.longdouble(1) / 3, repr(np.longdouble("0.1")), np.longdouble(2) ** 0.5)
    """,
)
_case(
    "np_dtype_complex",
    """
    import numpy as np
    z = np.array([1 + 2j, 3 - 4j])
    print(z.dtype, np.abs(z), z.real, z.imag, np.conj(z), np.angle(z).round(6))
    print(np.sqrt(np.array([-4.0 + 0j])), (z * z).sum())
    """,
)
_case(
    "np_dtype_structured",
    """
    import numpy as np
    people = np.array([("ann", 31, 55.5), ("bob", 25, 72.0)],
                      dtype=[("name", "U10"), ("age", "i4"), ("weight", "f8")])
    print(people)
    print(people["age"].mean(), np.sort(people, order="age")["name"], people.dtype)
    """,
)
_case(
    "np_dtype_bool_and_bytes",
    """
    import numpy as np
    b = np.array([True, False, True])
    print(b.sum(), b.dtype, b.astype(int), ~b, b.nbytes)
    print(np.frombuffer(b"\\x01\\x02\\x03\\x04", dtype=np.uint8), np.array([258], dtype="<u2").tobytes())
    print(np.array([1, 256], dtype=">i4").tobytes().hex(), np.dtype("i8").byteorder, np.little_endian)
    """,
)
_case(
    "np_dtype_float16_float32",
    """
    import numpy as np
    print(np.float16(0.1), np.float32(0.1), np.float64(0.1), np.float32(1) / 3)
    print(np.array([65504, 1e-3], dtype=np.float64).astype(np.float16))
    print(np.float32(16777217.0), np.array([0.1, 0.2], dtype=np.float32).sum())
    """,
)
_case(
    "np_dtype_overflow_astype_uint8",
    """
    import numpy as np
    a = np.array([-1, 255, 256, 1000])
    print(a.astype(np.uint8), a.astype(np.int8), a.astype(np.uint16).astype(np.int16))
    """,
)

# --- numpy: indexing, slicing, masks, fancy indexing ------------------------------------------

_case(
    "np_index_basic_slicing",
    """
    import numpy as np
    a = np.arange(20).reshape(4, 5)
    print(a[1], a[:, 2], a[1:3, ::2], a[-1, -2], a[::-1, 0], sep="\\n")
    print(a[..., 1], a[None, 0].shape, a[:, np.newaxis, 0].shape)
    """,
)
_case(
    "np_index_boolean_mask",
    """
    import numpy as np
    a = np.array([5, -3, 8, 0, -1, 7])
    mask = a > 0
    print(mask, a[mask], a[~mask], a[(a > 0) & (a < 8)], np.count_nonzero(mask))
    a[a < 0] = 0
    print(a)
    """,
)
_case(
    "np_index_fancy",
    """
    import numpy as np
    a = np.arange(10) * 10
    print(a[[1, 3, 3, 9]], a[np.array([-1, -2])])
    m = np.arange(16).reshape(4, 4)
    print(m[[0, 2], [1, 3]], m[np.ix_([0, 3], [0, 3])], m[[1, 2]][:, [0]], sep="\\n")
    """,
)
_case(
    "np_index_where_nonzero",
    """
    import numpy as np
    a = np.array([[0, 3, 0], [4, 0, 6]])
    print(np.nonzero(a), np.argwhere(a), np.where(a > 3, a, -1), np.flatnonzero(a), sep="\\n")
    """,
)
_case(
    "np_index_take_put_choose",
    """
    import numpy as np
    a = np.array([4, 3, 5, 7, 6, 8])
    print(np.take(a, [0, 1, 4]), np.take(a, [[0, 1], [2, 3]]))
    np.put(a, [0, 2], [-44, -55])
    print(a, np.choose([0, 1, 1], [[1, 2, 3], [10, 20, 30]]))
    print(np.take_along_axis(np.array([[10, 30, 20]]), np.array([[2, 0, 1]]), axis=1))
    """,
)
_case(
    "np_index_views_and_copies",
    """
    import numpy as np
    a = np.arange(6)
    v = a[1:4]
    v[0] = 100
    c = a[[1, 2]]
    c[0] = -1
    print(a, v.base is a, c.base is None, np.shares_memory(a, v), a.flags.c_contiguous, a[::2].flags.c_contiguous)
    """,
)
_case(
    "np_index_out_of_bounds",
    """
    import numpy as np
    a = np.arange(5)
    a[7]
    """,
)
_case(
    "np_index_assign_broadcast_and_clip",
    """
    import numpy as np
    g = np.zeros((3, 4), dtype=int)
    g[1, :] = 5
    g[:, [0, 3]] = [[1], [2], [3]]
    print(g)
    print(np.clip(np.arange(-3, 4), -1, 2), np.diag(g), np.triu(np.ones((3, 3), dtype=int)))
    """,
)
_case(
    "np_index_mask_2d_rows",
    """
    import numpy as np
    rng = np.random.default_rng(42)
    data = rng.integers(0, 100, size=(6, 3))
    keep = data[:, 0] > 50
    print(data, keep, data[keep], data[keep, 1:].sum(axis=0), sep="\\n")
    """,
)

# --- numpy: broadcasting ----------------------------------------------------------------------

_case(
    "np_broadcast_outer",
    """
    import numpy as np
    x = np.arange(1, 4)
    print(x[:, None] * x[None, :], np.add.outer([1, 2], [10, 20, 30]), sep="\\n")
    """,
)
_case(
    "np_broadcast_normalize_columns",
    """
    import numpy as np
    m = np.array([[1.0, 200.0], [2.0, 300.0], [3.0, 400.0]])
    z = (m - m.mean(axis=0)) / m.std(axis=0)
    print(z.round(6), (m / m.sum(axis=1, keepdims=True)).round(6), sep="\\n")
    """,
)
_case(
    "np_broadcast_shapes",
    """
    import numpy as np
    print(np.broadcast_shapes((3, 1), (1, 4)), np.broadcast_to(np.arange(3), (2, 3)))
    print((np.ones((2, 1, 3)) + np.ones((4, 1))).shape)
    """,
)
_case(
    "np_broadcast_error",
    """
    import numpy as np
    np.ones((2, 3)) + np.ones((4,))
    """,
)
_case(
    "np_broadcast_pairwise_distances",
    """
    import numpy as np
    pts = np.array([[0, 0], [3, 4], [6, 8], [1, 1]], dtype=float)
    d = np.sqrt(((pts[:, None, :] - pts[None, :, :]) ** 2).sum(-1))
    print(d.round(8), d.argmax(), np.unravel_index(d.argmax(), d.shape), sep="\\n")
    """,
)
_case(
    "np_broadcast_meshgrid",
    """
    import numpy as np
    xs, ys = np.meshgrid(np.arange(3), np.arange(2))
    print(xs, ys, xs + 10 * ys, sep="\\n")
    r = np.ogrid[0:3, 0:2]
    print(r[0].shape, r[1].shape, np.mgrid[0:2, 0:2].shape)
    """,
)

# --- numpy: reductions and statistics ---------------------------------------------------------

_case(
    "np_stats_basic",
    """
    import numpy as np
    a = np.array([2.5, 3.5, 1.0, 8.25, 4.0, 6.75])
    print(a.sum(), a.mean(), a.std(), a.var(), a.std(ddof=1), a.min(), a.max(), np.ptp(a))
    print(np.median(a), np.percentile(a, [10, 50, 90]), np.quantile(a, 0.25))
    """,
)
_case(
    "np_stats_axis",
    """
    import numpy as np
    m = np.arange(12, dtype=float).reshape(3, 4)
    print(m.sum(axis=0), m.mean(axis=1), m.max(axis=1), m.argmax(axis=0), m.cumsum(axis=1), sep="\\n")
    print(m.prod(axis=0), np.cumprod([1, 2, 3, 4]), np.diff(m, axis=1)[0])
    """,
)
_case(
    "np_stats_argmax_argmin",
    """
    import numpy as np
    a = np.array([3, 9, 2, 9, 1, 1])
    print(a.argmax(), a.argmin(), np.argmax(a == 9), np.argsort(-a, kind="stable"))
    """,
)
_case(
    "np_stats_weighted_average",
    """
    import numpy as np
    scores = np.array([70.0, 85.0, 90.0])
    weights = np.array([0.2, 0.3, 0.5])
    print(np.average(scores, weights=weights), np.average(scores, weights=weights, returned=True))
    print(np.dot(scores, weights), np.cov([1, 2, 3, 4], [2, 4, 5, 9]), sep="\\n")
    """,
)
_case(
    "np_stats_corrcoef",
    """
    import numpy as np
    rng = np.random.default_rng(0)
    x = rng.normal(size=200)
    y = 2 * x + rng.normal(scale=0.5, size=200)
    print(np.corrcoef(x, y).round(8))
    print(round(float(np.cov(x, y)[0, 1]), 8))
    """,
)
_case(
    "np_stats_percentile_methods",
    """
    import numpy as np
    a = np.array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    for method in ["linear", "lower", "higher", "nearest", "midpoint", "median_unbiased"]:
        print(method, np.percentile(a, [25, 75], method=method))
    """,
)
_case(
    "np_stats_large_sum_float",
    """
    import numpy as np
    a = np.arange(1_000_000, dtype=np.float64) * 0.1
    print(a.sum(), a.mean(), np.float32(a).sum(), a.astype(np.float32).mean())
    """,
)
_case(
    "np_stats_any_all_logical",
    """
    import numpy as np
    a = np.array([[True, False], [True, True]])
    print(a.all(), a.any(), a.all(axis=0), a.any(axis=1), np.logical_xor(a[0], a[1]))
    print(np.isclose([1.0, 2.0], [1.0 + 1e-10, 2.1]), np.allclose([1, 2], [1, 2.0000001]))
    """,
)
_case(
    "np_stats_integer_mean_var",
    """
    import numpy as np
    a = np.array([1, 2, 3, 4], dtype=np.int8)
    print(a.mean(), a.mean().dtype, a.var(), a.sum().dtype, np.add.reduce(a, dtype=np.int8))
    print(np.array([100, 100], dtype=np.int8).sum(), np.array([100, 100], dtype=np.int8).sum(dtype=np.int8))
    """,
)
_case(
    "np_stats_maximum_accumulate",
    """
    import numpy as np
    prices = np.array([10, 12, 9, 15, 14, 18, 11])
    peak = np.maximum.accumulate(prices)
    print(peak, (prices - peak) / peak, np.minimum.reduce(prices), np.add.reduceat(prices, [0, 3, 5]))
    """,
)

# --- numpy: sorting, unique, searchsorted, histogram, bincount --------------------------------

_case(
    "np_sort_basic",
    """
    import numpy as np
    a = np.array([3.2, -1.0, 7.5, 0.0, 2.2, 7.5])
    print(np.sort(a), np.sort(a)[::-1], np.argsort(a, kind="stable"), np.lexsort(([1, 2, 1], [0, 0, 1])))
    m = np.array([[3, 1, 2], [9, 7, 8]])
    print(np.sort(m, axis=1), np.sort(m, axis=None))
    """,
)
_case(
    "np_sort_argsort_ties_default_kind",
    """
    import numpy as np
    a = np.array([2, 1, 2, 1, 2, 1, 2, 1] * 8)
    print(np.argsort(a))
    """,
)
_case(
    "np_sort_partition",
    """
    import numpy as np
    a = np.array([9, 1, 8, 2, 7, 3, 6, 4, 5, 0])
    p = np.partition(a, 3)
    print(p[3], sorted(p[:3]), np.sort(np.partition(a, -2)[-2:]))
    print(np.partition(a, 3))
    """,
)
_case(
    "np_sort_unique",
    """
    import numpy as np
    a = np.array([3, 1, 2, 3, 3, 1, 7])
    u, idx, inv, counts = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    print(u, idx, inv, counts)
    print(np.unique(np.array([[1, 2], [1, 2], [0, 5]]), axis=0), np.unique(["b", "a", "b"]))
    """,
)
_case(
    "np_sort_searchsorted",
    """
    import numpy as np
    edges = np.array([0, 10, 20, 50, 100])
    print(np.searchsorted(edges, [5, 10, 99, 100, 101]), np.searchsorted(edges, 10, side="right"))
    print(np.digitize([1, 15, 55, 100], edges), np.digitize([1, 15, 55, 100], edges, right=True))
    """,
)
_case(
    "np_sort_histogram",
    """
    import numpy as np
    rng = np.random.default_rng(7)
    data = rng.normal(50, 10, size=1000)
    counts, edges = np.histogram(data, bins=8)
    print(counts, edges.round(6), sep="\\n")
    print(np.histogram([1, 2, 2, 3, 3, 3], bins=[0, 1, 2, 3, 4]), np.histogram([1, 2, 3], bins=3, density=True))
    """,
)
_case(
    "np_sort_bincount",
    """
    import numpy as np
    votes = np.array([0, 2, 2, 1, 4, 2, 0])
    print(np.bincount(votes), np.bincount(votes, minlength=7), np.bincount(votes, weights=np.arange(7) / 2))
    print(np.bincount(votes).argmax())
    """,
)
_case(
    "np_sort_set_operations",
    """
    import numpy as np
    a, b = np.array([1, 2, 3, 4, 5]), np.array([4, 5, 6, 7])
    print(np.intersect1d(a, b), np.union1d(a, b), np.setdiff1d(a, b), np.setxor1d(a, b), np.isin(a, b))
    """,
)
_case(
    "np_sort_histogram2d",
    """
    import numpy as np
    x = np.array([0.1, 0.5, 0.9, 0.3, 0.7])
    y = np.array([0.2, 0.8, 0.4, 0.6, 0.9])
    h, xe, ye = np.histogram2d(x, y, bins=2, range=[[0, 1], [0, 1]])
    print(h, xe, ye, np.histogram_bin_edges([1, 2, 3, 10], bins="auto"), sep="\\n")
    """,
)
_case(
    "np_sort_strings_and_nan",
    """
    import numpy as np
    print(np.sort(np.array(["pear", "Apple", "banana", "apple"])))
    print(np.sort(np.array([3.0, np.nan, 1.0, -np.inf])), np.argsort(np.array([2.0, np.nan, 1.0]), kind="stable"))
    """,
)

# --- numpy: linear algebra --------------------------------------------------------------------

_case(
    "np_linalg_solve",
    """
    import numpy as np
    A = np.array([[3.0, 2.0, -1.0], [2.0, -2.0, 4.0], [-1.0, 0.5, -1.0]])
    b = np.array([1.0, -2.0, 0.0])
    x = np.linalg.solve(A, b)
    print(x.round(8), np.allclose(A @ x, b))
    """,
)
_case(
    "np_linalg_inv_det",
    """
    import numpy as np
    A = np.array([[4.0, 7.0], [2.0, 6.0]])
    print(np.linalg.inv(A).round(8), round(np.linalg.det(A), 8), np.linalg.matrix_rank(A))
    print(np.round(np.linalg.slogdet(np.diag([2.0, 3.0, 4.0])), 8))
    """,
)
_case(
    "np_linalg_singular",
    """
    import numpy as np
    np.linalg.inv(np.array([[1.0, 2.0], [2.0, 4.0]]))
    """,
)
_case(
    "np_linalg_solve_singular",
    """
    import numpy as np
    try:
        np.linalg.solve(np.zeros((3, 3)), np.ones(3))
    except np.linalg.LinAlgError as e:
        print("LinAlgError:", e)
    print(round(np.linalg.det(np.array([[1.0, 2.0], [2.0, 4.0]])), 8))
    """,
)
_case(
    "np_linalg_eig_symmetric",
    """
    import numpy as np
    S = np.array([[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]])
    w, v = np.linalg.eigh(S)
    print(w.round(8))
    v = v * np.sign(v[0])  # eigenvectors are defined up to sign
    print(v.round(8) + 0.0)
    print(np.sort(np.linalg.eigvalsh(S)).round(8))
    """,
)
_case(
    "np_linalg_eig_general",
    """
    import numpy as np
    A = np.array([[2.0, 0.0], [1.0, 3.0]])
    w, v = np.linalg.eig(A)
    order = np.argsort(w)
    w, v = w[order], v[:, order]
    v = v / v[np.abs(v).argmax(axis=0), range(2)]
    print(w.round(8), v.round(8), sep="\\n")
    print(np.sort_complex(np.linalg.eigvals(np.array([[0.0, -1.0], [1.0, 0.0]]))).round(8))
    """,
)
_case(
    "np_linalg_svd",
    """
    import numpy as np
    M = np.array([[3.0, 1.0, 1.0], [-1.0, 3.0, 1.0]])
    U, s, Vt = np.linalg.svd(M, full_matrices=False)
    print(s.round(8), np.allclose(U @ np.diag(s) @ Vt, M), U.shape, Vt.shape)
    print(np.linalg.svd(M, compute_uv=False).round(8), round(np.linalg.cond(M), 8))
    """,
)
_case(
    "np_linalg_lstsq",
    """
    import numpy as np
    x = np.array([0.0, 1.0, 2.0, 3.0, 4.0])
    y = np.array([1.1, 2.9, 5.2, 7.1, 8.8])
    A = np.vstack([x, np.ones_like(x)]).T
    coef, res, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    print(coef.round(8), res.round(8), rank, sv.round(8))
    """,
)
_case(
    "np_linalg_norms",
    """
    import numpy as np
    v = np.array([3.0, -4.0, 12.0])
    M = np.array([[1.0, -2.0], [3.0, 4.0]])
    print(np.linalg.norm(v), np.linalg.norm(v, 1), np.linalg.norm(v, np.inf))
    print(round(np.linalg.norm(M), 8), np.linalg.norm(M, "fro").round(8), round(np.linalg.norm(M, 2), 8), np.linalg.norm(M, axis=1).round(8))
    """,
)
_case(
    "np_linalg_qr",
    """
    import numpy as np
    A = np.array([[12.0, -51.0, 4.0], [6.0, 167.0, -68.0], [-4.0, 24.0, -41.0]])
    Q, R = np.linalg.qr(A)
    signs = np.sign(np.diag(R))
    Q, R = Q * signs, (R.T * signs).T
    print(Q.round(8) + 0.0, R.round(8) + 0.0, np.allclose(Q @ R, A), sep="\\n")
    """,
)
_case(
    "np_linalg_cholesky",
    """
    import numpy as np
    A = np.array([[4.0, 12.0, -16.0], [12.0, 37.0, -43.0], [-16.0, -43.0, 98.0]])
    L = np.linalg.cholesky(A)
    print(L.round(8), np.allclose(L @ L.T, A), sep="\\n")
    try:
        np.linalg.cholesky(np.array([[1.0, 2.0], [2.0, 1.0]]))
    except np.linalg.LinAlgError as e:
        print("not positive definite:", e)
    """,
)
_case(
    "np_linalg_matmul_dot",
    """
    import numpy as np
    A = np.arange(6).reshape(2, 3)
    B = np.arange(12).reshape(3, 4)
    print(A @ B, np.dot(A, B).dtype, np.matmul(A.astype(float), B).sum(), np.inner([1, 2], [3, 4]), np.outer([1, 2], [3, 4]), sep="\\n")
    print(np.vdot([1 + 2j, 3j], [2, 1j]), np.tensordot(np.ones((2, 3)), np.ones((3, 2)), axes=1), np.einsum("ij,jk->ik", A, B)[1])
    """,
)
_case(
    "np_linalg_matmul_float_large",
    """
    import numpy as np
    rng = np.random.default_rng(3)
    A = rng.random((60, 40))
    B = rng.random((40, 50))
    C = A @ B
    print(C.shape, C.sum().round(6), C[0, :4].round(8), np.trace(C).round(8))
    """,
)
_case(
    "np_linalg_matrix_power_pinv",
    """
    import numpy as np
    F = np.array([[1, 1], [1, 0]])
    print(np.linalg.matrix_power(F, 30), np.linalg.pinv(np.array([[1.0, 2.0], [2.0, 4.0]])).round(8), sep="\\n")
    print(np.kron(np.eye(2, dtype=int), [[1, 2], [3, 4]]), np.cross([1, 0, 0], [0, 1, 0]))
    """,
)
_case(
    "np_linalg_shape_error",
    """
    import numpy as np
    np.ones((2, 3)) @ np.ones((2, 3))
    """,
)

# --- numpy: random ----------------------------------------------------------------------------

_case(
    "np_random_default_rng_basic",
    """
    import numpy as np
    rng = np.random.default_rng(42)
    print(rng.random(4))
    print(rng.integers(0, 10, size=8), rng.integers(1_000_000_000_000, size=2))
    print(rng.normal(0, 1, size=3), rng.uniform(5, 6, 2), rng.choice(["a", "b", "c"], 5))
    """,
)
_case(
    "np_random_default_rng_distributions",
    """
    import numpy as np
    rng = np.random.default_rng(2024)
    print(rng.poisson(3.0, 6), rng.binomial(10, 0.3, 6), rng.exponential(2.0, 3).round(10))
    print(rng.gamma(2.0, 1.5, 3).round(10), rng.beta(2, 5, 3).round(10), rng.standard_t(4, 2).round(10))
    print(rng.multinomial(20, [0.2, 0.3, 0.5]), rng.lognormal(0, 1, 2).round(10))
    """,
)
_case(
    "np_random_shuffle_permutation",
    """
    import numpy as np
    rng = np.random.default_rng(1)
    a = np.arange(10)
    rng.shuffle(a)
    print(a, rng.permutation(5), rng.choice(10, size=4, replace=False), rng.permuted(np.arange(6).reshape(2, 3), axis=1))
    """,
)
_case(
    "np_random_legacy_seed",
    """
    import numpy as np
    np.random.seed(0)
    print(np.random.rand(3))
    print(np.random.randn(2, 2))
    print(np.random.randint(0, 100, 5), np.random.randint(10, size=3).dtype)
    print(np.random.choice([10, 20, 30], 4), np.random.random_sample(2))
    """,
)
_case(
    "np_random_legacy_distributions",
    """
    import numpy as np
    np.random.seed(0)
    print(np.random.normal(10, 2, 3), np.random.uniform(0, 1, 2), np.random.poisson(4, 5))
    print(np.random.binomial(20, 0.5, 4), np.random.exponential(1.0, 2), np.random.multinomial(10, [0.5, 0.5]))
    a = np.arange(8)
    np.random.shuffle(a)
    print(a, np.random.permutation(4))
    """,
)
_case(
    "np_random_randomstate_object",
    """
    import numpy as np
    rs = np.random.RandomState(123)
    print(rs.randint(0, 2**31 - 1, 3), rs.randint(-5, 5, size=4), rs.random_integers(1, 6, 3) if hasattr(rs, "random_integers") else None)
    print(rs.standard_normal(2), rs.gamma(1.0, size=2), rs.get_state()[1][:3])
    """,
)
_case(
    "np_random_generators_bitgens",
    """
    import numpy as np
    for bg in (np.random.PCG64, np.random.PCG64DXSM, np.random.MT19937, np.random.Philox, np.random.SFC64):
        g = np.random.Generator(bg(12345))
        print(bg.__name__, g.integers(0, 1000, 4), round(g.random(), 12))
    ss = np.random.SeedSequence(99)
    print(ss.generate_state(3), [c.generate_state(1)[0] for c in ss.spawn(2)])
    """,
)
_case(
    "np_random_normal_stats",
    """
    import numpy as np
    rng = np.random.default_rng(42)
    sample = rng.normal(loc=100, scale=15, size=10_000)
    print(round(sample.mean(), 8), round(sample.std(), 8), np.percentile(sample, [5, 95]).round(8))
    print(np.histogram(sample, bins=5)[0])
    """,
)
_case(
    "np_random_bootstrap",
    """
    import numpy as np
    rng = np.random.default_rng(11)
    data = np.array([12.1, 14.3, 9.8, 11.0, 15.2, 13.3, 10.4])
    means = np.array([rng.choice(data, size=data.size, replace=True).mean() for _ in range(1000)])
    print(np.percentile(means, [2.5, 97.5]).round(8), round(means.mean(), 8))
    """,
)
_case(
    "np_random_int_dtypes",
    """
    import numpy as np
    rng = np.random.default_rng(5)
    print(rng.integers(0, 2**40, size=3), rng.integers(0, 255, 4, dtype=np.uint8), rng.integers(-3, 3, 5, endpoint=True))
    np.random.seed(5)
    print(np.random.randint(0, 2**40, size=3, dtype=np.int64), np.random.randint(2**31, size=2, dtype=np.int64))
    """,
)
_case(
    "np_random_legacy_randint_large_default",
    """
    import numpy as np
    np.random.seed(1)
    print(np.random.randint(0, 3_000_000_000, size=2))
    """,
)

# --- numpy: FFT -------------------------------------------------------------------------------

_case(
    "np_fft_basic",
    """
    import numpy as np
    x = np.array([1.0, 2.0, 1.0, -1.0, 1.5, 0.0, 3.0, -2.0])
    X = np.fft.fft(x)
    print(np.round(X, 8), np.allclose(np.fft.ifft(X).real, x), sep="\\n")
    """,
)
_case(
    "np_fft_rfft_frequency",
    """
    import numpy as np
    fs = 100
    t = np.arange(0, 1, 1 / fs)
    signal = np.sin(2 * np.pi * 5 * t) + 0.5 * np.sin(2 * np.pi * 12 * t)
    spec = np.abs(np.fft.rfft(signal)) / len(t)
    freqs = np.fft.rfftfreq(len(t), 1 / fs)
    top = np.argsort(spec)[-2:]
    print(sorted(freqs[top]), np.round(spec[top], 6))
    """,
)
_case(
    "np_fft_2d_and_shift",
    """
    import numpy as np
    img = np.arange(16, dtype=float).reshape(4, 4)
    F = np.fft.fft2(img)
    print(np.round(np.abs(F), 6), np.fft.fftshift(np.fft.fftfreq(6)), np.round(np.fft.irfft(np.fft.rfft([1.0, 2.0, 3.0, 4.0])), 10), sep="\\n")
    """,
)
_case(
    "np_fft_odd_length_and_norm",
    """
    import numpy as np
    x = np.arange(7, dtype=float)
    print(np.round(np.fft.fft(x, norm="ortho"), 8), np.round(np.fft.fft(x, n=10)[:3], 8), np.round(np.fft.hfft([1, 2, 3]), 8), sep="\\n")
    """,
)
_case(
    "np_fft_convolution",
    """
    import numpy as np
    a, b = np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5])
    n = len(a) + len(b) - 1
    via_fft = np.fft.irfft(np.fft.rfft(a, n) * np.fft.rfft(b, n), n)
    print(np.round(via_fft, 8) + 0.0, np.convolve(a, b), np.correlate(a, b, "full"))
    """,
)

# --- numpy: polynomials -----------------------------------------------------------------------

_case(
    "np_poly_polyfit_line",
    """
    import numpy as np
    x = np.array([0, 1, 2, 3, 4, 5], dtype=float)
    y = np.array([1.0, 3.1, 4.9, 7.2, 8.8, 11.1])
    slope, intercept = np.polyfit(x, y, 1)
    print(round(slope, 8), round(intercept, 8), np.polyval([slope, intercept], 6).round(8))
    """,
)
_case(
    "np_poly_polyfit_quadratic",
    """
    import numpy as np
    x = np.linspace(-2, 2, 9)
    y = 3 * x**2 - 2 * x + 1
    print(np.polyfit(x, y, 2).round(8), np.roots([1, -3, 2]).round(8), np.poly1d([1, 2, 3])(2))
    p = np.poly1d([1, -3, 2])
    print(p)
    print(p.deriv(), p.integ().coeffs.round(8), (p * p).coeffs)
    """,
)
_case(
    "np_poly_polynomial_class",
    """
    import numpy as np
    from numpy.polynomial import Polynomial, Chebyshev
    x = np.linspace(0, 1, 20)
    y = np.exp(x)
    p = Polynomial.fit(x, y, 3)
    print(np.round(p.convert().coef, 6), round(p(0.5), 6))
    c = Chebyshev([1, 2, 3])
    print(c(0.5), Polynomial([1, 2, 3]).roots().round(8))
    print(Polynomial([1, 2, 3]))
    """,
)
_case(
    "np_poly_interp_trapz",
    """
    import numpy as np
    xp = np.array([0.0, 1.0, 2.0, 3.0])
    fp = np.array([0.0, 10.0, 5.0, 20.0])
    print(np.interp([0.5, 1.5, 2.75, -1, 5], xp, fp), np.trapezoid(fp, xp), np.gradient(fp), np.gradient(fp, xp))
    """,
)
_case(
    "np_poly_vander_polyder",
    """
    import numpy as np
    print(np.vander([1, 2, 3], 3), np.polyder([1, 0, -4, 2]), np.polyint([3, 2, 1]), np.polymul([1, 1], [1, -1]), np.polydiv([1, 0, -1], [1, 1]), sep="\\n")
    """,
)

# --- numpy: datetime64 ------------------------------------------------------------------------

_case(
    "np_datetime_basic",
    """
    import numpy as np
    d = np.datetime64("2024-02-27")
    print(d + np.arange(4), d.dtype, np.datetime64("2024-03-01") - d)
    print(np.arange("2024-01", "2024-05", dtype="datetime64[M]"), np.datetime64("2024-01-31T10:30") + np.timedelta64(90, "m"))
    """,
)
_case(
    "np_datetime_busdays",
    """
    import numpy as np
    print(np.busday_count("2024-03-01", "2024-04-01"), np.is_busday(["2024-03-09", "2024-03-11"]))
    print(np.busday_offset("2024-03-08", 1, roll="forward"), np.busday_offset("2024-12-24", 2, holidays=["2024-12-25"]))
    """,
)
_case(
    "np_datetime_units_and_casting",
    """
    import numpy as np
    t = np.array(["2024-06-01T12:00:00", "2024-06-02T00:30:00"], dtype="datetime64[s]")
    print(t.astype("datetime64[D]"), t.astype(np.int64), np.diff(t).astype("timedelta64[m]"))
    print(np.datetime64("2024-06-01", "ns").astype(int), np.timedelta64(1, "D") / np.timedelta64(1, "h"))
    print(np.datetime_as_string(t, unit="m"), np.datetime64("NaT") == np.datetime64("NaT"), np.isnat(np.datetime64("NaT")))
    """,
)
_case(
    "np_datetime_epoch_and_leap",
    """
    import numpy as np
    print(np.datetime64(0, "s"), np.datetime64(1_700_000_000, "s"), np.datetime64("2024-02-29") + np.timedelta64(365, "D"))
    years = np.arange(1896, 1905)
    print(years[((years % 4 == 0) & (years % 100 != 0)) | (years % 400 == 0)])
    """,
)
_case(
    "np_datetime_far_dates",
    """
    import numpy as np
    print(np.datetime64("1677-09-21T00:12:43.145224192", "ns"), np.datetime64("2262-04-11", "D"), np.datetime64("9999-12-31") - np.datetime64("0001-01-01"))
    print(np.datetime64("2024-01-01") < np.datetime64("2024-01-02T00:00:01"))
    """,
)

# --- numpy: strings ---------------------------------------------------------------------------

_case(
    "np_str_char_functions",
    """
    import numpy as np
    names = np.array(["  alice ", "BOB", "carol  "])
    print(np.char.strip(names), np.char.upper(names), np.char.capitalize(np.char.strip(names)))
    print(np.char.add(np.array(["a", "b"]), np.array(["1", "2"])), np.char.str_len(names), np.char.replace(names, "o", "0"))
    """,
)
_case(
    "np_str_dtype_and_compare",
    """
    import numpy as np
    s = np.array(["apple", "fig", "banana"])
    print(s.dtype, s.itemsize, s == "fig", np.char.startswith(s, "b"), np.char.find(s, "an"), s.astype("U3"))
    """,
)
_case(
    "np_str_strings_module",
    """
    import numpy as np
    s = np.array(["x=1", "y=22", "zz=333"])
    print(np.strings.partition(s, "="), np.strings.zfill(np.array(["7", "42"]), 4), np.strings.count(s, "3"), sep="\\n")
    """,
)
_case(
    "np_str_stringdtype",
    """
    import numpy as np
    from numpy.dtypes import StringDType
    s = np.array(["short", "a much longer string", ""], dtype=StringDType())
    print(s, s.dtype, np.strings.str_len(s), np.strings.upper(s), np.sort(s))
    """,
)
_case(
    "np_str_number_parsing",
    """
    import numpy as np
    raw = np.array(["1.5", "2e3", "-0.25", "inf"])
    print(raw.astype(float), np.array(["12", "-7"]).astype(np.int32), np.char.mod("%06.2f", np.array([3.14159, 2.5])))
    np.array(["1.5", "abc"]).astype(float)
    """,
)

# --- numpy: float formatting and printing -----------------------------------------------------

_case(
    "np_fmt_repr_and_str",
    """
    import numpy as np
    a = np.array([0.1, 1 / 3, 2.0, 1e-5, 123456.789])
    print(a)
    print(repr(a))
    print(np.float64(0.1) + np.float64(0.2), repr(np.float64(1) / 3), str(np.float32(1) / 3), repr(np.float16(1) / 3))
    """,
)
_case(
    "np_fmt_printoptions",
    """
    import numpy as np
    a = np.array([1e-10, 1.0, 12345.6789])
    np.set_printoptions(precision=3, suppress=True)
    print(a)
    with np.printoptions(precision=2, floatmode="fixed"):
        print(np.array([1.0, 2.5]))
    np.set_printoptions(threshold=5, edgeitems=2)
    print(np.arange(100))
    """,
)
_case(
    "np_fmt_scientific_and_large",
    """
    import numpy as np
    print(np.array([1e20, 1.0]), np.array([1e-20, 1.0]), np.array([1.5e300, -2.5e-300]))
    print(np.format_float_positional(np.float32(0.1)), np.format_float_scientific(1234.5678, precision=3))
    print(np.format_float_positional(1 / 3, precision=5, unique=False), np.format_float_scientific(np.float64(5e-324)))
    """,
)
_case(
    "np_fmt_array2string_and_savetxt",
    """
    import numpy as np
    m = np.array([[1.5, 2.25], [3.125, -4.0]])
    print(np.array2string(m, separator=", ", precision=2))
    print(np.array_repr(np.arange(3)), np.array_str(np.eye(2)))
    np.savetxt("np_fmt_array2string_and_savetxt.csv", m, delimiter=",", fmt="%.4f", header="a,b")
    print(open("np_fmt_array2string_and_savetxt.csv").read())
    """,
)
_case(
    "np_fmt_fstrings_and_round",
    """
    import numpy as np
    x = np.float64(2.675)
    print(f"{x:.2f} {np.round(x, 2)} {round(float(x), 2)} {np.float32(2.675):.6f} {np.pi:.10f} {np.e!r}")
    print(np.round([0.5, 1.5, 2.5, -0.5]), np.around(1234.5678, -2), np.round(np.array([1.005, 2.675]), 2))
    print("{:,.2f}".format(np.float64(1234567.891)), format(np.int64(1234567), ","))
    """,
)
_case(
    "np_fmt_large_int_repr",
    """
    import numpy as np
    a = np.array([2**62, -(2**62), 7])
    print(a, repr(a), np.array([1, 2, 3]), repr(np.array([1, 2, 3])))
    print(repr(np.array([1, 2], dtype=np.int32)), repr(np.array([1, 2], dtype=np.int64)))
    """,
)
_case(
    "np_fmt_transcendental_rounded",
    """
    import numpy as np
    x = np.linspace(0.1, 10, 7)
    print(np.round(np.exp(x), 6), np.round(np.log(x), 10), np.round(np.sin(x), 10), np.round(np.arctan2(x, 3), 10), sep="\\n")
    print(np.round(np.tanh(x), 10), np.round(np.log1p(x), 10), np.round(np.expm1(x[:3]), 10), np.round(np.power(x, 0.3), 10), sep="\\n")
    """,
)

# --- numpy: nan handling ----------------------------------------------------------------------

_case(
    "np_nan_functions",
    """
    import numpy as np
    a = np.array([1.0, np.nan, 3.0, 4.0, np.nan])
    print(np.nansum(a), np.nanmean(a), np.nanstd(a), np.nanmax(a), np.nanargmin(a), np.nanmedian(a), np.nanpercentile(a, 50))
    print(a.sum(), np.isnan(a).sum(), np.nan_to_num(a), np.nancumsum(a))
    """,
)
_case(
    "np_nan_comparisons",
    """
    import numpy as np
    print(np.nan == np.nan, np.isnan(np.nan), np.array([np.nan]) == np.array([np.nan]), np.array_equal([np.nan], [np.nan], equal_nan=True))
    print(np.fmax([1.0, np.nan], [np.nan, 2.0]), np.maximum([1.0, np.nan], [np.nan, 2.0]), np.unique([np.nan, 1.0, np.nan]))
    """,
)
_case(
    "np_nan_all_nan_slice",
    """
    import numpy as np
    import warnings
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        print(np.nanmean(np.array([np.nan, np.nan])), np.nanmax(np.array([np.nan])))
    for item in w:
        print(item.category.__name__, item.message)
    """,
)
_case(
    "np_nan_masked_array",
    """
    import numpy as np
    data = np.ma.masked_invalid([1.0, np.nan, 3.0, np.inf, 5.0])
    print(data, data.mean(), data.filled(-1), data.count(), np.ma.masked_where(np.arange(4) > 1, np.arange(4)))
    m = np.ma.array([1, 2, 3], mask=[0, 1, 0])
    print(m.sum(), m * 2, repr(m))
    """,
)
_case(
    "np_nan_inf_arith",
    """
    import numpy as np
    with np.errstate(all="ignore"):
        x = np.array([1.0, -1.0, 0.0, np.inf]) / np.array([0.0, 0.0, 0.0, np.inf])
    print(x, np.isinf(x), np.isfinite(x), np.signbit(np.array([-0.0, 0.0])), np.copysign(3, -0.0))
    """,
)
_case(
    "np_nan_nan_to_num_and_where",
    """
    import numpy as np
    a = np.array([np.nan, np.inf, -np.inf, 2.0])
    print(np.nan_to_num(a, nan=0.0, posinf=1e9, neginf=-1e9), np.where(np.isnan(a), -1, a))
    print(np.nanquantile(np.array([[1, np.nan], [3, 4]]), 0.5, axis=0), np.nanvar([1.0, np.nan, 3.0]))
    """,
)

# --- numpy: floating-point error states -------------------------------------------------------

_ERR_PRINT = """
for item in caught:
    print(item.category.__name__, item.message)
"""

_case(
    "np_err_float_flags",
    """
    import numpy as np, warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(np.array([1.0, 0.0, -2.0]) / np.array([0.0, 0.0, 0.0]))
        print(np.log(np.array([0.0, 1.0])), np.sqrt(np.array([-1.0, 4.0])))
        print(np.array([1e308]) * 10, np.exp(np.array([1000.0])), np.array([np.inf]) - np.inf)
        print(np.float64(1.0) / np.float64(0.0), np.float32(3e38) * np.float32(10))
    for item in caught:
        print(item.category.__name__, item.message)
    checks = {
        "divide": lambda: np.array([1.0]) / np.array([0.0]),
        "over": lambda: np.array([1e300]) * np.array([1e300]),
        "invalid": lambda: np.sqrt(np.array([-1.0])),
        "under": lambda: np.array([1e-308]) * np.array([1e-10]),
    }
    for kind, op in checks.items():
        with np.errstate(**{kind: "raise"}):
            try:
                op()
                print(kind, "no error")
            except FloatingPointError as e:
                print(kind, "FloatingPointError:", e)
    """,
)
_case(
    "np_err_seterr_global",
    """
    import numpy as np
    old = np.seterr(all="raise")
    print(old)
    try:
        np.array([2, 4]) // np.array([1, 0])
    except FloatingPointError as e:
        print("raised:", e)
    np.seterr(**old)
    print(np.geterr())
    """,
)
_case(
    "np_err_errstate_ignore_is_silent",
    """
    import numpy as np, warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with np.errstate(all="ignore"):
            print(np.array([1.0, 0.0]) / 0.0, np.log(np.array([-1.0])), np.array([7]) // 0)
    print(len(caught))
    """,
)
_case(
    "np_err_int_divide_by_zero",
    """
    import numpy as np, warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = np.array([1, 2, 3])
        print(a // 0, a % 0, a // np.array([1, 0, 3]), np.divmod(a, 0))
    """,
    _ERR_PRINT,
)
_case(
    "np_err_int_divide_raise",
    """
    import numpy as np
    with np.errstate(divide="raise"):
        try:
            np.array([5, 6]) // np.array([0, 1])
        except FloatingPointError as e:
            print("FloatingPointError:", e)
    """,
)
_case(
    "np_err_int_scalar_overflow",
    """
    import numpy as np, warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(np.int64(2**62) * np.int64(4), np.int32(2**31 - 1) + np.int32(1), np.int8(-128) // np.int8(-1))
        print(np.uint8(200) + np.uint8(100), np.int16(300) ** 3, abs(np.int64(-(2**63))))
    """,
    _ERR_PRINT,
)
_case(
    "np_err_int_scalar_overflow_raise",
    """
    import numpy as np
    with np.errstate(over="raise"):
        try:
            np.int64(2**62) * np.int64(4)
        except FloatingPointError as e:
            print("FloatingPointError:", e)
    """,
)
_case(
    "np_err_int_array_overflow_is_silent",
    """
    import numpy as np, warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = np.array([2**62, 3], dtype=np.int64)
        print(a * 4, np.array([127], dtype=np.int8) + 1, np.array([2**31 - 1], dtype=np.int32) * 2)
    print(len(caught))
    """,
)
_case(
    "np_err_int_power_negative",
    """
    import numpy as np
    np.array([2, 3]) ** -1
    """,
)
_case(
    "np_err_errcall_integer",
    """
    import numpy as np
    events = []
    np.seterrcall(lambda kind, flag: events.append((kind, flag)))
    with np.errstate(divide="call"):
        np.array([1]) // 0
        np.array([1]) % np.array([0])
    print(events)
    """,
)
_case(
    "np_err_uncaught_warnings",
    """
    import numpy as np
    print(np.array([1, 2]) // 0)
    print(np.nanmax(np.array([np.nan, np.nan])))
    """,
)

# --- numpy: files and misc --------------------------------------------------------------------

_case(
    "np_io_save_load",
    """
    import numpy as np
    a = np.arange(12, dtype=np.int64).reshape(3, 4)
    np.save("np_io_save_load.npy", a)
    np.savez_compressed("np_io_save_load.npz", a=a, b=np.linspace(0, 1, 3))
    b = np.load("np_io_save_load.npy")
    z = np.load("np_io_save_load.npz")
    print(b, b.dtype, sorted(z.files), z["b"], sep="\\n")
    """,
)
_case(
    "np_io_loadtxt_genfromtxt",
    """
    import numpy as np
    with open("np_io_loadtxt_genfromtxt.txt", "w") as f:
        f.write("x,y\\n1,2.5\\n3,\\n5,6.5\\n")
    print(np.genfromtxt("np_io_loadtxt_genfromtxt.txt", delimiter=",", skip_header=1))
    print(np.loadtxt("np_io_loadtxt_genfromtxt.txt", delimiter=",", skiprows=1, usecols=0, dtype=int))
    """,
)
_case(
    "np_io_tofile_fromfile",
    """
    import numpy as np
    np.arange(5, dtype=np.float32).tofile("np_io_tofile_fromfile.bin")
    print(np.fromfile("np_io_tofile_fromfile.bin", dtype=np.float32))
    """,
)
_case(
    "np_io_memmap",
    """
    import numpy as np
    m = np.memmap("np_io_memmap.dat", dtype=np.float64, mode="w+", shape=(3,))
    m[:] = [1, 2, 3]
    m.flush()
    print(np.fromfile("np_io_memmap.dat"))
    """,
)
_case(
    "np_misc_vectorize_and_apply",
    """
    import numpy as np
    f = np.vectorize(lambda x, y: x if x > y else y * 2)
    print(f([1, 5, 3], 2), np.apply_along_axis(lambda r: r.max() - r.min(), 1, np.arange(6).reshape(2, 3)))
    print(np.piecewise(np.array([-2.0, 0.0, 3.0]), [np.array([-2.0, 0.0, 3.0]) < 0], [lambda v: -v, lambda v: v * 10]))
    print(np.frompyfunc(lambda s: s.upper(), 1, 1)(np.array(["a", "b"], dtype=object)))
    """,
)
_case(
    "np_misc_version_and_config",
    """
    import numpy as np, importlib.metadata
    print(np.__version__, importlib.metadata.version("numpy"), np.version.short_version)
    print(np.lib.NumpyVersion(np.__version__) >= "2.0.0")
    """,
)
_case(
    "np_misc_bitwise_and_shifts",
    """
    import numpy as np
    a = np.array([1, 2, 4, 255], dtype=np.uint8)
    print(a << 1, a >> 1, a & 0x0F, a | 1, a ^ 0xFF, np.bitwise_count(a), np.unpackbits(a[:2]), np.packbits([1, 0, 1, 1]))
    print(np.left_shift(1, np.arange(5)), np.invert(np.array([0], dtype=np.int64)), np.binary_repr(10, width=8))
    """,
)
_case(
    "np_misc_rounding_and_integer_math",
    """
    import numpy as np
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5])
    print(np.floor(x), np.ceil(x), np.trunc(x), np.rint(x), np.fix(x))
    print(np.gcd(12, [8, 18]), np.lcm(4, 6), np.divmod(np.array([7, -7]), 3), np.fmod([7, -7], 3), np.mod([7, -7], 3))
    """,
)
_case(
    "np_misc_object_and_errors",
    """
    import numpy as np
    a = np.array([1, "two", 3.0], dtype=object)
    print(a, a.dtype, a[1].upper())
    np.array([[1, 2], [3]])
    """,
)
_case(
    "np_misc_einsum_and_where_out",
    """
    import numpy as np
    a = np.arange(6).reshape(2, 3)
    out = np.zeros(3)
    np.divide(np.array([1.0, 2.0, 3.0]), np.array([2.0, 0.0, 4.0]), out=out, where=np.array([True, False, True]))
    print(np.einsum("ij->j", a), np.einsum("ii", np.arange(9).reshape(3, 3)), out)
    """,
)
_case(
    "np_misc_matrix_ops_integer",
    """
    import numpy as np
    rng = np.random.default_rng(8)
    A = rng.integers(-5, 5, size=(4, 4))
    print(A, A @ A, A.T @ np.ones(4, dtype=int), np.linalg.matrix_power(A, 3)[0], sep="\\n")
    """,
)
_case(
    "np_misc_pad_roll_repeat",
    """
    import numpy as np
    a = np.array([1, 2, 3])
    print(np.pad(a, 2, mode="edge"), np.pad(a, (1, 0), constant_values=9), np.roll(a, 1), np.repeat(a, 2), np.tile(a, 2))
    print(np.flip(np.arange(4).reshape(2, 2)), np.rot90(np.arange(4).reshape(2, 2)), np.split(np.arange(6), 3), np.array_split(np.arange(5), 2))
    """,
)

# --- pandas: construction, dtypes, repr -------------------------------------------------------

_case(
    "pd_frame_construct_dict",
    """
    import pandas as pd
    df = pd.DataFrame({"name": ["Ann", "Bob", "Cid"], "age": [31, 25, 47], "score": [88.5, 92.25, 79.0]})
    print(df)
    print(df.dtypes)
    print(df.shape, list(df.columns), df.index)
    """,
)
_case(
    "pd_frame_default_int_dtypes",
    """
    import pandas as pd, numpy as np
    s = pd.Series([1, 2, 3])
    print(s.dtype, pd.Series(range(3)).dtype, pd.Index([1, 2]).dtype, pd.RangeIndex(3).dtype)
    print(pd.DataFrame(np.arange(6).reshape(2, 3)).dtypes.tolist(), s.sum(), type(s.sum()).__name__)
    print(pd.Series([1, None]).dtype, pd.Series([True, False]).sum(), len(pd.Series(np.arange(100_000))), pd.Series(np.arange(100_000)).sum())
    """,
)
_case(
    "pd_frame_info",
    """
    import pandas as pd, io
    df = pd.DataFrame({"a": [1, 2, None], "b": ["x", "y", "z"], "c": pd.to_datetime(["2024-01-01", "2024-01-02", None])})
    buf = io.StringIO()
    df.info(buf=buf)
    print(buf.getvalue())
    print(df.memory_usage(index=False).tolist(), df.isna().sum().tolist())
    """,
)
_case(
    "pd_frame_records_and_from_dict",
    """
    import pandas as pd
    rows = [{"city": "Oslo", "temp": -3.5}, {"city": "Rome", "temp": 14.0, "rain": True}]
    df = pd.DataFrame.from_records(rows)
    print(df)
    print(pd.DataFrame.from_dict({"a": {"x": 1, "y": 2}, "b": {"x": 3}}, orient="index"))
    print(df.to_dict(orient="records"), df.to_dict("list"))
    """,
)
_case(
    "pd_frame_wide_repr",
    """
    import pandas as pd, numpy as np
    df = pd.DataFrame(np.arange(60).reshape(3, 20) * 1234.5, columns=[f"column_{i}" for i in range(20)])
    print(df)
    pd.set_option("display.max_columns", 6)
    print(df)
    """,
)
_case(
    "pd_frame_long_repr",
    """
    import pandas as pd, numpy as np
    df = pd.DataFrame({"x": np.arange(200), "y": np.arange(200) ** 2})
    print(df)
    print(df.head(3), df.tail(2), sep="\\n")
    print(pd.Series(np.linspace(0, 1, 100)))
    """,
)
_case(
    "pd_frame_float_format",
    """
    import pandas as pd
    df = pd.DataFrame({"small": [0.000123, 1.5], "big": [1.5e10, 2.25], "mix": [1 / 3, 2 / 3]})
    print(df)
    pd.options.display.float_format = "{:,.2f}".format
    print(df)
    pd.reset_option("display.float_format")
    print(df.round(2).to_string(index=False))
    print(df.to_markdown() if hasattr(df, "to_markdown") and False else df.to_string(float_format=lambda v: f"{v:.3e}"))
    """,
)
_case(
    "pd_series_construct",
    """
    import pandas as pd, numpy as np
    s = pd.Series([10, 20, 30], index=["a", "b", "c"], name="vals")
    print(s, s["b"], s.iloc[-1], s.index.tolist(), sep="\\n")
    print(pd.Series({"x": 1.5, "y": np.nan}), pd.Series(5, index=range(3)), sep="\\n")
    """,
)
_case(
    "pd_frame_nullable_dtypes",
    """
    import pandas as pd
    s = pd.Series([1, None, 3], dtype="Int64")
    b = pd.Series([True, None, False], dtype="boolean")
    t = pd.Series(["a", None], dtype="string")
    print(s, b, t, s.sum(), s.mean(), (s > 1).tolist(), sep="\\n")
    print(pd.DataFrame({"a": [1, 2], "b": ["x", None]}).convert_dtypes().dtypes)
    """,
)

# --- pandas: selection ------------------------------------------------------------------------

_SALES = """
import pandas as pd
df = pd.DataFrame({
    "region": ["north", "south", "north", "east", "south", "east", "north", "west"],
    "product": ["A", "B", "B", "A", "A", "B", "A", "B"],
    "units": [12, 7, 3, 15, 9, 4, 8, 11],
    "price": [2.5, 4.25, 4.25, 2.5, 2.5, 4.25, 2.75, 4.0],
    "date": pd.to_datetime(["2024-01-03", "2024-01-05", "2024-01-09", "2024-01-15",
                            "2024-02-02", "2024-02-11", "2024-02-20", "2024-03-01"]),
})
df["revenue"] = df["units"] * df["price"]
"""

_case(
    "pd_select_loc",
    _SALES
    + """
print(df.loc[2])
print(df.loc[1:3, ["region", "units"]])
print(df.loc[df["units"] > 8, "revenue"].sum())
""",
)
_case(
    "pd_select_iloc",
    _SALES
    + """
print(df.iloc[0], df.iloc[[0, -1], 1:3], df.iloc[::3, -1], df.iat[1, 2], sep="\\n")
""",
)
_case(
    "pd_select_query",
    _SALES
    + """
threshold = 8
print(df.query("units > @threshold and region != 'east'"))
print(df.query("product == 'A'")[["region", "revenue"]].reset_index(drop=True))
""",
)
_case(
    "pd_select_boolean_isin",
    _SALES
    + """
print(df[df["region"].isin(["north", "west"]) & (df["price"] < 4)])
print(df[~df["product"].eq("A")].shape, df.where(df["units"] > 10)["units"].tolist())
""",
)
_case(
    "pd_select_setting_values",
    _SALES
    + """
df.loc[df["region"] == "south", "price"] = 5.0
df["flag"] = df["units"].gt(10).map({True: "big", False: "small"})
df.at[0, "units"] = 100
print(df[["region", "price", "units", "flag"]])
""",
)
_case(
    "pd_select_keyerror",
    _SALES
    + """
df["missing_column"]
""",
)
_case(
    "pd_select_between_and_filter",
    _SALES
    + """
print(df[df["date"].between("2024-01-05", "2024-02-11")][["date", "units"]])
print(df.filter(like="r").columns.tolist(), df.select_dtypes("number").columns.tolist())
print(df.nlargest(2, "revenue")[["region", "revenue"]], df.sample(3, random_state=0).index.tolist(), sep="\\n")
""",
)
_case(
    "pd_select_chained_assignment_warning",
    _SALES
    + """
import warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    sub = df[df["units"] > 5]
    sub["units"] = 0
for w in caught:
    print(w.category.__name__, str(w.message).splitlines()[0])
print(df["units"].tolist())
""",
)

# --- pandas: groupby --------------------------------------------------------------------------

_case(
    "pd_groupby_agg_basic",
    _SALES
    + """
print(df.groupby("region")["revenue"].sum())
print(df.groupby(["region", "product"])["units"].agg(["sum", "mean", "count"]))
""",
)
_case(
    "pd_groupby_frame_mean_after_new_column",
    """
import pandas as pd
df = pd.DataFrame({"team": ["red", "blue", "red", "green", "blue"], "wins": [3, 5, 2, 4, 1], "games": [5, 6, 4, 4, 3]})
df["win_rate"] = df["wins"] / df["games"]
print(df.groupby("team").mean().round(4))
print(df.groupby("team").sum())
""",
)
_case(
    "pd_groupby_named_agg",
    _SALES
    + """
out = df.groupby("product").agg(total_units=("units", "sum"), avg_price=("price", "mean"),
                                 first_date=("date", "min"), n=("region", "nunique"))
print(out)
print(out.round(3).to_dict())
""",
)
_case(
    "pd_groupby_transform",
    _SALES
    + """
df["share"] = df["revenue"] / df.groupby("region")["revenue"].transform("sum")
df["rank_in_region"] = df.groupby("region")["units"].rank(ascending=False)
df["cum_units"] = df.groupby("product")["units"].cumsum()
print(df[["region", "product", "share", "rank_in_region", "cum_units"]].round(4))
""",
)
_case(
    "pd_groupby_apply",
    _SALES
    + """
top = df.groupby("region", group_keys=False)[["units", "revenue"]].apply(lambda g: g.nlargest(1, "units"))
print(top)
print(df.groupby("product")["units"].apply(lambda s: (s.max() - s.min())))
""",
)
_case(
    "pd_groupby_apply_deprecation",
    _SALES
    + """
print(df.groupby("region").apply(lambda g: g["units"].sum()))
""",
)
_case(
    "pd_groupby_size_count_first",
    _SALES
    + """
g = df.groupby("region")
print(g.size(), g["units"].count(), g.first()["product"], g["units"].nth(0), g.ngroups, sep="\\n")
print(sorted(g.groups.keys()), g.get_group("east")["units"].tolist())
""",
)
_case(
    "pd_groupby_describe_std",
    _SALES
    + """
print(df.groupby("product")["revenue"].describe())
print(df.groupby("product")["units"].std().round(8), df.groupby("product")["units"].var(ddof=0).round(8), sep="\\n")
""",
)
_case(
    "pd_groupby_filter_and_cut_keys",
    _SALES
    + """
print(df.groupby("region").filter(lambda g: g["units"].sum() > 15)[["region", "units"]])
print(df.groupby(df["date"].dt.month)["units"].sum(), df.groupby(pd.Grouper(key="date", freq="MS"))["units"].sum(), sep="\\n")
""",
)
_case(
    "pd_groupby_multiple_funcs_dict",
    _SALES
    + """
res = df.groupby("region").agg({"units": ["min", "max"], "price": "median", "revenue": lambda s: s.sum() / 10})
print(res)
print(res.columns.tolist())
""",
)
_case(
    "pd_groupby_dropna_and_observed",
    """
import pandas as pd, numpy as np
df = pd.DataFrame({"k": ["a", None, "a", "b", None], "v": [1, 2, 3, 4, 5]})
print(df.groupby("k")["v"].sum(), df.groupby("k", dropna=False)["v"].sum(), sep="\\n")
c = pd.DataFrame({"k": pd.Categorical(["x", "x"], categories=["x", "y"]), "v": [1, 2]})
print(c.groupby("k", observed=False)["v"].sum(), c.groupby("k", observed=True)["v"].sum(), sep="\\n")
""",
)

# --- pandas: reshaping ------------------------------------------------------------------------

_case(
    "pd_reshape_pivot_table",
    _SALES
    + """
pt = pd.pivot_table(df, values="revenue", index="region", columns="product", aggfunc="sum", fill_value=0, margins=True)
print(pt)
print(df.pivot_table(index="product", values=["units", "price"], aggfunc={"units": "sum", "price": "mean"}))
""",
)
_case(
    "pd_reshape_melt",
    """
import pandas as pd
wide = pd.DataFrame({"id": [1, 2], "q1": [10, 20], "q2": [11, 21], "q3": [12, 22]})
long = wide.melt(id_vars="id", var_name="quarter", value_name="sales")
print(long)
print(long.pivot(index="id", columns="quarter", values="sales"))
""",
)
_case(
    "pd_reshape_stack_unstack",
    _SALES
    + """
s = df.groupby(["region", "product"])["units"].sum()
u = s.unstack(fill_value=0)
print(u, u.stack(), s.unstack(0), sep="\\n")
""",
)
_case(
    "pd_reshape_crosstab",
    _SALES
    + """
print(pd.crosstab(df["region"], df["product"]))
print(pd.crosstab(df["region"], df["product"], values=df["units"], aggfunc="sum", normalize="index").round(4))
print(pd.crosstab(df["region"], df["product"], margins=True))
""",
)
_case(
    "pd_reshape_wide_to_long_and_explode",
    """
import pandas as pd
df = pd.DataFrame({"id": [1, 2], "tags": [["a", "b"], ["c"]], "x_2020": [1, 2], "x_2021": [3, 4]})
print(df.explode("tags"))
print(pd.wide_to_long(df.drop(columns="tags"), stubnames="x", i="id", j="year", sep="_"))
""",
)
_case(
    "pd_reshape_get_dummies",
    """
import pandas as pd
df = pd.DataFrame({"color": ["red", "blue", "red"], "size": ["S", "M", "L"]})
print(pd.get_dummies(df))
print(pd.get_dummies(df["color"], prefix="c", dtype=int), pd.from_dummies(pd.get_dummies(df["size"])), sep="\\n")
""",
)
_case(
    "pd_reshape_transpose_and_pivot_dup",
    """
import pandas as pd
df = pd.DataFrame({"k": ["a", "a"], "c": ["x", "x"], "v": [1, 2]})
print(df.T)
df.pivot(index="k", columns="c", values="v")
""",
)
_case(
    "pd_reshape_pivot_table_multiple",
    _SALES
    + """
df["month"] = df["date"].dt.strftime("%Y-%m")
print(df.pivot_table(index="month", columns=["product"], values=["units", "revenue"], aggfunc=["sum", "count"]))
""",
)

# --- pandas: merge, join, concat --------------------------------------------------------------

_CUSTOMERS = """
import pandas as pd
orders = pd.DataFrame({"order_id": [1, 2, 3, 4, 5], "cust": ["c1", "c2", "c1", "c4", "c3"], "amount": [120.0, 35.5, 80.25, 12.0, 60.0]})
customers = pd.DataFrame({"cust": ["c1", "c2", "c3", "c5"], "name": ["Acme", "Bolt", "Core", "Dyne"], "tier": ["gold", "silver", "gold", "bronze"]})
"""

_case(
    "pd_merge_inner_left_outer",
    _CUSTOMERS
    + """
print(orders.merge(customers, on="cust"))
print(orders.merge(customers, on="cust", how="left"))
print(orders.merge(customers, on="cust", how="outer", indicator=True).sort_values(["cust", "order_id"]))
""",
)
_case(
    "pd_merge_suffixes_and_keys",
    _CUSTOMERS
    + """
a = pd.DataFrame({"k1": [1, 1, 2], "k2": ["x", "y", "x"], "v": [1, 2, 3]})
b = pd.DataFrame({"k1": [1, 2, 2], "k2": ["x", "x", "y"], "v": [10, 20, 30]})
print(a.merge(b, on=["k1", "k2"], how="outer", suffixes=("_left", "_right")))
print(orders.merge(customers, left_on="cust", right_on="cust", how="right").shape)
""",
)
_case(
    "pd_merge_validate_error",
    _CUSTOMERS
    + """
dup = pd.concat([customers, customers.iloc[[0]]])
orders.merge(dup, on="cust", validate="many_to_one")
""",
)
_case(
    "pd_merge_join_index",
    _CUSTOMERS
    + """
c = customers.set_index("cust")
print(orders.join(c, on="cust", how="left"))
print(c.join(orders.groupby("cust")["amount"].sum().rename("total"), how="inner"))
""",
)
_case(
    "pd_merge_concat",
    _CUSTOMERS
    + """
q1 = orders.iloc[:2]
q2 = orders.iloc[3:]
print(pd.concat([q1, q2], ignore_index=True))
print(pd.concat([q1, q2], keys=["first", "second"]))
print(pd.concat([q1.set_index("order_id"), customers.set_index("cust").iloc[:2]], axis=1))
""",
)
_case(
    "pd_merge_asof",
    """
import pandas as pd
trades = pd.DataFrame({"time": pd.to_datetime(["2024-01-01 10:00:01", "2024-01-01 10:00:03", "2024-01-01 10:00:07"]), "qty": [100, 200, 50]})
quotes = pd.DataFrame({"time": pd.to_datetime(["2024-01-01 10:00:00", "2024-01-01 10:00:02", "2024-01-01 10:00:06"]), "bid": [99.5, 99.7, 99.6]})
print(pd.merge_asof(trades, quotes, on="time"))
print(pd.merge_asof(trades, quotes, on="time", direction="forward", tolerance=pd.Timedelta("2s")))
""",
)
_case(
    "pd_merge_cross_and_combine_first",
    _CUSTOMERS
    + """
sizes = pd.DataFrame({"size": ["S", "L"]})
print(customers[["cust"]].merge(sizes, how="cross").head(4))
x = pd.Series([1.0, None, 3.0], index=["a", "b", "c"])
y = pd.Series([10.0, 20.0, None, 40.0], index=["a", "b", "c", "d"])
print(x.combine_first(y), x.fillna(y), sep="\\n")
""",
)

# --- pandas: time series: resample, rolling, expanding, ewm -----------------------------------

_TS = """
import pandas as pd, numpy as np
idx = pd.date_range("2024-01-01", periods=48, freq="6h")
ts = pd.Series(np.sin(np.arange(48) / 5.0).round(6) * 10 + np.arange(48) * 0.5, index=idx, name="load")
"""

_case(
    "pd_ts_resample_daily",
    _TS
    + """
print(ts.resample("D").mean().round(6))
print(ts.resample("D").agg(["min", "max", "count"]).round(6))
""",
)
_case(
    "pd_ts_resample_ohlc_and_upsample",
    _TS
    + """
print(ts.resample("2D").ohlc().round(6))
print(ts.iloc[:3].resample("3h").ffill(), ts.iloc[:3].resample("2h").interpolate().round(6), sep="\\n")
""",
)
_case(
    "pd_ts_resample_week_month",
    """
import pandas as pd, numpy as np
s = pd.Series(np.arange(90), index=pd.date_range("2024-01-01", periods=90, freq="D"))
print(s.resample("W").sum(), s.resample("ME").sum(), s.resample("MS").last(), s.resample("QE").mean(), sep="\\n")
""",
)
_case(
    "pd_ts_rolling",
    _TS
    + """
r = ts.rolling(4)
print(pd.DataFrame({"mean": r.mean(), "std": r.std(), "max": r.max(), "sum": r.sum()}).round(6).iloc[:8])
print(ts.rolling(3, center=True, min_periods=1).median().round(6).iloc[:4].tolist())
""",
)
_case(
    "pd_ts_rolling_time_window",
    _TS
    + """
print(ts.rolling("1D").sum().round(6).iloc[:6], ts.rolling(5, win_type=None).quantile(0.5).round(6).iloc[4:7], sep="\\n")
print(ts.rolling(4).apply(lambda w: w[-1] - w[0], raw=True).round(6).iloc[3:6].tolist())
""",
)
_case(
    "pd_ts_expanding_ewm",
    _TS
    + """
print(ts.expanding().mean().round(6).iloc[:5].tolist())
print(ts.expanding(min_periods=3).max().iloc[:4].tolist())
print(ts.ewm(span=5, adjust=False).mean().round(6).iloc[:5].tolist())
print(ts.ewm(alpha=0.3).std().round(6).iloc[:5].tolist(), ts.ewm(halflife="12h", times=ts.index).mean().round(6).iloc[-1])
""",
)
_case(
    "pd_ts_shift_diff_pct",
    _TS
    + """
d = ts.iloc[:6]
print(pd.DataFrame({"v": d, "prev": d.shift(1), "diff": d.diff(), "pct": d.pct_change()}).round(6))
print(d.shift(1, freq="h").index[:2].tolist())
""",
)
_case(
    "pd_ts_rolling_groupby",
    _SALES
    + """
print(df.sort_values("date").groupby("region")["units"].rolling(2, min_periods=1).sum())
print(df.set_index("date").groupby("product")["units"].resample("MS").sum())
""",
)
_case(
    "pd_ts_asfreq_and_period",
    """
import pandas as pd
s = pd.Series([1, 2, 3], index=pd.to_datetime(["2024-01-01", "2024-01-03", "2024-01-06"]))
print(s.asfreq("D"), s.asfreq("D", method="bfill"), sep="\\n")
p = pd.period_range("2024-01", periods=4, freq="M")
print(p, p.to_timestamp(), pd.Period("2024Q1").end_time, pd.Series([5, 6], index=pd.PeriodIndex(["2024-01", "2024-02"], freq="M")), sep="\\n")
""",
)

# --- pandas: datetimes and time zones ---------------------------------------------------------

_case(
    "pd_dt_to_datetime_formats",
    """
import pandas as pd
print(pd.to_datetime(["2024-03-05", "2024-12-31"]))
print(pd.to_datetime(["05/03/2024", "31/12/2024"], dayfirst=True))
print(pd.to_datetime("2024-03-05 14:30:15.123456"), pd.to_datetime("20240305", format="%Y%m%d"))
print(pd.to_datetime([1_700_000_000, 1_700_086_400], unit="s"), pd.to_datetime(1_700_000_000_123, unit="ms"))
""",
)
_case(
    "pd_dt_to_datetime_errors",
    """
import pandas as pd
print(pd.to_datetime(["2024-01-01", "not a date"], errors="coerce"))
print(pd.to_datetime(pd.Series(["2024-02-30", "2024-02-29"]), errors="coerce"))
pd.to_datetime(["2024-01-01", "garbage"])
""",
)
_case(
    "pd_dt_mixed_and_iso",
    """
import pandas as pd
print(pd.to_datetime(["2024-01-01T10:00:00Z", "2024-06-01T12:30:00+02:00"], utc=True))
print(pd.to_datetime(["2024-01-01", "Jan 5 2024", "2024/02/03"], format="mixed"))
print(pd.to_datetime("March 7, 2024 5pm"), pd.to_datetime("2024-W10-1", format="%G-W%V-%u"))
""",
)
_case(
    "pd_dt_tz_localize_convert",
    """
import pandas as pd
ts = pd.Timestamp("2024-03-31 01:30")
paris = ts.tz_localize("Europe/Paris")
print(paris, paris.tz_convert("America/New_York"), paris.tz_convert("UTC"), paris.utcoffset())
idx = pd.date_range("2024-03-30 22:00", periods=6, freq="h", tz="Europe/Paris")
print(idx)
print(idx.tz_convert("UTC").strftime("%Y-%m-%d %H:%M %Z").tolist())
""",
)
_case(
    "pd_dt_dst_nonexistent_ambiguous",
    """
import pandas as pd
s = pd.Series(pd.to_datetime(["2024-03-10 02:30", "2024-11-03 01:30"]))
print(s.dt.tz_localize("America/New_York", nonexistent="shift_forward", ambiguous="NaT"))
print(pd.Timestamp("2024-10-27 02:30").tz_localize("Europe/Paris", ambiguous=True))
pd.Timestamp("2024-03-31 02:30").tz_localize("Europe/Paris")
""",
)
_case(
    "pd_dt_tz_aware_arithmetic",
    """
import pandas as pd
start = pd.Timestamp("2024-03-09 12:00", tz="America/New_York")
print(start + pd.Timedelta(days=1), start + pd.DateOffset(days=1), (start + pd.Timedelta(hours=24)).utcoffset())
print(pd.date_range("2024-10-26", periods=3, freq="D", tz="Europe/Paris").tz_convert("UTC"))
print(pd.Timestamp("2024-06-01 12:00", tz="UTC").tz_convert("Asia/Kolkata"), pd.Timestamp("2024-06-01", tz="Australia/Sydney").tzname())
""",
)
_case(
    "pd_dt_zoneinfo",
    """
import pandas as pd, datetime, zoneinfo
tz = zoneinfo.ZoneInfo("Europe/Berlin")
print(pd.Timestamp(datetime.datetime(2024, 7, 1, 9, 0, tzinfo=tz)))
print(pd.date_range("2024-03-30", periods=3, freq="D", tz=tz))
print(type(pd.Timestamp("2024-07-01 09:00", tz="Europe/Berlin").tz).__module__)
""",
)
_case(
    "pd_dt_date_range_variants",
    """
import pandas as pd
print(pd.date_range("2024-01-31", periods=4, freq="ME"), pd.date_range("2024-01-01", "2024-01-10", freq="B"))
print(pd.date_range(end="2024-12-31", periods=3, freq="QS"), pd.bdate_range("2024-12-20", "2024-12-31"))
print(pd.date_range("2024-01-01", periods=3, freq="W-MON"), pd.timedelta_range("1 day", periods=3, freq="12h"))
""",
)
_case(
    "pd_dt_accessor",
    """
import pandas as pd
s = pd.Series(pd.to_datetime(["2024-02-29 13:45:10", "2023-12-31 23:59:59", "2024-07-04 00:00:00"]))
print(pd.DataFrame({"year": s.dt.year, "month": s.dt.month, "day": s.dt.day, "dow": s.dt.dayofweek, "name": s.dt.day_name(),
                    "quarter": s.dt.quarter, "doy": s.dt.dayofyear, "week": s.dt.isocalendar().week, "leap": s.dt.is_leap_year}))
print(s.dt.floor("h"), s.dt.round("D"), s.dt.to_period("M"), s.dt.strftime("%d %b %Y").tolist(), s.dt.date.tolist(), sep="\\n")
""",
)
_case(
    "pd_dt_month_end_offsets",
    """
import pandas as pd
from pandas.tseries.offsets import MonthEnd, BDay, YearBegin
t = pd.Timestamp("2024-01-31")
print(t + MonthEnd(1), t + pd.DateOffset(months=1), t + BDay(3), t - YearBegin(1), t + pd.offsets.Week(weekday=4))
print(pd.Timestamp("2024-02-15").is_month_end, (pd.Timestamp("2024-02-15") + MonthEnd(0)).day, t.days_in_month)
""",
)
_case(
    "pd_dt_tz_series_to_csv",
    """
import pandas as pd
df = pd.DataFrame({"when": pd.date_range("2024-06-01 09:00", periods=3, freq="90min", tz="America/New_York"), "v": [1, 2, 3]})
df.to_csv("pd_dt_tz_series_to_csv.csv", index=False)
print(open("pd_dt_tz_series_to_csv.csv").read())
back = pd.read_csv("pd_dt_tz_series_to_csv.csv", parse_dates=["when"])
print(back.dtypes, back["when"].dt.tz_convert("Europe/Paris"), sep="\\n")
""",
)
_case(
    "pd_dt_historical_tz",
    """
import pandas as pd
print(pd.Timestamp("1900-01-01 12:00", tz="Europe/Paris").utcoffset(), pd.Timestamp("1950-06-01", tz="America/New_York").utcoffset())
print(pd.Timestamp("2037-07-01", tz="Europe/Paris").utcoffset(), pd.Timestamp("2100-01-01", tz="America/Sao_Paulo").utcoffset())
""",
)

# --- pandas: string methods -------------------------------------------------------------------

_case(
    "pd_str_basic",
    """
import pandas as pd
s = pd.Series(["  Alice Smith ", "bob JONES", None, "Carol  de la Cruz"])
print(s.str.strip().str.title(), s.str.lower().str.contains("o"), s.str.len(), s.str.split().str[0], sep="\\n")
""",
)
_case(
    "pd_str_extract_regex",
    """
import pandas as pd
s = pd.Series(["order-123 (EUR 45.10)", "order-7 (USD 3.00)", "bad line"])
print(s.str.extract(r"order-(?P<id>\\d+) \\((?P<cur>[A-Z]{3}) (?P<amt>[\\d.]+)\\)"))
print(s.str.findall(r"\\d+"), s.str.replace(r"\\d", "#", regex=True), s.str.match(r"order"), sep="\\n")
""",
)
_case(
    "pd_str_split_expand_cat",
    """
import pandas as pd
s = pd.Series(["a,b,c", "d,e", "f"])
print(s.str.split(",", expand=True), s.str.cat(sep="|"), s.str.get_dummies(sep=","), sep="\\n")
print(s.str.pad(6, fillchar="*"), s.str.zfill(6), s.str.slice(0, 3), s.str.rsplit(",", n=1).tolist(), sep="\\n")
""",
)
_case(
    "pd_str_unicode_and_case",
    """
import pandas as pd
s = pd.Series(["Straße", "ÉCOLE", "naïve café", "İstanbul"])
print(s.str.upper(), s.str.casefold(), s.str.normalize("NFKD").str.encode("ascii", "ignore").str.decode("ascii"), s.str.len(), sep="\\n")
""",
)
_case(
    "pd_str_startswith_count_repeat",
    """
import pandas as pd
s = pd.Series(["apple pie", "banana split", "cherry tart", "apple crumble"], dtype="string")
print(s.str.startswith("apple"), s.str.count("a"), s.str.repeat(2).str.len(), s.str.wrap(6), s.str.isalpha(), sep="\\n")
""",
)
_case(
    "pd_str_accessor_error",
    """
import pandas as pd
pd.Series([1, 2, 3]).str.upper()
""",
)

# --- pandas: categorical ----------------------------------------------------------------------

_case(
    "pd_cat_basic",
    """
import pandas as pd
sizes = pd.Categorical(["M", "S", "L", "M", "XL"], categories=["S", "M", "L", "XL"], ordered=True)
s = pd.Series(sizes)
print(s, s.cat.codes.tolist(), s.max(), (s > "M").tolist(), s.value_counts(sort=False), sep="\\n")
""",
)
_case(
    "pd_cat_astype_and_memory",
    """
import pandas as pd
s = pd.Series(["red", "green", "red", "blue"] * 1000)
c = s.astype("category")
print(c.cat.categories.tolist(), c.dtype, c.memory_usage(deep=True) < s.memory_usage(deep=True), c.cat.codes.nbytes)
print(c.cat.rename_categories(str.upper).unique(), c.cat.add_categories("pink").cat.categories.tolist(), sep="\\n")
""",
)
_case(
    "pd_cat_groupby_and_sort",
    """
import pandas as pd
df = pd.DataFrame({"grade": pd.Categorical(["b", "a", "c", "a"], categories=["c", "b", "a"], ordered=True), "v": [1, 2, 3, 4]})
print(df.sort_values("grade"), df.groupby("grade", observed=False)["v"].sum(), sep="\\n")
""",
)
_case(
    "pd_cat_set_invalid",
    """
import pandas as pd
s = pd.Series(pd.Categorical(["a", "b"]))
s[0] = "z"
""",
)
_case(
    "pd_cat_union_and_remove",
    """
import pandas as pd
from pandas.api.types import union_categoricals
a = pd.Categorical(["x", "y"])
b = pd.Categorical(["z", "x"])
u = union_categoricals([a, b])
print(u, u.remove_unused_categories(), pd.Series(u).cat.remove_categories(["z"]).tolist(), pd.Categorical(["b", "a"]).reorder_categories(["b", "a"]), sep="\\n")
""",
)

# --- pandas: missing data ---------------------------------------------------------------------

_case(
    "pd_na_fillna_dropna",
    """
import pandas as pd, numpy as np
df = pd.DataFrame({"a": [1.0, np.nan, 3.0, np.nan], "b": [np.nan, "x", "y", None], "c": [1, 2, 3, 4]})
print(df.isna(), df.dropna(), df.dropna(subset=["a"]), df.dropna(axis=1), df.fillna({"a": df["a"].mean(), "b": "?"}), sep="\\n")
""",
)
_case(
    "pd_na_ffill_bfill_interpolate",
    """
import pandas as pd, numpy as np
s = pd.Series([np.nan, 1.0, np.nan, np.nan, 4.0, np.nan])
print(pd.DataFrame({"ffill": s.ffill(), "bfill": s.bfill(), "linear": s.interpolate(), "limit": s.interpolate(limit=1),
                    "both": s.interpolate(limit_direction="both")}))
t = pd.Series([1.0, np.nan, 10.0], index=pd.to_datetime(["2024-01-01", "2024-01-02", "2024-01-11"]))
print(t.interpolate(method="time"), s.interpolate(method="nearest") if False else s.fillna(0).tolist(), sep="\\n")
""",
)
_case(
    "pd_na_fillna_method_deprecated",
    """
import pandas as pd, numpy as np
s = pd.Series([1.0, np.nan, 3.0])
print(s.fillna(method="ffill"))
""",
)
_case(
    "pd_na_pd_na_semantics",
    """
import pandas as pd
print(pd.NA | True, pd.NA & False, pd.NA + 1, pd.isna(pd.NA), pd.NA == pd.NA)
print(pd.Series([1, pd.NA], dtype="Int64") + 1, pd.NaT + pd.Timedelta("1D"), sep="\\n")
bool(pd.NA)
""",
)
_case(
    "pd_na_counting_and_replace",
    """
import pandas as pd, numpy as np
df = pd.DataFrame({"x": [1, -999, 3, -999], "y": ["", "a", "n/a", "b"]})
clean = df.replace({-999: np.nan, "": np.nan, "n/a": np.nan})
print(clean, clean.isna().sum(), clean.notna().all(axis=1).tolist(), clean["x"].mean(), clean.count(), sep="\\n")
""",
)
_case(
    "pd_na_interpolate_polynomial_and_spline_requires_scipy",
    """
import pandas as pd, numpy as np
s = pd.Series([0.0, np.nan, 4.0, np.nan, 16.0])
print(s.interpolate(method="index").tolist())
s.interpolate(method="polynomial", order=2)
""",
)

# --- pandas: statistics -----------------------------------------------------------------------

_case(
    "pd_stats_describe",
    _SALES
    + """
print(df.describe())
print(df.describe(include="object"))
print(df["date"].describe())
""",
)
_case(
    "pd_stats_value_counts",
    _SALES
    + """
print(df["region"].value_counts())
print(df["region"].value_counts(normalize=True).round(4), df[["region", "product"]].value_counts(), sep="\\n")
print(pd.Series([3, 1, 2, 3, 3, 1]).value_counts(bins=2, sort=False))
""",
)
_case(
    "pd_stats_corr_cov",
    """
import pandas as pd, numpy as np
rng = np.random.default_rng(10)
df = pd.DataFrame(rng.normal(size=(50, 3)), columns=["a", "b", "c"])
df["d"] = df["a"] * 2 + df["b"]
print(df.corr().round(8), df.cov().round(8), df.corr(method="spearman").round(8), sep="\\n")
print(round(df["a"].corr(df["d"]), 8), df.corrwith(df["a"]).round(8).tolist())
""",
)
_case(
    "pd_stats_quantile_and_moments",
    _SALES
    + """
print(df["revenue"].quantile([0.1, 0.5, 0.9]), df[["units", "price"]].quantile(0.75), sep="\\n")
print(round(df["units"].skew(), 8), round(df["units"].kurt(), 8), df["units"].mad() if hasattr(df["units"], "mad") else "no mad", df["units"].sem().round(8))
print(df["units"].mode().tolist(), df["revenue"].agg(["sum", "mean", "median", "std", "var"]).round(8).tolist())
""",
)
_case(
    "pd_stats_cumulative_and_clip",
    _SALES
    + """
print(df[["units", "revenue"]].cumsum().tail(2), df["units"].cummax().tolist(), df["units"].clip(5, 10).tolist(), sep="\\n")
print(df["revenue"].idxmax(), df.loc[df["revenue"].idxmin(), "region"], df.select_dtypes("number").sum().round(4).to_dict())
""",
)

# --- pandas: sorting and ranking --------------------------------------------------------------

_case(
    "pd_sort_ties_default_quicksort",
    """
import pandas as pd
s = pd.Series(list("abcabcdeffgghhi"))
print(s.value_counts().to_dict())
print(s.value_counts(ascending=True).index.tolist())
df = pd.DataFrame({"k": [2, 1, 2, 1, 2, 1, 2, 1] * 4, "id": range(32)})
print(df.sort_values("k")["id"].tolist())
""",
)
_case(
    "pd_sort_values_multi",
    _SALES
    + """
print(df.sort_values(["region", "units"], ascending=[True, False])[["region", "units", "product"]])
print(df.sort_values("price", kind="stable")["units"].tolist(), df.sort_index(ascending=False).index.tolist())
""",
)
_case(
    "pd_sort_rank_methods",
    """
import pandas as pd
s = pd.Series([7, 3, 7, 1, 3, 9], index=list("abcdef"))
print(pd.DataFrame({m: s.rank(method=m) for m in ["average", "min", "max", "first", "dense"]}))
print(s.rank(pct=True).round(4).tolist(), s.rank(ascending=False, method="dense").astype(int).tolist())
""",
)
_case(
    "pd_sort_nlargest_nsmallest",
    """
import pandas as pd
df = pd.DataFrame({"team": list("ABCDEFG"), "pts": [30, 45, 45, 12, 8, 45, 30]})
print(df.nlargest(3, "pts"), df.nlargest(3, "pts", keep="all"), df.nsmallest(2, "pts"), sep="\\n")
""",
)
_case(
    "pd_sort_key_and_na_position",
    """
import pandas as pd, numpy as np
df = pd.DataFrame({"name": ["bob", "Alice", "carl", None], "v": [2.0, np.nan, 1.0, 3.0]})
print(df.sort_values("name", key=lambda c: c.str.lower(), na_position="first"))
print(df.sort_values("v", na_position="last", ascending=False))
""",
)

# --- pandas: CSV ------------------------------------------------------------------------------

_case(
    "pd_csv_roundtrip",
    _SALES
    + """
df.to_csv("pd_csv_roundtrip.csv", index=False)
print(open("pd_csv_roundtrip.csv").read())
back = pd.read_csv("pd_csv_roundtrip.csv", parse_dates=["date"])
print(back.dtypes, back.equals(df), sep="\\n")
""",
)
_case(
    "pd_csv_options",
    """
import pandas as pd
with open("pd_csv_options.csv", "w") as f:
    f.write("# comment line\\nid;amount;when;note\\n1;1.234,5;05.03.2024;ok\\n2;;06.03.2024;NA\\n3;99,0;07.03.2024;\\"semi;colon\\"\\n")
df = pd.read_csv("pd_csv_options.csv", sep=";", decimal=",", thousands=".", comment="#", parse_dates=["when"], dayfirst=True, na_values=["NA"])
print(df, df.dtypes, sep="\\n")
print(pd.read_csv("pd_csv_options.csv", sep=";", comment="#", usecols=["id", "note"], dtype={"id": "int16"}, nrows=2))
""",
)
_case(
    "pd_csv_float_precision",
    """
import pandas as pd, numpy as np
df = pd.DataFrame({"x": [0.1, 1 / 3, 1e-20, 123456789.123456789, np.pi]})
df.to_csv("pd_csv_float_precision.csv", index=False)
print(open("pd_csv_float_precision.csv").read())
print(pd.read_csv("pd_csv_float_precision.csv")["x"].tolist())
print(pd.read_csv("pd_csv_float_precision.csv", float_precision="round_trip")["x"].equals(df["x"]))
df.to_csv("pd_csv_float_precision2.csv", float_format="%.3f")
print(open("pd_csv_float_precision2.csv").read())
""",
)
_case(
    "pd_csv_chunks_and_python_engine",
    """
import pandas as pd
pd.DataFrame({"n": range(10), "sq": [i * i for i in range(10)]}).to_csv("pd_csv_chunks_and_python_engine.csv", index=False)
print([len(c) for c in pd.read_csv("pd_csv_chunks_and_python_engine.csv", chunksize=4)])
print(pd.read_csv("pd_csv_chunks_and_python_engine.csv", engine="python", skipfooter=7))
print(pd.read_csv("pd_csv_chunks_and_python_engine.csv", skiprows=[1, 2], header=0).head(2))
""",
)
_case(
    "pd_csv_compression_and_encoding",
    """
import pandas as pd
df = pd.DataFrame({"city": ["Zürich", "São Paulo", "Kraków"], "pop": [421878, 12325232, 779115]})
df.to_csv("pd_csv_compression.csv.gz", index=False)
df.to_csv("pd_csv_compression_latin1.csv", index=False, encoding="latin-1", errors="replace")
print(pd.read_csv("pd_csv_compression.csv.gz"), pd.read_csv("pd_csv_compression_latin1.csv", encoding="latin-1"), sep="\\n")
df.to_csv("pd_csv_compression.zip", index=False)
print(pd.read_csv("pd_csv_compression.zip").shape)
""",
)
_case(
    "pd_csv_bad_lines",
    """
import pandas as pd, io
text = "a,b\\n1,2\\n3,4,5\\n6,7\\n"
print(pd.read_csv(io.StringIO(text), on_bad_lines="skip"))
pd.read_csv(io.StringIO(text))
""",
)

# --- pandas: JSON -----------------------------------------------------------------------------

_case(
    "pd_json_orients",
    """
import pandas as pd
df = pd.DataFrame({"id": [1, 2], "name": ["a", "b"], "score": [0.5, 1 / 3]})
for orient in ["records", "split", "index", "columns", "values", "table"]:
    print(orient, df.to_json(orient=orient))
""",
)
_case(
    "pd_json_roundtrip_file",
    """
import pandas as pd
df = pd.DataFrame({"when": pd.to_datetime(["2024-01-01 00:00", "2024-06-30 12:00"]), "v": [1.5, None], "tag": ["x", "y"]})
df.to_json("pd_json_roundtrip_file.json", orient="records", date_format="iso", lines=True)
print(open("pd_json_roundtrip_file.json").read())
back = pd.read_json("pd_json_roundtrip_file.json", lines=True, convert_dates=["when"])
print(back, back.dtypes, sep="\\n")
""",
)
_case(
    "pd_json_normalize",
    """
import pandas as pd
data = [{"id": 1, "user": {"name": "Ann", "geo": {"lat": 59.9, "lon": 10.7}}, "tags": [{"t": "x"}, {"t": "y"}]},
        {"id": 2, "user": {"name": "Bo"}, "tags": []}]
print(pd.json_normalize(data))
print(pd.json_normalize(data, record_path="tags", meta=["id", ["user", "name"]]))
""",
)
_case(
    "pd_json_read_stringio",
    """
import pandas as pd, io
text = '{"a": {"0": 1, "1": 2}, "b": {"0": "x", "1": null}}'
print(pd.read_json(io.StringIO(text)))
print(pd.Series([1.0, 2.5], index=["p", "q"]).to_json(), pd.DataFrame({"t": pd.to_datetime(["2024-01-01"])}).to_json())
print(pd.read_json(io.StringIO('[{"x": 1e400}, {"x": 12345678901234567890}]')))
""",
)

# --- pandas: Excel via openpyxl ---------------------------------------------------------------

_case(
    "pd_excel_roundtrip",
    _SALES
    + """
df.to_excel("pd_excel_roundtrip.xlsx", index=False, sheet_name="sales")
back = pd.read_excel("pd_excel_roundtrip.xlsx", sheet_name="sales")
print(back, back.dtypes, sep="\\n")
print(back.equals(df))
""",
)
_case(
    "pd_excel_multiple_sheets",
    """
import pandas as pd
with pd.ExcelWriter("pd_excel_multiple_sheets.xlsx", engine="openpyxl") as w:
    pd.DataFrame({"a": [1, 2]}).to_excel(w, sheet_name="one", index=False)
    pd.DataFrame({"b": ["x", "y"], "c": [0.5, None]}).to_excel(w, sheet_name="two", startrow=1)
sheets = pd.read_excel("pd_excel_multiple_sheets.xlsx", sheet_name=None)
print(list(sheets))
for name, frame in sheets.items():
    print(name, frame, sep="\\n")
print(pd.read_excel("pd_excel_multiple_sheets.xlsx", sheet_name="two", header=1, index_col=0))
""",
)
_case(
    "pd_excel_openpyxl_inspect",
    """
import pandas as pd, openpyxl, datetime
pd.DataFrame({"d": [datetime.date(2024, 2, 29)], "t": [pd.Timestamp("2024-03-01 08:15")], "n": [1234.5]}).to_excel("pd_excel_openpyxl_inspect.xlsx", index=False)
ws = openpyxl.load_workbook("pd_excel_openpyxl_inspect.xlsx").active
print([[c.value for c in row] for row in ws.iter_rows()])
print(pd.read_excel("pd_excel_openpyxl_inspect.xlsx").dtypes.tolist())
""",
)
_case(
    "pd_excel_missing_sheet",
    """
import pandas as pd
pd.DataFrame({"a": [1]}).to_excel("pd_excel_missing_sheet.xlsx")
pd.read_excel("pd_excel_missing_sheet.xlsx", sheet_name="nope")
""",
)

# --- pandas: parsing text from StringIO -------------------------------------------------------

_case(
    "pd_io_stringio_csv",
    """
import pandas as pd, io
raw = \"\"\"date,store,sales
2024-01-01,A,100
2024-01-01,B,80
2024-01-02,A,120
2024-01-02,B,
\"\"\"
df = pd.read_csv(io.StringIO(raw), parse_dates=["date"])
print(df, df.dtypes, df.pivot(index="date", columns="store", values="sales"), sep="\\n")
""",
)
_case(
    "pd_io_fixed_width_and_table",
    """
import pandas as pd, io
fwf = "name  qty price\\napple   3  0.50\\npear   12  1.25\\n"
print(pd.read_fwf(io.StringIO(fwf)))
print(pd.read_table(io.StringIO("a\\tb\\n1\\t2\\n3\\t4\\n")))
print(pd.read_csv(io.StringIO("a  b   c\\n1  2   3\\n"), sep=r"\\s+"))
""",
)
_case(
    "pd_io_to_string_html_latex_markdown",
    """
import pandas as pd
df = pd.DataFrame({"x": [1, 2], "y": [0.5, 0.25]})
print(df.to_string())
print(df.to_html(index=False))
print(df.to_csv(sep="\\t"))
print(df.style.__class__.__name__ if False else df.to_records())
""",
)
_case(
    "pd_io_pickle_and_clipboardless",
    """
import pandas as pd
df = pd.DataFrame({"a": [1, 2], "t": pd.to_datetime(["2024-01-01", "2024-01-02"])})
df.to_pickle("pd_io_pickle.pkl")
print(pd.read_pickle("pd_io_pickle.pkl").equals(df))
df.to_pickle("pd_io_pickle.pkl.bz2")
print(pd.read_pickle("pd_io_pickle.pkl.bz2").equals(df))
""",
)

# --- pandas: apply, map, lambdas --------------------------------------------------------------

_case(
    "pd_apply_rowwise",
    _SALES
    + """
df["label"] = df.apply(lambda r: f"{r['region'][:1].upper()}{r['units']:03d}", axis=1)
print(df["label"].tolist())
print(df[["units", "price"]].apply(lambda col: col.max() - col.min()))
print(df[["units", "price"]].apply(lambda r: r["units"] * r["price"], axis=1).sum())
""",
)
_case(
    "pd_apply_map_and_applymap",
    """
import pandas as pd
df = pd.DataFrame({"a": [1, 2], "b": [3.14159, 2.71828]})
print(df.map(lambda v: round(v * 2, 2)), df["a"].map({1: "one", 2: "two"}), df["b"].map("{:.1f}".format), sep="\\n")
print(df.applymap(lambda v: v + 1))
""",
)
_case(
    "pd_apply_assign_pipe_eval",
    _SALES
    + """
res = (df.assign(unit_price=lambda d: d["revenue"] / d["units"], big=lambda d: d["units"] >= 10)
         .pipe(lambda d: d[d["big"]])
         .eval("double = units * 2"))
print(res[["region", "unit_price", "double"]])
print(df.eval("units.sum() / 2"), pd.eval("1 + 2 * 3"))
""",
)
_case(
    "pd_apply_result_type_and_errors",
    """
import pandas as pd
df = pd.DataFrame({"x": [1, 2, 3]})
print(df.apply(lambda r: [r["x"], r["x"] ** 2], axis=1, result_type="expand"))
print(df["x"].apply(lambda v: pd.Series({"half": v / 2, "neg": -v})))
df["x"].apply(lambda v: 10 / (v - 2))
""",
)

# --- pandas: MultiIndex -----------------------------------------------------------------------

_case(
    "pd_multi_index_basic",
    """
import pandas as pd
idx = pd.MultiIndex.from_product([["2023", "2024"], ["Q1", "Q2"]], names=["year", "quarter"])
s = pd.Series([10, 12, 15, 11], index=idx)
print(s, s.loc["2024"], s.xs("Q1", level="quarter"), s.groupby(level="year").sum(), sep="\\n")
""",
)
_case(
    "pd_multi_index_frame_columns",
    _SALES
    + """
g = df.groupby(["region", "product"]).agg({"units": ["sum", "max"], "revenue": "mean"})
print(g)
g.columns = ["_".join(c) for c in g.columns]
print(g.reset_index().head(3))
print(g.swaplevel().sort_index().index.tolist())
""",
)
_case(
    "pd_multi_index_slicing",
    """
import pandas as pd, numpy as np
idx = pd.MultiIndex.from_tuples([("a", 1), ("a", 2), ("b", 1), ("b", 3), ("c", 2)], names=["L", "N"])
df = pd.DataFrame({"v": np.arange(5) * 1.5}, index=idx)
print(df.loc[("a", 2)], df.loc[pd.IndexSlice["a":"b", 1], :], df.loc[(slice(None), 2), "v"].tolist(), sep="\\n")
print(df.index.get_level_values("L").unique().tolist(), df.index.levels[1].tolist(), df.unstack("N"), sep="\\n")
""",
)
_case(
    "pd_multi_index_from_arrays_and_stack",
    """
import pandas as pd
cols = pd.MultiIndex.from_arrays([["temp", "temp", "rain"], ["min", "max", "mm"]])
df = pd.DataFrame([[1.5, 9.0, 0.0], [-2.0, 4.5, 3.2]], index=["mon", "tue"], columns=cols)
print(df, df["temp"], df.stack(level=0, future_stack=True), df.droplevel(1, axis=1).columns.tolist(), sep="\\n")
""",
)
_case(
    "pd_multi_index_rename_and_sort_unsorted",
    """
import pandas as pd
idx = pd.MultiIndex.from_tuples([("b", 2), ("a", 1), ("b", 1)])
s = pd.Series([1, 2, 3], index=idx)
print(s.sort_index(), s.rename_axis(["letter", "num"]).reset_index(), sep="\\n")
print(s.loc["b"])
""",
)

# --- pandas: cut and qcut ---------------------------------------------------------------------

_case(
    "pd_cut_basic",
    """
import pandas as pd
ages = pd.Series([3, 17, 18, 25, 40, 64, 65, 90])
groups = pd.cut(ages, bins=[0, 17, 64, 120], labels=["child", "adult", "senior"])
print(groups.tolist(), groups.value_counts().sort_index().tolist())
print(pd.cut(ages, 3), pd.cut(ages, 3, retbins=True)[1], sep="\\n")
""",
)
_case(
    "pd_cut_right_and_include_lowest",
    """
import pandas as pd
x = [0, 5, 10, 15, 20]
print(pd.cut(x, [0, 10, 20]), pd.cut(x, [0, 10, 20], right=False), pd.cut(x, [0, 10, 20], include_lowest=True), sep="\\n")
""",
)
_case(
    "pd_cut_qcut",
    """
import pandas as pd, numpy as np
rng = np.random.default_rng(3)
income = pd.Series(rng.lognormal(10, 0.5, 200).round(2))
q = pd.qcut(income, 4, labels=["Q1", "Q2", "Q3", "Q4"])
print(q.value_counts().sort_index(), income.groupby(q, observed=True).mean().round(4), sep="\\n")
print(pd.qcut(range(10), [0, 0.1, 0.5, 0.9, 1.0]).categories)
""",
)
_case(
    "pd_cut_qcut_duplicates",
    """
import pandas as pd
print(pd.qcut([1, 1, 1, 1, 2, 3], 3, duplicates="drop"))
pd.qcut([1, 1, 1, 1, 2, 3], 3)
""",
)

# --- pandas: Timestamp and Timedelta ----------------------------------------------------------

_case(
    "pd_time_timestamp_arith",
    """
import pandas as pd
a = pd.Timestamp("2024-02-28 22:00")
b = pd.Timestamp("2024-03-01 06:30")
print(b - a, (b - a).total_seconds(), (b - a) // pd.Timedelta("1h"), a + pd.Timedelta(hours=3), a.normalize(), a.isoformat())
print(a.day_name(), a.month_name(), a.week, a.quarter, a.to_period("W"), a.timestamp(), a.value)
""",
)
_case(
    "pd_time_timedelta",
    """
import pandas as pd
td = pd.Timedelta("1 days 02:03:04.5")
print(td, td.components, td.total_seconds(), td.days, td.seconds, td * 3, td / 4, -td, abs(-td))
print(pd.to_timedelta(["1h", "90min", "2 days", "00:00:30"]), pd.to_timedelta(3.5, unit="D"), pd.Timedelta(1, "W").isoformat())
""",
)
_case(
    "pd_time_limits_and_errors",
    """
import pandas as pd
print(pd.Timestamp.min, pd.Timestamp.max, pd.Timedelta.max)
print(pd.Timestamp("2262-04-11") if False else pd.Timestamp("1800-01-01").unit if hasattr(pd.Timestamp("1800-01-01"), "unit") else "")
pd.Timestamp("2300-01-01").as_unit("ns")
""",
)
_case(
    "pd_time_series_diff_and_business",
    """
import pandas as pd
s = pd.Series(pd.to_datetime(["2024-01-01 08:00", "2024-01-01 17:30", "2024-01-03 09:15"]))
gaps = s.diff()
print(gaps, gaps.dt.total_seconds() / 3600, gaps.mean(), gaps.sum(), sep="\\n")
import numpy as np
print(np.busday_count(s.dt.date.iloc[0], s.dt.date.iloc[-1]), (s.iloc[-1] - s.iloc[0]).round("h"))
""",
)
_case(
    "pd_time_datetime_interop",
    """
import pandas as pd, datetime, numpy as np
ts = pd.Timestamp("2024-05-17 10:20:30.123456789")
print(ts.to_pydatetime(warn=False), ts.to_datetime64(), ts.nanosecond, ts.strftime("%A %d %B %Y %H:%M:%S.%f"))
print(pd.Timestamp(datetime.date(2024, 5, 17)), pd.Timestamp(np.datetime64("2024-05-17T00:00:01")), ts.floor("min"), ts.ceil("s"))
print(pd.Timestamp(2024, 5, 17, 9) == datetime.datetime(2024, 5, 17, 9), ts.replace(year=2020, nanosecond=0), ts.to_julian_date())
""",
)
_case(
    "pd_time_interval_and_period_arith",
    """
import pandas as pd
iv = pd.Interval(0, 5, closed="left")
print(iv, 0 in iv, 5 in iv, iv.length, iv.overlaps(pd.Interval(4, 6)), pd.interval_range(0, 20, periods=4))
p = pd.Period("2024-02", freq="M")
print(p + 11, p.days_in_month, p.asfreq("D", how="end"), (pd.Period("2024-12", "M") - p).n, pd.Period("2024-01-01 10:00", "h").end_time)
""",
)

# --- pandas: astype and conversions -----------------------------------------------------------

_case(
    "pd_astype_numeric",
    """
import pandas as pd, numpy as np
s = pd.Series(["1", "2", "x", "4.5"])
print(pd.to_numeric(s, errors="coerce"), pd.to_numeric(pd.Series(["1", "2"]), downcast="integer").dtype, sep="\\n")
print(pd.Series([1.9, -1.9]).astype(int).tolist(), pd.Series([1, 2]).astype("float32").dtype, pd.Series([1.0, np.nan]).astype("Int64").tolist())
pd.Series(["1", "x"]).astype(int)
""",
)
_case(
    "pd_astype_int_default",
    """
import pandas as pd
df = pd.DataFrame({"a": ["1", "2"], "b": [1.0, 2.0]})
out = df.astype({"a": int, "b": int})
print(out.dtypes.tolist(), out.sum().tolist(), pd.Series([3_000_000_000.0]).astype(int).tolist())
""",
)
_case(
    "pd_astype_float_nan_to_int_error",
    """
import pandas as pd, numpy as np
pd.Series([1.0, np.nan]).astype(int)
""",
)
_case(
    "pd_astype_strings_and_bools",
    """
import pandas as pd
s = pd.Series([1.5, 2.0, None])
print(s.astype(str).tolist(), s.astype("string").tolist(), pd.Series(["True", "False"]).astype(bool).tolist(), pd.Series([0, 1, 2]).astype(bool).tolist())
print(pd.Series(["2024-01-01", "2024-02-01"]).astype("datetime64[ns]"), pd.Series([1_700_000_000], dtype="int64").astype("datetime64[s]"), sep="\\n")
""",
)
_case(
    "pd_astype_infer_objects_and_downcast",
    """
import pandas as pd
df = pd.DataFrame({"a": pd.Series([1, 2], dtype=object), "b": pd.Series(["x", 3], dtype=object)})
print(df.dtypes.tolist(), df.infer_objects().dtypes.tolist(), pd.to_numeric(pd.Series([1.0, 2.0]), downcast="float").dtype)
print(pd.Series([1, 2, 3]).astype("category").cat.codes.dtype, pd.Series([1, 2]).astype("Int8").dtype, pd.Series(["a"]).astype("object").dtype)
""",
)
_case(
    "pd_astype_to_numpy_and_values",
    """
import pandas as pd, numpy as np
df = pd.DataFrame({"a": [1, 2], "b": [0.5, 1.5]})
arr = df.to_numpy()
print(arr, arr.dtype, df.values.shape, df["a"].to_numpy().dtype, df.to_numpy(dtype=np.float32).dtype)
print(pd.Series([1, None], dtype="Int64").to_numpy(dtype="float64", na_value=np.nan), np.asarray(pd.Series([True, False])).dtype)
""",
)

# --- pandas and friends: versions and metadata ------------------------------------------------

_case(
    "pd_meta_versions",
    """
import importlib.metadata
import pandas as pd, numpy as np
print(importlib.metadata.version("pandas"), pd.__version__, importlib.metadata.version("numpy"))
print(pd.__version__ == importlib.metadata.version("pandas"))
""",
)
_case(
    "pd_meta_show_versions_fields",
    """
import pandas as pd
from pandas.util._print_versions import _get_dependency_info
deps = _get_dependency_info()
print({k: deps[k] for k in ["pandas", "numpy"]})
""",
)
_case(
    "pd_meta_optional_dependencies",
    """
import importlib
for name in ["openpyxl", "pytz", "dateutil", "tzdata"]:
    try:
        importlib.import_module(name)
        print(name, "ok")
    except ImportError as e:
        print(name, "missing", e)
""",
)
_case(
    "pd_meta_unavailable_optional",
    """
import pandas as pd
pd.DataFrame({"a": [1]}).to_parquet("pd_meta_unavailable_optional.parquet")
""",
)

# --- pandas: misc analysis patterns ------------------------------------------------------------

_case(
    "pd_misc_duplicates_and_unique",
    _SALES
    + """
print(df.duplicated(subset=["region"]).tolist(), df.drop_duplicates(subset=["product"], keep="last")[["product", "units"]])
print(df["region"].unique(), df["region"].nunique(), df["product"].factorize()[0].tolist(), sep="\\n")
""",
)
_case(
    "pd_misc_index_ops",
    _SALES
    + """
d = df.set_index("date")
print(d.loc["2024-02"], d.truncate(before="2024-02-01", after="2024-02-15")["units"].tolist(), sep="\\n")
print(d.index.is_monotonic_increasing, d.reset_index()["date"].dt.month.tolist(), df.rename(columns=str.upper).columns.tolist())
""",
)
_case(
    "pd_misc_large_frame_ops",
    """
import pandas as pd, numpy as np
rng = np.random.default_rng(123)
n = 20_000
df = pd.DataFrame({"g": rng.integers(0, 50, n), "x": rng.normal(size=n), "y": rng.random(n)})
agg = df.groupby("g").agg(x_mean=("x", "mean"), y_sum=("y", "sum"), n=("x", "size"))
print(agg.round(8).head(), agg["n"].sum(), round(df["x"].std(), 8), sep="\\n")
m = df.merge(agg, left_on="g", right_index=True)
print(m.shape, round(float((m["x"] - m["x_mean"]).abs().mean()), 8))
""",
)
_case(
    "pd_misc_window_dataframe_and_corr_rolling",
    """
import pandas as pd, numpy as np
rng = np.random.default_rng(4)
df = pd.DataFrame(rng.normal(size=(30, 2)).cumsum(axis=0), columns=["a", "b"], index=pd.date_range("2024-01-01", periods=30))
print(df.rolling(10).corr().dropna().round(6).tail(4), df["a"].rolling(5).cov(df["b"]).round(6).iloc[-3:].tolist(), sep="\\n")
""",
)
_case(
    "pd_misc_compare_and_equals",
    """
import pandas as pd
a = pd.DataFrame({"x": [1, 2, 3], "y": ["a", "b", "c"]})
b = a.copy()
b.loc[1, "x"] = 20
b.loc[2, "y"] = "z"
print(a.compare(b), a.equals(b), (a == b).all().tolist(), sep="\\n")
import pandas.testing as pdt
pdt.assert_frame_equal(a, b)
""",
)
_case(
    "pd_misc_iterate_rows",
    _SALES
    + """
for row in df.head(3).itertuples(index=False):
    print(row.region, row.units, round(row.revenue, 2))
for i, r in df.tail(2).iterrows():
    print(i, r["product"], r["date"].date())
print([(k, len(g)) for k, g in df.groupby("product")])
""",
)
_case(
    "pd_misc_sparse_and_memory",
    """
import pandas as pd, numpy as np
s = pd.Series([0, 0, 1, 0, 2] * 4).astype(pd.SparseDtype("int64", 0))
print(s.sparse.density, s.dtype, s.sparse.to_dense().sum())
print(pd.DataFrame({"a": range(1000)}).memory_usage(index=False).tolist())
""",
)
_case(
    "pd_misc_options_context",
    """
import pandas as pd, numpy as np
df = pd.DataFrame(np.arange(40).reshape(20, 2) / 3)
with pd.option_context("display.max_rows", 6, "display.precision", 2):
    print(df)
print(pd.get_option("display.max_rows"), pd.get_option("display.precision"))
""",
)

# --- more everyday analysis: numpy --------------------------------------------------------------

_case(
    "np_extra_grades_report",
    """
import numpy as np
scores = np.array([[78, 91, 85], [62, 70, 58], [95, 88, 92], [71, 64, 80]])
names = np.array(["ana", "ben", "cy", "dee"])
avg = scores.mean(axis=1)
print(np.round(avg, 2), names[avg.argmax()], names[np.argsort(-avg, kind="stable")], (scores >= 70).all(axis=1))
print(scores.max(axis=0) - scores.min(axis=0), np.round(scores.std(axis=0, ddof=1), 6), np.median(scores, axis=0))
""",
)
_case(
    "np_extra_moving_average",
    """
import numpy as np
x = np.array([3.0, 5.0, 2.0, 8.0, 7.0, 4.0, 6.0, 9.0])
w = 3
print(np.convolve(x, np.ones(w) / w, mode="valid").round(8))
c = np.cumsum(np.insert(x, 0, 0))
print(((c[w:] - c[:-w]) / w).round(8), np.lib.stride_tricks.sliding_window_view(x, w).max(axis=1))
""",
)
_case(
    "np_extra_normalize_and_clip",
    """
import numpy as np
rng = np.random.default_rng(99)
img = rng.integers(0, 256, size=(4, 5)).astype(np.uint8)
f = img.astype(np.float64) / 255
print(img, f.round(4), np.clip(f * 1.5, 0, 1).round(4).max(), (f > 0.5).sum(), sep="\\n")
print(np.interp(img, [0, 255], [-1, 1]).round(6)[0])
""",
)
_case(
    "np_extra_one_hot_and_argmax",
    """
import numpy as np
labels = np.array([2, 0, 1, 2, 1])
one_hot = np.eye(3, dtype=int)[labels]
logits = np.array([[2.0, 1.0, 0.1], [0.5, 2.5, 0.3]])
e = np.exp(logits - logits.max(axis=1, keepdims=True))
print(one_hot, one_hot.argmax(axis=1), (e / e.sum(axis=1, keepdims=True)).round(8), sep="\\n")
""",
)
_case(
    "np_extra_cumulative_returns",
    """
import numpy as np
prices = np.array([100.0, 102.0, 99.0, 105.0, 110.0, 108.0])
returns = np.diff(prices) / prices[:-1]
print(returns.round(8), np.cumprod(1 + returns).round(8), round(returns.mean() / returns.std(ddof=1), 8))
print(round(float(np.prod(1 + returns) ** (1 / len(returns)) - 1), 10), np.maximum.accumulate(prices))
""",
)
_case(
    "np_extra_linear_regression_normal_eq",
    """
import numpy as np
rng = np.random.default_rng(5)
X = np.column_stack([np.ones(50), rng.uniform(0, 10, 50), rng.uniform(-5, 5, 50)])
beta = np.array([1.5, -2.0, 0.75])
y = X @ beta + rng.normal(0, 0.1, 50)
est = np.linalg.solve(X.T @ X, X.T @ y)
print(est.round(6), np.linalg.lstsq(X, y, rcond=None)[0].round(6))
r2 = 1 - ((y - X @ est) ** 2).sum() / ((y - y.mean()) ** 2).sum()
print(round(r2, 6))
""",
)
_case(
    "np_extra_where_select",
    """
import numpy as np
temps = np.array([-5, 3, 12, 25, 31, 18])
print(np.select([temps < 0, temps < 15, temps < 28], ["freezing", "cold", "mild"], default="hot"))
print(np.where(temps > 20, "warm", "cool"), np.searchsorted([0, 15, 28], temps, side="right"))
""",
)
_case(
    "np_extra_integer_stats_large",
    """
import numpy as np
a = np.arange(1, 200_001)
print(a.sum(), a.mean(), (a * a).sum(), a.var(), np.cumsum(a)[-1], a.dtype)
print(int(a.sum()) == 200_000 * 200_001 // 2)
""",
)
_case(
    "np_extra_datetime_series_math",
    """
import numpy as np
days = np.arange("2024-01-01", "2024-01-11", dtype="datetime64[D]")
weekday = (days.astype("datetime64[D]").view("int64") - 4) % 7
print(days[weekday < 5], np.unique(days.astype("datetime64[M]")), (days[-1] - days[0]).astype(int))
""",
)
_case(
    "np_extra_random_walk",
    """
import numpy as np
rng = np.random.default_rng(2025)
steps = rng.choice([-1, 1], size=1000)
walk = steps.cumsum()
print(walk[-1], walk.max(), walk.min(), np.abs(walk).argmax(), (walk == 0).sum())
""",
)

# --- more everyday analysis: pandas -------------------------------------------------------------

_case(
    "pd_extra_sales_report",
    _SALES
    + """
report = (df.groupby("region", as_index=False)
            .agg(orders=("units", "size"), units=("units", "sum"), revenue=("revenue", "sum"))
            .sort_values("revenue", ascending=False, ignore_index=True))
report["share_%"] = (100 * report["revenue"] / report["revenue"].sum()).round(1)
print(report)
print(report.to_string(index=False, formatters={"revenue": "${:,.2f}".format}))
""",
)
_case(
    "pd_extra_monthly_growth",
    _SALES
    + """
monthly = df.set_index("date").resample("ME")["revenue"].sum()
print(pd.DataFrame({"revenue": monthly, "growth_%": (monthly.pct_change() * 100).round(2), "cum": monthly.cumsum()}))
""",
)
_case(
    "pd_extra_top_n_per_group",
    _SALES
    + """
top = df.sort_values(["region", "revenue"], ascending=[True, False]).groupby("region").head(2)
print(top[["region", "product", "revenue"]])
print(df.loc[df.groupby("product")["revenue"].idxmax(), ["product", "region", "revenue"]])
""",
)
_case(
    "pd_extra_cohort_pivot",
    """
import pandas as pd
events = pd.DataFrame({
    "user": ["u1", "u1", "u2", "u2", "u2", "u3", "u3", "u4"],
    "day": pd.to_datetime(["2024-01-01", "2024-01-09", "2024-01-02", "2024-01-10", "2024-01-17", "2024-01-08", "2024-01-16", "2024-01-15"]),
})
events["cohort"] = events.groupby("user")["day"].transform("min").dt.to_period("W")
events["week"] = (events["day"] - events.groupby("user")["day"].transform("min")).dt.days // 7
print(events.pivot_table(index="cohort", columns="week", values="user", aggfunc="nunique", fill_value=0))
""",
)
_case(
    "pd_extra_survey_cleaning",
    """
import pandas as pd, io
raw = \"\"\"respondent,age,income,satisfaction,city
1, 34 ,"52,000",4,  Boston
2,unknown,"61,500",5,new york
3,29,,3,Boston
4,41,"48,250",,NEW YORK
5,38,"75,000",2,Chicago
\"\"\"
df = pd.read_csv(io.StringIO(raw), thousands=",", skipinitialspace=True)
df["age"] = pd.to_numeric(df["age"], errors="coerce")
df["city"] = df["city"].str.strip().str.title()
print(df, df.dtypes, df.groupby("city")["income"].mean(), df["satisfaction"].fillna(df["satisfaction"].median()).tolist(), sep="\\n")
""",
)
_case(
    "pd_extra_time_between_events",
    """
import pandas as pd
log = pd.DataFrame({"user": ["a", "b", "a", "a", "b"],
                    "ts": pd.to_datetime(["2024-05-01 09:00", "2024-05-01 09:05", "2024-05-01 09:30", "2024-05-01 11:00", "2024-05-02 08:00"])})
log = log.sort_values(["user", "ts"])
log["gap"] = log.groupby("user")["ts"].diff()
log["new_session"] = log["gap"].isna() | (log["gap"] > pd.Timedelta("1h"))
log["session"] = log.groupby("user")["new_session"].cumsum()
print(log)
print(log.groupby(["user", "session"])["ts"].agg(["min", "max", "count"]))
""",
)
_case(
    "pd_extra_outliers_iqr_zscore",
    """
import pandas as pd, numpy as np
s = pd.Series([10, 12, 11, 13, 12, 95, 11, 10, 14, -40, 12])
q1, q3 = s.quantile([0.25, 0.75])
iqr = q3 - q1
print(q1, q3, s[(s < q1 - 1.5 * iqr) | (s > q3 + 1.5 * iqr)].tolist())
z = (s - s.mean()) / s.std()
print(z.round(6).tolist(), s[z.abs() > 2].index.tolist())
""",
)
_case(
    "pd_extra_business_days_and_holidays",
    """
import pandas as pd
from pandas.tseries.holiday import USFederalHolidayCalendar
from pandas.tseries.offsets import CustomBusinessDay
cal = USFederalHolidayCalendar()
print(cal.holidays(start="2024-01-01", end="2024-12-31"))
bday = CustomBusinessDay(calendar=cal)
print(pd.date_range("2024-11-25", "2024-12-03", freq=bday), pd.Timestamp("2024-07-03") + 2 * bday)
""",
)
_case(
    "pd_extra_excel_report_with_formats",
    _SALES
    + """
summary = df.pivot_table(index="region", columns="product", values="revenue", aggfunc="sum", fill_value=0)
with pd.ExcelWriter("pd_extra_excel_report.xlsx", engine="openpyxl") as writer:
    df.to_excel(writer, sheet_name="data", index=False)
    summary.to_excel(writer, sheet_name="summary")
    ws = writer.sheets["summary"]
    ws["A1"].value = "region / product"
    ws.column_dimensions["A"].width = 20
import openpyxl
wb = openpyxl.load_workbook("pd_extra_excel_report.xlsx")
print(wb.sheetnames, wb["summary"]["A1"].value, wb["summary"].column_dimensions["A"].width, wb["data"].max_row)
print(pd.read_excel("pd_extra_excel_report.xlsx", sheet_name="summary", index_col=0))
""",
)
_case(
    "pd_extra_json_api_payload",
    """
import pandas as pd, json
payload = json.loads('{"data": [{"id": 1, "attrs": {"price": "12.50", "tags": ["a"]}}, {"id": 2, "attrs": {"price": "7", "tags": []}}], "meta": {"page": 1}}')
df = pd.json_normalize(payload["data"])
df["attrs.price"] = df["attrs.price"].astype(float)
df["n_tags"] = df["attrs.tags"].str.len()
print(df, df.to_json(orient="records"), sep="\\n")
""",
)
_case(
    "pd_extra_category_order_report",
    """
import pandas as pd
df = pd.DataFrame({"size": ["M", "S", "XL", "L", "M", "S"], "qty": [3, 5, 1, 2, 4, 6]})
df["size"] = pd.Categorical(df["size"], ["S", "M", "L", "XL"], ordered=True)
print(df.groupby("size", observed=True)["qty"].sum(), df.sort_values(["size", "qty"]), df[df["size"] >= "L"], sep="\\n")
""",
)
_case(
    "pd_extra_rolling_zscore_anomaly",
    """
import pandas as pd, numpy as np
rng = np.random.default_rng(17)
s = pd.Series(rng.normal(100, 5, 60).round(3), index=pd.date_range("2024-03-01", periods=60, freq="D"))
s.iloc[40] = 160
roll = s.rolling(14)
z = (s - roll.mean()) / roll.std()
print(z.round(6).dropna().head(3), z[z.abs() > 3].round(6), sep="\\n")
""",
)
_case(
    "pd_extra_melt_and_plot_ready",
    """
import pandas as pd
df = pd.DataFrame({"month": ["Jan", "Feb", "Mar"], "north": [10, 12, 9], "south": [7, 8, 11]})
long = df.melt(id_vars="month", var_name="region", value_name="sales")
long["month"] = pd.Categorical(long["month"], ["Jan", "Feb", "Mar"], ordered=True)
print(long.sort_values(["region", "month"]).reset_index(drop=True), long.groupby("region")["sales"].agg(["sum", "mean"]).round(3), sep="\\n")
""",
)
_case(
    "pd_extra_string_date_columns",
    """
import pandas as pd
df = pd.DataFrame({"when": ["2024-03-01 08:15", "2024-03-01 17:40", "2024-03-02 09:05"], "amount": ["$1,200.50", "$75.00", "$3,010.25"]})
df["when"] = pd.to_datetime(df["when"], format="%Y-%m-%d %H:%M")
df["amount"] = df["amount"].str.replace(r"[$,]", "", regex=True).astype(float)
print(df.dtypes, df.groupby(df["when"].dt.date)["amount"].sum(), df["when"].dt.hour.tolist(), sep="\\n")
""",
)
_case(
    "pd_extra_index_alignment",
    """
import pandas as pd
a = pd.Series([1, 2, 3], index=["x", "y", "z"])
b = pd.Series([10, 20, 30], index=["y", "z", "w"])
print(a + b, a.add(b, fill_value=0), a.align(b, join="inner"), a.reindex(["z", "q"], fill_value=-1), sep="\\n")
""",
)
_case(
    "pd_extra_describe_percentiles_and_format",
    """
import pandas as pd, numpy as np
rng = np.random.default_rng(8)
df = pd.DataFrame({"latency_ms": rng.gamma(2.0, 30.0, 500).round(3), "ok": rng.random(500) > 0.1})
print(df["latency_ms"].describe(percentiles=[0.5, 0.9, 0.99]).round(4))
print(df.groupby("ok")["latency_ms"].agg(["count", "mean", "max"]).round(4), df["ok"].mean())
""",
)

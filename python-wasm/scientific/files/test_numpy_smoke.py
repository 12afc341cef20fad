import time

t0 = time.perf_counter()
import numpy as np  # noqa: E402

t1 = time.perf_counter()
print("import numpy: %.1f ms" % ((t1 - t0) * 1e3))
print(
    np.__version__,
    np.arange(10).sum(),
    np.linalg.solve([[3, 1], [1, 2]], [9, 8]),
    np.random.default_rng(0).random(3),
)
print(
    "np.array([1,2]).dtype =",
    np.array([1, 2]).dtype,
    "| np.arange(100000).sum() =",
    np.arange(100000).sum(),
    "| intp",
    np.dtype(np.intp).itemsize,
)
print("sum int64:", np.arange(100000, dtype=np.int64).sum())
print("fft", np.round(np.fft.fft([1.0, 2, 3, 4]), 6))
print("rfft", np.round(np.fft.irfft(np.fft.rfft(np.arange(8.0))), 6))
np.random.seed(1)
print(
    "legacy",
    np.random.rand(2),
    np.random.poisson(3.0, 4),
    np.random.binomial(10, 0.5, 3),
    np.random.randint(0, 100, 3),
)
rng = np.random.default_rng(42)
print(
    "gen",
    rng.poisson(3.0, 4),
    rng.multinomial(10, [0.2, 0.3, 0.5]),
    rng.integers(0, 100, 3),
    rng.standard_normal(2),
)
print(
    "pcg/philox/sfc/mt",
    np.random.Generator(np.random.Philox(1)).random(),
    np.random.Generator(np.random.SFC64(1)).random(),
    np.random.Generator(np.random.MT19937(1)).random(),
)
a = np.arange(16.0).reshape(4, 4) + np.eye(4)
print(
    "inv",
    np.round(np.linalg.inv(a)[0], 6),
    "det",
    round(np.linalg.det(a), 6),
    "eig",
    np.round(np.sort(np.linalg.eigvals(a).real), 4),
)
print(
    "svd",
    np.round(np.linalg.svd(a, compute_uv=False), 4),
    "lstsq",
    np.round(np.linalg.lstsq(a, np.ones(4), rcond=None)[0], 4),
)
try:
    np.linalg.inv(np.zeros((2, 2)))
except np.linalg.LinAlgError as e:
    print("LinAlgError:", e)
print("longdouble", np.finfo(np.longdouble).eps, np.longdouble(1) / 3)
print("float ops", np.array([1.0, 0.0]) / 0, np.sqrt(-1.0 + 0j))
with np.errstate(all="raise"):
    try:
        np.array([1.0]) / 0
        print("errstate raise: no FloatingPointError")
    except FloatingPointError:
        print("errstate raise: FloatingPointError")
print(
    "str",
    np.array(["a", "bc"]).astype("U5"),
    np.char.upper(np.array(["ab"])),
    np.array(["x"], dtype=np.dtypes.StringDType()),
)
print(
    "datetime",
    np.datetime64("2024-01-01") + np.arange(2),
    np.busday_count("2024-01-01", "2024-02-01"),
)
print(
    "sort",
    np.sort(np.array([3, 1, 2])),
    np.argsort(np.random.default_rng(0).random(5)),
    np.unique([3, 3, 1]),
)
print("einsum/matmul", np.einsum("ij,jk->ik", a, a)[0, :2], (a @ a)[0, :2])
import io  # noqa: E402

b = io.BytesIO()
np.save(b, a)
b.seek(0)
print("save/load", np.load(b)[1, :2])
print("tostring", np.array2string(np.linspace(0, 1, 5)), repr(np.float64(0.1)))
print("poly", np.polyfit([0, 1, 2], [1, 3, 5], 1).round(6))
print("histogram", np.histogram([1, 2, 2, 3], bins=3)[0])
import numpy.ma as ma  # noqa: E402

print("ma", ma.masked_array([1, 2, 3], mask=[0, 1, 0]).sum())
t2 = time.perf_counter()
x = np.arange(100000)
s = 0
for _ in range(100):
    s = x.sum()
t3 = time.perf_counter()
print("arange(100000).sum x100: %.1f ms" % ((t3 - t2) * 1e3))
m = np.random.default_rng(0).random((200, 200))
t4 = time.perf_counter()
m @ m
t5 = time.perf_counter()
print("200x200 matmul: %.1f ms" % ((t5 - t4) * 1e3))
t6 = time.perf_counter()
np.linalg.svd(m)
t7 = time.perf_counter()
print("200x200 svd: %.1f ms" % ((t7 - t6) * 1e3))

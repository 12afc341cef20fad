"""numpy and pandas in the guest (docs/packages.md, "numpy and pandas").

Built from their sdists into the interpreter (python-wasm/scientific), imported into the
snapshot, and faithful to a native 64-bit run: the default integer is int64, results are the
native ones (tests/integration/scientific has the differential suite). Each remaining
difference from native that docs/packages.md lists has its test here.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import json
import tempfile
import warnings
from typing import Any

import numpy
import pandas
import pytest

import cove
from tests.support.recipes import version

pytestmark = pytest.mark.anyio


async def run(session: cove.Session, code: str) -> str:
    result = await session.run_code(code, timeout_s=60)
    assert result.return_code == 0 and result.stderr == "", result.stderr
    return result.stdout


def native(code: str) -> str:
    """Runs `code` in this (native, 64-bit) process, as the guest would (in a directory of its
    own): its stdout."""
    out = io.StringIO()
    with (
        tempfile.TemporaryDirectory() as tmp,
        contextlib.chdir(tmp),
        contextlib.redirect_stdout(out),
        warnings.catch_warnings(),
    ):
        warnings.simplefilter("default")
        exec(compile(code, "<native>", "exec"), {"__name__": "__main__"})
    return out.getvalue()


async def test_the_versions_are_the_pinned_ones_and_the_tests_native_ones(
    session: cove.Session,
) -> None:
    out = json.loads(
        await run(
            session,
            "import importlib.metadata as m, json, numpy, pandas\n"
            "print(json.dumps([m.version('numpy'), m.version('pandas'),"
            " numpy.__version__, pandas.__version__]))",
        )
    )
    pinned = [version("numpy"), version("pandas")]
    assert out == pinned + pinned
    # the differential suite compares against these: they must be the same versions
    assert [importlib.metadata.version("numpy"), importlib.metadata.version("pandas")] == out[:2]


async def test_numpy_and_pandas_are_in_the_snapshot_already(session: cove.Session) -> None:
    out = await run(
        session,
        "import sys\n"
        "print('numpy' in sys.modules, 'pandas' in sys.modules)\n"
        "import numpy._core._multiarray_umath as m, pandas._libs.lib as lib, PIL._imaging as im\n"
        "print(m.__spec__.loader.__name__, m.__file__, lib.__file__, im.__file__)",
    )
    # linked into the interpreter, with the __file__ the shared library has natively
    # (cove_guest.extensions): PIL.features.pilinfo() and `python -m PIL` print it
    assert out.split() == [
        "True",
        "True",
        "BuiltinImporter",
        "/usr/lib/python311.zip/numpy/_core/_multiarray_umath.cpython-311-wasm32-wasi.so",
        "/usr/lib/python311.zip/pandas/_libs/lib.cpython-311-wasm32-wasi.so",
        "/usr/lib/python311.zip/PIL/_imaging.cpython-311-wasm32-wasi.so",
    ]


async def test_a_package_not_in_the_snapshot_still_imports_from_the_zip(
    session: cove.Session,
) -> None:
    out = await run(
        session,
        "import sys\nprint('numpy.polynomial.hermite' in sys.modules)\n"
        "import numpy.polynomial.hermite as h\nprint(h.hermval(2.0, [1, 2, 3]))",
    )
    assert out.split() == ["False", str(numpy.polynomial.hermite.hermval(2.0, [1, 2, 3]))]


async def test_the_global_random_state_is_reseeded_per_session(pool: cove.Pool) -> None:
    code = "import numpy as np\nprint(np.random.rand(3).tolist())\nprint(np.random.default_rng().random())"
    first, second = [(await run(await pool.create_session(), code)).split("\n") for _ in range(2)]
    assert first[0] != second[0] and first[1] != second[1]  # the global state; a new Generator
    seeded = "import numpy as np\nnp.random.seed(0)\nprint(np.random.rand(3).tolist())"
    assert await run(await pool.create_session(), seeded) == native(seeded)


DEFAULT_INTEGER = """
import numpy as np, pandas as pd
print(np.array([1, 2]).dtype, np.arange(100_000).sum(), (np.arange(70_000) ** 2).sum())
print(np.array([1.5, 2.7]).astype(int).dtype, np.int_, np.dtype(int), np.array(2**40).dtype)
print(np.array([True, False]).sum().dtype, np.array([1, 2], dtype=np.int32).sum().dtype)
print(np.cumsum(np.array([1, 2], dtype=np.int8)).dtype, np.prod(np.arange(1, 21)))
print(np.random.RandomState(3).randint(0, 10**10, size=3))
print(pd.Series([1.5, 2.5]).astype(int).dtype, pd.DataFrame({"a": [1, 2]}).dtypes.iloc[0])
a = np.arange(10)
print(np.repeat(a[:3], np.array([1, 2, 3])), np.take(a, np.array([2, 4])))
print(a[np.array([1, 3])], np.ravel_multi_index(np.array([[1, 2], [0, 1]]), (3, 3)))
"""


async def test_the_default_integer_is_64_bit_as_natively(session: cove.Session) -> None:
    assert await run(session, DEFAULT_INTEGER) == native(DEFAULT_INTEGER)


INDEX_RESULTS = """
import numpy as np
a = np.array([3, 1, 2])
print(np.argsort(a).dtype, np.nonzero(a)[0].dtype, np.searchsorted(a, 2).dtype)
print(np.argsort(a).tolist(), np.nonzero(a > 1)[0].tolist())
"""


async def test_index_results_are_32_bit_intp_with_the_native_values(
    session: cove.Session,
) -> None:
    # docs/packages.md: intp stays 32-bit (the address space is); the values are native.
    guest = (await run(session, INDEX_RESULTS)).splitlines()
    here = native(INDEX_RESULTS).splitlines()
    assert guest[0].split() == ["int32"] * 3
    assert here[0].split() == ["int64"] * 3
    assert guest[1] == here[1]


FLOAT_ERRORS = """
import warnings, numpy as np
def show(label, f):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            r = f()
        except FloatingPointError as e:
            r = f"FloatingPointError: {e}"
    print(label, r, sorted(str(w.message) for w in caught))
a = np.array([1.0, 0.0, -1.0, 2.0])
show("divide", lambda: a / 0)
show("log", lambda: np.log(a))
show("sqrt", lambda: np.sqrt(a))
show("overflow", lambda: (np.exp(np.array([1000.0])), np.array([1e308]) * 10))
show("power", lambda: np.power(np.array([0.0, 10.0]), np.array([-1.0, 400.0])))
show("nan operand", lambda: np.array([np.nan]) + 1)
show("divmod", lambda: np.divmod(np.array([1.0]), 0.0))
def in_place():
    b = a.copy()
    b /= 0
    return b
show("in place", in_place)
show("reduce", lambda: np.sum(np.array([1e308, 1e308])))
show("float32", lambda: np.array([3e38], dtype=np.float32) * 10)
show("scalar", lambda: (np.float64(1.0) / 0.0, np.float64(0.0) / np.float64(0.0)))
show("mean of nothing", lambda: np.mean([]))
show("cast", lambda: (np.array([np.nan]).astype(np.int64), np.array([1e300]).astype(np.float32)))
with np.errstate(all="raise"):
    show("raise", lambda: a / 0)
    show("no error", lambda: a + 1)
with np.errstate(under="raise"):
    show("underflow", lambda: np.array([1e-308]) * 1e-10)
    show("exact", lambda: np.array([1e-300]) - 1e-300)
"""


async def test_float_errors_warn_and_raise_as_natively(session: cove.Session) -> None:
    # WebAssembly has no floating-point flags: numpy/0006 derives them from operands and results.
    assert await run(session, FLOAT_ERRORS) == native(FLOAT_ERRORS)


COMPLEX_ERRORS = """
import warnings, numpy as np
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    r = np.array([1 + 1j]) / 0
print(r, [str(w.message) for w in caught])
"""


async def test_errors_of_complex_results_are_not_derived(session: cove.Session) -> None:
    # docs/packages.md: numpy/0006 derives the flags of real results only.
    assert await run(session, COMPLEX_ERRORS) == "[inf+infj] []\n"
    assert native(COMPLEX_ERRORS) == "[inf+infj] ['divide by zero encountered in divide']\n"


INTEGER_ERRORS = """
import warnings, numpy as np
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print(np.array([1, 2]) // 0, [str(w.message) for w in caught])
with np.errstate(all="raise"):
    try:
        np.array([1]) // 0
    except FloatingPointError as e:
        print("FloatingPointError", e)
try:
    np.linalg.inv(np.zeros((2, 2)))
except np.linalg.LinAlgError as e:
    print("LinAlgError", e)
"""


async def test_integer_errors_and_singular_matrices_are_reported_as_natively(
    session: cove.Session,
) -> None:
    assert await run(session, INTEGER_ERRORS) == native(INTEGER_ERRORS)


MEMORY_MAPS = """
import numpy as np, pandas as pd
np.save("a.npy", np.arange(4.0))
pd.DataFrame({"a": [1, 2]}).to_csv("m.csv", index=False)
r = np.load("a.npy", mmap_mode="r")
print(r.sum(), r.flags.writeable, pd.read_csv("m.csv", memory_map=True).a.sum())
c = np.load("a.npy", mmap_mode="c")
c[0] = 9
w = np.load("a.npy", mmap_mode="r+")
w[1] = 7
w.flush()
print(np.load("a.npy").tolist())
m = np.memmap("m.dat", dtype=np.float64, mode="w+", shape=(3,))
m[:] = [1, 2, 3]
del m
print(np.fromfile("m.dat").tolist())
"""


async def test_memory_maps_are_copies_that_behave_as_maps(session: cove.Session) -> None:
    # docs/packages.md: read into memory; writable ones are written back on flush and when freed
    assert await run(session, MEMORY_MAPS) == native(MEMORY_MAPS)


async def test_files_written_by_numpy_and_pandas_land_in_the_workspace(
    session: cove.Session,
) -> None:
    await run(
        session,
        "import numpy as np, pandas as pd\n"
        "np.save('a.npy', np.arange(5))\n"
        "np.arange(3, dtype=np.float64).tofile('b.bin')\n"
        "pd.DataFrame({'x': [1, 2]}).to_csv('c.csv', index=False)\n",
    )
    a = numpy.load(io.BytesIO((await session.read_file("a.npy"))[0]))
    assert a.tolist() == [0, 1, 2, 3, 4] and a.dtype == numpy.int64
    b = numpy.frombuffer((await session.read_file("b.bin"))[0], dtype=numpy.float64)
    assert b.tolist() == [0.0, 1.0, 2.0]
    c = pandas.read_csv(io.BytesIO((await session.read_file("c.csv"))[0]))
    assert c.x.tolist() == [1, 2]


async def test_running_out_of_memory_is_a_memory_error_and_the_session_lives(
    session: cove.Session,
) -> None:
    # 1.5 GiB, past the session's 256 MiB (and below wasm32's 2 GiB array size limit)
    result = await session.run_code("import numpy as np\nx = np.ones(3 << 26)", timeout_s=60)
    assert result.return_code != 0
    assert "MemoryError" in result.stderr and "Unable to allocate" in result.stderr
    assert await run(session, "import numpy as np\nprint(np.ones(10).sum())") == "10.0\n"


async def test_a_cpp_exception_in_an_extension_is_the_python_exception_it_binds_to(
    session: cove.Session,
) -> None:
    # pandas' rolling min/max keeps two C++ std::deque of window length, whose push_back is
    # `except +` in Cython: std::bad_alloc becomes MemoryError. 5.75 M rows: the input, the
    # window bounds and the output (184 MB) fit in the session's 256 MiB; the deques (92 MB
    # more) do not, so operator new throws inside the C++ code (4.5 M rows fit whole, 5 to
    # 6.5 M all fail there). Without exception support the throw aborted the interpreter.
    result = await session.run_code(
        "import numpy as np, pandas as pd\n"
        "s = pd.Series(np.arange(5_750_000, 0, -1, dtype=np.float64))\n"
        "r = s.rolling(len(s), min_periods=1).max()",
        timeout_s=120,
    )
    assert (result.return_code, result.outcome) == (1, "memory")
    assert "MemoryError: std::bad_alloc" in result.stderr, result.stderr
    # Cython names its source as the native wheels do (python-wasm/cross/run_cython.py)
    assert 'File "pandas/_libs/window/aggregations.pyx", line' in result.stderr
    # the session lives on, its variables with it
    assert await run(session, "print(len(s), s.iloc[:1000].rolling(10).max().iloc[-1])") == (
        "5750000 5749010.0\n"
    )


def _big_csv(rows: int) -> bytes:
    rng = numpy.random.default_rng(7)
    frame = pandas.DataFrame(
        {
            "id": numpy.arange(rows),
            "city": rng.choice(["Paris", "Lyon", "Nantes", "Lille", "Nice"], rows),
            "amount": rng.normal(100, 25, rows).round(2),
            "units": rng.integers(1, 50, rows),
            "day": pandas.Timestamp("2026-01-01")
            + pandas.to_timedelta(rng.integers(0, 365, rows), unit="D"),
        }
    )
    return frame.to_csv(index=False).encode()


@pytest.mark.slow
async def test_a_100_mb_csv_loads_and_aggregates_under_the_default_limits(
    settings: cove.PoolSettings,
) -> None:
    data = _big_csv(3_000_000)
    assert len(data) > 100_000_000
    expected: dict[str, Any] = (
        pandas.read_csv(io.BytesIO(data)).groupby("city")["amount"].sum().round(2).to_dict()
    )
    defaults = cove.PoolSettings(
        workspace_root=settings.workspace_root, cache_dir=settings.cache_dir
    )
    async with cove.Pool(defaults) as pool:
        session = await pool.create_session()
        # in two uploads (each under the default upload limit), joined in the session
        cut = data.index(b"\n", len(data) // 2) + 1
        await session.write_file("part1.csv", data[:cut])
        await session.write_file("part2.csv", data[cut:])
        out = await session.run_code(
            "import json, os, shutil, pandas as pd\n"
            "with open('big.csv', 'wb') as big:\n"
            "    for part in ('part1.csv', 'part2.csv'):\n"
            "        with open(part, 'rb') as f:\n"
            "            shutil.copyfileobj(f, big)\n"
            "        os.remove(part)\n"
            "df = pd.read_csv('big.csv')\n"
            "print(json.dumps(df.groupby('city')['amount'].sum().round(2).to_dict()))",
            timeout_s=600,
        )
        assert out.return_code == 0, out.stderr
        assert json.loads(out.stdout) == expected


async def test_fromfile_and_tofile_leave_a_buffered_file_where_natively(
    session: cove.Session,
) -> None:
    # numpy opens the file again by name (WASI has no dup(): recipes/numpy 0003) and puts the
    # file object where its own handle stopped (0010: the descriptor's position, not the new
    # handle's, is the one restored), so the file reads and tells on as natively.
    code = (
        "import numpy as np\n"
        "open('b.bin', 'wb').write(bytes(range(100)))\n"
        "with open('b.bin', 'rb') as f:\n"
        "    f.read(10)\n"
        "    a = np.fromfile(f, dtype=np.uint8, count=20)\n"
        "    print(f.tell(), a[:3].tolist(), list(f.read(2)), f.tell())\n"
        "with open('c.bin', 'wb') as f:\n"
        "    f.write(b'head')\n"
        "    np.arange(3, dtype=np.int16).tofile(f)\n"
        "    print(f.tell())\n"
        "    f.write(b'tail')\n"
        "print(open('c.bin', 'rb').read())\n"
    )
    assert await run(session, code) == (
        "30 [10, 11, 12] [30, 31] 32\n10\nb'head\\x00\\x00\\x01\\x00\\x02\\x00tail'\n"
    )

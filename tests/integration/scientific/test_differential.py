"""numpy and pandas in the guest against the same versions natively, output for output.

Every snippet of `cases.py` runs natively and in Cove's guest (harness.py); the normalized
outputs must be equal. The differences that are understood are listed in KNOWN_DIFFERENCES with
their cause: the test fails on any other difference, on a listed one that has gone away (so the
list stays true), and when fewer than 98% of the cases match. The native side runs with numpy's
CPU-dispatched SIMD kernels off (harness.native_env), so that its reference does not depend on
the host's CPU.

Set COVE_SCIENTIFIC_DUMP to a directory to keep both sides' outputs (scientific.native.json,
scientific.guest.json).
"""

from __future__ import annotations

import pytest

from tests.integration.scientific import harness
from tests.integration.scientific.cases import CASES
from tests.support.recipes import version

pytestmark = pytest.mark.anyio

TARGET = 0.98
# The versions the guest ships; the native side must have the same ones to be comparable.
VERSIONS = {name: version(name) for name in ("numpy", "pandas")}
# Native modules the cases need besides numpy and pandas (openpyxl: the Excel cases).
NATIVE_NEEDS = ("numpy", "pandas", "openpyxl")

_INTP = (
    "wasm32: np.intp is int32 (pointer-sized) while the default integer is int64 (patch"
    " numpy/0005), so index results are int32 and their repr shows `dtype=int32`/`np.int32(..)`"
)
# Case name -> why the guest's output differs from native numpy/pandas (and must go on doing so).
# "wasm32:" entries are platform differences (docs/packages.md lists them).
KNOWN_DIFFERENCES: dict[str, str] = {
    "np_dtype_default_int": _INTP,
    "np_index_where_nonzero": _INTP,
    "np_broadcast_pairwise_distances": _INTP,
    "np_sort_histogram": _INTP + " (np.histogram's counts with explicit bins are intp)",
    "np_dtype_longdouble": (
        "wasm32: long double is IEEE binary128 (x86-64: 80-bit extended); and its pow/exp/log/sin"
        " are only double-precision (wasi-libc's binary128 libm falls back to double)"
    ),
    "pd_frame_info": (
        "wasm32: 4-byte pointers: an object column takes 4 bytes a value in memory_usage/info,"
        " and a RangeIndex's sys.getsizeof is smaller"
    ),
}


class TestNumpyAndPandas(harness.DifferentialSuite):
    SUITE = "scientific"
    CASES = CASES
    KNOWN_DIFFERENCES = KNOWN_DIFFERENCES
    TARGET = TARGET
    MINIMUM = 220
    VERSIONS = VERSIONS
    NATIVE_NEEDS = NATIVE_NEEDS

"""lxml, BeautifulSoup's lxml parsers, Pillow, python-docx and python-pptx in the guest against
the same versions natively, output for output (document_cases.py; harness.py runs both sides).

The packages are the same versions; the C libraries under lxml and Pillow are not (Debian 12's
in the guest, newer ones bundled in the native wheels: document_cases.py lists them). Each
difference that follows from that is listed in KNOWN_DIFFERENCES with its cause; any other
difference fails the test, as does a listed one that has gone away.
"""

from __future__ import annotations

import pytest

from tests.integration.scientific import harness
from tests.integration.scientific.document_cases import CASES
from tests.support.recipes import version

pytestmark = pytest.mark.anyio

TARGET = 0.9
VERSIONS = {
    "numpy": version("numpy"),
    "pandas": version("pandas"),
    "lxml": version("lxml"),
    "pillow": version("pillow"),
    "python-docx": "1.1.2",
    "python-pptx": "1.0.2",
    "beautifulsoup4": "4.13.5",
}
NATIVE_NEEDS = ("numpy", "pandas", "lxml", "PIL", "docx", "pptx", "bs4", "openpyxl", "xlsxwriter")

_LIBXML2 = (
    "libxml2 2.9.14 (Debian 12; the native wheel bundles 2.13.8) words this error differently"
)
# Case name -> why the guest's output differs from native (and must go on doing so).
# "wasm32:" entries are platform differences (docs/packages.md lists them).
KNOWN_DIFFERENCES: dict[str, str] = {
    "lxml_deep_nesting_limit": _LIBXML2 + " (the depth it reports: 256, natively 257)",
    "lxml_syntax_errors_caught": _LIBXML2 + " (and its recovery logs two errors, not one)",
    "lxml_encodings": _LIBXML2 + " (an unknown encoding: 'Unsupported encoding: x' natively)",
    "pil_convert_modes": (
        "wasm32: FASTOCTREE sorts its colour buckets with the C library's qsort, and equal counts"
        " come out in another order from wasi-libc's (smoothsort) than from glibc's (merge sort)"
    ),
    "pil_corrupt_files": "wasm32: WASI's errno numbers (ENOENT is 44) in the OSError's message",
    "pil_jpeg_corrupt_truncated": (
        "libjpeg-turbo 2.1.5 (Debian 12; the native wheel bundles 3.x) reads one byte less of a"
        " truncated file before it stops (the count in the message)"
    ),
}


class TestDocumentsAndImages(harness.DifferentialSuite):
    SUITE = "documents"
    CASES = CASES
    KNOWN_DIFFERENCES = KNOWN_DIFFERENCES
    TARGET = TARGET
    MINIMUM = 80
    VERSIONS = VERSIONS
    NATIVE_NEEDS = NATIVE_NEEDS

"""Fixes patched into the guest's CPython 3.11.2 (python-wasm/patches/cpython-*.patch), each
checked where model code meets it."""

from __future__ import annotations

import pytest

import cove

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # gh-100061 (3.11.5): a possessive repeat that backtracked resumed at the wrong place;
        # soupsieve >= 3 tokenizes CSS selectors with such patterns.
        ("print(re.match(r'(?:(?:x|a)b*x)?+a', 'aa').span())", "(0, 1)"),
        ("print(re.match(r'(?:(?:x|[a-z])[a-z]*+x)?+d', 'div') is not None)", "True"),
        ("print(re.match('(?:ab?c)*+', 'aca').span())", "(0, 2)"),
        # gh-101955 (3.13.1): groups inside a possessive repeat raised SystemError.
        ("print(re.match('((x)|y|z)*+', 'xyz').groups())", "('z', 'x')"),
        # gh-67044 (3.11.9): csv wrote a bare '\r' unquoted and read it back as two rows.
        (
            "b = io.StringIO(); csv.writer(b, lineterminator='\\n').writerow(['a\\rb', 'c'])\n"
            "print(list(csv.reader(io.StringIO(b.getvalue(), newline=''))))",
            "[['a\\rb', 'c']]",
        ),
        # Cove's own: zoneinfo reads the tz database through the zip's index, not a fresh
        # zipfile.Path per key; lookups and misses behave as before.
        (
            "from datetime import datetime\n"
            "tz = zoneinfo.ZoneInfo('Europe/Paris')\n"
            "print(datetime(2024, 7, 1, 12, tzinfo=tz).utcoffset(), len(zoneinfo.available_timezones()) > 500)\n"
            "try:\n    zoneinfo.ZoneInfo('Europe/Nowhere')\n"
            "except zoneinfo.ZoneInfoNotFoundError:\n    print('missing')",
            "2:00:00 True\nmissing",
        ),
    ],
)
async def test_patched_cpython_fix(session: cove.Session, code: str, expected: str) -> None:
    result = await session.run_code("import re, csv, io, zoneinfo\n" + code)
    assert result.stdout == expected + "\n", result.stderr

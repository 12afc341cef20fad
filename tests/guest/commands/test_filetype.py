"""file: GNU file's wording."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from ..support import run, shell_in


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, {"d/a.py": "x\n", "d/b.py": "y\ny\n"}) as shell:
        yield shell


PNG_1x1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (PNG_1x1, "PNG image data, 1 x 1, 8-bit/color RGBA, non-interlaced"),
        (b"%PDF-1.4\n%\xe2\xe3\n", "PDF document, version 1.4"),
        (b"hello\n", "ASCII text"),
        (b"a\r\nb\r\n", "ASCII text, with CRLF line terminators"),
        (b"abc", "ASCII text, with no line terminators"),
        ("héllo\n".encode(), "Unicode text, UTF-8 text"),
        (b"", "empty"),
    ],
)
def test_file_reports_like_gnu_file(
    sh: Any, tmp_path: pathlib.Path, data: bytes, kind: str
) -> None:
    (tmp_path / "blob").write_bytes(data)
    assert run(sh, "file blob") == (f"blob: {kind}\n", "", 0)


def test_file_knows_office_documents_and_gzip(sh: Any, tmp_path: pathlib.Path) -> None:
    import gzip
    import zipfile

    for name, inner in (("a.docx", "word/document.xml"), ("b.xlsx", "xl/workbook.xml")):
        with zipfile.ZipFile(tmp_path / name, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("[Content_Types].xml", "<Types/>")
            z.writestr(inner, "<x/>")
    (tmp_path / "c.gz").write_bytes(gzip.compress(b"hello\n", mtime=0))
    out = run(sh, "file a.docx b.xlsx c.gz")[0]
    assert out == (
        "a.docx: Microsoft Word 2007+\n"
        "b.xlsx: Microsoft Excel 2007+\n"
        "c.gz:   gzip compressed data, max compression, from Unix, original size modulo 2^32 6\n"
    )

"""lxml, Pillow, python-docx and python-pptx in the guest (docs/packages.md; recipes/lxml,
recipes/pillow and their C libraries).

The differential suite (scientific/test_documents.py) compares their results with native ones;
here: what a session has (versions, codecs), that a file written in the guest is read natively
and the other way round, and that the C libraries' error paths (libjpeg's longjmp, libxml2's
errors, zlib's) raise the Python exception native Pillow and lxml raise while the session, its
variables and its files, lives on.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from typing import Any

import docx
import lxml.etree
import PIL
import pptx
import pytest
from PIL import Image, ImageFont

import cove
from tests.support.recipes import version

pytestmark = pytest.mark.anyio


async def run(session: cove.Session, code: str) -> dict[str, Any]:
    """Runs `code`, which prints one JSON document last; fails on any error output."""
    result = await session.run_code(code, timeout_s=120)
    assert result.return_code == 0 and result.stderr == "", result.stderr
    out: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])
    return out


async def test_the_versions_are_the_recipes_and_the_codecs_the_ones_built(
    session: cove.Session,
) -> None:
    out = await run(
        session,
        "import json, importlib.metadata as md, lxml.etree as et, PIL, docx, pptx\n"
        "from PIL import features\n"
        "print(json.dumps({'lxml': et.__version__, 'pillow': PIL.__version__,"
        " 'libxml2': et.LIBXML_VERSION, 'libxslt': et.LIBXSLT_VERSION,"
        " 'dists': [md.version(n) for n in ('lxml', 'pillow', 'python-docx', 'python-pptx')],"
        " 'features': {f: features.check(f) for f in ('jpg', 'zlib', 'libtiff', 'freetype2',"
        "  'webp', 'jpg_2000', 'littlecms2', 'raqm', 'avif', 'libimagequant', 'xcb')}}))",
    )
    assert out["lxml"] == version("lxml") and out["pillow"] == version("pillow")
    assert out["dists"] == [version("lxml"), version("pillow"), "1.1.2", "1.0.2"]
    assert out["libxml2"] == [2, 9, 14] and out["libxslt"] == [1, 1, 35]
    built = {"jpg", "zlib", "libtiff", "freetype2", "webp"}
    assert out["features"] == {f: f in built for f in out["features"]}
    # the tests compare with these natively
    assert (lxml.etree.__version__, PIL.__version__) == (version("lxml"), version("pillow"))


async def test_a_corrupt_jpeg_longjmps_out_of_libjpeg_into_the_exception_native_raises(
    session: cove.Session,
) -> None:
    # A Huffman table claiming more than 256 codes: libjpeg's error_exit longjmps back to
    # Pillow's setjmp in its decoder (src/libImaging/JpegDecode.c), which sets the error the
    # OSError reports. Without setjmp/longjmp in the toolchain this aborted the interpreter.
    make = (
        "import io\nfrom PIL import Image\n"
        "im = Image.linear_gradient('L').resize((64, 48)).convert('RGB')\n"
        "buf = io.BytesIO(); im.save(buf, 'JPEG', quality=90); data = bytearray(buf.getvalue())\n"
        "i = data.find(b'\\xff\\xc4')\n"
        "for k in range(16):\n    data[i + 5 + k] = 0xFF\n"
    )
    try_ = (
        "try:\n    Image.open(io.BytesIO(bytes(data))).load()\n"
        "except Exception as e:\n    caught = f'{type(e).__name__}: {e}'\n"
    )
    namespace: dict[str, Any] = {}
    exec(make + try_, namespace)  # natively
    out = await run(session, make + try_ + "import json\nprint(json.dumps(caught))")
    assert out == namespace["caught"] == "OSError: broken data stream when reading image file"
    # the same session, its variables, and Pillow still decoding
    out = await run(
        session,
        "import json\nok = Image.open(io.BytesIO(buf.getvalue())); ok.load()\n"
        "print(json.dumps([len(data), ok.size, ok.mode]))",
    )
    assert out[1:] == [[64, 48], "RGB"]


async def test_malformed_xml_and_a_damaged_png_raise_as_natively_and_the_session_lives_on(
    session: cove.Session,
) -> None:
    code = (
        "import io, json, zlib\nfrom lxml import etree\nfrom PIL import Image\n"
        "caught = []\n"
        "try:\n    etree.fromstring('<a><b></a>')\n"
        "except etree.XMLSyntaxError as e:\n    caught.append([type(e).__name__, str(e)])\n"
        "im = Image.linear_gradient('L').resize((40, 30))\n"
        "buf = io.BytesIO(); im.save(buf, 'PNG'); png = buf.getvalue()\n"
        "i = png.find(b'IDAT') + 4\n"
        "bad = png[:i] + bytes(b ^ 0x5A for b in png[i:i + 40]) + png[i + 40:]\n"
        "for blob in (bad, png[: len(png) // 2]):\n"
        "    try:\n        Image.open(io.BytesIO(blob)).load()\n"
        "    except Exception as e:\n        caught.append([type(e).__name__, str(e)])\n"
        "print(json.dumps(caught))"
    )
    native: dict[str, Any] = {}
    exec(code.replace("print(json.dumps(caught))", ""), native)
    out = await run(session, code)
    assert out == native["caught"]
    assert [c[0] for c in out] == ["XMLSyntaxError", "OSError", "OSError"]
    out = await run(session, "print(json.dumps([im.size, len(caught)]))")
    assert out == [[40, 30], 3]


def _parts(data: bytes) -> dict[str, str]:
    """A package's parts by name, each as the sha256 of its bytes (docProps/core.xml, which
    carries times, left out)."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {
            n: hashlib.sha256(zf.read(n)).hexdigest()
            for n in zf.namelist()
            if n != "docProps/core.xml"
        }


WRITE_DOCX = """
import docx
from docx.shared import Pt
d = docx.Document()
d.add_heading("Quarterly report", 0)
p = d.add_paragraph("Revenue grew by ")
p.add_run("12%").bold = True
t = d.add_table(rows=2, cols=3)
t.style = "Light Grid Accent 1"
for i, text in enumerate(["region", "q1", "q2"]):
    t.cell(0, i).text = text
t.cell(1, 0).text = "north"
d.add_page_break()
d.sections[0].header.paragraphs[0].text = "Confidential"
d.styles["Normal"].font.size = Pt(11)
d.save(PATH)
"""

WRITE_PPTX = """
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Inches
prs = Presentation()
s = prs.slides.add_slide(prs.slide_layouts[1])
s.shapes.title.text = "Results"
s.placeholders[1].text_frame.text = "first point"
s = prs.slides.add_slide(prs.slide_layouts[5])
s.shapes.title.text = "Chart"
cd = CategoryChartData()
cd.categories = ["a", "b", "c"]
cd.add_series("sales", (1.5, 2.5, 4.0))
s.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1.5), Inches(6), Inches(4), cd)
s.notes_slide.notes_text_frame.text = "speaker notes"
prs.save(PATH)
"""


async def test_a_word_file_written_in_the_guest_is_the_one_native_python_docx_writes(
    session: cove.Session, tmp_path: Any
) -> None:
    result = await session.run_code(WRITE_DOCX.replace("PATH", "'report.docx'"))
    assert result.return_code == 0, result.stderr
    guest_bytes, _ = await session.read_file("report.docx")
    native_path = tmp_path / "report.docx"
    exec(WRITE_DOCX.replace("PATH", repr(str(native_path))), {})
    assert _parts(guest_bytes) == _parts(native_path.read_bytes())
    # read natively
    read = docx.Document(io.BytesIO(guest_bytes))
    assert [p.text for p in read.paragraphs][:2] == ["Quarterly report", "Revenue grew by 12%"]
    assert read.tables[0].cell(0, 2).text == "q2"
    # and a file written natively, edited in the guest
    native = docx.Document(str(native_path))
    native.add_paragraph("added natively")
    buf = io.BytesIO()
    native.save(buf)
    await session.write_file("native.docx", buf.getvalue())
    out = await run(
        session,
        "import docx, json\nd = docx.Document('native.docx')\n"
        "d.add_paragraph('added in the guest'); d.save('native2.docx')\n"
        "print(json.dumps([p.text for p in docx.Document('native2.docx').paragraphs][-2:]))",
    )
    assert out == ["added natively", "added in the guest"]


async def test_a_presentation_written_in_the_guest_is_the_one_native_python_pptx_writes(
    session: cove.Session, tmp_path: Any
) -> None:
    result = await session.run_code(WRITE_PPTX.replace("PATH", "'deck.pptx'"))
    assert result.return_code == 0, result.stderr
    guest_bytes, _ = await session.read_file("deck.pptx")
    native_path = tmp_path / "deck.pptx"
    exec(WRITE_PPTX.replace("PATH", repr(str(native_path))), {})
    guest_parts, native_parts = _parts(guest_bytes), _parts(native_path.read_bytes())
    assert sorted(guest_parts) == sorted(native_parts)
    # the chart's embedded workbook carries XlsxWriter's time of writing: every other part is
    # the same bytes
    assert {n: h for n, h in guest_parts.items() if "/embeddings/" not in n} == {
        n: h for n, h in native_parts.items() if "/embeddings/" not in n
    }
    read = pptx.Presentation(io.BytesIO(guest_bytes))
    assert [s.shapes.title.text for s in read.slides] == ["Results", "Chart"]
    chart = next(sh for sh in read.slides[1].shapes if sh.has_chart).chart
    assert list(chart.plots[0].categories) == ["a", "b", "c"]
    assert list(chart.series[0].values) == [1.5, 2.5, 4.0]


IMAGE = """
from PIL import Image, ImageDraw, ImageFilter
im = Image.new("RGB", (120, 80), "white")
draw = ImageDraw.Draw(im)
draw.rectangle((10, 10, 60, 50), fill=(200, 30, 30), outline="black")
draw.ellipse((50, 20, 110, 70), fill=(30, 30, 200))
im = im.filter(ImageFilter.GaussianBlur(1.5)).rotate(15, expand=True)
"""
FORMATS = {
    "png": {},
    "webp": {"lossless": True},
    "tiff": {"compression": "tiff_deflate"},
    "bmp": {},
    "gif": {},
}


async def test_images_written_in_the_guest_decode_natively_to_the_native_pixels(
    session: cove.Session,
) -> None:
    save = "".join(f"im.save('out.{f}', **{o!r})\n" for f, o in FORMATS.items())
    result = await session.run_code(IMAGE + save)
    assert result.return_code == 0, result.stderr
    native: dict[str, Any] = {}
    exec(IMAGE, native)
    for fmt, options in FORMATS.items():
        data, _ = await session.read_file(f"out.{fmt}")
        buf = io.BytesIO()
        native["im"].save(buf, fmt, **options)
        with Image.open(io.BytesIO(data)) as got, Image.open(buf) as want:
            assert (got.format, got.size, got.mode) == (want.format, want.size, want.mode)
            assert got.tobytes() == want.tobytes(), fmt  # GIF: the same palette, too
        if fmt != "gif":  # the lossless ones are the image itself
            with Image.open(io.BytesIO(data)) as got:
                assert got.convert("RGB").tobytes() == native["im"].tobytes(), fmt


TEXT = """
from PIL import Image, ImageDraw, ImageFont
font = ImageFont.load_default(size=24)
im = Image.new("L", (200, 60), 255)
ImageDraw.Draw(im).text((10, 10), "Hello, Cove", font=font, fill=0)
result = [type(font).__name__, font.getbbox("Hello, Cove"), font.getlength("Hello, Cove"),
          im.point(lambda v: 255 - v).getbbox(), sum(1 for v in im.getdata() if v < 128)]
"""


async def test_text_is_drawn_with_freetype_in_the_font_that_ships(session: cove.Session) -> None:
    out = await run(session, TEXT + "import json\nprint(json.dumps(result))")
    native: dict[str, Any] = {}
    exec(TEXT, native)
    assert out == json.loads(json.dumps(native["result"]))
    assert out[0] == "FreeTypeFont" and out[4] > 100  # ink, in the font's own shapes


UNICODE = """
from lxml import etree, html
from bs4 import BeautifulSoup
root = etree.fromstring("<note mood='\\U0001F600'>launch \\U0001F680 at 10:00 \\u2013 ok</note>")
page = html.fromstring("<p>caf\\u00e9 \\U0001F44D</p>")
doc = '<?xml version="1.0" encoding="UTF-32"?><r>\\U0001F600 \\u00e9</r>'
result = [
    root.text, root.get("mood"), etree.tostring(root, encoding="unicode"),
    etree.tostring(root, encoding="utf-8").decode(), page.text_content(),
    etree.fromstring(doc.encode("utf-32")).text,
    etree.fromstring(doc.encode("utf-32-le").replace(b"UTF-32", b"UTF-32LE")).text,
    etree.tostring(etree.XML("<a>\\U0001F600</a>"), encoding="utf-32").decode("utf-32"),
    BeautifulSoup("<p>thumbs \\U0001F44D</p>", "lxml").p.string,
]
"""


async def test_text_past_the_basic_plane_parses_as_natively(session: cove.Session) -> None:
    # lxml hands libxml2 such a string as UCS-4, which libxml2 without iconv converts itself
    # (recipes/libxml2/patches/0002-ucs4-without-iconv.patch); UTF-32 documents too.
    out = await run(session, UNICODE + "import json\nprint(json.dumps(result))")
    native: dict[str, Any] = {}
    exec(UNICODE, native)
    assert out == native["result"]
    assert out[0] == "launch \U0001f680 at 10:00 \u2013 ok"


ENCODING_NAMES = """
from lxml import etree
root = etree.XML("<r>caf\\u00e9 \\u20ac</r>")
result = {}
for name in ["iso-8859-1", "ISO8859-1", "latin1", "L1", "iso-8859-15", "ISO8859-15", "utf8",
             "UTF-16", "us-ascii", "UTF-32", "UTF-32LE"]:
    try:
        result[name] = etree.tostring(root, encoding=name).hex()
    except LookupError as e:
        result[name] = f"LookupError: {e}"
"""


async def test_encoding_names_iconv_knows_work_without_it(session: cove.Session) -> None:
    # libxml2's own converters under the names iconv gives them natively (libxml2/0002)
    out = await run(session, ENCODING_NAMES + "import json\nprint(json.dumps(result))")
    native: dict[str, Any] = {}
    exec(ENCODING_NAMES, native)
    assert out == native["result"]
    assert not any(v.startswith("LookupError") for v in out.values())


async def test_pillows_own_report_names_its_modules_and_codecs(session: cove.Session) -> None:
    # PIL.features.pilinfo() (what `python -m PIL` prints) reads the binary modules' __file__,
    # which the guest's linked-in extension modules have (cove_guest.extensions)
    result = await session.run_code(
        "import io\nfrom PIL import features\nout = io.StringIO()\n"
        "features.pilinfo(out, supported_formats=False)\nprint(out.getvalue())",
        timeout_s=120,
    )
    assert result.return_code == 0, result.stderr
    assert f"Pillow {PIL.__version__}" in result.stdout
    assert "Binary Pillow modules loaded from /usr/lib/python311.zip/PIL" in result.stdout
    assert "--- JPEG support ok" in result.stdout
    assert "*** LITTLECMS2 support not installed" in result.stdout


CODE_PAGES = """
from lxml import etree, html
from bs4 import BeautifulSoup
result = {}
for cp in (1250, 1251, 1252, 1253, 1254, 1256, 1257):
    decoded = []
    for byte in range(0x80, 0x100):
        doc = b'<?xml version="1.0" encoding="windows-%d"?><t>' % cp + bytes([byte]) + b"</t>"
        try:
            decoded.append(ord(etree.fromstring(doc).text))
        except etree.XMLSyntaxError:
            decoded.append(-1)
    el = etree.Element("t", note="\\u00e9")
    el.text = "".join(chr(c) for c in decoded if c > 0) + " \\u4e2d"  # one it lacks
    written = [etree.tostring(el, encoding=name).hex() for name in ("windows-%d" % cp, "cp%d" % cp)]
    result[cp] = [decoded, written]
page = ('<html><head><meta charset="windows-1252"><title>Caf\\u00e9 \\u20ac5</title></head>'
        '<body><p>\\u201csmart\\u201d \\u2013 dash</p></body></html>').encode("cp1252")
doc = html.fromstring(page)
soup = BeautifulSoup(page, "lxml")
result["html"] = [doc.findtext(".//title"), doc.findtext(".//p"), soup.original_encoding,
                  soup.title.string, soup.p.string]
"""


async def test_windows_code_pages_decode_and_encode_as_natively(session: cove.Session) -> None:
    # libxml2's own converters for them (libxml2/0003): every byte of each code page read as
    # native lxml (with iconv) reads it, undefined ones refused alike, and written back, a
    # character the page lacks as a character reference; a web page declared windows-1252.
    out = await run(session, CODE_PAGES + "import json\nprint(json.dumps(result))")
    native: dict[str, Any] = {}
    exec(CODE_PAGES, native)
    assert out == json.loads(json.dumps(native["result"]))
    assert out["1252"][0][0] == 0x20AC and out["1252"][0].count(-1) == 5
    assert out["html"][:2] == ["Caf\u00e9 \u20ac5", "\u201csmart\u201d \u2013 dash"]


FONTS = """
from PIL import Image, ImageDraw, ImageFont
result = {}
for name in FONT_NAMES:
    font = ImageFont.truetype(name, 28, layout_engine=LAYOUT)
    result["layout"] = int(font.layout_engine)
    im = Image.new("L", (360, 50), 255)
    ImageDraw.Draw(im).text((6, 6), "Quarterly revenue \\u20ac", font=font, fill=0)
    result[name.rsplit("/", 1)[-1]] = [font.getname(), font.getbbox("Quarterly revenue"),
                                      im.point(lambda v: 255 - v).getbbox(),
                                      sum(1 for v in im.getdata() if v < 128)]
try:
    ImageFont.truetype("arial.ttf", 12)
except OSError as e:
    result["arial"] = str(e)
"""


async def test_truetype_finds_the_fonts_that_ship_by_name_and_path(
    session: cove.Session, cache_dir: str
) -> None:
    # DejaVu (Debian's fonts-dejavu-core) in the guest's /usr/share/fonts: found by file name
    # as on a Debian machine (pillow/0003), and drawn as native Pillow draws the same file with
    # the same layout: the guest has no Raqm, so its default is Pillow's basic layout, which the
    # native side is asked for (the wheel's Raqm kerns: docs/packages.md).
    files = ["DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSerif.ttf"]
    guest_names = [*files[:3], "/usr/share/fonts/truetype/dejavu/" + files[3]]
    out = await run(
        session,
        f"LAYOUT = None\nFONT_NAMES = {guest_names!r}\n"
        + FONTS
        + "import json\nprint(json.dumps(result))",
    )
    artifact = cove.Artifact(unpack_dir=cache_dir)
    shipped = artifact.root_dir / "usr" / "share" / "fonts" / "truetype" / "dejavu"
    native: dict[str, Any] = {
        "FONT_NAMES": [str(shipped / f) for f in files],
        "LAYOUT": ImageFont.Layout.BASIC,
    }
    exec(FONTS, native)
    assert out == json.loads(json.dumps(native["result"]))
    assert out["DejaVuSans.ttf"][0] == ["DejaVu Sans", "Book"] and out["DejaVuSans.ttf"][3] > 300
    assert out["arial"] == "cannot open resource"

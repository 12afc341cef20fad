"""The third-party packages in the guest's zip (python-wasm/packages.txt, docs/packages.md).

Each one imports in a fresh session with its metadata, and its most used API works on the real
interpreter: spreadsheets written and read back, text from a PDF, CSS selectors, algebra, dates
and time zones, and `requests` without a network.
"""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import pytest

import cove

pytestmark = pytest.mark.anyio

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
MANIFEST = json.loads(
    (pathlib.Path(cove.__file__).parent / "_interpreter" / "manifest.json").read_text()
)
PACKAGES: dict[str, dict[str, str]] = MANIFEST.get("packages", {})
IMPORT_NAMES = {
    "python-dateutil": "dateutil",
    "beautifulsoup4": "bs4",
    "typing-extensions": "typing_extensions",
    "charset-normalizer": "charset_normalizer",
    "et-xmlfile": "et_xmlfile",
    "python-docx": "docx",
    "python-pptx": "pptx",
    "fonttools": "fontTools",
}


async def run(session: cove.Session, code: str) -> dict[str, Any]:
    """Runs `code`, which prints one JSON document last; fails on any error output."""
    result = await session.run_code(code, timeout_s=60)
    assert result.return_code == 0 and result.stderr == "", result.stderr
    out: dict[str, Any] = json.loads(result.stdout.splitlines()[-1])
    return out


def test_the_artifact_ships_exactly_the_pinned_list() -> None:
    pinned = {}
    for line in (ROOT / "python-wasm" / "packages.txt").read_text().splitlines():
        match = re.match(r"^([\w.-]+)==(\S+) --hash=sha256:([0-9a-f]{64})$", line)
        if match:
            name = re.sub(r"[-_.]+", "-", match[1]).lower()
            pinned[name] = {"version": match[2], "sha256": match[3]}
    shipped = {n: {"version": p["version"], "sha256": p["sha256"]} for n, p in PACKAGES.items()}
    assert shipped == pinned
    assert all(p["license"] for p in PACKAGES.values())


@pytest.mark.parametrize("name", sorted(PACKAGES))
async def test_package_imports_in_a_fresh_session_with_its_metadata(
    session: cove.Session, name: str
) -> None:
    module = IMPORT_NAMES.get(name, name)
    code = f"""
import importlib.metadata as md, json, os
import {module}
dist = md.distribution({name!r})
files = dist.files
print(json.dumps({{
    "version": md.version({name!r}),
    "file": {module}.__file__,
    "record": len(files),
    "record_ok": all(os.path.basename(str(f)) == "RECORD" or f.read_binary() is not None for f in files[:50]),
    "summary": bool(dist.metadata["Summary"]),
    "workspace": os.listdir("/workspace"),
}}))
"""
    out = await run(session, code)
    assert out["version"] == PACKAGES[name]["version"]
    assert out["file"].startswith("/usr/lib/python311.zip/")
    assert out["record"] > 1 and out["record_ok"] and out["summary"]
    assert out["workspace"] == []  # importing leaves nothing behind


async def test_xlsxwriter_writes_a_workbook_that_openpyxl_reads(session: cove.Session) -> None:
    code = """
import datetime, json, xlsxwriter, openpyxl
wb = xlsxwriter.Workbook("report.xlsx")
ws = wb.add_worksheet("Sales")
bold = wb.add_format({"bold": True})
money = wb.add_format({"num_format": "#,##0.00"})
dates = wb.add_format({"num_format": "yyyy-mm-dd"})
ws.write_row(0, 0, ["region", "units", "price", "day"], bold)
rows = [("north", 12, 2.5, datetime.date(2024, 1, 31)), ("south", 7, 4.25, datetime.date(2024, 2, 29))]
for r, (region, units, price, day) in enumerate(rows, 1):
    ws.write_string(r, 0, region); ws.write_number(r, 1, units)
    ws.write_number(r, 2, price, money); ws.write_datetime(r, 3, day, dates)
ws.write_formula(3, 1, "=SUM(B2:B3)", None, 19)
ws.add_table(0, 5, 2, 6, {"columns": [{"header": "k"}, {"header": "v"}]})
chart = wb.add_chart({"type": "column"})
chart.add_series({"values": "=Sales!$B$2:$B$3"})
ws.insert_chart("H2", chart)
wb.close()

book = openpyxl.load_workbook("report.xlsx")
sheet = book["Sales"]
values = [[c.value for c in row] for row in sheet.iter_rows(min_row=1, max_row=4, max_col=4)]
cached = openpyxl.load_workbook("report.xlsx", data_only=True)["Sales"]["B4"].value
book.create_sheet("Notes")["A1"] = "written by openpyxl"
book.save("report2.xlsx")
again = openpyxl.load_workbook("report2.xlsx", read_only=True)
print(json.dumps({
    "sheets": again.sheetnames,
    "values": values,
    "formula": sheet["B4"].value,
    "cached": cached,
    "bold": sheet["A1"].font.b,
    "formats": [sheet["C2"].number_format, sheet["D2"].number_format],
    "note": again["Notes"]["A1"].value,
}, default=str))
"""
    out = await run(session, code)
    assert out["sheets"] == ["Sales", "Notes"]
    assert out["values"] == [
        ["region", "units", "price", "day"],
        ["north", 12, 2.5, "2024-01-31 00:00:00"],
        ["south", 7, 4.25, "2024-02-29 00:00:00"],
        [None, "=SUM(B2:B3)", None, None],
    ]
    assert out["cached"] == 19
    assert out["bold"] is True
    assert out["formats"] == ["#,##0.00", "yyyy-mm-dd"]
    assert out["note"] == "written by openpyxl"
    data, _ = await session.read_file("report.xlsx")
    assert data.startswith(b"PK\x03\x04")  # a real OOXML (zip) file, readable on the host


async def test_xlrd_reads_a_legacy_xls_file(session: cove.Session) -> None:
    # sales.xls: written natively by xlwt 1.3.0 (xlrd 2 reads only .xls).
    await session.write_file("sales.xls", (FIXTURES / "sales.xls").read_bytes())
    code = """
import json, xlrd
book = xlrd.open_workbook("sales.xls")  # use_mmap defaults to True: the guest has no mmap
sheet = book.sheet_by_name("Sales")
try:
    xlrd.open_workbook("missing.xls")
except FileNotFoundError:
    missing = "FileNotFoundError"
print(json.dumps({
    "sheets": book.sheet_names(),
    "shape": [sheet.nrows, sheet.ncols],
    "rows": [sheet.row_values(r) for r in range(1, 3)],
    "date": str(xlrd.xldate_as_datetime(sheet.cell_value(2, 3), book.datemode)),
    "missing": missing,
}))
"""
    out = await run(session, code)
    assert out == {
        "sheets": ["Sales", "Empty"],
        "shape": [4, 4],
        "rows": [["north", 12.0, 2.5, 45322.0], ["south", 7.0, 4.25, 45351.0]],
        "date": "2024-02-29 00:00:00",
        "missing": "FileNotFoundError",
    }


def _pdf(lines: list[str]) -> bytes:
    """A minimal one-page PDF with `lines` in Helvetica, written by hand (no PDF library)."""
    ops = "BT /F1 18 Tf 72 720 Td 22 TL " + " ".join(f"({line}) Tj T*" for line in lines) + " ET"
    content = ops.encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


async def test_pypdf_extracts_text_and_writes_a_pdf(session: cove.Session) -> None:
    await session.write_file("invoice.pdf", _pdf(["Invoice 2024-117", "Total due: 1,234.50 EUR"]))
    code = """
import io, json, pypdf
reader = pypdf.PdfReader("invoice.pdf")
text = reader.pages[0].extract_text()
writer = pypdf.PdfWriter()
writer.append(reader)
writer.add_blank_page(width=200, height=200)
writer.add_metadata({"/Title": "Copied"})
writer.encrypt("secret")
buf = io.BytesIO(); writer.write(buf)
copy = pypdf.PdfReader(io.BytesIO(buf.getvalue()))
copy.decrypt("secret")
print(json.dumps({
    "text": text,
    "pages": len(copy.pages),
    "title": copy.metadata.title,
    "encrypted": copy.is_encrypted,
    "copied_text": copy.pages[0].extract_text(),
}))
"""
    out = await run(session, code)
    assert out["text"].splitlines() == ["Invoice 2024-117", "Total due: 1,234.50 EUR"]
    assert out["pages"] == 2
    assert out["title"] == "Copied"
    assert out["encrypted"] is True
    assert out["copied_text"] == out["text"]


async def test_beautifulsoup_parses_html_and_selects(session: cove.Session) -> None:
    code = r"""
import json
from bs4 import BeautifulSoup
html = '''<html><head><title>Prices</title></head><body>
<div id="main" class="c1 c2"><p class="lead">one</p><p data-x="v 1">two &amp; more</p>
<ul><li>1</li><li>2</li><li>3</li></ul><a href="https://x.org/a">link</a><a href="/b">rel</a>
<span lang="en-US">s</span></div></body></html>'''
soup = BeautifulSoup(html, "html.parser")
selectors = ["p.lead", "div > p", "a[href^='https']", "p[data-x='v 1']", "li:nth-child(2)",
             "li:not(:first-child)", "p ~ ul li", "p + p", "p:-soup-contains('more')",
             "div.c1.c2 > a", "[lang|=en]", "li:last-of-type", ":is(p, a)", "div :has(> li)"]
print(json.dumps({
    "title": soup.title.string,
    "find_all": [a["href"] for a in soup.find_all("a")],
    "text": soup.find("p", attrs={"data-x": True}).get_text(),
    "select": {s: [t.get_text() for t in soup.select(s)] for s in selectors},
    "select_one": soup.select_one("#main p").get_text(),
}))
"""
    out = await run(session, code)
    assert out["title"] == "Prices"
    assert out["find_all"] == ["https://x.org/a", "/b"]
    assert out["text"] == "two & more"
    assert out["select"] == {
        "p.lead": ["one"],
        "div > p": ["one", "two & more"],
        "a[href^='https']": ["link"],
        "p[data-x='v 1']": ["two & more"],
        "li:nth-child(2)": ["2"],
        "li:not(:first-child)": ["2", "3"],
        "p ~ ul li": ["1", "2", "3"],
        "p + p": ["two & more"],
        "p:-soup-contains('more')": ["two & more"],
        "div.c1.c2 > a": ["link", "rel"],
        "[lang|=en]": ["s"],
        "li:last-of-type": ["3"],
        ":is(p, a)": ["one", "two & more", "link", "rel"],
        "div :has(> li)": ["123"],
    }
    assert out["select_one"] == "one"


async def test_sympy_solves_differentiates_and_integrates(session: cove.Session) -> None:
    code = """
import json
import sympy as sp
x, y = sp.symbols("x y")
f = sp.sin(x) * sp.exp(x)
m = sp.Matrix([[1, 2], [3, 4]])
lam = sp.lambdify(x, x**2 + 1)
print(json.dumps({
    "solve": [str(s) for s in sp.solve(x**2 - 5*x + 6, x)],
    "system": {str(k): str(v) for k, v in sp.solve([x + y - 3, x - y - 1], [x, y]).items()},
    "diff": str(sp.diff(f, x)),
    "integrate": str(sp.integrate(sp.exp(-x**2), (x, -sp.oo, sp.oo))),
    "simplify": str(sp.simplify(sp.sin(x)**2 + sp.cos(x)**2)),
    "series": str(sp.series(sp.cos(x), x, 0, 6)),
    "limit": str(sp.limit(sp.sin(x) / x, x, 0)),
    "det": str(m.det()), "inv": str(m.inv()),
    "factor": str(sp.factor(x**3 - x)),
    "rational": str(sp.Rational(1, 3) + sp.Rational(1, 6)),
    "evalf": str(sp.pi.evalf(30)),
    "latex": sp.latex(sp.Integral(sp.sqrt(x), x)),
    "lambdify": lam(3),
    "dsolve": str(sp.dsolve(sp.Function("g")(x).diff(x) - sp.Function("g")(x))),
}))
"""
    out = await run(session, code)
    assert out == {
        "solve": ["2", "3"],
        "system": {"x": "2", "y": "1"},
        "diff": "exp(x)*sin(x) + exp(x)*cos(x)",
        "integrate": "sqrt(pi)",
        "simplify": "1",
        "series": "1 - x**2/2 + x**4/24 + O(x**6)",
        "limit": "1",
        "det": "-2",
        "inv": "Matrix([[-2, 1], [3/2, -1/2]])",
        "factor": "x*(x - 1)*(x + 1)",
        "rational": "1/2",
        "evalf": "3.14159265358979323846264338328",
        "latex": "\\int \\sqrt{x}\\, dx",
        "lambdify": 10,
        "dsolve": "Eq(g(x), C1*exp(x))",
    }


async def test_mpmath_and_six(session: cove.Session) -> None:
    code = """
import json, mpmath, six
mpmath.mp.dps = 40
print(json.dumps({
    "pi": str(mpmath.pi),
    "zeta": mpmath.nstr(mpmath.zeta(3), 20),
    "quad": mpmath.nstr(mpmath.quad(lambda t: mpmath.exp(-t**2), [-mpmath.inf, mpmath.inf])**2, 15),
    "six": [six.PY3, six.text_type.__name__, six.moves.range.__name__],
}))
"""
    out = await run(session, code)
    assert out == {
        "pi": "3.141592653589793238462643383279502884197",
        "zeta": "1.2020569031595942854",
        "quad": "3.14159265358979",
        "six": [True, "str", "range"],
    }


async def test_dateutil_parses_and_pytz_localises(session: cove.Session) -> None:
    code = """
import datetime as dt, json, zoneinfo
import pytz
from dateutil import parser, rrule, tz
from dateutil.relativedelta import relativedelta
ny = pytz.timezone("America/New_York")
before = ny.localize(dt.datetime(2024, 3, 10, 1, 30))
after = ny.normalize(before + dt.timedelta(hours=1))
paris = tz.gettz("Europe/Paris")
print(json.dumps({
    "parse": parser.parse("Tue, 5 Mar 2024 14:30:00 +0100").isoformat(),
    "fuzzy": parser.parse("meeting on March 7th 2024 at 3pm", fuzzy=True).isoformat(),
    "dayfirst": parser.parse("05/03/2024", dayfirst=True).date().isoformat(),
    "relativedelta": (dt.date(2024, 1, 31) + relativedelta(months=1)).isoformat(),
    "rrule": [d.date().isoformat() for d in rrule.rrule(rrule.MONTHLY, count=3, bymonthday=-1, dtstart=dt.datetime(2024, 1, 1))],
    "pytz": [before.isoformat(), after.isoformat(), after.tzname()],
    "pytz_utc": pytz.utc.localize(dt.datetime(2024, 7, 1, 12)).astimezone(pytz.timezone("Asia/Kolkata")).isoformat(),
    "pytz_zones": ["Europe/Paris" in pytz.all_timezones, len(pytz.common_timezones) > 400],
    "dateutil_tz": dt.datetime(2024, 7, 1, 12, tzinfo=paris).isoformat(),
    "zoneinfo_agrees": dt.datetime(2024, 7, 1, 12, tzinfo=zoneinfo.ZoneInfo("Europe/Paris")).utcoffset() == dt.datetime(2024, 7, 1, 12, tzinfo=paris).utcoffset(),
}))
"""
    out = await run(session, code)
    assert out == {
        "parse": "2024-03-05T14:30:00+01:00",
        "fuzzy": "2024-03-07T15:00:00",
        "dayfirst": "2024-03-05",
        "relativedelta": "2024-02-29",
        "rrule": ["2024-01-31", "2024-02-29", "2024-03-31"],
        "pytz": ["2024-03-10T01:30:00-05:00", "2024-03-10T03:30:00-04:00", "EDT"],
        "pytz_utc": "2024-07-01T17:30:00+05:30",
        "pytz_zones": [True, True],
        "dateutil_tz": "2024-07-01T12:00:00+02:00",
        "zoneinfo_agrees": True,
    }


async def test_requests_works_offline_and_the_network_is_refused(session: cove.Session) -> None:
    code = """
import json, os
import requests, certifi, charset_normalizer, idna, urllib3
prepared = requests.Request("POST", "http://example.com/api", params={"q": "a b"}, json={"k": 1}).prepare()
try:
    requests.get("http://example.com/", timeout=2)
    fetched = "fetched"
except Exception as exc:
    fetched = "refused"
# Long enough for the detector to be sure (native charset-normalizer gives cp1252 too).
text = ("Le cœur déçu mais l'âme plutôt naïve, Louÿs rêva de crapaüter en canoë au delà des "
        "îles, près du mälström où brûlent les novæ.").encode("cp1252")
best = charset_normalizer.from_bytes(text).best()
print(json.dumps({
    "url": prepared.url,
    "body": prepared.body.decode(),
    "content_type": prepared.headers["Content-Type"],
    "fetched": fetched,
    "charset": [best.encoding, str(best) == text.decode("cp1252")],
    "idna": idna.encode("bücher.example").decode(),
    "parse_url": urllib3.util.parse_url("https://user@host:8443/p?q=1").port,
    "certifi": [certifi.where().endswith("certifi/cacert.pem"), "BEGIN CERTIFICATE" in certifi.contents()],
    "workspace": os.listdir("/workspace"),
}))
"""
    out = await run(session, code)
    assert out == {
        "url": "http://example.com/api?q=a+b",
        "body": '{"k": 1}',
        "content_type": "application/json",
        "fetched": "refused",
        "charset": ["cp1252", True],
        "idna": "xn--bcher-kva.example",
        "parse_url": 8443,
        "certifi": [True, True],
        "workspace": [],
    }


@pytest.mark.parametrize("url", ["http://example.com/", "https://example.com/data.json"])
async def test_requests_get_fails_at_once_saying_there_is_no_network(
    session: cove.Session, url: str
) -> None:
    result = await session.run_code(
        "import time, requests\n"
        "t = time.perf_counter()\n"
        "try:\n"
        f"    requests.get({url!r}, timeout=30)\n"
        "except requests.exceptions.ConnectionError as exc:\n"
        "    print('network access is not available in this sandbox' in str(exc))\n"
        "print(time.perf_counter() - t < 10)"  # at once: not the 30 s timeout (a loaded machine)
    )
    assert result.stdout == "True\nTrue\n", result.stderr


# -- what models are told about packages (pip, missing imports) -----------------------------------

BUILT: dict[str, dict[str, str]] = MANIFEST.get("built_packages", {})


async def _bash(session: cove.Session, command: str) -> cove.ExecResult:
    call = cove.tools.BashExecution(input=cove.tools.BashExecutionInput(command=command))
    return await session.execute(call)


async def test_pip_lists_what_the_interpreter_has(session: cove.Session) -> None:
    listed = await _bash(session, "pip list")
    assert listed.return_code == 0, listed.stderr
    rows = dict(line.split()[:2] for line in listed.stdout.splitlines()[2:])
    for name, built in BUILT.items():  # numpy and pandas, with their versions
        assert rows[name] == built["version"]
    for name, package in PACKAGES.items():
        assert any(re.sub(r"[-_.]+", "-", n).lower() == name for n in rows), name
        assert package["version"] in rows.values()
    out = await run(
        session,
        "import importlib.metadata, json, io, contextlib\n"
        "names = sorted(d.metadata['Name'] for d in importlib.metadata.distributions())\n"
        "buf = io.StringIO()\n"
        "with contextlib.redirect_stdout(buf):\n    help('modules')\n"
        "print(json.dumps({'names': names, 'modules': buf.getvalue()}))",
    )
    assert sorted(rows) == out["names"]
    assert "numpy" in out["modules"] and "pandas" in out["modules"]


async def test_pip_install_says_what_is_installed_and_why_not(session: cove.Session) -> None:
    ok = await _bash(session, "pip install requests pandas")
    assert ok.return_code == 0, ok.stderr
    assert "Requirement already satisfied: requests" in ok.stdout
    assert f"pandas in /usr/lib/python311.zip ({BUILT['pandas']['version']})" in ok.stdout
    missing = await _bash(session, "pip install tabulate")
    assert missing.return_code == 1
    assert "no network access" in missing.stderr and "pip list" in missing.stderr
    result = await session.run_code(
        "import subprocess, sys\n"
        "r = subprocess.run([sys.executable, '-m', 'pip', 'show', 'numpy'], capture_output=True,"
        " text=True)\nprint(r.returncode, r.stdout.splitlines()[1])"
    )
    assert result.stdout == f"0 Version: {BUILT['numpy']['version']}\n", result.stderr


async def test_a_package_not_here_says_it_cannot_be_installed(session: cove.Session) -> None:
    result = await session.run_code("import tabulate")
    assert "No module named 'tabulate'" in result.stderr
    assert "no network access to install packages" in result.stderr
    # Probing for an optional package still answers None, as such code expects.
    result = await session.run_code(
        "import importlib.util\nprint(importlib.util.find_spec('tabulate'))"
    )
    assert result.stdout == "None\n", result.stderr


async def test_numpy_testing_and_sympy_lambdify_with_numpy(session: cove.Session) -> None:
    out = await run(
        session,
        "import json, numpy as np, numpy.testing as npt, sympy\n"
        "npt.assert_allclose([1.0, 2.0], [1.0, 2.0 + 1e-12])\n"
        "namespace = {}\nexec('from numpy import *', namespace)\n"
        "x = sympy.Symbol('x')\n"
        "f = sympy.lambdify(x, sympy.sin(x) ** 2 + sympy.cos(x) ** 2, 'numpy')\n"
        "print(json.dumps({'star': 'ndarray' in namespace,"
        " 'values': f(np.array([0.0, 1.0, 2.0])).round(12).tolist()}))",
    )
    assert out == {"star": True, "values": [1.0, 1.0, 1.0]}


async def test_help_exit_and_quit_are_there_as_in_any_python(session: cove.Session) -> None:
    result = await session.run_code("help(len)")
    assert result.return_code == 0 and "len(obj, /)" in result.stdout, result.stderr
    assert (await session.run_code("print(repr(exit))")).stdout == (
        "Use exit() or Ctrl-D (i.e. EOF) to exit\n"
    )
    assert (await session.run_code("exit(3)")).return_code == 3
    assert (await session.run_code("quit()")).return_code == 0

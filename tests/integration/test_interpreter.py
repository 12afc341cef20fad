"""The interpreter artifact itself: state, stdlib, isolation, randomness, the host channel."""

from __future__ import annotations

import json

import pytest

import cove

pytestmark = pytest.mark.anyio


async def test_state_persists_between_calls(session: cove.Session) -> None:
    await session.run_code(
        "import math\ncounter = 41\ndef bump():\n    global counter\n    counter += 1"
    )
    await session.run_code("bump()")
    result = await session.run_code("print(counter, math.pi > 3)")
    assert result.stdout == "42 True\n"
    assert result.return_code == 0


STDLIB_CHECK = r"""
import json, re, csv, sqlite3, zlib, bz2, lzma, decimal, fractions, statistics, datetime, io
import zoneinfo, collections, itertools, functools, dataclasses, typing, enum, pathlib, tempfile
import pickle, hashlib, base64, struct, uuid, random, secrets, textwrap, difflib, unicodedata
import xml.etree.ElementTree as ET, html, email, urllib.parse, shutil, glob, argparse, logging
import traceback, ast, inspect
from email.message import EmailMessage

checks = {}
checks["json"] = json.loads(json.dumps({"a": [1, 2]})) == {"a": [1, 2]}
checks["re"] = re.sub(r"(\d+)", r"<\1>", "a1b22") == "a<1>b<22>"
buf = io.StringIO(); csv.writer(buf).writerow(["x", "y,z"]); checks["csv"] = buf.getvalue() == 'x,"y,z"\r\n'
db = sqlite3.connect("t.db"); db.execute("create table t(v)"); db.executemany("insert into t values (?)", [(1,), (2,)]); db.commit()
checks["sqlite3"] = db.execute("select sum(v) from t").fetchone() == (3,); db.close()
data = b"cove" * 1000
checks["zlib"] = zlib.decompress(zlib.compress(data)) == data
checks["bz2"] = bz2.decompress(bz2.compress(data)) == data
checks["lzma"] = lzma.decompress(lzma.compress(data)) == data
checks["decimal"] = decimal.Decimal("0.1") + decimal.Decimal("0.2") == decimal.Decimal("0.3")
checks["fractions"] = fractions.Fraction(1, 3) * 3 == 1
checks["statistics"] = statistics.median([3, 1, 2]) == 2
paris = datetime.datetime(2024, 7, 1, 12, tzinfo=zoneinfo.ZoneInfo("Europe/Paris"))
checks["zoneinfo"] = paris.utcoffset() == datetime.timedelta(hours=2) and "America/New_York" in zoneinfo.available_timezones()
checks["collections"] = collections.Counter("aab").most_common(1) == [("a", 2)]
checks["itertools"] = list(itertools.accumulate([1, 2, 3])) == [1, 3, 6]
checks["functools"] = functools.reduce(lambda a, b: a * b, [1, 2, 3, 4]) == 24
@dataclasses.dataclass
class P:
    x: int
checks["dataclasses"] = dataclasses.asdict(P(1)) == {"x": 1}
checks["typing"] = typing.get_type_hints(P) == {"x": int}
class Color(enum.Enum):
    RED = 1
checks["enum"] = Color(1) is Color.RED
pathlib.Path("d/e").mkdir(parents=True); pathlib.Path("d/e/f.txt").write_text("hi")
checks["pathlib"] = pathlib.Path("d/e/f.txt").read_text() == "hi"
with tempfile.TemporaryDirectory() as tmp:
    checks["tempfile"] = pathlib.Path(tmp).is_dir()
checks["pickle"] = pickle.loads(pickle.dumps({1: (2, 3)})) == {1: (2, 3)}
checks["hashlib"] = hashlib.sha256(b"abc").hexdigest().startswith("ba7816bf") and hashlib.md5(b"").hexdigest() == "d41d8cd98f00b204e9800998ecf8427e"
checks["base64"] = base64.b64decode(base64.b64encode(b"\x00\xff")) == b"\x00\xff"
checks["struct"] = struct.unpack("<I", struct.pack("<I", 7)) == (7,)
checks["uuid"] = uuid.UUID(str(uuid.uuid4())).version == 4
checks["random"] = 0 <= random.random() < 1
checks["secrets"] = len(secrets.token_hex(8)) == 16
checks["textwrap"] = textwrap.wrap("a b c d", 3) == ["a b", "c d"]
checks["difflib"] = difflib.SequenceMatcher(None, "abc", "abd").ratio() > 0.6
checks["unicodedata"] = unicodedata.name("é") == "LATIN SMALL LETTER E WITH ACUTE"
checks["xml"] = ET.fromstring("<a><b>t</b></a>").find("b").text == "t"
checks["html"] = html.escape("<a>") == "&lt;a&gt;"
msg = EmailMessage(); msg["Subject"] = "hi"; msg.set_content("body")
checks["email"] = email.message_from_string(msg.as_string())["Subject"] == "hi"
checks["urllib.parse"] = urllib.parse.urlparse("https://x.org/p?q=1").query == "q=1"
shutil.copy("d/e/f.txt", "g.txt"); checks["shutil"] = pathlib.Path("g.txt").read_text() == "hi"
checks["glob"] = glob.glob("d/**/*.txt", recursive=True) == ["d/e/f.txt"]
checks["argparse"] = argparse.ArgumentParser().parse_args([]) is not None
logging.basicConfig(); logging.getLogger("t").warning("logged"); checks["logging"] = True
checks["traceback"] = "ZeroDivisionError" in "".join(traceback.format_exception(ZeroDivisionError("x")))
checks["ast"] = isinstance(ast.parse("x = 1").body[0], ast.Assign)
def documented():
    return 1
checks["inspect"] = "return 1" in inspect.getsource(documented)
failed = [name for name, ok in checks.items() if not ok]
print(len(checks), failed)
"""


async def test_stdlib_modules_a_data_analyst_uses_import_and_work(session: cove.Session) -> None:
    result = await session.run_code(STDLIB_CHECK)
    assert result.stderr.replace("WARNING:t:logged\n", "") == ""
    count, failed = result.stdout.split(" ", 1)
    assert failed == "[]\n"
    assert int(count) == 40


async def test_cwd_is_the_workspace_and_host_paths_are_unreachable(session: cove.Session) -> None:
    code = """
import os
print(os.getcwd())
for path in ("/etc/passwd", "/proc/self/environ", "/workspace/../etc", "/tmp/../etc", "/etc",
             "/home", "/root", "/usr/bin", "/../etc/passwd"):
    try:
        open(path).read() if "." in path or "passwd" in path else os.listdir(path)
        print("REACHED", path)
    except OSError as exc:
        print("refused", path, type(exc).__name__)
print(sorted(os.environ), os.environ["HOME"], os.path.expanduser("~/x"))
"""
    result = await session.run_code(code)
    assert "REACHED" not in result.stdout, result.stdout
    assert result.stdout.startswith("/workspace\n")
    # nothing inherited from the host environment; HOME is the workspace, as in the shell
    assert result.stdout.rstrip().endswith("['HOME'] /workspace /workspace/x"), result.stdout


ROOT = """
import os, pathlib
result = {
    "/": sorted(os.listdir("/")),
    "/usr": sorted(os.listdir("/usr")),
    "/usr/lib": sorted(os.listdir("/usr/lib")),
    "fonts": sorted(os.listdir("/usr/share/fonts/truetype/dejavu")),
    "dirs": [pathlib.Path(p).is_dir() for p in ("/", "/usr", "/workspace", "/tmp")],
    "absent": [pathlib.Path(p).exists() for p in ("/etc/passwd", "/conftest.py", "/proc")],
    "parents": [str(p) for p in pathlib.Path.cwd().parents],
    "walk_up": [(p / "setup.cfg").is_file() for p in pathlib.Path.cwd().parents],
}
try:
    open("/etc/passwd")
except OSError as e:
    result["passwd"] = type(e).__name__
writes = []
for attempt in (
    lambda: open("/evil.py", "w"),
    lambda: open("/usr/lib/python311.zip", "r+b"),
    lambda: open("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "ab"),
    lambda: os.mkdir("/usr/share/x"),
    lambda: os.remove("/usr/lib/python311.zip"),
    lambda: os.rename("/usr/share/fonts", "/usr/share/f"),
    lambda: os.rmdir("/workspace"),
    lambda: os.symlink("/workspace", "/usr/w"),
    lambda: os.utime("/usr/lib/python311.zip", (0, 0)),
    lambda: os.truncate("/usr/lib/python311.zip", 0),
):
    try:
        attempt()
        writes.append("WROTE")
    except OSError as e:
        writes.append(type(e).__name__)
result["writes"] = writes
"""


async def test_the_root_is_the_artifacts_read_only_tree(
    session: cove.Session, cache_dir: str
) -> None:
    # The guest's / is the artifact's root/, preopened read-only (Artifact.PREOPENS): what a
    # small Debian machine shows where a model's code looks (a walk up from the working
    # directory, /usr/share/fonts), the session's /workspace and /tmp over it, and nothing of
    # the host's. No write of any kind reaches it.
    artifact = cove.Artifact(unpack_dir=cache_dir)  # the session's own copy
    before = {p: p.stat().st_mtime_ns for p in artifact.root_dir.rglob("*")}
    result = await session.run_code(ROOT + "import json\nprint(json.dumps(result))")
    assert result.return_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["/"] == ["tmp", "usr", "workspace"]
    assert out["/usr"] == ["lib", "share"] and out["/usr/lib"] == ["python311.zip"]
    assert "DejaVuSans.ttf" in out["fonts"]
    assert out["dirs"] == [True] * 4 and out["absent"] == [False] * 3
    assert out["parents"] == ["/"] and out["walk_up"] == [False]
    assert out["passwd"] == "FileNotFoundError"
    assert "WROTE" not in out["writes"], out["writes"]
    assert {p: p.stat().st_mtime_ns for p in artifact.root_dir.rglob("*")} == before
    cove.Artifact(unpack_dir=cache_dir)  # every file's hash checked again: unchanged


async def test_stdlib_directory_is_read_only(session: cove.Session) -> None:
    result = await session.run_code("open('/usr/lib/evil.py', 'w').write('x')")
    assert result.return_code == 1
    assert "Error" in result.stderr


async def test_no_network_and_no_host_processes(session: cove.Session) -> None:
    # subprocess runs commands through the sandbox's own shell (cove_guest.sandbox): they see
    # the sandbox's files, never the host's.
    code = """
import socket, subprocess, os
outcomes = []
try:
    socket.create_connection(("127.0.0.1", 80), timeout=1)
    outcomes.append("socket connected")
except Exception as exc:
    outcomes.append(type(exc).__name__)
r = subprocess.run(["cat", "/etc/passwd"], capture_output=True, text=True)
outcomes.append((r.returncode, r.stdout, "No such file or directory" in r.stderr))
print(hasattr(os, "fork"), outcomes)
try:
    import ctypes
    print("ctypes loaded")
except ImportError:
    print("no ctypes")
"""
    result = await session.run_code(code)
    assert result.stdout.startswith("False ['OSError', (1, '', True)]"), result.stdout
    assert "no ctypes" in result.stdout


async def test_two_sessions_from_one_snapshot_have_different_randomness(pool: cove.Pool) -> None:
    code = "import random, uuid, secrets, os; print(random.random(), uuid.uuid4(), secrets.token_hex(8), os.urandom(8).hex())"
    first = await (await pool.create_session()).run_code(code)
    second = await (await pool.create_session()).run_code(code)
    assert first.return_code == second.return_code == 0
    for a, b in zip(first.stdout.split(), second.stdout.split(), strict=True):
        assert a != b


async def test_time_is_current_not_the_snapshot_time(session: cove.Session) -> None:
    import time

    result = await session.run_code("import time; print(time.time())")
    assert abs(float(result.stdout) - time.time()) < 60


async def test_host_call_round_trips(session: cove.Session) -> None:
    code = 'import _cove, json\nprint(json.loads(_cove.host_call(json.dumps({"op": "echo", "data": "ping"}).encode())))'
    result = await session.run_code(code)
    assert json.loads(result.stdout.replace("'", '"').replace("True", "true")) == {
        "ok": True,
        "echo": "ping",
    }


async def test_host_call_rejects_unknown_operations(session: cove.Session) -> None:
    result = await session.run_code('import _cove; print(_cove.host_call(b\'{"op": "spawn"}\'))')
    assert "unknown host operation" in result.stdout

"""Hardening round 3: every limit that protects the host is enforced by the host.

numpy gives model code a pointer into its own linear memory, so whatever lives there is the
model's to rewrite. One test (or a few) per route the attack round on a28eee1 found, numbered as
in the issue, and the memory scribbler (`scribbler.py`) against every limit kept in the guest:
disk bytes, entries, descriptors, time and the fork and suspend preconditions.
"""

from __future__ import annotations

import ctypes
import os
import pathlib
import time
import tracemalloc

import anyio
import msgspec
import pytest

import cove
from cove import _pages, _protocol, _statefile, tools
from cove._trees import TreeCopy
from cove._workspace import Workspace

from .scribbler import SCRIBBLER

pytestmark = pytest.mark.anyio

QUOTA = 1 << 20


def _limits(settings: cove.PoolSettings, **limits: float) -> cove.PoolSettings:
    return msgspec.structs.replace(
        settings, defaults=msgspec.structs.replace(settings.defaults, **limits)
    )


async def _ok(session: cove.Session, code: str) -> str:
    result = await session.run_code(code)
    assert result.return_code == 0, result.stderr
    return result.stdout


def _disk_bytes(*roots: pathlib.Path) -> int:
    """Bytes the trees hold on the host's disk, each file once however many names it has."""
    seen: set[tuple[int, int]] = set()
    total = 0
    for root in roots:
        for directory, _, names in os.walk(root):
            for name in names:
                st = os.lstat(os.path.join(directory, name))
                if (st.st_dev, st.st_ino) not in seen:
                    seen.add((st.st_dev, st.st_ino))
                    total += st.st_size if os.path.isfile(os.path.join(directory, name)) else 0
    return total


# -- 1. waits in poll_oneoff end at the deadline ---------------------------------------------------

WAITS = {
    "select.select": "import select\nselect.select([], [], [], 60)",
    "select.poll": "import select\nselect.poll().poll(60_000)",
    "selectors": "import selectors\nselectors.DefaultSelector().select(60)",
    "time.sleep": "import time\ntime.sleep(60)",
    "threading.Event.wait": "import threading\nthreading.Event().wait(60)",
}


@pytest.mark.parametrize("code", list(WAITS.values()), ids=list(WAITS))
async def test_1_a_wait_in_the_host_ends_at_the_calls_deadline(
    session: cove.Session, code: str
) -> None:
    await _ok(session, "kept = 41")
    started = time.monotonic()
    result = await session.run_code(code, timeout_s=2)
    elapsed = time.monotonic() - started
    assert result.outcome == "timeout", result.stderr
    # 60 s of waiting asked for; the deadline (2 s) and its grace period (1 s) end it. The bound
    # is generous (a loaded machine), and far below the wait.
    assert elapsed < 30, elapsed
    # Interrupted at the deadline, not killed: the state is kept.
    assert await _ok(session, "print(kept + 1)") == "42\n"


async def test_1_destroying_a_session_does_not_wait_out_a_long_select(pool: cove.Pool) -> None:
    session = await pool.create_session()
    async with anyio.create_task_group() as tg:
        tg.start_soon(session.run_code, "import select\nselect.select([], [], [], 10**7)")
        await anyio.sleep(0.5)
        started = time.monotonic()
        assert await pool.destroy_session(session.session_id)
        assert time.monotonic() - started < 60


# -- 2, 5 and the rest of the scribbler: counters in guest memory ----------------------------------


@pytest.fixture
async def scribbled_pool(settings: cove.PoolSettings) -> cove.Pool:
    # Room for two copies of the guest's data beside it.
    tuned = _limits(settings, memory_bytes=768 << 20, workspace_bytes=QUOTA, workspace_files=100)
    return cove.Pool(msgspec.structs.replace(tuned, max_open_files=64))


SCRIBBLE_QUOTA = (
    SCRIBBLER
    + """
import errno, os
write = lambda: open("small.bin", "wb").write(b"x" * 12_345)
print("scribbled", scribble(8, -12_345, write, lambda: os.remove("small.bin"), 2**60))
try:
    with open("big.bin", "wb") as f:
        for _ in range(8):
            f.write(b"y" * (1 << 20))
    print("wrote 8 MiB")
except OSError as exc:
    print("refused", errno.errorcode[exc.errno])
"""
)


async def test_2_the_quota_holds_when_guest_memory_says_otherwise(
    scribbled_pool: cove.Pool,
) -> None:
    async with scribbled_pool as pool:
        session = await pool.create_session()
        result = await session.run_code(SCRIBBLE_QUOTA, timeout_s=60)
        assert "wrote 8 MiB" not in result.stdout, result.stdout
        assert "refused EDQUOT" in result.stdout, (result.stdout, result.stderr)
        ws = session.workspace
        assert _disk_bytes(ws.root, ws.tmp) <= QUOTA


SCRIBBLE_ENTRIES = (
    SCRIBBLER
    + """
import errno, os
make = lambda: [open(f"e{i}", "w").close() for i in range(37)]
remove = lambda: [os.remove(f"e{i}") for i in range(37)]
print("scribbled", scribble(8, -37, make, remove, 2**60))
made = 0
try:
    for i in range(1000):
        open(f"more{i}", "w").close()
        made += 1
except OSError as exc:
    print("refused", errno.errorcode[exc.errno])
print("made", made)
"""
)


async def test_scribbler_the_entry_quota_holds(scribbled_pool: cove.Pool) -> None:
    async with scribbled_pool as pool:
        session = await pool.create_session()
        result = await session.run_code(SCRIBBLE_ENTRIES, timeout_s=60)
        assert "refused EDQUOT" in result.stdout, (result.stdout, result.stderr)
        entries = sum(len(d) + len(f) for _, d, f in os.walk(session.workspace.root))
        assert entries <= 100


SCRIBBLE_DESCRIPTORS = (
    SCRIBBLER
    + """
import errno
# A new list each time: one list's length moving by 37 would be scribbled over too.
files = {}
hold = lambda: files.update(held=[open(f"d{i}", "w") for i in range(37)])
let_go = lambda: [f.close() for f in files.pop("held")]
print("scribbled", scribble(4, 37, hold, let_go, -100_000))
held = files["held"]
try:
    for i in range(2000):
        held.append(open(f"d{i % 37}", "r"))
    print("no limit")
except OSError as exc:
    print("refused", errno.errorcode[exc.errno], len(held))
"""
)


async def test_5_the_open_file_cap_holds_when_guest_memory_says_otherwise(
    scribbled_pool: cove.Pool,
) -> None:
    async with scribbled_pool as pool:
        session = await pool.create_session()
        result = await session.run_code(SCRIBBLE_DESCRIPTORS, timeout_s=60)
        assert "no limit" not in result.stdout, result.stdout
        refused = result.stdout.split("refused ")[1].split()
        assert refused[0] == "EMFILE", result.stdout
        # The cap (64), give or take the six numbers below the first model descriptor.
        assert int(refused[1]) <= 64 + 6


SCRIBBLE_HELD_OPEN = (
    SCRIBBLER
    + """
files = {}
hold = lambda: files.update(held=[open(f"h{i}", "w") for i in range(37)])
let_go = lambda: [f.close() for f in files.pop("held")]
print("scribbled", scribble(4, 37, hold, let_go, 0, now=37))
"""
)


async def test_scribbler_fork_and_suspend_still_see_the_open_files(
    scribbled_pool: cove.Pool,
) -> None:
    async with scribbled_pool as pool:
        session = await pool.create_session()
        result = await session.run_code(SCRIBBLE_HELD_OPEN, timeout_s=60)
        assert result.return_code == 0, result.stderr
        with pytest.raises(cove.SessionStateError, match="holds 37 file"):
            await pool.fork_session(session.session_id)
        assert not await session.suspend()


# -- 3. paths are bounded before any work -----------------------------------------------------------


def test_3_an_editor_path_past_path_max_is_refused_at_decode() -> None:
    for path in ("a" * 4096, "é" * 2048, "a/" * 3_000_000):
        body = msgspec.json.encode(
            {"tool": "text_editor_code_execution", "input": {"command": "view", "path": path}}
        )
        with pytest.raises(cove.InvalidRequestError, match="longer than the host's limit"):
            tools.decode_tool_call(body)
    tools.TextEditorInput(command="view", path="a" * 4000)  # shorter than PATH_MAX: fine


async def test_3_file_api_paths_past_path_max_are_refused(session: cove.Session) -> None:
    for call in (
        session.list_files("x/" * 3000),
        session.read_file("x" * 5000),
        session.write_file("y" * 5000, b"1"),
    ):
        with pytest.raises(cove.InvalidRequestError, match="longer than the host's limit"):
            await call


# -- 4. a fork writes no more than its source could -------------------------------------------------


async def test_4_hard_links_stay_links_in_a_fork(settings: cove.PoolSettings) -> None:
    tuned = _limits(settings, workspace_bytes=4 << 20)
    async with cove.Pool(tuned) as pool:
        source = await pool.create_session()
        await _ok(
            source,
            "import os\nwith open('big', 'wb') as f: f.write(os.urandom(3 << 20))\n"
            "for i in range(40): os.link('big', f'link{i}')",
        )
        child = await pool.fork_session(source.session_id)
        ws = child.workspace
        assert os.stat(ws.root / "big").st_nlink == 41
        assert _disk_bytes(ws.root, ws.tmp) == 3 << 20
        assert await _ok(child, "print(open('link7','rb').read() == open('big','rb').read())") == (
            "True\n"
        )


def test_4_a_tree_copy_stops_at_its_budget(tmp_path: pathlib.Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    (source / "a").write_bytes(b"a" * 1000)
    (source / "b").write_bytes(b"b" * 1000)
    with pytest.raises(OSError, match="pass the workspace quota"):
        TreeCopy(1500).copy(source, tmp_path / "copy")
    TreeCopy(2000).copy(source, tmp_path / "copy2")
    assert (tmp_path / "copy2" / "b").read_bytes() == b"b" * 1000


# -- 6. a host call's cost is its bytes, not its shape ----------------------------------------------


def test_6_echo_data_is_never_decoded_into_objects() -> None:
    nested = b"[" + b"[[]]," * 1_600_000 + b"[]]"
    request = _protocol.decode_host_request(b'{"op":"echo","data":' + nested + b"}")
    assert isinstance(request, _protocol.EchoRequest)
    assert isinstance(request.data, msgspec.Raw) and bytes(request.data) == nested
    reply = _protocol.encode(_protocol.EchoReply(echo=request.data))
    assert reply == b'{"echo":' + nested + b',"ok":true}'


async def test_6_echo_round_trips_through_the_guest(session: cove.Session) -> None:
    code = (
        "import _cove, json\n"
        "data = {'a': [1, 2.5, None, 'é'], 'b': [[[]]] * 3}\n"
        "print(json.loads(_cove.host_call(json.dumps({'op': 'echo', 'data': data}).encode()))"
        "['echo'] == data)"
    )
    assert await _ok(session, code) == "True\n"


# -- 7. downloads: their held bytes are charged, and they end -------------------------------------


def test_7_a_deleted_file_a_download_holds_stays_charged(tmp_path: pathlib.Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.make()
    (ws.root / "f").write_bytes(b"z" * 300_000)
    download = ws.open_file("f", max_bytes=1 << 30)
    assert ws.usage().bytes == 300_000
    (ws.root / "f").unlink()  # as the guest would
    assert ws.usage().bytes == 300_000  # still on the disk, through the download
    assert ws.usage().files == 0
    download.close()
    assert ws.usage().bytes == 0


async def test_7_destroying_the_session_lets_go_of_its_downloads(tmp_path: pathlib.Path) -> None:
    ws = Workspace(tmp_path / "ws")
    ws.make()
    (ws.root / "f").write_bytes(b"z" * 300_000)
    download = ws.open_file("f", max_bytes=1 << 30)
    first = await download.read(1000)
    assert first == b"z" * 1000
    ws.remove()
    # The descriptor now reads as empty: the file's space is free, and a read in progress
    # can never reach whatever file later takes the same number.
    assert await download.read() == b""
    assert not download.complete
    download.close()


# -- 8. persisting never waits on model code --------------------------------------------------------

HOSTILE_CLOSE = """
import io
class Stubborn(io.FileIO):
    def close(self):
        while True:
            pass
held = Stubborn("stubborn.txt", "w")
"""


async def test_8_persisting_runs_no_close_model_code_wrote(settings: cove.PoolSettings) -> None:
    kept = msgspec.structs.replace(settings, persist_sessions=True)
    pool = cove.Pool(kept)
    async with pool:
        hostile = [await pool.create_session() for _ in range(3)]
        for session in hostile:
            await _ok(session, HOSTILE_CLOSE)
        plain = await pool.create_session()
        await _ok(plain, "x = 'kept'\nf = open('plain.txt', 'w')\nf.write('buffered')")
        innocent = await pool.create_session()
        await _ok(innocent, "y = 'innocent'")
        started = time.monotonic()
    elapsed = time.monotonic() - started
    # Before: each hostile close() ran 10 s + 1 s; now none runs at all.
    assert elapsed < 30, elapsed
    async with cove.Pool(kept) as again:
        back = again.get_session(innocent.session_id)
        assert await _ok(back, "print(y)") == "innocent\n"
        # A plain file object is closed by io's own code: its buffered write reached the file.
        carried = again.get_session(plain.session_id)
        assert await _ok(carried, "print(x, open('plain.txt').read(), f.closed)") == (
            "kept buffered True\n"
        )
        for session in hostile:  # its descriptor could not be closed: not carried
            with pytest.raises(cove.SessionNotFoundError):
                again.get_session(session.session_id)


# -- 9. housekeeping uses nothing model code replaced -----------------------------------------------

REPLACE_SEEDS = """
import os, random, time
import numpy as np
def stall(*args, **kwargs):
    time.sleep(30)
random.seed = stall
random.Random.seed = stall
os.urandom = stall
np.random.seed = stall
first = random.random()
"""


async def test_9_a_fork_reseeds_through_names_model_code_cannot_replace(
    pool: cove.Pool,
) -> None:
    source = await pool.create_session()
    await _ok(source, REPLACE_SEEDS)
    child = await pool.fork_session(source.session_id)
    started = time.monotonic()
    check = "print(random.random() != first, np.random.random() >= 0)"
    assert await _ok(child, check) == "True True\n"
    assert time.monotonic() - started < 20


# -- 10. the host answers exactly what the guest would -----------------------------------------------


async def test_10_a_backslash_is_an_ordinary_character_in_a_view(session: cove.Session) -> None:
    await _ok(session, "import os\nos.mkdir('a')\nopen('a/b', 'w').write('inside a/b\\n')")
    view = tools.TextEditor(input=tools.TextEditorInput(command="view", path="a\\b"))
    result = await session.execute(view)
    assert "inside a/b" not in result.stdout
    assert result.return_code != 0
    await _ok(session, "open('a\\\\b', 'w').write('the file a-backslash-b\\n')")
    result = await session.execute(view)
    assert "the file a-backslash-b" in result.stdout, result.stderr


# -- 11. images are read in pieces ------------------------------------------------------------------


def test_11_an_image_is_verified_and_decompressed_in_bounded_memory(tmp_path: pathlib.Path) -> None:
    pages = 16384  # 64 MiB of incompressible pages
    record = _statefile.SessionRecord(
        session_id="s" * 32, created_at=1.0, last_activity_at=2.0, limits=cove.Limits(), image="i"
    )
    header = _statefile.StateHeader(
        artifact_sha256="0" * 64,
        memory_bytes=pages * _pages.PAGE,
        stack_pointer=0,
        runs=[(0, pages)],
        session=record,
    )
    chunks = [os.urandom(1 << 20) for _ in range(64)]
    path = tmp_path / "big.image"
    _statefile.write_state(path, header, iter(chunks))
    assert path.stat().st_size > 64 << 20
    target = bytearray(pages * _pages.PAGE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(target))
    tracemalloc.start()
    try:
        with _statefile.open_state(path, "0" * 64, 1 << 30) as (read, body):
            assert read == header
            _statefile.decompress_pages(read, body, base)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, peak
    assert target[: 1 << 20] == chunks[0] and target[-(1 << 20) :] == chunks[-1]


# -- 12. a nested interpreter's writes count against its caller --------------------------------------

NESTED_THEN_CALLER = """
import errno, subprocess, sys
nested = subprocess.run(
    [sys.executable, "-c", "open('nested.bin', 'wb').write(b'n' * (600 << 10))"],
    capture_output=True, text=True,
)
print("nested", nested.returncode)
try:
    with open("caller.bin", "wb") as f:
        f.write(b"c" * (600 << 10))
    print("caller wrote")
except OSError as exc:
    print("caller refused", errno.errorcode[exc.errno])
"""

CALLER_THEN_NESTED = """
import subprocess, sys
open('caller.bin', 'wb').write(b'c' * (600 << 10))
nested = subprocess.run(
    [sys.executable, "-c", "open('nested.bin', 'wb').write(b'n' * (600 << 10))"],
    capture_output=True, text=True,
)
print("nested", nested.returncode, "Disk quota exceeded" in nested.stderr)
"""


async def test_12_nested_writes_count_against_the_caller(settings: cove.PoolSettings) -> None:
    async with cove.Pool(_limits(settings, workspace_bytes=QUOTA)) as pool:
        session = await pool.create_session()
        result = await session.run_code(NESTED_THEN_CALLER)
        assert result.stdout == "nested 0\ncaller refused EDQUOT\n", result.stderr
        assert _disk_bytes(session.workspace.root, session.workspace.tmp) <= QUOTA
        other = await pool.create_session()
        result = await other.run_code(CALLER_THEN_NESTED)
        assert result.stdout == "nested 1 True\n", result.stderr
        assert _disk_bytes(other.workspace.root, other.workspace.tmp) <= QUOTA

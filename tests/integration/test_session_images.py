"""Sessions that outlive their memory and their process: suspend and resume, restart, fork.

Every check runs real interpreters: a session's state is built by model-style code, the session
is suspended (or the pool closed and reopened, or the session forked), and the same code reads
the state back.
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import os
import pathlib
import stat
import struct

import anyio
import msgspec
import pytest

import cove
from cove import _linux, _pages, _statefile

pytestmark = pytest.mark.anyio

SETUP = (
    "import json, os, random, re, decimal, statistics\n"
    "import numpy as np, pandas as pd\n"
    "d = {i: str(i) for i in range(50_000)}\n"
    "df = pd.DataFrame({'a': np.arange(1000), 'b': np.arange(1000) * 0.5})\n"
    "def helper(n):\n    return n * 3\n"
    "os.makedirs('/workspace/sub', exist_ok=True)\n"
    "os.chdir('/workspace/sub')\n"
    "os.environ['KEPT'] = 'env'\n"
    "open('f.txt', 'w').write('file')\n"
    "x = 42"
)
CHECK = (
    "print(len(d), x, helper(2), os.getcwd(), os.environ['KEPT'], open('f.txt').read(), "
    "df.b.sum(), json.dumps([1]), statistics.mean([1, 3]))"
)
EXPECTED = "50000 42 6 /workspace/sub env file 249750.0 [1] 2\n"


@pytest.fixture
def settings(tmp_path: pathlib.Path, cache_dir: str) -> cove.PoolSettings:
    return cove.PoolSettings(
        workspace_root=str(tmp_path / "root"), cache_dir=cache_dir, persist_sessions=True
    )


async def _ready(pool: cove.Pool) -> cove.Session:
    session = await pool.create_session()
    result = await session.run_code(SETUP)
    assert result.return_code == 0, result.stderr
    return session


def _pool_dir(session: cove.Session) -> pathlib.Path:
    return session.workspace.root.parent


# -- suspend and resume --------------------------------------------------------------------------


async def test_suspend_and_resume_keep_everything(pool: cove.Pool) -> None:
    session = await _ready(pool)
    assert await session.suspend()
    assert session.suspended and pool.statistics().sessions_suspended == 1
    image = session.image_path
    assert stat.S_IMODE(image.stat().st_mode) == 0o600
    assert stat.S_IMODE(image.parent.stat().st_mode) == 0o700
    assert image.stat().st_size < 8 << 20  # the changed pages, compressed
    result = await session.run_code(CHECK)
    assert result.stdout == EXPECTED, result.stderr
    assert not session.suspended and not image.exists()
    # And again, with state added after the first resume.
    await session.run_code("x += 1")
    assert await session.suspend()
    assert (await session.run_code("print(x)")).stdout == "43\n"


async def test_a_session_its_deadline_interrupted_suspends_forks_and_persists(
    settings: cove.PoolSettings,
) -> None:
    # Between calls the store's deadline is the last call's, soon past (and after a soft stop,
    # its grace period's): every call into the guest outside a tool call (counting open files,
    # reseeding, closing files) needs a deadline of its own. So this waits past them first.
    async with cove.Pool(settings) as pool:
        session = await _ready(pool)
        stopped = await session.run_code("while True:\n    pass", timeout_s=1)
        assert (stopped.outcome, stopped.reset) == ("timeout", False)
        await anyio.sleep(settings.timeout_grace_s + 0.5)
        child = await pool.fork_session(session.session_id)
        assert (await child.run_code(CHECK)).stdout == EXPECTED
        assert await session.suspend()
        assert (await session.run_code(CHECK)).stdout == EXPECTED
        again = await session.run_code("while True:\n    pass", timeout_s=1)
        assert (again.outcome, again.reset) == ("timeout", False)
        quick = await pool.create_session()
        await quick.run_code("y = 1", timeout_s=1)
        await anyio.sleep(settings.timeout_grace_s + 0.5)
        # What the reaper does after suspend_after_s, here past every deadline.
        assert await pool.suspend_idle(1) >= 2
        assert (await quick.run_code("print(y)")).stdout == "1\n"
        await session.run_code("x = 42", timeout_s=1)
        await anyio.sleep(1.5)
        sid = session.session_id
    async with cove.Pool(settings) as pool:
        assert (await pool.get_session(sid).run_code(CHECK)).stdout == EXPECTED


async def test_file_operations_do_not_resume_a_suspended_session(pool: cove.Pool) -> None:
    session = await _ready(pool)
    assert await session.suspend()
    await session.write_file("up.txt", b"uploaded")
    assert [f.path for f in await session.list_files("sub")] == ["sub/f.txt"]
    assert (await session.read_file("sub/f.txt"))[0] == b"file"
    assert session.suspended
    result = await session.run_code("print(open('/workspace/up.txt').read(), x)")
    assert result.stdout == "uploaded 42\n"


async def test_a_session_holding_a_file_open_stays_live(pool: cove.Pool) -> None:
    session = await _ready(pool)
    await session.run_code("fh = open('/workspace/log.txt', 'w')\nfh.write('partial')")
    assert not await session.suspend()
    assert not session.suspended
    await session.run_code("fh.close()")
    assert await session.suspend()
    result = await session.run_code("print(open('/workspace/log.txt').read(), fh.closed)")
    assert result.stdout == "partial True\n"


async def test_idle_sessions_are_suspended_by_the_reaper(
    settings: cove.PoolSettings,
) -> None:
    async with cove.Pool(msgspec.structs.replace(settings, suspend_after_s=0.2)) as pool:
        idle = await _ready(pool)
        busy = await pool.create_session()
        await busy.run_code("import time\ny = 1")
        # The reaper's pass: `idle` has been idle long enough, `busy` was just used.
        idle.last_activity_at -= 10
        await pool.reap()
        assert idle.suspended and not busy.suspended
        assert (await idle.run_code(CHECK)).stdout == EXPECTED
        # A suspension does not count as activity: the idle clock keeps running.
        before = busy.last_activity_at
        busy.last_activity_at -= 10
        await pool.reap()
        assert busy.suspended and busy.last_activity_at == before - 10


async def test_a_resumed_session_is_suspended_again_after_suspend_after_s(
    settings: cove.PoolSettings,
) -> None:
    # The reaper sleeps until the earliest session is due (up to a minute while every session
    # is suspended): a resume must wake it, or the session stays live a minute, not 1 s.
    async with cove.Pool(msgspec.structs.replace(settings, suspend_after_s=1.0)) as pool:
        session = await _ready(pool)
        with anyio.fail_after(30):
            while not session.suspended:
                await anyio.sleep(0.05)
        assert (await session.run_code(CHECK)).stdout == EXPECTED  # resumed
        assert not session.suspended
        with anyio.fail_after(30):  # before: ~60 s (the reaper's longest sleep)
            while not session.suspended:
                await anyio.sleep(0.05)


async def test_a_reset_or_destroy_drops_the_image(pool: cove.Pool) -> None:
    session = await _ready(pool)
    assert await session.suspend()
    image = session.image_path
    await session.reset()
    assert not image.exists() and not session.suspended
    assert "NameError" in (await session.run_code("print(x)")).stderr
    assert await session.suspend()
    assert image.exists()
    await pool.destroy_session(session.session_id)
    await pool.aclose()  # waits for the destroy
    assert not image.exists()


def _rewrite_header(path: pathlib.Path, **changes: object) -> None:
    """A header changed and the digest made valid again: what a tamperer with write access to
    the server's files could do."""
    data = path.read_bytes()
    start = len(_statefile.MAGIC) + 4
    (length,) = struct.unpack_from("<I", data, len(_statefile.MAGIC))
    header = msgspec.json.decode(data[start : start + length], type=_statefile.StateHeader)
    encoded = msgspec.json.encode(msgspec.structs.replace(header, **changes))
    body = _statefile.MAGIC + struct.pack("<I", len(encoded)) + encoded + data[start + length : -32]
    path.write_bytes(body + hashlib.sha256(body).digest())


BAD_IMAGES = {
    "another artifact": lambda p: _rewrite_header(p, artifact_sha256="ab" * 32),
    "truncated": lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]),
    "empty": lambda p: p.write_bytes(b""),
    "one byte flipped": lambda p: p.write_bytes(
        (lambda b: b[:-100] + bytes([b[-100] ^ 1]) + b[-99:])(p.read_bytes())
    ),
    "pages of another size": lambda p: _rewrite_header(p, runs=[(0, 1)]),
    "memory over the limit": lambda p: _rewrite_header(p, memory_bytes=4 << 30),
    "not an image": lambda p: p.write_bytes(b"#!/bin/sh\nrm -rf /\n" * 10),
}


@pytest.mark.parametrize("damage", BAD_IMAGES.values(), ids=BAD_IMAGES.keys())
async def test_a_bad_image_is_refused_and_the_session_is_gone(
    pool: cove.Pool, damage: object, caplog: pytest.LogCaptureFixture
) -> None:
    session = await _ready(pool)
    other = await _ready(pool)
    assert await session.suspend()
    workspace = session.workspace.root
    damage(session.image_path)  # type: ignore[operator]
    with (
        caplog.at_level(logging.ERROR, logger="cove"),
        pytest.raises(cove.SessionLostError, match="is gone: its image was refused"),
    ):
        await session.run_code("print(x)")
    assert "cannot be resumed" in caplog.text
    assert isinstance(cove.SessionLostError("s", "r"), cove.SessionNotFoundError)
    with pytest.raises(cove.SessionNotFoundError):
        pool.get_session(session.session_id)
    assert not workspace.exists() and not session.image_path.exists()
    # Nothing else is touched: the other session and new ones work.
    assert (await other.run_code(CHECK)).stdout == EXPECTED
    assert (await (await pool.create_session()).run_code("print(1)")).stdout == "1\n"


def test_image_round_trip_and_bounds(tmp_path: pathlib.Path) -> None:
    record = _statefile.SessionRecord(
        session_id="s" * 32, created_at=1.0, last_activity_at=2.0, limits=cove.Limits(), image="i"
    )
    header = _statefile.StateHeader(
        artifact_sha256="0" * 64,
        memory_bytes=1 << 20,
        stack_pointer=8 << 20,
        runs=[(0, 1), (5, 2)],
        session=record,
    )
    pages = [b"a" * _pages.PAGE, os.urandom(2 * _pages.PAGE)]
    path = tmp_path / "x.image"
    _statefile.write_state(path, header, iter(pages), durable=True)
    read, data = _statefile.read_state(path, "0" * 64, 1 << 20)
    assert read == header and bytes(data) == b"".join(pages)
    assert _statefile.read_state_header(path, "0" * 64) == header
    with pytest.raises(_statefile.StateFileError, match="over the session's memory limit"):
        _statefile.read_state(path, "0" * 64, 512 << 10)
    with pytest.raises(_statefile.StateFileError, match="another interpreter artifact"):
        _statefile.read_state(path, "1" * 64, 1 << 20)
    # Every truncation is refused, never half-loaded.
    whole = path.read_bytes()
    for cut in (0, 7, 12, 40, len(whole) // 2, len(whole) - 33, len(whole) - 1):
        path.write_bytes(whole[:cut])
        with pytest.raises(_statefile.StateFileError):
            _statefile.read_state(path, "0" * 64, 1 << 20)
    # Runs that overlap, are empty, or leave the memory.
    for runs in ([(0, 2), (1, 1)], [(3, 0)], [(255, 2)]):
        bad = msgspec.structs.replace(header, runs=runs)
        _statefile.write_state(path, bad, iter([b"\0" * sum(c for _, c in runs) * _pages.PAGE]))
        with pytest.raises(_statefile.StateFileError, match="page runs are invalid"):
            _statefile.read_state(path, "0" * 64, 1 << 20)


# -- a restart -------------------------------------------------------------------------------------


@pytest.mark.parametrize("replica", [None, "cove-0"])
async def test_held_sessions_survive_a_restart(
    settings: cove.PoolSettings, replica: str | None
) -> None:
    # With a replica name, ids hold a dot (`cove-0.<random>`): held files are told apart by
    # their endings, not by the first dot.
    settings = msgspec.structs.replace(settings, replica=replica)
    async with cove.Pool(settings) as pool:
        session = await _ready(pool)
        assert session.session_id.startswith("cove-0.") == (replica is not None)
        suspended_first = await _ready(pool)
        assert await suspended_first.suspend()
        await session.run_code("fh = open('/workspace/open.txt', 'w')\nfh.write('buffered')")
        sid, other = session.session_id, suspended_first.session_id
        created, calls = session.created_at, session.calls
    held = pathlib.Path(settings.workspace_root or "") / "held"
    assert stat.S_IMODE(held.stat().st_mode) == 0o700
    assert sorted(p.name for p in held.iterdir() if p.suffix == ".record") == sorted(
        [f"{sid}.record", f"{other}.record"]
    )
    async with cove.Pool(settings) as pool:
        assert pool.statistics().sessions_restored == 2
        again = pool.get_session(sid)
        assert again.suspended
        assert (again.created_at, again.calls) == (created, calls)
        result = await again.run_code(
            CHECK + "\nprint(fh.closed, open('/workspace/open.txt').read())"
        )
        # The file the code left open was flushed and closed before the restart.
        assert result.stdout == EXPECTED + "True buffered\n", result.stderr
        assert (await pool.get_session(other).run_code(CHECK)).stdout == EXPECTED
        assert [f.path for f in await again.list_files()] == ["open.txt", "sub"]
        assert not any(held.glob("*.record"))  # all taken back


async def test_clocks_keep_running_while_the_server_is_down(settings: cove.PoolSettings) -> None:
    async with cove.Pool(settings) as pool:
        short = await pool.create_session(cove.SessionOptions(idle_timeout_s=600))
        await short.run_code("x = 1")
        long = await pool.create_session(cove.SessionOptions(idle_timeout_s=600))
        await long.run_code("x = 2")
        short_id, long_id = short.session_id, long.session_id
    held = pathlib.Path(settings.workspace_root or "") / "held"
    # As if the server had been down for 15 minutes: past one session's idle timeout.
    record_path = held / f"{short_id}.record"
    record = msgspec.json.decode(record_path.read_bytes(), type=_statefile.SessionRecord)
    record_path.write_bytes(
        msgspec.json.encode(
            msgspec.structs.replace(record, last_activity_at=record.last_activity_at - 900)
        )
    )
    async with cove.Pool(settings) as pool:
        with pytest.raises(cove.SessionNotFoundError):
            pool.get_session(short_id)
        assert pool.statistics().sessions_reaped == 1
        assert (await pool.get_session(long_id).run_code("print(x)")).stdout == "2\n"
    assert not (held / short_id).exists()


@pytest.mark.parametrize("damage", BAD_IMAGES.values(), ids=BAD_IMAGES.keys())
async def test_a_bad_held_image_is_refused_at_start(
    settings: cove.PoolSettings, damage: object, caplog: pytest.LogCaptureFixture
) -> None:
    async with cove.Pool(settings) as pool:
        bad, good = await _ready(pool), await _ready(pool)
        bad_id, good_id = bad.session_id, good.session_id
    held = pathlib.Path(settings.workspace_root or "") / "held"
    damage(held / f"{bad_id}.image")  # type: ignore[operator]
    with caplog.at_level(logging.ERROR, logger="cove"):
        async with cove.Pool(settings) as pool:
            try:
                session = pool.get_session(bad_id)
            except cove.SessionNotFoundError:
                pass  # refused at start (its header)
            else:  # refused at its first call (its pages)
                with pytest.raises(cove.SessionLostError):
                    await session.run_code("print(x)")
            with pytest.raises(cove.SessionNotFoundError):
                pool.get_session(bad_id)
            assert (await pool.get_session(good_id).run_code(CHECK)).stdout == EXPECTED
    assert bad_id in caplog.text
    assert not (held / bad_id).exists() and not (held / f"{bad_id}.image").exists()


async def test_a_persist_cut_short_leaves_nothing_behind(settings: cove.PoolSettings) -> None:
    held = pathlib.Path(settings.workspace_root or "") / "held"
    held.mkdir(parents=True)
    orphans = ["orphan-without-record", "cove-0.orphan-without-record"]
    for orphan in orphans:
        (held / orphan).mkdir()
        (held / f"{orphan}.image").write_bytes(b"x")
        (held / f"{orphan}.record.partial").write_bytes(b"{")
    async with cove.Pool(settings) as pool:
        assert pool.statistics().sessions_restored == 0
    assert sorted(p.name for p in held.iterdir()) == [".lock"]


def test_persisting_needs_a_workspace_root() -> None:
    with pytest.raises(cove.InvalidRequestError, match="persist_sessions needs a workspace_root"):
        cove.PoolSettings(persist_sessions=True)


# -- fork ----------------------------------------------------------------------------------------


def _memory(session: cove.Session) -> tuple[bytes, int]:
    guest = session._guest  # pyright: ignore[reportPrivateUsage]
    assert guest is not None
    memory = guest._memory  # pyright: ignore[reportPrivateUsage]
    return ctypes.string_at(memory.address(), memory.size()), guest.stack_pointer()


@pytest.mark.parametrize("copy", ["by the kernel", "by memmove, the kernel copy refused"])
async def test_a_fork_is_an_independent_copy(
    pool: cove.Pool, copy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    copier = pool.engine.copier
    if copy != "by the kernel":
        # As under a seccomp filter without process_vm_readv: every page copied by memmove.
        monkeypatch.setattr(_linux, "_process_vm_readv", None)
        monkeypatch.setattr(copier, "_kernel", True)
    parent = await _ready(pool)
    await parent.run_code("import random\nnp.random.seed(7)\nrandom.seed(7)")
    child = await pool.fork_session(parent.session_id)
    # Byte for byte the parent's memory, before anything runs in the child (its reseed is
    # only scheduled).
    assert _memory(child) == _memory(parent)
    # It changed more than `_PARALLEL_COPY_BYTES`: the helper's kernel copy ran (or, refused,
    # was given up for good and done by memmove).
    assert copier._kernel == (copy == "by the kernel")  # pyright: ignore[reportPrivateUsage]
    assert child.session_id != parent.session_id
    assert child.limits == parent.limits
    assert child.created_at >= parent.created_at and child.calls == 0
    # Its workspace's accounting knows the copied files: a call reports only what it wrote.
    wrote = await child.run_code("open('/workspace/new.txt', 'w').write('n')")
    assert [f.file_id for f in wrote.files] == ["new.txt"], wrote
    assert child.workspace.usage() == child.workspace.scan()  # the tracker, a full walk
    os.remove(child.workspace.root / "new.txt")
    assert (await child.run_code(CHECK)).stdout == EXPECTED
    # Memory: each changes its own.
    await child.run_code("x = 'child'\nd.clear()")
    assert (await parent.run_code("print(x, len(d))")).stdout == "42 50000\n"
    assert (await child.run_code("print(x, len(d))")).stdout == "child 0\n"
    # Files: each has its own workspace.
    await child.run_code("open('/workspace/only-child.txt', 'w').write('c')")
    await parent.run_code("open('/workspace/sub/f.txt', 'w').write('parent changed')")
    assert (await child.read_file("sub/f.txt"))[0] == b"file"
    with pytest.raises(cove.WorkspaceFileNotFoundError):
        await parent.read_file("only-child.txt")
    # Random streams: reseeded, not shared.
    draw = "import random\nprint(random.random(), np.random.random())"
    assert (await parent.run_code(draw)).stdout != (await child.run_code(draw)).stdout
    # A fork of a suspended session, and a fork of a fork.
    assert await parent.suspend()
    child2 = await pool.fork_session(parent.session_id)
    grandchild = await pool.fork_session(child2.session_id)
    assert (await grandchild.run_code("print(x)")).stdout == "42\n"


async def test_fork_is_refused_while_files_are_open(pool: cove.Pool) -> None:
    session = await _ready(pool)
    await session.run_code("fh = open('/workspace/o.txt', 'w')")
    with pytest.raises(cove.SessionStateError, match="holds 1 file"):
        await pool.fork_session(session.session_id)
    await session.run_code("fh.close()")
    forked = await pool.fork_session(session.session_id)
    assert (await forked.run_code("print(fh.closed)")).stdout == "True\n"


async def test_fork_respects_capacity(tmp_path: pathlib.Path, cache_dir: str) -> None:
    settings = cove.PoolSettings(workspace_root=str(tmp_path), cache_dir=cache_dir, max_sessions=1)
    async with cove.Pool(settings) as pool:
        session = await pool.create_session()
        with pytest.raises(cove.CapacityError):
            await pool.fork_session(session.session_id)
        assert len(pool.session_ids()) == 1
        # Nothing of the refused child is left on disk: the one session's workspace and tmp.
        names = sorted(p.name for p in _pool_dir(session).iterdir() if p.name[0] != ".")
        assert names == sorted([session.session_id, f"{session.session_id}.tmp"])


# -- capacity ------------------------------------------------------------------------------------


def _pss_kib() -> int:
    for line in pathlib.Path("/proc/self/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    raise AssertionError("no Pss in smaps_rollup")


async def test_held_sessions_are_bounded_by_disk_not_memory(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    settings = cove.PoolSettings(
        workspace_root=str(tmp_path), cache_dir=cache_dir, max_sessions=1000
    )
    state = "import numpy as np\nstate = np.arange(1 << 19) * 3"  # 4 MiB, live in each session
    count = 100
    async with cove.Pool(settings) as pool:
        # What every session shares is counted before: one session made, suspended (the pages
        # of the pristine interpreter an image is told from get mapped), resumed, destroyed.
        warm = await pool.create_session()
        await warm.run_code(state)
        assert await warm.suspend()
        await warm.run_code("pass")
        await pool.destroy_session(warm.session_id)
        before = _pss_kib()
        sessions = []
        for _ in range(count):
            session = await pool.create_session()
            assert (await session.run_code(state)).return_code == 0
            sessions.append(session)
        live = _pss_kib()
        # What the reaper does with `suspend_after_s` (idle sessions suspended, heap trimmed).
        assert await pool.suspend_idle(0) == count
        held = _pss_kib()
        images = sum(s.image_path.stat().st_size for s in sessions)
        # Live, each holds its 4 MiB; held, each costs this process almost nothing, and its
        # image (the changed pages, compressed) a little disk.
        assert (live - before) / count >= 4 * 1024
        assert (held - before) / count < 512, (before, live, held)
        assert images / count < 4 << 20  # less than the state it holds (compressed)
        for session in sessions[::10]:
            assert (await session.run_code("print(state[12345])")).stdout == "37035\n"


async def test_session_fork_still_forks_and_says_it_is_deprecated(pool: cove.Pool) -> None:
    session = await pool.create_session()
    await session.run_code("x = 7")
    with pytest.warns(DeprecationWarning, match="Pool.fork_session"):
        child = await session.fork()
    assert child.session_id in pool.session_ids()
    assert (await child.run_code("print(x)")).stdout == "7\n"

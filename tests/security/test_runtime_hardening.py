"""Hardening round 2, the runtime's half: one session must never take down the pool, starve its
neighbours or get past its own limits. One test per route found by the attack round."""

from __future__ import annotations

import json
import os
import pathlib
import time

import anyio
import msgspec
import pytest

import cove
from cove import _hostcall, _protocol, tools
from cove._guest import Guest, GuestOutcome
from cove._workspace import Workspace

pytestmark = pytest.mark.anyio

_DIR = os.O_RDONLY | os.O_DIRECTORY


def _with_limits(settings: cove.PoolSettings, **limits: int) -> cove.PoolSettings:
    """The fixture's settings with these default limits."""
    return msgspec.structs.replace(settings, defaults=cove.Limits(**limits))


def _deep_tree(root: pathlib.Path, depth: int, name: str = "d") -> None:
    """A chain of `depth` nested directories with a file at the bottom, built fd-relative so
    neither Python's recursion limit nor PATH_MAX stops it."""
    fd = os.open(root, _DIR)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            child = os.open(name, _DIR, dir_fd=fd)
            os.close(fd)
            fd = child
        leaf = os.open("leaf.txt", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=fd)
        os.write(leaf, b"x" * 1000)
        os.close(leaf)
    finally:
        os.close(fd)


def test_a_deep_tree_is_scanned_and_removed_at_any_depth(tmp_path: pathlib.Path) -> None:
    # Deeper than Python's recursion limit (shutil.rmtree recursed) and longer than PATH_MAX.
    ws = Workspace.create(tmp_path, "ws")
    _deep_tree(ws.root, 1500)
    _deep_tree(ws.root, 30, name="n" * 200)
    usage = ws.scan()
    assert (usage.files, usage.bytes) == (1500 + 30 + 2, 2000)
    ws.remove()
    assert not ws.root.exists()


def test_stale_cleanup_at_start_survives_a_deep_tree(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    root = tmp_path / "workspaces"
    stale = root / "pool-0123456789abcdef"
    (stale / "sid").mkdir(parents=True)
    (stale / ".lock").touch()
    _deep_tree(stale / "sid", 2000)

    async def start() -> int:
        settings = cove.PoolSettings(workspace_root=str(root), cache_dir=cache_dir)
        async with cove.Pool(settings) as pool:
            return pool.stale_removed

    assert anyio.run(start) == 1
    assert not stale.exists()


async def test_forking_a_session_with_a_deep_tree_is_refused_cleanly(
    settings: cove.PoolSettings,
) -> None:
    # No spare: one made in the background would add its own directory between the listings.
    async with cove.Pool(msgspec.structs.replace(settings, spare_sessions=0)) as pool:
        await _fork_of_a_deep_tree_is_refused_cleanly(pool)


async def _fork_of_a_deep_tree_is_refused_cleanly(pool: cove.Pool) -> None:
    session = await pool.create_session()
    await session.run_code("kept = 42")
    _deep_tree(session.workspace.root, 1500)  # what renames of deep chains can make
    before = sorted(p.name for p in session.workspace.root.parent.iterdir())
    with pytest.raises(cove.SessionStateError, match="cannot be copied"):
        await pool.fork_session(session.session_id)
    # Nothing of the half-made copy is left, and the session and the pool go on.
    assert sorted(p.name for p in session.workspace.root.parent.iterdir()) == before
    assert (await session.run_code("print(kept)")).stdout == "42\n"
    assert pool.alive and len(pool.session_ids()) == 1


async def test_destroying_a_session_with_a_deep_tree_leaves_the_pool_alive(
    pool: cove.Pool,
) -> None:
    victim, neighbour = await pool.create_session(), await pool.create_session()
    await neighbour.run_code("kept = 42")
    # The guest's mkdir depth limit is lexical: moving one chain under another goes deeper.
    # Whatever depth results, the host's walk handles it.
    result = await victim.run_code(
        "import os\n"
        "def chain(top, n):\n"
        "    os.makedirs('/'.join([top] + ['d'] * n))\n"
        "chain('t', 50)\n"
        "for i in range(30):\n"
        "    chain(f'c{i}', 50)\n"
        "    os.rename(f'c{i}', '/'.join(['t'] + ['d'] * 50) + f'/c{i}')\n"
        "print('built')"
    )
    assert result.stdout == "built\n", result.stderr
    root = victim.workspace.root
    await pool.destroy_session(victim.session_id)
    with anyio.fail_after(30):
        while root.exists():
            await anyio.sleep(0.05)
    assert pool.alive and pool.ready
    assert (await neighbour.run_code("print(kept)")).stdout == "42\n"
    assert (await (await pool.create_session()).run_code("print(1)")).stdout == "1\n"


async def test_uploads_deeper_than_the_directory_limit_are_refused(session: cove.Session) -> None:
    with pytest.raises(cove.InvalidRequestError, match="directories deep"):
        await session.write_file("/".join(["d"] * 1000) + "/f.txt", b"x")


async def test_files_past_path_max_still_count_against_the_quota(
    settings: cove.PoolSettings,
) -> None:
    async with cove.Pool(_with_limits(settings, workspace_bytes=10 << 20)) as pool:
        session = await pool.create_session()
        hidden = await session.run_code(
            "import os\n"
            "fd = os.open('.', os.O_RDONLY)\n"
            "for i in range(25):\n"
            "    os.mkdir('n' * 200, dir_fd=fd)\n"
            "    child = os.open('n' * 200, os.O_RDONLY, dir_fd=fd)\n"
            "    os.close(fd)\n"
            "    fd = child\n"
            "f = os.open('big', os.O_WRONLY | os.O_CREAT, dir_fd=fd)\n"
            "os.write(f, b'x' * (8 << 20))\n"
            "os.close(f)\n"
            "print('hidden')"
        )
        assert hidden.stdout == "hidden\n", hidden.stderr
        # Every later call starts with what is left, not with a fresh quota.
        more = await session.run_code("open('more.bin', 'wb').write(b'x' * (4 << 20))")
        assert more.outcome == "workspace_full", more.stderr


@pytest.mark.parametrize("mib", [5, 20])
async def test_guest_cannot_lift_the_output_bound(pool: cove.Pool, mib: int) -> None:
    session = await pool.create_session()
    limit = session.limits.max_output_bytes
    result = await session.run_code(
        f"import sys\nsys.stdout._limit = 1 << 40\nsys.stdout.write('x' * ({mib} << 20))"
    )
    assert len(result.stdout.encode()) < limit + 200
    if result.outcome == "crash":
        # Past what a bounded driver can return at all, the host reads none of it.
        assert "outside its bounds" in result.stderr and result.reset
    else:
        assert result.stdout_dropped_bytes >= (mib << 20) - limit


_CRAFTED = [
    '{"stdout": 5}',
    '{"stdout": "x", "return_code": 99999999999999999999999}',
    '{"stdout": "\\ud800"}',
    '{"error": "' + "e" * 5000 + '"}',
    "[1, 2, 3]",
    "",
]


@pytest.mark.parametrize("crafted", _CRAFTED)
async def test_a_crafted_guest_response_is_a_crash_result_then_the_session_recovers(
    session: cove.Session, crafted: str
) -> None:
    # Guest code replaces the encoder the driver answers with: its answer is forged.
    forged = await session.run_code(
        "import cove_guest.protocol as _cove_protocol, json\n"
        "class Forged:\n"
        "    loads = staticmethod(json.loads)\n"
        f"    dumps = staticmethod(lambda *a, **k: {crafted!r})\n"
        "_cove_protocol.json = Forged"
    )
    assert forged.outcome == "crash" and forged.reset is True
    assert (await session.run_code("print('fine')")).stdout == "fine\n"


async def test_host_calls_over_the_size_cap_are_refused_without_copying(
    session: cove.Session,
) -> None:
    result = await session.run_code(
        "import _cove, json\n"
        f"big = json.dumps({{'op': 'echo', 'data': 'x' * {_protocol.MAX_HOST_REQUEST_BYTES}}})\n"
        "try:\n"
        "    _cove.host_call(big.encode())\n"
        "except OSError as exc:\n"
        "    print('refused:', exc)\n"
        'print(json.loads(_cove.host_call(b\'{"op": "echo", "data": 1}\')))'
    )
    assert result.stdout.startswith("refused: host_call: the host refused"), result.stderr
    assert "'echo': 1" in result.stdout


async def test_host_calls_do_not_outlive_the_deadline(session: cove.Session) -> None:
    # A loop of host calls as large as allowed: the call still ends at its deadline.
    size = _protocol.MAX_HOST_REQUEST_BYTES - 100
    result = await session.run_code(
        "import _cove, json\n"
        f"req = json.dumps({{'op': 'echo', 'data': 'x' * {size}}}).encode()\n"
        "while True:\n"
        "    try:\n"
        "        _cove.host_call(req)\n"
        "    except (OSError, MemoryError):\n"
        "        pass",
        timeout_s=1,
    )
    assert result.outcome == "timeout"
    # Generous (a loaded machine): a host call past the deadline would run on and on.
    assert result.execution_time_ms < 15_000


def _call_with_host(
    tmp_path: pathlib.Path,
    settings: cove.PoolSettings,
    code: str,
    host: _hostcall.HostHandler,
    *,
    timeout_s: float,
    memory_bytes: int,
) -> GuestOutcome:
    """One call of `code` in a bare interpreter (no session) whose host calls `host` answers."""

    async def open_engine() -> cove.Pool:
        pool = cove.Pool(settings)
        await pool.open()
        return pool

    pool = anyio.run(open_engine)
    try:
        guest = Guest(pool.engine, tmp_path, tmp=tmp_path, memory_bytes=memory_bytes)
        try:
            return guest.call(
                json.dumps({"op": "exec", "code": code, "max_output_bytes": 1 << 20}).encode(),
                timeout_s=timeout_s,
                fuel=None,
                bytes_left=1 << 20,
                files_left=100,
                max_response_bytes=1 << 24,
                host=host,
            )
        finally:
            guest.close()
    finally:
        anyio.run(pool.aclose)


def test_a_reply_the_guest_cannot_take_is_released(tmp_path: pathlib.Path, cache_dir: str) -> None:
    code = (
        "import _cove, json\n"
        "req = json.dumps({'op': 'echo', 'data': 'x' * (4 << 20)}).encode()\n"
        "fill = []\n"
        "try:\n"
        "    while True:\n"
        "        fill.append(bytearray(1 << 20))\n"
        "except MemoryError:\n"
        "    fill.pop()\n"
        "try:\n"
        "    _cove.host_call(req)\n"
        "except MemoryError:\n"
        "    print('could not take the reply')\n"
    )

    def echo(call: _hostcall.HostCall) -> bytes:
        return b'{"ok": true, "echo": ' + call.request[len(b'{"op": "echo", "data": ') :]

    settings = cove.PoolSettings(cache_dir=cache_dir)
    outcome = _call_with_host(tmp_path, settings, code, echo, timeout_s=10, memory_bytes=96 << 20)
    assert b"could not take the reply" in (outcome.response or b"")
    assert _hostcall._host.reply is None  # pyright: ignore[reportPrivateUsage]


def test_a_host_call_past_the_deadline_interrupts_the_call_though_the_epoch_lags(
    tmp_path: pathlib.Path, cache_dir: str
) -> None:
    # A nested python that runs to the deadline returns to its caller after it: the host refuses
    # the reply, and the caller must be interrupted then, not when the epoch ticker (which lags
    # the clock on a loaded machine; here it ticks once a second) reaches the store's deadline,
    # or the caller's code runs on past the deadline and the call ends as an ordinary one.
    code = (
        "import _cove, time\n"
        "try:\n"
        '    _cove.host_call(b\'{"op": "echo", "data": "x"}\')\n'
        "except OSError as e:\n"
        "    print('refused:', e)\n"
        "t = time.monotonic()\n"
        "while time.monotonic() - t < 0.2:\n"
        "    pass\n"
        "print('ran on past the deadline')\n"
    )

    def slow_echo(call: _hostcall.HostCall) -> bytes:
        time.sleep(max(0.0, call.deadline - time.monotonic()) + 0.1)  # past the deadline
        return b'{"ok": true, "echo": "x"}'

    settings = cove.PoolSettings(cache_dir=cache_dir, epoch_tick_s=1.0)
    outcome = _call_with_host(
        tmp_path, settings, code, slow_echo, timeout_s=0.3, memory_bytes=256 << 20
    )
    assert outcome.interrupted, outcome
    response = outcome.response or b""
    assert b"TimeLimitExceeded" in response
    assert b"ran on past the deadline" not in response


async def _start_bytes(settings: cove.PoolSettings) -> int:
    """The guest memory every interpreter starts with (the snapshot's)."""
    async with cove.Pool(settings) as probe:
        return probe.engine.initial_memory_bytes


def _mib(n: int) -> int:
    """`n` bytes rounded up to whole MiB (as COVE_MEMORY_MB gives limits)."""
    return -(-n // (1 << 20)) << 20


async def test_nested_python_shares_the_session_memory_limit(
    settings: cove.PoolSettings,
) -> None:
    # Room for the caller (its start and its 60 MiB) and for a nested interpreter's start, and
    # 40 MiB more: too little for the nested program's 80.
    start = await _start_bytes(settings)
    limit = _mib(2 * start + (60 << 20) + (40 << 20))
    async with cove.Pool(_with_limits(settings, memory_bytes=limit)) as pool:
        session = await pool.create_session()
        result = await session.run_code(
            "import _cove, json\n"
            "mine = bytearray(60 << 20)\n"
            "code = 'y = bytearray(80 << 20); print(len(y))'\n"
            "reply = json.loads(_cove.host_call(json.dumps("
            "{'op': 'python', 'argv': ['-c', code]}).encode()))\n"
            "print(reply['return_code'], reply['stderr'].strip().splitlines()[-1])"
        )
        assert result.stdout == "1 MemoryError\n", result.stderr
        # Without the caller's allocation (a fresh session: wasm memory never shrinks), the
        # same nested program fits.
        fits = await (await pool.create_session()).run_code(
            "import _cove, json\n"
            "print(json.loads(_cove.host_call(json.dumps("
            "{'op': 'python', 'argv': ['-c', 'print(len(bytearray(40 << 20)))']}).encode()))"
            "['stdout'])"
        )
        assert fits.stdout == f"{40 << 20}\n\n", fits.stderr


async def test_nested_python_without_room_for_an_interpreter_says_so(
    settings: cove.PoolSettings,
) -> None:
    # room for the caller's start and its 60 MiB, and 8 MiB more: not for another start
    start = await _start_bytes(settings)
    limit = _mib(start + (68 << 20))
    async with cove.Pool(_with_limits(settings, memory_bytes=limit)) as pool:
        session = await pool.create_session()
        result = await session.run_code(
            "import _cove, json\n"
            "mine = bytearray(60 << 20)\n"
            "print(json.loads(_cove.host_call(json.dumps("
            "{'op': 'python', 'argv': ['-c', 'print(1)']}).encode()))['error'])"
        )
        assert result.stdout.startswith("not enough memory left for another interpreter ("), (
            result.stderr
        )
        assert result.stdout.rstrip().endswith(f"of the session's {limit >> 20} MiB limit)")
        assert (await session.run_code("print(len(mine))")).stdout == f"{60 << 20}\n"


async def test_nested_python_spends_the_callers_fuel(settings: cove.PoolSettings) -> None:
    async with cove.Pool(_with_limits(settings, fuel=1_500_000_000)) as pool:
        session = await pool.create_session()
        direct = await session.run_code("for i in range(3_000_000): pass")
        assert direct.outcome == "out_of_fuel"
        split = await session.run_code(
            "import _cove, json\n"
            "codes = []\n"
            "for part in range(4):\n"
            "    reply = json.loads(_cove.host_call(json.dumps({'op': 'python', 'argv': "
            "['-c', 'for i in range(750_000): pass']}).encode()))\n"
            "    codes.append(reply['return_code'])\n"
            "print(codes)"
        )
        # The nested interpreters draw on the caller's budget: the work does not complete.
        assert split.outcome == "out_of_fuel" or "137" in split.stdout, split
        assert split.fuel_used is not None and split.fuel_used >= 1_000_000_000


async def test_a_failing_nested_interpreter_reports_a_failure_status(
    session: cove.Session,
) -> None:
    forge = (
        "import cove_guest.protocol as _cove_protocol, json\n"
        "class Forged:\n"
        "    loads = staticmethod(json.loads)\n"
        "    dumps = staticmethod(lambda *a, **k: json.dumps({'error': 'boom'}))\n"
        "_cove_protocol.json = Forged"
    )
    await session.run_code(f"open('forge.py', 'w').write({forge!r})")
    result = await session.execute(
        cove.tools.BashExecution(
            input=cove.tools.BashExecutionInput(command="python forge.py; echo rc=$?")
        )
    )
    assert result.stdout.strip().endswith("rc=1"), (result.stdout, result.stderr)


async def test_text_that_is_not_unicode_is_refused_and_the_state_kept(
    session: cove.Session,
) -> None:
    """An embedding caller can hand over any Python string; one with a lone surrogate (no
    UTF-8 for it) is an InvalidRequestError before anything runs, never a raw codec error."""
    await session.run_code("kept = 42")
    bad = "\ud800"
    calls = [
        lambda: session.run_code(f"print('{bad}')"),
        lambda: session.execute(
            tools.BashExecution(input=tools.BashExecutionInput(command=f"echo {bad}"))
        ),
        lambda: session.execute(
            tools.TextEditor(input=tools.TextEditorInput(command="view", path=bad))
        ),
        lambda: session.execute(
            tools.TextEditor(
                input=tools.TextEditorInput(command="create", path="a.txt", file_text=bad)
            )
        ),
        lambda: session.read_file(bad),
        lambda: session.write_file(f"{bad}.txt", b"x"),
        lambda: session.list_files(bad),
    ]
    for call in calls:
        with pytest.raises(cove.InvalidRequestError, match="not valid Unicode text"):
            await call()
    # The surrogate escape of an undecodable byte (how a listing names such a file) is a name.
    (session.workspace.root / os.fsdecode(b"\xff.txt")).write_bytes(b"raw")
    assert [f.path for f in await session.list_files()] == ["\udcff.txt"]
    assert (await session.read_file("\udcff.txt"))[0] == b"raw"
    # A NUL byte in the editor's path is the editor's refusal, not a driver failure (a reset).
    for edit in (
        tools.TextEditorInput(command="view", path="a\0b"),
        tools.TextEditorInput(command="create", path="a\0b", file_text="x"),
    ):
        result = await session.execute(tools.TextEditor(input=edit))
        assert (result.return_code, result.reset) == (1, False), result
        assert "must not contain a NUL byte" in result.stderr
    assert (await session.run_code("print(kept)")).stdout == "42\n"

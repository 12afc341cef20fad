"""Every limit firing, and the session's state afterwards."""

from __future__ import annotations

import anyio
import msgspec
import pytest

import cove

pytestmark = pytest.mark.anyio


async def _alive(session: cove.Session) -> None:
    result = await session.run_code("print('alive')")
    assert result.stdout == "alive\n"


async def test_uncaught_exception_is_rc1_with_traceback_and_session_lives(
    session: cove.Session,
) -> None:
    await session.run_code("kept = 'yes'")
    result = await session.run_code("def f():\n    raise ValueError('boom')\nf()")
    assert result.return_code == 1
    assert result.outcome == "error"
    assert 'File "<cell-2>", line 2, in f' in result.stderr
    assert result.stderr.endswith("ValueError: boom\n")
    assert (await session.run_code("print(kept)")).stdout == "yes\n"


@pytest.mark.parametrize(
    ("code", "rc", "stderr"),
    [
        ("import sys; sys.exit(3)", 3, ""),
        ("import sys; sys.exit()", 0, ""),
        ("raise SystemExit('bye')", 1, "bye\n"),
        ("import sys; sys.exit(256 + 7)", 7, ""),
    ],
)
async def test_system_exit_sets_return_code(
    session: cove.Session, code: str, rc: int, stderr: str
) -> None:
    result = await session.run_code(code)
    assert (result.return_code, result.stderr) == (rc, stderr)
    assert result.reset is False
    await _alive(session)


async def test_syntax_error_is_reported_not_raised(session: cove.Session) -> None:
    result = await session.run_code("def broken(:\n    pass")
    assert result.return_code == 1
    assert "SyntaxError" in result.stderr


async def test_timeout_a_c_call_cannot_see_resets_the_interpreter(session: cove.Session) -> None:
    # One long C call never reaches a bytecode boundary: the soft stop cannot reach it, and the
    # hard deadline ends it (tests/integration/test_soft_timeouts.py has the soft cases).
    await session.run_code("lost = 1\nopen('kept.txt', 'w').write('still here')")
    result = await session.run_code("sum(range(10**14))", timeout_s=1)
    assert result.outcome == "timeout"
    assert result.return_code == 124
    assert result.reset is True
    assert "exceeded the 1 s time limit" in result.stderr
    assert (await session.run_code("print(open('kept.txt').read())")).stdout == "still here\n"
    after = await session.run_code("print(lost)")
    assert "NameError" in after.stderr


async def test_sleep_past_the_deadline_is_interrupted(session: cove.Session) -> None:
    result = await session.run_code("import time\ntime.sleep(600)", timeout_s=1)
    assert result.outcome == "timeout"
    assert result.execution_time_ms < 60_000


async def test_blocking_stdin_read_returns_eof(session: cove.Session) -> None:
    result = await session.run_code(
        "import sys, os\nprint(repr(sys.stdin.read()), repr(input.__name__))\n"
        "print(repr(os.read(0, 10)))\ntry:\n    input()\nexcept EOFError:\n    print('EOF')",
        timeout_s=5,
    )
    assert result.stdout == "'' 'input'\nb''\nEOF\n"


async def test_call_timeout_hint_is_clamped_to_the_session_limit(pool: cove.Pool) -> None:
    session = await pool.create_session(cove.SessionOptions(timeout_s=1))
    call = cove.tools.CodeExecution(
        input=cove.tools.CodeExecutionInput(code="while True: pass"), timeout_seconds=3600
    )
    result = await session.execute(call)
    assert result.outcome == "timeout"
    assert "1 s time limit" in result.stderr


async def test_memory_limit_is_a_memory_error_and_the_session_lives(pool: cove.Pool) -> None:
    session = await pool.create_session(cove.SessionOptions(memory_bytes=96 << 20))
    await session.run_code("kept = 5")
    for bomb in (
        "x = bytearray(200 * 1024 * 1024)",
        "y = []\nwhile True:\n    y.append('x' * 100000)",
        "s = 'ab'\nwhile True:\n    s = s + s",
    ):
        result = await session.run_code(bomb)
        assert result.outcome == "memory", result
        assert result.return_code == 1
        assert "MemoryError" in result.stderr
        assert "96 MiB memory limit" in result.stderr
        assert result.peak_memory_bytes <= 96 << 20
        assert (await session.run_code("y = None; s = None; print(kept)")).stdout == "5\n"


async def test_fuel_limit_stops_cpu_bound_code(settings: cove.PoolSettings) -> None:
    settings = msgspec.structs.replace(settings, defaults=cove.Limits(fuel=50_000_000))
    async with cove.Pool(settings) as pool:
        session = await pool.create_session()
        ok = await session.run_code("print(sum(range(10)))")
        assert ok.stdout == "45\n"
        assert ok.fuel_used is not None and 0 < ok.fuel_used < 50_000_000
        result = await session.run_code("while True:\n    pass")
        assert result.outcome == "out_of_fuel"
        assert result.return_code != 0
        assert "fuel budget of 50000000" in result.stderr
        assert result.reset is True
        await _alive(session)


async def test_output_is_bounded_keeping_the_head(
    pool: cove.Pool, settings: cove.PoolSettings
) -> None:
    limits = msgspec.structs.replace(settings.defaults, max_output_bytes=1000)
    async with cove.Pool(msgspec.structs.replace(settings, defaults=limits)) as small:
        session = await small.create_session()
        result = await session.run_code(
            "print('HEAD'); print('x' * 5000)\nimport sys; sys.stderr.write('e' * 3000)"
        )
        assert result.stdout.startswith("HEAD\n")
        assert result.stdout_dropped_bytes == 5 + 5001 - 1000
        assert (
            f"[output truncated: {result.stdout_dropped_bytes} more bytes were dropped]"
            in result.stdout
        )
        assert result.stderr_dropped_bytes == 2000
        assert len(result.stdout) < 1200


async def test_output_flood_of_hundreds_of_megabytes_stays_bounded(session: cove.Session) -> None:
    result = await session.run_code(
        "chunk = 'y' * (1 << 20)\nfor _ in range(300):\n    print(chunk)", timeout_s=60
    )
    assert result.return_code == 0
    assert result.stdout_dropped_bytes > 299 * (1 << 20)
    assert len(result.stdout) <= session.limits.max_output_bytes + 200


def _bash(command: str, timeout_s: int | None = None) -> cove.tools.BashExecution:
    return cove.tools.BashExecution(
        input=cove.tools.BashExecutionInput(command=command), timeout_seconds=timeout_s
    )


async def test_bash_output_is_bounded_while_the_command_runs(session: cove.Session) -> None:
    # seq streams into the call's bounded streams: a hundred million lines are a truncated
    # stream that the call's time limit ends (the shell lives on), not an interpreter out of
    # memory (it once built the whole output as a list first).
    result = await session.execute(_bash("seq 1 100000000", 2))
    assert result.stdout.startswith("1\n2\n3\n")
    assert result.stdout_dropped_bytes > 0
    assert len(result.stdout) <= session.limits.max_output_bytes + 200
    assert (result.outcome, result.reset) == ("timeout", False)
    assert (await session.execute(_bash("echo alive"))).stdout == "alive\n"


async def test_a_group_in_a_pipeline_runs_in_a_subshell(session: cove.Session) -> None:
    result = await session.execute(_bash("x=0; { x=1; } | cat; echo $x; { x=2; }; echo $x"))
    assert result.stdout == "0\n2\n"


async def test_os_exit_resets_the_interpreter_and_reports_the_code(session: cove.Session) -> None:
    await session.run_code("lost = 1")
    result = await session.run_code("import os; os._exit(7)")
    assert result.return_code == 7
    assert result.outcome == "exit"
    assert result.reset is True
    assert "NameError" in (await session.run_code("lost")).stderr


async def test_deep_recursion_is_contained(pool: cove.Pool) -> None:
    session = await pool.create_session(cove.SessionOptions(memory_bytes=96 << 20))
    result = await session.run_code(
        "import sys\nsys.setrecursionlimit(10**7)\ndef f(n):\n    return f(n + 1) + 1\nf(0)",
        timeout_s=10,
    )
    assert result.return_code != 0
    assert result.outcome in {"stack_overflow", "error", "crash", "memory", "timeout"}
    await _alive(session)


def _limited(settings: cove.PoolSettings, **limits: int) -> cove.PoolSettings:
    return msgspec.structs.replace(
        settings, defaults=msgspec.structs.replace(settings.defaults, **limits)
    )


async def test_workspace_byte_quota_refuses_writes_and_reports(settings: cove.PoolSettings) -> None:
    async with cove.Pool(_limited(settings, workspace_bytes=1 << 20)) as pool:
        session = await pool.create_session()
        result = await session.run_code(
            "with open('big.bin', 'wb') as f:\n    for _ in range(100):\n        f.write(b'x' * 65536)"
        )
        assert result.outcome == "workspace_full"
        assert result.return_code != 0
        assert "Disk quota exceeded" in result.stderr
        assert "workspace limit was reached" in result.stderr
        on_disk = sum(p.stat().st_size for p in session.workspace.root.rglob("*") if p.is_file())
        assert on_disk <= 1 << 20
        # Deleting gives the room back; the session lives on.
        again = await session.run_code(
            "import os\nos.remove('big.bin')\nopen('small', 'wb').write(b'1' * 1000)"
        )
        assert again.return_code == 0, again.stderr


@pytest.mark.parametrize(
    "attack",
    [
        "import os\nwith open('s', 'wb') as f:\n    os.truncate(f.fileno(), 10**12)",
        "import os\nfd = os.open('p', os.O_CREAT | os.O_WRONLY)\nos.pwrite(fd, b'x', 10**10)",
        "with open('a', 'ab') as f:\n    for _ in range(40):\n        f.write(b'z' * 65536)",
        "for i in range(40):\n    open('w', 'wb').write(b'q' * 65536 * (i + 1))",
    ],
)
async def test_workspace_quota_holds_against_every_growth_route(
    settings: cove.PoolSettings, attack: str
) -> None:
    async with cove.Pool(_limited(settings, workspace_bytes=1 << 20)) as pool:
        session = await pool.create_session()
        result = await session.run_code(attack)
        assert result.outcome == "workspace_full", result
        assert (
            sum(p.stat().st_size for p in session.workspace.root.rglob("*") if p.is_file())
            <= 1 << 20
        )


async def test_rewriting_a_file_within_the_quota_is_allowed(settings: cove.PoolSettings) -> None:
    async with cove.Pool(_limited(settings, workspace_bytes=1 << 20)) as pool:
        session = await pool.create_session()
        result = await session.run_code(
            "for _ in range(100):\n    open('w', 'wb').write(b'q' * 500_000)"
        )
        assert result.outcome == "ok", result.stderr


async def test_workspace_file_count_quota(settings: cove.PoolSettings) -> None:
    async with cove.Pool(_limited(settings, workspace_files=50)) as pool:
        session = await pool.create_session()
        result = await session.run_code(
            "import os\nfor i in range(1000):\n    open(f'f{i}', 'w').close()"
        )
        assert result.outcome == "workspace_full"
        assert len(list(session.workspace.root.iterdir())) <= 50
        dirs = await session.run_code("import os\nos.makedirs('a/b/c/d')")
        assert dirs.return_code != 0


async def test_request_size_limit(settings: cove.PoolSettings) -> None:
    async with cove.Pool(_limited(settings, max_request_bytes=1000)) as pool:
        session = await pool.create_session()
        with pytest.raises(cove.InvalidRequestError, match="1000 bytes"):
            await session.run_code("x = 1  # " + "pad" * 1000)


def test_limits_clamp_to_ceilings() -> None:
    ceiling = cove.Limits(timeout_s=10, memory_bytes=100)
    assert cove.Limits(timeout_s=50, memory_bytes=10).clamp(ceiling).timeout_s == 10
    assert cove.Limits(timeout_s=5, memory_bytes=10).clamp(ceiling).timeout_s == 5
    assert cove.Limits(fuel=None).clamp(cove.Limits(fuel=7)).fuel == 7


def test_limits_refuse_nonpositive_values() -> None:
    with pytest.raises(cove.InvalidRequestError):
        cove.Limits(timeout_s=-1)


async def test_deadlines_hold_after_the_epoch_ticker_went_idle(pool: cove.Pool) -> None:
    # With no guest call for a while the ticker sleeps (an idle server burns no CPU); the next
    # call wakes it, and its deadline fires as ever.
    session = await pool.create_session()
    await session.run_code("pass")
    with anyio.fail_after(10):
        while not pool.engine.idle:
            await anyio.sleep(0.05)
    result = await session.run_code("while True:\n    pass", timeout_s=1)
    assert result.outcome == "timeout"
    # Generous (a loaded machine): a deadline that did not fire would run on and on.
    assert result.execution_time_ms < 15_000

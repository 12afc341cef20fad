"""The soft deadline: a call's code is interrupted at its deadline and the session keeps its state;
code that does not stop within the grace period is ended by force and the interpreter reset.

Each case sets a variable first and reads it afterwards on the same session. A soft stop is
told from a hard one by what it leaves (`reset` False, the state kept), never by a wall-clock
bound a loaded machine can miss: how soon after the deadline it lands is measured in bench/.
"""

from __future__ import annotations

import time

import pytest

import cove
from cove.tools import BashExecution, BashExecutionInput

pytestmark = pytest.mark.anyio

DEADLINE_S = 1
GRACE_S = 1.0

# Code that reaches a bytecode boundary (or calls PyErr_CheckSignals) soon after the deadline.
SOFT_CASES = {
    "busy loop": "while True:\n    pass",
    "regex blow-up": "import re\nre.match(r'(a+)+b', 'a' * 64)",
    "sleep": "import time\ntime.sleep(3600)",
    "deep recursion loop": (
        "def down(n):\n    return down(n + 1)\n"
        "while True:\n    try:\n        down(0)\n    except RecursionError:\n        pass"
    ),
    "busy loop 500 frames deep": (
        "def f(n):\n    if n == 0:\n        while True:\n            pass\n    return f(n - 1)\nf(500)"
    ),
    "pandas apply": (
        "import numpy as np, pandas as pd\n"
        "df = pd.DataFrame({'a': np.arange(100_000)})\n"
        "while True:\n    df['b'] = df['a'].apply(lambda v: v * 2)"
    ),
    "a pool of threads": (
        "import time\nfrom concurrent.futures import ThreadPoolExecutor\n"
        "with ThreadPoolExecutor(4) as pool:\n    list(pool.map(time.sleep, [0.3] * 100))"
    ),
    "subprocess sleep": "import subprocess\nsubprocess.run(['sleep', '100'])",
    "nested python": (
        "import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'while True: pass'])"
    ),
}


@pytest.fixture
def settings(settings: cove.PoolSettings) -> cove.PoolSettings:
    import msgspec

    return msgspec.structs.replace(settings, timeout_grace_s=GRACE_S)


@pytest.mark.parametrize("code", SOFT_CASES.values(), ids=SOFT_CASES.keys())
async def test_the_deadline_interrupts_the_code_and_keeps_the_state(
    session: cove.Session, code: str
) -> None:
    await session.run_code("kept = 41\nimport json")
    result = await session.run_code(code, timeout_s=DEADLINE_S)
    assert result.outcome == "timeout", result.stderr
    assert result.return_code == 124
    assert result.reset is False
    assert "TimeLimitExceeded: the call's time limit was reached" in result.stderr
    assert "interrupted; the session's variables, imports and files are kept" in result.stderr
    assert result.limit is not None and "1 s time limit" in result.limit
    after = await session.run_code("kept += 1\nprint(kept, json.dumps([1]))")
    assert after.stdout == "42 [1]\n", after.stderr


async def test_the_traceback_ends_at_the_models_own_line(session: cove.Session) -> None:
    result = await session.run_code("x = 0\nwhile True:\n    x += 1", timeout_s=DEADLINE_S)
    lines = result.stderr.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert 'File "<cell-1>", line' in result.stderr
    assert "deadline.py" not in result.stderr  # the handler's own frame is not shown
    assert lines[-2] == "TimeLimitExceeded: the call's time limit was reached"


async def test_except_exception_does_not_swallow_it(session: cove.Session) -> None:
    code = (
        "caught = 0\nwhile True:\n    try:\n        sum(i for i in range(1000))\n"
        "    except Exception:\n        caught += 1"
    )
    result = await session.run_code(code, timeout_s=DEADLINE_S)
    assert (result.outcome, result.reset) == ("timeout", False)
    assert (await session.run_code("print(caught)")).stdout == "0\n"


async def test_model_code_may_catch_it_by_name(session: cove.Session) -> None:
    code = (
        "try:\n    while True:\n        pass\nexcept TimeLimitExceeded as exc:\n"
        "    print('stopped:', exc)\nprint('cleanup done')"
    )
    result = await session.run_code(code, timeout_s=DEADLINE_S)
    assert result.stdout == "stopped: the call's time limit was reached\ncleanup done\n"
    # Past its deadline, even a call that ended by itself is a timeout (its state kept).
    assert (result.outcome, result.return_code, result.reset) == ("timeout", 124, False)


async def test_output_written_before_the_deadline_is_kept(session: cove.Session) -> None:
    result = await session.run_code(
        "print('before', flush=True)\nwhile True:\n    pass", timeout_s=DEADLINE_S
    )
    assert result.stdout == "before\n"
    assert result.outcome == "timeout"


HARD_CASES = {
    "one long C call": "sum(range(10**14))",
    "a loop that swallows the interrupt": (
        "import time\nwhile True:\n    try:\n        time.sleep(0.01)\n"
        "    except BaseException:\n        pass"
    ),
    "a handler replaced by model code": (
        "import signal\nsignal.signal(signal.SIGALRM, lambda *a: None)\nwhile True:\n    pass"
    ),
}


@pytest.mark.parametrize("code", HARD_CASES.values(), ids=HARD_CASES.keys())
async def test_code_that_does_not_stop_is_ended_after_the_grace_period(
    session: cove.Session, code: str
) -> None:
    await session.run_code("lost = 1\nopen('kept.txt', 'w').write('still here')")
    started = time.monotonic()
    result = await session.run_code(code, timeout_s=DEADLINE_S)
    elapsed = time.monotonic() - started
    assert result.outcome == "timeout"
    assert result.return_code == 124
    assert result.reset is True
    assert "exceeded the 1 s time limit and was stopped" in result.stderr
    # Not before the grace period is over (the soft stage came first, and was not enough).
    assert elapsed >= DEADLINE_S + GRACE_S - 0.05
    assert (await session.run_code("print(open('kept.txt').read())")).stdout == "still here\n"
    after = await session.run_code("print(lost)")
    assert "NameError" in after.stderr
    assert (await session.run_code("print('next call works')")).stdout == "next call works\n"


async def test_bash_stops_the_command_line_and_the_shell_lives(session: cove.Session) -> None:
    def bash(command: str, timeout: int | None = None) -> BashExecution:
        return BashExecution(input=BashExecutionInput(command=command), timeout_seconds=timeout)

    await session.execute(bash("cd /tmp && export KEPT=7"))
    result = await session.execute(bash("echo started; sleep 100; echo never", DEADLINE_S))
    assert result.outcome == "timeout"
    assert (result.return_code, result.reset) == (124, False)
    assert "bash: the command line was stopped: the call's time limit was reached" in result.stderr
    busy = await session.execute(bash("while true; do :; done", DEADLINE_S))
    assert (busy.outcome, busy.reset) == ("timeout", False)
    nested = await session.execute(bash("python -c 'while True: pass'; echo never", DEADLINE_S))
    assert (nested.outcome, nested.reset) == ("timeout", False)
    assert "never" not in nested.stdout
    after = await session.execute(bash("echo $KEPT; pwd"))
    assert after.stdout == "7\n/tmp\n"


async def test_an_interrupt_never_leaks_into_the_next_call(session: cove.Session) -> None:
    # The soft stop fires during a call's last moments; the next call starts clean.
    for _ in range(5):
        await session.run_code("import time\ntime.sleep(0.995)", timeout_s=DEADLINE_S)
        result = await session.run_code("import time\ntime.sleep(0.2)\nprint('clean')")
        assert (result.outcome, result.stdout) == ("ok", "clean\n"), result.stderr


async def test_no_grace_period_means_no_soft_stage(tmp_path: object, cache_dir: str) -> None:
    settings = cove.PoolSettings(cache_dir=cache_dir, timeout_grace_s=0)
    async with cove.Pool(settings) as pool:
        session = await pool.create_session()
        await session.run_code("kept = 1")
        result = await session.run_code("while True:\n    pass", timeout_s=DEADLINE_S)
        assert (result.outcome, result.return_code, result.reset) == ("timeout", 124, True)
        assert "TimeLimitExceeded" not in result.stderr
        assert "NameError" in (await session.run_code("print(kept)")).stderr


def test_the_grace_period_is_validated() -> None:
    with pytest.raises(cove.InvalidRequestError, match="timeout_grace_s"):
        cove.PoolSettings(timeout_grace_s=0.001)
    with pytest.raises(cove.InvalidRequestError, match="timeout_grace_s"):
        cove.PoolSettings(timeout_grace_s=61)


async def test_a_wakeup_fd_model_code_sets_up_is_written_harmlessly(
    session: cove.Session,
) -> None:
    # The driver keeps signal.set_wakeup_fd off, but a fresh `_signal` module gives model code
    # the real one: at the deadline, the interrupt then writes a byte to that file from inside
    # the host's callback (an ordinary WASI write of the guest's own). Nothing breaks.
    code = (
        "import sys, os\n"
        "del sys.modules['_signal']\n"
        "import _signal\n"
        "fd = os.open('/workspace/wake', os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK)\n"
        "_signal.set_wakeup_fd(fd)\n"
        "def handler(*args):\n    raise KeyboardInterrupt('mine')\n"
        "_signal.signal(_signal.SIGALRM, handler)\n"
        "kept = 5\n"
        "while True:\n    pass"
    )
    result = await session.run_code(code, timeout_s=DEADLINE_S)
    assert (result.outcome, result.reset) == ("timeout", False), result.stderr
    assert "KeyboardInterrupt: mine" in result.stderr
    after = await session.run_code("import os\nprint(kept, os.path.getsize('/workspace/wake'))")
    assert after.stdout == "5 1\n"

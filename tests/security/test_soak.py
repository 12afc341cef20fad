"""Attacks running next to ordinary work on one real server: the ordinary work never notices,
and the server's memory stays inside docs/deploy.md's sizing formula."""

from __future__ import annotations

import gc
import pathlib
import threading
import time
from collections.abc import Callable

import anyio
import httpx
import pytest

from tests.support.servers import Server, start_server, stop_server

from .scribbler import SCRIBBLER

pytestmark = pytest.mark.slow

MiB = 1 << 20

# docs/deploy.md's sizing formula, its constants named as there.
BASE_BYTES = 200 * MiB  # Python, wasmtime, the compiled interpreter, the server
SESSION_OVERHEAD_BYTES = 3 * MiB  # a store, its WASI context, what a first call writes
HOST_CALL_TRANSIENT_BYTES = 48 * MiB  # per worker thread: a capped host call's copies


def _pss(server: Server) -> int:
    """The server's proportional set size. Not RSS: every session maps the snapshot's memory
    image copy-on-write, and RSS counts a shared page once per mapping that touched it."""
    rollup = pathlib.Path(f"/proc/{server.process.pid}/smaps_rollup").read_text()
    for line in rollup.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no Pss in /proc smaps_rollup")


def _exec(code: str, timeout: int = 10) -> dict[str, object]:
    return {"tool": "code_execution", "input": {"code": code}, "timeout_seconds": timeout}


def _bash(command: str, timeout: int = 10) -> dict[str, object]:
    return {
        "tool": "bash_code_execution",
        "input": {"command": command},
        "timeout_seconds": timeout,
    }


# Each attack from the hardening round, as guest code (or a request) that a session runs.
ATTACKS = [
    # a tree deeper than the recursion limit, then the session is destroyed
    _exec(
        "import os\nfd = os.open('.', os.O_RDONLY)\nfor i in range(1500):\n"
        "    os.mkdir('d', dir_fd=fd)\n    c = os.open('d', os.O_RDONLY, dir_fd=fd)\n"
        "    os.close(fd)\n    fd = c"
    ),
    # host calls as large as the guest can make, in a loop until the deadline
    _exec(
        "import _cove, json\nreq = json.dumps({'op': 'echo', 'data': 'x' * (30 << 20)}).encode()\n"
        "while True:\n    try:\n        _cove.host_call(req)\n    except Exception:\n        pass",
        timeout=2,
    ),
    # open files until refused
    _exec(
        "fs = []\ntry:\n    while True:\n        fs.append(open(f'f{len(fs)}', 'w'))\nexcept OSError:\n    pass"
    ),
    # write through an unlinked file past the quota
    _exec(
        "import os\nf = open('ghost', 'wb')\nos.unlink('ghost')\nchunk = b'x' * (1 << 20)\n"
        "try:\n    while True:\n        f.write(chunk)\n        f.flush()\nexcept OSError:\n    pass"
    ),
    # a path past PATH_MAX holding a large file
    _exec(
        "import os\nfd = os.open('.', os.O_RDONLY)\nfor i in range(25):\n"
        "    os.mkdir('n' * 200, dir_fd=fd)\n    c = os.open('n' * 200, os.O_RDONLY, dir_fd=fd)\n"
        "    os.close(fd)\n    fd = c\nf = os.open('big', os.O_WRONLY | os.O_CREAT, dir_fd=fd)\n"
        "try:\n    os.write(f, b'x' * (6 << 20))\nexcept OSError:\n    pass"
    ),
    # an output flood past a lifted bound
    _exec("import sys\nsys.stdout._limit = 1 << 40\nsys.stdout.write('x' * (30 << 20))"),
    # nested interpreters each trying to take the whole memory limit
    _bash(
        'python -c "b = bytearray(40 << 20); import _cove, json; '
        "print(_cove.host_call(json.dumps({'op': 'python', 'argv': "
        "['-c', 'c = bytearray(40 << 20)']}).encode())[:60])\""
    ),
    # a forged driver response
    _exec(
        "import cove_guest.protocol as _cove_protocol, json\nclass F:\n    loads = staticmethod(json.loads)\n"
        "    dumps = staticmethod(lambda *a, **k: '{\"return_code\": 99999999999999999999}')\n"
        "_cove_protocol.json = F"
    ),
    # a busy loop until the deadline
    _exec("while True: pass", timeout=1),
    # round 3: a wait inside the host far past the deadline
    _exec("import select\nselect.select([], [], [], 10**7)", timeout=2),
    # round 3: the quota's counters rewritten through numpy (the statics past the stack), then
    # a write past the quota
    _exec(
        SCRIBBLER.replace("SPAN = None", "SPAN = 4 << 20")
        + "import os\nwrite = lambda: open('s', 'wb').write(b'x' * 12_345)\n"
        "scribble(8, -12_345, write, lambda: os.remove('s'), 2**60)\n"
        "try:\n    open('t', 'wb').write(b'y' * (20 << 20))\nexcept OSError:\n    pass"
    ),
    # round 3: an echo whose data is millions of nested lists
    _exec(
        "import _cove\nreq = b'{\"op\":\"echo\",\"data\":[' + b'[[]],' * 1_600_000 + b'[]]}'\n"
        "_cove.host_call(req)"
    ),
    # round 3: nested interpreters each writing most of the quota
    _bash(
        "python -c \"open('a', 'wb').write(b'a' * (12 << 20))\"; "
        "python -c \"open('b', 'wb').write(b'b' * (12 << 20))\"; ls -l a b || true"
    ),
    # round 3: a file with many hard links, for the fork below
    _exec(
        "import os\nopen('big', 'wb').write(b'x' * (12 << 20))\n"
        "for i in range(40):\n    os.link('big', f'l{i}')"
    ),
]
# Requests other than a call, each with the statuses it may get: (method, path, body, statuses).
# "{sid}" is the attacker's session.
REQUESTS = [
    # round 3: an editor path of a megabyte
    (
        "POST",
        "/sessions/{sid}/exec",
        {
            "tool": "text_editor_code_execution",
            "input": {"command": "view", "path": "a/" * (1 << 19)},
        },
        {422},
    ),
    # round 3: a fork (of a file with 40 names, after the attack above; 409 where the attack
    # left files open)
    ("POST", "/sessions/{sid}/fork", None, {201, 409}),
]


def _server(tmp: pathlib.Path, cache_dir: str, **env: str) -> Server:
    settings = {
        "COVE_MAX_SESSIONS": "80",
        "COVE_MEMORY_MB": "96",
        "COVE_WORKSPACE_MB": "16",
        "COVE_WORKSPACE_FILES": "3000",
        "COVE_MAX_OUTPUT_KB": "64",
        "COVE_TIMEOUT_S": "10",
        # Longer than a soak: a pooled connection left idle past the server's keep-alive
        # timeout is closed by the server just as the client may pick it for a POST, which
        # httpx does not retry (ReadError). That race is HTTP/1.1's, not what is measured here.
        "COVE_KEEPALIVE_TIMEOUT_S": "120",
    }
    return start_server(tmp, cache_dir, **(settings | env))


def test_ordinary_work_is_unaffected_by_attacks_running_beside_it(
    tmp_path: pathlib.Path, cache_dir: str, record_property: Callable[[str, object], None]
) -> None:
    server = _server(tmp_path, cache_dir)
    health_ms: list[float] = []
    pss: list[int] = []
    problems: list[str] = []
    stop = threading.Event()

    def watch_health() -> None:
        with httpx.Client(base_url=server.base_url, timeout=5) as client:
            while not stop.is_set():
                started = time.perf_counter()
                response = client.get("/health")
                health_ms.append((time.perf_counter() - started) * 1000)
                if response.status_code != 200:
                    problems.append(f"/health {response.status_code}")
                pss.append(_pss(server))
                stop.wait(0.1)

    async def soak() -> int:
        done = 0
        deadline = time.monotonic() + 20
        limits = httpx.Limits(max_connections=80, max_keepalive_connections=80)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=60, limits=limits) as client:

            async def ordinary(index: int) -> None:
                nonlocal done
                sid = (await client.post("/sessions", json={})).json()["session_id"]
                step = 0
                while time.monotonic() < deadline:
                    step += 1
                    r = await client.post(
                        f"/sessions/{sid}/exec", json=_exec(f"print({index} * 1000 + {step})")
                    )
                    got = r.json()["result_block"]["content"]["stdout"]
                    if r.status_code != 200 or got != f"{index * 1000 + step}\n":
                        problems.append(f"session {index} step {step}: {r.status_code} {got!r}")
                    done += 1
                await client.delete(f"/sessions/{sid}")

            async def attacker(index: int) -> None:
                turn = index
                while time.monotonic() < deadline:
                    sid = (await client.post("/sessions", json={})).json()["session_id"]
                    attack = turn % len(ATTACKS)
                    r = await client.post(f"/sessions/{sid}/exec", json=ATTACKS[attack])
                    if r.status_code != 200:
                        problems.append(f"attack {attack}: {r.status_code}")
                    for method, path, body, statuses in REQUESTS:
                        r = await client.request(method, path.format(sid=sid), json=body)
                        if r.status_code not in statuses:
                            problems.append(
                                f"{method} {path} after attack {attack}: {r.status_code}"
                            )
                        elif r.status_code == 201:  # a fork: gone with its source
                            await client.delete(f"/sessions/{r.json()['session_id']}")
                    await client.delete(f"/sessions/{sid}")
                    turn += 1

            async with anyio.create_task_group() as tg:
                for i in range(50):
                    tg.start_soon(ordinary, i)
                for i in range(5):
                    tg.start_soon(attacker, i)
        return done

    # /health is timed from this process: keep this process's own garbage collector (which,
    # late in a full test run, has a large heap to walk) out of what is measured.
    gc.collect()
    gc.freeze()
    watcher = threading.Thread(target=watch_health)
    watcher.start()
    try:
        done = anyio.run(soak)
        peak = max(pss)
    finally:
        stop.set()
        watcher.join()
        stop_server(server)
        gc.unfreeze()
    record_property("ordinary_calls", done)
    record_property("health_max_ms", round(max(health_ms), 1))
    record_property("peak_pss_mib", round(peak / MiB, 1))
    assert not problems, problems[:10]
    assert done > 200
    assert max(health_ms) < 100, sorted(health_ms)[-5:]
    # 55 sessions live at once, 5 of them able to fill their 96 MiB.
    bound = BASE_BYTES + 55 * SESSION_OVERHEAD_BYTES + 5 * 96 * MiB + 2 * HOST_CALL_TRANSIENT_BYTES
    assert peak < bound, (peak / MiB, bound / MiB)


def test_memory_sizing_formula_holds_with_sessions_at_their_limit(
    tmp_path: pathlib.Path, cache_dir: str, record_property: Callable[[str, object], None]
) -> None:
    # 160 MiB: room above the ~73 MiB every interpreter starts with (the snapshot, shared
    # copy-on-write) for the session to fill.
    limit = 160 * MiB
    server = _server(tmp_path, cache_dir, COVE_MEMORY_MB=str(limit // MiB))
    sessions = 8
    try:
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            warm = client.post("/sessions", json={}).json()["session_id"]
            client.post(f"/sessions/{warm}/exec", json=_exec("pass"))
            client.delete(f"/sessions/{warm}")
            base = _pss(server)
            sids = [client.post("/sessions", json={}).json()["session_id"] for _ in range(sessions)]
            for sid in sids:
                # The caller takes most of the limit and a nested interpreter asks for the rest
                # and more: together they stay within the one limit of the session.
                r = client.post(
                    f"/sessions/{sid}/exec",
                    json=_exec(
                        "import _cove, json\n"
                        "held = []\n"
                        "try:\n"
                        "    while True:\n"
                        "        held.append(bytearray(4 << 20))\n"
                        "except MemoryError:\n"
                        "    pass\n"
                        "held.pop(); held.pop(); held.pop()\n"
                        "import gc; gc.collect()\n"
                        "reply = json.loads(_cove.host_call(json.dumps({'op': 'python', "
                        "'argv': ['-c', 'x = [bytearray(1 << 20) for _ in range(200)]']}).encode()))\n"
                        "print(reply.get('return_code'), 'MemoryError' in reply.get('stderr', '')"
                        " or reply.get('error', ''))"
                    ),
                )
                assert r.status_code == 200
            grown = _pss(server) - base
    finally:
        stop_server(server)
    record_property("grown_mib", round(grown / MiB, 1))
    assert grown < sessions * (limit + SESSION_OVERHEAD_BYTES), grown / MiB
    # ... and they really did fill their limits, past the snapshot (the test measures what it
    # claims to).
    assert grown > sessions * (limit - 96 * MiB), grown / MiB

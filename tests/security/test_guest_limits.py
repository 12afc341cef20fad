"""The guest's libc-level caps (python-wasm/guest/c/cove_quota.c), driven through the real
interpreter: open descriptors, files deleted while open, and directory depth.

Each attack came from the hardening round: 20,000 open files exhausting the server's
descriptors, 1.5 GB written under a 256 MiB quota by deleting (or renaming over) a file kept
open, and unbounded directory nesting.
"""

from __future__ import annotations

import msgspec
import pytest

import cove

pytestmark = pytest.mark.anyio

QUOTA_BYTES = 1 << 20


def _pool_settings(settings: cove.PoolSettings, **changes: int) -> cove.PoolSettings:
    return msgspec.structs.replace(settings, **changes)


def _quota(settings: cove.PoolSettings) -> cove.PoolSettings:
    return msgspec.structs.replace(
        settings, defaults=msgspec.structs.replace(settings.defaults, workspace_bytes=QUOTA_BYTES)
    )


async def _ok(session: cove.Session, code: str) -> str:
    result = await session.run_code(code)
    assert result.return_code == 0, result.stderr
    return result.stdout


async def _refused(session: cove.Session, code: str) -> str:
    """Runs `code`, which meets the workspace quota (and catches the error), for its stdout."""
    result = await session.run_code(code)
    assert result.outcome == "workspace_full", result.stderr
    return result.stdout


FLOOD = """
import os
held = []
try:
    for i in range(20_000):
        held.append({opener})
    print('no limit')
except OSError as exc:
    print(len(held), exc.errno, exc.strerror)
"""

OPENERS = {
    "files": "open(f'f{i}', 'wb')",
    "directories": "os.open('.', os.O_RDONLY | os.O_DIRECTORY)",
}


@pytest.mark.parametrize("kind", sorted(OPENERS))
async def test_open_descriptor_flood_stops_at_the_cap_and_closing_frees_slots(
    settings: cove.PoolSettings, kind: str
) -> None:
    async with cove.Pool(_pool_settings(settings, max_open_files=16)) as pool:
        session = await pool.create_session()
        out = await _ok(session, FLOOD.format(opener=OPENERS[kind]))
        assert out == "16 33 Too many open files\n"
        # The descriptors stay held across calls: still full, but the session works.
        full = await _ok(
            session, "try:\n    open('one-more', 'wb')\nexcept OSError as e:\n    print(e.errno)"
        )
        assert full == "33\n"
        assert await _ok(session, "import json\nprint(json.dumps([len(held)]))") == "[16]\n"
        # Closing gives the slots back, all of them.
        freed = await _ok(
            session,
            "for h in held:\n    os.close(h) if isinstance(h, int) else h.close()\n"
            "again = [open(f'g{i}', 'wb') for i in range(16)]\nprint(len(again))\n"
            "for f in again:\n    f.close()",
        )
        assert freed == "16\n"


async def test_file_deleted_while_open_stays_charged_until_closed(
    settings: cove.PoolSettings,
) -> None:
    async with cove.Pool(_quota(settings)) as pool:
        session = await pool.create_session()
        out = await _refused(
            session,
            "import os\nf = open('big', 'wb', buffering=0)\nf.write(b'x' * 600_000)\n"
            "os.remove('big')\n"
            "try:\n    f.write(b'y' * 600_000)\nexcept OSError as e:\n    print(e.strerror)",
        )
        assert out == "Disk quota exceeded\n"
        # A later call starts from the host's scan of the workspace, which cannot see the
        # deleted file: its bytes are still charged, and writes to it are counted once.
        later = await _refused(
            session,
            "f.write(b'z' * 300_000)\nprint(os.fstat(f.fileno()).st_size)\n"
            "try:\n    f.write(b'w' * 200_000)\nexcept OSError as e:\n    print(e.strerror)\n"
            "try:\n    open('other', 'wb').write(b'v' * 200_000)\nexcept OSError as e:\n"
            "    print(e.strerror)",
        )
        assert later == "900000\nDisk quota exceeded\nDisk quota exceeded\n"
        # Closing the file gives its room back.
        closed = await _ok(
            session, "f.close()\nopen('after', 'wb').write(b'a' * 900_000)\nprint('written')"
        )
        assert closed == "written\n"


async def test_file_renamed_over_while_open_stays_charged_until_closed(
    settings: cove.PoolSettings,
) -> None:
    async with cove.Pool(_quota(settings)) as pool:
        session = await pool.create_session()
        out = await _refused(
            session,
            "import os\nf = open('victim', 'wb', buffering=0)\nf.write(b'x' * 600_000)\n"
            "open('other', 'wb').close()\nos.replace('other', 'victim')\n"
            "try:\n    f.write(b'y' * 600_000)\nexcept OSError as e:\n    print(e.strerror)",
        )
        assert out == "Disk quota exceeded\n"
        later = await _refused(
            session,
            "try:\n    open('more', 'wb').write(b'm' * 600_000)\nexcept OSError as e:\n"
            "    print(e.strerror)",
        )
        assert later == "Disk quota exceeded\n"
        closed = await _ok(
            session, "f.close()\nopen('more', 'wb').write(b'm' * 900_000)\nprint('written')"
        )
        assert closed == "written\n"


async def test_temporary_files_work_and_give_their_room_back(settings: cove.PoolSettings) -> None:
    async with cove.Pool(_quota(settings)) as pool:
        session = await pool.create_session()
        code = (
            "import tempfile\nfor _ in range(5):\n    with tempfile.TemporaryFile() as t:\n"
            "        t.write(b't' * 700_000)\n        t.seek(0)\n        assert len(t.read()) == 700_000\n"
            "print('ok')"
        )
        assert await _ok(session, code) == "ok\n"
        assert await _ok(session, code) == "ok\n"
        assert await _ok(session, "import os\nprint(os.listdir('.'))") == "[]\n"


DEPTH = 8
CHAIN = "/".join(["d"] * DEPTH)
NESTING = {
    "makedirs": (
        "import errno, os\n"
        f"os.makedirs({CHAIN!r})\n"
        "try:\n"
        f"    os.makedirs({CHAIN + '/d/d'!r})\n"
        "except OSError as e:\n"
        "    print(e.errno == errno.ENAMETOOLONG, e.strerror)"
    ),
    "mkdir_chdir": (
        "import errno, os\nn = 0\n"
        "try:\n"
        "    while True:\n"
        "        os.mkdir('d')\n        os.chdir('d')\n        n += 1\n"
        "except OSError as e:\n"
        "    print(n, e.errno == errno.ENAMETOOLONG, e.strerror)\n"
        "finally:\n"
        "    os.chdir('/workspace')"
    ),
    "mkdir_dir_fd": (
        "import errno, os\nn = 0\nfd = os.open('.', os.O_RDONLY)\n"
        "try:\n"
        "    while True:\n"
        "        os.mkdir('d', dir_fd=fd)\n"
        "        sub = os.open('d', os.O_RDONLY, dir_fd=fd)\n"
        "        os.close(fd)\n        fd = sub\n        n += 1\n"
        "except OSError as e:\n"
        "    print(n, e.errno == errno.ENAMETOOLONG, e.strerror)\n"
        "finally:\n"
        "    os.close(fd)"
    ),
    "symlink_to_deep_directory": (
        "import errno, os\n"
        f"os.makedirs({CHAIN!r})\n"
        f"os.symlink({CHAIN!r}, 'shortcut')\n"
        "try:\n"
        "    os.mkdir('shortcut/d')\n"
        "except OSError as e:\n"
        "    print(e.errno == errno.ENAMETOOLONG, e.strerror)"
    ),
    "rename_into_deepest_directory": (
        "import errno, os\n"
        f"os.makedirs({CHAIN!r})\nos.mkdir('x')\n"
        "try:\n"
        f"    os.rename('x', {CHAIN + '/x'!r})\n"
        "except OSError as e:\n"
        "    print(e.errno == errno.ENAMETOOLONG, e.strerror)"
    ),
}
EXPECTED = {
    "mkdir_chdir": f"{DEPTH} True File name too long\n",
    "mkdir_dir_fd": f"{DEPTH} True File name too long\n",
}


@pytest.mark.parametrize("route", sorted(NESTING))
async def test_directory_nesting_stops_at_the_depth_limit(
    settings: cove.PoolSettings, route: str
) -> None:
    async with cove.Pool(_pool_settings(settings, max_directory_depth=DEPTH)) as pool:
        session = await pool.create_session()
        out = await _ok(session, NESTING[route])
        assert out == EXPECTED.get(route, "True File name too long\n")
        deepest = max(
            len(p.relative_to(session.workspace.root).parts)
            for p in session.workspace.root.rglob("*")
            if p.is_dir() and not p.is_symlink()
        )
        assert deepest == DEPTH
        assert await _ok(session, "import os\nprint(os.getcwd())") == "/workspace\n"

"""The editor's `view` answered on the host (`cove._hostview`) against the guest's own answer.

Every case is run both ways on the same session and file: `Session.execute` (the host answers
where it can) and the guest's editor reached directly (`Session._run`, what every other
command goes through). The results must be identical, field for field; where the host
declines, `execute` must still give the guest's answer.
"""

from __future__ import annotations

import os
import pathlib
import sys

import msgspec
import pytest

import cove
from cove import _hostview as hostview
from cove import _protocol as protocol
from cove._tools import ExecResult

pytestmark = pytest.mark.anyio

TOOL = "text_editor_code_execution"

# Host-side opens of workspace files, recorded while `_opens` is set (audit hooks cannot be
# removed, so one is added for the whole run and is inert otherwise).
_opens: list[str] | None = None


def _audit(event: str, args: tuple[object, ...]) -> None:
    if _opens is not None and event == "open" and isinstance(args[0], str | os.PathLike):
        _opens.append(os.fspath(args[0]))


sys.addaudithook(_audit)


class _HostOpens:
    def __enter__(self) -> list[str]:
        global _opens
        _opens = []
        return _opens

    def __exit__(self, *exc: object) -> None:
        global _opens
        _opens = None


def view(path: str, view_range: list[int] | None = None) -> cove.tools.TextEditor:
    return cove.tools.TextEditor(
        input=cove.tools.TextEditorInput(command="view", path=path, view_range=view_range)
    )


async def in_guest(session: cove.Session, path: str, view_range: list[int] | None) -> ExecResult:
    """The guest editor's own answer (no host path)."""
    limits = session.limits
    data = protocol.encode(
        protocol.EditRequest(
            command="view",
            path=path,
            view_range=view_range,
            max_output_bytes=limits.max_output_bytes,
        )
    )
    result: ExecResult = await session._locked(lambda: session._run(TOOL, data, limits.timeout_s))
    return result


async def both(
    session: cove.Session, path: str, view_range: list[int] | None = None
) -> tuple[ExecResult, ExecResult, bool]:
    """(execute's result, the guest's result, whether execute read the file on the host)."""
    with _HostOpens() as opens:
        served = await session.execute(view(path, view_range))
    guest = await in_guest(session, path, view_range)
    # The host opened a file of the workspace (the tracker opens only its directories).
    root = f"{session.workspace.root}/"
    on_host = any(p.startswith(root) and os.path.isfile(p) for p in opens)
    return served, guest, on_host


def _same(served: ExecResult, guest: ExecResult) -> None:
    """Equal in every field but the time taken and the memory: the guest's own view (run
    second) may grow the interpreter's memory to read the file, where the host's leaves it."""
    assert served.peak_memory_bytes <= guest.peak_memory_bytes
    a, b = (
        msgspec.structs.replace(r, execution_time_ms=0, peak_memory_bytes=0)
        for r in (served, guest)
    )
    assert a == b, (a, b)


CONTENTS: dict[str, bytes] = {
    "empty.txt": b"",
    "one_line.txt": b"just one line",
    "trailing_newline.txt": b"a\nb\nc\n",
    "crlf.txt": b"first\r\nsecond\r\n\r\nlast",
    "lone_cr.txt": b"a\rb\rc",
    "invalid_utf8.txt": b"ok \xff\xfe bad \xc3 cut \xe2\x82",
    "bom.txt": b"\xef\xbb\xbfbom first\n",
    "unicode.txt": "ünïcødé ✓ 𝔘 — 中文\n".encode(),
    "tabs.py": b"def f():\n\treturn 1\n\n\n",
    "nul.bin": b"\x00\x01\x02\nbinary\x00end",
    "many_lines.txt": b"".join(b"line %d\n" % i for i in range(2000)),
    "long_line.txt": b"x" * 30000,
    "deep/er/still/file.txt": b"nested\n",
    "spaces in name.txt": b"spaced\n",
}


@pytest.fixture
def files(session: cove.Session) -> dict[str, bytes]:
    root = pathlib.Path(session.workspace.root)
    for name, data in CONTENTS.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return CONTENTS


async def test_every_kind_of_file_the_same_and_answered_on_the_host(
    session: cove.Session, files: dict[str, bytes]
) -> None:
    for name in files:
        # A trailing slash is normalised away by the guest's editor too.
        for path in (name, f"/workspace/{name}", f"./{name}", f"deep/../{name}", f"{name}/"):
            served, guest, on_host = await both(session, path)
            _same(served, guest)
            assert guest.return_code == 0 and guest.outcome == "ok", (path, guest)
            assert on_host, path


async def test_view_ranges_valid_answered_on_the_host_invalid_by_the_guest(
    session: cove.Session, files: dict[str, bytes]
) -> None:
    lines = files["trailing_newline.txt"].count(b"\n") + 1  # 4: the last is empty
    valid = [[1, -1], [2, -1], [lines, -1], [1, 1], [2, 3], [1, lines], [lines, lines]]
    invalid = [[0, 1], [0, -1], [3, 2], [1, lines + 1], [lines + 1, -1], [-1, -1], [2, -2]]
    for rng in valid:
        served, guest, on_host = await both(session, "trailing_newline.txt", rng)
        _same(served, guest)
        assert guest.return_code == 0 and on_host, rng
    for rng in invalid:
        served, guest, on_host = await both(session, "trailing_newline.txt", rng)
        _same(served, guest)
        assert guest.return_code == 1 and "Invalid view_range" in guest.stderr, rng
    for rng in ([1, -1], [3, 3]):
        served, guest, on_host = await both(session, "empty.txt", rng)
        _same(served, guest)


async def test_what_the_host_declines_the_guest_answers(
    session: cove.Session, files: dict[str, bytes]
) -> None:
    root = pathlib.Path(session.workspace.root)
    (root / "link.txt").symlink_to("one_line.txt")
    (root / "linkdir").symlink_to("deep")
    (root / "dangling").symlink_to("nowhere")
    (root / "big.txt").write_bytes(b"y\n" * (hostview.INLINE_MAX_BYTES // 2 + 1))
    (root / "exact.txt").write_bytes(b"z" * hostview.INLINE_MAX_BYTES)
    os.mkfifo(root / "fifo")
    declined = [
        "link.txt",  # a link the guest follows inside the sandbox
        "linkdir/er/still/file.txt",
        "dangling",
        "big.txt",  # over INLINE_MAX_BYTES
        "missing.txt",
        "missing/deeper.txt",
        "deep",  # a directory: the guest lists it
        "/workspace",
        ".",
        "/etc/passwd",
        "../outside.txt",
        "/workspace/../etc/passwd",
        "//workspace/one_line.txt",
        "/tmp/x.txt",
        "nul\0byte",
    ]
    for path in declined:
        served, guest, on_host = await both(session, path)
        _same(served, guest)
        assert hostview.view_text(session.workspace, path, None, 1 << 20) is None, path
    # At the bound exactly, the host still answers.
    served, guest, on_host = await both(session, "exact.txt")
    _same(served, guest)
    assert on_host and guest.return_code == 0


async def test_a_fifo_is_declined_without_blocking(
    session: cove.Session, files: dict[str, bytes]
) -> None:
    os.mkfifo(pathlib.Path(session.workspace.root) / "fifo")
    assert hostview.view_text(session.workspace, "fifo", None, 1 << 20) is None


async def test_output_over_the_bound_is_cut_by_the_guest(settings: cove.PoolSettings) -> None:
    bounded = cove.PoolSettings(
        workspace_root=settings.workspace_root,
        cache_dir=settings.cache_dir,
        defaults=cove.Limits(timeout_s=10.0, memory_bytes=256 << 20, max_output_bytes=1000),
    )
    async with cove.Pool(bounded) as pool:
        await _bounded(await pool.create_session())


async def _bounded(session: cove.Session) -> None:
    root = pathlib.Path(session.workspace.root)
    (root / "small.txt").write_bytes(b"s\n" * 20)
    (root / "wide.txt").write_bytes(b"w\n" * 400)
    served, guest, on_host = await both(session, "small.txt")
    _same(served, guest)
    assert on_host
    served, guest, on_host = await both(session, "wide.txt")
    _same(served, guest)
    # Read on the host, then left to the guest, whose driver words the cut.
    assert served.stdout_dropped_bytes > 0 and "[output truncated" in served.stdout


async def test_the_view_sees_what_code_wrote_and_counts_as_use(session: cove.Session) -> None:
    await session.run_code("open('w.txt', 'w').write('from code\\n')")
    before = session.last_activity_at
    calls = session.calls
    with _HostOpens() as opens:
        result = await session.execute(view("w.txt"))
    assert opens, "answered on the host"
    assert result.stdout.endswith("     1\tfrom code\n     2\t\n")
    assert result.files == () and result.fuel_used is None
    assert result.peak_memory_bytes == session._guest.memory_bytes()  # type: ignore[union-attr]
    assert session.calls == calls + 1 and session.last_activity_at >= before
    # A file code holds open and wrote to without flushing: neither side sees the buffer.
    await session.run_code("f = open('held.txt', 'w'); f.write('buffered')")
    served, guest, on_host = await both(session, "held.txt")
    _same(served, guest)
    assert on_host and "buffered" not in guest.stdout


async def test_fuel_metering_leaves_the_view_to_the_guest(settings: cove.PoolSettings) -> None:
    metered = cove.PoolSettings(
        workspace_root=settings.workspace_root,
        cache_dir=settings.cache_dir,
        defaults=cove.Limits(timeout_s=10.0, memory_bytes=256 << 20, fuel=10**12),
    )
    async with cove.Pool(metered) as pool:
        session = await pool.create_session()
        (pathlib.Path(session.workspace.root) / "f.txt").write_bytes(b"fuel\n")
        served, guest, on_host = await both(session, "f.txt")
        assert not on_host
        assert served.fuel_used is not None and served.stdout == guest.stdout


async def test_a_suspended_session_resumes_for_its_view(settings: cove.PoolSettings) -> None:
    async with cove.Pool(settings) as pool:
        session = await pool.create_session()
        await session.run_code("x = 41")
        (pathlib.Path(session.workspace.root) / "f.txt").write_bytes(b"kept\n")
        assert await session.suspend()
        served, guest, on_host = await both(session, "f.txt")
        assert not on_host  # the first view resumed it in the guest
        _same(served, guest)
        assert (await session.run_code("print(x + 1)")).stdout == "42\n"
        served, guest, on_host = await both(session, "f.txt")
        assert on_host
        _same(served, guest)

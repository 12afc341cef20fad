"""In-process latency through the public async API, measured inside a running event loop (as a
gateway embedding Cove calls it), and memory per session."""

from __future__ import annotations

import gc
import pathlib
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import anyio

import cove

from ._stats import memory_kib, time_calls


async def _run(cache_dir: str, consume_fuel: bool) -> dict[str, Any]:
    root = pathlib.Path(tempfile.mkdtemp(prefix="cove-bench-"))
    settings = cove.PoolSettings(
        workspace_root=str(root),
        cache_dir=cache_dir,
        max_sessions=100_000,
        consume_fuel=consume_fuel,
        # Room for 10,000 files and their 100 directories (the default limit is 10,000 entries).
        defaults=cove.Limits(workspace_files=20_000),
    )
    out: dict[str, Any] = {}
    async with cove.Pool(settings) as pool:
        created: list[cove.Session] = []

        async def create() -> None:
            created.append(await pool.create_session())

        # As a gateway creates sessions (one per conversation, not in a burst): 10 ms apart,
        # untimed, in which the pool makes its spare again (`spare_sessions`). Back to back,
        # the spare is used up and most are made on demand.
        out["create_session"] = await time_calls(300, create, gap_s=0.01)
        out["create_session_back_to_back"] = await time_calls(300, create)

        async def create_first() -> None:
            s = await pool.create_session()
            created.append(s)
            await s.run_code("pass")

        out["create_to_first_call"] = await time_calls(300, create_first, gap_s=0.01)
        for s in created:
            await pool.destroy_session(s.session_id)
        session = await pool.create_session()
        await session.write_file("notes.txt", b"line\n" * 50)
        await session.write_file("get.bin", b"y" * 4096)
        view = cove.tools.TextEditor(
            input=cove.tools.TextEditorInput(command="view", path="notes.txt")
        )
        out["trivial_call"] = await time_calls(2000, lambda: session.run_code("pass"))
        out["print"] = await time_calls(2000, lambda: session.run_code("print('hello world')"))
        out["text_editor_view"] = await time_calls(1000, lambda: session.execute(view))
        out["file_put_4k"] = await time_calls(
            1000, lambda: session.write_file("put.bin", b"x" * 4096)
        )
        out["file_get_4k"] = await time_calls(1000, lambda: session.read_file("get.bin"))

        def bash(command: str) -> Callable[[], Awaitable[object]]:
            call = cove.tools.BashExecution(input=cove.tools.BashExecutionInput(command=command))
            return lambda: session.execute(call)

        await session.write_file("words.txt", b"apple\nbanana\napple\ncherry\n" * 25)
        out["bash_echo"] = await time_calls(1000, bash("echo hi"))
        out["bash_pipeline_3_stages"] = await time_calls(
            1000, bash("cat words.txt | sort | uniq -c")
        )
        out["bash_python_c"] = await time_calls(300, bash("python -c 'print(1)'"))
        out["thread_hop_baseline"] = await time_calls(
            2000, lambda: anyio.to_thread.run_sync(lambda: None)
        )
        await pool.destroy_session(session.session_id)
        out["files_in_workspace"] = await _files_in_workspace(pool)

        # Memory per session after a first call: 100 sessions, growth of this process's PSS.
        gc.collect()
        await anyio.sleep(0.2)
        before = memory_kib()
        many = [await pool.create_session() for _ in range(100)]
        for s in many:
            await s.run_code("x = 1")
        after = memory_kib()
        out["memory_per_session_after_first_call"] = {
            "sessions": 100,
            "pss_kib": (after["pss_kib"] - before["pss_kib"]) / 100,
            "private_kib": (after["private_kib"] - before["private_kib"]) / 100,
        }
    return out


def _trivial(session: cove.Session) -> Callable[[], Awaitable[object]]:
    return lambda: session.run_code("pass")


async def _files_in_workspace(pool: cove.Pool) -> dict[str, Any]:
    """A trivial call in a session with 10, 1,000 and 10,000 files (100 to a directory): with
    the workspace tracker (as deployed), and walking the workspace in full before and after
    the call (what every call did before the tracker; its watcher detached for the run)."""
    out: dict[str, Any] = {}
    for files in (10, 1000, 10_000):
        session = await pool.create_session()
        made = await session.run_code(
            f"import os\nfor i in range({files}):\n"
            "    d = f'd{i // 100}'\n    os.makedirs(d, exist_ok=True)\n"
            "    open(f'{d}/{i}.txt', 'w').write('x' * 200)"
        )
        assert made.return_code == 0, made.stderr
        tracker = session.workspace.tracker
        walks = tracker.walks
        trivial = _trivial(session)
        out[f"{files}_tracked"] = await time_calls(500, trivial)
        out[f"{files}_tracked"]["walks"] = tracker.walks - walks
        watcher, tracker._watcher = tracker._watcher, None  # bench only: the old full walks
        try:
            out[f"{files}_walked"] = await time_calls(500 if files < 10_000 else 50, trivial)
        finally:
            tracker._watcher = watcher
        await pool.destroy_session(session.session_id)
    return out


def run(cache_dir: str, *, consume_fuel: bool = False) -> dict[str, Any]:
    return anyio.run(_run, cache_dir, consume_fuel)


if __name__ == "__main__":
    import json

    print(json.dumps(run(str(pathlib.Path(tempfile.gettempdir()) / "cove-bench-cache")), indent=2))

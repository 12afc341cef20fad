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
    )
    out: dict[str, Any] = {}
    async with cove.Pool(settings) as pool:
        created: list[cove.Session] = []

        async def create() -> None:
            created.append(await pool.create_session())

        out["create_session"] = await time_calls(300, create)

        async def create_first() -> None:
            s = await pool.create_session()
            created.append(s)
            await s.run_code("pass")

        out["create_to_first_call"] = await time_calls(300, create_first)
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


def run(cache_dir: str, *, consume_fuel: bool = True) -> dict[str, Any]:
    return anyio.run(_run, cache_dir, consume_fuel)


if __name__ == "__main__":
    import json

    print(json.dumps(run(str(pathlib.Path(tempfile.gettempdir()) / "cove-bench-cache")), indent=2))

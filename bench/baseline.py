"""The comparator, not a product feature: the reference backend's design without its container.

A Litestar app speaking the same contract; one long-lived native `python3` REPL subprocess per
session (`_baseline_worker.py`, a length-prefixed JSON pipe protocol), a workspace directory per
session, timeouts enforced by killing the process (state is then lost, like the reference).

    python -m bench.baseline --port 8091
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import secrets
import shutil
import struct
import sys
import tempfile
import time
from typing import Any

from litestar import Litestar, Request, Response, delete, get, post
from litestar.params import FromPath, FromQuery

WORKER = pathlib.Path(__file__).with_name("_baseline_worker.py")


class _Session:
    def __init__(self, workspace: pathlib.Path) -> None:
        self.workspace = workspace
        self.proc: asyncio.subprocess.Process | None = None
        self.lock = asyncio.Lock()

    async def start(self) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-u",
            str(WORKER),
            cwd=self.workspace,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={"PATH": os.environ.get("PATH", ""), "HOME": str(self.workspace)},
        )

    async def run(self, code: str, timeout_s: float) -> dict[str, Any]:
        if self.proc is None or self.proc.returncode is not None:
            await self.start()
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        data = json.dumps({"code": code}).encode()
        self.proc.stdin.write(struct.pack("!I", len(data)) + data)
        await self.proc.stdin.drain()
        try:
            async with asyncio.timeout(timeout_s):
                (n,) = struct.unpack("!I", await self.proc.stdout.readexactly(4))
                return dict(json.loads(await self.proc.stdout.readexactly(n)))
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
            return {"stdout": "", "stderr": f"timed out after {timeout_s} s\n", "return_code": 124}

    async def close(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        shutil.rmtree(self.workspace, ignore_errors=True)


def create_app(root: pathlib.Path) -> Litestar:
    sessions: dict[str, _Session] = {}

    @post("/sessions", status_code=201)
    async def create() -> dict[str, Any]:
        sid = secrets.token_hex(16)
        workspace = root / sid
        workspace.mkdir()
        session = _Session(workspace)
        await session.start()
        sessions[sid] = session
        now = time.time()
        return {"session_id": sid, "created_at": now, "last_activity_at": now}

    @delete("/sessions/{sid:str}", status_code=204)
    async def destroy(sid: FromPath[str]) -> None:
        session = sessions.pop(sid, None)
        if session is not None:
            await session.close()

    @post("/sessions/{sid:str}/exec")
    async def execute(sid: FromPath[str], request: Request[Any, Any, Any]) -> Response[bytes]:
        session = sessions.get(sid)
        if session is None:
            return Response(
                b'{"detail": "unknown session"}', status_code=404, media_type="application/json"
            )
        body = json.loads(await request.body())
        tool, inp = body.get("tool"), body.get("input", {})
        started = time.perf_counter()
        async with session.lock:
            if tool == "code_execution":
                result = await session.run(inp["code"], float(body.get("timeout_seconds") or 30))
            elif tool == "bash_code_execution":
                proc = await asyncio.create_subprocess_exec(
                    "bash",
                    "-c",
                    inp["command"],
                    cwd=session.workspace,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                )
                out, err = await proc.communicate()
                result = {
                    "stdout": out.decode(errors="replace"),
                    "stderr": err.decode(errors="replace"),
                    "return_code": proc.returncode,
                }
            elif tool == "text_editor_code_execution" and inp.get("command") == "view":
                text = (session.workspace / inp["path"]).read_text()
                numbered = "\n".join(f"{i:6}\t{line}" for i, line in enumerate(text.split("\n"), 1))
                result = {"stdout": numbered + "\n", "stderr": "", "return_code": 0}
            else:
                return Response(
                    b'{"detail": "unsupported"}', status_code=400, media_type="application/json"
                )
        tool_use_id = "srvtoolu_" + secrets.token_hex(12)
        block = {
            "type": f"{tool}_tool_result",
            "tool_use_id": tool_use_id,
            "content": {"type": "code_execution_result", **result, "content": []},
        }
        payload = {
            "tool_use_id": tool_use_id,
            "result_block": block,
            "execution_time_ms": int((time.perf_counter() - started) * 1000),
        }
        return Response(json.dumps(payload).encode(), media_type="application/json")

    @post("/sessions/{sid:str}/files", status_code=201)
    async def put_file(sid: FromPath[str], request: Request[Any, Any, Any]) -> dict[str, Any]:
        form = await request.form()
        upload = form["file"]
        path = str(form.get("path") or upload.filename)
        data = await upload.read()
        (sessions[sid].workspace / path).write_bytes(data)
        return {"path": path, "size_bytes": len(data)}

    @get("/sessions/{sid:str}/files/list")
    async def list_files(sid: FromPath[str], path: FromQuery[str] = ".") -> dict[str, Any]:
        base = sessions[sid].workspace / path
        return {
            "files": [
                {"path": p.name, "size_bytes": p.stat().st_size} for p in sorted(base.iterdir())
            ]
        }

    @get("/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    async def shutdown() -> None:
        for session in list(sessions.values()):
            await session.close()
        sessions.clear()

    return Litestar(
        [create, destroy, execute, put_file, list_files, health],
        on_shutdown=[shutdown],
        openapi_config=None,
        logging_config=None,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8091)
    args = parser.parse_args()
    import uvicorn

    root = pathlib.Path(tempfile.mkdtemp(prefix="baseline-"))
    try:
        uvicorn.run(
            create_app(root), host=args.host, port=args.port, access_log=False, log_level="warning"
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()

"""The driver: the protocol's ops through `handle`, natively."""

from __future__ import annotations

import json
from typing import Any

from cove_guest import driver
from cove_guest.capture import BoundedText


def test_memory_and_recursion_errors_in_the_shell_are_not_driver_failures(monkeypatch: Any) -> None:
    class Exploding:
        def __init__(self, exc: BaseException) -> None:
            self.exc = exc

        def run_into(self, src: str, out: Any, err: Any, *, stop_at_time_limit: bool) -> int:
            out.write(b"before ")
            raise self.exc

    monkeypatch.setattr(driver, "_started", True)
    for exc in (MemoryError(), RecursionError("deep"), ZeroDivisionError("x")):
        monkeypatch.setattr(driver, "_shell", Exploding(exc))
        resp = json.loads(driver.handle(json.dumps({"op": "bash", "command": "x"}).encode()))
        assert "error" not in resp
        assert resp["return_code"] != 0
        assert type(exc).__name__ in resp["stderr"]
        assert resp["stdout"] == "before "


def handle(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(driver.handle(json.dumps(request).encode()))


def test_every_op_round_trips_natively(tmp_path: Any, monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(driver, "_started", True)
    monkeypatch.setattr(driver, "_shell", None)
    assert handle({"op": "exec", "code": "print(6 * 7)"})["stdout"] == "42\n"
    assert handle({"op": "exec", "code": "1/0"})["exc_type"] == "ZeroDivisionError"
    assert handle({"op": "bash", "command": "echo hi | wc -c"})["stdout"] == "3\n"
    assert handle({"op": "edit", "command": "view", "path": "/outside"})["return_code"] == 1
    assert handle({"op": "ping"}) == {"ok": True}
    assert handle({"op": "nope"}) == {"error": "unknown op 'nope'"}


def test_output_is_bounded(monkeypatch: Any) -> None:
    monkeypatch.setattr(driver, "_started", True)
    resp = handle({"op": "exec", "code": "print('x' * 100)", "max_output_bytes": 10})
    assert (resp["stdout_dropped"], resp["stdout"][:10]) == (91, "x" * 10)


def test_bash_output_is_bounded_while_it_is_written(tmp_path: Any, monkeypatch: Any) -> None:
    # The shell writes into the bounded streams as it runs, and seq writes in chunks: of its
    # ~6.9 MB, 100 bytes are kept and the rest counted, and no write holds the whole of it.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(driver, "_started", True)
    monkeypatch.setattr(driver, "_shell", None)
    kept = []
    real = BoundedText.write_bytes

    def write_bytes(self: BoundedText, data: bytes) -> None:
        kept.append(len(data))
        real(self, data)

    monkeypatch.setattr(BoundedText, "write_bytes", write_bytes)
    command = "seq 1 1000000; echo done >&2"
    resp = handle({"op": "bash", "command": command, "max_output_bytes": 100})
    total = sum(len(str(n)) + 1 for n in range(1, 1_000_001))
    assert resp["stdout"].startswith("1\n2\n3\n")
    assert (resp["stdout_dropped"], resp["stderr"], resp["return_code"]) == (
        total - 100,
        "done\n",
        0,
    )
    assert sum(kept) == total + len("done\n")
    assert max(kept) < 64 << 10

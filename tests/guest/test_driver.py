"""The driver: the protocol's ops through `handle`, natively."""

from __future__ import annotations

import json
from typing import Any

from cove_guest import driver


def test_memory_and_recursion_errors_in_the_shell_are_not_driver_failures(monkeypatch: Any) -> None:
    class Exploding:
        def __init__(self, exc: BaseException) -> None:
            self.exc = exc

        def run(self, src: str, *, stop_at_time_limit: bool = False) -> Any:
            raise self.exc

    monkeypatch.setattr(driver, "_started", True)
    for exc in (MemoryError(), RecursionError("deep"), ZeroDivisionError("x")):
        monkeypatch.setattr(driver, "_shell", Exploding(exc))
        resp = json.loads(driver.handle(json.dumps({"op": "bash", "command": "x"}).encode()))
        assert "error" not in resp
        assert resp["return_code"] != 0
        assert type(exc).__name__ in resp["stderr"]


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

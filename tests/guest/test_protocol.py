"""The host↔guest protocol round-trips: every request the host's half (cove._protocol) encodes
is handled by the guest's half (cove_guest.driver, natively), and every answer decodes into the
host's bounded GuestResponse."""

from __future__ import annotations

import base64
import os
from collections.abc import Iterator
from typing import Any

import pytest

from cove import _protocol as host
from cove_guest import driver
from cove_guest import protocol as guest_protocol


@pytest.fixture
def guest(tmp_path: Any, monkeypatch: Any) -> Iterator[Any]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(driver, "_started", True)
    monkeypatch.setattr(driver, "_shell", None)
    # The script op replaces the process's environment, as it does a fresh interpreter's:
    # put the test process's back (later tests run programs by PATH).
    environ = dict(os.environ)
    yield driver
    os.environ.clear()
    os.environ.update(environ)


def round_trip(request: host.GuestRequest) -> host.GuestResponse:
    return host.decode_response(driver.handle(host.encode(request)))


def test_every_guest_request_round_trips(guest: Any, tmp_path: Any) -> None:
    assert round_trip(host.ExecRequest(code="print(6 * 7)")).stdout == "42\n"
    failed = round_trip(host.ExecRequest(code="1/0"))
    assert (failed.return_code, failed.exc_type) == (1, "ZeroDivisionError")
    assert round_trip(host.BashRequest(command="echo hi | wc -c")).stdout == "3\n"
    refused = round_trip(host.EditRequest(command="view", path="/outside", view_range=[1, 2]))
    assert refused.return_code == 1 and "outside the workspace" in refused.stderr
    ran = round_trip(
        host.PythonRequest(
            argv=["-c", "import os, sys; print(os.environ['K'], sys.stdin.read())"],
            cwd=str(tmp_path),
            env={"K": "v"},
            stdin_b64=base64.b64encode(b"in").decode(),
        )
    )
    assert ran.stdout == "v in\n", ran.stderr
    assert driver.handle(host.encode(host.PingRequest())) == b'{"ok": true}'


def test_a_warm_up_runs_the_exec_path_and_leaves_no_trace(guest: Any) -> None:
    """A spare's first request: nothing model code can see changes (the cell count, the
    namespace, linecache, the streams)."""
    import linecache
    import sys

    cells = driver._cells  # pyright: ignore[reportPrivateUsage]
    count, names = cells.count, set(cells.namespace)
    streams = sys.stdout, sys.stderr
    assert driver.handle(host.encode(host.WarmUpRequest())) == b'{"ok": true}'
    assert (cells.count, set(cells.namespace)) == (count, names)
    assert (sys.stdout, sys.stderr) == streams
    assert not any(name.startswith("<warm-up") for name in linecache.cache)
    failed = round_trip(host.ExecRequest(code="1/0"))
    assert f'"<cell-{count + 1}>"' in failed.stderr, failed.stderr


def test_reseed_gives_fresh_randomness(guest: Any) -> None:
    import random

    random.seed(0)
    seeded = random.random()
    random.seed(0)
    assert driver.handle(host.encode(host.ReseedRequest())) == b'{"ok": true}'
    assert random.random() != seeded


def test_close_files_flushes_and_closes_what_model_code_left_open(
    guest: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    # Natively the process holds files of its own (pytest's): the walk is limited to the
    # objects this test's code makes, as in the guest it sees only the session's.
    made: list[Any] = []
    monkeypatch.setattr(driver, "_get_objects", lambda: list(made))
    ran = round_trip(
        host.ExecRequest(
            code="w = open('w.txt', 'w'); w.write('buffered')\n"
            "b = open('b.bin', 'wb', buffering=1 << 16); b.write(b'bytes')\n"
            "r = open('w.txt')\n"
        )
    )
    assert ran.return_code == 0, ran.stderr
    namespace = driver._cells.namespace
    made.extend(
        [
            namespace["w"],
            namespace["w"].buffer,
            namespace["b"],
            namespace["r"],
            namespace["r"].buffer,
        ]
    )
    answer = host.decode_closed_files(driver.handle(host.encode(host.CloseFilesRequest())))
    assert answer.closed == 3
    assert (tmp_path / "w.txt").read_text() == "buffered"
    assert (tmp_path / "b.bin").read_bytes() == b"bytes"
    assert all(namespace[name].closed for name in ("w", "b", "r"))


def test_close_files_runs_no_method_model_code_wrote(
    guest: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    # Hardening round 3, row 8: persisting a session called overridden close() methods.
    made: list[Any] = []
    monkeypatch.setattr(driver, "_get_objects", lambda: list(made))
    ran = round_trip(
        host.ExecRequest(
            code="import io\ncalls = []\n"
            "class Mine(io.FileIO):\n    def close(self):\n        calls.append('close')\n"
            "class Text(io.TextIOWrapper):\n    def flush(self):\n        calls.append('flush')\n"
            "m = Mine('m.bin', 'w')\n"
            "t = Text(open('t.bin', 'wb'))\n"
            "plain = open('p.txt', 'w'); plain.write('kept')\n"
        )
    )
    assert ran.return_code == 0, ran.stderr
    ns = driver._cells.namespace
    made.extend([ns["m"], ns["t"], ns["t"].buffer, ns["plain"], ns["plain"].buffer])
    answer = host.decode_closed_files(driver.handle(host.encode(host.CloseFilesRequest())))
    assert ns["calls"] == []
    assert answer.closed == 2  # the plain file, and the buffer under the model's wrapper
    assert (tmp_path / "p.txt").read_text() == "kept"
    assert not ns["m"].closed


def test_output_bound_travels_with_the_request(guest: Any) -> None:
    bounded = round_trip(host.ExecRequest(code="print('x' * 100)", max_output_bytes=10))
    assert bounded.stdout_dropped == 91


def test_driver_failures_decode_as_errors(guest: Any) -> None:
    assert host.decode_response(driver.handle(b'{"op": "nope"}')).error == "unknown op 'nope'"
    assert host.decode_response(driver.handle(b"not json")).error is not None


def test_op_names_agree() -> None:
    host_ops = {
        cls.__struct_config__.tag
        for cls in (
            host.ExecRequest,
            host.EditRequest,
            host.BashRequest,
            host.PythonRequest,
            host.PingRequest,
            host.WarmUpRequest,
            host.ReseedRequest,
            host.CloseFilesRequest,
        )
    }
    assert host_ops == set(driver.OPS)
    assert {guest_protocol.EXEC, guest_protocol.EDIT, guest_protocol.BASH} <= host_ops


def test_the_shells_python_request_decodes_on_the_host() -> None:
    data = guest_protocol.python_request(["-c", "pass"], "/workspace/sub", {"A": "1"}, b"x")
    request = host.decode_host_request(data)
    assert request == host.RunPythonRequest(
        argv=["-c", "pass"], cwd="/workspace/sub", env={"A": "1"}, stdin_b64="eA=="
    )
    echo = host.decode_host_request(b'{"op": "echo", "data": [1]}')
    assert isinstance(echo, host.EchoRequest) and bytes(echo.data) == b"[1]"

"""The host half of the protocol (`cove._protocol`) holds what both sides must agree on: the
wasm boundary matches the interpreter's module, the shared defaults agree, the wire stays as
the (compiled) guest reads it."""

from __future__ import annotations

import ast
import pathlib

import msgspec
import pytest
import wasmtime

import cove
from cove import _protocol as protocol

GUEST_PROTOCOL = (
    pathlib.Path(__file__).resolve().parents[2]
    / "python-wasm"
    / "guest"
    / "cove_guest"
    / "protocol.py"
)


def _guest_constant(name: str) -> object:
    for node in ast.parse(GUEST_PROTOCOL.read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return eval(compile(ast.Expression(node.value), str(GUEST_PROTOCOL), "eval"))
    raise AssertionError(f"{name} not found in {GUEST_PROTOCOL}")


def test_one_default_output_bound() -> None:
    assert cove.Limits().max_output_bytes == protocol.DEFAULT_MAX_OUTPUT_BYTES
    assert _guest_constant("DEFAULT_MAX_OUTPUT") == protocol.DEFAULT_MAX_OUTPUT_BYTES
    assert protocol.ExecRequest(code="").max_output_bytes == protocol.DEFAULT_MAX_OUTPUT_BYTES


def test_the_program_a_guest_asks_for_is_the_program_it_is_given() -> None:
    def fields(cls: type[msgspec.Struct]) -> dict[str, object]:
        info = msgspec.inspect.type_info(cls)
        assert isinstance(info, msgspec.inspect.StructType)
        return {f.name: (f.type, f.default, f.default_factory) for f in info.fields}

    given = fields(protocol.PythonRequest)
    del given["max_output_bytes"]
    assert given == fields(protocol.RunPythonRequest)


def test_the_wire_is_what_the_guest_reads() -> None:
    # The guest is a compiled artifact: these bytes are what its driver was built against.
    python = protocol.PythonRequest(argv=["-c", "1"], env={"A": "b"}, max_output_bytes=5)
    assert protocol.encode(python) == (
        b'{"op":"script","max_output_bytes":5,"argv":["-c","1"],"env":{"A":"b"}}'
    )
    assert protocol.encode(protocol.ExecRequest(code="x")) == b'{"op":"exec","code":"x"}'
    assert protocol.encode(protocol.WarmUpRequest()) == b'{"op":"warm_up"}'


@pytest.mark.anyio
async def test_the_boundary_matches_the_interpreter(pool: cove.Pool) -> None:
    module = pool.engine.module

    def signature(t: wasmtime.FuncType) -> protocol.Signature:
        results = [str(r) for r in t.results]
        return tuple(str(p) for p in t.params), results[0] if results else None

    exports = {
        e.name: signature(e.type) for e in module.exports if isinstance(e.type, wasmtime.FuncType)
    }
    for name, declared in {**protocol.EXPORTS, **protocol.OPTIONAL_EXPORTS}.items():
        assert exports.get(name) == declared, name
    imports = {
        (i.module, i.name): signature(i.type)
        for i in module.imports
        if i.module == "cove" and isinstance(i.type, wasmtime.FuncType)
    }
    assert imports == protocol.IMPORTS

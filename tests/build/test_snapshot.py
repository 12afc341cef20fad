"""python-wasm/snapshot.py, the pre-initialiser of build.sh's step `snapshot`, on small modules
written in WAT: what the init function leaves is what a fresh instance of the output starts
with, exception handling included, and every refusal is one line."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import subprocess
import sys
from types import ModuleType

import pytest
import wasmtime

from cove._engine import _config  # the engine configuration sessions run under

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "python-wasm/snapshot.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cove_build_snapshot", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while defining a class
    spec.loader.exec_module(module)
    return module


snap = _load()


def _wasm(wat: str) -> bytes:
    return bytes(wasmtime.wat2wasm(wat))


def _sections(wasm: bytes) -> list[tuple[int, bytes]]:
    """The module's (section id, payload) pairs."""

    def uleb(i: int) -> tuple[int, int]:
        result = shift = 0
        while True:
            b = wasm[i]
            i += 1
            result |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return result, i

    out, i = [], 8
    while i < len(wasm):
        size, start = uleb(i + 1)
        out.append((wasm[i], wasm[start : start + size]))
        i = start + size
    return out


def _data_segment_count(wasm: bytes) -> int:
    payloads = [p for sid, p in _sections(wasm) if sid == 11]
    return payloads[0][0] if payloads else 0  # counts here stay below 128: one LEB byte


class _Instance:
    """A module instantiated the way a session instantiates the interpreter: Cove's engine
    configuration (epoch interruption, fuel, copy-on-write memory), WASI, imports that trap."""

    def __init__(self, wasm: bytes, preopens: list[tuple[str, str]] | None = None) -> None:
        config, _ = _config(consume_fuel=True)
        engine = wasmtime.Engine(config)
        module = wasmtime.Module(engine, wasm)
        self.store = wasmtime.Store(engine)
        self.store.set_fuel(10_000_000)
        self.store.set_epoch_deadline(1_000)
        wasi = wasmtime.WasiConfig()
        for guest, host in preopens or []:
            wasi.preopen_dir(host, guest)
        self.store.set_wasi(wasi)
        linker = wasmtime.Linker(engine)
        linker.define_wasi()
        linker.define_unknown_imports_as_traps(module)
        self.exports = linker.instantiate(self.store, module).exports(self.store)
        self.names = [e.name for e in module.exports]

    def call(self, name: str) -> object:
        func = self.exports[name]
        assert isinstance(func, wasmtime.Func)
        return func(self.store)

    def memory(self) -> bytes:
        memory = self.exports["memory"]
        assert isinstance(memory, wasmtime.Memory)
        return bytes(memory.read(self.store, 0, memory.data_len(self.store)))


STATE = """
(module
  (memory (export "memory") 1 16)
  (global $i32 (mut i32) (i32.const 0))
  (global $i64 (mut i64) (i64.const 0))
  (global $f32 (mut f32) (f32.const 0))
  (global $f64 (mut f64) (f64.const 0))
  (global $fixed i32 (i32.const 1234))
  (func (export "init")
    (memory.fill (i32.const 1000) (i32.const 0xab) (i32.const 300))
    (i32.store (i32.const 1310) (i32.const 0x01020304))  ;; 10 zero bytes after the fill
    (i32.store (i32.const 1318) (i32.const 0x05060708))  ;; 4 zero bytes after that
    (drop (memory.grow (i32.const 2)))
    (i64.store (i32.const 150000) (i64.const -1))
    (global.set $i32 (i32.const -7))
    (global.set $i64 (i64.const 0x7fffffffffffffff))
    (global.set $f32 (f32.const 1.25))
    (global.set $f64 (f64.const -2.5e300)))
  (func (export "i32") (result i32) (global.get $i32))
  (func (export "i64") (result i64) (global.get $i64))
  (func (export "f32") (result f32) (global.get $f32))
  (func (export "f64") (result f64) (global.get $f64))
  (func (export "fixed") (result i32) (global.get $fixed))
  (data (i32.const 16) "from the data section"))
"""


def test_memory_the_init_function_wrote_is_in_the_snapshot() -> None:
    out = snap.snapshot(_wasm(STATE), init_func="init")
    memory = _Instance(out).memory()
    assert len(memory) == 3 * 65536  # grown from 1 page: the new minimum
    assert memory[16:37] == b"from the data section"
    assert memory[1000:1300] == b"\xab" * 300
    assert memory[1310:1322] == bytes.fromhex("04030201 00000000 08070605")
    assert memory[150000:150008] == b"\xff" * 8
    # what a direct run of the init function leaves, byte for byte
    direct = _Instance(_wasm(STATE))
    direct.call("init")
    assert memory == direct.memory()


def test_zero_runs_are_dropped_and_near_runs_merged() -> None:
    out = snap.snapshot(_wasm(STATE), init_func="init")
    # the data section's string; the fill and the two stores (gaps of 10, then 4: merged);
    # the i64 at 150000
    assert _data_segment_count(out) == 4


def test_an_all_zero_memory_gets_no_data_section() -> None:
    wat = '(module (memory (export "memory") 2) (data (i32.const 8) "\\00\\00") (func (export "init")))'
    out = snap.snapshot(_wasm(wat), init_func="init")
    assert 11 in [sid for sid, _ in _sections(_wasm(wat))]
    assert 11 not in [sid for sid, _ in _sections(out)]
    assert _Instance(out).memory() == bytes(2 * 65536)


def test_mutable_and_immutable_globals_are_captured() -> None:
    instance = _Instance(snap.snapshot(_wasm(STATE), init_func="init"))
    assert instance.call("i32") == -7
    assert instance.call("i64") == 0x7FFFFFFFFFFFFFFF
    assert instance.call("f32") == 1.25
    assert instance.call("f64") == -2.5e300
    assert instance.call("fixed") == 1234


def test_the_memory_maximum_is_kept() -> None:
    out = snap.snapshot(_wasm(STATE), init_func="init")
    config, _ = _config(consume_fuel=False)
    module = wasmtime.Module(wasmtime.Engine(config), out)
    (memory,) = [e.type for e in module.exports if isinstance(e.type, wasmtime.MemoryType)]
    assert (memory.limits.min, memory.limits.max) == (3, 16)


REACTOR = """
(module
  (memory (export "memory") 1)
  (global $ctors (mut i32) (i32.const 0))
  (global $starts (mut i32) (i32.const 0))
  (func $start (global.set $starts (i32.add (global.get $starts) (i32.const 1))))
  (start $start)
  (func (export "_initialize") (global.set $ctors (i32.add (global.get $ctors) (i32.const 1))))
  (func (export "init")
    ;; as Wizer: the reactor's constructors have run before the init function
    (if (i32.ne (global.get $ctors) (i32.const 1)) (then unreachable))
    (i32.store (i32.const 8) (i32.const 99)))
  (func (export "ctors") (result i32) (global.get $ctors))
  (func (export "starts") (result i32) (global.get $starts)))
"""


def test_initialize_runs_first_and_init_exports_and_start_are_removed() -> None:
    out = snap.snapshot(_wasm(REACTOR), init_func="init")
    instance = _Instance(out)
    assert instance.names == ["memory", "ctors", "starts"]
    assert instance.call("ctors") == 1
    assert instance.call("starts") == 1  # ran once, while snapshotting; not again
    assert 8 not in [sid for sid, _ in _sections(out)]
    assert instance.memory()[8] == 99


def test_keep_init_func_keeps_its_export_only() -> None:
    out = snap.snapshot(_wasm(REACTOR), init_func="init", keep_init_func=True)
    assert _Instance(out).names == ["memory", "init", "ctors", "starts"]


def test_initialize_as_the_init_function_runs_once() -> None:
    out = snap.snapshot(_wasm(REACTOR), init_func="_initialize")
    instance = _Instance(out)
    assert instance.call("ctors") == 1
    assert "_initialize" not in instance.names


def test_custom_sections_pass_through_in_place() -> None:
    wasm = _wasm(REACTOR)
    custom = [p for sid, p in _sections(wasm) if sid == 0]
    assert custom  # wat2wasm writes a `name` section for the $names
    assert [p for sid, p in _sections(snap.snapshot(wasm, init_func="init")) if sid == 0] == custom


EXCEPTIONS = """
(module
  (tag $oops (param i32))
  (memory (export "memory") 1)
  (global $caught (mut i32) (i32.const 0))
  (func $throw (param i32) (throw $oops (local.get 0)))
  (func $catch (param i32) (result i32)
    (block $handler (result i32)
      (try_table (result i32) (catch $oops $handler)
        (call $throw (local.get 0))
        (i32.const -1))))
  (func (export "init")
    (global.set $caught (call $catch (i32.const 41)))
    (i32.store (i32.const 64) (call $catch (i32.const 1000))))
  ;; after the snapshot, a throw and catch again, on top of what init caught
  (func (export "run") (result i32)
    (i32.add (i32.add (global.get $caught) (i32.load (i32.const 64)))
             (call $catch (i32.const 1)))))
"""


def test_a_module_with_exception_handling_is_snapshotted_and_runs() -> None:
    wasm = _wasm(EXCEPTIONS)
    out = snap.snapshot(wasm, init_func="init")
    assert _Instance(out).call("run") == 41 + 1000 + 1
    assert _Instance(out).call("run") == 1042  # a second fresh instance: the same state
    code = [p for sid, p in _sections(wasm) if sid == 10]
    assert [p for sid, p in _sections(out) if sid == 10] == code  # byte for byte
    assert [p for sid, p in _sections(out) if sid == 13] == [
        p for sid, p in _sections(wasm) if sid == 13
    ]


PREOPENS = """
(module
  (import "wasi_snapshot_preview1" "fd_prestat_get"
    (func $prestat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_dir_name"
    (func $prestat_dir_name (param i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; the guest path of fds 3, 4 and 5, at 64 * fd
  (func (export "init") (local $fd i32)
    (local.set $fd (i32.const 3))
    (loop $next
      (if (call $prestat_get (local.get $fd) (i32.const 0)) (then unreachable))
      (drop (call $prestat_dir_name
        (local.get $fd) (i32.mul (local.get $fd) (i32.const 64)) (i32.load (i32.const 4))))
      (local.set $fd (i32.add (local.get $fd) (i32.const 1)))
      (br_if $next (i32.le_u (local.get $fd) (i32.const 5))))
    (i64.store (i32.const 0) (i64.const 0))))
"""


def test_preopens_follow_the_order_of_mapdir(tmp_path: pathlib.Path) -> None:
    dirs = [("/usr/lib", tmp_path), ("/workspace", tmp_path), ("/tmp", tmp_path)]
    mapdirs = [(guest, str(host)) for guest, host in dirs]
    memory = _Instance(snap.snapshot(_wasm(PREOPENS), init_func="init", mapdirs=mapdirs)).memory()
    assert memory[192:200] == b"/usr/lib"
    assert memory[256:266] == b"/workspace"
    assert memory[320:324] == b"/tmp"
    reordered = [mapdirs[2], mapdirs[0], mapdirs[1]]
    memory = _Instance(snap.snapshot(_wasm(PREOPENS), init_func="init", mapdirs=reordered)).memory()
    assert memory[192:196] == b"/tmp"


HELLO = """
(module
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "hello from init\\n")
  (func (export "init")
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 16))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
"""


def _cli(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, check=False
    )


@pytest.mark.parametrize(("flag", "printed"), [((), ""), (("--inherit-stdio",), "hello")])
def test_stdio_is_the_guests_only_with_inherit_stdio(
    tmp_path: pathlib.Path, flag: tuple[str, ...], printed: str
) -> None:
    (tmp_path / "in.wasm").write_bytes(_wasm(HELLO))
    done = _cli(*flag, "--init-func", "init", "-o", "out.wasm", "in.wasm", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (f"{printed} from init\n" if printed else "")


def test_the_same_input_gives_the_same_bytes(tmp_path: pathlib.Path) -> None:
    # much scattered memory, capped to a few segments: the merge order must not vary
    wat = """
    (module
      (memory (export "memory") 4)
      (func (export "init") (local $i i32)
        (loop $next
          (i32.store8 (i32.mul (local.get $i) (i32.const 37))
                      (i32.add (i32.rem_u (local.get $i) (i32.const 7)) (i32.const 1)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $next (i32.lt_u (local.get $i) (i32.const 5000))))))
    """
    (tmp_path / "in.wasm").write_bytes(_wasm(wat))
    outs = []
    for name in ("a.wasm", "b.wasm"):
        args = ("--init-func", "init", "--max-segments", "50", "-o", name, "in.wasm")
        assert _cli(*args, cwd=tmp_path).returncode == 0
        outs.append((tmp_path / name).read_bytes())
    assert outs[0] == outs[1]
    assert _data_segment_count(outs[0]) == 50
    direct = _Instance(_wasm(wat))
    direct.call("init")
    assert _Instance(outs[0]).memory() == direct.memory()


def test_over_the_cap_the_smallest_gaps_are_merged_first() -> None:
    # runs at 0, 10, 30, 31+8, 100: gaps of 9, 19, 7 (merged: ties and small gaps first), 60
    memory = bytearray(128)
    for offset in (0, 10, 30, 39, 100):
        memory[offset] = 1
    assert snap.data_segments(bytes(memory)) == [(0, 1), (10, 11), (30, 31), (39, 40), (100, 101)]
    assert snap.data_segments(bytes(memory), 3) == [(0, 11), (30, 40), (100, 101)]
    assert snap.data_segments(bytes(memory), 1) == [(0, 101)]
    # equal gaps: the lower-addressed merge first
    assert snap.data_segments(b"\x01" + b"\0" * 5 + b"\x01" + b"\0" * 5 + b"\x01", 2) == [
        (0, 7),
        (12, 13),
    ]
    assert snap.data_segments(b"\0" * 100) == []


ERRORS = [
    ('(module (memory 1) (func (export "init")))', "nope", "does not export a function 'nope'"),
    (
        '(module (memory 1) (func (export "init") unreachable))',
        "init",
        "the function 'init' trapped: wasm trap: wasm `unreachable` instruction executed",
    ),
    ('(module (func (export "init")))', "init", "the module defines no memory"),
    (
        '(module (memory 1) (func (export "init") (param i32)))',
        "init",
        "'init' does not have type [] -> []",
    ),
    (
        '(module (memory 1) (global (export "init") i32 (i32.const 0)))',
        "init",
        "does not export a function 'init'",
    ),
    (
        '(module (import "env" "m" (memory 1)) (func (export "init")))',
        "init",
        "the module imports a memory (env.m)",
    ),
    (
        '(module (import "cove" "host_call" (func $h)) (memory 1)'
        ' (func (export "init") (call $h)))',
        "init",
        "the function 'init' trapped",
    ),
    (
        '(module (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))'
        ' (memory (export "memory") 1) (func (export "init") (call $exit (i32.const 3))))',
        "init",
        "the function 'init' trapped: it called proc_exit(3)",
    ),
    (
        "(module (memory 1) (table $t 1 funcref)"
        ' (func (export "init") (drop (table.grow $t (ref.null func) (i32.const 1)))))',
        "init",
        "changed a table's size",
    ),
    (
        '(module (memory 1) (data "passive") (func (export "init")))',
        "init",
        "data segment 0 is passive",
    ),
    (
        '(module (memory 1) (tag $e) (func (export "init") (throw $e)))',
        "init",
        "the function 'init' trapped",
    ),
]


@pytest.mark.parametrize(("wat", "init_func", "message"), ERRORS)
def test_a_module_that_cannot_be_snapshotted_fails_with_one_line(
    tmp_path: pathlib.Path,
    capsys: pytest.CaptureFixture[str],
    wat: str,
    init_func: str,
    message: str,
) -> None:
    (tmp_path / "in.wasm").write_bytes(_wasm(wat))
    out = tmp_path / "out.wasm"
    assert snap.main(["--init-func", init_func, "-o", str(out), str(tmp_path / "in.wasm")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("snapshot.py: error: ") and err.count("\n") == 1
    assert message in err
    assert not out.exists()
    assert os.listdir(tmp_path) == ["in.wasm"]  # no partial output left behind


def test_the_command_exits_non_zero_on_a_file_that_is_not_wasm(tmp_path: pathlib.Path) -> None:
    (tmp_path / "in.wasm").write_bytes(b"\0asm\x0d\0\x01\0")  # a component, not a core module
    done = _cli("--init-func", "init", "-o", "out.wasm", "in.wasm", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "snapshot.py: error: not a WebAssembly core module (bad magic number or version)"
    ]


def test_a_mapdir_that_is_not_a_directory_is_refused(tmp_path: pathlib.Path) -> None:
    (tmp_path / "in.wasm").write_bytes(_wasm(PREOPENS))
    done = _cli(
        "--init-func",
        "init",
        "--mapdir",
        "/usr/lib::missing",
        "-o",
        "out.wasm",
        "in.wasm",
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "snapshot.py: error: --mapdir /usr/lib::missing: no such directory"
    ]

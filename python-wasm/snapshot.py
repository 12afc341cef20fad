"""Pre-initialise a WebAssembly reactor on wasmtime-py: run its init function once, and write a
module that starts in the state the init function left (what Wizer does, for build.sh's step
`snapshot`).

Why not Wizer: Wizer 10 and 11 (npm) refuse any module that uses WebAssembly exception
handling, which C++ exceptions and setjmp/longjmp compile to. This tool never decodes a
function body: the type, import, function, table, tag, element and code sections and every
custom section are copied byte for byte, so whatever wasmtime runs (exnref included) passes.

What Wizer 10.0.0 does (src/lib.rs, snapshot.rs, rewrite.rs at its tag v10.0.0), all matched:

- Instantiates the module with WASI (no argv, no environment; `--mapdir` directories preopened
  in the order given, so they are fds 3, 4, 5 ...) and every other imported function defined as
  a stub that traps if called. The start function runs at instantiation.
- Calls the export `_initialize` first if there is one (a reactor's constructors), then the
  init function, unless the init function is `_initialize` itself. Both must be `[] -> []`.
  (Cove's cove_init calls `_initialize()` again: under Wizer the constructors run twice, and so
  they do here.)
- Captures every defined global (immutable ones too) and writes each as a constant of its
  value; captures the memory's size as its new minimum (the maximum and flags unchanged).
- Writes memory as active data segments of its non-zero bytes: maximal runs of non-zero bytes,
  two runs merged when at most 4 zero bytes lie between them (a segment's own overhead); if
  that gives 10,000 segments or more, the runs separated by the smallest gaps are merged until
  exactly 10,000 remain. The original data segments are dropped (memory holds them); the
  data-count section, if any, is rewritten to the new count; the data section stays where it
  was (or is added after the code section).
- Removes the init function's export (unless `--keep-init-func`) and `_initialize`'s (if it
  was called), and the start section (it has run). Keeps every other section, custom sections
  (`name` included) in place. Section sizes and rewritten entries use minimal LEB128s.
- Refuses imported memories, tables and globals (host state a snapshot cannot hold).

Where this differs from Wizer 10:

- Any instruction wasmtime accepts passes; Wizer validates against its own feature set and
  also refuses code that uses table or reference instructions (`table.set`, `ref.func`, ...).
  Tables are not snapshotted by either: here the init function changing a table's size is an
  error; changing an entry is not detected.
- Exactly one memory (Wizer: any number). Passive data segments are refused (Wizer drops them).
- Over the segment cap, among gaps of equal size the lower-addressed are merged first (Wizer's
  order among them is that of an unstable sort). Either way the memory image is the same.
- Immutable globals of non-numeric type (references, v128) keep their original initialiser;
  a mutable one is refused (Wizer panics on a reference; wasmtime-py cannot read a v128).
- The WASI host is wasmtime-py's (wasmtime 50) rather than Wizer 10's (wasmtime 36). On Cove's
  reactor the snapshots' memories differ in two 8-byte words only, in dead shadow-stack space
  below the stack pointer: a directory's fdstat rights, where wasmtime 50 no longer grants
  `path_filestat_set_size`. Globals and every live byte are the same.
- Standard input, output and error are not inherited unless `--inherit-stdio` (Wizer's default:
  they are). As under Wizer, the WASI clock and random source are the host's: a deterministic
  snapshot is the guest's business (Cove's reactor fixes both while snapshotting,
  guest/c/cove_snapshot.c).

One file, over the usual length, because build.sh runs it as a script with only wasmtime-py
installed; its three parts follow in order: reading the binary, running the init function,
writing the snapshot.

Usage: snapshot.py --init-func NAME [--mapdir GUEST::HOST ...] [--inherit-stdio [true|false]]
                   [--keep-init-func [true|false]] -o OUT IN
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import os
import pathlib
import re
import struct
import sys
import tempfile
from array import array
from collections.abc import Sequence

import wasmtime

__all__ = ["MAX_DATA_SEGMENTS", "SnapshotError", "data_segments", "main", "snapshot"]

MAX_DATA_SEGMENTS = 10_000
"""Wizer's cap on the number of data segments written (engines limit it; wasmtime: 100,000)."""

PAGE_BYTES = 65_536

# Section ids (WebAssembly core spec, 5.5.2).
_IMPORT = 2
_TABLE = 4
_MEMORY = 5
_GLOBAL = 6
_EXPORT = 7
_START = 8
_CODE = 10
_DATA = 11
_DATA_COUNT = 12
_EXTERN_FUNC, _EXTERN_TABLE, _EXTERN_MEMORY, _EXTERN_GLOBAL, _EXTERN_TAG = 0, 1, 2, 3, 4
_I32, _I64, _F32, _F64 = 0x7F, 0x7E, 0x7D, 0x7C
_SCALARS = (_I32, _I64, _F32, _F64)

# Names of the exports added to the instance that runs the init function.
_PREFIX = "__cove_snapshot_"

# A run of non-zero bytes, with the runs after it that are at most 4 zero bytes away: Wizer's
# segments before the cap (4 bytes is the least an extra active segment costs).
_RUN = re.compile(rb"[^\x00]+(?:\x00{1,4}[^\x00]+)*")


class SnapshotError(Exception):
    """The module cannot be snapshotted; the message is one line saying why."""


class _Reader:
    """Reads the module's binary encoding from a position (every read bounds-checked)."""

    def __init__(self, data: bytes | memoryview, pos: int = 0) -> None:
        self.data = data
        self.pos = pos

    def byte(self) -> int:
        value = self.data[self.pos]
        self.pos += 1
        return value

    def _leb(self) -> tuple[int, int, int]:
        """A LEB128 number's bits, their count, and its last byte (whose 0x40 is the sign)."""
        result = shift = 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                return result, shift, b

    def uleb(self) -> int:
        return self._leb()[0]

    def sleb(self) -> int:
        result, shift, last = self._leb()
        return result - (1 << shift) if last & 0x40 else result

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise IndexError("read past the end")
        chunk = bytes(self.data[self.pos : self.pos + n])
        self.pos += n
        return chunk

    def name(self) -> str:
        return self.take(self.uleb()).decode("utf-8")

    def valtype(self) -> bytes:
        start = self.pos
        if self.byte() in (0x63, 0x64):  # (ref null? heaptype): a heap type follows
            self.sleb()
        return bytes(self.data[start : self.pos])

    def limits(self) -> tuple[int, int, int | None]:
        """(flags, minimum, maximum or None)."""
        flags = self.byte()
        minimum = self.uleb()
        maximum = self.uleb() if flags & 1 else None
        if flags & 8:  # custom-page-sizes: the page size's log2 follows
            self.uleb()
        return flags, minimum, maximum

    def const_expr(self) -> bytes:
        """A constant expression, through its `end`, as it is encoded."""
        start = self.pos
        while True:
            op = self.byte()
            if op == 0x0B:
                return bytes(self.data[start : self.pos])
            if op in (0x41, 0x42, 0xD0):  # i32.const, i64.const, ref.null (a heap type)
                self.sleb()
            elif op in (0x23, 0xD2):  # global.get, ref.func
                self.uleb()
            elif op == 0x43:
                self.take(4)
            elif op == 0x44:
                self.take(8)
            elif op == 0xFD and self.uleb() == 12:  # v128.const
                self.take(16)
            elif op not in (0x6A, 0x6B, 0x6C, 0x7C, 0x7D, 0x7E):  # extended-const arithmetic
                raise SnapshotError(f"unsupported instruction 0x{op:02x} in a constant expression")


def _uleb(n: int) -> bytes:
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _sleb(n: int) -> bytes:
    out = bytearray()
    while True:
        b, n = n & 0x7F, n >> 7
        if (n == 0 and not b & 0x40) or (n == -1 and b & 0x40):
            out.append(b)
            return bytes(out)
        out.append(b | 0x80)


def _vec(items: Sequence[bytes]) -> bytes:
    return _uleb(len(items)) + b"".join(items)


_Piece = bytes | memoryview


def _section(section_id: int, *payload: _Piece) -> list[_Piece]:
    """A section's bytes, as pieces (joined once, at the end: the sections are large)."""
    return [bytes([section_id]) + _uleb(sum(len(p) for p in payload)), *payload]


def _i32(value: int) -> int:
    return (value + (1 << 31)) % (1 << 32) - (1 << 31)


def _i64(value: int) -> int:
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


@dataclasses.dataclass(frozen=True, slots=True)
class _Section:
    id: int
    payload: memoryview


@dataclasses.dataclass(frozen=True, slots=True)
class _Global:
    valtype: bytes
    mutable: bool
    init: bytes

    @property
    def scalar(self) -> bool:
        return len(self.valtype) == 1 and self.valtype[0] in _SCALARS


@dataclasses.dataclass(frozen=True, slots=True)
class _Export:
    name: str
    kind: int
    index: int

    def encode(self) -> bytes:
        name = self.name.encode("utf-8")
        return _uleb(len(name)) + name + bytes([self.kind]) + _uleb(self.index)


@dataclasses.dataclass(slots=True)
class _Module:
    """The sections of a module, and what the snapshot needs from the few it rewrites."""

    header: bytes
    sections: list[_Section]
    globals: list[_Global] = dataclasses.field(default_factory=list[_Global])
    exports: list[_Export] = dataclasses.field(default_factory=list[_Export])
    tables: int = 0
    memory: tuple[int, int, int | None] | None = None  # (flags, minimum, maximum)

    @classmethod
    def parse(cls, wasm: bytes) -> _Module:
        if wasm[:8] != b"\0asm\x01\0\0\0":
            raise SnapshotError("not a WebAssembly core module (bad magic number or version)")
        view = memoryview(wasm)
        module = cls(header=wasm[:8], sections=[])
        try:
            reader = _Reader(view, 8)
            while reader.pos < len(view):
                section_id = reader.byte()
                size = reader.uleb()
                if reader.pos + size > len(view):
                    raise IndexError("section past the end")
                module.sections.append(_Section(section_id, view[reader.pos : reader.pos + size]))
                reader.pos += size
            for section in module.sections:
                module._read(section)
        except (IndexError, UnicodeDecodeError) as exc:
            raise SnapshotError(f"malformed module: {exc}") from exc
        if module.memory is None:
            raise SnapshotError("the module defines no memory: there is nothing to snapshot")
        return module

    def _read(self, section: _Section) -> None:
        reader = _Reader(section.payload)
        if section.id == _IMPORT:
            for _ in range(reader.uleb()):
                where = f"{reader.name()}.{reader.name()}"
                kind = reader.byte()
                if kind in (_EXTERN_TABLE, _EXTERN_MEMORY, _EXTERN_GLOBAL):
                    what = {_EXTERN_TABLE: "table", _EXTERN_MEMORY: "memory"}.get(kind, "global")
                    raise SnapshotError(
                        f"the module imports a {what} ({where}): imported state cannot be "
                        "snapshotted"
                    )
                if kind == _EXTERN_TAG:
                    reader.byte()
                reader.uleb()  # a function's or tag's type index
        elif section.id == _TABLE:
            self.tables = reader.uleb()
        elif section.id == _MEMORY:
            count = reader.uleb()
            if count != 1:
                raise SnapshotError(f"the module defines {count} memories, not exactly one")
            flags, minimum, maximum = reader.limits()
            if flags & ~1:
                raise SnapshotError("shared, 64-bit or custom-page-size memories are not supported")
            self.memory = (flags, minimum, maximum)
        elif section.id == _GLOBAL:
            for index in range(reader.uleb()):
                valtype = reader.valtype()
                mutable = reader.byte() == 1
                g = _Global(valtype, mutable, reader.const_expr())
                if mutable and not g.scalar:
                    raise SnapshotError(
                        f"global {index} is mutable and of type 0x{valtype.hex()}: only i32, "
                        "i64, f32 and f64 globals can be snapshotted"
                    )
                self.globals.append(g)
        elif section.id == _EXPORT:
            for _ in range(reader.uleb()):
                e = _Export(reader.name(), reader.byte(), reader.uleb())
                if e.name.startswith(_PREFIX):
                    raise SnapshotError(f"the module already exports a name {e.name!r}")
                self.exports.append(e)
        elif section.id == _DATA:
            for index in range(reader.uleb()):
                flags = reader.uleb()
                if flags == 1:
                    raise SnapshotError(
                        f"data segment {index} is passive: passive segments are not supported"
                    )
                if flags == 2:
                    reader.uleb()
                reader.const_expr()
                reader.take(reader.uleb())

    def instrumented(self) -> bytes:
        """The module with its memory, tables and scalar globals exported for reading."""
        extra = [_Export(f"{_PREFIX}memory", _EXTERN_MEMORY, 0)]
        extra += [_Export(f"{_PREFIX}table{i}", _EXTERN_TABLE, i) for i in range(self.tables)]
        extra += [
            _Export(f"{_PREFIX}global{i}", _EXTERN_GLOBAL, i)
            for i, g in enumerate(self.globals)
            if g.scalar
        ]
        if not any(s.id == _EXPORT for s in self.sections):
            raise SnapshotError("the module has no exports")
        pieces: list[_Piece] = [self.header]
        for section in self.sections:
            if section.id == _EXPORT:
                exports = [e.encode() for e in [*self.exports, *extra]]
                pieces += _section(_EXPORT, _vec(exports))
            else:
                pieces += _section(section.id, section.payload)
        return b"".join(pieces)


@dataclasses.dataclass(frozen=True, slots=True)
class _State:
    """What the init function left: each scalar global's value (None for the others), the
    memory's bytes, and whether `_initialize` was called."""

    globals: list[int | float | None]
    memory: bytes
    called_initialize: bool


def _failure(exc: Exception) -> str:
    """One line for a trap or an error from wasmtime: its innermost cause (the last line of
    the message, after the backtrace), and for a trap the function it happened in."""
    if isinstance(exc, wasmtime.ExitTrap):
        return f"it called proc_exit({exc.code})"
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    cause = lines[-1] if lines else type(exc).__name__
    if isinstance(exc, wasmtime.Trap) and (frames := exc.frames):
        where = frames[0].func_name or f"wasm function {frames[0].func_index}"
        cause += f" (in {where})"
    return cause


def _nullary(module: wasmtime.Module, name: str) -> bool | None:
    """Whether the export `name` is a `[] -> []` function; None if it is not a function (or
    not exported)."""
    for export in module.exports:
        if export.name == name and isinstance(export.type, wasmtime.FuncType):
            return not export.type.params and not export.type.results
    return None


def _run_init(
    module: _Module,
    init_func: str,
    mapdirs: Sequence[tuple[str, str]],
    inherit_stdio: bool,
) -> _State:
    # What can be checked before compiling (a minute, for a large module) is checked first.
    if not any(e.name == init_func and e.kind == _EXTERN_FUNC for e in module.exports):
        raise SnapshotError(f"the module does not export a function {init_func!r}")
    wasi = wasmtime.WasiConfig()
    if inherit_stdio:
        wasi.inherit_stdin()
        wasi.inherit_stdout()
        wasi.inherit_stderr()
    for guest, host in mapdirs:
        if not os.path.isdir(host):
            raise SnapshotError(f"--mapdir {guest}::{host}: no such directory")
        wasi.preopen_dir(host, guest)

    engine = wasmtime.Engine(wasmtime.Config())
    store = wasmtime.Store(engine)
    try:
        return _call_init(engine, store, wasi, module, init_func)
    finally:
        store.close()
        engine.close()


def _call_init(
    engine: wasmtime.Engine,
    store: wasmtime.Store,
    wasi: wasmtime.WasiConfig,
    module: _Module,
    init_func: str,
) -> _State:
    try:
        compiled = wasmtime.Module(engine, module.instrumented())
    except wasmtime.WasmtimeError as exc:
        raise SnapshotError(f"wasmtime refuses the module: {_failure(exc)}") from exc
    # As Wizer: a reactor's `_initialize` (its constructors) is called first, if exported.
    has_initialize = _nullary(compiled, "_initialize")
    for name, nullary in (
        (init_func, _nullary(compiled, init_func)),
        ("_initialize", has_initialize),
    ):
        if nullary is False:
            raise SnapshotError(f"the module's function {name!r} does not have type [] -> []")
    store.set_wasi(wasi)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    linker.define_unknown_imports_as_traps(compiled)

    step = "instantiating the module failed"
    try:
        exports = linker.instantiate(store, compiled).exports(store)
        tables = [exports[f"{_PREFIX}table{i}"] for i in range(module.tables)]
        sizes = [t.size(store) for t in tables if isinstance(t, wasmtime.Table)]
        calls = ["_initialize"] if has_initialize else []
        calls += [init_func] if init_func != "_initialize" else []
        for name in calls:
            step = f"the function {name!r} trapped"
            func = exports[name]
            assert isinstance(func, wasmtime.Func)
            func(store)
    except (wasmtime.Trap, wasmtime.WasmtimeError) as exc:
        raise SnapshotError(f"{step}: {_failure(exc)}") from exc
    if sizes != [t.size(store) for t in tables if isinstance(t, wasmtime.Table)]:
        raise SnapshotError("the init function changed a table's size: tables are not snapshotted")

    values: list[int | float | None] = []
    for i, g in enumerate(module.globals):
        item = exports[f"{_PREFIX}global{i}"] if g.scalar else None
        values.append(item.value(store) if isinstance(item, wasmtime.Global) else None)
    memory = exports[f"{_PREFIX}memory"]
    assert isinstance(memory, wasmtime.Memory)
    size = memory.size(store) * PAGE_BYTES
    data = ctypes.string_at(ctypes.cast(memory.data_ptr(store), ctypes.c_void_p), size)
    return _State(values, data, bool(has_initialize))


def data_segments(memory: bytes, max_segments: int = MAX_DATA_SEGMENTS) -> list[tuple[int, int]]:
    """The (start, end) offsets of the data segments Wizer writes for `memory`: its non-zero
    runs, merged across gaps of at most 4 zero bytes, then across the smallest gaps (the
    lower-addressed first among equal ones) until at most `max_segments` remain."""
    if max_segments < 1:
        raise ValueError("max_segments must be at least 1")
    starts, ends = array("Q"), array("Q")
    for match in _RUN.finditer(memory):
        start, end = match.span()
        starts.append(start)
        ends.append(end)
    if len(starts) <= max_segments:
        return list(zip(starts, ends, strict=True))
    # Keep the max_segments - 1 largest gaps (of equal ones, the higher-addressed): merging
    # the others is merging the smallest first.
    gaps = array("Q", (starts[i + 1] - ends[i] for i in range(len(starts) - 1)))
    keep = max_segments - 1
    kept: list[int] = []
    if keep:
        threshold = sorted(gaps)[-keep]
        above = sum(1 for gap in gaps if gap > threshold)
        equal = [i for i, gap in enumerate(gaps) if gap == threshold]
        kept = sorted([i for i, gap in enumerate(gaps) if gap > threshold] + equal[above - keep :])
    segments: list[tuple[int, int]] = []
    start = starts[0]
    for i in kept:
        segments.append((start, ends[i]))
        start = starts[i + 1]
    segments.append((start, ends[-1]))
    return segments


def _const(valtype: int, value: int | float) -> bytes:
    if valtype == _I32:
        return b"\x41" + _sleb(_i32(int(value))) + b"\x0b"
    if valtype == _I64:
        return b"\x42" + _sleb(_i64(int(value))) + b"\x0b"
    if valtype == _F32:
        return b"\x43" + struct.pack("<f", value) + b"\x0b"
    return b"\x44" + struct.pack("<d", value) + b"\x0b"


def _rewrite(
    module: _Module,
    state: _State,
    segments: Sequence[tuple[int, int]],
    removed: set[str],
) -> bytes:
    memory = memoryview(state.memory)
    data: list[_Piece] = [_uleb(len(segments))]
    for start, end in segments:
        data += [b"\x00\x41" + _sleb(_i32(start)) + b"\x0b" + _uleb(end - start), memory[start:end]]
    assert module.memory is not None
    flags, _, maximum = module.memory
    limits = bytes([flags]) + _uleb(len(state.memory) // PAGE_BYTES)
    if maximum is not None:
        limits += _uleb(maximum)

    out: list[_Piece] = [module.header]
    data_written = False
    for section in module.sections:
        sid = section.id
        if sid == _MEMORY:
            out += _section(sid, _vec([limits]))
        elif sid == _GLOBAL:
            entries: list[bytes] = []
            for g, value in zip(module.globals, state.globals, strict=True):
                init = g.init if value is None else _const(g.valtype[0], value)
                entries.append(g.valtype + bytes([g.mutable]) + init)
            out += _section(sid, _vec(entries))
        elif sid == _EXPORT:
            out += _section(
                sid, _vec([e.encode() for e in module.exports if e.name not in removed])
            )
        elif sid == _START:
            continue  # it has run
        elif sid == _DATA_COUNT:
            out += _section(sid, _uleb(len(segments)))
        elif sid == _DATA:
            if segments:  # as Wizer: no data section for an all-zero memory
                out += _section(sid, *data)
            data_written = True
        else:
            out += _section(sid, section.payload)
        if sid == _CODE and segments and not any(s.id == _DATA for s in module.sections):
            out += _section(_DATA, *data)
            data_written = True
    if segments and not data_written:  # no code section: only custom sections may follow
        out += _section(_DATA, *data)
    return b"".join(out)


def snapshot(
    wasm: bytes,
    *,
    init_func: str,
    mapdirs: Sequence[tuple[str, str]] = (),
    inherit_stdio: bool = False,
    keep_init_func: bool = False,
    max_segments: int = MAX_DATA_SEGMENTS,
) -> bytes:
    """Run `init_func` in an instance of `wasm` and return a module that starts in its state.

    `mapdirs`: (guest path, host directory) pairs, preopened in this order (fds 3, 4, ...).
    Blocking (seconds to a minute for a large module: compiling it dominates).

    Raises:
        SnapshotError: the module cannot be snapshotted, or the init function trapped.
    """
    module = _Module.parse(wasm)
    state = _run_init(module, init_func, mapdirs, inherit_stdio)
    segments = data_segments(state.memory, max_segments)
    removed = set[str]() if keep_init_func else {init_func}
    if state.called_initialize:
        removed.add("_initialize")
    return _rewrite(module, state, segments, removed)


def _mapdir(text: str) -> tuple[str, str]:
    guest, sep, host = text.partition("::")
    if not sep or not guest or not host or "::" in host:
        raise argparse.ArgumentTypeError(f"{text!r}: expected GUEST::HOST")
    return guest, host


def _boolean(text: str) -> bool:
    if text not in ("true", "false"):
        raise argparse.ArgumentTypeError(f"{text!r}: expected true or false")
    return text == "true"


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a positive integer")
    return int(text)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="snapshot.py",
        description="Pre-initialise a WebAssembly module (Wizer's job, on wasmtime-py).",
    )
    parser.add_argument("input", type=pathlib.Path, help="the module to initialise")
    parser.add_argument("-o", "--output", type=pathlib.Path, required=True)
    parser.add_argument("-f", "--init-func", required=True, help="the export to call ([] -> [])")
    parser.add_argument(
        "--mapdir",
        type=_mapdir,
        action="append",
        default=[],
        metavar="GUEST::HOST",
        help="preopen HOST as GUEST; repeatable, preopened in order (fd 3, 4, ...)",
    )
    for flag, what in (
        ("--inherit-stdio", "give the module this process's stdin, stdout and stderr"),
        ("--keep-init-func", "keep the init function's export"),
    ):
        parser.add_argument(flag, type=_boolean, nargs="?", const=True, default=False, help=what)
    parser.add_argument(
        "--max-segments",
        type=_positive,
        default=MAX_DATA_SEGMENTS,
        help=f"the most data segments to write (default: {MAX_DATA_SEGMENTS}, as Wizer)",
    )
    return parser


def _write(path: pathlib.Path, data: bytes) -> None:
    """Write beside `path` and rename: a failed run leaves no partial module."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".snapshot-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        wasm = args.input.read_bytes()
        out = snapshot(
            wasm,
            init_func=args.init_func,
            mapdirs=args.mapdir,
            inherit_stdio=args.inherit_stdio,
            keep_init_func=args.keep_init_func,
            max_segments=args.max_segments,
        )
        _write(args.output, out)
    except (SnapshotError, OSError) as exc:
        print(f"snapshot.py: error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""python-wasm/check_link.py: the generated table of extension modules, the duplicate-symbol
check of the reactor's link (build.sh step `reactor`) and its thread-local data check, on small
inputs."""

from __future__ import annotations

import importlib.util
import os
import pathlib
import shutil
import subprocess
from types import ModuleType

import pytest
import wasmtime

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _check_link() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_link", ROOT / "python-wasm/check_link.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_registers_every_module_by_its_dotted_name(tmp_path: pathlib.Path) -> None:
    tsv = tmp_path / "modules.tsv"
    tsv.write_text(
        "numpy._core._multiarray_umath\tPyInit_numpy__core__multiarray_umath\t/a.a\n"
        "pandas._libs.lib\tPyInit_pandas__libs_lib\t/b.a\n"
    )
    table = _check_link().inittab(tsv)
    assert "extern PyObject *PyInit_pandas__libs_lib(void);" in table
    assert (
        '{"numpy._core._multiarray_umath", cove_init_PyInit_numpy__core__multiarray_umath},'
        in table
    )
    assert table.endswith("    {NULL, NULL},\n};\n")


def test_each_module_is_initialised_with_its_package_context(tmp_path: pathlib.Path) -> None:
    # a single-phase module created as "_path" gets the dotted name, as a shared library would
    tsv = tmp_path / "modules.tsv"
    tsv.write_text("matplotlib._path\tPyInit_src__path\t/a.a\n")
    table = _check_link().inittab(tsv)
    wrapper = table.split("static PyObject *cove_init_PyInit_src__path(void)")[1].split("}")[0]
    assert '_Py_PackageContext = "matplotlib._path";' in wrapper
    assert "PyObject *module = PyInit_src__path();" in wrapper
    assert wrapper.index("PyInit_src__path()") < wrapper.index("_Py_PackageContext = saved;")


def test_a_module_listed_twice_fails_the_build(tmp_path: pathlib.Path) -> None:
    tsv = tmp_path / "modules.tsv"
    tsv.write_text("a.b\tPyInit_a_b\t/a.a\na.b\tPyInit_a_b2\t/b.a\n")
    with pytest.raises(SystemExit, match="listed twice"):
        _check_link().inittab(tsv)


CLANG = shutil.which("clang-19")
AR = shutil.which("llvm-ar-19")
NM = shutil.which("llvm-nm-19")


def _archive(tmp: pathlib.Path, name: str, source: str) -> str:
    assert CLANG and AR
    (tmp / f"{name}.c").write_text(source)
    obj = tmp / f"{name}.o"
    subprocess.run(
        [CLANG, "--target=wasm32-wasi", "-c", "-O2", str(tmp / f"{name}.c"), "-o", str(obj)],
        check=True,
    )
    # the same member name in both archives, as meson's per-module builds give
    member = tmp / name / "common.o"
    member.parent.mkdir()
    shutil.copy(obj, member)
    subprocess.run([AR, "rcD", str(tmp / f"{name}.a"), str(member)], check=True)
    return str(tmp / f"{name}.a")


@pytest.mark.skipif(not (CLANG and AR and NM), reason="the wasm toolchain (build.sh toolchain)")
def test_a_symbol_two_modules_define_differently_fails_and_an_identical_one_passes(
    tmp_path: pathlib.Path,
) -> None:
    check = _check_link()
    same_a = _archive(tmp_path, "same_a", "int helper(int x) { return x + 1; }\n")
    same_b = _archive(tmp_path, "same_b", "int helper(int x) { return x + 1; }\n")
    other = _archive(tmp_path, "other", "int helper(int x) { return x * 2; }\n")
    assert check.duplicates(NM, AR, [same_a, same_b, "-lm"]) == []
    problems = check.duplicates(NM, AR, [same_a, other])
    assert len(problems) == 1 and problems[0].startswith("helper: defined differently in")


@pytest.mark.skipif(not (CLANG and AR and NM), reason="the wasm toolchain (build.sh toolchain)")
def test_a_weak_c_symbol_in_two_archives_fails_unless_shared_by_design(
    tmp_path: pathlib.Path,
) -> None:
    # an `extern "C"` inline function, as scikit-learn's newrand.h bounded_rand_int: weak, so
    # the link would keep one copy for every module, each of which read its own generator
    check = _check_link()
    weak = "__attribute__((weak)) int bounded(int x) { return x + 1; }\n"
    a = _archive(tmp_path, "weak_a", weak)
    b = _archive(tmp_path, "weak_b", weak.replace("x + 1", "x + 2"))
    problems = check.duplicates(NM, AR, [a, b])
    assert len(problems) == 1 and problems[0].startswith("bounded: a weak C symbol in")
    shared = "__attribute__((weak)) int pybind11_entry(int x) { return x; }\n"
    c = _archive(tmp_path, "shared_a", shared)
    d = _archive(tmp_path, "shared_b", shared)
    assert check.duplicates(NM, AR, [c, d]) == []


THREAD_LOCAL = """
_Thread_local int counter = 5;
int bump(void) { return ++counter; }
int main(void) { return bump(); }
"""


def _thread_local_program(tmp: pathlib.Path, compiler: list[str], name: str) -> pathlib.Path:
    """THREAD_LOCAL compiled with -pthread by `compiler` and linked, as the reactor is, without
    shared memory."""
    assert CLANG
    (tmp / "t.c").write_text(THREAD_LOCAL)
    env = {"WASI_SYSROOT": "/usr", "WASI_LLVM": str(pathlib.Path(CLANG).resolve().parent)}
    obj = tmp / f"{name}.o"
    subprocess.run(
        [*compiler, "-pthread", "-O1", "-c", str(tmp / "t.c"), "-o", str(obj)],
        check=True,
        env={**os.environ, **env},
    )
    wasm = tmp / f"{name}.wasm"
    subprocess.run(
        [CLANG, "--target=wasm32-wasi", "--sysroot=/usr", str(obj), "-o", str(wasm)], check=True
    )
    return wasm


def _exit_code(wasm: pathlib.Path) -> int | str:
    engine = wasmtime.Engine()
    store = wasmtime.Store(engine)
    store.set_wasi(wasmtime.WasiConfig())
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    start = linker.instantiate(store, wasmtime.Module.from_file(engine, str(wasm)))
    func = start.exports(store)["_start"]
    assert isinstance(func, wasmtime.Func)
    try:
        func(store)
    except wasmtime.ExitTrap as e:
        return e.code
    except wasmtime.Trap:
        return "trap"
    return 0


@pytest.mark.skipif(
    not (CLANG and pathlib.Path("/usr/lib/wasm32-wasi/crt1.o").is_file()),
    reason="clang-19 and Debian's wasi-libc (build.sh toolchain)",
)
def test_thread_local_data_from_a_pthread_object_is_refused_and_wasi_cc_leaves_none(
    tmp_path: pathlib.Path,
) -> None:
    # wasm-ld 19 puts a -pthread object's thread_local at __tls_base plus its absolute address
    # when memory is not shared (llvm-project#116136): HiGHS's scheduler pointer, in scipy.
    assert CLANG
    check = _check_link()
    raw = _thread_local_program(tmp_path, [CLANG, "--target=wasm32-wasi", "--sysroot=/usr"], "raw")
    problems = check.tls_problems(raw.read_bytes())
    assert len(problems) == 1 and "thread-local data segment .tdata" in problems[0]
    assert _exit_code(raw) != 6  # what the check is for: the counter is read from elsewhere
    wrapped = _thread_local_program(tmp_path, [str(ROOT / "python-wasm/cross/wasi-cc")], "wrapped")
    assert check.tls_problems(wrapped.read_bytes()) == []
    assert _exit_code(wrapped) == 6  # counter read from where it was written: 5, bumped

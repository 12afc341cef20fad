"""The guest's C++ runtime (python-wasm/cross/toolchain.py `_cxxrt`): libc++ with threads over
Cove's thread support for one thread (cross/sysroot/threading/__external_threading) and with
<fstream>, each behaviour that header promises checked by running a program in wasmtime under
the engine configuration sessions run with.

It needs the build's work directory (build.sh's `extensions` step made its sysroot there) and
binaryen's wasm-opt (build.sh's `toolchain` step): $COVE_WASM_BUILD, /work/wasm-build by
default. Without them it is skipped."""

from __future__ import annotations

import os
import pathlib
import subprocess

import pytest
import wasmtime

from cove._engine import _config  # the engine configuration sessions run under

BUILD = pathlib.Path(os.environ.get("COVE_WASM_BUILD", "/work/wasm-build"))
SYSROOT = BUILD / "cross" / "sysroot"
CLANG = pathlib.Path("/usr/lib/llvm-19/bin/clang++")
WASM_OPT = BUILD / "binaryen" / "node_modules" / "binaryen" / "bin" / "wasm-opt"
HEADER = SYSROOT / "include" / "wasm32-wasi" / "c++" / "v1" / "__external_threading"

pytestmark = pytest.mark.skipif(
    not (HEADER.is_file() and CLANG.is_file() and WASM_OPT.is_file()),
    reason="the build's sysroot with its C++ runtime, clang-19 and wasm-opt ($COVE_WASM_BUILD)",
)

PROGRAM = r"""
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <future>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

static std::mutex m;

int main(int argc, char** argv) {
  setvbuf(stdout, nullptr, _IONBF, 0);
  const char* what = argc > 1 ? argv[1] : "";
  if (!strcmp(what, "lock")) {
    { std::lock_guard<std::mutex> g(m); }
    std::recursive_mutex rm;
    rm.lock(); rm.lock(); rm.unlock(); rm.unlock();
    printf("try %d\n", (int)m.try_lock());
    printf("try again %d\n", (int)m.try_lock());
    try { m.lock(); } catch (const std::system_error& e) { printf("relock %d\n", e.code().value()); }
    m.unlock();
    std::once_flag f; int n = 0;
    std::call_once(f, [&] { n++; }); std::call_once(f, [&] { n++; });
    printf("once %d\n", n);
  } else if (!strcmp(what, "thread")) {
    bool ran = false;
    try { std::thread t([&] { ran = true; }); t.join(); printf("started\n"); }
    catch (const std::system_error& e) { printf("refused %d ran %d\n", e.code().value(), (int)ran); }
    printf("hardware %u\n", std::thread::hardware_concurrency());
    printf("same id %d\n", (int)(std::this_thread::get_id() == std::this_thread::get_id()));
    printf("not null %d\n", (int)(std::this_thread::get_id() != std::thread::id()));
    auto deferred = std::async(std::launch::deferred, [] { return 7; });
    printf("deferred %d\n", deferred.get());
  } else if (!strcmp(what, "time")) {
    std::unique_lock<std::mutex> lk(m);
    std::condition_variable cv;
    auto start = std::chrono::steady_clock::now();
    bool timeout = cv.wait_for(lk, std::chrono::milliseconds(20)) == std::cv_status::timeout;
    auto waited = std::chrono::steady_clock::now() - start;
    printf("timeout %d waited %d\n", (int)timeout, (int)(waited >= std::chrono::milliseconds(20)));
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::this_thread::yield();
  } else if (!strcmp(what, "files")) {
    { std::ofstream o("x.txt"); o << "hello " << 42 << "\n"; }
    std::ifstream i("x.txt"); std::string a; int b = 0; i >> a >> b;
    printf("read %s %d\n", a.c_str(), b);
    std::ifstream missing("no-such-file");
    printf("missing open %d\n", (int)missing.is_open());
  } else if (!strcmp(what, "tls")) {
    // a thread_local object with a destructor: registered through __cxa_thread_atexit
    thread_local std::string s = "thread";
    s += "_local";
    printf("%s\n", s.c_str());
  } else if (!strcmp(what, "wait")) {
    std::unique_lock<std::mutex> lk(m);
    std::condition_variable cv;
    printf("waiting\n");
    cv.wait(lk);  // nobody can notify: std::terminate, not a hang
    printf("woke\n");
  }
  return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> tuple[wasmtime.Engine, wasmtime.Module]:
    tmp = tmp_path_factory.mktemp("cxxrt")
    (tmp / "t.cpp").write_text(PROGRAM)
    subprocess.run(
        [
            str(CLANG),
            "--target=wasm32-wasi",
            f"--sysroot={SYSROOT}",
            "-fwasm-exceptions",
            "-O1",
            "t.cpp",
            "-o",
            "t.wasm",
            "-lc++",
            "-lc++abi",
            "-lunwind",
        ],
        cwd=tmp,
        check=True,
    )
    # As build.sh's reactor step: clang 19's legacy exception instructions as wasmtime's.
    subprocess.run(
        [
            str(WASM_OPT),
            "--enable-exception-handling",
            "--translate-to-exnref",
            "t.wasm",
            "-o",
            "t.exnref.wasm",
        ],
        cwd=tmp,
        check=True,
    )
    config, _ = _config(consume_fuel=False)
    engine = wasmtime.Engine(config)
    return engine, wasmtime.Module.from_file(engine, str(tmp / "t.exnref.wasm"))


def _run(
    program: tuple[wasmtime.Engine, wasmtime.Module], what: str, cwd: pathlib.Path
) -> tuple[str, str]:
    """(its stdout, "exit N" or "trap")."""
    engine, module = program
    store = wasmtime.Store(engine)
    store.set_epoch_deadline(1 << 40)
    wasi = wasmtime.WasiConfig()
    wasi.argv = ["t", what]
    wasi.stdout_file = str(cwd / "stdout")
    wasi.preopen_dir(str(cwd), "/")
    store.set_wasi(wasi)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    instance = linker.instantiate(store, module)
    start = instance.exports(store)["_start"]
    assert isinstance(start, wasmtime.Func)
    try:
        start(store)
        end = "exit 0"
    except wasmtime.ExitTrap as e:
        end = f"exit {e.code}"
    except wasmtime.Trap:
        end = "trap"
    return (cwd / "stdout").read_text(), end


EDEADLK, EAGAIN = 16, 6  # wasi-libc's errno values (WASI's)


def test_a_mutex_locks_and_relocking_it_raises_instead_of_hanging(
    program: tuple[wasmtime.Engine, wasmtime.Module], tmp_path: pathlib.Path
) -> None:
    out, end = _run(program, "lock", tmp_path)
    assert out == f"try 1\ntry again 0\nrelock {EDEADLK}\nonce 1\n"
    assert end == "exit 0"


def test_a_thread_cannot_start_and_says_so(
    program: tuple[wasmtime.Engine, wasmtime.Module], tmp_path: pathlib.Path
) -> None:
    out, end = _run(program, "thread", tmp_path)
    assert out == (f"refused {EAGAIN} ran 0\nhardware 1\nsame id 1\nnot null 1\ndeferred 7\n")
    assert end == "exit 0"


def test_a_timed_wait_times_out_after_its_time(
    program: tuple[wasmtime.Engine, wasmtime.Module], tmp_path: pathlib.Path
) -> None:
    out, end = _run(program, "time", tmp_path)
    assert out == "timeout 1 waited 1\n"
    assert end == "exit 0"


def test_fstream_writes_and_reads_files(
    program: tuple[wasmtime.Engine, wasmtime.Module], tmp_path: pathlib.Path
) -> None:
    out, end = _run(program, "files", tmp_path)
    assert out == "read hello 42\nmissing open 0\n"
    assert (tmp_path / "x.txt").read_text() == "hello 42\n"
    assert end == "exit 0"


def test_a_wait_nobody_can_end_terminates_at_once(
    program: tuple[wasmtime.Engine, wasmtime.Module], tmp_path: pathlib.Path
) -> None:
    out, end = _run(program, "wait", tmp_path)
    assert out == "waiting\n"
    assert end == "trap"


def test_a_thread_local_object_with_a_destructor_links_and_works(
    program: tuple[wasmtime.Engine, wasmtime.Module], tmp_path: pathlib.Path
) -> None:
    out, end = _run(program, "tls", tmp_path)
    assert out == "thread_local\n"
    assert end == "exit 0"

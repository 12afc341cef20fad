"""Runs the instrumented interpreter on the training workload (python-wasm/build.sh step `pgo`).

    python run.py PYTHON_WASM LIB_DIR SYSCONFIG_DIR WORK_DIR

Under wasmtime (wasmtime-py, the version Cove runs), with the CPython sources' Lib/ as the
standard library (/usr/local/lib/python3.11, the build's prefix), the build's _sysconfigdata
and WORK_DIR (/work: the training script train.py is read from there, and the profile
runtime's exit handler writes the raw profile cpython.profraw there). Exits with the
interpreter's status.
"""

import sys

import wasmtime


def main() -> int:
    wasm, lib, sysconfig_dir, work = sys.argv[1:5]
    engine = wasmtime.Engine()
    module = wasmtime.Module.from_file(engine, wasm)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    store = wasmtime.Store(engine)
    wasi = wasmtime.WasiConfig()
    wasi.argv = ["python3", "-B", "/work/train.py"]
    # Only these variables: the paths come from the prefix (/usr/local/lib/python3.11), and a
    # fixed hash seed keeps the profile the same from run to run (str and bytes hashing, and so
    # set and dict layouts, would otherwise change with each run's random seed).
    wasi.env = [("LLVM_PROFILE_FILE", "/work/cpython.profraw"), ("PYTHONHASHSEED", "0")]
    wasi.preopen_dir(lib, "/usr/local/lib/python3.11")
    wasi.preopen_dir(sysconfig_dir, "/usr/local/lib/python3.11/lib-dynload")
    wasi.preopen_dir(work, "/work")
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    store.set_wasi(wasi)
    instance = linker.instantiate(store, module)
    start = instance.exports(store)["_start"]
    assert isinstance(start, wasmtime.Func)
    try:
        start(store)
    except wasmtime.ExitTrap as exc:
        return exc.code
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Run a WASI command module under wasmtime-py (Cove's runtime library), with a compiled-module
cache. Usage: run_wasm.py MODULE.wasm [--map GUEST=HOST ...] [--env K=V ...] -- ARGS..."""

import argparse
import hashlib
import os
import sys
import time

import wasmtime

ap = argparse.ArgumentParser()
ap.add_argument("wasm")
ap.add_argument("--map", action="append", default=[])
ap.add_argument("--env", action="append", default=[])
argv = sys.argv[1:]
rest = []
if "--" in argv:
    i = argv.index("--")
    argv, rest = argv[:i], argv[i + 1 :]
a = ap.parse_args(argv)
a.args = rest

cfg = wasmtime.Config()
engine = wasmtime.Engine(cfg)
with open(a.wasm, "rb") as wasm_file:
    data = wasm_file.read()
h = hashlib.sha256(data).hexdigest()[:16]
cw = f"{a.wasm}.{h}.cwasm"
t0 = time.perf_counter()
if os.path.exists(cw):
    module = wasmtime.Module.deserialize_file(engine, cw)
    how = "loaded .cwasm"
else:
    module = wasmtime.Module(engine, data)
    with open(cw, "wb") as cwasm:
        cwasm.write(module.serialize())
    how = "compiled"
t1 = time.perf_counter()
print(f"[host] module {how} in {t1 - t0:.2f} s ({len(data) / 1e6:.1f} MB wasm)", file=sys.stderr)

store = wasmtime.Store(engine)
wasi = wasmtime.WasiConfig()
wasi.argv = ["python3", *a.args]
# --env K=V, plus every host variable named NP_* (passes values with spaces through shells)
wasi.env = [tuple(e.split("=", 1)) for e in a.env] + [
    (k, v) for k, v in os.environ.items() if k.startswith("NP_")
]
wasi.inherit_stdout()
wasi.inherit_stderr()
for m in a.map:
    g, hpath = m.split("=", 1)
    wasi.preopen_dir(hpath, g)
store.set_wasi(wasi)
linker = wasmtime.Linker(engine)
linker.define_wasi()
inst = linker.instantiate(store, module)
t2 = time.perf_counter()
rc = 0
try:
    inst.exports(store)["_start"](store)
except wasmtime.ExitTrap as e:
    rc = e.code
t3 = time.perf_counter()
mem = inst.exports(store)["memory"]
print(
    f"[host] instantiate {1e3 * (t2 - t1):.1f} ms, run {1e3 * (t3 - t2):.0f} ms, rc={rc}, "
    f"guest memory {mem.data_len(store) / 2**20:.1f} MiB",
    file=sys.stderr,
)
sys.exit(rc)

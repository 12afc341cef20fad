#!/usr/bin/env python3
"""Run the snapshot experiment: instantiate SNAPSHOT.wasm (Wizer output of np_reactor.c) under
wasmtime-py, copy each test script to /tmp/run.py and call np_run(); report times.
Usage: run_reactor.py SNAPSHOT.wasm GUEST_LIB_DIR [SCRIPT ...]"""

import hashlib
import os
import sys
import time

import wasmtime

wasm, lib, scripts = sys.argv[1], sys.argv[2], sys.argv[3:]
tmp = "/tmp/npguest"
engine = wasmtime.Engine()
data = open(wasm, "rb").read()
cw = f"{wasm}.{hashlib.sha256(data).hexdigest()[:16]}.cwasm"
t0 = time.perf_counter()
if os.path.exists(cw):
    module = wasmtime.Module.deserialize_file(engine, cw)
else:
    module = wasmtime.Module(engine, data)
    open(cw, "wb").write(module.serialize())
print(
    f"[host] module ready in {time.perf_counter() - t0:.1f} s; {len(data) / 1e6:.1f} MB wasm",
    file=sys.stderr,
)


def session(code):
    open(os.path.join(tmp, "run.py"), "w").write(code)
    store = wasmtime.Store(engine)
    wasi = wasmtime.WasiConfig()
    wasi.inherit_stdout()
    wasi.inherit_stderr()
    wasi.preopen_dir(lib, "/usr/lib")  # same order as at snapshot time
    wasi.preopen_dir(tmp, "/tmp")
    store.set_wasi(wasi)
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    t1 = time.perf_counter()
    inst = linker.instantiate(store, module)
    t2 = time.perf_counter()
    rc = inst.exports(store)["np_run"](store)
    t3 = time.perf_counter()
    mem = inst.exports(store)["memory"].data_len(store)
    print(
        f"[host] instantiate {1e3 * (t2 - t1):.1f} ms, np_run {1e3 * (t3 - t2):.1f} ms, rc={rc}, memory {mem / 2**20:.1f} MiB",
        file=sys.stderr,
    )


session(
    "import time; t=time.perf_counter(); import numpy as np, pandas as pd; print('import numpy+pandas (pre-imported): %.2f ms' % ((time.perf_counter()-t)*1e3)); print(np.__version__, np.arange(10).sum(), np.linalg.solve([[3,1],[1,2]],[9,8]), np.random.default_rng(0).random(3))"
)
session("import numpy as np; print('legacy RandomState after snapshot:', np.random.rand(2))")
session("import numpy as np; print('legacy RandomState after snapshot:', np.random.rand(2))")
for s in scripts:
    session(open(s).read())

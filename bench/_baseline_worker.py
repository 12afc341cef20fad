"""The baseline's per-session REPL: a native python3 reading length-prefixed JSON requests on
stdin and answering on the original stdout, running code in one persistent namespace."""

import contextlib
import io
import json
import os
import struct
import sys
import traceback

_in = sys.stdin.buffer
_out = os.fdopen(os.dup(1), "wb")
namespace = {"__name__": "__main__"}


def read():
    header = _in.read(4)
    if len(header) < 4:
        return None
    (n,) = struct.unpack("!I", header)
    return json.loads(_in.read(n))


def write(obj):
    data = json.dumps(obj).encode()
    _out.write(struct.pack("!I", len(data)) + data)
    _out.flush()


def run(code):
    out, err = io.StringIO(), io.StringIO()
    rc = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            exec(compile(code, "<cell>", "exec"), namespace)
        except SystemExit as exc:
            rc = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            traceback.print_exc()
            rc = 1
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "return_code": rc}


while (request := read()) is not None:
    write(run(request["code"]))

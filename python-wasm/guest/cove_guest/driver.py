"""Cove's guest-side driver: runs inside the sandboxed interpreter, one per session.

The host calls `handle` (through the reactor's `cove_call` export) with one JSON request and
receives one JSON response. Results travel only on that channel, never through the guest's
stdout. Requests:

    {"op": "exec", "code": str, "max_output_bytes": int}
    {"op": "edit", "command": "view"|"create"|"str_replace"|"insert"|"undo_edit", "path": str,
     "file_text"?, "old_str"?, "new_str"?, "insert_line"?, "view_range"?, "max_output_bytes": int}
    {"op": "bash", "command": str, "max_output_bytes": int}
    {"op": "script", "argv": [str], "stdin_b64": str, "cwd": str, "env": {str: str},
     "max_output_bytes": int}     (a fresh interpreter running `python ARGV...` for the shell)
    {"op": "ping"}
    {"op": "warm_up"}         a spare's first request: the exec path once (a cell counted nowhere,
                              in a namespace of its own), so what a new interpreter does lazily
                              on its first call is done before that call; answers {"ok": true}
    {"op": "reseed"}          fresh randomness (a forked session's first act)
    {"op": "close_files"}     flush and close the files model code left open (before a session
                              is carried across a restart); answers {"closed": n}

Responses carry "stdout", "stderr", "return_code", "stdout_dropped", "stderr_dropped" (bytes
cut from each stream) and "exc_type" (the name of an uncaught exception, or null). The host
finds the files a call changed by scanning the workspace itself.

This module wires the layers together: the shell gets the commands and the host proxy here.
"""

import _random
import base64
import builtins
import gc
import importlib
import io
import linecache
import os
import random
import struct
import sys
import typing
from collections.abc import Callable, Mapping
from io import TextIOBase
from typing import Any

from cove_guest import deadline, extensions, protocol, sandbox
from cove_guest.capture import BoundedText, redirected_streams
from cove_guest.cells import Cells, main_namespace, run_source
from cove_guest.commands import COMMANDS
from cove_guest.commands.pip import pip
from cove_guest.editor import Editor
from cove_guest.host import GuestHost
from cove_guest.python_cli import run_python
from cove_guest.shell import Shell
from cove_guest.shell.builtins import BUILTINS

WORKSPACE = "/workspace"
# A decoded request, and the response `protocol.encode` sends back.
Request = dict[str, Any]
Response = dict[str, Any]

_started = False
_cells = Cells()
_editor = Editor()
_shell: Shell | None = None

# Housekeeping (reseeding a fork, closing files before a restart) calls nothing model code can
# replace: the references are taken here, before any model code runs, and the objects are
# C-level ones (the host bounds the time of each request anyway: guest memory is the model's).
_urandom = os.urandom
_seed_random = _random.Random.seed  # C: reads no module globals, unlike random.Random.seed
_random_instance = random._inst  # the module-level functions' state
_random_state = _random_instance.__dict__
# numpy.random's legacy RandomState.seed, bound in initialise()
_numpy_seed: Callable[[Any], None] | None = None
_module_type = type(os)


def _start() -> None:
    """Per-session setup after restore from the snapshot: fresh randomness."""
    global _started
    _started = True
    _seed_random(_random_instance, int.from_bytes(_urandom(32), "big"))
    _random_state["gauss_next"] = None
    if _numpy_seed is not None:
        # numpy's legacy global RandomState, from 128 fresh bits (`seed()` with no argument
        # draws as many through a SeedSequence, 0.2 ms here instead of 0.03)
        _numpy_seed(struct.unpack("4I", _urandom(16)))
    tempfile = sys.modules.get("tempfile")
    if type(tempfile) is _module_type:
        tempfile.__dict__["_name_sequence"] = None


def _exec(req: Request) -> Response:
    ran, out, err = redirected_streams(
        protocol.max_output(req), lambda o, e: _cells.run(req["code"], o, e)
    )
    return protocol.response(out, err, ran.status, ran.exc_type)


def _edit(req: Request) -> Response:
    rc, out, err = redirected_streams(protocol.max_output(req), lambda o, e: _editor.run(req, o, e))
    return protocol.response(out, err, rc)


def _bash(req: Request) -> Response:
    global _shell
    if _shell is None:
        _shell = Shell(commands=COMMANDS, host=GuestHost())
    limit = protocol.max_output(req)
    # The shell writes into the bounded streams as it runs: past the limit, output is counted,
    # not kept (`seq 1 100000000` is a truncated stream, not the interpreter out of memory).
    out, err = BoundedText(limit), BoundedText(limit)
    try:
        with deadline.armed():
            rc = _shell.run_into(req["command"], out.buffer, err.buffer, stop_at_time_limit=True)
    except BaseException as exc:
        # The shell contains its own failures; this is the last line, so that nothing the shell
        # raises (MemoryError, RecursionError included) becomes a driver failure, which would
        # reset the interpreter. Only a trap does that.
        try:
            message = f"bash: internal error: {type(exc).__name__}: {exc}\n"
        except BaseException:
            message = f"bash: internal error: {type(exc).__name__}\n"
        err.write_bytes(message.encode("utf-8", "replace"))
        rc = 1
    return protocol.response(out, err, rc)


def _script(req: Request) -> Response:
    """`python ARGV...` in this (fresh) interpreter, as the shell's python command."""
    argv = list(req.get("argv", []))
    stdin_data = base64.b64decode(req.get("stdin_b64", ""))
    try:
        os.chdir(req.get("cwd") or WORKSPACE)
    except OSError:
        pass
    os.environ.clear()
    os.environ.update(req.get("env") or {})
    if argv[:2] in (["-m", "pip"], ["-m", "pip3"]):  # no pip module: the shell's command
        rc, out, err = redirected_streams(
            protocol.max_output(req), lambda o, e: pip(_Streams(o, e), argv[2:])
        )
    else:
        rc, out, err = redirected_streams(
            protocol.max_output(req), lambda o, e: run_python(argv, stdin_data, o, e)
        )
    return protocol.response(out, err, rc)


class _Streams:
    """What a command needs of its context to run outside the shell: where to write."""

    def __init__(self, out: TextIOBase, err: TextIOBase) -> None:
        self.out = out
        self.err = err


def _ping(req: Request) -> Response:
    return {"ok": True}


def _warm_up(req: Request) -> Response:
    name = "<warm-up>"
    redirected_streams(
        protocol.max_output(req),
        lambda o, e: run_source("pass", name, main_namespace(), o, e),
    )
    linecache.cache.pop(name, None)
    return {"ok": True}


def _reseed(req: Request) -> Response:
    _start()
    return {"ok": True}


# Closed outermost first, so that buffered data reaches the file before its descriptor goes.
_FILE_LAYERS = (
    io.TextIOWrapper,
    io.BufferedRandom,
    io.BufferedWriter,
    io.BufferedReader,
    io.FileIO,
)
# stdio and the three preopened directories (/, /workspace, /tmp)
_FIRST_MODEL_FD = 6
_get_objects = gc.get_objects
_closers: dict[type, tuple[typing.Any, typing.Any, typing.Any]] = {
    kind: (kind.close, kind.closed.__get__, kind.fileno) for kind in _FILE_LAYERS
}


def _plain_file(obj: Any, kind: type) -> bool:
    """Whether closing `obj` runs only io's own C code: every layer below it is exactly one of
    io's types (not a subclass, whose methods model code wrote)."""
    if kind is io.TextIOWrapper:
        obj = obj.buffer
        if type(obj) not in (io.BufferedRandom, io.BufferedWriter, io.BufferedReader):
            return False
        kind = type(obj)
    if kind is not io.FileIO:
        return type(obj.raw) is io.FileIO
    return True


def _close_files(req: Request) -> Response:
    """Flush and close every file object model code holds open on a descriptor of its own.

    Before a session's memory is carried into a new interpreter (a restart), whose descriptor
    table starts empty: the objects then say "I/O operation on closed file" instead of writing
    to whatever file later gets the same number, and no buffered write is lost. Only objects of
    io's own types are closed, through io's C methods, so no method model code defined runs; a
    descriptor held any other way stays open (and the host then keeps the session live)."""
    layers: list[list[io.IOBase]] = [[] for _ in _FILE_LAYERS]
    ranks: dict[type, int] = {kind: rank for rank, kind in enumerate(_FILE_LAYERS)}
    for obj in _get_objects():
        rank = ranks.get(type(obj))
        if rank is not None:
            layers[rank].append(obj)
    closed = 0
    for kind, layer in zip(_FILE_LAYERS, layers, strict=True):
        close, is_closed, fileno = _closers[kind]
        for obj in layer:
            try:
                if not _plain_file(obj, kind) or is_closed(obj) or fileno(obj) < _FIRST_MODEL_FD:
                    continue
                close(obj)
                closed += 1
            except Exception:
                continue
    return {"closed": closed}


_PROGRAM_DIRS = ("/bin/", "/usr/bin/", "/usr/local/bin/")


def _known_command(name: str) -> bool:
    """Whether `subprocess` can start a program of this name (a utility, a builtin, python, or
    a script file)."""
    base = name.rsplit("/", 1)[-1] if name.startswith(_PROGRAM_DIRS) else name
    return base in COMMANDS or base in BUILTINS or ("/" in name and os.path.isfile(name))


def _run_command(
    command: str, *, cwd: str, env: Mapping[str, str], stdin: bytes
) -> tuple[bytes, bytes, int]:
    """A command line for `subprocess` and friends: a fresh shell (a child process's own
    variables) in `cwd`, with `env` exported; the caller's directory is left as it was."""
    saved = os.getcwd()
    os.chdir(cwd)
    try:
        shell = Shell(commands=COMMANDS, host=GuestHost())
        for name, value in env.items():
            shell.vars[name] = value
            shell.exported.add(name)
        return shell.run(command, stdin)
    finally:
        os.chdir(saved)


OPS: dict[str, Callable[[Request], Response]] = {
    protocol.EXEC: _exec,
    protocol.EDIT: _edit,
    protocol.BASH: _bash,
    protocol.SCRIPT: _script,
    protocol.PING: _ping,
    protocol.WARM_UP: _warm_up,
    protocol.RESEED: _reseed,
    protocol.CLOSE_FILES: _close_files,
}


def handle(request: bytes) -> bytes:
    """Run one request (JSON bytes) and return the JSON response bytes."""
    if not _started:
        _start()
    try:
        req = protocol.decode(request)
        op = req.get("op")
        run = OPS.get(op) if isinstance(op, str) else None
        resp = run(req) if run is not None else protocol.error(f"unknown op {op!r}")
    except MemoryError:
        resp = protocol.error("MemoryError in the driver")
    except BaseException as exc:
        resp = protocol.error(f"driver failure: {type(exc).__name__}: {exc}")
    return protocol.encode(resp)


# The snapshot's warm-up (unrelated to protocol.WARM_UP, a spare's first request).
SNAPSHOT_WARM_UP = """
import io
import numpy as np
import pandas as pd

df = pd.DataFrame({"k": ["a", "b", "a"], "v": [1.0, 2.0, 3.0], "n": [1, 2, 3]})
str(df), str(df.v), str(np.arange(3)), str(np.eye(2))
str(df.groupby("k").agg({"v": "sum", "n": "mean"})), str(df.describe())
str(pd.read_csv(io.StringIO(df.to_csv(index=False)))), df.to_json()
str(pd.merge(df, df, on="k")), str(df.pivot_table(index="k", values="v", aggfunc="sum"))
str(df.v.rolling(2).mean()), str(df.k.str.upper()), str(df.sort_values("v"))
t = pd.Series([1.0, 2.0], index=pd.to_datetime(["2024-01-01", "2024-01-02"]))
str(t.resample("D").sum()), str(pd.date_range("2024-01-01", periods=2, tz="UTC"))
np.linalg.inv(np.eye(2)), np.fft.fft(np.ones(4))

import matplotlib.pyplot as plt

fig, ax = plt.subplots()
ax.plot([1, 2, 3], [2.0, 1.0, 3.0], label="line")
ax.bar(["a", "b"], [1, 2])
ax.set_title("Title")
ax.set_xlabel("x")
ax.legend()
fig.savefig(io.BytesIO(), format="png")
plt.close("all")
"""


class _Quitter:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Use {self.name}() or Ctrl-D (i.e. EOF) to exit"

    def __call__(self, code: object = None) -> None:
        raise SystemExit(code)


def initialise() -> None:
    """Runs once, at snapshot time: warm the imports every session needs, enter the workspace."""
    import _cove  # noqa: F401  (the host channel, warmed into the snapshot)

    os.chdir(WORKSPACE)
    # What `site` gives a Python, which this one runs without: help() (pydoc, imported when
    # first called), exit() and quit() (SystemExit, without closing sys.stdin as site's do).
    builtins.help = importlib.import_module("_sitebuiltins")._Helper()
    builtins.exit = _Quitter("exit")  # type: ignore[assignment]
    builtins.quit = _Quitter("quit")  # type: ignore[assignment]
    deadline.install()
    sys.argv = [""]
    # What `subprocess.run([sys.executable, ...])` starts: the shell's python (a fresh
    # interpreter); see cove_guest.sandbox.
    sys.executable = "/usr/bin/python3"
    sandbox.install(_run_command, _known_command)
    extensions.install()
    # Common in model code (docs/packages.md has the import times): imported into the
    # snapshot, a new session pays nothing for them; numpy and pandas take about a second.
    # lxml.etree and PIL.Image cost a session no measurable memory here; bs4, docx and pptx
    # (0.25-0.4 s each) would cost every session 8 MiB of its memory limit and 5% more PSS, so
    # they stay out (docs/packages.md, "Import time in a new session").
    # (After the sandbox: pandas imports `mmap`, which is the sandbox's stand-in.)
    global _numpy_seed
    # matplotlib's configuration and cache directory: the session's own /tmp. Its font list is
    # built here, once, into the snapshot (docs/packages.md, "matplotlib").
    os.environ["MPLCONFIGDIR"] = "/tmp/matplotlib"
    for module in (
        "dateutil.parser",
        "dateutil.relativedelta",
        "dateutil.tz",
        "pytz",
        "zoneinfo",
        "numpy",
        "pandas",
        "lxml.etree",
        "PIL.Image",
        "matplotlib.pyplot",
    ):
        importlib.import_module(module)
    # matplotlib keeps its answer (get_configdir and get_cachedir are cached): the session's
    # environment stays as empty as before, as natively
    matplotlib = sys.modules["matplotlib"]
    assert matplotlib.get_configdir() == matplotlib.get_cachedir() == "/tmp/matplotlib"
    del os.environ["MPLCONFIGDIR"]
    # `~` is the workspace in Python as in the shell (its HOME, shell/interp.py): without HOME,
    # expanduser has no other way to a home here (no pwd module) and leaves "~" as it is, so a
    # library's directory under it (scikit-learn's ~/scikit_learn_data) became a directory
    # named "~" in the workspace.
    os.environ["HOME"] = WORKSPACE
    # numpy's and pandas' common paths import more of themselves on first use (5 to 20 ms each):
    # run them once here, in a namespace of their own, so that those imports are in the snapshot.
    exec(compile(SNAPSHOT_WARM_UP, "<warm-up>", "exec"), {})
    _numpy_seed = sys.modules["numpy.random"].mtrand._rand.seed
    # The fonts the warm-up drew with stay loaded (matplotlib's font cache): FT2Font reads a
    # font file whole and closes it (recipes/matplotlib/patches/0005), so they hold no
    # descriptor, and a session's first text does not load DejaVu Sans again.
    # Warm the paths every session takes (the first compile and exec, capture, the editor, the
    # shell): their one-time costs land in the snapshot instead of in each session's first call.
    _exec({"code": "pass"})
    _exec({"code": "1/0"})
    _edit({"command": "view", "path": WORKSPACE})
    Shell(commands=COMMANDS).run("echo warm | wc -l > /dev/null")
    _cells.count = 0
    linecache.cache.clear()
    _editor.undo.clear()
    # Deterministic state in the snapshot; every session reseeds from os.urandom on its first call.
    random.seed(0)
    # Everything alive now moves to the GC's permanent generation: collections in a session
    # never walk (and so never copy-on-write) the snapshot's objects.
    gc.collect()
    gc.freeze()
    _check_no_open_files()


def _check_no_open_files() -> None:
    """A file opened while snapshotting and left open would be a descriptor that means nothing
    (or another file) in a session: the build fails instead. fds 0-2 are the standard streams,
    3-5 the preopened directories (Artifact.PREOPENS)."""
    left = []
    for fd in range(6, 256):
        try:
            os.fstat(fd)
        except OSError:
            continue
        left.append(fd)
    if left:
        raise RuntimeError(f"files left open in the snapshot: descriptors {left}")

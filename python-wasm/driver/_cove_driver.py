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

Responses carry "stdout", "stderr", "return_code", "stdout_dropped", "stderr_dropped" (bytes
cut from each stream) and "exc_type" (the name of an uncaught exception, or null). The host
finds the files a call changed by scanning the workspace itself.
"""

import io
import json
import linecache
import os
import random
import sys
import traceback

WORKSPACE = "/workspace"
_DEFAULT_MAX_OUTPUT = 1 << 20

_namespace = {"__name__": "__main__", "__builtins__": __builtins__}
_started = False
_undo = {}
_cells = 0


class _Capture(io.TextIOBase):
    """A text stream keeping the first `limit` UTF-8 bytes written to it and counting the rest."""

    def __init__(self, limit):
        self._parts = []
        self._size = 0
        self._limit = limit
        self.dropped = 0

    @property
    def encoding(self):
        return "utf-8"

    @property
    def errors(self):
        return "surrogateescape"

    def writable(self):
        return True

    def isatty(self):
        return False

    def write(self, s):
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        data = s.encode("utf-8", "surrogateescape")
        room = self._limit - self._size
        if room >= len(data):
            self._parts.append(data)
            self._size += len(data)
        else:
            if room > 0:
                self._parts.append(data[:room])
                self._size += room
            self.dropped += len(data) - max(room, 0)
        return len(s)

    @property
    def buffer(self):
        return _BinaryView(self)

    def getvalue(self):
        text = b"".join(self._parts).decode("utf-8", "replace")
        if self.dropped:
            text += f"\n[output truncated: {self.dropped} more bytes were dropped]\n"
        return text


class _BinaryView(io.RawIOBase):
    """`sys.stdout.buffer` for code that writes bytes."""

    def __init__(self, text):
        self._text = text

    def writable(self):
        return True

    def write(self, b):
        self._text.write(bytes(b).decode("utf-8", "surrogateescape"))
        return len(b)


def _start():
    """Per-session setup after restore from the snapshot: fresh randomness."""
    global _started
    _started = True
    random.seed(os.urandom(32))
    tempfile = sys.modules.get("tempfile")
    if tempfile is not None:
        tempfile._name_sequence = None


def _exit_code(exc, stderr):
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF  # as a shell sees it
    print(code, file=stderr)
    return 1


class _Outcome:
    exc_type = None


def _run_code(code, out, err, outcome, name=None, namespace=None):
    global _cells
    if name is None:
        _cells += 1
        name = f"<cell-{_cells}>"
    namespace = _namespace if namespace is None else namespace
    # Registered so tracebacks and inspect.getsource show the model's own lines.
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    try:
        compiled = compile(code, name, "exec")
    except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError) as exc:
        outcome.exc_type = type(exc).__name__
        err.write("".join(traceback.format_exception_only(type(exc), exc)))
        return 1
    try:
        exec(compiled, namespace)
    except SystemExit as exc:
        return _exit_code(exc, err)
    except BaseException as exc:
        outcome.exc_type = type(exc).__name__
        tb = exc.__traceback__
        # Drop this frame: the model's traceback starts at its own cell.
        if tb is not None and tb.tb_frame.f_code is _run_code.__code__:
            tb = tb.tb_next
        try:
            err.write("".join(traceback.format_exception(type(exc), exc, tb)))
        except BaseException:
            err.write(f"{type(exc).__name__}: <unprintable exception>\n")
        return 1
    return 0


def _with_streams(limit, body):
    out, err = _Capture(limit), _Capture(limit)
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, io.StringIO("")
    try:
        rc = body(out, err)
    finally:
        for stream in (out, err):
            try:
                stream.flush()
            except BaseException:
                pass
        sys.stdout, sys.stderr, sys.stdin = saved
    return rc, out, err


def _exec(req):
    limit = int(req.get("max_output_bytes", _DEFAULT_MAX_OUTPUT))
    outcome = _Outcome()
    rc, out, err = _with_streams(limit, lambda o, e: _run_code(req["code"], o, e, outcome))
    return _result(out, err, rc, outcome.exc_type)


def _result(out, err, rc, exc_type=None):
    return {
        "stdout": out.getvalue(),
        "stderr": err.getvalue(),
        "return_code": rc,
        "stdout_dropped": out.dropped,
        "stderr_dropped": err.dropped,
        "exc_type": exc_type,
    }


def _edit(req):
    from _cove_editor import run_editor

    limit = int(req.get("max_output_bytes", _DEFAULT_MAX_OUTPUT))
    rc, out, err = _with_streams(limit, lambda o, e: run_editor(req, _undo, o, e))
    return _result(out, err, rc)


_shell = None


class _GuestHost:
    """What the shell's `python` command calls: the host starts a fresh interpreter."""

    def python(self, ctx, args):
        import base64

        import _cove

        request = {
            "op": "python", "argv": list(args), "cwd": os.getcwd(), "env": ctx.env,
            "stdin_b64": base64.b64encode(ctx.stdin).decode(),
        }
        try:
            reply = json.loads(_cove.host_call(json.dumps(request).encode()))
        except (OSError, ValueError) as exc:
            ctx.err.write(f"python: cannot start an interpreter: {exc}\n")
            return 126
        if "error" in reply:
            ctx.err.write(f"python: {reply['error']}\n")
            return 126
        ctx.out.write(reply.get("stdout", ""))
        ctx.err.write(reply.get("stderr", ""))
        return int(reply.get("return_code", 1))


def _bash(req):
    global _shell
    import _cove_shell

    if _shell is None:
        _shell = _cove_shell.Shell(host=_GuestHost())
    limit = int(req.get("max_output_bytes", _DEFAULT_MAX_OUTPUT))
    try:
        out_bytes, err_bytes, rc = _shell.run(req["command"])
    except BaseException as exc:
        # The shell contains its own failures; this is the last line, so that nothing the shell
        # raises (MemoryError, RecursionError included) becomes a driver failure, which would
        # reset the interpreter. Only a trap does that.
        out_bytes = b""
        try:
            err_bytes = f"bash: internal error: {type(exc).__name__}: {exc}\n".encode("utf-8", "replace")
        except BaseException:
            err_bytes = f"bash: internal error: {type(exc).__name__}\n".encode()
        rc = 1
    out, err = _Capture(limit), _Capture(limit)
    out.write(out_bytes.decode("utf-8", "surrogateescape"))
    err.write(err_bytes.decode("utf-8", "surrogateescape"))
    return _result(out, err, rc)


def _script(req):
    """`python ARGV...` in this (fresh) interpreter, as the shell's python command."""
    import base64
    import runpy

    limit = int(req.get("max_output_bytes", _DEFAULT_MAX_OUTPUT))
    argv = list(req.get("argv", []))
    stdin_data = base64.b64decode(req.get("stdin_b64", ""))
    try:
        os.chdir(req.get("cwd") or WORKSPACE)
    except OSError:
        pass
    os.environ.clear()
    os.environ.update(req.get("env") or {})

    def body(out, err):
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_data), encoding="utf-8", errors="surrogateescape")
        options = []
        while argv and argv[0].startswith("-") and argv[0] not in ("-", "-c", "-m"):
            options.append(argv.pop(0))
        for opt in options:
            if opt in ("-V", "--version"):
                out.write("Python 3.11.2\n")
                return 0
            if opt not in ("-u", "-B", "-E", "-s", "-S", "-I", "-O", "-q"):
                err.write(f"unknown option {opt}\n")
                return 2
        main = {"__name__": "__main__", "__builtins__": __builtins__}
        outcome = _Outcome()
        try:
            if not argv or argv[0] in ("-", "-c"):
                sys.path.insert(0, "")
            if not argv or argv[0] == "-":
                sys.argv = ["-", *argv[1:]]
                return _run_code(sys.stdin.read(), out, err, outcome, name="<stdin>", namespace=main)
            if argv[0] == "-c":
                if len(argv) < 2:
                    err.write("Argument expected for the -c option\n")
                    return 2
                sys.argv = ["-c", *argv[2:]]
                return _run_code(argv[1], out, err, outcome, name="<string>", namespace=main)
            if argv[0] == "-m":
                sys.argv = [argv[1], *argv[2:]]
                sys.path.insert(0, os.getcwd())
                try:
                    runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
                except SystemExit as exc:
                    return _exit_code(exc, err)
                except BaseException as exc:
                    err.write("".join(traceback.format_exception(exc)))
                    return 1
                return 0
            path = argv[0]
            sys.argv = list(argv)
            sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
            try:
                with open(path, encoding="utf-8") as f:
                    source = f.read()
            except OSError as exc:
                err.write(f"python3: can't open file '{path}': [Errno {exc.errno}] {exc.strerror}\n")
                return 2
            main["__file__"] = path
            return _run_code(source, out, err, outcome, name=path, namespace=main)
        finally:
            sys.stdin = io.StringIO("")

    rc, out, err = _with_streams(limit, body)
    return _result(out, err, rc)


def handle(request):
    """Run one request (JSON bytes) and return the JSON response bytes."""
    if not _started:
        _start()
    try:
        req = json.loads(request)
        op = req.get("op")
        if op == "exec":
            resp = _exec(req)
        elif op == "edit":
            resp = _edit(req)
        elif op == "bash":
            resp = _bash(req)
        elif op == "script":
            resp = _script(req)
        elif op == "ping":
            resp = {"ok": True}
        else:
            resp = {"error": f"unknown op {op!r}"}
    except MemoryError:
        resp = {"error": "MemoryError in the driver"}
    except BaseException as exc:
        resp = {"error": f"driver failure: {type(exc).__name__}: {exc}"}
    return json.dumps(resp, ensure_ascii=False).encode("utf-8", "replace")


def initialise():
    """Runs once, at snapshot time: warm the imports every session needs, enter the workspace."""
    import _cove  # noqa: F401
    import _cove_editor  # noqa: F401
    import _cove_shell  # noqa: F401
    import traceback  # noqa: F401

    global _cells
    os.chdir(WORKSPACE)
    sys.argv = [""]
    # Warm the paths every session takes (the first compile and exec, capture, the editor):
    # their one-time costs land in the snapshot instead of in each session's first call.
    _exec({"code": "pass"})
    _exec({"code": "1/0"})
    _edit({"command": "view", "path": WORKSPACE})
    _cove_shell.Shell().run("echo warm | wc -l > /dev/null")
    _cells = 0
    linecache.cache.clear()
    _undo.clear()
    # Deterministic state in the snapshot; every session reseeds from os.urandom on its first call.
    random.seed(0)
    # Everything alive now moves to the GC's permanent generation: collections in a session
    # never walk (and so never copy-on-write) the snapshot's objects.
    import gc

    gc.collect()
    gc.freeze()

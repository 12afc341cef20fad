"""Running Python source the way the interpreter's main module would: compile, exec, and map
what happened to a return code (an exception is a traceback on stderr and status 1;
`SystemExit` is its code, as a shell sees it).
"""

import builtins
import linecache
import traceback
from io import TextIOBase
from typing import Any, NamedTuple

from cove_guest import deadline, reference


class Ran(NamedTuple):
    """What running source gave: its status, as a shell sees it, and the name of the exception
    it left uncaught (None when it raised none, or only `SystemExit`)."""

    status: int
    exc_type: str | None = None


def main_namespace() -> dict[str, Any]:
    """A fresh `__main__` namespace."""
    return {"__name__": "__main__", "__builtins__": builtins.__dict__}


def exit_status(exc: SystemExit, stderr: TextIOBase) -> int:
    """The return code for a `SystemExit`, as a shell sees it; a non-int code is printed."""
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=stderr)
    return 1


def run_source(
    code: str, name: str, namespace: dict[str, Any], out: TextIOBase, err: TextIOBase
) -> Ran:
    """Compile and run `code` as file `name` in `namespace`."""
    # Registered so tracebacks and inspect.getsource show the model's own lines.
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    try:
        compiled = compile(code, name, "exec")
    except (SyntaxError, ValueError, OverflowError, MemoryError, RecursionError) as exc:
        err.write("".join(traceback.format_exception_only(type(exc), exc)))
        return Ran(1, type(exc).__name__)
    try:
        with deadline.armed():
            exec(compiled, namespace)
    except SystemExit as exc:
        return Ran(exit_status(exc, err))
    except BaseException as exc:
        tb = exc.__traceback__
        # Drop this frame: the model's traceback starts at its own cell.
        if tb is not None and tb.tb_frame.f_code is run_source.__code__:
            tb = tb.tb_next
        if isinstance(exc, deadline.TimeLimitExceeded):
            tb = deadline.without_handler(tb)
        if isinstance(exc, ModuleNotFoundError):
            note = reference.missing_module_note(exc)
            if note is not None and note not in getattr(exc, "__notes__", ()):
                exc.add_note(note)
        try:
            err.write("".join(traceback.format_exception(type(exc), exc, tb)))
        except BaseException:
            err.write(f"{type(exc).__name__}: <unprintable exception>\n")
        return Ran(1, type(exc).__name__)
    return Ran(0)


class Cells:
    """The persistent namespace of `code_execution`: each call is a numbered cell in it."""

    def __init__(self) -> None:
        self.namespace = main_namespace()
        self.count = 0

    def run(self, code: str, out: TextIOBase, err: TextIOBase) -> Ran:
        self.count += 1
        return run_source(code, f"<cell-{self.count}>", self.namespace, out, err)

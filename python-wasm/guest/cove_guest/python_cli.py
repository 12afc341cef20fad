"""`python ARGV...` for the shell's python command, run in a fresh interpreter: `-c`, `-m`, a
script with arguments, `-` or stdin, and the options that change nothing here.
"""

import io
import os
import runpy
import sys
import traceback
from collections.abc import Sequence
from io import TextIOBase

from cove_guest import deadline
from cove_guest.cells import exit_status, main_namespace, run_source

# Options CPython accepts that make no difference in this interpreter.
_IGNORED_OPTIONS = ("-u", "-B", "-E", "-s", "-S", "-I", "-O", "-q")


def run_python(argv: Sequence[str], stdin_data: bytes, out: TextIOBase, err: TextIOBase) -> int:
    """Run `python *argv` with `stdin_data` as stdin; returns the exit status."""
    argv = list(argv)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_data), encoding="utf-8", errors="surrogateescape")
    options: list[str] = []
    while argv and argv[0].startswith("-") and argv[0] not in ("-", "-c", "-m"):
        options.append(argv.pop(0))
    for opt in options:
        if opt in ("-V", "--version"):
            out.write("Python 3.11.2\n")
            return 0
        if opt not in _IGNORED_OPTIONS:
            err.write(f"unknown option {opt}\n")
            return 2
    main = main_namespace()
    try:
        if not argv or argv[0] in ("-", "-c"):
            sys.path.insert(0, "")
        if not argv or argv[0] == "-":
            sys.argv = ["-", *argv[1:]]
            return run_source(sys.stdin.read(), "<stdin>", main, out, err).status
        if argv[0] == "-c":
            if len(argv) < 2:
                err.write("Argument expected for the -c option\n")
                return 2
            sys.argv = ["-c", *argv[2:]]
            return run_source(argv[1], "<string>", main, out, err).status
        if argv[0] == "-m":
            sys.argv = [argv[1], *argv[2:]]
            sys.path.insert(0, os.getcwd())
            try:
                with deadline.armed():
                    runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
            except SystemExit as exc:
                return exit_status(exc, err)
            except BaseException as exc:
                if isinstance(exc, deadline.TimeLimitExceeded):
                    deadline.without_handler(exc.__traceback__)
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
        return run_source(source, path, main, out, err).status
    finally:
        sys.stdin = io.StringIO("")

"""`python ARGV...` for the shell's python command, run in a fresh interpreter: `-c`, `-m`, a
script with arguments, `-` or stdin, and the options that change nothing here.
"""

import io
import os
import runpy
import sys
import traceback
import warnings
from collections.abc import Sequence
from io import TextIOBase

from cove_guest import deadline
from cove_guest.cells import exit_status, main_namespace, run_source

# Options CPython accepts that make no difference in this interpreter (-R: hash randomisation,
# on by default since 3.3; -E and -I: PYTHONPATH is ignored, the only PYTHON* variable read
# here). They may be combined, as `-uB`.
_IGNORED_FLAGS = "uBEsSIOqR"


def _options(argv: list[str], err: TextIOBase) -> tuple[list[str], bool] | int:
    """Take the options off the front of `argv` (as CPython's command line does, up to `-`,
    `-c`, `-m` or the script): the -W filters to apply and whether PYTHON* variables are
    ignored (-E, -I), or an exit status (a version printed, or a bad option)."""
    warnings: list[str] = []
    ignore_environment = False
    while argv and argv[0].startswith("-") and argv[0] not in ("-", "-c", "-m"):
        opt = argv.pop(0)
        if opt == "--version":
            return -1
        for i, flag in enumerate(opt[1:], 1):
            if flag == "V":
                return -1
            ignore_environment = ignore_environment or flag in "EI"
            if flag == "W":
                # -W ARG or -WARG, as CPython takes it
                value = opt[i + 1 :] or (argv.pop(0) if argv else "")
                if not value:
                    err.write("Argument expected for the -W option\n")
                    return 2
                warnings.append(value)
                break
            if flag not in _IGNORED_FLAGS:
                err.write(f"unknown option -{flag}\n")
                return 2
    return warnings, ignore_environment


def run_python(argv: Sequence[str], stdin_data: bytes, out: TextIOBase, err: TextIOBase) -> int:
    """Run `python *argv` with `stdin_data` as stdin; returns the exit status."""
    argv = list(argv)
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin_data), encoding="utf-8", errors="surrogateescape")
    options = _options(argv, err)
    if options == -1:
        out.write("Python 3.11.2\n")
        return 0
    if isinstance(options, int):
        return options
    warning_options, ignore_environment = options
    # The interpreter is fresh: its warning filters and sys.path are this command's alone.
    warnings._processoptions(warning_options)  # type: ignore[attr-defined]
    if not ignore_environment:
        # PYTHONPATH's directories come after the script's (inserted below), as natively
        entries = os.environ.get("PYTHONPATH", "").split(os.pathsep)
        sys.path[0:0] = [os.path.abspath(entry) for entry in entries if entry]
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

"""Cython as the recipes' builds run it (W/bin-<recipe>/cython runs this file).

Cython names each source file in what it generates (tracebacks' file names, and C identifiers
made from them, whose order follows their text): run from the recipe's source root, with every
path argument made absolute first, it names a `.pyx` `pandas/_libs/lib.pyx` as the native
wheels' tracebacks do, not by the build directory's path. Then W is written /build in the rest
of the output (the .pxd files of required recipes, outside the source root). So the output is
the same in every build directory.

Usage: cython.py SOURCE_ROOT WORK CYTHON [-I DIR ...] -- CYTHON_ARGS...
"""

from __future__ import annotations

import os
import subprocess
import sys

# options whose next argument is a path
_PATH_OPTIONS = frozenset(
    {"-o", "--output-file", "-I", "--include-dir", "-w", "--working", "--depfile"}
)


def main(argv: list[str]) -> int:
    split = argv.index("--")
    root, work, cython, *includes = argv[:split]
    args = argv[split + 1 :]
    absolute: list[str] = []
    output = None
    for i, arg in enumerate(args):
        previous = args[i - 1] if i else ""
        if previous in _PATH_OPTIONS or (not arg.startswith("-") and os.path.exists(arg)):
            arg = os.path.abspath(arg)
        if previous in ("-o", "--output-file"):
            output = arg
        absolute.append(arg)
    code = subprocess.run([cython, *includes, *absolute], cwd=root, check=False).returncode
    if code or output is None:
        return code
    with open(output, "rb") as f:
        text = f.read()
    fixed = text.replace(f"{work}/".encode(), b"/build/")
    if fixed != text:
        with open(output, "wb") as f:
            f.write(fixed)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

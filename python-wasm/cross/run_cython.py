"""Cython as the recipes' builds run it (W/bin-<recipe>/cython runs this file; not named cython.py,
which would shadow Cython's own `cython` module).

Cython names each source file in what it generates: the file names of tracebacks, and C
identifiers made from those names, whose order in the module follows their text. Given
absolute paths (as meson's build gives it, for sources, for the `.pyx` and `.pxi` files the
build generates from templates, and for include directories), those names hold the work
directory's path, and the module's bytes depend on where it was built. This runs Cython in
this process with its source descriptor told to name a file relative to the directory it is
found under, the recipe's source root, the build directory or a required recipe's `.pxd`
directory: `pandas/_libs/lib.pyx`, as the native wheels' tracebacks name it. Then W is written
/build in the rest of the output. Cython is pinned (versions.toml); the hook is on
`Cython.Compiler.Scanning.FileSourceDescriptor`, which sets `file_path` in its constructor.

Usage: run_cython.py WORK BASE... -- CYTHON_ARGS...   (BASE: the directories named from)
"""

from __future__ import annotations

import os
import sys
from typing import Any


def _relative_names(bases: list[str]) -> None:
    from Cython.Compiler import Scanning  # type: ignore[import-not-found]

    init = Scanning.FileSourceDescriptor.__init__

    def named_relatively(self: Any, filename: str, path_description: Any = None) -> None:
        init(self, filename, path_description)
        path = os.path.abspath(self.file_path)
        for base in bases:
            if path.startswith(base + os.sep):
                self.file_path = path[len(base) + 1 :]
                return

    Scanning.FileSourceDescriptor.__init__ = named_relatively


def main(argv: list[str]) -> int:
    split = argv.index("--")
    work, *bases = argv[:split]
    args = argv[split + 1 :]
    # the longest first: a build directory inside a base is named from the build directory
    _relative_names(sorted({os.path.abspath(b) for b in [*bases, os.getcwd()]}, key=len)[::-1])
    from Cython.Compiler.Main import main as cython_main  # type: ignore[import-not-found]

    sys.argv = ["cython", *args]
    try:
        cython_main(command_line=1)
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    output = next(
        (args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-o", "--output-file")), None
    )
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

"""A C library's static archives, checked for calls whose signature differs from the callee's.

WebAssembly's linker refuses a direct call through another signature than the function's
(build.sh's reactor link makes the warning an error), and a call through a pointer of another
type traps when it runs. Natively such a difference is harmless and goes unnoticed, so a
library's own sources can hold many: lapack-netlib's f2c translation declared OpenBLAS's LAPACK
routines `int` where the routines return nothing (recipes/openblas 0004, 0005). The reactor
link only sees the members something pulls in; this check links every member of each archive a
library installs (wasm-ld --whole-archive, nothing garbage-collected, undefined symbols allowed:
they are other libraries' and libc's) and fails the library's install on any mismatch, so one
is found when the library is built, not when a later package first calls the routine.
"""

from __future__ import annotations

import pathlib
import subprocess
import tempfile

from .toolchain import Toolchain


class SignatureMismatch(RuntimeError):
    pass


def archives(tc: Toolchain) -> dict[pathlib.Path, int]:
    """The static archives in W/deps now, with their modification times."""
    lib = tc.deps / "usr" / "lib"
    return {a: a.stat().st_mtime_ns for a in sorted(lib.glob("*.a"))} if lib.is_dir() else {}


def check(llvm: pathlib.Path, archive: pathlib.Path) -> None:
    """Link every member of `archive` with the wasm-ld in `llvm`; raise SignatureMismatch with
    wasm-ld's report if any call disagrees with the function it calls."""
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [
                str(llvm / "wasm-ld"),
                "--no-entry",
                "--allow-undefined",
                "--no-gc-sections",
                "--export-all",
                "--fatal-warnings",
                "--whole-archive",
                str(archive),
                "-o",
                str(pathlib.Path(tmp) / "all.wasm"),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
    if done.returncode != 0:
        raise SignatureMismatch(f"{archive.name}: its members disagree:\n{done.stderr.strip()}")


def check_installed(tc: Toolchain, before: dict[pathlib.Path, int]) -> list[pathlib.Path]:
    """Check each archive in W/deps that is new or rewritten since `before`; the ones checked."""
    changed = [a for a, mtime in archives(tc).items() if before.get(a) != mtime]
    for archive in changed:
        check(tc.llvm, archive)
    return changed

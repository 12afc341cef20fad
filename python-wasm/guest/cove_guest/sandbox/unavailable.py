"""Modules that cannot exist in the sandbox fail to import with a reason, not a bare name; any
other missing package says where to see what is installed (`reference.missing_module_note`)."""

import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

REASONS = {
    "_ctypes": "ctypes is not available in this sandbox: code runs as WebAssembly, which cannot "
    "load native libraries",
    "_ssl": "ssl is not available in this sandbox: there is no network access",
    "_multiprocessing": "process-based parallelism is not available in this sandbox: there is "
    "one process and no threads (multiprocessing.Pool runs tasks one by one)",
    "_posixsubprocess": "processes cannot be started in this sandbox (subprocess runs commands "
    "through the sandbox's shell instead)",
}


class UnavailableFinder(MetaPathFinder):
    """Last on `sys.meta_path`: asked only about modules no other finder has, it turns the
    ones in `REASONS` into a ModuleNotFoundError that says why. (Any other missing module is
    left to Python: `find_spec` must answer None for it, as code that probes for optional
    packages expects. An uncaught one gets a note instead: `reference.missing_module_note`.)"""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        reason = REASONS.get(fullname)
        if reason is not None:
            raise ModuleNotFoundError(reason, name=fullname)
        return None


def install() -> None:
    if not any(isinstance(f, UnavailableFinder) for f in sys.meta_path):
        sys.meta_path.append(UnavailableFinder())

"""The packages' C extension modules, linked into the interpreter.

numpy's and pandas' extension modules are not shared libraries here (WebAssembly has no
dynamic loading): build.sh links them into the interpreter and registers each under its dotted
name (`numpy._core._multiarray_umath`) in a generated table (cove_driver.c). CPython 3.11's
`BuiltinImporter` only answers for top-level names (its `find_spec` returns None whenever a
package's `__path__` is passed), so this finder, next to it on `sys.meta_path`, answers for
the dotted ones. Each gets the `__file__` its shared library would have natively, in its
package's directory (`/usr/lib/python311.zip/PIL/_imaging.cpython-311-wasm32-wasi.so`): code
that reports or looks beside a module's file (`PIL.features.pilinfo()`, `python -m PIL`)
works, as natively, though no such file exists.
"""

import _imp
import sys
from collections.abc import Sequence
from importlib.machinery import BuiltinImporter, ModuleSpec
from types import ModuleType

# what CPython's EXT_SUFFIX for wasm32-wasi is: ".cpython-311-wasm32-wasi.so"
_SUFFIX = f".{sys.implementation.cache_tag}-{sys.implementation._multiarch}.so"


class BuiltinSubmoduleFinder:
    """Finds a package's submodule that is compiled into the interpreter."""

    @classmethod
    def find_spec(
        cls,
        fullname: str,
        path: Sequence[str] | None = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if "." in fullname and _imp.is_builtin(fullname):
            # BuiltinImporter is its own loader (classmethods), as in importlib's own specs
            if not path:
                return ModuleSpec(fullname, BuiltinImporter, origin="built-in")  # type: ignore[arg-type]
            name = fullname.rpartition(".")[2] + _SUFFIX
            spec = ModuleSpec(fullname, BuiltinImporter, origin=f"{path[0]}/{name}")  # type: ignore[arg-type]
            spec.has_location = True  # __file__, as a shared library's
            return spec
        return None

    @classmethod
    def invalidate_caches(cls) -> None:
        pass


def install() -> None:
    """At snapshot time: the finder on `sys.meta_path`, right after `BuiltinImporter`."""
    if BuiltinSubmoduleFinder not in sys.meta_path:
        # Right after BuiltinImporter: before the path finder looks through the zip.
        sys.meta_path.insert(1, BuiltinSubmoduleFinder)

# Loaded by the host python3.11 that meson and setup.py use as "the target Python" (see the
# python-wasi wrapper). _PYTHON_SYSCONFIGDATA_NAME already gives the target's build-time
# variables (EXT_SUFFIX, SIZEOF_*, Py_ENABLE_SHARED=0); here the include dirs and LIBPC are
# pointed at the cross CPython's copy, otherwise meson would use the host's Python.h/pyconfig.h
# ("LONG_BIT definition appears wrong"). For setup.py (cross/setup_py.py), WASI_CROSS_VARS
# replaces the interpreter's own compile and link settings with the toolchain's, and every
# extension's compile names its module to wasi-cc (`--cove-module=<dotted>`).
import json
import os
import sysconfig
from typing import Any

_inc = os.environ["WASI_PY_INCLUDE"]
_pc = os.environ["WASI_PY_LIBPC"]
_cross_vars = json.loads(os.environ.get("WASI_CROSS_VARS", "{}"))
_get_paths = sysconfig.get_paths
_get_config_vars = sysconfig.get_config_vars


def get_paths(*a: Any, **kw: Any) -> dict[str, str]:
    p = dict(_get_paths(*a, **kw))
    p["include"] = p["platinclude"] = _inc
    return p


def get_config_vars(*a: str) -> Any:
    v = _get_config_vars()
    v["INCLUDEPY"] = v["CONFINCLUDEPY"] = _inc
    v["LIBPC"] = _pc
    v.update(_cross_vars)
    if a:
        return [v.get(n) for n in a]
    return v


sysconfig.get_paths = get_paths
sysconfig.get_config_vars = get_config_vars

if _cross_vars:
    from setuptools.command import build_ext as _build_ext  # type: ignore[import-untyped]

    _build_extension = _build_ext.build_ext.build_extension

    def build_extension(self: Any, ext: Any) -> None:
        flag = f"--cove-module={ext.name}"
        if flag not in ext.extra_compile_args:
            ext.extra_compile_args = [*ext.extra_compile_args, flag]
        _build_extension(self, ext)

    _build_ext.build_ext.build_extension = build_extension

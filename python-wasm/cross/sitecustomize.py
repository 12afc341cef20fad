# Loaded by the host python3.11 that meson uses as "the target Python" (see python-wasi wrapper).
# _PYTHON_SYSCONFIGDATA_NAME already gives the target's build-time variables (EXT_SUFFIX, SIZEOF_*,
# Py_ENABLE_SHARED=0); here the include dirs and LIBPC are pointed at the cross CPython's copy,
# otherwise meson would use the host's Python.h/pyconfig.h ("LONG_BIT definition appears wrong").
import os
import sysconfig
from typing import Any

_inc = os.environ["WASI_PY_INCLUDE"]
_pc = os.environ["WASI_PY_LIBPC"]
_get_paths = sysconfig.get_paths
_get_config_vars = sysconfig.get_config_vars


def get_paths(*a: Any, **kw: Any) -> dict[str, str]:
    p = dict(_get_paths(*a, **kw))
    p["include"] = p["platinclude"] = _inc
    return p


def get_config_vars(*a: str) -> Any:
    v = _get_config_vars()
    v["INCLUDEPY"] = _inc
    v["LIBPC"] = _pc
    if a:
        return [v.get(n) for n in a]
    return v


sysconfig.get_paths = get_paths
sysconfig.get_config_vars = get_config_vars

"""numpy as a recipe that requires it sees it while building: {site} and {version} are filled in.

get_include() names this build's headers, which is what an extension compiles against. A recipe
whose build tools have a numpy of their own (scipy's, `[recipe-build-tools.scipy]`: its build
runs numpy as a code generator and to write test data) gets that numpy for everything else,
with get_include() still this one; without one, this module is all there is of numpy.
"""

import importlib.machinery
import importlib.util
import os
import sys


def get_include():
    return "{site}/numpy/_core/include"


__version__ = "{version}"

_hook = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.machinery.PathFinder.find_spec(
    "numpy", [p for p in sys.path if os.path.abspath(p or ".") != _hook]
)
if _spec is not None and _spec.loader is not None:
    _real = importlib.util.module_from_spec(_spec)
    sys.modules["numpy"] = _real  # what `import numpy` returns, once this module has run
    _spec.loader.exec_module(_real)
    if _real.__version__ != __version__:
        raise ImportError(
            f"the build tools' numpy is {_real.__version__}, the numpy recipe {__version__}"
        )
    _real.get_include = get_include

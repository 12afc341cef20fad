"""Method tables whose flags do not match their C functions: a trap in WebAssembly.

A PyMethodDef entry whose flags say METH_VARARGS|METH_KEYWORDS calls its function with three
arguments; natively a function defined with two silently ignores the third, in WebAssembly the
indirect call traps ("indirect call type mismatch"). PyGetSetDef getters take (self, closure).
The driver runs this on a recipe's patched sources (the directories its `check-method-tables`
names) and refuses
any mismatch: a patch fixes it (numpy's 0004-callback-signatures fixed three).
"""

from __future__ import annotations

import os
import pathlib
import re

_ENTRY = re.compile(
    r'\{\s*"(\w+)"\s*,\s*\(?\s*(?:\(\s*PyCFunction\s*\)|\(\s*void\s*\*\s*\))?'
    r"\s*\(?(\w+)\)?\s*,\s*([A-Z_| \n]+?)\s*[,}]",
    re.S,
)
_DEFINITION = re.compile(
    r"^(?:static\s+)?(?:NPY_NO_EXPORT\s+)?(?:inline\s+)?PyObject\s*\*\s*\n?\s*(\w+)\s*"
    r"\(((?:[^()]|\([^()]*\))*)\)\s*\{",
    re.M,
)
_GETTER = re.compile(r"\(\s*getter\s*\)\s*(\w+)")


def _wanted(flags: str) -> int:
    if "METH_METHOD" in flags:
        return 5
    if "METH_KEYWORDS" in flags:
        return 4 if "METH_FASTCALL" in flags else 3
    return 3 if "METH_FASTCALL" in flags else 2


def mismatches(root: pathlib.Path, tops: list[str]) -> list[str]:
    """One line per mismatch in the C and C++ sources under root/top for each top."""
    src: dict[str, str] = {}
    for top in tops:
        for directory, _, names in sorted(os.walk(root / top)):
            for name in sorted(names):
                if name.endswith((".c", ".cpp", ".h", ".src", ".hpp")):
                    path = os.path.join(directory, name)
                    with open(path, errors="replace") as source:
                        src[os.path.relpath(path, root)] = source.read()
    defs: dict[str, set[tuple[int, str]]] = {}
    for f, s in src.items():
        for m in _DEFINITION.finditer(s):
            params = [p for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
            defs.setdefault(m.group(1), set()).add((len(params), f))
    bad = []
    for f, s in src.items():
        for m in _ENTRY.finditer(s):
            name, func, flags = m.group(1), m.group(2), " ".join(m.group(3).split())
            want = _wanted(flags)
            for n, df in sorted(defs.get(func, ())):
                if n != want:
                    bad.append(
                        f"{f}: {name} -> {func} flags [{flags}] wants {want} params, "
                        f"defined with {n} in {df}"
                    )
        for m in _GETTER.finditer(s):
            for n, df in sorted(defs.get(m.group(1), ())):
                if n != 2:
                    bad.append(f"{f}: getter {m.group(1)} wants 2 params, defined with {n} in {df}")
    return bad

#!/usr/bin/env python3
"""Find PyMethodDef entries whose flags don't match the C function's parameter count, and
PyGetSetDef getters that do not take (self, closure).
In wasm, calling a function pointer with the wrong signature traps ("indirect call type
mismatch"); natively the extra argument is silently ignored.
Usage: check_methdefs.py DIR... (C sources, .c/.cpp/.h/.src); exits 1 on a mismatch."""

import os
import re
import sys

files = []
for d in sys.argv[1:]:
    for root, _, fs in os.walk(d):
        files += [
            os.path.join(root, f) for f in fs if f.endswith((".c", ".cpp", ".h", ".src", ".hpp"))
        ]
src = {}
for f in files:
    with open(f, errors="replace") as source:
        src[f] = source.read()
entry = re.compile(
    r'\{\s*"(\w+)"\s*,\s*\(?\s*(?:\(\s*PyCFunction\s*\)|\(\s*void\s*\*\s*\))?'
    r"\s*\(?(\w+)\)?\s*,\s*([A-Z_| \n]+?)\s*[,}]",
    re.S,
)
defs = {}
for f, s in src.items():
    for m in re.finditer(
        r"^(?:static\s+)?(?:NPY_NO_EXPORT\s+)?(?:inline\s+)?PyObject\s*\*\s*\n?\s*(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)\s*\{",
        s,
        re.M,
    ):
        params = [p for p in m.group(2).split(",") if p.strip() and p.strip() != "void"]
        defs.setdefault(m.group(1), set()).add((len(params), f))
bad = 0
for f, s in src.items():
    for m in entry.finditer(s):
        name, func, flags = m.group(1), m.group(2), " ".join(m.group(3).split())
        want = (
            3
            if ("METH_KEYWORDS" in flags and "METH_FASTCALL" not in flags)
            else 4
            if ("METH_KEYWORDS" in flags and "METH_FASTCALL" in flags)
            else 3
            if "METH_FASTCALL" in flags
            else 2
        )
        if "METH_METHOD" in flags:
            want = 5
        for n, df in defs.get(func, ()):
            if n != want:
                bad += 1
                print(
                    f"{os.path.relpath(f)}: {name} -> {func} flags [{flags}] wants {want} params, "
                    f"defined with {n} in {os.path.relpath(df)}"
                )
# PyGetSetDef getters: (self, closure)
for f, s in src.items():
    for m in re.finditer(r"\(\s*getter\s*\)\s*(\w+)", s):
        for n, df in defs.get(m.group(1), ()):
            if n != 2:
                bad += 1
                print(
                    f"{os.path.relpath(f)}: getter {m.group(1)} wants 2 params, "
                    f"defined with {n} in {os.path.relpath(df)}"
                )
print(f"{bad} mismatches", file=sys.stderr)
sys.exit(1 if bad else 0)

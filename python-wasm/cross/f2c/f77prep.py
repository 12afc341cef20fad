"""The few Fortran 90 constructs of otherwise Fortran 77 sources (scipy's FITPACK and ODRPACK)
rewritten as Fortran 77 that f2c reads, before wasi-f77 hands a file to f2c:

  `recursive subroutine/function`   `recursive` dropped: f2c -a makes the locals automatic, so
                                    a routine that calls itself works as it does natively
  `function f(...) result(r)`       `function f(...)`, and `r` renamed `f` in the unit
  `type :: names`                   `type names`

and, for meson's probes (which write free-form `.f90` programs such as `stop; end program`),
free form to fixed form: one statement a line, `end program`/`end subroutine x` as `end`.

Anything else f2c does not read (modules, allocatable arrays, derived types, ...) is left as it
is, and f2c refuses it: wasi-f77 compiles Fortran 77, not Fortran 90.
"""

from __future__ import annotations

import re

_RECURSIVE = re.compile(r"(?i)^(\s+)recursive\s+")
_FUNCTION = re.compile(r"(?i)^\s+(?:[a-z*0-9]+\s+)?function\s+(\w+)")
_RESULT = re.compile(r"(?i)\bresult\s*\(\s*(\w+)\s*\)")
_END_UNIT = re.compile(r"(?i)end\s*(program|subroutine|function|module)\b")


def is_comment(line: str) -> bool:
    """A fixed-form comment line (c, C, * or ! in column 1) or a blank one."""
    return line[:1] in ("c", "C", "*", "!") or line.strip() == ""


def _continues(line: str) -> bool:
    """A fixed-form continuation line: a character other than blank or 0 in column 6."""
    return len(line) > 5 and not is_comment(line) and line[5] not in " 0"


def free_to_fixed(text: str) -> str:
    out = []
    for line in text.splitlines():
        for part in line.split("!", 1)[0].split(";"):
            statement = part.strip()
            if not statement:
                continue
            if _END_UNIT.match(statement):
                statement = "end"
            out.append("      " + statement)
    return "\n".join(out) + "\n"


def prep(text: str) -> str:
    """Fixed-form source with `recursive`, `result(...)` and `::` rewritten (module docstring)."""
    lines = text.splitlines()
    for n, line in enumerate(lines):
        if not is_comment(line):
            lines[n] = _RECURSIVE.sub(r"\1", line)
    # `result(r)`, on the FUNCTION line or one of its continuation lines
    units: list[tuple[int, str, str]] = []  # (the unit's first line, function name, result name)
    for i, line in enumerate(lines):
        if is_comment(line) or len(line) <= 6 or line[5] not in " 0":
            continue
        header = _FUNCTION.match(line)
        if not header:
            continue
        j = i
        while True:
            result = _RESULT.search(lines[j])
            if result:
                lines[j] = lines[j][: result.start()].rstrip() + lines[j][result.end() :]
                units.append((i, header.group(1), result.group(1)))
                break
            if j + 1 < len(lines) and _continues(lines[j + 1]):
                j += 1
            else:
                break
    # the result variable is the function's name, up to the next such unit
    for k, (start, name, result_name) in enumerate(units):
        end = units[k + 1][0] if k + 1 < len(units) else len(lines)
        variable = re.compile(rf"(?i)\b{re.escape(result_name)}\b")
        for n in range(start + 1, end):
            if not is_comment(lines[n]):
                lines[n] = variable.sub(name, lines[n])
    # `double precision :: a, b` -> `double precision a, b`
    for n, line in enumerate(lines):
        if not is_comment(line) and "::" in line:
            lines[n] = re.sub(r"\s*::\s*", " ", line, count=1)
    return "\n".join(lines) + "\n"


def rewrite(text: str, free: bool) -> str:
    return free_to_fixed(text) if free else prep(text)

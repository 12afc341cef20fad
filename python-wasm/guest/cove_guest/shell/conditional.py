"""`test`, `[` and the operators of `[[ ]]`: file, string and integer tests."""

import os

from cove_guest.text.errors import ShellError


def unary_test(op: str, arg: str) -> bool:
    """`-f path`, `-n text` ...: a unary test; an unknown operator is an error."""
    if op == "-n":
        return arg != ""
    if op == "-z":
        return arg == ""
    if op == "-v":
        return False
    try:
        if op == "-e" or op == "-a":
            return os.path.exists(arg)
        if op == "-f":
            return os.path.isfile(arg)
        if op == "-d":
            return os.path.isdir(arg)
        if op == "-s":
            return os.path.isfile(arg) and os.path.getsize(arg) > 0
        if op == "-L" or op == "-h":
            return os.path.islink(arg)
        if op in ("-r", "-w"):
            return os.path.exists(arg)
        if op == "-x":
            return os.path.isdir(arg) or (os.path.isfile(arg) and os.access(arg, os.X_OK))
    except (OSError, ValueError):
        return False
    raise ShellError(f"{op}: unary operator expected")


def binary_test(op: str, left: str, right: str) -> bool:
    """`a -eq b`, `a = b`, `f -nt g` ...: a binary test; an unknown operator is an error."""
    a: float
    b: float
    if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
        try:
            a, b = int(left.strip()), int(right.strip())
        except ValueError:
            bad = left if not left.strip().lstrip("-").isdigit() else right
            raise ShellError(f"{bad}: integer expression expected", 2) from None
        return {
            "-eq": a == b,
            "-ne": a != b,
            "-lt": a < b,
            "-le": a <= b,
            "-gt": a > b,
            "-ge": a >= b,
        }[op]
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op in ("-nt", "-ot"):
        try:
            a, b = os.path.getmtime(left), os.path.getmtime(right)
        except OSError:
            return False
        return a > b if op == "-nt" else a < b
    raise ShellError(f"{op}: binary operator expected", 2)


def test_command(args: list[str]) -> bool:
    """POSIX test / [ ] over already-expanded arguments; returns True/False or raises."""

    def expr(a: list[str]) -> bool:
        if not a:
            return False
        if a[0] == "!" and len(a) > 1:
            return not expr(a[1:])
        for k, tok in enumerate(a):
            if tok == "-o" and 0 < k < len(a) - 1:
                return expr(a[:k]) or expr(a[k + 1 :])
        for k, tok in enumerate(a):
            if tok == "-a" and 0 < k < len(a) - 1:
                return expr(a[:k]) and expr(a[k + 1 :])
        if a[0] == "(" and a[-1] == ")":
            return expr(a[1:-1])
        if len(a) == 1:
            return a[0] != ""
        if len(a) == 2:
            return unary_test(a[0], a[1])
        if len(a) == 3:
            if a[1] in ("<", ">"):
                return a[0] < a[2] if a[1] == "<" else a[0] > a[2]
            return binary_test(a[1], a[0], a[2])
        raise ShellError("too many arguments", 2)

    return expr(args)

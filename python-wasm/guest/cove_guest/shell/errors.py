"""The shell's own control flow, carried through builtins as exceptions: `exit`,
`return`, `break N`, `continue N`, and a fatal expansion error (`set -u`, `${x:?}`).
"""


class ShellExit(Exception):
    """`exit N`: the shell (or the subshell) ends with status `code`."""

    def __init__(self, code: int) -> None:
        self.code = code


class FunctionReturn(Exception):
    """`return N`: the function ends with status `code`."""

    def __init__(self, code: int) -> None:
        self.code = code


class LoopBreak(Exception):
    """`break N`: ends the innermost `levels` loops."""

    def __init__(self, levels: int) -> None:
        self.levels = levels


class LoopContinue(Exception):
    """`continue N`: the next round of the loop `levels` out."""

    def __init__(self, levels: int) -> None:
        self.levels = levels


class FatalError(Exception):
    """An expansion error that ends a non-interactive shell (e.g. set -u)."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def internal_error(name: str, exc: BaseException) -> str:
    """The last-resort message for an exception a utility or builtin did not expect."""
    if isinstance(exc, RecursionError):
        return f"{name}: maximum recursion depth exceeded\n"
    if isinstance(exc, MemoryError):
        return f"{name}: memory exhausted\n"
    return f"{name}: internal error: {type(exc).__name__}: {exc}\n"


# The exceptions that carry the shell's own control flow through utilities and builtins.
CONTROL_FLOW = (ShellExit, FunctionReturn, LoopBreak, LoopContinue, FatalError)

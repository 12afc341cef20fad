"""The shell's own control flow, carried through builtins as exceptions: `exit`,
`return`, `break N`, `continue N`, and a fatal expansion error (`set -u`, `${x:?}`).
"""


class ShellExit(Exception):
    def __init__(self, code):
        self.code = code


class FunctionReturn(Exception):
    def __init__(self, code):
        self.code = code


class LoopBreak(Exception):
    def __init__(self, levels):
        self.levels = levels


class LoopContinue(Exception):
    def __init__(self, levels):
        self.levels = levels


class FatalError(Exception):
    """An expansion error that ends a non-interactive shell (e.g. set -u)."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


def internal_error(name, exc):
    """The last-resort message for an exception a utility or builtin did not expect."""
    if isinstance(exc, RecursionError):
        return f"{name}: maximum recursion depth exceeded\n"
    if isinstance(exc, MemoryError):
        return f"{name}: memory exhausted\n"
    return f"{name}: internal error: {type(exc).__name__}: {exc}\n"


# The exceptions that carry the shell's own control flow through utilities and builtins.
CONTROL_FLOW = (ShellExit, FunctionReturn, LoopBreak, LoopContinue, FatalError)

"""The errors a command reports, and the words for an OSError.

`ShellError` is a command-level failure: its message goes to stderr and `code` is the exit
status. `UsageError` is a bad option or operand (status 2, as GNU tools exit).
"""

import errno
import os


class ShellError(Exception):
    """A command-level error: message to stderr, status `code`."""

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


# WASI's ENOTCAPABLE: a path outside the preopened workspace. bash would see the path as absent
# (reading) or forbidden (writing), and says so.
_ENOTCAPABLE = 76


def os_message(exc: OSError, write: bool = False) -> str:
    """An OSError as bash and coreutils word it."""
    if getattr(exc, "errno", None) == _ENOTCAPABLE:
        return os.strerror(errno.EACCES) if write else os.strerror(errno.ENOENT)
    return exc.strerror or str(exc)


class UsageError(ShellError):
    """A bad option or operand: status 2, as GNU tools exit."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 2)

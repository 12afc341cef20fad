"""Every error the runtime raises, in one tree.

    CoveError
    ├── SessionNotFoundError        no such session (never created, destroyed, or reclaimed)
    │   └── SessionLostError        its saved image could not be restored: it is gone
    ├── SessionClosedError          the session is being destroyed
    ├── SessionStateError           not possible in the session's present state (fork with
    │                               files held open)
    ├── CapacityError               retryable: at the session limit, or a session's queue is full
    │   └── SessionBusyError
    ├── InvalidRequestError         malformed tool input, limits or paths
    │   ├── UnknownToolError        a tool kind this backend does not run
    │   └── NotAFileError           a file operation named a directory (or a special file)
    ├── PathOutsideWorkspaceError   a path that leaves the session's workspace
    ├── WorkspaceFileNotFoundError  no such file or directory in the workspace
    ├── TooLargeError               over a size cap (an upload, a request, the workspace quota)
    ├── PoolClosedError             the pool is closed: it makes and forks no session
    └── InterpreterError            the interpreter could not run at all
        └── ArtifactError           the interpreter artifact is missing or fails verification

Outcomes of running code (exceptions, exit codes, timeouts, memory or fuel exhaustion) are not
errors: they are reported in `ExecResult`. See docs/errors.md for the HTTP status of each.
"""

from __future__ import annotations

__all__ = [
    "ArtifactError",
    "CapacityError",
    "CoveError",
    "InterpreterError",
    "InvalidRequestError",
    "NotAFileError",
    "PathOutsideWorkspaceError",
    "PoolClosedError",
    "SessionBusyError",
    "SessionClosedError",
    "SessionLostError",
    "SessionNotFoundError",
    "SessionStateError",
    "TooLargeError",
    "UnknownToolError",
    "WorkspaceFileNotFoundError",
]


class CoveError(Exception):
    """Base of every error the Cove runtime raises."""


class SessionNotFoundError(CoveError):
    """No session has this id: it was never created, was destroyed, or was reclaimed."""

    def __init__(self, session_id: str) -> None:
        super().__init__(f"no session {session_id!r}")
        self.session_id = session_id


class SessionLostError(SessionNotFoundError):
    """The session's saved image (suspended, or carried across a restart) could not be
    restored: made by another interpreter artifact, truncated or corrupted. The session is gone.
    """

    def __init__(self, session_id: str, reason: str) -> None:
        message = f"session {session_id!r} is gone: its image was refused ({reason})"
        CoveError.__init__(self, message)
        self.session_id = session_id
        self.reason = reason


class SessionStateError(CoveError):
    """The operation is not possible in the session's present state (forking a session whose
    code holds files open)."""


class SessionClosedError(CoveError):
    """The session is closing or closed; no further calls are accepted."""

    def __init__(self, session_id: str) -> None:
        super().__init__(f"session {session_id!r} is closed")
        self.session_id = session_id


class CapacityError(CoveError):
    """Temporarily unable to take the work; retrying after `retry_after_s` may succeed."""

    def __init__(self, message: str, *, retry_after_s: int) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


class SessionBusyError(CapacityError):
    """Too many calls are already queued on this session."""

    def __init__(self, session_id: str, queued: int, *, retry_after_s: int) -> None:
        super().__init__(
            f"session {session_id!r} already has {queued} calls queued", retry_after_s=retry_after_s
        )
        self.session_id = session_id


class InvalidRequestError(CoveError):
    """The request is malformed: a missing or ill-typed field, or a value out of range."""


class UnknownToolError(InvalidRequestError):
    """A tool kind that this backend does not run."""

    def __init__(self, tool: str) -> None:
        super().__init__(
            f"unknown tool kind {tool!r}; expected code_execution, bash_code_execution "
            "or text_editor_code_execution"
        )
        self.tool = tool


class NotAFileError(InvalidRequestError):
    """A file operation named a directory or a special file."""

    def __init__(self, path: str, what: str = "a directory") -> None:
        super().__init__(f"{path!r} is {what}, not a regular file")
        self.path = path


class PathOutsideWorkspaceError(CoveError):
    """The path is absolute, climbs out with `..`, or crosses a link that leads outside."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"path {path!r} is outside the session workspace: {reason}")
        self.path = path
        self.reason = reason


class WorkspaceFileNotFoundError(CoveError):
    """No such file or directory in the session's workspace."""

    def __init__(self, path: str) -> None:
        super().__init__(f"no such file or directory in the workspace: {path!r}")
        self.path = path


class TooLargeError(CoveError):
    """Over a size cap: `size_bytes` was offered where `limit_bytes` is allowed."""

    def __init__(self, what: str, size_bytes: int, limit_bytes: int) -> None:
        super().__init__(f"{what} is {size_bytes} bytes; the limit is {limit_bytes} bytes")
        self.what = what
        self.size_bytes = size_bytes
        self.limit_bytes = limit_bytes


class PoolClosedError(CoveError):
    """The pool is closed (or closing): it makes and forks no session."""


class InterpreterError(CoveError):
    """The interpreter could not run the call at all (not the guest code failing)."""


class ArtifactError(InterpreterError):
    """The interpreter artifact is missing, unreadable, or does not match its manifest."""

"""A session's workspace on the host: the one path resolver, file operations, and accounting.

Every host-side access to a workspace (list, get, put, and the scans that find changed files)
goes through `Workspace.resolve`. It refuses, each for its own reason:

- absolute paths and NUL bytes,
- `..` components that climb out of the workspace,
- any component that is a symbolic link (the guest can create links pointing anywhere; the host
  never follows one),
- special files (FIFOs, sockets, devices) where a file is expected.

Files are then opened relative to the workspace with O_NOFOLLOW, so a link swapped in after the
check is still not followed. Guest code runs only while the session's lock is held, and file
operations take the same lock, so nothing changes under a check.
"""

from __future__ import annotations

import builtins
import logging
import mimetypes
import os
import pathlib
import stat
import tempfile
import weakref

import msgspec

from ._errors import (
    InvalidRequestError,
    NotAFileError,
    PathOutsideWorkspaceError,
    TooLargeError,
    WorkspaceFileNotFoundError,
)
from ._tools import check_path_length
from ._transfer import Upload, WorkspaceFile, check_new_name
from ._trees import remove_tree, walk
from ._watch import PATH_MAX, Tracker, Watcher, disk_share

__all__ = ["FileInfo", "Usage", "Workspace"]

_log = logging.getLogger("cove")


class FileInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One workspace entry, as ListFiles reports it.

    Attributes:
        path: Relative to the workspace root.
        size_bytes: Size (0 for a directory).
        mime_type: Guessed from the name; None for directories and unknown kinds.
        modified_at: Last modification, POSIX seconds.
        type: "file" or "directory".
    """

    path: str
    size_bytes: int
    mime_type: str | None
    modified_at: float
    type: str = "file"


class Usage(msgspec.Struct, frozen=True):
    """Files and bytes in a workspace; `signatures` maps each file to (mtime_ns, size). From
    `Workspace.usage` (kept by its tracker), `signatures` is valid until the workspace next
    changes; from `Workspace.scan`, it is the walk's own."""

    bytes: int
    files: int
    signatures: dict[str, tuple[int, int]]


def _guess_type(name: str) -> str | None:
    return mimetypes.guess_type(name, strict=False)[0]


class Workspace:
    """The host side of one session's /workspace."""

    def __init__(
        self, root: pathlib.Path, *, max_depth: int = 64, watcher: Watcher | None = None
    ) -> None:
        self.root = root
        # The session's /tmp: beside the workspace (never listed with its files), counted in
        # its quota, removed with it.
        self.tmp: pathlib.Path = root.with_name(root.name + ".tmp")
        self.max_depth = max_depth
        # The usage and signatures of both trees, kept across calls (`_watch`); without a
        # watcher it walks in full each time.
        self.tracker: Tracker = Tracker(watcher, (self.root, self.tmp), walk)
        # Files open for download (`open_file`): a deleted one's bytes are still on the disk,
        # charged to this workspace until the download closes; let go of with the workspace.
        self._downloads: weakref.WeakSet[WorkspaceFile] = weakref.WeakSet()

    def make(self) -> None:
        """Create the (private, empty) workspace and tmp directories."""
        self.root.mkdir(mode=0o700)
        self.tmp.mkdir(mode=0o700)

    @classmethod
    def create(cls, parent: pathlib.Path, name: str, *, max_depth: int = 64) -> Workspace:
        """Make a fresh, private workspace directory `parent/name` (and its tmp directory)."""
        workspace = cls(parent / name, max_depth=max_depth)
        workspace.make()
        return workspace

    def remove(self) -> None:
        """Delete the workspace and everything in it (links are removed, never followed).

        Works at any depth and path length and never raises: what cannot be removed is left
        in place and logged (the pool's directory removal, or the next start, tries again).
        """
        for download in list(self._downloads):
            download.revoke()
        self.tracker.close()
        remove_tree(self.root)
        remove_tree(self.tmp)

    def resolve(self, path: str, *, allow_root: bool = False) -> pathlib.Path:
        """Map a client path to a host path inside the workspace, refusing every escape.

        Raises:
            PathOutsideWorkspaceError: absolute, `..` out, or through a symbolic link.
            WorkspaceFileNotFoundError: an intermediate component does not exist.
            InvalidRequestError: nested deeper than `max_depth` directories, longer than the
                host's PATH_MAX, or not valid Unicode text (a lone surrogate; the surrogate
                escapes of undecodable bytes in listed names are valid).
        """
        check_path_length(path)
        if "\0" in path:
            raise PathOutsideWorkspaceError(path, "NUL byte in path")
        if path.startswith(("/", "\\")) or (len(path) > 1 and path[1] == ":"):
            raise PathOutsideWorkspaceError(path, "absolute paths are not accepted")
        parts: list[str] = []
        for part in path.replace("\\", "/").split("/"):
            if part in ("", "."):
                continue
            if part == "..":
                if not parts:
                    raise PathOutsideWorkspaceError(path, "'..' climbs out of the workspace")
                parts.pop()
                continue
            parts.append(part)
        if not parts and not allow_root:
            raise NotAFileError(path, "the workspace root")
        if len(parts) - 1 > self.max_depth:
            raise InvalidRequestError(
                f"path {path[:200]!r} is nested {len(parts) - 1} directories deep; "
                f"the limit is {self.max_depth}"
            )
        try:
            encoded = os.fsencode(self.root.joinpath(*parts))
        except UnicodeEncodeError:  # a lone surrogate that stands for no byte
            raise InvalidRequestError(f"path {path[:200]!r} is not valid Unicode text") from None
        if len(encoded) >= PATH_MAX:
            raise InvalidRequestError(f"path {path[:200]!r} is too long")
        current = self.root
        for part in parts:
            current = current / part
            try:
                st = current.lstat()
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise WorkspaceFileNotFoundError(path) from exc
            if stat.S_ISLNK(st.st_mode):
                raise PathOutsideWorkspaceError(path, "symbolic links are not followed")
        return current

    def relative(self, host_path: pathlib.Path) -> str:
        return host_path.relative_to(self.root).as_posix()

    def list(self, path: str = ".") -> list[FileInfo]:
        """One directory level below `path`, sorted by name. Links are listed as files of size 0
        and are not followed."""
        target = self.resolve(path, allow_root=True)
        try:
            st = target.lstat()
        except FileNotFoundError:
            raise WorkspaceFileNotFoundError(path) from None
        if not stat.S_ISDIR(st.st_mode):
            raise NotAFileError(path, "not a directory")
        entries: list[FileInfo] = []
        with os.scandir(target) as it:
            for entry in sorted(it, key=lambda e: e.name):
                est = entry.stat(follow_symlinks=False)
                is_dir = stat.S_ISDIR(est.st_mode)
                rel = self.relative(target / entry.name)
                entries.append(
                    FileInfo(
                        path=rel,
                        size_bytes=0 if is_dir or not stat.S_ISREG(est.st_mode) else est.st_size,
                        mime_type=None if is_dir else _guess_type(entry.name),
                        modified_at=est.st_mtime,
                        type="directory" if is_dir else "file",
                    )
                )
        return entries

    def open_regular(self, path: str, target: pathlib.Path) -> int:
        """A read-only descriptor of the regular file at `target` (`resolve(path)`), opened
        `O_NOFOLLOW`.

        Raises:
            WorkspaceFileNotFoundError, PathOutsideWorkspaceError, NotAFileError.
        """
        try:
            fd = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            raise WorkspaceFileNotFoundError(path) from None
        except OSError as exc:  # ELOOP: a link appeared as the last component
            raise PathOutsideWorkspaceError(path, "symbolic links are not followed") from exc
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            raise NotAFileError(
                path, "a directory" if stat.S_ISDIR(st.st_mode) else "a special file"
            )
        return fd

    def read(self, path: str, *, max_bytes: int) -> tuple[bytes, str]:
        """A file's bytes and media type.

        Raises:
            WorkspaceFileNotFoundError, NotAFileError, PathOutsideWorkspaceError, TooLargeError.
        """
        target = self.resolve(path)
        fd = self.open_regular(path, target)
        with os.fdopen(fd, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_bytes:
                raise TooLargeError(f"file {path!r}", size, max_bytes)
            data = f.read(max_bytes + 1)
        if len(data) > max_bytes:
            raise TooLargeError(f"file {path!r}", len(data), max_bytes)
        return data, _guess_type(target.name) or "application/octet-stream"

    def write(
        self, path: str, data: bytes, *, usage: Usage, bytes_limit: int, files_limit: int
    ) -> str:
        """Write `data` to `path` (parents created), atomically; returns the stored relative path.

        Raises:
            TooLargeError: the workspace quota would be exceeded.
            PathOutsideWorkspaceError, NotAFileError, InvalidRequestError (a control character
            in the name).
        """
        check_new_name(path)
        target, rel = self._admit(
            path, len(data), usage=usage, bytes_limit=bytes_limit, files_limit=files_limit
        )
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".cove-upload-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, target)
        except BaseException:
            pathlib.Path(tmp).unlink(missing_ok=True)
            raise
        return rel

    def usage(self) -> Usage:
        """The workspace's usage now (from its tracker: cheap when little changed), with the
        bytes of deleted files that downloads still hold open."""
        tracker = self.tracker
        tracker.refresh()
        held = sum(d.held_bytes() for d in list(self._downloads)) if self._downloads else 0
        return Usage(tracker.bytes + held, tracker.files, tracker.signatures)

    def begin_call(self) -> Usage:
        """The usage before a call; `end_call` then reports what the call changed."""
        usage = self.usage()
        self.tracker.mark()
        return usage

    def end_call(self) -> tuple[Usage, builtins.list[str]]:
        """The usage after a call, and the workspace files it created or changed (sorted):
        the same list as `changed_files` of two full walks."""
        usage = self.usage()
        return usage, self.tracker.changed()

    def scan(self) -> Usage:
        """Every entry below the root and in /tmp, without following links: sizes and counts
        of both (one quota), signatures of the workspace's files.

        Works at any depth and path length (see `_trees.walk`), so nothing the guest builds hides
        from the accounting.
        """
        total = 0
        count = 0
        signatures: dict[str, tuple[int, int]] = {}

        def visit(rel: str, st: os.stat_result, _dir_fd: int, _name: str) -> None:
            nonlocal total, count
            count += 1
            if stat.S_ISREG(st.st_mode):
                total += disk_share(st.st_size, st.st_nlink)
                signatures[rel] = (st.st_mtime_ns, st.st_size)

        def visit_tmp(_rel: str, st: os.stat_result, _dir_fd: int, _name: str) -> None:
            nonlocal total, count
            count += 1
            if stat.S_ISREG(st.st_mode):
                total += disk_share(st.st_size, st.st_nlink)

        walk(self.root, visit)
        walk(self.tmp, visit_tmp)
        return Usage(total, count, signatures)

    def open_file(self, path: str, *, max_bytes: int) -> WorkspaceFile:
        """Open a regular file for reading in pieces (O_NOFOLLOW, through `resolve`).

        Raises:
            WorkspaceFileNotFoundError, NotAFileError, PathOutsideWorkspaceError, TooLargeError.
        """
        target = self.resolve(path)
        fd = self.open_regular(path, target)
        try:
            size = os.fstat(fd).st_size
            if size > max_bytes:
                raise TooLargeError(f"file {path!r}", size, max_bytes)
        except BaseException:
            os.close(fd)
            raise
        download = WorkspaceFile(
            fd,
            path=self.relative(target),
            size_bytes=size,
            media_type=_guess_type(target.name) or "application/octet-stream",
        )
        self._downloads.add(download)
        return download

    def place(
        self, path: str, upload: Upload, *, usage: Usage, bytes_limit: int, files_limit: int
    ) -> str:
        """Move a received upload to `path` (parents created), atomically; returns the stored
        relative path. The same checks as `write`, for bytes that are on disk, not in memory.

        Raises:
            TooLargeError: the workspace quota would be exceeded.
            PathOutsideWorkspaceError, NotAFileError, InvalidRequestError.
        """
        check_new_name(path)
        target, rel = self._admit(
            path, upload.size_bytes, usage=usage, bytes_limit=bytes_limit, files_limit=files_limit
        )
        upload.move_to(target)
        return rel

    def _admit(
        self, path: str, size: int, *, usage: Usage, bytes_limit: int, files_limit: int
    ) -> tuple[pathlib.Path, str]:
        """Check that a file of `size` bytes may be stored at `path`, create its parents and
        re-check the path; returns the host path and the relative path."""
        target = self.resolve(path)
        rel = self.relative(target)
        old = usage.signatures.get(rel)
        new_files = 0 if old else 1
        missing_dirs = 0
        parent = target.parent
        while parent != self.root and not parent.exists():
            missing_dirs += 1
            parent = parent.parent
        grown = usage.bytes - (old[1] if old else 0) + size
        if grown > bytes_limit:
            raise TooLargeError("the workspace", grown, bytes_limit)
        if usage.files + new_files + missing_dirs > files_limit:
            raise TooLargeError(
                "the workspace file count", usage.files + new_files + missing_dirs, files_limit
            )
        if target.is_dir() and not target.is_symlink():
            raise NotAFileError(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        # Re-check after creating parents: nothing on the way may be a link.
        self.resolve(path)
        return target, rel


def changed_files(before: Usage, after: Usage) -> list[str]:
    """Regular files present after a call that were absent or different before it."""
    return sorted(p for p, sig in after.signatures.items() if before.signatures.get(p) != sig)

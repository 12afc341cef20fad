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

import mimetypes
import os
import pathlib
import shutil
import stat
import tempfile

import msgspec

from ._errors import (
    NotAFileError,
    PathOutsideWorkspaceError,
    TooLargeError,
    WorkspaceFileNotFoundError,
)

__all__ = ["FileInfo", "Usage", "Workspace"]


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
    """Files and bytes in a workspace; `signatures` maps each file to (mtime_ns, size)."""

    bytes: int
    files: int
    signatures: dict[str, tuple[int, int]]


def _guess_type(name: str) -> str | None:
    return mimetypes.guess_type(name, strict=False)[0]


class Workspace:
    """The host side of one session's /workspace."""

    def __init__(self, root: pathlib.Path) -> None:
        self.root = root

    @classmethod
    def create(cls, parent: pathlib.Path, name: str) -> Workspace:
        """Make a fresh, private workspace directory `parent/name`."""
        root = parent / name
        root.mkdir(mode=0o700)
        return cls(root)

    def remove(self) -> None:
        """Delete the workspace and everything in it (links are removed, never followed)."""
        shutil.rmtree(self.root, ignore_errors=True)

    def resolve(self, path: str, *, allow_root: bool = False) -> pathlib.Path:
        """Map a client path to a host path inside the workspace, refusing every escape.

        Raises:
            PathOutsideWorkspaceError: absolute, `..` out, or through a symbolic link.
            WorkspaceFileNotFoundError: an intermediate component does not exist.
        """
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

    def _open_regular(self, path: str, target: pathlib.Path) -> int:
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
        fd = self._open_regular(path, target)
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
            PathOutsideWorkspaceError, NotAFileError.
        """
        target = self.resolve(path)
        rel = self.relative(target)
        old = usage.signatures.get(rel)
        new_files = 0 if old else 1
        missing_dirs = 0
        parent = target.parent
        while parent != self.root and not parent.exists():
            missing_dirs += 1
            parent = parent.parent
        grown = usage.bytes - (old[1] if old else 0) + len(data)
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
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".cove-upload-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, target)
        except BaseException:
            pathlib.Path(tmp).unlink(missing_ok=True)
            raise
        return rel

    def scan(self) -> Usage:
        """Every entry below the root, without following links: sizes, counts, signatures."""
        total = 0
        count = 0
        signatures: dict[str, tuple[int, int]] = {}
        stack = [self.root]
        root_len = len(str(self.root)) + 1
        while stack:
            top = stack.pop()
            try:
                it = os.scandir(top)
            except OSError:
                continue
            with it:
                for entry in it:
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    count += 1
                    if stat.S_ISDIR(st.st_mode):
                        stack.append(pathlib.Path(entry.path))
                    elif stat.S_ISREG(st.st_mode):
                        total += st.st_size
                        signatures[entry.path[root_len:]] = (st.st_mtime_ns, st.st_size)
        return Usage(total, count, signatures)


def changed_files(before: Usage, after: Usage) -> list[str]:
    """Regular files present after a call that were absent or different before it."""
    return sorted(p for p, sig in after.signatures.items() if before.signatures.get(p) != sig)

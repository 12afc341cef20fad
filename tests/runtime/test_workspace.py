"""The one path resolver, and the host-side file operations, one test per escape route."""

from __future__ import annotations

import os
import pathlib

import pytest

import cove
from cove._workspace import Usage, Workspace


@pytest.fixture
def ws(tmp_path: pathlib.Path) -> Workspace:
    (tmp_path / "outside.txt").write_text("secret")
    return Workspace.create(tmp_path, "ws")


def empty() -> Usage:
    return Usage(0, 0, {})


def put(
    ws: Workspace, path: str, data: bytes = b"x", *, limit: int = 1 << 20, files: int = 100
) -> str:
    return ws.write(path, data, usage=ws.scan(), bytes_limit=limit, files_limit=files)


@pytest.mark.parametrize("path", ["/etc/passwd", "/", "\\windows", "C:\\x"])
def test_resolver_refuses_absolute_paths(ws: Workspace, path: str) -> None:
    with pytest.raises(cove.PathOutsideWorkspaceError, match="absolute"):
        ws.resolve(path)


@pytest.mark.parametrize(
    "path", ["..", "../outside.txt", "a/../../outside.txt", "./../x", "a\\..\\..\\x"]
)
def test_resolver_refuses_dotdot_escapes(ws: Workspace, path: str) -> None:
    with pytest.raises(cove.PathOutsideWorkspaceError, match=r"\.\."):
        ws.resolve(path)


def test_resolver_allows_dotdot_that_stays_inside(ws: Workspace) -> None:
    assert ws.resolve("a/../b.txt") == ws.root / "b.txt"


def test_resolver_refuses_nul_bytes(ws: Workspace) -> None:
    with pytest.raises(cove.PathOutsideWorkspaceError, match="NUL"):
        ws.resolve("a\0b")


def test_host_file_api_refuses_a_symlink_to_a_host_file(ws: Workspace) -> None:
    os.symlink(ws.root.parent / "outside.txt", ws.root / "link")
    with pytest.raises(cove.PathOutsideWorkspaceError, match="symbolic"):
        ws.read("link", max_bytes=100)
    with pytest.raises(cove.PathOutsideWorkspaceError, match="symbolic"):
        put(ws, "link", b"overwrite")
    assert (ws.root.parent / "outside.txt").read_text() == "secret"


def test_host_file_api_refuses_a_symlinked_directory(ws: Workspace) -> None:
    os.symlink(ws.root.parent, ws.root / "dirlink")
    with pytest.raises(cove.PathOutsideWorkspaceError):
        ws.read("dirlink/outside.txt", max_bytes=100)
    with pytest.raises(cove.PathOutsideWorkspaceError):
        ws.list("dirlink")
    with pytest.raises(cove.PathOutsideWorkspaceError):
        put(ws, "dirlink/new.txt")
    assert not (ws.root.parent / "new.txt").exists()


def test_listing_shows_links_without_following_them(ws: Workspace) -> None:
    os.symlink("/etc", ws.root / "etc")
    (entry,) = ws.list(".")
    assert (entry.path, entry.size_bytes, entry.type) == ("etc", 0, "file")


def test_host_file_api_refuses_special_files(ws: Workspace) -> None:
    os.mkfifo(ws.root / "fifo")
    with pytest.raises(cove.NotAFileError, match="special"):
        ws.read("fifo", max_bytes=100)


def test_reading_a_directory_is_not_a_file(ws: Workspace) -> None:
    (ws.root / "d").mkdir()
    with pytest.raises(cove.NotAFileError):
        ws.read("d", max_bytes=100)
    with pytest.raises(cove.NotAFileError):
        ws.read(".", max_bytes=100)


def test_missing_files_and_directories(ws: Workspace) -> None:
    with pytest.raises(cove.WorkspaceFileNotFoundError):
        ws.read("nope.txt", max_bytes=100)
    with pytest.raises(cove.WorkspaceFileNotFoundError):
        ws.list("nope")


def test_write_creates_parents_and_reads_back_with_a_media_type(ws: Workspace) -> None:
    assert put(ws, "a/b/c.json", b'{"k": 1}') == "a/b/c.json"
    assert ws.read("a/b/c.json", max_bytes=100) == (b'{"k": 1}', "application/json")
    listing = ws.list("a")
    assert [(e.path, e.type) for e in listing] == [("a/b", "directory")]


def test_write_over_the_workspace_quota_is_refused_without_writing(ws: Workspace) -> None:
    with pytest.raises(cove.TooLargeError):
        put(ws, "big", b"x" * 2000, limit=1000)
    assert not (ws.root / "big").exists()
    with pytest.raises(cove.TooLargeError):
        put(ws, "deep/er/file", files=2)


def test_overwriting_counts_only_the_difference(ws: Workspace) -> None:
    put(ws, "f", b"x" * 800, limit=1000)
    put(ws, "f", b"y" * 900, limit=1000)
    assert (ws.root / "f").read_bytes() == b"y" * 900


def test_scan_counts_entries_and_ignores_link_targets(ws: Workspace) -> None:
    put(ws, "d/f", b"12345")
    os.symlink("/etc/passwd", ws.root / "l")
    usage = ws.scan()
    assert (usage.bytes, usage.files) == (5, 3)
    assert set(usage.signatures) == {"d/f"}


def test_remove_does_not_follow_links(ws: Workspace) -> None:
    os.symlink(ws.root.parent, ws.root / "up")
    ws.remove()
    assert (ws.root.parent / "outside.txt").read_text() == "secret"
    assert not ws.root.exists()

"""The workspace tracker (`cove._watch`) against full walks: after each kind of change, made on
the host (the guest's changes are in tests/integration/test_watch_guest.py), the tracker's
usage, signatures and changed files equal what two full walks give. And the tracker does not
walk when it need not (or the point of it is lost)."""

from __future__ import annotations

import os
import pathlib
import shutil
from collections.abc import Callable, Iterator

import pytest

from cove import _watch
from cove._workspace import Usage, Workspace, changed_files


@pytest.fixture
def watcher() -> Iterator[_watch.Watcher]:
    w = _watch.Watcher()
    if w.fd is None:
        pytest.skip("no inotify on this system")
    yield w
    w.close()


@pytest.fixture
def ws(tmp_path: pathlib.Path, watcher: _watch.Watcher) -> Iterator[Workspace]:
    workspace = Workspace(tmp_path / "ws", watcher=watcher)
    workspace.make()
    (workspace.root / "keep.txt").write_text("kept")
    (workspace.root / "d").mkdir()
    (workspace.root / "d" / "inner.txt").write_text("inner")
    (workspace.tmp / "t.bin").write_bytes(b"t" * 100)
    yield workspace
    workspace.remove()


def check(ws: Workspace, change: Callable[[pathlib.Path], None]) -> list[str]:
    """Run `change` between begin_call and end_call; assert the tracker agrees with full walks;
    return the changed files."""
    ws.begin_call()
    full_before = ws.scan()
    change(ws.root)
    usage, changed = ws.end_call()
    full_after = ws.scan()
    assert (usage.bytes, usage.files) == (full_after.bytes, full_after.files)
    assert dict(usage.signatures) == full_after.signatures
    assert changed == changed_files(full_before, full_after)
    return changed


def test_a_modification_is_found_without_a_walk(ws: Workspace) -> None:
    ws.usage()  # the first use walks (and watches)
    walks = ws.tracker.walks

    def append(root: pathlib.Path) -> None:
        with open(root / "d" / "inner.txt", "a") as f:
            f.write("more")

    assert check(ws, append) == ["d/inner.txt"]
    assert check(ws, lambda root: None) == []
    assert ws.tracker.walks == walks


def _write(rel: str, data: bytes = b"x") -> Callable[[pathlib.Path], None]:
    def change(root: pathlib.Path) -> None:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)

    return change


def _truncate(root: pathlib.Path) -> None:
    os.truncate(root / "keep.txt", 1)


def _utime(root: pathlib.Path) -> None:
    os.utime(root / "keep.txt", ns=(1, 1_000_000_000))


def _rename_file(root: pathlib.Path) -> None:
    os.rename(root / "keep.txt", root / "d" / "moved.txt")


def _rename_dir(root: pathlib.Path) -> None:
    os.rename(root / "d", root / "e")
    (root / "e" / "new.txt").write_text("after the rename")


def _rename_dir_then_remake(root: pathlib.Path) -> None:
    os.rename(root / "d", root / "e")
    (root / "d").mkdir()
    (root / "d" / "inner.txt").write_text("a different inner")


def _rmtree(root: pathlib.Path) -> None:
    shutil.rmtree(root / "d")


def _remove_and_recreate_dir(root: pathlib.Path) -> None:
    shutil.rmtree(root / "d")
    (root / "d" / "x").mkdir(parents=True)
    (root / "d" / "x" / "deep.txt").write_text("deep")
    (root / "d" / "inner.txt").write_text("inner")  # same name and size as before


def _deep_new_tree(root: pathlib.Path) -> None:
    path = root
    for i in range(30):
        path = path / f"level{i}"
    path.mkdir(parents=True)
    (path / "bottom.txt").write_text("bottom")


def _file_becomes_dir(root: pathlib.Path) -> None:
    (root / "keep.txt").unlink()
    (root / "keep.txt").mkdir()
    (root / "keep.txt" / "child").write_text("child")


def _dir_becomes_file(root: pathlib.Path) -> None:
    shutil.rmtree(root / "d")
    (root / "d").write_text("now a file")


def _symlinks(root: pathlib.Path) -> None:
    os.symlink("/etc", root / "etc-link")
    os.symlink("d", root / "d-link")
    (root / "d-link" / "through.txt").write_text("written through a link")


def _dir_swapped_for_link(root: pathlib.Path) -> None:
    outside = root.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "inner.txt").write_text("outside, never counted")
    shutil.rmtree(root / "d")
    os.symlink(outside, root / "d")


def _hard_link(root: pathlib.Path) -> None:
    os.link(root / "keep.txt", root / "d" / "linked.txt")


def _tmp_only(root: pathlib.Path) -> None:
    tmp = root.with_name(root.name + ".tmp")
    (tmp / "scratch").mkdir()
    (tmp / "scratch" / "a").write_bytes(b"a" * 1000)
    (tmp / "t.bin").unlink()


def _replace_over(root: pathlib.Path) -> None:
    (root / "new.txt").write_text("replacement")
    os.replace(root / "new.txt", root / "keep.txt")


def _many(root: pathlib.Path) -> None:
    for i in range(300):
        (root / f"many{i}.txt").write_text(str(i))


def _unchanged_rewrite(root: pathlib.Path) -> None:
    st = os.stat(root / "keep.txt")
    (root / "keep.txt").write_text("kept")
    os.utime(root / "keep.txt", ns=(st.st_atime_ns, st.st_mtime_ns))


CHANGES = {
    "create": _write("new.txt"),
    "create in a new nested dir": _write("a/b/c/new.txt", b"nested"),
    "overwrite": _write("keep.txt", b"different"),
    "truncate": _truncate,
    "utime": _utime,
    "rename a file": _rename_file,
    "rename a dir": _rename_dir,
    "rename a dir and remake it": _rename_dir_then_remake,
    "rmtree": _rmtree,
    "remove and recreate a dir": _remove_and_recreate_dir,
    "a deep new tree": _deep_new_tree,
    "a file becomes a dir": _file_becomes_dir,
    "a dir becomes a file": _dir_becomes_file,
    "symlinks": _symlinks,
    "a dir swapped for a link": _dir_swapped_for_link,
    "a hard link": _hard_link,
    "tmp only": _tmp_only,
    "replace over": _replace_over,
    "300 files": _many,
    "rewritten, same signature": _unchanged_rewrite,
}


@pytest.mark.parametrize("name", list(CHANGES))
def test_each_kind_of_change_matches_full_walks(ws: Workspace, name: str) -> None:
    ws.usage()
    check(ws, CHANGES[name])
    # And the state it leaves is tracked correctly from there on.
    check(ws, _write("after.txt", b"after"))
    check(ws, _write("after.txt", b"after, longer"))


def test_changes_between_calls_are_not_reported_by_the_next(ws: Workspace) -> None:
    """A host-side write (PutFile) between calls is in the usage, not in the next call's list."""
    ws.usage()
    _write("put.txt", b"put by the host")(ws.root)
    assert check(ws, lambda root: None) == []


def test_a_change_made_and_undone_within_a_call_is_not_reported(ws: Workspace) -> None:
    def made_and_undone(root: pathlib.Path) -> None:
        (root / "gone.txt").write_text("briefly")
        ws.usage()  # as a nested `python` asks mid-call
        (root / "gone.txt").unlink()

    assert check(ws, made_and_undone) == []


def test_a_change_seen_mid_call_is_still_reported(ws: Workspace) -> None:
    def nested(root: pathlib.Path) -> None:
        (root / "by-nested.txt").write_text("nested python wrote this")
        ws.usage()

    assert check(ws, nested) == ["by-nested.txt"]


def test_hard_links_fall_back_to_full_walks(ws: Workspace) -> None:
    """A change through one name of a linked file is reported to that name's directory only:
    while such a file exists, every refresh walks in full."""
    ws.usage()
    os.link(ws.root / "keep.txt", ws.root / "d" / "linked.txt")
    ws.usage()
    walks = ws.tracker.walks

    def through_the_other_name(root: pathlib.Path) -> None:
        with open(root / "d" / "linked.txt", "a") as f:
            f.write("changed through the second name")

    assert check(ws, through_the_other_name) == ["d/linked.txt", "keep.txt"]
    assert ws.tracker.walks > walks


def test_a_renamed_dir_makes_one_walk_then_tracking_resumes(ws: Workspace) -> None:
    ws.usage()
    walks = ws.tracker.walks
    check(ws, _rename_dir)
    assert ws.tracker.walks == walks + 1
    check(ws, _write("e/later.txt", b"later"))
    assert ws.tracker.walks == walks + 1


def test_every_rescan_every_calls_it_walks_anyway(ws: Workspace) -> None:
    ws.usage()
    walks = ws.tracker.walks
    for _ in range(_watch.RESCAN_EVERY):
        ws.begin_call()
        ws.end_call()
    assert ws.tracker.walks == walks + 1


def test_a_queue_overflow_makes_every_tracked_workspace_walk(
    ws: Workspace, watcher: _watch.Watcher, tmp_path: pathlib.Path
) -> None:
    other = Workspace(tmp_path / "other", watcher=watcher)
    other.make()
    try:
        ws.usage()
        other.usage()
        walks = ws.tracker.walks
        limit = int(pathlib.Path("/proc/sys/fs/inotify/max_queued_events").read_text())
        if limit > 50_000:
            pytest.skip(f"max_queued_events is {limit}: too many files to overflow it")
        ws.begin_call()
        before = ws.scan()
        for i in range(limit + 100):
            (other.root / f"f{i}").touch()
        (ws.root / "keep.txt").write_text("changed while the queue overflowed")
        _, changed = ws.end_call()
        assert changed == changed_files(before, ws.scan()) == ["keep.txt"]
        assert ws.tracker.walks == walks + 1
        assert other.usage().files == limit + 100
    finally:
        other.remove()


def test_without_inotify_it_walks_in_full(tmp_path: pathlib.Path) -> None:
    ws = Workspace(tmp_path / "plain")  # no watcher
    ws.make()
    ws.usage()
    check(ws, _write("a/b.txt", b"b"))
    assert ws.tracker.walks == 3


def test_a_refused_watch_falls_back_to_full_walks(
    ws: Workspace, watcher: _watch.Watcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The per-user watch limit (ENOSPC) reached: the workspace is walked in full, still right."""
    ws.usage()
    monkeypatch.setattr(watcher, "watch", lambda *args: False)
    check(ws, _write("fresh/dir/file.txt", b"under a directory that cannot be watched"))
    assert ws.tracker.broken
    walks = ws.tracker.walks
    check(ws, _write("fresh/dir/file.txt", b"changed again"))
    assert ws.tracker.walks > walks


def test_a_closed_workspace_drops_its_watches(ws: Workspace, watcher: _watch.Watcher) -> None:
    ws.usage()
    assert ws.tracker.wds
    ws.tracker.close()
    assert not ws.tracker.wds
    assert not any(t is ws.tracker for t, _, _ in watcher._watches.values())


def test_usage_is_a_usage(ws: Workspace) -> None:
    assert isinstance(ws.usage(), Usage)


def test_a_new_directory_past_path_max(ws: Workspace) -> None:
    """A directory made where its host path is longer than PATH_MAX: the walk of its subtree
    cannot start from that path, so the whole tree is walked (by descriptors) instead."""

    def descend(root: pathlib.Path) -> int:
        fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
        for _ in range(25):
            try:
                os.mkdir("n" * 200, dir_fd=fd)
            except FileExistsError:
                pass
            child = os.open("n" * 200, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = child
        return fd

    def deep_tree(root: pathlib.Path) -> None:
        os.close(descend(root))

    def new_dir_at_the_bottom(root: pathlib.Path) -> None:
        fd = descend(root)
        try:
            os.mkdir("fresh", dir_fd=fd)
            inner = os.open("fresh", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            try:
                made = os.open("f", os.O_WRONLY | os.O_CREAT, 0o600, dir_fd=inner)
                os.write(made, b"x" * 100)
                os.close(made)
            finally:
                os.close(inner)
        finally:
            os.close(fd)

    ws.usage()
    check(ws, deep_tree)
    assert len(check(ws, new_dir_at_the_bottom)) == 1

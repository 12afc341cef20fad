"""Whole trees on the host (`cove._trees`): a fork's copy keeps bytes, times, links as links and
hard links as one file, whichever way the kernel copies the bytes."""

from __future__ import annotations

import errno
import os
import pathlib

import pytest

from cove import _trees


@pytest.mark.parametrize("kernel", ["copy_file_range", "sendfile"])
def test_a_copy_keeps_bytes_times_and_links(
    tmp_path: pathlib.Path, kernel: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if kernel == "sendfile":

        def refused(*_args: object) -> int:
            raise OSError(errno.EXDEV, "across file systems")

        monkeypatch.setattr(os, "copy_file_range", refused)
    source = tmp_path / "source"
    (source / "sub").mkdir(parents=True)
    data = os.urandom(300_000)
    (source / "sub" / "big").write_bytes(data)
    os.utime(source / "sub" / "big", ns=(1_000_000_000, 2_000_000_000))
    os.link(source / "sub" / "big", source / "again")
    (source / "empty").write_bytes(b"")
    (source / "link").symlink_to("/etc/passwd")
    copy = _trees.TreeCopy(1 << 20)
    copy.copy(source, tmp_path / "copy")
    target = tmp_path / "copy"
    assert (target / "sub" / "big").read_bytes() == data
    assert (target / "sub" / "big").stat().st_mtime_ns == 2_000_000_000
    assert (target / "again").stat().st_ino == (target / "sub" / "big").stat().st_ino
    assert (target / "empty").read_bytes() == b""
    assert os.readlink(target / "link") == "/etc/passwd"
    assert copy.bytes == len(data)


def test_a_copy_stops_at_its_quota(tmp_path: pathlib.Path) -> None:
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "f").write_bytes(b"x" * 100)
    with pytest.raises(OSError, match="quota") as raised:
        _trees.TreeCopy(99).copy(tmp_path / "source", tmp_path / "copy")
    assert raised.value.errno == errno.EDQUOT

"""cove_guest.sandbox.memory_map: `mmap` by copying (WebAssembly has no memory mapping).

Natively, against real files, numpy and pandas: the stand-in is plain Python, and numpy's
memmap and pandas' memory_map=True use it exactly as they use the real module.
"""

from __future__ import annotations

import errno
import pathlib

import numpy
import pandas
import pytest

from cove_guest.sandbox import memory_map

mmap = memory_map.module()


@pytest.fixture
def data_file(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "data.bin"
    path.write_bytes(b"first line\nsecond line\nthird")
    return path


def test_a_read_only_map_is_a_copy_with_mmaps_methods(data_file: pathlib.Path) -> None:
    with data_file.open("rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    assert isinstance(m, mmap.mmap)
    assert m.size() == len(m) == 28 and m[:5] == b"first"
    assert m.readline() == b"first line\n" and m.tell() == 11
    assert m.read(6) == b"second" and m.find(b"third") == 23
    m.seek(-5, 2)
    assert m.read() == b"third" and m.read() == b""
    with pytest.raises(TypeError):
        m[0] = 0  # type: ignore[index]
    with data_file.open("rb") as f:
        assert mmap.mmap(f.fileno(), 6, access=mmap.ACCESS_READ, offset=11) == b"second"


def test_a_copy_on_write_map_changes_only_the_copy(data_file: pathlib.Path) -> None:
    with data_file.open("rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_COPY)
    assert isinstance(m, mmap.mmap)
    m.write(b"FIRST")
    assert m[:5] == b"FIRST" and data_file.read_bytes().startswith(b"first")


def test_anonymous_memory_is_zeroed_and_writable() -> None:
    m = mmap.mmap(-1, 4096)
    assert len(m) == 4096 and m[:4] == b"\0\0\0\0"
    m[0:2] = b"ok"
    assert m[:2] == b"ok"


def test_a_writable_map_writes_its_copy_back_to_the_named_file(data_file: pathlib.Path) -> None:
    with data_file.open("r+b") as f:
        m = mmap.mmap(f.fileno(), 6, access=mmap.ACCESS_WRITE, offset=11, path=str(data_file))
    m[:] = b"SECOND"
    assert data_file.read_bytes() == b"first line\nsecond line\nthird"
    m.flush()
    assert data_file.read_bytes() == b"first line\nSECOND line\nthird"
    m[:3] = b"sec"
    del m  # freed: written back, as a real map's pages are
    assert data_file.read_bytes() == b"first line\nsecOND line\nthird"


def test_a_writable_map_of_a_bare_descriptor_says_why(data_file: pathlib.Path) -> None:
    with data_file.open("r+b") as f:
        for access in (mmap.ACCESS_DEFAULT, mmap.ACCESS_WRITE):
            with pytest.raises(OSError, match="writable memory maps of a descriptor") as info:
                mmap.mmap(f.fileno(), 0, access=access)
            assert info.value.errno == errno.ENOTSUP


def test_bad_lengths_fail_as_natively(data_file: pathlib.Path, tmp_path: pathlib.Path) -> None:
    with data_file.open("rb") as f, pytest.raises(ValueError, match="greater than file size"):
        mmap.mmap(f.fileno(), 100, access=mmap.ACCESS_READ)
    (tmp_path / "empty").write_bytes(b"")
    with (tmp_path / "empty").open("rb") as f, pytest.raises(ValueError, match="empty file"):
        mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def test_numpy_and_pandas_use_it_as_the_real_module(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(__import__("sys").modules, "mmap", mmap)
    path = tmp_path / "a.npy"
    numpy.save(path, numpy.arange(6.0))
    r = numpy.load(path, mmap_mode="r")
    assert r.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0] and not r.flags.writeable
    c = numpy.load(path, mmap_mode="c")
    c[0] = 9.0
    assert numpy.load(path)[0] == 0.0
    # numpy's memmap passes the path only with Cove's patch (numpy/0007, in the guest)
    with pytest.raises(OSError, match="writable memory maps"):
        numpy.load(path, mmap_mode="r+")
    csv = tmp_path / "t.csv"
    csv.write_text("a,b\n1,2\n3,4\n")
    assert pandas.read_csv(csv, memory_map=True).a.tolist() == [1, 3]

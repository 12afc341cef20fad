"""python-wasm/cross's check of a C library's archives (cross/signatures.py): every member linked,
and a call whose signature differs from its callee's fails the library's install. The compiles
need clang-19 with wasi-libc and lld-19 (build.sh step toolchain)."""

from __future__ import annotations

import pathlib
import shutil
import subprocess

import pytest

from tests.support.recipes import PYTHON_WASM  # noqa: F401  (puts python-wasm on sys.path)

from cross import signatures  # isort: skip  (on sys.path through tests.support)

LLVM = pathlib.Path("/usr/lib/llvm-19/bin")
pytestmark = pytest.mark.skipif(
    not (
        (LLVM / "clang").is_file()
        and (LLVM / "wasm-ld").is_file()
        and shutil.which("llvm-ar-19")
        and pathlib.Path("/usr/include/wasm32-wasi/stdio.h").is_file()
    ),
    reason="clang-19, lld-19, llvm-ar-19 and wasi-libc (build.sh step toolchain)",
)

# f2c's convention against OpenBLAS's, as lapack-netlib had them: the callee returns int, the
# caller declares it void (the check must also see a call no other member references)
CALLEE = "int dgetrf_(int *m, int *n) { return *m + *n; }\n"
CALLER_AGREES = "int dgetrf_(int *m, int *n);\nint solve(int *m) { return dgetrf_(m, m); }\n"
CALLER_DISAGREES = "void dgetrf_(int *m, int *n);\nvoid solve(int *m) { dgetrf_(m, m); }\n"


def archive(tmp: pathlib.Path, name: str, *sources: str) -> pathlib.Path:
    objects = []
    for i, text in enumerate(sources):
        c = tmp / f"{name}{i}.c"
        c.write_text(text)
        obj = c.with_suffix(".o")
        subprocess.run(
            [str(LLVM / "clang"), "--target=wasm32-wasi", "-O2", "-c", str(c), "-o", str(obj)],
            check=True,
        )
        objects.append(str(obj))
    out = tmp / f"lib{name}.a"
    subprocess.run(["llvm-ar-19", "rcs", str(out), *objects], check=True)
    return out


def test_an_archive_whose_calls_agree_passes(tmp_path: pathlib.Path) -> None:
    signatures.check(LLVM, archive(tmp_path, "good", CALLEE, CALLER_AGREES))


def test_a_call_through_another_signature_fails_with_the_linker_s_report(
    tmp_path: pathlib.Path,
) -> None:
    bad = archive(tmp_path, "bad", CALLEE, CALLER_DISAGREES)
    with pytest.raises(signatures.SignatureMismatch, match=r"libbad\.a.*\n(.|\n)*dgetrf_"):
        signatures.check(LLVM, bad)


def test_undefined_symbols_are_other_libraries_and_pass(tmp_path: pathlib.Path) -> None:
    # a member calling what no member defines (libc's, BLAS's from another archive) is fine
    signatures.check(
        LLVM, archive(tmp_path, "open", "void dgemm_(int *);\nvoid f(int *n) { dgemm_(n); }\n")
    )


def test_only_archives_new_or_rewritten_by_the_install_are_checked(
    tmp_path: pathlib.Path,
) -> None:
    class Tc:  # what check_installed reads of a Toolchain: its W/deps and LLVM
        deps = tmp_path / "deps"
        llvm = LLVM

    lib = Tc.deps / "usr" / "lib"
    lib.mkdir(parents=True)
    shutil.copy(archive(tmp_path, "old", CALLEE, CALLER_DISAGREES), lib / "libold.a")
    before = signatures.archives(Tc)  # type: ignore[arg-type]
    shutil.copy(archive(tmp_path, "new", CALLEE, CALLER_AGREES), lib / "libnew.a")
    checked = signatures.check_installed(Tc, before)  # type: ignore[arg-type]
    assert checked == [lib / "libnew.a"]
    shutil.copy(archive(tmp_path, "new2", CALLEE, CALLER_DISAGREES), lib / "libnew.a")
    with pytest.raises(signatures.SignatureMismatch):
        signatures.check_installed(Tc, before)  # type: ignore[arg-type]

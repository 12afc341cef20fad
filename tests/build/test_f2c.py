"""python-wasm/cross's Fortran compiler, wasi-f77 (f2c posing as GNU Fortran, cross/f2c/): the
calling convention of what it compiles (the signatures wasm-ld and the engine check against the
C that calls Fortran: f2py's wrappers, OpenBLAS's LAPACK), its Fortran 90 rewrites, the options
it takes, refuses and drops, its link, and its place in the cross files and the toolchain pins.
The compiles need Debian's f2c and clang-19 with wasi-libc (build.sh step toolchain)."""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess

import pytest

from tests.support.recipes import PYTHON_WASM, RECIPES, versions

from cross.f2c import f77prep, wasi_f77  # isort: skip  (on sys.path through tests.support)
from cross.toolchain import Toolchain  # isort: skip

WASI_F77 = PYTHON_WASM / "cross" / "wasi-f77"
F2C = shutil.which("f2c")
CLANG = shutil.which("clang-19")
AR = shutil.which("llvm-ar-19")
NM = shutil.which("llvm-nm-19")
OBJDUMP = shutil.which("wasm-objdump")
WASI_LIBC = pathlib.Path("/usr/include/wasm32-wasi/stdio.h").is_file()
needs_f2c = pytest.mark.skipif(
    not (F2C and CLANG and AR and WASI_LIBC),
    reason="f2c, clang-19, llvm-ar-19 and wasi-libc (build.sh step toolchain)",
)
needs_objdump = pytest.mark.skipif(
    not (NM and OBJDUMP), reason="llvm-nm-19 and wabt's wasm-objdump, to read the signatures"
)

SOURCE = """\
      REAL FUNCTION SFUN(X)
      REAL X
      SFUN = X * 2.0
      END
      DOUBLE PRECISION FUNCTION DFUN(X)
      DOUBLE PRECISION X
      DFUN = X + 0.5D0
      END
      COMPLEX FUNCTION CFUN(Z)
      COMPLEX Z
      CFUN = Z * (0.0, 1.0)
      END
      LOGICAL FUNCTION LFUN(N)
      INTEGER N
      LFUN = N .GT. 0
      END
      SUBROUTINE SUB(N, A, NAME)
      INTEGER N
      DOUBLE PRECISION A(N)
      CHARACTER*(*) NAME
      INTEGER I
      IF (NAME(1:1) .NE. 'X') RETURN
      DO 10 I = 1, N
         A(I) = A(I) + 1.0D0
   10 CONTINUE
      END
      SUBROUTINE CALLS(F, X)
      EXTERNAL F
      DOUBLE PRECISION X
      CALL F(X)
      END
"""

RECURSIVE = """\
      RECURSIVE INTEGER FUNCTION FACT(N)
     &    RESULT(R)
      INTEGER N
      IF (N .LE. 1) THEN
         R = 1
      ELSE
         R = N * FACT(N - 1)
      END IF
      END
      RECURSIVE SUBROUTINE DOWN(N)
      INTEGER N
      IF (N .GT. 0) CALL DOWN(N - 1)
      END
"""


def _env(deps: pathlib.Path | None = None) -> dict[str, str]:
    # Debian's wasi-libc is under /usr (include/wasm32-wasi, lib/wasm32-wasi): a sysroot for
    # compiles that the work directory's private one is a copy of
    env = {**os.environ, "WASI_SYSROOT": "/usr", "WASI_LLVM": "/usr/lib/llvm-19/bin"}
    if deps is not None:
        env["WASI_DEPS"] = str(deps)
    return env


def _f77(
    *args: str | os.PathLike[str], cwd: pathlib.Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(WASI_F77), *map(str, args)],
        cwd=cwd,
        env=env or _env(),
        capture_output=True,
        text=True,
        check=False,
    )


def _compile(tmp: pathlib.Path, name: str, source: str, *flags: str) -> pathlib.Path:
    (tmp / f"{name}.f").write_text(source)
    done = _f77("-O2", *flags, "-c", f"{name}.f", "-o", f"{name}.o", cwd=tmp)
    assert done.returncode == 0, done.stderr
    return tmp / f"{name}.o"


def _signatures(obj: pathlib.Path) -> dict[str, str]:
    """The functions an object defines, with their WebAssembly types: `(i32, i32) -> nil`."""
    assert OBJDUMP
    dump = subprocess.run(
        [OBJDUMP, "-x", str(obj)], capture_output=True, text=True, check=True
    ).stdout
    types = dict(re.findall(r"- type\[(\d+)\] (\(.*?\) -> \S+)", dump))
    functions = dump.split("\nFunction[")[1].split("\nCode[")[0] if "\nFunction[" in dump else ""
    return {name: types[sig] for sig, name in re.findall(r"sig=(\d+) <([^>]+)>", functions)}


@needs_f2c
@needs_objdump
def test_the_calling_convention_is_gfortran_s(tmp_path: pathlib.Path) -> None:
    obj = _compile(tmp_path, "conv", SOURCE)
    assert _signatures(obj) == {
        "sfun_": "(i32) -> f32",  # -R: a REAL function returns float, not double
        "dfun_": "(i32) -> f64",
        "cfun_": "(i32, i32) -> nil",  # COMPLEX: the result through a first pointer
        "lfun_": "(i32) -> i32",
        "sub_": "(i32, i32, i32, i32) -> nil",  # void; NAME's length last, hidden
        "calls_": "(i32, i32) -> nil",
    }
    # the names gfortran gives them (lower case, one underscore), defined and exported
    assert NM
    names = subprocess.run([NM, str(obj)], capture_output=True, text=True, check=True).stdout
    assert {"T sfun_", "T cfun_", "T sub_", "T calls_"} <= {
        line.split(" ", 1)[1] for line in names.splitlines() if " T " in line
    }


@needs_f2c
def test_a_subroutine_returns_nothing_and_an_alternate_return_is_refused(
    tmp_path: pathlib.Path,
) -> None:
    (tmp_path / "sub.f").write_text(SOURCE)
    kept = _f77("-c", "sub.f", "-o", "sub.o", cwd=tmp_path, env={**_env(), "WASI_F77_KEEP": "1"})
    assert kept.returncode == 0, kept.stderr
    c = (tmp_path / "sub.o.f2c" / "sub.c").read_text()
    assert "/* Subroutine */ void sub_(integer *n, doublereal *a, char *name__, ftnlen" in c
    body = c.split("void sub_(")[1].split("} /* sub_ */")[0]
    assert "return;" in body and "return 0;" not in body
    # without WASI_F77_KEEP, f2c's files go
    _compile(tmp_path, "gone", SOURCE)
    assert not (tmp_path / "gone.o.f2c").exists()
    (tmp_path / "alt.f").write_text(
        "      SUBROUTINE ALT(N, *)\n      INTEGER N\n      IF (N .GT. 0) RETURN 1\n      END\n"
    )
    refused = _f77("-c", "alt.f", "-o", "alt.o", cwd=tmp_path)
    assert refused.returncode == 1
    assert "wasi-f77: an alternate RETURN" in refused.stderr


def test_postprocess_leaves_functions_alone() -> None:
    c = (
        "/* Subroutine */ int s_(integer *n)\n{\n    if (*n) {\n\treturn 0;\n    }\n"
        "    return 0;\n} /* s_ */\n\n"
        "integer f_(integer *n)\n{\n    return 0;\n} /* f_ */\n"
        "extern /* Subroutine */ int other_(integer *);\n"
    )
    out = wasi_f77.postprocess(c)
    assert out.count("return;") == 2
    assert "integer f_(integer *n)\n{\n    return 0;" in out
    assert "extern /* Subroutine */ void other_(integer *);" in out


def test_recursive_and_result_are_rewritten_for_f2c() -> None:
    out = f77prep.prep(RECURSIVE + "      DOUBLE PRECISION :: A, B\n")
    assert "RECURSIVE" not in out.upper()
    assert "RESULT" not in out.upper()
    # R is FACT's value, up to the next unit; a comment line is left as it is
    assert "         FACT = N * FACT(N - 1)" in out
    assert "      DOUBLE PRECISION A, B" in out
    assert f77prep.prep("C     RECURSIVE in a comment\n") == "C     RECURSIVE in a comment\n"
    # meson's free-form probes
    assert f77prep.rewrite("program x; print *, 1; end program x\n", free=True) == (
        "      program x\n      print *, 1\n      end\n"
    )


@needs_f2c
@needs_objdump
def test_a_recursive_function_compiles_and_calls_itself(tmp_path: pathlib.Path) -> None:
    obj = _compile(tmp_path, "rec", RECURSIVE)
    assert _signatures(obj) == {"fact_": "(i32) -> i32", "down_": "(i32) -> nil"}
    assert CLANG
    dump = subprocess.run(
        [OBJDUMP or "wasm-objdump", "-d", str(obj)], capture_output=True, text=True, check=True
    ).stdout
    fact = dump.split("<fact_>:")[1].split(">:")[0]
    assert "call" in fact and "<fact_>" in fact  # -a: a real recursive call, locals automatic


@needs_f2c
def test_options_gfortran_takes_are_taken_dropped_or_refused(tmp_path: pathlib.Path) -> None:
    version = _f77("--version", cwd=tmp_path)
    assert version.stdout.startswith("GNU Fortran (f2c 20200916 for wasm32-wasi")
    assert _f77("-dumpversion", cwd=tmp_path).stdout.strip() == "12.2.0"
    defines = _f77("-E", "-dM", "-", cwd=tmp_path).stdout
    assert "#define __GFORTRAN__ 1" in defines and "#define __GNUC__ 12" in defines
    assert "#define __wasm32__ 1" in defines
    # meson adds the gfortran library directories to a C linker's line: none
    assert "libraries: =\n" in _f77("-print-search-dirs", cwd=tmp_path).stdout
    # -W..., -std=legacy, -J: gfortran's, dropped (meson's probes of them all say yes)
    _compile(tmp_path, "w", SOURCE, "-Wno-conversion", "-std=legacy", "-Jmods", "-cpp")
    (tmp_path / "i8.f").write_text(SOURCE)
    refused = _f77("-fdefault-integer-8", "-c", "i8.f", "-o", "i8.o", cwd=tmp_path)
    assert refused.returncode == 1 and "-fdefault-integer-8: f2c cannot" in refused.stderr
    # f2c's refusal of what is not Fortran 77 reaches the build's log
    (tmp_path / "f90.f").write_text("      MODULE M\n      END MODULE M\n")
    failed = _f77("-c", "f90.f", "-o", "f90.o", cwd=tmp_path)
    assert failed.returncode == 1 and "wasi-f77: f2c failed on f90.f" in failed.stderr


@needs_f2c
def test_a_preprocessed_source_gets_the_defines(tmp_path: pathlib.Path) -> None:
    (tmp_path / "pp.F").write_text(
        "      SUBROUTINE PP(X)\n      DOUBLE PRECISION X\n#ifdef TWICE\n"
        "      X = 2 * X\n#endif\n      END\n"
    )
    done = _f77(
        "-DTWICE", "-c", "pp.F", "-o", "pp.o", cwd=tmp_path, env={**_env(), "WASI_F77_KEEP": "1"}
    )
    assert done.returncode == 0, done.stderr
    assert "*x *= 2;" in (tmp_path / "pp.o.f2c" / "pp.c").read_text()
    done = _f77("-c", "pp.F", "-o", "pp.o", cwd=tmp_path, env={**_env(), "WASI_F77_KEEP": "1"})
    assert done.returncode == 0, done.stderr
    assert "*x *= 2;" not in (tmp_path / "pp.o.f2c" / "pp.c").read_text()


@needs_f2c
def test_a_module_s_link_lists_libf2c_by_path_and_no_gnu_runtime(tmp_path: pathlib.Path) -> None:
    assert AR
    deps = tmp_path / "deps"
    lib = deps / "usr" / "lib"
    lib.mkdir(parents=True)
    obj = _compile(tmp_path, "mod", SOURCE)
    # without libf2c installed, the link says which recipe is missing
    missing = _f77("-shared", str(obj), "-o", "m.so", cwd=tmp_path, env=_env(deps))
    assert missing.returncode == 1 and "the recipe must require libf2c" in missing.stderr
    for name in ("libf2c.a", "libf2cmain.a"):
        subprocess.run([AR, "rcs", str(lib / name)], check=True)
    so = tmp_path / "m.cpython-311-wasm32-wasi.so"
    done = _f77(
        "-shared", str(obj), "libother.a", "-lgfortran", "-lm", "-o", so, cwd=tmp_path,
        env=_env(deps),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # wasi-cc's module archive, and the link inputs beside it: libf2c's archive by path
    assert so.read_bytes().startswith(b"!<arch>\n")
    assert pathlib.Path(f"{so}.link").read_text().splitlines() == [
        "libother.a",
        "-lm",
        str(lib / "libf2c.a"),
    ]
    # a module with C and Fortran that meson links with the C linker gets GNU Fortran's runtime
    # (-lgfortran) on wasi-cc's line: libf2c's archive, the same
    c_linked = subprocess.run(
        [str(PYTHON_WASM / "cross" / "wasi-cc"), "-shared", str(obj), "-lgfortran", "-lquadmath",
         "-lm", "-o", str(so)],
        env=_env(deps), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert c_linked.returncode == 0, c_linked.stderr
    assert pathlib.Path(f"{so}.link").read_text().splitlines() == [str(lib / "libf2c.a"), "-lm"]


def test_meson_s_cross_file_names_wasi_f77_with_the_c_flags(tmp_path: pathlib.Path) -> None:
    tc = Toolchain(tmp_path, tmp_path)
    tc.bin.mkdir()
    recipe = RECIPES["numpy"]
    text = tc.write_wrappers(recipe, []).read_text()
    assert f"fortran = '{tc.bin}/wasi-f77'\n" in text
    c_args = re.search(r"^c_args = (.*)$", text, re.M)
    assert c_args and f"fortran_args = {c_args[1]}\n" in text
    assert "fortran_link_args = [" in text
    # wasi-f77 finds wasi-cc beside it, its f2c/ and, through WASI_DEPS, libf2c
    tc.wrappers()
    assert {p.name for p in tc.bin.iterdir()} >= {"wasi-cc", "wasi-c++", "wasi-f77", "f2c"}
    assert (tc.bin / "f2c" / "f2c.h").is_file() and (tc.bin / "f2c" / "wasi_f77.py").is_file()
    assert os.access(tc.bin / "wasi-f77", os.X_OK)
    assert tc.env(recipe)["WASI_DEPS"] == str(tc.deps)


def test_f2c_h_makes_subroutines_void_and_is_libf2c_s_otherwise() -> None:
    header = (PYTHON_WASM / "cross" / "f2c" / "f2c.h").read_text()
    assert "typedef /* Subroutine */ void (*S_fp)();" in header
    assert "typedef void /* Unknown procedure type */ (*U_fp)();" in header
    assert "typedef int32_t integer;" in header  # Debian's patch: INTEGER is 32 bits
    assert "/* Subroutine */ int" not in header


def test_f2c_is_pinned_in_versions_toml_and_installed_by_the_toolchain_step() -> None:
    pin = versions()["debian"]["f2c"]
    assert pin == "20200916-1"
    build_sh = (PYTHON_WASM / "build.sh").read_text()
    assert '"f2c=$DEBIAN_F2C"' in build_sh
    assert RECIPES["libf2c"].debian == "libf2c2" and RECIPES["libf2c"].library
    dpkg = shutil.which("dpkg-query")
    if dpkg and F2C:
        installed = subprocess.run(
            [dpkg, "-W", "-f", "${Version}", "f2c"], capture_output=True, text=True, check=False
        ).stdout
        assert installed == pin, "this machine's f2c is not the pinned one"

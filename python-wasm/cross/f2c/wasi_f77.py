"""wasi-f77: f2c posing as GNU Fortran, the Fortran compiler of meson's cross builds (the cross
file's `fortran`). python-wasm/cross/wasi-f77 runs main() here.

  compile (-c x.f -o x.o)  x.f  -> f77prep.py (a few Fortran 90 rewrites) -> f2c -> C, whose
                           subroutines are made void (postprocess) -> wasi-cc -c -o x.o, with
                           the f2c.h beside this file. wasi-cc gets the same -o, so it names
                           the module's init function and applies the recipe's symbols/ as for
                           a C object. A `.F` file goes through the C preprocessor first.
  link (-o out, no -c)     Fortran sources on the line compiled first (meson's sanity check),
                           then wasi-cc with libf2c (the libf2c recipe's archive in
                           $WASI_DEPS/usr/lib) added and GNU Fortran's runtime libraries taken
                           off; with -shared wasi-cc writes its archive and <out>.link as for C
                           (libf2c's archive listed there by path); a program also gets
                           libf2cmain.a (libf2c's main(), which calls MAIN__).
  --version, -E -dM        says "GNU Fortran ... 12.2.0", so meson takes it for gfortran.

f2c's intermediate files are written in <object>.f2c/ beside the object (under the work
directory, so -ffile-prefix-map writes their paths /build) and removed unless WASI_F77_KEEP=1.
Fortran 77 only, with 32-bit INTEGER (no -fdefault-integer-8), and no alternate RETURN.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

from . import f77prep

HERE = pathlib.Path(__file__).resolve().parent
GFORTRAN_VERSION = ("12", "2", "0")  # Debian 12's gfortran: what meson is told it is talking to
FORTRAN_SUFFIXES = (".f", ".for", ".ftn", ".f77", ".F", ".FOR", ".fpp", ".FPP")
FREE_SUFFIXES = (".f90", ".f95", ".F90", ".F95")
CPP_SUFFIXES = (".F", ".FOR", ".fpp", ".FPP", ".F90", ".F95")
# -a: locals are automatic (a recursive routine works, as with gfortran); -A: ANSI C; -R: a REAL
# function returns float, as gfortran's do (OpenBLAS's sdot_, f2py's declarations); -w: no
# warnings; -N*: larger tables than f2c's defaults, for the biggest FITPACK and ODRPACK units.
F2C_FLAGS = ["-a", "-A", "-R", "-w", "-Nn1604", "-Nx800", "-Ns801", "-NL800"]
# f2c's C is old-style in places (implicit int, calls through S_fp with any arguments): clang's
# errors for those are warnings here, and no warnings are shown.
C_FLAGS = [
    "-w",
    "-std=gnu17",
    "-fno-strict-aliasing",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-pointer-types",
    "-Wno-error=incompatible-function-pointer-types",
    "-Wno-error=implicit-function-declaration",
    "-Wno-error=implicit-int",
    "-Wno-error=return-type",
]
# gfortran options that mean nothing to f2c: taken off the line (meson's has_argument probes of
# them say yes, as every -W... probe does).
DROPPED = frozenset(
    {
        "-cpp",
        "-nocpp",
        "-std=legacy",
        "-std=f77",
        "-std=gnu",
        "-std=f95",
        "-std=f2003",
        "-std=f2008",
        "-std=f2018",
        "-fno-optimize-sibling-calls",
        "-fimplicit-none",
        "-frecursive",
        "-fno-automatic",
        "-fallow-argument-mismatch",
        "-fno-second-underscore",
        "-fsecond-underscore",
        "-fno-range-check",
        "-fno-align-commons",
        "-pedantic",
        "-ffree-form",
        "-ffixed-form",
        "-w",
        "-pipe",
        "-fmax-stack-var-size=0",
        "-fdefault-double-8",
    }
)
DROPPED_PREFIXES = (
    "-W",
    "-ffree-line-length-",
    "-ffixed-line-length-",
    "-J",
    "-fmax-errors",
    "-fdiagnostics-color",
    "-ftrapping-math",
    "-fno-trapping-math",
)
# what f2c cannot do: refused, not ignored
REFUSED = frozenset(
    {
        "-fdefault-integer-8",
        "-i8",
        "-fdefault-real-8",
        "-r8",
        "-fpp",
        "/fpp",
        "-qopenmp",
        "-fopenmp",
    }
)
# GNU Fortran's runtime (and f2c's own, by its usual names): libf2c is added instead
RUNTIME_LIBS = frozenset({"-lgfortran", "-lquadmath", "-lgcc_s", "-lf2c", "-lg2c"})
# options with a separate argument that matter to the C compile and the link alike
PAIRED = ("-mllvm", "-include", "-Xlinker", "-Xclang", "-target", "-isystem")


class Refused(Exception):
    """A source or an option this compiler cannot handle; the message says which."""


def f2c() -> str:
    found = shutil.which(os.environ.get("WASI_F2C", "f2c"))
    if found is None:
        raise Refused("no f2c: Debian's f2c (versions.toml [debian] f2c; build.sh step toolchain)")
    return found


def f2c_version() -> str:
    out = subprocess.run([f2c(), "-v"], capture_output=True, text=True, check=False).stdout
    found = re.search(r"version (\d+)", out)
    return found.group(1) if found else "?"


def postprocess(c: str) -> str:
    """f2c's C with every SUBROUTINE returning void, not int (`return 0;` becomes `return;`).
    wasm-ld and the engine check a call's signature against the definition; the C that calls
    Fortran (f2py's wrappers, OpenBLAS's LAPACK, a package's own C) declares subroutines void,
    and f2c.h's S_fp calls them so. An alternate RETURN (`return 1;`) is refused."""
    c = c.replace("/* Subroutine */ int ", "/* Subroutine */ void ")
    out, in_subroutine = [], False
    definition = re.compile(r"^(static )?/\* Subroutine \*/ void ")
    for line in c.split("\n"):
        if definition.match(line) and not line.rstrip().endswith(";"):
            in_subroutine = True
        elif line.startswith("} /* ") or line == "}":
            in_subroutine = False
        elif in_subroutine:
            if "return 0;" in line:
                line = line.replace("return 0;", "return;")
            elif re.search(r"\breturn [1-9]", line):
                raise Refused("an alternate RETURN (RETURN n): f2c's int result is not kept")
        out.append(line)
    return "\n".join(out)


def _dropped(option: str) -> bool:
    """A gfortran option f2c has no use for, or GNU Fortran's runtime on a link line."""
    return (
        option in DROPPED
        or option in RUNTIME_LIBS
        or (option.startswith(DROPPED_PREFIXES) and not option.startswith("-Wl,"))
    )


class Driver:
    """One invocation: wasi-cc beside the wasi-f77 that runs it."""

    def __init__(self, wasi_cc: pathlib.Path) -> None:
        self.wasi_cc = str(wasi_cc)

    def dump_defines(self) -> int:
        """`-E -dM`: the C compiler's predefined macros, as GNU Fortran 12.2 would say them."""
        out = subprocess.run(
            [self.wasi_cc, "-E", "-dM", "-x", "c", "-"],
            input="",
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode:
            sys.stderr.write(out.stderr)
            return out.returncode
        gnuc = re.compile(r"#define __GNUC(_MINOR|_PATCHLEVEL)?__ ")
        lines = [line for line in out.stdout.splitlines() if not gnuc.match(line)]
        major, minor, patch = GFORTRAN_VERSION
        lines += [
            f"#define __GNUC__ {major}",
            f"#define __GNUC_MINOR__ {minor}",
            f"#define __GNUC_PATCHLEVEL__ {patch}",
            "#define __GFORTRAN__ 1",
            "#define __F2C_WASI__ 1",
        ]
        sys.stdout.write("\n".join(lines) + "\n")
        return 0

    def compile_one(
        self, source: str, obj: str, includes: list[str], c_args: list[str], keep: bool
    ) -> int:
        suffix = os.path.splitext(source)[1]
        work = pathlib.Path(obj + ".f2c")
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        try:
            stem = pathlib.Path(source).stem
            text_source = pathlib.Path(source)
            if suffix in CPP_SUFFIXES:
                # the C preprocessor for .F files, as gfortran runs it
                text_source = work / f"{stem}.cpp.f"
                defines = [a for a in c_args if a.startswith(("-D", "-U"))]
                status = subprocess.run(
                    [
                        self.wasi_cc,
                        "-E",
                        "-P",
                        "-traditional-cpp",
                        "-x",
                        "c",
                        source,
                        "-o",
                        str(text_source),
                        *defines,
                        *[f"-I{i}" for i in includes],
                    ],
                    check=False,
                ).returncode
                if status:
                    return status
            prepared = work / f"{stem}.f"
            text = text_source.read_text(encoding="latin-1")
            prepared.write_text(
                f77prep.rewrite(text, free=suffix in FREE_SUFFIXES), encoding="latin-1"
            )
            here = os.path.dirname(os.path.abspath(source)) or "."
            translated = subprocess.run(
                [
                    f2c(),
                    *F2C_FLAGS,
                    f"-d{work}",
                    f"-I{here}",
                    *[f"-I{i}" for i in includes],
                    str(prepared),
                ],
                capture_output=True,
                text=True,
                check=False,
            )
            c_file = work / f"{stem}.c"
            if translated.returncode or not c_file.is_file():
                sys.stderr.write(translated.stdout + translated.stderr)
                raise Refused(f"f2c failed on {source}")
            c_file.write_text(postprocess(c_file.read_text(encoding="latin-1")), encoding="latin-1")
            command = [
                self.wasi_cc,
                "-c",
                str(c_file),
                "-o",
                obj,
                f"-I{HERE}",
                *C_FLAGS,
                *c_args,
            ]
            return subprocess.run(command, check=False).returncode
        finally:
            if not keep:
                shutil.rmtree(work, ignore_errors=True)

    def runtime(self, program: bool) -> list[str]:
        """libf2c's archives (the libf2c recipe installs them in W/deps)."""
        deps = os.environ.get("WASI_DEPS")
        if not deps:
            raise Refused("WASI_DEPS is not set (python-wasm/cross sets it: W/deps)")
        lib = pathlib.Path(deps) / "usr" / "lib"
        names = ["libf2cmain.a", "libf2c.a"] if program else ["libf2c.a"]
        missing = [n for n in names if not (lib / n).is_file()]
        if missing:
            raise Refused(f"no {', '.join(missing)} in {lib}: the recipe must require libf2c")
        return [str(lib / n) for n in names]

    def run(self, argv: list[str]) -> int:
        if not argv:
            raise Refused("no input files")
        if argv in (["-dumpversion"], ["-dumpfullversion"]):
            print(".".join(GFORTRAN_VERSION))
            return 0
        if argv in (["--version"], ["-v"], ["-V"]):
            print(
                f"GNU Fortran (f2c {f2c_version()} for wasm32-wasi, through wasi-cc) "
                + ".".join(GFORTRAN_VERSION)
            )
            print("This is f2c posing as gfortran: Fortran 77 only.")
            return 0
        if argv == ["-print-search-dirs"]:
            # meson's GNU Fortran adds -L for these to a C linker's line: none (libf2c is
            # named by path), rather than clang's host directories
            print("install: /\nprograms: =\nlibraries: =")
            return 0
        if "-dM" in argv and "-E" in argv:
            return self.dump_defines()
        sources: list[str] = []
        includes: list[str] = []
        c_args: list[str] = []  # what the C compile of f2c's output gets
        rest: list[str] = []  # what the link gets
        out: str | None = None
        compile_only = shared = False
        depfile: str | None = None
        deptarget: str | None = None
        i = 0
        while i < len(argv):
            a = argv[i]
            following = argv[i + 1] if i + 1 < len(argv) else ""
            if a in ("-o", "-MQ", "-MT", "-MF", "-I", "-D", "-U", "-J", "-module", *PAIRED):
                i += 2
                if a == "-o":
                    out = following
                elif a in ("-MQ", "-MT"):
                    deptarget = following
                elif a == "-MF":
                    depfile = following
                elif a == "-I":
                    includes.append(following)
                elif a in ("-D", "-U"):
                    c_args.append(a + following)
                elif a in PAIRED:
                    rest += [a, following]
                    c_args += [a, following]
                continue
            i += 1
            if a == "-c":
                compile_only = True
            elif a in ("-MD", "-MMD"):
                pass
            elif a.startswith("-I"):
                includes.append(a[2:])
            elif a.startswith(("-D", "-U")):
                c_args.append(a)
            elif a in REFUSED:
                raise Refused(f"{a}: f2c cannot (Fortran 77, 32-bit INTEGER and REAL)")
            elif _dropped(a):
                pass
            elif not a.startswith("-") and a.endswith(FORTRAN_SUFFIXES + FREE_SUFFIXES):
                sources.append(a)
            else:
                if a == "-shared":
                    shared = True
                elif a.startswith(("-O", "-g", "-f", "-m", "--sysroot", "--target")):
                    c_args.append(a)  # code generation: the C compile's too
                rest.append(a)  # objects, libraries, -L, -Wl, ...: the link's
        keep = os.environ.get("WASI_F77_KEEP") == "1"
        if compile_only:
            if not sources:
                # a C file given to the Fortran compiler: wasi-cc's
                return subprocess.run([self.wasi_cc, *argv], check=False).returncode
            if len(sources) > 1:
                raise Refused("-c with more than one source")
            obj = out or pathlib.Path(sources[0]).stem + ".o"
            status = self.compile_one(sources[0], obj, includes, c_args, keep)
            if status == 0 and depfile:
                pathlib.Path(depfile).write_text(f"{deptarget or obj}: {sources[0]}\n")
            return status
        if out is None:
            # no output (meson's `-Wl,--version` probe of the linker): wasi-cc's as it is
            return subprocess.run([self.wasi_cc, *rest], check=False).returncode
        objects = []
        for n, source in enumerate(sources):
            obj = f"{out}.{n}.o"
            status = self.compile_one(source, obj, includes, c_args, keep)
            if status:
                return status
            objects.append(obj)
        try:
            command = [self.wasi_cc, *objects, *rest, *self.runtime(not shared), "-o", out]
            return subprocess.run(command, check=False).returncode
        finally:
            for obj in objects:
                pathlib.Path(obj).unlink(missing_ok=True)


def main(wasi_cc: pathlib.Path, argv: list[str]) -> int:
    try:
        return Driver(wasi_cc).run(argv)
    except Refused as exc:
        sys.stderr.write(f"wasi-f77: {exc}\n")
        return 1

"""The cross toolchain every recipe builds with: one work directory, its sysroot and wrappers.

The work directory (`$COVE_WASM_BUILD/cross`, "W" below) is the only place the driver writes.
Every path the compilers, Cython and meson see is under W, and W is written `/build` in what
they produce (`-ffile-prefix-map`, the cython wrapper, the staged Python files), so the
artifact does not depend on where it was built. The recipes themselves are copied into
W/recipes for the same reason.

    W/sysroot      Debian's wasi-libc, libc++/libc++abi/libunwind with exceptions (built from the
                   pinned LLVM source), setjmp.h and libsetjmp.a
    W/cpy          the cross CPython as an extension sees it: headers, pyconfig.h, sysconfigdata
    W/hostvenv     the build tools (versions.toml [build-tools]), by sha256; a recipe with tools
                   of its own ([recipe-build-tools.<name>]) has W/hostvenv-<name>
    W/deps         the C libraries' install (DESTDIR; their prefix is /usr): recipes with a
                   [source] debian, and the interpreter's own zlib
    W/bin          wasi-cc, wasi-c++, wasi-f77 (f2c posing as GNU Fortran) and its f2c/,
                   one `python-wasi-<recipe>` per recipe
    W/src/<name>-<version>, W/build-<name>, W/install-<name>, W/out-<name>: a recipe's tree
    W/stage        what the interpreter takes (stage.py)
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request

from .recipe import RECIPES, Recipe, recipe_tools, tool_pins, versions

HERE = pathlib.Path(__file__).resolve().parent
LLVM = versions()["debian"]["llvm"]  # "19"
LLVM_UPSTREAM = versions()["debian"]["clang"].split(":")[-1].split("-")[0]  # "19.1.7"
HOSTPY = "python3.11"
# make/ninja -j: $JOBS, as build.sh takes it, or the machine's cores
JOBS = int(os.environ.get("JOBS") or os.cpu_count() or 2)

# The flags every compile gets. -D_WASI_EMULATED_*: as CPython's build (build.sh CFLAGS_WASM).
# setjmp/longjmp over WebAssembly exceptions (sysroot/setjmp.h), and C++ exceptions: WebAssembly's
# (clang 19 writes the legacy instructions; build.sh's reactor step translates them to exnref).
# A package that builds part of its C++ with -fno-exceptions (numpy's core, as natively) keeps
# that: its flag comes later on the line.
_CFLAGS = [
    "-O2",
    "-g0",
    "-D_WASI_EMULATED_SIGNAL",
    "-D_WASI_EMULATED_GETPID",
    "-D_WASI_EMULATED_PROCESS_CLOCKS",
    "-D_WASI_EMULATED_MMAN",
    "-mllvm",
    "-wasm-enable-sjlj",
]
_CXXFLAGS = ["-fwasm-exceptions", "-Drestrict=__restrict"]
_LDFLAGS = [
    "-lwasi-emulated-signal",
    "-lwasi-emulated-getpid",
    "-lwasi-emulated-process-clocks",
    "-lwasi-emulated-mman",
]


def log(message: str) -> None:
    print(f"\n== {message}", file=sys.stderr, flush=True)


def run(
    *argv: str | os.PathLike[str],
    cwd: pathlib.Path | None = None,
    env: dict[str, str] | None = None,
    nice: bool = False,
) -> None:
    command = [os.fspath(a) for a in argv]
    if nice:
        command = ["nice", "-n", "15", *command]
    subprocess.run(command, cwd=cwd, env=env, check=True)


def sha256_file(path: pathlib.Path) -> str:
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def check_sha256(path: pathlib.Path, digest: str) -> None:
    actual = sha256_file(path)
    if actual != digest:
        sys.exit(f"{path.name}: sha256 {actual}, pinned {digest}: refusing it")


def index_url() -> str:
    """The package index pip uses (PEP 503/691 simple API): PIP_INDEX_URL, pip's configured
    global.index-url, or pip's own default."""
    if os.environ.get("PIP_INDEX_URL"):
        return os.environ["PIP_INDEX_URL"]
    configured = subprocess.run(
        [sys.executable, "-m", "pip", "config", "get", "global.index-url"],
        capture_output=True,
        text=True,
        check=False,
    ).stdout.strip()
    if configured:
        return configured
    from pip._internal.models.index import PyPI  # pip's default: read only when needed

    return str(PyPI.simple_url)


def fetch_sdist(project: str, version: str, target: pathlib.Path) -> None:
    """Download `target` (an sdist named as PEP 625 names it) of `project` `version` from the
    package index as a file: `pip download --no-binary` would prepare the package's metadata
    with its build backend first (cmeel-openblas's would build OpenBLAS natively). The caller
    checks the pin."""
    request = urllib.request.Request(
        f"{index_url().rstrip('/')}/{project}/",
        headers={"Accept": "application/vnd.pypi.simple.v1+json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        files = json.load(answer)["files"]
    urls = [f["url"] for f in files if f["filename"] == target.name]
    if not urls:
        sys.exit(f"{project} {version}: the index has no {target.name}")
    url = urllib.parse.urljoin(request.full_url, urls[0].split("#")[0])
    partial = target.with_name(target.name + ".part")
    with urllib.request.urlopen(url, timeout=600) as answer, partial.open("wb") as out:
        shutil.copyfileobj(answer, out)
    partial.rename(target)


@dataclasses.dataclass(frozen=True)
class Toolchain:
    work: pathlib.Path  # W
    cpython: pathlib.Path  # the interpreter's build directory (build.sh's $BUILD)

    @property
    def llvm(self) -> pathlib.Path:
        return pathlib.Path(f"/usr/lib/llvm-{LLVM}/bin")

    @property
    def sysroot(self) -> pathlib.Path:
        return self.work / "sysroot"

    @property
    def cpy(self) -> pathlib.Path:
        return self.work / "cpy"

    @property
    def venv(self) -> pathlib.Path:
        return self.work / "hostvenv"

    def venv_of(self, recipe: Recipe) -> pathlib.Path:
        """The venv of the build tools `recipe` builds with: the shared one, or its own
        (tools() makes both)."""
        if recipe.name in recipe_tools():
            return self.work / f"hostvenv-{recipe.name}"
        return self.venv

    @property
    def bin(self) -> pathlib.Path:
        return self.work / "bin"

    @property
    def deps(self) -> pathlib.Path:
        """The C libraries' DESTDIR: W/deps/usr/{include,lib,lib/pkgconfig}."""
        return self.work / "deps"

    @property
    def downloads(self) -> pathlib.Path:
        return self.work / "dl"

    @property
    def recipes(self) -> pathlib.Path:
        return self.work / "recipes"

    def recipe_dir(self, recipe: Recipe) -> pathlib.Path:
        return self.recipes / recipe.name

    # A recipe's trees under W (the docstring's map).
    def source_dir(self, recipe: Recipe) -> pathlib.Path:
        return self.work / "src" / f"{recipe.name}-{recipe.version}"

    def build_dir(self, recipe: Recipe) -> pathlib.Path:
        return self.work / f"build-{recipe.name}"

    def install_dir(self, recipe: Recipe) -> pathlib.Path:
        return self.work / f"install-{recipe.name}"

    def out_dir(self, recipe: Recipe) -> pathlib.Path:
        return self.work / f"out-{recipe.name}"

    def cross_file(self, recipe: Recipe) -> pathlib.Path:
        """meson's cross file for the recipe (write_wrappers)."""
        return self.work / f"wasi-{recipe.name}.cross"

    def env(self, recipe: Recipe) -> dict[str, str]:
        """The environment of a recipe's configure and compile: wasi-cc's settings, PATH, and
        pkg-config looking only at the C libraries built here (never the host's)."""
        tools = self.venv_of(recipe) / "bin"
        path = f"{self.work / f'bin-{recipe.name}'}:{tools}:{os.environ['PATH']}"
        return {
            **os.environ,
            "WASI_SYSROOT": str(self.sysroot),
            "WASI_LLVM": str(self.llvm),
            "WASI_SYMBOLS": str(self.recipe_dir(recipe) / "symbols"),
            "WASI_DEPS": str(self.deps),  # wasi-f77 links libf2c from there
            "PATH": path,
            "PKG_CONFIG_LIBDIR": f"{self.deps}/usr/lib/pkgconfig:{self.work}/pc",
            "PKG_CONFIG_PATH": "",
        }

    def tools_env(self, recipe: Recipe) -> dict[str, str]:
        """env() with the compilers and flags a configure script or setup.py reads."""
        return {
            **self.env(recipe),
            "CC": str(self.bin / "wasi-cc"),
            "CXX": str(self.bin / "wasi-c++"),
            "AR": str(self.llvm / "llvm-ar"),
            "RANLIB": str(self.llvm / "llvm-ranlib"),
            "NM": str(self.llvm / "llvm-nm"),
            "STRIP": str(self.llvm / "llvm-strip"),
            "CFLAGS": " ".join(self.cflags(recipe)),
            "CXXFLAGS": " ".join(self.cxxflags(recipe)),
            "CPPFLAGS": f"-I{self.deps}/usr/include",
            "LDFLAGS": " ".join([f"-L{self.deps}/usr/lib", *_LDFLAGS]),
        }

    def expand(self, recipe: Recipe, flags: tuple[str, ...]) -> list[str]:
        return [
            f.replace("{recipes}", str(self.recipes))
            .replace("{recipe}", str(self.recipe_dir(recipe)))
            .replace("{deps}", str(self.deps))
            for f in flags
        ]

    def cflags(self, recipe: Recipe) -> list[str]:
        return [
            *_CFLAGS,
            *self.expand(recipe, recipe.cflags),
            f"-ffile-prefix-map={self.work}=/build",
        ]

    def cxxflags(self, recipe: Recipe) -> list[str]:
        return [*self.cflags(recipe), *_CXXFLAGS, *self.expand(recipe, recipe.cxxflags)]

    def cc(self) -> list[str]:
        return [str(self.llvm / "clang"), "--target=wasm32-wasi", f"--sysroot={self.sysroot}"]

    # -- the steps every recipe needs first ---------------------------------------------------

    def prepare(self) -> None:
        """The sysroot with the C++ runtime and setjmp, the cross CPython's headers and the
        compiler wrappers (once: a stamp in W/stamps)."""
        self._sysroot()
        self._cpy()
        self._zlib()
        self.wrappers()
        (self.work / "pyhook").mkdir(exist_ok=True)
        shutil.copyfile(HERE / "sitecustomize.py", self.work / "pyhook" / "sitecustomize.py")

    def wrappers(self) -> None:
        """The compiler wrappers in W/bin: wasi-cc (also as wasi-c++), and wasi-f77 with its
        f2c/ (f2c.h, the Fortran 90 rewrites) beside it. Copied on every run, so an edit of
        one takes effect in a work directory made before it."""
        self.bin.mkdir(parents=True, exist_ok=True)
        for name, source in (
            ("wasi-cc", "wasi-cc"),
            ("wasi-c++", "wasi-cc"),
            ("wasi-f77", "wasi-f77"),
        ):
            shutil.copyfile(HERE / source, self.bin / name)
            (self.bin / name).chmod(0o755)
        shutil.rmtree(self.bin / "f2c", ignore_errors=True)
        shutil.copytree(
            HERE / "f2c", self.bin / "f2c", ignore=shutil.ignore_patterns("__pycache__")
        )

    def copy_recipes(self) -> None:
        """The recipes as the build sees them, under W (so their paths are written /build)."""
        shutil.rmtree(self.recipes, ignore_errors=True)
        shutil.copytree(RECIPES, self.recipes)

    def _sysroot(self) -> None:
        """Debian's wasi-libc, then the C++ runtime with exceptions (_cxxrt) built on it, and
        setjmp: a setjmp.h and libsetjmp.a (sysroot/setjmp_rt.c) for -mllvm -wasm-enable-sjlj.
        Debian's clang otherwise also searches the host's /usr/include: a private sysroot."""
        shutil.rmtree(self.sysroot, ignore_errors=True)
        (self.sysroot / "include").mkdir(parents=True)
        (self.sysroot / "lib").mkdir(parents=True)
        run("cp", "-a", "/usr/include/wasm32-wasi", self.sysroot / "include/")
        run("cp", "-a", "/usr/lib/wasm32-wasi", self.sysroot / "lib/")
        # libc++'s <filesystem> includes <sys/statvfs.h>, which this wasi-libc lacks.
        shutil.copy2(
            HERE / "sysroot" / "sys" / "statvfs.h",
            self.sysroot / "include" / "wasm32-wasi" / "sys" / "statvfs.h",
        )
        prefix = self._cxxrt()
        include = self.sysroot / "include" / "wasm32-wasi"
        (include / "c++").mkdir(exist_ok=True)
        shutil.copytree(prefix / "include" / "c++" / "v1", include / "c++" / "v1")
        lib = self.sysroot / "lib" / "wasm32-wasi"
        for name in ("libc++.a", "libc++abi.a", "libunwind.a"):
            shutil.copy2(prefix / "lib" / name, lib / name)
        shutil.copy2(HERE / "sysroot" / "setjmp.h", include / "setjmp.h")
        obj = self.work / "setjmp_rt.o"
        run(
            *self.cc(),
            "-O2",
            "-g0",
            "-mllvm",
            "-wasm-enable-sjlj",
            f"-ffile-prefix-map={HERE}=/cross",
            "-c",
            HERE / "sysroot" / "setjmp_rt.c",
            "-o",
            obj,
        )
        (lib / "libsetjmp.a").unlink(missing_ok=True)
        run(self.llvm / "llvm-ar", "rcs", lib / "libsetjmp.a", obj)

    def _cxxrt(self) -> pathlib.Path:
        """libc++, libc++abi and libunwind 19 with WebAssembly exceptions, from the pinned
        llvm-toolchain-19 source (build.sh's `sources` step fetched it), with Debian's own
        options for its wasm32 libc++ (debian/rules, build-wasm/libcxx-%-wasi: ABI version 2,
        static) but exceptions on and LLVM's unwinder, <fstream> and <filesystem> on (WASI
        has files; scipy's HiGHS writes them), and threads on over a thread support of Cove's
        for an instance's one thread (sysroot/threading/__external_threading: a mutex locks,
        a thread cannot start), where Debian's has no threads (scipy's C++ locks mutexes). Debian's
        libc++abi-19-dev-wasm32 has no exception support. Returns the install prefix."""
        tarball = self.cpython / "src" / f"llvm-toolchain-{LLVM}_{LLVM_UPSTREAM}.orig.tar.xz"
        pinned = _sources_sha256()[tarball.name]
        check_sha256(tarball, pinned)
        src = self.work / "llvm-runtimes"
        shutil.rmtree(src, ignore_errors=True)
        src.mkdir(parents=True)
        top = f"llvm-toolchain-{LLVM}_{LLVM_UPSTREAM}"
        parts = (
            "runtimes",
            "libcxx",
            "libcxxabi",
            "libunwind",
            "cmake",
            "llvm/cmake",
            "llvm/utils/llvm-lit",
            "third-party",
        )
        run(
            "tar",
            "-xJf",
            tarball,
            "--strip-components=1",
            "-C",
            src,
            *[f"{top}/{d}" for d in parts],
        )

        for patch in sorted((HERE / "patches").glob("llvm-*.patch")):
            with patch.open("rb") as f:
                subprocess.run(["patch", "-p1", "-s", "-f"], stdin=f, cwd=src, check=True)
        build, prefix = self.work / "cxxrt-build", self.work / "cxxrt"
        shutil.rmtree(build, ignore_errors=True)
        shutil.rmtree(prefix, ignore_errors=True)
        # The thread support (sysroot/__external_threading) is found by libc++'s own build on
        # the include path, and installed beside its headers below.
        flags = " ".join(
            [
                "-O2",
                "-fno-stack-protector",
                "-fwasm-exceptions",
                "-D_WASI_EMULATED_SIGNAL",
                f"-I{HERE / 'sysroot' / 'threading'}",
                f"-ffile-prefix-map={self.work}=/build",
                f"-ffile-prefix-map={HERE}=/cross",
            ]
        )
        options = {
            "CMAKE_BUILD_TYPE": "Release",
            "CMAKE_INSTALL_PREFIX": prefix,
            "CMAKE_SYSROOT": self.sysroot,
            "CMAKE_C_COMPILER": self.llvm / "clang",
            "CMAKE_CXX_COMPILER": self.llvm / "clang++",
            "CMAKE_AR": self.llvm / "llvm-ar",
            "CMAKE_RANLIB": self.llvm / "llvm-ranlib",
            "CMAKE_C_COMPILER_TARGET": "wasm32-unknown-wasi",
            "CMAKE_CXX_COMPILER_TARGET": "wasm32-unknown-wasi",
            "CMAKE_ASM_COMPILER_TARGET": "wasm32-unknown-wasi",
            "CMAKE_C_COMPILER_WORKS": "ON",
            "CMAKE_CXX_COMPILER_WORKS": "ON",
            "LLVM_COMPILER_CHECKED": "ON",
            "CMAKE_C_FLAGS": flags,
            "CMAKE_CXX_FLAGS": flags,
            "LLVM_ENABLE_RUNTIMES": "libcxx;libcxxabi;libunwind",
            "LIBCXX_USE_COMPILER_RT": "ON",
            "LIBCXXABI_USE_COMPILER_RT": "ON",
            "LIBUNWIND_USE_COMPILER_RT": "ON",
            "LIBCXX_ENABLE_STATIC_ABI_LIBRARY": "ON",
            "LIBCXX_STATICALLY_LINK_ABI_IN_STATIC_LIBRARY": "ON",
            "LIBCXX_CXX_ABI": "libcxxabi",
            "LIBCXX_ABI_VERSION": "2",
            "LIBCXX_HAS_MUSL_LIBC": "ON",
            "LIBCXX_ENABLE_SHARED": "OFF",
            "LIBCXX_ENABLE_EXPERIMENTAL_LIBRARY": "OFF",
            "LIBCXX_ENABLE_EXCEPTIONS": "ON",
            "LIBCXX_ENABLE_FILESYSTEM": "ON",
            "LIBCXX_ENABLE_THREADS": "ON",
            "LIBCXX_HAS_PTHREAD_API": "OFF",
            "LIBCXX_HAS_EXTERNAL_THREAD_API": "ON",
            "LIBCXX_PSTL_BACKEND": "serial",
            "LIBCXX_ENABLE_TIME_ZONE_DATABASE": "OFF",  # on by default with filesystem on
            "LIBCXX_INCLUDE_TESTS": "OFF",
            "LIBCXX_INCLUDE_BENCHMARKS": "OFF",
            "LIBCXXABI_ENABLE_SHARED": "OFF",
            "LIBCXXABI_ENABLE_EXCEPTIONS": "ON",
            # libc++abi on the same thread support (thread_local objects with destructors
            # need its __cxa_thread_atexit: scipy's uarray has them)
            "LIBCXXABI_ENABLE_THREADS": "ON",
            "LIBCXXABI_HAS_PTHREAD_API": "OFF",
            "LIBCXXABI_HAS_EXTERNAL_THREAD_API": "ON",
            "LIBCXXABI_SILENT_TERMINATE": "ON",
            "LIBCXXABI_USE_LLVM_UNWINDER": "ON",
            "LIBCXXABI_ENABLE_STATIC_UNWINDER": "ON",
            "LIBCXXABI_INCLUDE_TESTS": "OFF",
            "LIBUNWIND_ENABLE_SHARED": "OFF",
            "LIBUNWIND_ENABLE_THREADS": "OFF",
            "LIBUNWIND_INCLUDE_TESTS": "OFF",
            "LIBUNWIND_HIDE_SYMBOLS": "ON",
        }
        run(
            "cmake",
            "-G",
            "Ninja",
            "-S",
            src / "runtimes",
            "-B",
            build,
            *[f"-D{k}={v}" for k, v in options.items()],
        )
        run("ninja", "-C", build, f"-j{JOBS}", "cxx", "cxxabi", "unwind", nice=True)
        subprocess.run(
            ["ninja", "-C", str(build), "install-cxx", "install-cxxabi", "install-unwind"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        shutil.copy2(
            HERE / "sysroot" / "threading" / "__external_threading",
            prefix / "include" / "c++" / "v1" / "__external_threading",
        )
        return prefix

    def _cpy(self) -> None:
        """The cross CPython, the way an installed Python looks to a build: Include/ with
        pyconfig.h, and the target's sysconfig data for the host Python that poses as it."""
        build = self.cpython / "cpython-wasi"
        if not (build / "libpython3.11.a").is_file():
            sys.exit(f"{build}: no CPython build there: run build.sh's earlier steps first")
        source = self.cpython / "src" / "python3.11-3.11.2"
        shutil.rmtree(self.cpy, ignore_errors=True)
        include = self.cpy / "include" / "python3.11"
        shutil.copytree(source / "Include", include)
        shutil.copy2(build / "pyconfig.h", include / "pyconfig.h")
        builddir = (build / "pybuilddir.txt").read_text().strip()
        shutil.copy2(build / builddir / "_sysconfigdata__wasi_wasm32-wasi.py", self.cpy)
        (self.work / "pc").mkdir(exist_ok=True)
        (self.work / "pc" / "python-3.11.pc").write_text(
            f"prefix={self.cpy}\nName: Python\n"
            "Description: Cove's CPython 3.11 for wasm32-wasi (static; extensions are linked in)\n"
            f"Version: 3.11\nLibs:\nCflags: -I{include}\n"
        )

    def relocate_deps(self) -> None:
        """A C library's pkg-config files and *-config scripts say prefix /usr, where the build
        installed them (DESTDIR W/deps): they are pointed at W/deps/usr, so what builds against
        them never sees the host's /usr."""
        found = [
            *(self.deps / "usr" / "lib" / "pkgconfig").glob("*.pc"),
            *(self.deps / "usr" / "bin").glob("*-config"),
        ]
        usr = f"{self.deps}/usr"
        for path in found:
            text = path.read_text()
            fixed = re.sub(r"^(\w+)=(['\"]?)/usr\b", rf"\1=\2{usr}", text, flags=re.M)
            if fixed != text:
                path.write_text(fixed)

    def _zlib(self) -> None:
        """The interpreter's zlib (build.sh step zlib, from Debian's pinned source) for the C
        libraries and packages that use it: one zlib in the link, not two."""
        deps = self.cpython / "deps"
        usr = self.deps / "usr"
        for sub in ("include", "lib/pkgconfig"):
            (usr / sub).mkdir(parents=True, exist_ok=True)
        shutil.copy2(deps / "lib" / "libz.a", usr / "lib" / "libz.a")
        for name in ("zlib.h", "zconf.h"):
            shutil.copy2(deps / "include" / name, usr / "include" / name)
        version = versions()["debian"]["zlib"].split(":")[-1].split(".dfsg")[0]
        (usr / "lib" / "pkgconfig" / "zlib.pc").write_text(
            f"prefix={usr}\nlibdir=${{prefix}}/lib\nincludedir=${{prefix}}/include\n"
            f"Name: zlib\nDescription: the interpreter's zlib\nVersion: {version}\n"
            "Libs: -L${libdir} -lz\nCflags: -I${includedir}\n"
        )

    def _hostvenv(self, venv: pathlib.Path, pins: dict[str, str]) -> None:
        self.downloads.mkdir(parents=True, exist_ok=True)
        if any(not (self.downloads / n).is_file() for n in pins):
            specs = [_wheel_spec(n) for n in pins]
            run(
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--only-binary",
                ":all:",
                "--python-version",
                "3.11",
                "--platform",
                "manylinux_2_17_x86_64",
                "--platform",
                "manylinux2014_x86_64",
                "--platform",
                "manylinux_2_12_x86_64",
                *specs,
                "-d",
                self.downloads,
            )
        for name, digest in pins.items():
            check_sha256(self.downloads / name, digest)
        # the venv is made anew when the pins change
        stamp = venv / "pins.txt"
        listed = "".join(f"{d}  {n}\n" for n, d in sorted(pins.items()))
        if stamp.is_file() and stamp.read_text() == listed:
            return
        shutil.rmtree(venv, ignore_errors=True)
        run(HOSTPY, "-m", "venv", venv)
        run(
            venv / "bin" / "pip",
            "install",
            "-q",
            "--no-index",
            "--no-deps",
            *[self.downloads / n for n in sorted(pins)],
        )
        stamp.write_text(listed)

    def tools(self) -> None:
        """The build tools' venvs, the shared one and those of the recipes with tools of their
        own, each made anew when its pins change (every run checks)."""
        self._hostvenv(self.venv, tool_pins())
        for name in recipe_tools():
            self._hostvenv(self.work / f"hostvenv-{name}", tool_pins(name))
        self._pybind11()

    def _pybind11(self) -> None:
        """pybind11's headers (a build tool: headers only) as meson's `dependency('pybind11')`
        finds them: a pkg-config file in W/pc, next to the cross CPython's."""
        include = next((self.venv / "lib").glob("python3.*/site-packages/pybind11/include"))
        version = next((self.venv / "lib").glob("python3.*/site-packages/pybind11-*.dist-info"))
        (self.work / "pc" / "pybind11.pc").write_text(
            f"Name: pybind11\nDescription: pybind11's headers (the build tools' venv)\n"
            f"Version: {version.name.split('-')[1].removesuffix('.dist-info')}\n"
            f"Cflags: -I{include}\n"
        )

    def write_wrappers(self, recipe: Recipe, requires: list[Recipe]) -> pathlib.Path:
        """The target "python" and "cython" a recipe's build runs, and its meson cross file."""
        hooks = [str(self.work / f"pyhook-{r.name}") for r in requires if r.stub]
        python = self.bin / f"python-wasi-{recipe.name}"
        pythonpath = ":".join([*hooks, str(self.work / "pyhook"), str(self.cpy)])
        python.write_text(
            "#!/bin/sh\n"
            "# the host python3.11 posing as the wasm32-wasi CPython: target sysconfig data and\n"
            "# include dirs (sitecustomize.py)\n"
            "export _PYTHON_SYSCONFIGDATA_NAME=_sysconfigdata__wasi_wasm32-wasi\n"
            f"export PYTHONPATH={pythonpath}${{PYTHONPATH:+:$PYTHONPATH}}\n"
            f"export WASI_PY_INCLUDE={self.cpy}/include/python3.11 WASI_PY_LIBPC={self.work}/pc\n"
            f'exec {self.venv_of(recipe)}/bin/python "$@"\n'
        )
        python.chmod(0o755)
        # cython (run_cython.py says why it names files relative to these directories), with the
        # .pxd files of the recipes this one requires on its include path. meson 1.2.1 takes
        # `cython` from PATH, not from the cross file, so this directory comes first on PATH.
        pxds = [self.work / f"pxd-{r.name}" for r in requires if r.pxd]
        includes = "".join(f' -I "{p}"' for p in pxds)
        bases = " ".join(
            f'"{p}"'
            for p in [
                self.source_dir(recipe),
                self.build_dir(recipe),
                *pxds,
            ]
        )
        cython = self.work / f"bin-{recipe.name}" / "cython"
        cython.parent.mkdir(parents=True, exist_ok=True)
        cython.write_text(
            "#!/bin/sh\n"
            f"exec {self.venv_of(recipe)}/bin/python {HERE}/run_cython.py"
            f' "{self.work}" {bases} --{includes} "$@"\n'
        )
        cython.chmod(0o755)

        def array(flags: list[str]) -> str:
            return ", ".join(f"'{f}'" for f in flags)

        # Fortran (wasi-f77) is there for every recipe: meson looks at it only in a project that
        # adds the language, and compiles Fortran with the C flags, f2c's output being C.
        cross = self.cross_file(recipe)
        cross.write_text(
            f"""[binaries]
c = '{self.bin}/wasi-cc'
cpp = '{self.bin}/wasi-c++'
fortran = '{self.bin}/wasi-f77'
ar = '{self.llvm}/llvm-ar'
ranlib = '{self.llvm}/llvm-ranlib'
strip = '{self.llvm}/llvm-strip'
nm = '{self.llvm}/llvm-nm'
python = '{python}'
python3 = '{python}'
cython = '{cython}'
pkg-config = '/usr/bin/pkg-config'

[properties]
longdouble_format = 'IEEE_QUAD_LE'
needs_exe_wrapper = true
pkg_config_libdir = ['{self.deps}/usr/lib/pkgconfig', '{self.work}/pc']

[built-in options]
c_args = [{array(self.cflags(recipe))}]
cpp_args = [{array(self.cxxflags(recipe))}]
fortran_args = [{array(self.cflags(recipe))}]
c_link_args = [{array(_LDFLAGS)}]
cpp_link_args = [{array(_LDFLAGS)}]
fortran_link_args = [{array(_LDFLAGS)}]

[host_machine]
system = 'wasi'
cpu_family = 'wasm32'
cpu = 'wasm32'
endian = 'little'
"""
        )
        return cross


def _sources_sha256() -> dict[str, str]:
    """python-wasm/sources.sha256: the Debian source packages build.sh's `sources` step fetched."""
    lines = (HERE.parent / "sources.sha256").read_text().split("\n")
    return {name: digest for digest, name in (line.split() for line in lines if line.strip())}


def _wheel_spec(filename: str) -> str:
    name, version = filename.split("-")[:2]
    return f"{name}=={version}"

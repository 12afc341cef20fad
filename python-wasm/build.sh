#!/usr/bin/env bash
# Builds Cove's CPython 3.11 for wasm32-wasi: a call-in reactor, pre-initialised (snapshot.py).
#
# Usage: python-wasm/build.sh [STEP ...]      (no step: all of them, in order)
#
# Steps, each idempotent (a stamp in $BUILD/stamps skips a finished step; `clean` removes them):
#   toolchain  Debian's clang-19, lld-19, llvm-19, wasi-libc, compiler-rt for wasm32, cmake,
#              ninja and f2c (python-wasm/cross's Fortran compiler), and binaryen's wasm-opt from
#              npm (the extensions' C++ runtime is built by python-wasm/cross)
#   sources    the pinned Debian source packages, verified by sha256, unpacked with Debian's patches
#   sysroot    a private wasm32-wasi sysroot, so clang never sees the host's /usr/include
#   zlib bzip2 xz sqlite   the C libraries CPython's zlib, bz2, lzma and sqlite3 modules need
#   profrt     compiler-rt's profile runtime for wasm32-wasi, from the pinned LLVM sources (Debian
#              ships only the builtins for wasm32)
#   pgo        an instrumented CPython runs pgo/train.py under wasmtime: the profile the next step
#              builds with (profile-guided optimisation, issue 14)
#   cpython    cross-builds libpython3.11.a for wasm32-wasi, using the host's python3.11 as build Python
#   stdlib     the byte-compiled, deterministic stdlib zip (with the guest package, guest/cove_guest)
#   extensions cross-builds the packages with C extensions, one recipe each (recipes/, by
#              python-wasm/cross), and stages their Python trees and extension modules
#   packages   adds the pinned pure-Python packages (packages.txt, PyPI wheels by sha256) and the
#              staged packages to the zip
#   reactor    links the reactor: libpython + modules + the packages' extension modules (a
#              generated table registers them by dotted name) + guest/c/cove_driver.c (no _start)
#   snapshot   assembles the guest's read-only root (the zip as usr/lib/python311.zip, the fonts)
#              and pre-initialises the reactor into python.wasm with it (snapshot.py, wasmtime-py)
#   install    copies the artifacts into runtime/cove/_interpreter/ and writes manifest.json
#
# Requires root only for the toolchain step (apt-get). Honours SOURCE_DATE_EPOCH (default: the
# date of the pinned CPython Debian revision), so two builds give byte-identical artifacts.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BUILD=${COVE_WASM_BUILD:-$HERE/build}
DIST=${COVE_WASM_DIST:-$HERE/../runtime/cove/_interpreter}
SRC=$BUILD/src
SYSROOT=$BUILD/sysroot
DEPS=$BUILD/deps
STAMPS=$BUILD/stamps

# Pinned versions: versions.toml, their one home (DEBIAN_*, NPM_*).
VERSIONS=$(cd "$HERE" && python3.11 -m cross env)  # an assignment: set -e stops on a failure
eval "$VERSIONS"
PY_PKG=python3.11
PY_VER=$DEBIAN_PYTHON
ZLIB_VER=$DEBIAN_ZLIB
BZIP2_VER=$DEBIAN_BZIP2
XZ_VER=$DEBIAN_XZ
SQLITE_VER=$DEBIAN_SQLITE
LLVM=$DEBIAN_LLVM
CLANG_VER=$DEBIAN_CLANG
WASI_LIBC_VER=$DEBIAN_WASI_LIBC
TZDATA_VER=$DEBIAN_TZDATA
FONTS_VER=$DEBIAN_FONTS_DEJAVU_CORE
BINARYEN_VER=$NPM_BINARYEN
# wasmtime-py for the pgo step's training run: the version the runtime pins, read from its home.
WASMTIME_PY_VER=$(sed -n 's/^ *"wasmtime==\([0-9.]*\)".*/\1/p' "$HERE/../pyproject.toml")
# The third-party packages in the guest's zip are pinned, with their wheels' sha256, in
# packages.txt (step `packages`, make_packages.py).

export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1767225600}
export TZ=UTC LC_ALL=C.UTF-8 PYTHONHASHSEED=0

# clang runs binaryen's wasm-opt after every wasm link when it finds one (first in -B dirs,
# then on PATH): a machine with binaryen would then build a different artifact, and configure's
# link probes can fail there (it lost _sqlite3). $NOOPT holds a wasm-opt that does nothing.
NOOPT=$BUILD/no-wasm-opt
CC_WASM="clang-$LLVM --target=wasm32-wasi --sysroot=$SYSROOT -B$NOOPT"
# -ffile-prefix-map keeps build paths out of the binary (reproducible across checkouts).
CFLAGS_WASM="-O2 -g0 -ffile-prefix-map=$BUILD=/build -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_GETPID -D_WASI_EMULATED_PROCESS_CLOCKS"
# CPython itself (libpython and its modules, the eval loop among them) and the reactor's link:
# -O3 and ThinLTO (guest CPU, issue 14; each experiment and its number is in docs/benchmarks.md).
# -O3 comes after CFLAGS_WASM's -O2 and wins. The C libraries keep CFLAGS_WASM, the extensions
# python-wasm/cross's flags (-O2 too).
OPT_CPYTHON="-O3 -flto=thin"
# ... and the profile of step pgo (CPython's objects only; see step_pgo).
PROFDATA=$BUILD/pgo/cpython.profdata
PGO_USE="-fprofile-instr-use=$PROFDATA -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date"
JOBS=${JOBS:-$(nproc)}
# Stdlib extension modules that must be built in: configure quietly leaves out any module whose
# probe fails, and the build would otherwise succeed without it.
REQUIRED_MODULES=(_sqlite3 zlib _bz2 _lzma _decimal pyexpat _elementtree binascii _json _struct
                  _datetime _zoneinfo math array select unicodedata _sha256 _blake2 _sha3)

# Applies a patch once: skipped when it reverses cleanly (already applied), fatal when it fails.
apply_patch() {
    if patch -p1 -R --dry-run -s -f < "$1" >/dev/null 2>&1; then return; fi
    patch -p1 -s -f < "$1"
}

no_wasm_opt() {
    mkdir -p "$NOOPT"
    printf '#!/bin/sh\nexit 0\n' > "$NOOPT/wasm-opt"
    chmod +x "$NOOPT/wasm-opt"
}

# Fails unless configure (Makefile: MODULE_<NAME>_STATE=yes) builds every required module.
check_modules() {
    local m var missing=()
    for m in "${REQUIRED_MODULES[@]}"; do
        var="MODULE_${m^^}_STATE"
        grep -q "^$var=yes\$" Makefile || missing+=("$m ($(sed -n "s/^$var=//p" Makefile))")
    done
    if (( ${#missing[@]} )); then
        echo "required stdlib modules missing: ${missing[*]}; see config.log" >&2
        exit 1
    fi
}

log() { printf '\n== %s\n' "$*" >&2; }
done_() { mkdir -p "$STAMPS"; touch "$STAMPS/$1"; }
is_done() { [[ -f $STAMPS/$1 ]]; }

step_toolchain() {
    if ! command -v "clang-$LLVM" >/dev/null || ! [[ -f /usr/lib/wasm32-wasi/libc.a ]] \
        || ! [[ -f /usr/lib/llvm-$LLVM/lib/clang/$LLVM/lib/wasi/libclang_rt.builtins-wasm32.a ]]; then
        apt-get update -q
        apt-get install -y -q "clang-$LLVM=$CLANG_VER" "lld-$LLVM=$CLANG_VER" "llvm-$LLVM=$CLANG_VER" \
            "wasi-libc=$WASI_LIBC_VER" "libclang-rt-$LLVM-dev-wasm32=$CLANG_VER" dpkg-dev
    fi
    # python-wasm/cross builds the C++ runtime with LLVM's own cmake build
    if ! command -v cmake >/dev/null || ! command -v ninja >/dev/null; then
        apt-get update -q
        apt-get install -y -q "cmake=$DEBIAN_CMAKE" "ninja-build=$DEBIAN_NINJA"
    fi
    # python-wasm/cross's Fortran compiler (wasi-f77) is f2c, at its pinned version
    if [[ $(dpkg-query -W -f '${Version}' f2c 2>/dev/null) != "$DEBIAN_F2C" ]]; then
        apt-get update -q
        apt-get install -y -q "f2c=$DEBIAN_F2C"
    fi
    if ! [[ -x $BUILD/binaryen/node_modules/.bin/wasm-opt ]]; then
        mkdir -p "$BUILD/binaryen"
        (cd "$BUILD/binaryen" && npm pack -q "binaryen@$BINARYEN_VER" >/dev/null \
            && echo "$NPM_BINARYEN_SHA256  binaryen-$BINARYEN_VER.tgz" | sha256sum -c - \
            && npm install --no-audit --no-fund --silent "./binaryen-$BINARYEN_VER.tgz")
    fi
}

step_sources() {
    # deb-src entries derived from the machine's own deb entries, so no archive host is named here.
    if ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ && ! grep -qs '^deb-src' /etc/apt/sources.list; then
        for f in /etc/apt/sources.list.d/*.sources; do
            sed 's/^Types: deb$/Types: deb-src/' "$f" > "/etc/apt/sources.list.d/cove-src-$(basename "$f")"
        done
        apt-get update -q
    fi
    mkdir -p "$SRC"
    cd "$SRC"
    apt-get source -q --download-only "$PY_PKG=$PY_VER" "zlib=$ZLIB_VER" "bzip2=$BZIP2_VER" \
        "xz-utils=$XZ_VER" "sqlite3=$SQLITE_VER" "llvm-toolchain-$LLVM=$CLANG_VER"
    apt-get download -q "tzdata=$TZDATA_VER" "fonts-dejavu-core=$FONTS_VER"
    sha256sum -c "$HERE/sources.sha256"
    rm -rf tzdata-root && dpkg-deb -x tzdata_*.deb tzdata-root
    rm -rf fonts-root && dpkg-deb -x fonts-dejavu-core_*.deb fonts-root
    for dsc in *.dsc; do
        # LLVM's sources (164 MB) are not unpacked: step profrt takes the few files it needs.
        [[ $dsc == llvm-toolchain-* ]] && continue
        dir=$(awk '/^Source:/{s=$2} /^Version:/{v=$2} END{sub(/^[0-9]+:/, "", v); sub(/-[^-]*$/, "", v); print s "-" v}' "$dsc")
        [[ -d $dir ]] || dpkg-source -q -x "$dsc"
    done
}

step_sysroot() {
    rm -rf "$SYSROOT"
    mkdir -p "$SYSROOT/include" "$SYSROOT/lib" "$DEPS/include" "$DEPS/lib"
    cp -a /usr/include/wasm32-wasi "$SYSROOT/include/"
    cp -a /usr/lib/wasm32-wasi "$SYSROOT/lib/"
}

step_zlib() {
    cd "$SRC"/zlib-1.2.13.dfsg
    make distclean >/dev/null 2>&1 || true
    CC="$CC_WASM" CFLAGS="$CFLAGS_WASM" AR=llvm-ar-$LLVM RANLIB=llvm-ranlib-$LLVM CHOST=wasm32 \
        ./configure --static --prefix="$DEPS"
    make -j"$JOBS" libz.a AR=llvm-ar-$LLVM ARFLAGS=rc RANLIB=llvm-ranlib-$LLVM
    cp libz.a "$DEPS/lib/" && cp zlib.h zconf.h "$DEPS/include/"
}

step_bzip2() {
    cd "$SRC"/bzip2-1.0.8
    make clean >/dev/null 2>&1 || true
    make -j"$JOBS" libbz2.a CC="$CC_WASM" AR=llvm-ar-$LLVM RANLIB=llvm-ranlib-$LLVM CFLAGS="$CFLAGS_WASM -D_FILE_OFFSET_BITS=64"
    cp libbz2.a "$DEPS/lib/" && cp bzlib.h "$DEPS/include/"
}

step_xz() {
    cd "$SRC"/xz-utils-5.4.1
    apply_patch "$HERE/patches/xz-wasi.patch"
    rm -rf build-wasi && mkdir build-wasi && cd build-wasi
    CC="$CC_WASM" CFLAGS="$CFLAGS_WASM" AR=llvm-ar-$LLVM RANLIB=llvm-ranlib-$LLVM ../configure \
        --host=wasm32-unknown-wasi --build="$(gcc -dumpmachine)" --prefix="$DEPS" --disable-shared --enable-static \
        --disable-threads --disable-xz --disable-xzdec --disable-lzmadec --disable-lzmainfo \
        --disable-scripts --disable-doc --disable-nls
    make -j"$JOBS" -C src/liblzma
    make -C src/liblzma install
}

step_sqlite() {
    cd "$SRC"/sqlite3-3.40.1
    rm -rf build-wasi && mkdir build-wasi && cd build-wasi
    # WASI has no file locks, mmap or threads: locking compiled as no-ops (SQLITE_OMIT_WAL keeps
    # it to the rollback journal, which needs no shared memory).
    local defs="-DSQLITE_OMIT_LOAD_EXTENSION -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_WAL \
        -DSQLITE_ENABLE_LOCKING_STYLE=0 -DSQLITE_MAX_MMAP_SIZE=0 \
        -DSQLITE_NOHAVE_SYSTEM -DSQLITE_OMIT_RANDOMNESS=0 \
        -DSQLITE_ENABLE_FTS5 -DSQLITE_ENABLE_JSON1 -DSQLITE_ENABLE_MATH_FUNCTIONS \
        -DSQLITE_DEFAULT_UNIX_VFS=\\\"unix-none\\\""
    CC="$CC_WASM" CFLAGS="$CFLAGS_WASM $defs -include $HERE/patches/sqlite-wasi.h" BUILD_CC=gcc \
        AR=llvm-ar-$LLVM RANLIB=llvm-ranlib-$LLVM ../configure --host=wasm32-unknown-wasi --build="$(gcc -dumpmachine)" --prefix="$DEPS" \
        --disable-shared --enable-static --disable-threadsafe --disable-load-extension \
        --disable-readline --disable-editline --disable-tcl --disable-math
    # The code generators run on the build machine: build them with the host compiler first.
    gcc -O2 -o lemon ../tool/lemon.c && cp ../tool/lempar.c .
    gcc -O2 -o mksourceid ../tool/mksourceid.c
    make -j"$JOBS" sqlite3.c libsqlite3.la
    cp .libs/libsqlite3.a "$DEPS/lib/" && cp sqlite3.h "$DEPS/include/"
}

# configure for CPython in the current directory (a directory of $BUILD, as $SRC is), with
# CFLAGS and LDFLAGS ($1, $2) on top of the wasm32-wasi basics.
configure_cpython() {
    # configure is called by a relative path: the source path ends up in getpath's VPATH and in
    # the snapshot, and must not depend on where the build directory is (it also names static
    # functions in the profile: the pgo step's build and this one must see the same path). Under
    # LTO an object file is bitcode, which configure's float-word-order probe (it greps one)
    # cannot read: wasm32 is little-endian, said outright.
    CONFIG_SITE="$SRC/$PY_PKG-3.11.2/Tools/wasm/config.site-wasm32-wasi" \
    CC="$CC_WASM" CPP="clang-cpp-$LLVM --target=wasm32-wasi --sysroot=$SYSROOT" \
    AR=llvm-ar-$LLVM RANLIB=llvm-ranlib-$LLVM READELF=true \
    CFLAGS="$CFLAGS_WASM $1" CPPFLAGS="-I$DEPS/include" LDFLAGS="-L$DEPS/lib $2" \
    ax_cv_c_float_words_bigendian=no \
    PKG_CONFIG_PATH="" PKG_CONFIG_LIBDIR="$DEPS/lib/pkgconfig" \
    ZLIB_CFLAGS="-I$DEPS/include" ZLIB_LIBS="-lz" BZIP2_CFLAGS="-I$DEPS/include" BZIP2_LIBS="-lbz2" \
    LIBLZMA_CFLAGS="-I$DEPS/include" LIBLZMA_LIBS="-llzma" \
    LIBSQLITE3_CFLAGS="-I$DEPS/include" LIBSQLITE3_LIBS="-lsqlite3" \
        "../src/$PY_PKG-3.11.2/configure" -C --host=wasm32-unknown-wasi --build="$(gcc -dumpmachine)" \
        --with-build-python="$(command -v python3.11)" --disable-shared --disable-ipv6 \
        --without-ensurepip --disable-test-modules --with-pymalloc --without-pydebug
    check_modules
}

step_profrt() {
    local out=$BUILD/profrt
    rm -rf "$out" && mkdir -p "$out/obj" && cd "$out"
    local upstream=${CLANG_VER#*:}
    tar -xJf "$SRC/llvm-toolchain-${LLVM}_${upstream%-*}.orig.tar.xz" --strip-components=1 \
        --wildcards '*/compiler-rt/lib/profile/*' '*/compiler-rt/include/profile/*'
    apply_patch "$HERE/patches/compiler-rt-profile-other-bitmap.patch"
    local rt=compiler-rt/lib/profile f
    # The runtime's portable files (wasm32-wasi has no section-bounds linker magic: PlatformOther
    # registers each function at start-up) and, for InstrProfilingRuntime.cpp, pgo/profile_runtime.c.
    for f in InstrProfiling InstrProfilingBuffer InstrProfilingFile InstrProfilingInternal \
             InstrProfilingMerge InstrProfilingMergeFile InstrProfilingNameVar \
             InstrProfilingPlatformOther InstrProfilingUtil InstrProfilingValue \
             InstrProfilingVersionVar InstrProfilingWriter; do
        $CC_WASM $CFLAGS_WASM -D_WASI_EMULATED_MMAN -DCOMPILER_RT_HAS_UNAME=1 -include "$HERE/pgo/wasi.h" \
            -Icompiler-rt/include -c "$rt/$f.c" -o "obj/$f.o"
    done
    $CC_WASM $CFLAGS_WASM -I"$rt" -Icompiler-rt/include -c "$HERE/pgo/profile_runtime.c" \
        -o obj/profile_runtime.o
    rm -f libprofile.a && llvm-ar-$LLVM rcs libprofile.a obj/*.o
}

# Profile-guided optimisation of CPython (issue 14, guest CPU). CPython's own --enable-optimizations
# runs its training on the interpreter it built, which a cross build cannot do: here an
# instrumented python.wasm (front-end instrumentation, -O2, no LTO: the profile is keyed by
# function and control-flow hash, not by how the code is optimised) runs pgo/train.py under
# wasmtime (pgo/run.py), and llvm-profdata merges what it wrote. numpy and pandas are not
# profiled. The training is deterministic, so a rebuild gets the same profile.
step_pgo() {
    cd "$SRC/$PY_PKG-3.11.2"
    for p in "$HERE"/patches/cpython-*.patch; do apply_patch "$p"; done
    local out=$BUILD/cpython-pgo prof=$BUILD/pgo
    rm -rf "$out" "$prof" && mkdir -p "$out" "$prof/work" && cd "$out"
    configure_cpython "" ""
    # lld resolves archives whatever their place on the line: the runtime can go with LDFLAGS.
    make -j"$JOBS" python.wasm pybuilddir.txt CFLAGS_NODIST="-fprofile-instr-generate" \
        LDFLAGS_NODIST="$BUILD/profrt/libprofile.a -lwasi-emulated-mman"
    python3.11 -m venv "$prof/venv"
    "$prof/venv/bin/python" -m pip install -q "wasmtime==$WASMTIME_PY_VER"
    cp "$HERE/pgo/train.py" "$prof/work/"
    "$prof/venv/bin/python" "$HERE/pgo/run.py" "$out/python.wasm" "$SRC/$PY_PKG-3.11.2/Lib" \
        "$out/$(cat pybuilddir.txt)" "$prof/work"
    "llvm-profdata-$LLVM" merge -o "$PROFDATA" "$prof/work/cpython.profraw"
}

step_cpython() {
    [[ -f $PROFDATA ]] || { echo "no profile at $PROFDATA: run step pgo first" >&2; exit 1; }
    cd "$SRC/$PY_PKG-3.11.2"
    for p in "$HERE"/patches/cpython-*.patch; do apply_patch "$p"; done
    local out=$BUILD/cpython-wasi
    rm -rf "$out" && mkdir -p "$out" && cd "$out"
    configure_cpython "$OPT_CPYTHON $PGO_USE" "$OPT_CPYTHON"
    # python.wasm is not shipped; linking it proves the objects are complete. pybuilddir.txt
    # generates the guest's _sysconfigdata module.
    make -j"$JOBS" libpython3.11.a python.wasm pybuilddir.txt
    check_modules
}

step_stdlib() {
    local out=$BUILD/stdlib
    # the patches to Lib/ (pgo and cpython apply them too; a rebuild of the stdlib alone needs them)
    (cd "$SRC/$PY_PKG-3.11.2" && for p in "$HERE"/patches/cpython-*.patch; do apply_patch "$p"; done)
    rm -rf "$out" && mkdir -p "$out"
    python3.11 "$HERE/make_stdlib.py" --lib "$SRC/$PY_PKG-3.11.2/Lib" \
        --sysconfigdata "$(ls "$BUILD/cpython-wasi/$(cat "$BUILD/cpython-wasi/pybuilddir.txt")"/_sysconfigdata_*.py)" \
        --build-prefix "$BUILD" --guest "$HERE/guest" --zoneinfo "$SRC/tzdata-root/usr/share/zoneinfo" \
        --tz-version "${TZDATA_VER%%-*}" --output "$out/python311.zip"
}

# The packages with C extensions (numpy, pandas, ...): one recipe each (recipes/<name>/), built
# by python-wasm/cross on this build's CPython into $BUILD/cross; its stage/ is what the
# packages and reactor steps take.
CROSS=$BUILD/cross
STAGE=$CROSS/stage

step_extensions() {
    (cd "$HERE" && python3.11 -m cross build --cpython "$BUILD" --work "$CROSS")
}

step_packages() {
    # Wheels are kept in $BUILD/wheels; pip (honouring the machine's pip configuration, e.g. a
    # mirror) is only asked when one is missing. --require-hashes: any other file is refused.
    if ! python3.11 "$HERE/make_packages.py" --wheels "$BUILD/wheels" --check-wheels; then
        python3.11 -m pip download -q --no-deps --only-binary :all: --require-hashes \
            --platform any --implementation py --python-version 3.11 --abi none \
            -r "$HERE/packages.txt" -d "$BUILD/wheels"
    fi
    python3.11 "$HERE/make_packages.py" --wheels "$BUILD/wheels" --zip "$BUILD/stdlib/python311.zip" \
        --tz-version "${TZDATA_VER%%-*}" --record "$BUILD/packages.json" \
        --site "$STAGE/site" --built "$STAGE/built.json"
}

step_reactor() {
    local py=$BUILD/cpython-wasi
    $CC_WASM $CFLAGS_WASM -I"$py" -I"$SRC/$PY_PKG-3.11.2/Include" \
        -c "$HERE/guest/c/cove_driver.c" -o "$BUILD/cove_driver.o"
    $CC_WASM $CFLAGS_WASM -c "$HERE/guest/c/cove_quota.c" -o "$BUILD/cove_quota.o"
    $CC_WASM $CFLAGS_WASM -c "$HERE/guest/c/cove_poll.c" -o "$BUILD/cove_poll.o"
    $CC_WASM $CFLAGS_WASM -c "$HERE/guest/c/cove_snapshot.c" -o "$BUILD/cove_snapshot.o"
    # The limits that protect the host are WebAssembly globals, out of guest memory's reach.
    python3.11 "$HERE/check_link.py" globals --objdump "llvm-objdump-$LLVM" "$BUILD/cove_quota.o" \
        quota_set bytes_left files_left quota_hits open_cap1 depth_cap1 open_count fd_high low_fds \
        orphan_bytes
    python3.11 "$HERE/check_link.py" globals --objdump "llvm-objdump-$LLVM" "$BUILD/cove_driver.o" \
        interrupt_requests
    # libc's own calls into these WASI imports go through the wrappers in cove_quota.c (the
    # workspace quota, open files and directory depth), cove_poll.c (waits sliced, so the
    # call's deadline holds) and cove_snapshot.c (a deterministic snapshot).
    local wraps=""
    for f in random_get clock_time_get fd_filestat_get path_filestat_get fd_readdir \
             fd_write fd_pwrite fd_filestat_set_size fd_allocate path_open path_create_directory \
             path_symlink path_link path_unlink_file path_remove_directory path_rename \
             fd_close fd_renumber poll_oneoff; do
        wraps="$wraps -Wl,--wrap=__wasi_$f"
    done
    wraps="$wraps -Wl,--wrap=strerror"  # Linux's words for the limits' errnos (cove_quota.c)
    # The packages' extension modules: the generated table cove_driver.c registers, and their
    # archives and libraries; then the link-time checks of python-wasm/check_link.py.
    local st=$STAGE
    python3.11 "$HERE/check_link.py" inittab "$st/modules.tsv" > "$BUILD/cove_inittab.c"
    $CC_WASM $CFLAGS_WASM -I"$py" -I"$SRC/$PY_PKG-3.11.2/Include" \
        -c "$BUILD/cove_inittab.c" -o "$BUILD/cove_inittab.o"
    local ext=()
    mapfile -t ext < "$st/link.txt"
    python3.11 "$HERE/check_link.py" duplicates --nm "llvm-nm-$LLVM" -- "${ext[@]}"
    # Every object and library python.wasm links, minus its main() (Programs/python.o).
    local objs libs
    objs=$(make -s -C "$py" -f Makefile -f "$HERE/print-vars.mk" print-objs)
    libs=$(make -s -C "$py" -f Makefile -f "$HERE/print-vars.mk" print-libs)
    # shellcheck disable=SC2086 # word splitting of the object and library lists is intended
    # --fatal-warnings: a function-signature mismatch between objects is only a warning to
    # wasm-ld, and a call_indirect trap at run time. __stack_pointer is exported for the host:
    # the soft deadline and session images (cove_driver.c).
    (cd "$py" && $CC_WASM -mexec-model=reactor $OPT_CPYTHON -Wl,--lto-O3 -Wl,--strip-debug -z stack-size=8388608 \
        -Wl,--stack-first -Wl,--export=__stack_pointer -Wl,--fatal-warnings $wraps -L"$DEPS/lib" -L"$CROSS/sysroot/lib/wasm32-wasi" \
        -o "$BUILD/reactor.wasm" "$BUILD/cove_driver.o" "$BUILD/cove_inittab.o" \
        "$BUILD/cove_quota.o" "$BUILD/cove_poll.o" "$BUILD/cove_snapshot.o" $objs "${ext[@]}" $libs \
        -lwasi-emulated-mman -lc-printscan-long-double -lc++ -lc++abi -lunwind -lsetjmp)
    # No function pointer leads around a wrapper or to the host's controls.
    python3.11 "$HERE/check_link.py" table "$BUILD/reactor.wasm"
    # No thread-local data: wasm-ld 19 would have put it at the wrong addresses.
    python3.11 "$HERE/check_link.py" tls "$BUILD/reactor.wasm"
    # clang 19 writes WebAssembly's legacy exception instructions (C++ exceptions, setjmp);
    # wasmtime runs the standardised ones (exnref): binaryen rewrites them, and nothing else
    # (-g keeps the function names). A module without them is only re-encoded.
    mv "$BUILD/reactor.wasm" "$BUILD/reactor.legacy.wasm"
    "$BUILD/binaryen/node_modules/.bin/wasm-opt" -g --enable-exception-handling \
        --enable-bulk-memory --enable-mutable-globals --enable-sign-ext \
        --enable-nontrapping-float-to-int --enable-multivalue --enable-reference-types \
        --translate-to-exnref "$BUILD/reactor.legacy.wasm" -o "$BUILD/reactor.wasm"
}

# The guest's read-only root, preopened as its `/` (runtime/cove/_artifact.py): the stdlib zip,
# DejaVu's fonts and their licence where Debian puts them (Pillow's ImageFont.truetype finds
# "DejaVuSans.ttf" under /usr/share/fonts, as on a Debian machine with fonts-dejavu-core), and
# the empty directories the session's /workspace and /tmp stand over, and what the recipes
# stage for it. Only files and directories, every time fixed: the interpreter stats some while
# initialising.
assemble_root() {
    local root=$BUILD/root fonts=$SRC/fonts-root/usr/share
    rm -rf "$root"
    mkdir -p "$root/usr/lib" "$root/usr/share/fonts/truetype/dejavu" \
        "$root/usr/share/doc/fonts-dejavu-core" "$root/workspace" "$root/tmp"
    cp "$BUILD/stdlib/python311.zip" "$root/usr/lib/"
    cp "$fonts"/fonts/truetype/dejavu/*.ttf "$root/usr/share/fonts/truetype/dejavu/"
    cp "$fonts/doc/fonts-dejavu-core/copyright" "$root/usr/share/doc/fonts-dejavu-core/"
    # What the recipes move out of the zip ([stage] root: data a package opens by path;
    # cross/stage.py), never over a file the tree has already.
    local staged=$BUILD/cross/stage/root f
    if [[ -d $staged ]]; then
        while IFS= read -r -d '' f; do
            if [[ -e $root/$f ]]; then
                echo "assemble_root: the recipes stage ${f#./}, which the guest's root has already" >&2
                return 1
            fi
        done < <(cd "$staged" && find . -type f -print0)
        cp -R "$staged/." "$root/"
    fi
    chmod -R u=rwX,go=rX "$root"
    find "$root" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
}

step_snapshot() {
    # The guest paths and their order here are the runtime's: wasi-libc's table of preopened
    # directories is frozen into the snapshot (fd 3 = /, fd 4 = /workspace, fd 5 = /tmp).
    local ws=$BUILD/snapshot-workspace tmp=$BUILD/snapshot-tmp
    assemble_root
    rm -rf "$ws" "$tmp" && mkdir -p "$ws" "$tmp"
    # The interpreter stats these while initialising and keeps what it saw in the snapshot:
    # their times must not depend on when the build ran.
    touch -d "@$SOURCE_DATE_EPOCH" "$ws" "$tmp"
    # python-wasm/snapshot.py, on the wasmtime-py the runtime pins (the pgo step's venv): Wizer
    # refuses WebAssembly's exception instructions, which C++ exceptions and setjmp compile to.
    "$BUILD/pgo/venv/bin/python" "$HERE/snapshot.py" --init-func cove_init --inherit-stdio true \
        --mapdir "/::$BUILD/root" --mapdir "/workspace::$ws" --mapdir "/tmp::$tmp" \
        -o "$BUILD/python.wasm" "$BUILD/reactor.wasm"
}

step_install() {
    mkdir -p "$DIST"
    python3.11 "$HERE/manifest.py" write --build "$BUILD" --dist "$DIST" --src "$SRC" \
        --py-version "$PY_VER" --zlib-version "$ZLIB_VER" --bzip2-version "$BZIP2_VER" \
        --xz-version "$XZ_VER" --sqlite-version "$SQLITE_VER" --clang-version "$CLANG_VER" \
        --wasi-libc-version "$WASI_LIBC_VER" --binaryen-version "$BINARYEN_VER" --tzdata-version "$TZDATA_VER" \
        --fonts-version "$FONTS_VER" --wasmtime-py-version "$WASMTIME_PY_VER"
}

run_step() {
    local s=$1
    if is_done "$s"; then log "$s: done already"; return; fi
    log "$s"
    ( "step_$s" )
    done_ "$s"
}

ALL_STEPS=(toolchain sources sysroot zlib bzip2 xz sqlite profrt pgo cpython stdlib extensions packages reactor
           snapshot install)

main() {
    if [[ ${1:-} == clean ]]; then rm -rf "$STAMPS"; exit 0; fi
    no_wasm_opt
    local steps=("$@")
    (( ${#steps[@]} )) || steps=("${ALL_STEPS[@]}")
    for s in "${steps[@]}"; do
        declare -F "step_$s" >/dev/null || { echo "unknown step: $s" >&2; exit 2; }
        # A step asked for by name runs again even if stamped.
        (( $# )) && rm -f "$STAMPS/$s"
        run_step "$s"
    done
}

main "$@"

#!/usr/bin/env bash
# Cross-compiles numpy 2.2.6 and pandas 2.2.3 for Cove's CPython 3.11 wasm32-wasi, statically.
# python-wasm/build.sh runs it (its steps `numpy` and `pandas` end with `stage`, which is what the
# interpreter's link and zip take); on its own it also links a test WASI command module.
#
# Usage: ./build-numpy.sh [STEP ...]     (no step: all, in order; each step is idempotent)
# Steps:
#   toolchain  clang-19/lld-19/llvm-19/libclang-rt-19-dev-wasm32 (apt) + libc++-19 wasm32 (dpkg-deb -x)
#   cpy        copy what we need from Cove's CPython build (read-only) into $W/cpy
#   hostvenv   host build venv: Cython, meson, meson-python, ninja (pinned, hash-checked)
#   sources    numpy 2.2.6 sdist (pip download, sha256-checked), unpacked + patched
#   configure  meson setup of numpy with a wasm32-wasi cross file
#   compile    ninja (nice -n 15, -j2)
#   collect    per-extension static archives from meson introspection + inittab C
#   pyzip      numpy's pure-Python files (+ generated .py) into numpy.zip
#   link       test command module: libpython + numpy archives + inittab + main()
#   run        goal test under wasmtime-py (Cove's .venv), compared with native numpy
#   pdsources pdconfigure pdcompile pdcollect pdpyzip pddeps pdlink pdrun
#              the same for pandas 2.2.3 (needs the numpy steps first), linked together with numpy
#   pytests    (not in the default list) numpy's/pandas' own pytest suites in the guest (NP_SUITES)
#   stage      (not in the default list; build.sh's last step here) what the interpreter takes
#
# Env: NP_WORK=dir (default ./work) builds elsewhere; NINJA_FLAGS="-k 0" to see all compile errors.
# Files: files/ (wrappers, driver, generators, stand-ins, rename headers), patches/ (one per fix,
# each naming its upstream issue), NOTES.md (every error met and its fix, versions, sizes, timings).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
W=${NP_WORK:-$HERE/work}
COVE=${COVE_PYTHON_WASM:-$(cd "$HERE/.." && pwd)}
COVE_BUILD=${COVE_WASM_BUILD:-$COVE/build}
STAMPS=$W/stamps
JOBS=2
NICE="nice -n 15"

LLVM_VER=1:19.1.7-3~deb12u1
NUMPY_VER=2.2.6
CYTHON_VER=3.0.12
MESON_VER=1.2.1
MESON_PYTHON_VER=0.13.1
NINJA_VER=1.11.1.4
PANDAS_VER=2.2.3

LLVM=/usr/lib/llvm-19/bin
LIBCXX_DEBS_SHA256="e2c3a1ec97f42ff660688e7a435dab7cb785211d9e9559eef86192a218c24ce8  libc++-19-dev-wasm32_1%3a19.1.7-3~deb12u1_all.deb
a0835ee4cf44d41ee988e77be30d023134160a80bdea02b03a6a384c3f048e4d  libc++abi-19-dev-wasm32_1%3a19.1.7-3~deb12u1_all.deb"
CXXROOT=$W/cxx19          # private layer: libc++/libc++abi 19 for wasm32 (no exceptions)
SYSROOT=$W/sysroot        # wasi-libc sysroot (copy of Debian's) + libc++ headers/libs
CPY=$W/cpy                # headers, pyconfig.h, libpython3.11.a, sysconfigdata from Cove's build
HOSTPY=python3.11

export TZ=UTC LC_ALL=C.UTF-8 PYTHONHASHSEED=0
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1767225600}

log() { printf '\n== %s\n' "$*" >&2; }
done_() { mkdir -p "$STAMPS"; touch "$STAMPS/$1"; }
is_done() { [[ -f $STAMPS/$1 ]]; }
apply_patch() {  # once: skipped when it reverses cleanly
    if patch -p1 -R --dry-run -s -f < "$1" >/dev/null 2>&1; then return; fi
    patch -p1 -s -f < "$1"
}

step_toolchain() {
    if ! [[ -x $LLVM/clang ]] || ! [[ -x $LLVM/wasm-ld ]] \
        || ! [[ -f /usr/lib/llvm-19/lib/clang/19/lib/wasi/libclang_rt.builtins-wasm32.a ]]; then
        apt-get -o DPkg::Lock::Timeout=900 update -q
        apt-get -o DPkg::Lock::Timeout=900 install -y -q "clang-19=$LLVM_VER" "lld-19=$LLVM_VER" \
            "llvm-19=$LLVM_VER" "libclang-rt-19-dev-wasm32=$LLVM_VER"
    fi
    # libc++-19-dev-wasm32 / libc++abi-19-dev-wasm32 conflict with the -16 ones Cove may install:
    # unpack them privately instead of installing.
    if ! [[ -f $CXXROOT/usr/lib/wasm32-wasi/libc++.a ]]; then
        mkdir -p "$W/debs" && cd "$W/debs"
        apt-get -o DPkg::Lock::Timeout=900 download -q "libc++-19-dev-wasm32=$LLVM_VER" "libc++abi-19-dev-wasm32=$LLVM_VER"
        printf '%s\n' "$LIBCXX_DEBS_SHA256" > "$W/debs.sha256"
        sha256sum -c "$W/debs.sha256"
        rm -rf "$CXXROOT" && mkdir -p "$CXXROOT"
        for d in ./*.deb; do dpkg-deb -x "$d" "$CXXROOT"; done
    fi
    # A private sysroot: Debian's wasi-libc + the libc++ layer. (Debian's clang otherwise also
    # searches the host's /usr/include.)
    rm -rf "$SYSROOT" && mkdir -p "$SYSROOT/include" "$SYSROOT/lib"
    cp -a /usr/include/wasm32-wasi "$SYSROOT/include/"
    cp -a /usr/lib/wasm32-wasi "$SYSROOT/lib/"
    # libc++ headers: Debian puts them under /usr/lib/llvm-19/include/wasm32-wasi/c++/v1 or
    # /usr/include/wasm32-wasi/c++/v1; copy whatever the deb has into the sysroot layout clang expects.
    local inc
    inc=$(find "$CXXROOT" -type d -path '*c++/v1' | head -1)
    mkdir -p "$SYSROOT/include/wasm32-wasi/c++"
    cp -a "$inc" "$SYSROOT/include/wasm32-wasi/c++/"
    # the __config_site may live in a separate per-target dir
    find "$CXXROOT" -name __config_site -exec cp {} "$SYSROOT/include/wasm32-wasi/c++/v1/" \;
    find "$CXXROOT" -name 'libc++*.a' -exec cp {} "$SYSROOT/lib/wasm32-wasi/" \;
    $LLVM/clang --version | head -1
}

# sha256 pins (PyPI files; the first is the numpy sdist)
PINS="
e29554e2bef54a90aa5cc07da6ce955accb83f21ab5de01a62c8478897b264fd  numpy-2.2.6.tar.gz
563de1728c8e48869d2380a1b76bbc1b1b1d01aba948480d68c1d05e52d20c92  Cython-3.0.12-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl
08f83fc17513e99cd6e82c7554c1f58af70425211887f8f9c7363b2a90209462  meson-1.2.1-py3-none-any.whl
e33ea3efbadecc15768c205d03b905c7b3bf72afae1e1ebd84b438c4a3ed3393  meson_python-0.13.1-py3-none-any.whl
096487995473320de7f65d622c3f1d16c3ad174797602218ca8c967f51ec38a0  ninja-1.11.1.4-py3-none-manylinux_2_12_x86_64.manylinux2010_x86_64.whl
09abb1bccd265c01f4a3aa3f7a7db064b36514d2cba19a2f694fe6150451a759  packaging-24.2-py3-none-any.whl
ee5efde548c3ed9b75a354fc319d5afd25e9585fa918a34f62f904cc731973ad  pyproject_metadata-0.9.1-py3-none-any.whl
0f1a137bb5d6811e96a79bb0486798aeae9b9c6efc24b389659cebb0ee396cb9  versioneer-0.29-py3-none-any.whl
"
VENV=$W/hostvenv

step_hostvenv() {
    mkdir -p "$W/dl" && cd "$W/dl"
    # Build-time tools as wheels (pinned; Cython ~=3.0.5 suits both numpy 2.2 (>=3.0.6) and
    # pandas 2.2.3 (~=3.0.5); meson 1.2.1 / meson-python 0.13.1 are pandas 2.2.3's own pins).
    pip download -q --no-deps --only-binary :all: --python-version 3.11 \
        --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux_2_12_x86_64 \
        "cython==$CYTHON_VER" "meson==$MESON_VER" "meson-python==$MESON_PYTHON_VER" "ninja==$NINJA_VER" \
        pyproject-metadata==0.9.1 packaging==24.2 versioneer==0.29 -d .
    echo "$PINS" | grep -v numpy | grep . | sha256sum -c -
    rm -rf "$VENV" && $HOSTPY -m venv "$VENV"
    "$VENV/bin/pip" install -q --no-index --no-deps ./Cython-*.whl ./meson-*.whl ./meson_python-*.whl \
        ./ninja-*.whl ./pyproject_metadata-*.whl ./packaging-*.whl ./versioneer-*.whl
    "$VENV/bin/cython" --version; "$VENV/bin/meson" --version; "$VENV/bin/ninja" --version
}

NPSRC=$W/src/numpy-$NUMPY_VER
NPBUILD=$W/build-numpy
BIN=$W/bin

step_sources() {
    mkdir -p "$W/dl" && cd "$W/dl"
    if ! [[ -f numpy-$NUMPY_VER.tar.gz ]]; then
        # --no-binary numpy, not :all: -- with :all: pip also wants the build deps (ninja, cmake)
        # as sdists and fails. pip prepares the metadata with a native meson setup (~4.5 min).
        pip download --no-deps --no-binary numpy "numpy==$NUMPY_VER" -d .
    fi
    echo "$PINS" | grep "numpy-$NUMPY_VER.tar.gz" | sha256sum -c -
    rm -rf "$NPSRC" && mkdir -p "$W/src" && tar -C "$W/src" -xzf "numpy-$NUMPY_VER.tar.gz"
    cd "$NPSRC"
    for p in "$HERE"/patches/numpy-*.patch; do apply_patch "$p"; done
    # A method table whose flags do not match its C function's parameters traps in wasm
    # (numpy-0004 fixed three): refuse any other.
    python3 "$HERE/files/check_methdefs.py" numpy
}

# The cross toolchain as meson sees it: compiler wrappers, the target "python", a pkg-config dir.
write_cross_env() {
    mkdir -p "$BIN" "$W/pc" "$W/pyhook"
    install -m 755 "$HERE/files/wasi-cc" "$BIN/wasi-cc"
    install -m 755 "$HERE/files/wasi-cc" "$BIN/wasi-c++"
    cp "$HERE/files/sitecustomize.py" "$W/pyhook/"
    cat > "$BIN/python-wasi" <<EOF2
#!/bin/sh
# host python3.11 posing as the wasm32-wasi CPython: target sysconfig data + include dirs
export _PYTHON_SYSCONFIGDATA_NAME=_sysconfigdata__wasi_wasm32-wasi
export PYTHONPATH=$W/pyhook:$CPY\${PYTHONPATH:+:\$PYTHONPATH}
export WASI_PY_INCLUDE=$CPY/include/python3.11 WASI_PY_LIBPC=$W/pc
exec $VENV/bin/python "\$@"
EOF2
    chmod +x "$BIN/python-wasi"
    # cython with the work directory's path in what it writes given as /build, as
    # -ffile-prefix-map does for the compilers: meson hands it absolute .pyx paths, which end up
    # in the modules' code objects (tracebacks), and the artifact must not depend on where it was
    # built. CYTHON_INCLUDE: pandas' build adds the cross numpy's .pxd directory.
    mkdir -p "$W/bin-cy"
    cat > "$W/bin-cy/cython" <<EOF2
#!/bin/sh
$VENV/bin/cython \${CYTHON_INCLUDE:+-I "\$CYTHON_INCLUDE"} "\$@" || exit \$?
out=; prev=
for a in "\$@"; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
[ -z "\$out" ] || sed -i "s|$W/|/build/|g" "\$out"
EOF2
    chmod +x "$W/bin-cy/cython"
    cat > "$W/pc/python-3.11.pc" <<EOF2
prefix=$CPY
Name: Python
Description: Cove's CPython 3.11 for wasm32-wasi (static; extensions are linked in)
Version: 3.11
Libs:
Cflags: -I$CPY/include/python3.11
EOF2
    # -D_WASI_EMULATED_*: as Cove's CPython. -fno-exceptions: Debian's libc++abi for wasm32 has none.
    local common="'-O2', '-g0', '-include', '$HERE/files/npy_fenv_flags.h', '-D_WASI_EMULATED_SIGNAL', '-D_WASI_EMULATED_GETPID', '-D_WASI_EMULATED_PROCESS_CLOCKS', '-D_WASI_EMULATED_MMAN', '-ffile-prefix-map=$W=/build'"
    cat > "$W/wasi.cross" <<EOF2
[binaries]
c = '$BIN/wasi-cc'
cpp = '$BIN/wasi-c++'
ar = '$LLVM/llvm-ar'
ranlib = '$LLVM/llvm-ranlib'
strip = '$LLVM/llvm-strip'
nm = '$LLVM/llvm-nm'
python = '$BIN/python-wasi'
python3 = '$BIN/python-wasi'
cython = '$W/bin-cy/cython'
pkg-config = '/usr/bin/pkg-config'

[properties]
longdouble_format = 'IEEE_QUAD_LE'
needs_exe_wrapper = true
pkg_config_libdir = '$W/pc'

[built-in options]
c_args = [$common]
cpp_args = [$common, '-fno-exceptions', '-Drestrict=__restrict']
c_link_args = ['-lwasi-emulated-signal', '-lwasi-emulated-getpid', '-lwasi-emulated-process-clocks', '-lwasi-emulated-mman']
cpp_link_args = ['-lwasi-emulated-signal', '-lwasi-emulated-getpid', '-lwasi-emulated-process-clocks', '-lwasi-emulated-mman']

[host_machine]
system = 'wasi'
cpu_family = 'wasm32'
cpu = 'wasm32'
endian = 'little'
EOF2
}

step_configure() {
    write_cross_env
    rm -rf "$NPBUILD"
    cd "$NPSRC"
    export WASI_SYSROOT=$SYSROOT WASI_LLVM=$LLVM WASI_RENAMES=$HERE/files/renames PATH=$W/bin-cy:$VENV/bin:$PATH
    $NICE "$VENV/bin/python" vendored-meson/meson/meson.py setup "$NPBUILD" \
        --cross-file "$W/wasi.cross" --buildtype=release -Db_ndebug=if-release \
        -Dallow-noblas=true -Dblas=none -Dlapack=none -Ddisable-svml=true \
        -Ddisable-highway=true -Ddisable-intel-sort=true -Ddisable-optimization=true \
        -Ddisable-threading=true --prefix=/usr
}

step_compile() {
    cd "$NPBUILD"
    export WASI_SYSROOT=$SYSROOT WASI_LLVM=$LLVM WASI_RENAMES=$HERE/files/renames PATH=$W/bin-cy:$VENV/bin:$PATH
    $NICE ninja -j$JOBS ${NINJA_FLAGS:-}
}

NPOUT=$W/out-numpy
MESON_NP="$VENV/bin/python $NPSRC/vendored-meson/meson/meson.py"

step_collect() {
    rm -rf "$NPOUT" && mkdir -p "$NPOUT"
    python3 "$HERE/files/gen_inittab.py" "$NPBUILD" "$NPOUT" np --meson "$MESON_NP"
    cat "$NPOUT/np.modules" | cut -f1,2
    du -sh "$NPOUT/lib"
}

step_pyzip() {
    # numpy's Python files as meson installs them (source .py + generated version.py, __config__.py
    # ...), without the extension "modules" (archives) and the headers / static libs / tests' data.
    local dest=$W/install-numpy
    rm -rf "$dest"
    (cd "$NPBUILD" && $MESON_NP install --destdir "$dest" --no-rebuild >/dev/null)
    local sp; sp=$(dirname "$(find "$dest" -type d -name numpy -path '*-packages/numpy' | head -1)")
    rm -rf "$W/site" && mkdir -p "$W/site"
    (cd "$sp" && find numpy -type f \( -name '*.py' -o -name '*.pyi' -o -name 'py.typed' \) \
        ! -path '*/tests/*' ! -path 'numpy/_core/include/*' ! -path 'numpy/f2py/*' \
        -exec cp --parents {} "$W/site/" \;)
    # numpy.zip: sources + legacy-layout (foo.pyc beside foo.py, which zipimport reads) unchecked-hash
    # bytecode from the host python3.11 (same magic number as the guest's 3.11.2).
    rm -rf "$W/site-pyc" && cp -a "$W/site" "$W/site-pyc"
    $HOSTPY -m compileall -q -b --invalidation-mode unchecked-hash -s "$W/site-pyc" -p /usr/lib/numpy.zip "$W/site-pyc/numpy" >/dev/null
    find "$W/site-pyc" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    rm -f "$W/numpy.zip"
    (cd "$W/site-pyc" && find numpy \( -name '*.py' -o -name '*.pyc' \) | sort | zip -q -X "$W/numpy.zip" -@)
    du -sh "$W/site" "$W/numpy.zip"
}

CC19="$LLVM/clang --target=wasm32-wasi --sysroot=$SYSROOT"
CFLAGS19="-O2 -g0 -D_WASI_EMULATED_SIGNAL -D_WASI_EMULATED_GETPID -D_WASI_EMULATED_PROCESS_CLOCKS"

# link_test NAME LINKFILE...: a WASI command = Cove's libpython objects + np_driver.c + the inittabs
link_test() {
    local name=$1; shift
    local out=$W/link-$name; mkdir -p "$out"
    local py=$CPY/cpython-wasi inc="-I$CPY/include/python3.11"
    # one inittab array for the driver: concatenate the generated ones
    {
        echo '#include "Python.h"'
        for lf in "$@"; do
            local t=${lf%.link}_inittab.c
            grep '^extern' "$t"
        done
        echo 'struct _inittab np_inittab[] = {'
        for lf in "$@"; do grep '^    {"' "${lf%.link}_inittab.c"; done
        echo '    {NULL, NULL},'
        echo '};'
    } > "$out/inittab.c"
    $CC19 $CFLAGS19 $inc -c "$HERE/files/np_driver.c" -o "$out/np_driver.o"
    $CC19 $CFLAGS19 $inc -c "$out/inittab.c" -o "$out/inittab.o"
    local extra=()
    for lf in "$@"; do mapfile -t -O "${#extra[@]}" extra < "$lf"; done
    # shellcheck disable=SC2046
    (cd "$py" && $CC19 -O2 -Wl,--strip-debug -z stack-size=8388608 -Wl,--stack-first \
        -o "$out/$name.wasm" "$out/np_driver.o" "$out/inittab.o" $(cat "$CPY/objs.txt") \
        "${extra[@]}" -L"$CPY/deps/lib" $(cat "$CPY/libs.txt") -lwasi-emulated-mman -lc-printscan-long-double -lc++ -lc++abi \
        -Wl,--error-limit=50 2>&1 | tee "$out/link.log")
    ls -la "$out/$name.wasm"
}

step_link() {
    link_test numpy "$NPOUT/np.link"
}

WASMTIME_PY=${WASMTIME_PY:-$COVE/../.venv/bin/python}   # wasmtime-py 50.0.1 (the project venv)
GOAL='import numpy as np; print(np.__version__, np.arange(10).sum(), np.linalg.solve([[3,1],[1,2]],[9,8]), np.random.default_rng(0).random(3))'

step_run() {
    local g=$W/guest-lib; rm -rf "$g" && mkdir -p "$g" /tmp/npguest
    cp "$CPY/python311.zip" "$W/numpy.zip" "$HERE"/files/test_*.py "$g/"
    local run="$WASMTIME_PY $HERE/files/run_wasm.py $W/link-numpy/numpy.wasm --map /usr/lib=$g --map /tmp=/tmp/npguest --env NP_PATH=/usr/lib/numpy.zip --"
    echo "--- goal test, guest:"; $run -c "$GOAL"
    echo "--- goal test, native numpy $NUMPY_VER:"
    [[ -x $W/refvenv/bin/python ]] || { $HOSTPY -m venv "$W/refvenv" && "$W/refvenv/bin/pip" install -q "numpy==$NUMPY_VER"; }
    "$W/refvenv/bin/python" -c "$GOAL"
    for t in test_import_time test_numpy_smoke test_numpy_fpe test_numpy_files; do
        echo "--- $t (guest)"; $run "/usr/lib/$t.py" 2>&1 || true
    done
    echo "--- test_import_time (native)"; "$W/refvenv/bin/python" "$HERE/files/test_import_time.py"
}

PDSRC=$W/src/pandas-$PANDAS_VER
PDBUILD=$W/build-pandas
PDOUT=$W/out-pandas
PANDAS_SHA256=4f18ba62b61d7e192368b84517265a99b4d7ee8912f8708660fb4a366cc82667

step_pdsources() {
    cd "$W/dl"
    # as for numpy: --no-binary pandas only (pip runs a native meson setup for the metadata)
    [[ -f pandas-$PANDAS_VER.tar.gz ]] || pip download --no-deps --no-binary pandas "pandas==$PANDAS_VER" -d .
    echo "$PANDAS_SHA256  pandas-$PANDAS_VER.tar.gz" | sha256sum -c -
    rm -rf "$PDSRC" && tar -C "$W/src" -xzf "pandas-$PANDAS_VER.tar.gz"
    cd "$PDSRC"
    for p in "$HERE"/patches/pandas-*.patch; do [[ -e $p ]] && apply_patch "$p"; done
    python3 "$HERE/files/check_methdefs.py" pandas
}

step_pdconfigure() {
    write_cross_env
    # the cross numpy, as pandas' build sees it: headers (np.get_include() of a stub numpy package
    # that only the target "python" sees) and .pxd files (for Cython's `cimport numpy`)
    local sp; sp=$(dirname "$(find "$W/install-numpy" -type d -path '*-packages/numpy' | head -1)")
    mkdir -p "$W/pd-pyhook/numpy" "$W/np-pxd"
    printf 'def get_include():\n    return %s\n__version__ = "%s"\n' "'$sp/numpy/_core/include'" "$NUMPY_VER" \
        > "$W/pd-pyhook/numpy/__init__.py"
    rm -rf "$W/np-pxd/numpy" && (cd "$sp" && find numpy -name '*.pxd' -exec cp --parents {} "$W/np-pxd/" \;)
    sed "s|^export PYTHONPATH=|export PYTHONPATH=$W/pd-pyhook:|" "$BIN/python-wasi" > "$BIN/python-wasi-pd"
    chmod +x "$BIN/python-wasi-pd"
    sed -e "s|^python = .*|python = '$BIN/python-wasi-pd'|" -e "s|^python3 = .*|python3 = '$BIN/python-wasi-pd'|" \
        "$W/wasi.cross" > "$W/wasi-pandas.cross"
    # Cython must cimport the cross numpy 2.2.6's numpy/__init__.cython-30.pxd, not the numpy-1-era
    # copy bundled in Cython/Includes
    # (meson 1.2.1 ignores a global cython_args option, and takes `cython` from PATH, not from the
    # cross file: a `cython` wrapper first in PATH adds the include dir)
    mkdir -p "$W/bin-pd"
    printf '#!/bin/sh\nCYTHON_INCLUDE=%s exec %s "$@"\n' "$W/np-pxd" "$W/bin-cy/cython" > "$W/bin-pd/cython"
    chmod +x "$W/bin-pd/cython"
    rm -rf "$PDBUILD"
    cd "$PDSRC"
    export WASI_SYSROOT=$SYSROOT WASI_LLVM=$LLVM WASI_RENAMES=$HERE/files/renames PATH=$W/bin-pd:$VENV/bin:$PATH
    $NICE "$VENV/bin/meson" setup "$PDBUILD" --cross-file "$W/wasi-pandas.cross" --buildtype=release \
        -Db_ndebug=if-release --prefix=/usr
}

step_pdcompile() {
    cd "$PDBUILD"
    export WASI_SYSROOT=$SYSROOT WASI_LLVM=$LLVM WASI_RENAMES=$HERE/files/renames PATH=$W/bin-pd:$VENV/bin:$PATH
    $NICE ninja -j$JOBS ${NINJA_FLAGS:-}
}

step_pdcollect() {
    rm -rf "$PDOUT" && mkdir -p "$PDOUT"
    python3 "$HERE/files/gen_inittab.py" "$PDBUILD" "$PDOUT" pd --meson "$VENV/bin/meson"
    # the C++ ABI stubs for aggregations (-fexceptions, no EH runtime)
    $CC19 $CFLAGS19 -c "$HERE/files/cxxabi_noexcept_stub.c" -o "$PDOUT/cxxabi_noexcept_stub.o"
    echo "$PDOUT/cxxabi_noexcept_stub.o" >> "$PDOUT/pd.link"
    cut -f1 "$PDOUT/pd.modules" | tr '\n' ' '; echo
    du -sh "$PDOUT/lib"
}

step_pdpyzip() {
    local dest=$W/install-pandas
    rm -rf "$dest"
    (cd "$PDBUILD" && "$VENV/bin/meson" install --destdir "$dest" --no-rebuild >/dev/null)
    local sp; sp=$(dirname "$(find "$dest" -type d -path '*-packages/pandas' | head -1)")
    rm -rf "$W/site-pd" && mkdir -p "$W/site-pd"
    (cd "$sp" && find pandas -type f ! -name '*.so' ! -name '*.so.link' ! -path 'pandas/tests/*' \
        -exec cp --parents {} "$W/site-pd/" \;)
    $HOSTPY -m compileall -q -b --invalidation-mode unchecked-hash -s "$W/site-pd" -p /usr/lib/pandas.zip "$W/site-pd/pandas" >/dev/null || true
    find "$W/site-pd" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    rm -f "$W/pandas.zip"
    (cd "$W/site-pd" && find pandas -type f ! -name '*.pyi' | sort | zip -q -X "$W/pandas.zip" -@)
    du -sh "$W/site-pd" "$W/pandas.zip"
}

step_pdlink() {
    link_test pandas "$NPOUT/np.link" "$PDOUT/pd.link"
}

# pandas' pure-Python run-time deps (tzdata is already in Cove's stdlib zip)
PD_DEPS_PINS="
a8b2bc7bffae282281c8140a97d3aa9c14da0b136dfe83f850eea9a5f7470427  python_dateutil-2.9.0.post0-py2.py3-none-any.whl
4721f391ed90541fddacab5acf947aa0d3dc7d27b2e1e8eda2be8970586c3274  six-1.17.0-py2.py3-none-any.whl
5ddf76296dd8c44c26eb8f4b6f35488f3ccbf6fbbd7adee0b7262d43f0ec2f00  pytz-2025.2-py2.py3-none-any.whl
"

step_pddeps() {
    cd "$W/dl"
    pip download -q --no-deps --only-binary :all: python-dateutil==2.9.0.post0 six==1.17.0 pytz==2025.2 -d .
    echo "$PD_DEPS_PINS" | grep . | sha256sum -c -
    rm -rf "$W/site-deps" && mkdir -p "$W/site-deps"
    for whl in python_dateutil-2.9.0.post0-*.whl six-1.17.0-*.whl pytz-2025.2-*.whl; do
        (cd "$W/site-deps" && python3 -m zipfile -e "$W/dl/$whl" .)
    done
    rm -rf "$W/site-deps"/*.dist-info
    cp "$HERE/files/mmap.py" "$W/site-deps/"
    $HOSTPY -m compileall -q -b --invalidation-mode unchecked-hash "$W/site-deps" >/dev/null || true
    find "$W/site-deps" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    rm -f "$W/pddeps.zip"
    (cd "$W/site-deps" && find . -type f | sed 's|^\./||' | sort | zip -q -X "$W/pddeps.zip" -@)
    du -sh "$W/pddeps.zip"
}

# Cove's stdlib tzdata package has no __version__; pandas (zoneinfo paths) insists on one:
# "ImportError: Can't determine version for tzdata". Fix belongs in Cove's make_stdlib.py.
TZDATA_FIX='import tzdata; tzdata.__version__ = "2026.6"'

step_pdrun() {
    local g=$W/guest-lib; mkdir -p "$g" /tmp/npguest
    cp "$CPY/python311.zip" "$W/numpy.zip" "$W/pandas.zip" "$HERE"/files/test_*.py "$g/"
    # pytz reads its zoneinfo files with open() next to its __file__: from a zip that fails
    # (UnknownTimeZoneError: 'Europe/Paris'), so the pure-Python deps go in as a directory
    rm -rf "$g/site-deps" && cp -a "$W/site-deps" "$g/site-deps"
    local run="$WASMTIME_PY $HERE/files/run_wasm.py $W/link-pandas/pandas.wasm --map /usr/lib=$g --map /tmp=/tmp/npguest --env NP_PATH=/usr/lib/numpy.zip:/usr/lib/pandas.zip:/usr/lib/site-deps --"
    export NP_PRELUDE=$TZDATA_FIX
    echo "--- numpy goal test in the pandas build:"; $run -c "$GOAL"
    for t in test_pandas_smoke test_pandas_import_time; do
        echo "--- $t (guest)"; $run "/usr/lib/$t.py" 2>&1 || true
    done
}

# numpy's and pandas' own test-suites in the guest (not in the default list; minutes each).
# NP_SUITES picks the test dirs; pure-Python pytest stack from PyPI wheels (pinned).
TEST_PINS="
427318ce031701fea540783410126f03899a97ffc6f61596ad581ac2e40e3bc3  attrs-25.3.0-py3-none-any.whl
734959017e3ee4ef8f0ecb4e5169c8f4cf96dc83a997d2edf01fb5350f5bf2f4  hypothesis-6.131.0-py3-none-any.whl
9deba5723312380e77435581c6bf4935c94cbfab9b1ed33ef8d238ea168eb760  iniconfig-2.1.0-py3-none-any.whl
09abb1bccd265c01f4a3aa3f7a7db064b36514d2cba19a2f694fe6150451a759  packaging-24.2-py3-none-any.whl
44e1ad92c8ca002de6377e165f3e0f1be63266ab4d554740532335b9d75ea669  pluggy-1.5.0-py3-none-any.whl
c69214aa47deac29fad6c2a4f590b9c4a9fdb16a403176fe154b79c0b4d4d820  pytest-8.3.5-py3-none-any.whl
a163dcaede0f1c021485e957a39245190e74249897e2ae4b2aa38595db237ee0  sortedcontainers-2.4.0-py2.py3-none-any.whl
"
step_pytests() {
    local d=$W/dl-test g=$W/guest-lib; mkdir -p "$d" "$g" /tmp/npguest
    (cd "$d" && pip download -q --no-deps --only-binary :all: pytest==8.3.5 pluggy==1.5.0 iniconfig==2.1.0 \
        hypothesis==6.131.0 attrs==25.3.0 sortedcontainers==2.4.0 packaging==24.2 -d . && \
        echo "$TEST_PINS" | grep . | sha256sum -c -)
    # numpy with its tests + the pytest stack + the mmap stand-in, as a directory
    rm -rf "$g/test-site" && mkdir -p "$g/test-site"
    (cd "$(dirname "$(find "$W/install-numpy" -type d -path '*-packages/numpy' | head -1)")" && \
        find numpy -type f ! -name '*.so' ! -name '*.so.link' ! -name '*.a' ! -path '*/__pycache__/*' \
        -exec cp --parents {} "$g/test-site/" \;)
    for w in "$d"/*.whl; do (cd "$g/test-site" && python3 -m zipfile -e "$w" .); done
    rm -rf "$g/test-site"/*.dist-info; cp "$HERE/files/mmap.py" "$g/test-site/"; printf '[pytest]\n' > "$g/test-site/pytest.ini"
    cp "$CPY/python311.zip" "$W/numpy.zip" "$HERE/files/run_pytest.py" "$g/"
    local suites=${NP_SUITES:-numpy/linalg/tests numpy/fft/tests numpy/random/tests}
    local np_t="" pd_t=""
    for s in $suites; do case $s in numpy/*) np_t+=" /usr/lib/test-site/$s" ;; pandas/*) pd_t+=" /usr/lib/test-site-pd/$s" ;; esac; done
    if [[ -n $np_t ]]; then
        NP_TESTS=$np_t $WASMTIME_PY "$HERE/files/run_wasm.py" "$W/link-numpy/numpy.wasm" --map /usr/lib="$g" \
            --map /tmp=/tmp/npguest --env NP_PATH=/usr/lib/test-site -- /usr/lib/run_pytest.py 2>&1 | tail -4
    fi
    if [[ -n $pd_t ]]; then
        rm -rf "$g/test-site-pd" && mkdir -p "$g/test-site-pd"
        (cd "$(dirname "$(find "$W/install-pandas" -type d -path '*-packages/pandas' | head -1)")" && \
            find pandas -type f ! -name '*.so' ! -name '*.so.link' ! -path '*/__pycache__/*' \
            -exec cp --parents {} "$g/test-site-pd/" \;)
        printf '[pytest]\n' > "$g/test-site-pd/pytest.ini"
        rm -rf "$g/site-deps" && cp -a "$W/site-deps" "$g/site-deps"
        NP_PRELUDE=$TZDATA_FIX NP_TESTS=$pd_t NP_TEST_ROOT=/usr/lib/test-site-pd $WASMTIME_PY "$HERE/files/run_wasm.py" "$W/link-pandas/pandas.wasm" \
            --map /usr/lib="$g" --map /tmp=/tmp/npguest \
            --env NP_PATH=/usr/lib/numpy.zip:/usr/lib/test-site-pd:/usr/lib/site-deps:/usr/lib/test-site \
            -- /usr/lib/run_pytest.py 2>&1 | tail -4
    fi
}

step_cpy() {
    # Cove's build is read-only to us: copy the cross CPython build dir and its source tree
    # (Include/, Makefile.pre.in) with the same relative layout (../src/python3.11-3.11.2).
    [[ -f $COVE_BUILD/cpython-wasi/libpython3.11.a && -f $COVE_BUILD/cpython-wasi/pyconfig.h ]] \
        || { echo "Cove's CPython build is not there yet" >&2; exit 1; }
    rm -rf "$CPY" && mkdir -p "$CPY/src" "$CPY/deps"
    cp -a "$COVE_BUILD/cpython-wasi" "$CPY/"
    cp -a "$COVE_BUILD/src/python3.11-3.11.2" "$CPY/src/" && rm -rf "$CPY/src/python3.11-3.11.2/Lib/test" "$CPY/src/python3.11-3.11.2/Doc"
    cp -a "$COVE_BUILD/deps/lib" "$CPY/deps/"
    [[ -f $COVE_BUILD/stdlib/python311.zip ]] && cp -a "$COVE_BUILD/stdlib/python311.zip" "$CPY/"
    # make must not try to regenerate the Makefile: give every file the same old time
    find "$CPY" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    touch "$CPY/cpython-wasi/Makefile" "$CPY/cpython-wasi"/*.a
    # the object list Cove's reactor links (everything python.wasm links minus Programs/python.o)
    make -s -C "$CPY/cpython-wasi" -f Makefile -f "$COVE/print-vars.mk" print-objs > "$CPY/objs.txt"
    make -s -C "$CPY/cpython-wasi" -f Makefile -f "$COVE/print-vars.mk" print-libs > "$CPY/libs.txt"
    cat "$CPY/objs.txt" "$CPY/libs.txt"
    # The target sysconfig data, as a module the host Python can import for meson
    local bd; bd=$(cat "$CPY/cpython-wasi/pybuilddir.txt")
    cp "$CPY/cpython-wasi/$bd"/_sysconfigdata__wasi_wasm32-wasi.py "$CPY/"
    # A Python include dir the way an installed Python has it: Include/* + pyconfig.h
    mkdir -p "$CPY/include/python3.11"
    cp -a "$CPY/src/python3.11-3.11.2/Include/." "$CPY/include/python3.11/"
    cp "$CPY/cpython-wasi/pyconfig.h" "$CPY/include/python3.11/"
}

# stage: what Cove's build.sh takes into the artifact (its steps `numpy` and `pandas` end here):
#   $W/stage/site/        numpy's and pandas' installed Python trees (numpy.f2py's Python too:
#                         `from numpy import *` imports it; no tests, no headers, no
#                         .pyi/.pxd, no extension archives), each with a dist-info whose METADATA
#                         is the sdist's PKG-INFO (importlib.metadata.version works in the guest)
#   $W/stage/modules.tsv  dotted name, init symbol, archive: every extension module
#   $W/stage/link.txt     the archives and libraries the reactor links for them
step_stage() {
    local st=$W/stage; rm -rf "$st" && mkdir -p "$st/site"
    local lists=("$NPOUT/np") src pkg ver
    [[ -f $PDOUT/pd.link ]] && lists+=("$PDOUT/pd")
    for pair in "numpy:$W/install-numpy:$NPSRC:$NUMPY_VER" "pandas:$W/install-pandas:$PDSRC:$PANDAS_VER"; do
        IFS=: read -r pkg inst src ver <<< "$pair"
        [[ -d $inst ]] || continue
        local sp; sp=$(dirname "$(find "$inst" -type d -path "*-packages/$pkg" | head -1)")
        (cd "$sp" && find "$pkg" -type f ! -name '*.so' ! -name '*.so.link' ! -name '*.a' ! -name '*.pyi' \
            ! -name '*.pxd' ! -name '*.pyx' ! -name '*.h' ! -name '*.c' ! -name '*.lib' ! -name '*.ini' \
            ! -path '*/tests/*' ! -path '*/include/*' ! -path '*/__pycache__/*' \
            ! -path '*/_pyinstaller/*' -exec cp --parents {} "$st/site/" \;)
        # numpy.testing imports pd_NA from numpy's tests (make_packages.py, KEPT_FROM_TESTS);
        # the package needs an __init__.py to be found in a zip.
        if [[ $pkg == numpy ]]; then
            (cd "$sp" && cp --parents numpy/_core/tests/_natype.py "$st/site/")
            : > "$st/site/numpy/_core/tests/__init__.py"
        fi
        local di=$st/site/$pkg-$ver.dist-info; mkdir -p "$di"
        cp "$src/PKG-INFO" "$di/METADATA"
        cp "$src/LICENSE.txt" "$di/" 2>/dev/null || cp "$src/LICENSE" "$di/"
    done
    # numpy/__config__.py records the build's compiler command lines and paths: the guest gets the
    # machine-independent part only (reproducible across build directories).
    sed -i "s|$W|/build|g" "$st/site/numpy/__config__.py"
    cat "${lists[@]/%/.modules}" | sort > "$st/modules.tsv"
    cat "${lists[@]/%/.link}" | awk '!seen[$0]++' > "$st/link.txt"
    # For build.sh: the packages make_packages.py adds (NAME==VERSION=SDIST_SHA256), and every
    # pinned input of these builds (the manifest records them).
    {
        echo "numpy==$NUMPY_VER=$(echo "$PINS" | awk -v f="numpy-$NUMPY_VER.tar.gz" '$2 == f {print $1}')"
        [[ -d $W/install-pandas ]] && echo "pandas==$PANDAS_VER=$PANDAS_SHA256"
    } > "$st/built.txt"
    { echo "$PINS" | grep .; echo "$PANDAS_SHA256  pandas-$PANDAS_VER.tar.gz"
      cat "$W/debs.sha256"; } > "$st/inputs.sha256"
    echo "$(wc -l < "$st/modules.tsv") extension modules; site $(du -sh "$st/site" | cut -f1)"
}

run_step() {
    local s=$1
    if is_done "$s"; then log "$s: done already"; return; fi
    log "$s"
    ( "step_$s" )
    done_ "$s"
}

ALL_STEPS=(toolchain cpy hostvenv sources configure compile collect pyzip link run
           pdsources pdconfigure pdcompile pdcollect pdpyzip pddeps pdlink pdrun)

main() {
    mkdir -p "$W"
    if [[ ${1:-} == clean ]]; then rm -rf "$STAMPS"; exit 0; fi
    local steps=("$@")
    (( ${#steps[@]} )) || steps=("${ALL_STEPS[@]}")
    for s in "${steps[@]}"; do
        declare -F "step_$s" >/dev/null || { echo "unknown step: $s" >&2; exit 2; }
        (( $# )) && rm -f "$STAMPS/$s"
        run_step "$s"
    done
}

main "$@"

"""Builds the guest's stdlib archive: byte-compiled, deterministic, with the guest package
(`cove_guest`, from python-wasm/guest/).

Every entry has the same timestamp (SOURCE_DATE_EPOCH) and mode, entries are sorted, bytecode
is hash-based and unchecked (no source mtimes inside), and entries are stored uncompressed (no
dependence on the host's zlib; git and the import system both prefer it that way).
"""

from __future__ import annotations

import argparse
import importlib._bootstrap_external as bootstrap
import os
import pathlib
import sys
import time
import zipfile

GUEST_ZIP = "/usr/lib/python311.zip"

# Not useful inside a sandbox without a screen, a network stack of its own, or a test runner.
EXCLUDED_TOP = {
    "test",
    "idlelib",
    "tkinter",
    "turtledemo",
    "ensurepip",
    "lib2to3",
    "pydoc_data",
    "site-packages",
    "venv",
    "distutils",
    "__phello__",
    "turtle.py",
    "msilib",
    "curses",
    "dbm",
    "xmlrpc",
    "_bootsubprocess.py",
    "antigravity.py",
    "this.py",
}
EXCLUDED_PARTS = {"tests", "test", "idle_test", "__pycache__"}


def _pyc(source: bytes, name: str) -> bytes:
    code = compile(source, f"{GUEST_ZIP}/{name}", "exec", dont_inherit=True, optimize=0)
    source_hash = bootstrap._imp.source_hash(bootstrap._RAW_MAGIC_NUMBER, source)
    return bytes(bootstrap._code_to_hash_pyc(code, source_hash, checked=False))


def _entries(args: argparse.Namespace) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    lib = pathlib.Path(args.lib)
    for path in sorted(lib.rglob("*.py")):
        rel = path.relative_to(lib)
        if rel.parts[0] in EXCLUDED_TOP or EXCLUDED_PARTS.intersection(rel.parts[:-1]):
            continue
        out[str(rel.with_suffix(".pyc"))] = _pyc(path.read_bytes(), str(rel))
    if args.sysconfigdata:
        # Re-emitted from the values (not edited as text): the generator wraps lines by length,
        # so the build directory's length would otherwise leak into the bytes.
        namespace: dict[str, object] = {}
        exec(pathlib.Path(args.sysconfigdata).read_text(), namespace)
        build_vars = namespace["build_time_vars"]
        assert isinstance(build_vars, dict)
        clean = {
            k: v.replace(args.build_prefix, "/build") if isinstance(v, str) else v
            for k, v in sorted(build_vars.items())
        }
        text = f"build_time_vars = {clean!r}\n".encode()
        # Debian's sysconfig-name patch drops the platform from the module name the guest's
        # sysconfig imports: _sysconfigdata_{abiflags}_{multiarch}.
        out["_sysconfigdata__wasm32-wasi.pyc"] = _pyc(text, "_sysconfigdata__wasm32-wasi.py")
    # The guest package, at the archive's root with its relative paths (cove_guest/...).
    guest = pathlib.Path(args.guest)
    for path in sorted(guest.glob("cove_guest/**/*.py")):
        rel = path.relative_to(guest).as_posix()
        out[rel.removesuffix(".py") + ".pyc"] = _pyc(path.read_bytes(), rel)
    # Time-zone data as the `tzdata` package zoneinfo falls back to (no /usr/share/zoneinfo in
    # the guest): every directory a package, every zone file a resource.
    zi = pathlib.Path(args.zoneinfo)
    zones = []
    out["tzdata/__init__.pyc"] = _pyc(
        b'IANA_VERSION = "' + args.tz_version.encode() + b'"\n', "tzdata/__init__.py"
    )
    for path in sorted(zi.rglob("*")):
        rel = path.relative_to(zi)
        # `localtime` links to the build machine's /etc/localtime: not a zone, and not
        # reproducible.
        skipped = rel.parts[0] in {"posix", "right", "localtime"}
        if skipped or (path.is_symlink() and not path.exists()):
            continue
        if path.is_dir():
            out[f"tzdata/zoneinfo/{rel}/__init__.pyc"] = _pyc(
                b"", f"tzdata/zoneinfo/{rel}/__init__.py"
            )
            continue
        data = path.read_bytes()
        if not data.startswith(b"TZif"):
            continue
        out[f"tzdata/zoneinfo/{rel}"] = data
        zones.append(str(rel))
    out["tzdata/zoneinfo/__init__.pyc"] = _pyc(b"", "tzdata/zoneinfo/__init__.py")
    out["tzdata/zones"] = ("\n".join(sorted(zones)) + "\n").encode()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lib", required=True)
    parser.add_argument("--sysconfigdata", default="")
    parser.add_argument("--build-prefix", default="/nonexistent")
    parser.add_argument("--guest", required=True)
    parser.add_argument("--zoneinfo", required=True)
    parser.add_argument("--tz-version", required=True)
    parser.add_argument("--output", required=True)
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 11):
        sys.exit("make_stdlib.py must run on Python 3.11 (the guest's bytecode version)")
    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
    stamp = time.gmtime(epoch)[:6]
    entries = _entries(args)
    with zipfile.ZipFile(args.output, "w", zipfile.ZIP_STORED) as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = 0o644 << 16
            info.create_system = 3
            zf.writestr(info, entries[name])
    print(f"{args.output}: {len(entries)} entries, {os.path.getsize(args.output)} bytes")


if __name__ == "__main__":
    main()

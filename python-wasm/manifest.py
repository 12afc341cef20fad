"""Writes and checks the interpreter artifact's manifest.json.

    python3 python-wasm/manifest.py write --build DIR --dist DIR ...   (the build's install step)
    python3 python-wasm/manifest.py check [--dist DIR]                 (hashes match the files)

`driver_sha256` hashes the guest's sources (python-wasm/guest/: the cove_guest package and the C
driver), so a test can tell when the committed artifact was built from guest sources other than
the ones in the tree.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import lzma
import pathlib
import shutil
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_DIST = HERE.parent / "runtime" / "cove" / "_interpreter"
# The guest's directories, in preopen (fd) order: its read-only root (the build's root/, the
# artifact's root/) and the session's two (runtime/cove/_artifact.py, Artifact.PREOPENS).
PREOPENS = ["/", "/workspace", "/tmp"]


def artifacts(build: pathlib.Path) -> dict[str, pathlib.Path]:
    """The artifact's files, by name: python.wasm and every file of the guest's root tree
    (build.sh step snapshot assembles it; its empty mount points are not files)."""
    found = {"python.wasm": build / "python.wasm"}
    root = build / "root"
    for path in sorted(root.rglob("*")):
        if path.is_symlink() or not (path.is_file() or path.is_dir()):
            sys.exit(f"{path}: the guest's root holds only files and directories")
        if path.is_file():
            found[f"root/{path.relative_to(root).as_posix()}"] = path
    return found


def sha256_file(path: pathlib.Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _sha256_xz(path: pathlib.Path) -> str:
    """The sha256 of a compressed file's content."""
    digest = hashlib.sha256()
    with lzma.open(path) as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def driver_sha256(guest_dir: pathlib.Path = HERE / "guest") -> str:
    """One hash over the guest's sources (the cove_guest package and the C driver): every .py
    and .c file under `guest_dir`, by relative path and content, in path order."""
    digest = hashlib.sha256()
    files = (p for p in guest_dir.rglob("*") if p.is_file() and p.suffix in {".py", ".c"})
    for path in sorted(files, key=lambda p: p.relative_to(guest_dir).as_posix()):
        rel = path.relative_to(guest_dir).as_posix()
        digest.update(rel.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def pgo_inputs(pgo_dir: pathlib.Path = HERE / "pgo") -> dict[str, str]:
    """The sha256 of each source file of the PGO training run (build.sh steps profrt and pgo),
    by name."""
    files = (p for p in pgo_dir.iterdir() if p.is_file() and p.suffix in {".py", ".c", ".h"})
    return {f"pgo/{p.name}": sha256_file(p) for p in sorted(files)}


def _dpkg_version(package: str) -> str:
    out = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True, check=False
    )
    return out.stdout.strip() or "unknown"


def write(args: argparse.Namespace) -> None:
    build, dist = pathlib.Path(args.build), pathlib.Path(args.dist)
    # The third-party packages in the zip, as make_packages.py recorded them (step `packages`).
    packages = json.loads((build / "packages.json").read_text())
    if packages["zip_sha256"] != sha256_file(build / "stdlib" / "python311.zip"):
        sys.exit("the stdlib zip is not the packages step's output: run build.sh packages snapshot")
    unpacked = artifacts(build)
    if sha256_file(unpacked["root/usr/lib/python311.zip"]) != packages["zip_sha256"]:
        sys.exit("the guest's root holds another zip: run build.sh snapshot")
    # Reproducible across build directories: the build's own path appears in no file
    # (-ffile-prefix-map and the cython wrapper write /build instead).
    for path in unpacked.values():
        if str(build.resolve()).encode() in path.read_bytes():
            sys.exit(f"{path} contains the build directory's path: not reproducible elsewhere")
    dist.mkdir(parents=True, exist_ok=True)
    for stale in (dist / "lib", dist / "root"):  # lib/: the layout before the root tree
        shutil.rmtree(stale, ignore_errors=True)
    # Committed compressed; the runtime unpacks them once (runtime/cove/_artifact.py). The
    # manifest's hashes are of the unpacked files.
    for name, source in unpacked.items():
        (dist / name).unlink(missing_ok=True)
        (dist / name).parent.mkdir(parents=True, exist_ok=True)
        with (
            source.open("rb") as raw,
            lzma.open(dist / f"{name}.xz", "wb", preset=9 | lzma.PRESET_EXTREME) as packed,
        ):
            shutil.copyfileobj(raw, packed, 1 << 20)
    sources = {}
    for line in (HERE / "sources.sha256").read_text().splitlines():
        digest, name = line.split()
        sources[name] = digest
    manifest = {
        "format": 1,
        "python": "3.11.2",
        "abi": "wasm32-wasi reactor, pre-initialised by snapshot.py",
        "exports": ["cove_buffer", "cove_call", "cove_limits"],
        "imports": {"cove": ["host_call", "host_reply"]},
        "preopens": PREOPENS,
        "source_packages": {
            "python3.11": args.py_version,
            "zlib": args.zlib_version,
            "bzip2": args.bzip2_version,
            "xz-utils": args.xz_version,
            "sqlite3": args.sqlite_version,
            "tzdata": args.tzdata_version,
        },
        # Binary packages whose files the guest's root holds (build.sh, assemble_root).
        "data_packages": {"fonts-dejavu-core": args.fonts_version},
        "source_sha256": sources,
        "toolchain": {
            "clang-19": args.clang_version,
            "lld-19": _dpkg_version("lld-19"),
            "wasi-libc": args.wasi_libc_version,
            "libclang-rt-19-dev-wasm32": _dpkg_version("libclang-rt-19-dev-wasm32"),
            "binaryen": args.binaryen_version,
            # the snapshot: python-wasm/snapshot.py on this wasmtime-py (the runtime's pin)
            "snapshot": f"snapshot.py, wasmtime-py {args.wasmtime_py_version}",
            "build-python": sys.version.split()[0],
        },
        "patches": sorted(p.name for p in (HERE / "patches").iterdir())
        + sorted(p.relative_to(HERE).as_posix() for p in (HERE / "recipes").glob("*/patches/*")),
        "driver_sha256": driver_sha256(),
        # Profile-guided optimisation (build.sh steps profrt and pgo): what CPython was trained
        # on and the merged profile it was compiled with.
        "pgo": {
            "training": pgo_inputs(),
            "profile_sha256": sha256_file(build / "pgo" / "cpython.profdata"),
            "wasmtime-py": args.wasmtime_py_version,
        },
        "artifacts": {name: sha256_file(path) for name, path in unpacked.items()},
    }
    manifest["packages"] = packages["packages"]  # name: version, wheel sha256, licence
    # Built from sdists with extension modules (build.sh step extensions, one recipe each):
    # name: version, sdist sha256, licence; and every pinned input of those builds (sdists,
    # build tools' wheels, Debian's libc++ packages), by sha256.
    manifest["built_packages"] = packages.get("built_packages", {})
    # The C libraries they link, from Debian's sources (recipes with [source] debian): name:
    # version, Debian source package, .dsc sha256, licence.
    libraries = build / "cross" / "stage" / "libraries.json"
    manifest["built_libraries"] = json.loads(libraries.read_text())
    inputs = build / "cross" / "stage" / "inputs.sha256"
    manifest["built_packages_inputs"] = {
        name: digest for digest, name in (line.split() for line in inputs.read_text().splitlines())
    }
    (dist / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    print(json.dumps(manifest["artifacts"], indent=2))


def check(args: argparse.Namespace) -> int:
    dist = pathlib.Path(args.dist)
    manifest = json.loads((dist / "manifest.json").read_text())
    bad = 0
    for name, digest in manifest["artifacts"].items():
        actual = _sha256_xz(dist / f"{name}.xz")
        status = "ok" if actual == digest else f"MISMATCH (file has {actual})"
        bad += actual != digest
        print(f"{name}: {digest} {status}")
    if manifest["driver_sha256"] != driver_sha256():
        print("driver sources differ from the ones the artifact was built from")
        bad += 1
    return 1 if bad else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write")
    for opt in (
        "build",
        "dist",
        "src",
        "py-version",
        "zlib-version",
        "bzip2-version",
        "xz-version",
        "sqlite-version",
        "clang-version",
        "wasi-libc-version",
        "binaryen-version",
        "tzdata-version",
        "fonts-version",
        "wasmtime-py-version",
    ):
        w.add_argument(f"--{opt}", required=True)
    c = sub.add_parser("check")
    c.add_argument("--dist", default=str(DEFAULT_DIST))
    args = parser.parse_args()
    if args.cmd == "write":
        write(args)
    else:
        sys.exit(check(args))


if __name__ == "__main__":
    main()

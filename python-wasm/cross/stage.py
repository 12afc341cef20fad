"""What the interpreter takes from the recipes (build.sh steps `packages` and `reactor`).

Per recipe, `stage/<name>/`:

    site/                   its installed Python tree, without tests, headers, Cython and C
                            sources, stubs and the extension modules' archives; and a dist-info
                            whose METADATA is the sdist's PKG-INFO, with its licence files
    root/                   the directories its [stage] root moves out of the zip, at their
                            places in the guest's read-only root (data its code opens by path)
    modules.tsv, link.txt   from collect.py

per C library, `stage/<name>/library.json` (version, source and its sha256, licence);

and, over every recipe (`combine`), `stage/` itself: `site/`, `root/` (build.sh's snapshot
step adds it to the guest's root tree, refusing a file the tree has already), `modules.tsv`
(sorted by dotted name), `link.txt` (in recipe order, each line once), `built.json` (name:
version, sdist sha256, licence, for make_packages.py and the manifest), `libraries.json` (the
C libraries linked in, for the manifest) and `inputs.sha256` (every pinned input of these
builds besides the Debian sources of sources.sha256: sdists, the C libraries' .dsc files and
build tools).
"""

from __future__ import annotations

import fnmatch
import json
import pathlib
import shutil

from .recipe import Recipe, tool_pins
from .toolchain import Toolchain

# Never staged: the guest imports none of it, or cannot use it.
_EXCLUDED_NAMES = (
    "*.so",
    "*.so.link",
    "*.a",
    "*.pyi",
    "*.pxd",
    "*.pyx",
    "*.h",
    "*.c",
    "*.lib",
    "*.ini",
    "*.pxi",
)
_EXCLUDED_DIRS = frozenset({"tests", "include", "__pycache__", "_pyinstaller"})


def _staged(rel: pathlib.PurePosixPath) -> bool:
    return not (
        any(fnmatch.fnmatch(rel.name, p) for p in _EXCLUDED_NAMES)
        or _EXCLUDED_DIRS.intersection(rel.parts[:-1])
    )


def recipe(tc: Toolchain, r: Recipe, src: pathlib.Path, site: pathlib.Path) -> None:
    out = tc.work / "stage" / r.name
    shutil.rmtree(out, ignore_errors=True)
    dest = out / "site"
    for top in r.import_names:
        # a package, or a top-level module (matplotlib's pylab.py)
        tree = sorted((site / top).rglob("*")) if (site / top).is_dir() else [site / f"{top}.py"]
        for path in tree:
            rel = pathlib.PurePosixPath(path.relative_to(site).as_posix())
            if path.is_file() and (_staged(rel) or str(rel) in r.keep):
                target = out / "root" / moved if (moved := _in_root(r, rel)) else dest / rel
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
    for source, _ in r.root:
        if not (site / source).is_dir():
            raise SystemExit(f"{r.name}: [stage] root names {source}, not a directory it installs")
    for kept in r.keep:
        # a kept file's package directories need an __init__.py to be found in a zip
        parent = (dest / kept).parent
        while parent != dest and not (parent / "__init__.py").exists():
            (parent / "__init__.py").write_bytes(b"")
            parent = parent.parent
    # numpy/__config__.py records the build's compiler command lines: the work directory is
    # written /build there, as everywhere (reproducible across build directories).
    work = str(tc.work).encode()
    for path in sorted(dest.rglob("*.py")):
        data = path.read_bytes()
        if work in data:
            path.write_bytes(data.replace(work, b"/build"))
    info = dest / f"{r.name}-{r.version}.dist-info"
    info.mkdir(parents=True)
    shutil.copyfile(src / "PKG-INFO", info / "METADATA")
    for name in r.license_files:
        shutil.copyfile(src / name, info / pathlib.Path(name).name)
    for name in ("modules.tsv", "link.txt"):
        shutil.copyfile(tc.out_dir(r) / name, out / name)


def _in_root(r: Recipe, rel: pathlib.PurePosixPath) -> pathlib.PurePosixPath | None:
    """Where a file of the package goes in the guest's root ([stage] root), or None (the zip)."""
    for source, place in r.root:
        if rel.is_relative_to(source):
            return pathlib.PurePosixPath(place) / rel.relative_to(source)
    return None


def library(tc: Toolchain, r: Recipe, src: pathlib.Path) -> None:
    out = tc.work / "stage" / r.name
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for name in r.license_files:
        if not (src / name).is_file():
            raise SystemExit(f"{r.name}: licence file {name} is not in its source")
    record = library_record(r)
    (out / "library.json").write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")


def library_record(r: Recipe) -> dict[str, str | None]:
    """What the manifest says of a C library: its version, source and pin, licence."""
    if r.pypi is not None:
        return {
            "version": r.version,
            "pypi_sdist": r.sdist,
            "sdist_sha256": r.sdist_sha256,
            "tree": r.tree,
            "license": r.license,
        }
    return {
        "version": r.version,
        "debian_source": r.debian,
        "dsc_sha256": r.sdist_sha256,
        "license": r.license,
    }


def kept(r: Recipe) -> list[str]:
    """The recipe's kept files and the __init__.py files stage() gave their directories."""
    out = set(r.keep)
    for k in r.keep:
        parent = pathlib.PurePosixPath(k).parent
        while len(parent.parts) > 1:
            out.add(f"{parent}/__init__.py")
            parent = parent.parent
    return sorted(out)


def combine(tc: Toolchain, recipes: list[Recipe]) -> None:
    stage = tc.work / "stage"
    site, root = stage / "site", stage / "root"
    for combined in (site, root):
        shutil.rmtree(combined, ignore_errors=True)
        combined.mkdir(parents=True)
    rows: list[str] = []
    links: list[str] = []
    built, libraries = {}, {}
    inputs = tool_pins()
    for r in recipes:
        if r.library:
            if not (stage / r.name / "library.json").is_file():
                raise SystemExit(
                    f"cross: {r.name} is not staged: `python3.11 -m cross build {r.name}`"
                )
            libraries[r.name] = json.loads((stage / r.name / "library.json").read_text())
            inputs[r.sdist] = r.sdist_sha256
            continue
        if not (stage / r.name / "link.txt").is_file():
            raise SystemExit(f"cross: {r.name} is not staged: `python3.11 -m cross build {r.name}`")
        shutil.copytree(stage / r.name / "site", site, dirs_exist_ok=True)
        theirs = stage / r.name / "root"
        for path in sorted(theirs.rglob("*")) if theirs.is_dir() else []:
            if path.is_file():
                target = root / path.relative_to(theirs)
                if target.exists():
                    raise SystemExit(
                        f"cross: {r.name} stages {target.relative_to(root)} into "
                        "the guest's root, as another recipe does"
                    )
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
        rows += (stage / r.name / "modules.tsv").read_text().splitlines()
        for line in (stage / r.name / "link.txt").read_text().splitlines():
            if line not in links:
                links.append(line)
        built[r.name] = {
            "version": r.version,
            "sdist_sha256": r.sdist_sha256,
            "license": r.license,
            "import_names": list(r.import_names),
            "keep": kept(r),
        }
        inputs[r.sdist] = r.sdist_sha256
        inputs.update(tool_pins(r.name))  # a recipe's own build tools, if it has any
    (stage / "modules.tsv").write_text("".join(f"{row}\n" for row in sorted(rows)))
    (stage / "link.txt").write_text("".join(f"{line}\n" for line in links))
    (stage / "built.json").write_text(json.dumps(built, indent=2, sort_keys=True) + "\n")
    (stage / "libraries.json").write_text(json.dumps(libraries, indent=2, sort_keys=True) + "\n")
    (stage / "inputs.sha256").write_text("".join(f"{d}  {n}\n" for n, d in sorted(inputs.items())))
    print(
        f"{len(rows)} extension modules from {len(built)} packages, {len(libraries)} C libraries",
        flush=True,
    )

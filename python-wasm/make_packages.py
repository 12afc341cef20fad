"""Adds the pinned third-party pure-Python packages (packages.txt) to the guest's stdlib zip.

    python3.11 python-wasm/make_packages.py --requirements packages.txt --wheels DIR \
        --zip BUILD/stdlib/python311.zip --tz-version 2026f --record BUILD/packages.json
    python3.11 python-wasm/make_packages.py --requirements packages.txt --wheels DIR --check-wheels

Each wheel (py3-none-any, downloaded by pip with --require-hashes) is verified against its
sha256 in packages.txt again here, then its files go into the zip the way make_stdlib.py puts
the stdlib there: `.py` files only as hash-based unchecked `.pyc` (no sources), other files as
they are, `tests` and `benchmarks` directories left out, every entry stored, sorted, with one
timestamp and mode.
Each distribution keeps its `*.dist-info` (METADATA, licence files, entry points), with a RECORD
rewritten to list the files actually shipped, so importlib.metadata works in the guest. A wheel's
`.data/` directory (scripts, man pages) is not shipped.

tzdata is special: the zone files come from Debian's tzdata (make_stdlib.py --zoneinfo), and only
the PyPI wheel's dist-info is added, after checking that both are the same IANA release.

The zip is rewritten in place and the output only depends on its inputs: running this again on
its own output (the packages step alone) gives the same bytes. `--record` writes name, version,
wheel sha256 and licence of each package, and the zip's sha256, for manifest.py.
"""

from __future__ import annotations

import argparse
import base64
import csv
import email.parser
import hashlib
import io
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import zipfile

from make_stdlib import _pyc

HERE = pathlib.Path(__file__).resolve().parent

# Directories never shipped (tests, benchmarks) and files of no use in the guest; a built
# package's recipe may keep some files of them (its [stage] keep, e.g. numpy.testing imports
# pd_NA from numpy's tests), which its built.json entry lists.
EXCLUDED_PARTS = {"tests", "benchmarks", "__pycache__"}
EXCLUDED_SUFFIXES = {".pyc", ".pyo", ".pyi"}

# Patches applied to a package's files before compiling (python-wasm/patches/), by distribution.
PATCHES = {
    # pytz opens its zone files by path; inside a zip that fails (it would fall back to
    # pkg_resources, which the guest does not have): read them through the zip importer instead.
    "pytz": ["pytz-zipimport.patch"],
    # certifi.where() extracts cacert.pem from a zip into a temporary file, one the session sees
    # (`import requests` calls it; the guest has no ssl module to use it): name the zip member.
    "certifi": ["certifi-zipimport.patch"],
    # The guest has no mmap module (WASI): xlrd imports it unconditionally and uses it by default.
    "xlrd": ["xlrd-no-mmap.patch"],
    # ... nor ctypes: sympy imports it only for sizeof(c_long).
    "sympy": ["sympy-no-ctypes.patch"],
    # ... and threadpoolctl (scikit-learn imports it) finds its libraries with it.
    "threadpoolctl": ["threadpoolctl-no-ctypes.patch"],
    # python-docx and python-pptx open their templates by path, as pytz its zone files.
    "python-docx": ["docx-templates-zipimport.patch"],
    "python-pptx": ["pptx-templates-zipimport.patch"],
}

# SPDX expressions checked by hand against the licence files, for packages whose metadata has no
# License-Expression and whose License field is not an SPDX identifier (or, for et-xmlfile, says
# less than the files): these win over the metadata. A new package whose metadata is as vague
# fails the build until its licence is read and added here.
LICENSES = {
    # LICENSE: Apache-2.0 for contributions after 2017-12-01, 3-clause BSD for the earlier ones.
    "python-dateutil": "Apache-2.0 AND BSD-3-Clause",
    "beautifulsoup4": "MIT",
    "mpmath": "BSD-3-Clause",
    "sympy": "BSD-3-Clause",
    # LICENSE: 3-clause BSD for the bulk; a 4-clause BSD (advertising clause) for David
    # Giffin's earlier work it includes.
    "xlrd": "BSD-3-Clause AND BSD-4-Clause",
    # LICENCE.rst is MIT; LICENCE.python: it includes code from the Python standard library.
    "et-xmlfile": "MIT AND PSF-2.0",
    # LICENSE: 3-clause BSD (the matplotlib project).
    "cycler": "BSD-3-Clause",
    # LICENSE: either licence, LICENSE.APACHE or LICENSE.BSD (2-clause).
    "packaging": "Apache-2.0 OR BSD-2-Clause",
    # LICENSE: MIT.
    "pyparsing": "MIT",
    # LICENSE.md: 3-clause BSD (Michael L. Waskom); seaborn/external/ keeps its sources'
    # notices: appdirs.py MIT, kde.py scipy's 3-clause BSD, version.py packaging's
    # Apache-2.0 or 2-clause BSD.
    "seaborn": "BSD-3-Clause AND MIT AND (Apache-2.0 OR BSD-2-Clause)",
    # LICENSE.txt: 3-clause BSD; its vendored loky and cloudpickle (joblib/externals/) are
    # 3-clause BSD too.
    "joblib": "BSD-3-Clause",
}
SPDX_IDS = {"MIT", "Apache-2.0", "MPL-2.0", "BSD-2-Clause", "BSD-3-Clause", "PSF-2.0", "ISC"}

REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)\s+--hash=sha256:([0-9a-f]{64})$")


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def read_requirements(path: pathlib.Path) -> list[tuple[str, str, str]]:
    """(name, version, sha256) per line of packages.txt; anything but exact pins is an error."""
    out = []
    text = path.read_text().replace("\\\n", " ")
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split(" #")[0].strip()
        if not line or line.startswith("#"):
            continue
        match = REQUIREMENT.match(" ".join(line.split()))
        if not match:
            sys.exit(f"{path}:{number}: expected `name==version --hash=sha256:HEX`, got {line!r}")
        out.append((match[1], match[2], match[3]))
    names = [normalise(n) for n, _, _ in out]
    if len(set(names)) != len(names):
        sys.exit(f"{path}: a package is listed twice")
    return out


def find_wheel(wheels: pathlib.Path, name: str, version: str) -> pathlib.Path | None:
    prefix = f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}-"
    for path in sorted(wheels.glob("*.whl")):
        if path.name.lower().startswith(prefix) and path.name.endswith("-none-any.whl"):
            return path
    return None


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def license_of(name: str, metadata: email.message.Message) -> str:
    if normalise(name) in LICENSES:
        return LICENSES[normalise(name)]
    expression = metadata.get("License-Expression")
    if expression:
        return expression.strip()
    field = (metadata.get("License") or "").strip()
    if field in SPDX_IDS:
        return field
    sys.exit(
        f"{name}: no SPDX licence in its metadata (License: {field[:60]!r}); read its licence "
        "files and add it to LICENSES in make_packages.py"
    )


def record_line(name: str, data: bytes) -> list[str]:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return [name, f"sha256={digest}", str(len(data))]


def wheel_files(wheel: pathlib.Path, project: str) -> dict[str, bytes]:
    """The wheel's files, with the listed patches applied (in a scratch directory)."""
    with zipfile.ZipFile(wheel) as zf:
        files = {i.filename: zf.read(i) for i in zf.infolist() if not i.is_dir()}
    patches = PATCHES.get(normalise(project), [])
    if not patches:
        return files
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        for name, data in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_bytes(data)
        for patch in patches:
            with open(HERE / "patches" / patch, "rb") as f:
                subprocess.run(["patch", "-p1", "-s", "-f", "-N", "-d", tmp], stdin=f, check=True)
        return {name: (root / name).read_bytes() for name in files}


def built_files(
    site: pathlib.Path, project: str, version: str, tops: list[str]
) -> dict[str, bytes]:
    """A package built from its sdist (build.sh step extensions): its staged tree and the
    dist-info the stage wrote beside it."""
    files = {}
    for top in (*tops, f"{project}-{version}.dist-info"):
        if (site / f"{top}.py").is_file():  # a top-level module (matplotlib's pylab)
            files[f"{top}.py"] = (site / f"{top}.py").read_bytes()
            continue
        if not (site / top).is_dir():
            sys.exit(f"{site / top}: missing (build.sh's step extensions stages it)")
        for path in sorted((site / top).rglob("*")):
            if path.is_file():
                files[path.relative_to(site).as_posix()] = path.read_bytes()
    return files


def package_entries(
    files: dict[str, bytes],
    project: str,
    version: str,
    tz_version: str,
    base: dict[str, bytes],
    kept: frozenset[str] = frozenset(),
) -> tuple[dict[str, bytes], email.message.Message]:
    """The zip entries of one distribution, its dist-info (with a RECORD of them) included."""
    dist_info = [n.split("/")[0] for n in files if n.split("/")[0].endswith(".dist-info")]
    if len(set(dist_info)) != 1:
        sys.exit(f"{project}: expected one .dist-info directory")
    info_dir = dist_info[0]
    metadata = email.parser.BytesParser().parsebytes(files[f"{info_dir}/METADATA"])
    if normalise(metadata["Name"]) != normalise(project) or metadata["Version"] != version:
        sys.exit(f"{project}: METADATA says {metadata['Name']} {metadata['Version']}")
    out: dict[str, bytes] = {}
    for name, data in files.items():
        parts = name.split("/")
        if parts[0] == info_dir:
            if parts[-1] != "RECORD":
                out[name] = data
            continue
        if parts[0].endswith(".data") or (
            EXCLUDED_PARTS.intersection(parts[:-1]) and name not in kept
        ):
            continue
        suffix = pathlib.PurePosixPath(name).suffix
        if suffix in EXCLUDED_SUFFIXES:
            continue
        if suffix == ".py":
            out[name[:-3] + ".pyc"] = _pyc(data, name)
        else:
            out[name] = data
    if normalise(project) == "tzdata":
        out = tzdata_entries(files, out, info_dir, tz_version, base)
    rows = [record_line(n, out[n]) for n in sorted(out)] + [[f"{info_dir}/RECORD", "", ""]]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    out[f"{info_dir}/RECORD"] = buf.getvalue().encode()
    return out, metadata


def tzdata_entries(
    files: dict[str, bytes],
    out: dict[str, bytes],
    info_dir: str,
    tz_version: str,
    base: dict[str, bytes],
) -> dict[str, bytes]:
    """Only the wheel's dist-info; its RECORD lists the Debian-built tzdata package in the zip."""
    init = files["tzdata/__init__.py"].decode()
    iana = re.search(r'^IANA_VERSION = "([^"]+)"$', init, re.M)
    if not iana or iana[1] != tz_version:
        sys.exit(
            f"the tzdata wheel is IANA {iana[1] if iana else '?'} but the guest's zone files "
            f"(Debian tzdata) are {tz_version}: pin the tzdata wheel of the same release"
        )
    if "tzdata/zones" not in base:
        sys.exit("the stdlib zip has no tzdata package (make_stdlib.py --zoneinfo)")
    wheel_zones = set(files["tzdata/zones"].decode().split())
    debian_zones = set(base["tzdata/zones"].decode().split())
    # Debian also has posixrules (a link to America/New_York) and localtime (a link to the
    # build machine's /etc/localtime, when it has one); the wheel has neither.
    if not wheel_zones <= debian_zones or debian_zones - wheel_zones - {"posixrules", "localtime"}:
        sys.exit(
            f"Debian's and the wheel's zone lists differ: {sorted(wheel_zones ^ debian_zones)[:10]}"
        )
    kept = {n: d for n, d in out.items() if n.startswith(f"{info_dir}/")}
    kept.update({n: d for n, d in base.items() if n.startswith("tzdata/")})
    # The wheel's own __init__ (IANA_VERSION and __version__, which pandas asks for), checked
    # above to be the same release as Debian's zone files.
    kept["tzdata/__init__.pyc"] = _pyc(files["tzdata/__init__.py"], "tzdata/__init__.py")
    return kept


def add_entries(entries: dict[str, bytes], project: str, files: dict[str, bytes]) -> None:
    """Adds a distribution's files to the zip's entries; none may be there already (tzdata's
    package replaces the stdlib zip's own, tzdata_entries)."""
    for entry, data in files.items():
        if entry in entries and not (
            normalise(project) == "tzdata" and entry.startswith("tzdata/")
        ):
            sys.exit(f"{project}: {entry} is already in the zip (the stdlib or another package)")
        entries[entry] = data


def read_zip(path: pathlib.Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def namespace_dirs(entries: dict[str, bytes]) -> dict[str, bytes]:
    """A directory entry ("pkg/") for each directory of Python files without an __init__.py:
    zipimport finds a namespace package (matplotlib's mpl_toolkits) only by that entry."""
    found = {}
    for name in entries:
        if not name.endswith((".py", ".pyc")):  # the zip holds .pyc files (make_stdlib.py)
            continue
        parts = name.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            folder = "/".join(parts[:i])
            if not {f"{folder}/__init__.py", f"{folder}/__init__.pyc"} & entries.keys():
                found[f"{folder}/"] = b""
    return found


def write_zip(path: pathlib.Path, entries: dict[str, bytes]) -> None:
    entries = {**entries, **namespace_dirs(entries)}
    epoch = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)
    stamp = time.gmtime(epoch)[:6]
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as zf:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=stamp)
            # a directory: drwxr-xr-x and MS-DOS's directory flag, as zipfile.mkdir() writes it
            info.external_attr = (0o40755 << 16) | 0x10 if name.endswith("/") else 0o644 << 16
            info.create_system = 3
            zf.writestr(info, entries[name])
    os.replace(tmp, path)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requirements", default=str(HERE / "packages.txt"))
    parser.add_argument("--wheels", required=True)
    parser.add_argument(
        "--check-wheels",
        action="store_true",
        help="only check that every pinned wheel is in --wheels (exit 1 if not)",
    )
    parser.add_argument("--zip")
    parser.add_argument("--tz-version")
    parser.add_argument("--record")
    parser.add_argument(
        "--built",
        metavar="BUILT_JSON",
        help="the packages built from their sdists (python-wasm/cross's stage/built.json: "
        "name: version, sdist_sha256, license), staged in --site",
    )
    parser.add_argument("--site", help="the staged tree of the --built packages")
    args = parser.parse_args()
    if sys.version_info[:2] != (3, 11):
        sys.exit("make_packages.py must run on Python 3.11 (the guest's bytecode version)")
    requirements = read_requirements(pathlib.Path(args.requirements))
    wheels = pathlib.Path(args.wheels)
    found: dict[str, pathlib.Path] = {}
    for name, version, digest in requirements:
        wheel = find_wheel(wheels, name, version)
        if wheel is None or sha256_bytes(wheel.read_bytes()) != digest:
            if args.check_wheels:
                sys.exit(1)
            sys.exit(f"{name}=={version}: no py3-none-any wheel with sha256 {digest} in {wheels}")
        found[name] = wheel
    if args.check_wheels:
        return
    if not (args.zip and args.tz_version and args.record):
        parser.error("--zip, --tz-version and --record are required")
    zip_path = pathlib.Path(args.zip)
    base = read_zip(zip_path)
    # Our own output (the step run again without the stdlib step): start from the stdlib part.
    ours = {e.split("/")[0] for e in base if re.match(r"[^/]+\.dist-info/RECORD$", e)}
    if ours:
        for record in sorted(ours):
            for row in csv.reader(io.StringIO(base[f"{record}/RECORD"].decode())):
                if not row[0].startswith("tzdata/"):
                    base.pop(row[0], None)
    entries = dict(base)
    packages: dict[str, dict[str, str]] = {}
    for name, version, digest in requirements:
        files, metadata = package_entries(
            wheel_files(found[name], name), name, version, args.tz_version, base
        )
        add_entries(entries, name, files)
        packages[normalise(name)] = {
            "version": version,
            "sha256": digest,
            "license": license_of(name, metadata),
        }
    built: dict[str, dict[str, str]] = {}
    recipes = json.loads(pathlib.Path(args.built).read_text()) if args.built else {}
    for name, recipe in recipes.items():
        # a package with extension modules, built from its sdist by its recipe (python-wasm/cross)
        version = recipe["version"]
        files, _ = package_entries(
            built_files(pathlib.Path(args.site), name, version, recipe["import_names"]),
            name,
            version,
            "",
            base,
            frozenset(recipe["keep"]),
        )
        add_entries(entries, name, files)
        built[normalise(name)] = {
            "version": version,
            "sdist_sha256": recipe["sdist_sha256"],
            "license": recipe["license"],  # the recipe's, read by hand from its licence files
        }
    write_zip(zip_path, entries)
    summary = {
        "packages": packages,
        "built_packages": built,
        "zip_sha256": sha256_bytes(zip_path.read_bytes()),
    }
    pathlib.Path(args.record).write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    added = len(entries) - len(base)
    print(
        f"{zip_path}: {len(requirements)} packages, {added} entries added, "
        f"{os.path.getsize(zip_path)} bytes"
    )


if __name__ == "__main__":
    main()

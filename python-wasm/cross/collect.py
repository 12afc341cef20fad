"""A built package's extension modules, ready for the reactor's static link.

wasi-cc turned every extension module's "shared library" link into an ar archive (at the .so
path) and `<so>.link` (the module's other link inputs), and compiled its objects with
`-DPyInit_<leaf>=PyInit_<dotted name with . as _>` so every init symbol is unique. This copies
each archive to `out-<name>/lib/<dotted>.a` and writes

    out-<name>/modules.tsv   dotted name, init symbol, archive (check_link.py makes the table)
    out-<name>/link.txt      the archives, then the static libraries, then -l flags, each once

A module's `-lNAME` found in one of its `-L` directories under the work directory (the C
libraries of W/deps) becomes that archive's path; the `-L` flags go (the reactor's link and the
duplicate-symbol check see every archive by path). Any other `-L` is refused: a host library
directory in a wasm link is a mistake of the package's build.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import shutil


@dataclasses.dataclass(frozen=True)
class Module:
    dotted: str
    so: pathlib.Path
    # the name wasi-cc compiled the init symbol from (the module's path in the build tree),
    # when it is not the dotted name (matplotlib builds matplotlib._path as src/_path)
    built_as: str = ""

    @classmethod
    def at(cls, so: pathlib.Path, build: pathlib.Path) -> Module:
        return cls(_dotted(so.relative_to(build)), so)

    @classmethod
    def installed(cls, so: pathlib.Path, build: pathlib.Path, site_path: str) -> Module:
        """A module built at `so` and installed at `site_path` (relative to site-packages)."""
        built, dotted = _dotted(so.relative_to(build)), _dotted(pathlib.PurePosixPath(site_path))
        return cls(dotted, so, "" if built == dotted else built)

    @property
    def init(self) -> str:
        return "PyInit_" + (self.built_as or self.dotted).replace(".", "_")


def _dotted(path: pathlib.PurePath) -> str:
    return path.as_posix().split(".cpython-")[0].split(".")[0].replace("/", ".")


def _resolved(items: list[str], build: pathlib.Path, work: pathlib.Path) -> list[str]:
    dirs = []
    for item in items:
        if item.startswith("-L"):
            d = pathlib.Path(os.path.normpath(item[2:]))
            if not d.resolve().is_relative_to(work):
                raise SystemExit(f"collect: a host library directory in a module's link: {item}")
            dirs.append(d)
    found = []
    for item in items:
        if item.startswith("-L"):
            continue
        if item.startswith("-l"):
            archives = [d / f"lib{item[2:]}.a" for d in dirs]
            found.append(next((str(a) for a in archives if a.is_file()), item))
        elif item.endswith(".a") and not item.startswith("/"):
            found.append(str(build / item))
        else:
            found.append(item)
    return found


def write(
    out: pathlib.Path,
    modules: list[Module],
    build: pathlib.Path,
    objects: list[pathlib.Path],
    work: pathlib.Path,
) -> None:
    shutil.rmtree(out / "lib", ignore_errors=True)
    (out / "lib").mkdir(parents=True)
    rows, libs = [], []
    for m in modules:
        archive = out / "lib" / f"{m.dotted}.a"
        shutil.copyfile(m.so, archive)
        rows.append((m.dotted, m.init, str(archive)))
        for item in _resolved(pathlib.Path(f"{m.so}.link").read_text().split(), build, work):
            if item not in libs:
                libs.append(item)
    rows.sort()
    (out / "modules.tsv").write_text("".join("\t".join(r) + "\n" for r in rows))
    lines = [r[2] for r in rows]
    lines += [x for x in libs if not x.startswith("-")] + [x for x in libs if x.startswith("-")]
    lines += [str(o) for o in objects]
    (out / "link.txt").write_text("".join(f"{line}\n" for line in lines))
    print(f"{len(rows)} extension modules", flush=True)

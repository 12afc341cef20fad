"""`pip` (also `pip3` and `python -m pip`): what is installed, told truthfully, and why nothing
can be installed (the sandbox has no network).

The installed packages are the interpreter's distributions (`importlib.metadata`, which reads
the `*.dist-info` every package keeps in /usr/lib/python311.zip), so `pip list`, `pip freeze`,
`pip show`, `help('modules')` and `importlib.metadata.distributions()` agree. `pip install` of
an installed package says it is already satisfied, as pip does; of anything else, that it
cannot be downloaded, and where to see what is installed.
"""

import importlib.metadata
import re
from collections.abc import Callable
from typing import Protocol

from cove_guest.text.inputs import TextSink

LOCATION = "/usr/lib/python311.zip"
VERSION = "pip (Cove's sandbox: reports the installed packages; installs nothing: no network)"

# Options that take a value, and options that change nothing here.
_VALUE_OPTIONS = {
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "--progress-bar",
    "--root-user-action",
    "-t",
    "--target",
    "--prefix",
    "--root",
    "-c",
    "--constraint",
    "--cache-dir",
    "--timeout",
    "--retries",
    "--format",
    "--python",
    "-r",
    "--requirement",
}
_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$")


def canonical(name: str) -> str:
    """A distribution name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def installed() -> dict[str, importlib.metadata.Distribution]:
    """Every installed distribution by canonical name (the first one found for a name)."""
    found: dict[str, importlib.metadata.Distribution] = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name and canonical(name) not in found:
            found[canonical(name)] = dist
    return found


def _split(args: list[str]) -> tuple[dict[str, list[str]], list[str]]:
    """Options and positional arguments; options with a value keep it (`--format=json` too)."""
    options: dict[str, list[str]] = {}
    positional: list[str] = []
    it = iter(args)
    for arg in it:
        if arg.startswith("-") and arg != "-":
            key, eq, value = arg.partition("=")
            if not eq and key in _VALUE_OPTIONS:
                value = next(it, "")
            options.setdefault(key, []).append(value)
        else:
            positional.append(arg)
    return options, positional


class Output(Protocol):
    """What pip needs of its context: somewhere to write (the shell's `Context`, or the
    driver's streams for `python -m pip`)."""

    @property
    def out(self) -> TextSink: ...

    @property
    def err(self) -> TextSink: ...


def pip(ctx: Output, args: list[str]) -> int:
    """The `pip` command."""
    options, positional = _split(args)
    if not positional:
        if "-V" in options or "--version" in options:
            ctx.out.write(f"{VERSION} from {LOCATION} (python 3.11)\n")
            return 0
        ctx.out.write("Usage: pip <command> [options]   (list, freeze, show, install)\n")
        return 0 if "-h" in options or "--help" in options else 1
    command, rest = positional[0], args[args.index(positional[0]) + 1 :]
    run = _COMMANDS.get(command)
    if run is None:
        ctx.err.write(f'ERROR: unknown command "{command}"\n')
        return 1
    return run(ctx, rest)


def _list(ctx: Output, args: list[str]) -> int:
    options, _ = _split(args)
    if "-o" in options or "--outdated" in options:
        return 0  # nothing is newer without a network to ask
    dists = sorted(installed().values(), key=lambda d: d.metadata["Name"].lower())
    rows = [(d.metadata["Name"], d.version) for d in dists]
    form = (options.get("--format") or ["columns"])[-1]
    if form == "freeze":
        return _freeze(ctx, [])
    if form == "json":
        items = ", ".join(f'{{"name": "{n}", "version": "{v}"}}' for n, v in rows)
        ctx.out.write(f"[{items}]\n")
        return 0
    width = max([len("Package"), *(len(n) for n, _ in rows)])
    vwidth = max([len("Version"), *(len(v) for _, v in rows)])
    ctx.out.write(f"{'Package'.ljust(width)} {'Version'.ljust(vwidth)}\n")
    ctx.out.write(f"{'-' * width} {'-' * vwidth}\n")
    for name, version in rows:
        ctx.out.write(f"{name.ljust(width)} {version}\n")
    return 0


def _freeze(ctx: Output, args: list[str]) -> int:
    for dist in sorted(installed().values(), key=lambda d: d.metadata["Name"].lower()):
        ctx.out.write(f"{dist.metadata['Name']}=={dist.version}\n")
    return 0


def _show(ctx: Output, args: list[str]) -> int:
    _, names = _split(args)
    if not names:
        ctx.err.write("ERROR: Please provide a package name or names.\n")
        return 1
    have = installed()
    missing = [n for n in names if canonical(n) not in have]
    shown = [have[canonical(n)] for n in names if canonical(n) in have]
    required_by: dict[str, list[str]] = {}
    for dist in have.values():
        for requirement in dist.requires or ():
            if "extra ==" in requirement:
                continue
            match = _REQUIREMENT.match(requirement)
            if match:
                required_by.setdefault(canonical(match.group(1)), []).append(dist.metadata["Name"])
    for i, dist in enumerate(shown):
        meta = dist.metadata
        requires = sorted(
            {
                m.group(1)
                for r in dist.requires or ()
                if "extra ==" not in r and (m := _REQUIREMENT.match(r))
            }
        )
        if i:
            ctx.out.write("---\n")
        ctx.out.write(
            f"Name: {meta['Name']}\nVersion: {dist.version}\n"
            f"Summary: {meta['Summary'] or ''}\nHome-page: {meta['Home-page'] or ''}\n"
            f"Author: {meta['Author'] or ''}\n"
            f"License: {meta['License-Expression'] or meta['License'] or ''}\n"
            f"Location: {LOCATION}\nRequires: {', '.join(requires)}\n"
            f"Required-by: {', '.join(sorted(required_by.get(canonical(meta['Name']), [])))}\n"
        )
    if missing:
        ctx.err.write(f"WARNING: Package(s) not found: {', '.join(missing)}\n")
    return 1 if missing else 0


def _requirements(
    ctx: Output, options: dict[str, list[str]], positional: list[str]
) -> list[str] | None:
    """The requirement strings asked for: positional ones and those of `-r FILE`."""
    wanted = [p for p in positional if p]
    for path in options.get("-r", []) + options.get("--requirement", []):
        try:
            with open(path, encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError as exc:
            ctx.err.write(f"ERROR: Could not open requirements file: {exc}\n")
            return None
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if line and not line.startswith("-"):
                wanted.append(line)
    return wanted


def _satisfies(version: str, spec: str) -> bool:
    if not spec.strip() or spec.strip().startswith(";"):
        return True
    try:
        from packaging.specifiers import SpecifierSet
    except ImportError:
        return True
    try:
        return SpecifierSet(spec.split(";", 1)[0].strip()).contains(version, prereleases=True)
    except Exception:
        return True


def _install(ctx: Output, args: list[str]) -> int:
    options, positional = _split(args)
    wanted = _requirements(ctx, options, positional)
    if wanted is None:
        return 1
    if not wanted:
        ctx.err.write("ERROR: You must give at least one requirement to install\n")
        return 1
    have = installed()
    failed = []
    for requirement in wanted:
        match = _REQUIREMENT.match(requirement)
        if match is None:
            ctx.err.write(f"ERROR: Invalid requirement: {requirement!r}\n")
            failed.append(requirement)
            continue
        name, spec = match.group(1), match.group(3)
        dist = have.get(canonical(name))
        if dist is not None and _satisfies(dist.version, spec):
            ctx.out.write(f"Requirement already satisfied: {name} in {LOCATION} ({dist.version})\n")
            continue
        failed.append(requirement)
        if dist is not None:
            ctx.err.write(
                f"ERROR: {dist.metadata['Name']} {dist.version} is installed; {requirement} "
                "cannot be installed: this sandbox has no network access.\n"
            )
        else:
            ctx.err.write(
                f"ERROR: Could not install {name}: this sandbox has no network access, so pip "
                "cannot download packages. `pip list` shows the installed packages "
                "(numpy, pandas, requests, and more).\n"
            )
    return 1 if failed else 0


def _refuse(what: str) -> Callable[[Output, list[str]], int]:
    def run(ctx: Output, args: list[str]) -> int:
        ctx.err.write(f"ERROR: pip {what}: {_REFUSALS[what]}\n")
        return 1

    return run


_REFUSALS = {
    "uninstall": "the installed packages are read-only in this sandbox",
    "download": "this sandbox has no network access",
    "wheel": "this sandbox has no network access",
    "index": "this sandbox has no network access",
    "search": "this sandbox has no network access",
}
_COMMANDS = {
    "list": _list,
    "freeze": _freeze,
    "show": _show,
    "install": _install,
    **{what: _refuse(what) for what in _REFUSALS},
}

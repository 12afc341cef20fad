"""python3.11 -m cross (run from python-wasm/, or with it on PYTHONPATH):

    build [RECIPE ...] [--step STEP ...]   build the recipes (all, in dependency order, with
                                           the ones they require) and stage them
    suite RECIPE [--out FILE]              the package's own tests in Cove sessions and
                                           natively (cross/suite.py; the repository's venv)
    env                                    versions.toml's versions as shell assignments, for
                                           build.sh
    list                                   the recipes: name, version, licence

build: --work (default $COVE_WASM_BUILD/cross) and --cpython (default $COVE_WASM_BUILD) name
the work directory and the interpreter's build directory, whose CPython the extensions are
compiled against.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shlex
import sys

from . import stage, steps
from .recipe import RecipeError, load_all, versions
from .toolchain import Toolchain, log


def _env() -> None:
    """The versions (not the sha256 tables) as SECTION_KEY=value: upper case, `_` for the rest."""
    for section, table in versions().items():
        if section not in ("debian", "npm"):
            continue
        for key, value in table.items():
            name = re.sub(r"[^A-Za-z0-9]+", "_", f"{section}_{key}").upper()
            print(f"{name}={shlex.quote(value)}")


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python3.11 -m cross",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("recipes", nargs="*")
    b.add_argument("--step", action="append", choices=steps.STEPS)
    default_build = os.environ.get(
        "COVE_WASM_BUILD", str(pathlib.Path(__file__).parent.parent / "build")
    )
    b.add_argument("--cpython", default=default_build)
    b.add_argument("--work", default=None)
    su = sub.add_parser("suite")
    su.add_argument("recipe")
    su.add_argument("--out", type=pathlib.Path)
    su.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PREFIX",
        help="run only the test modules whose dotted name starts with PREFIX (repeatable)",
    )
    su.add_argument(
        "--limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the time one test module may take, on each side (default 600)",
    )
    su.add_argument("--cpython", default=default_build)
    su.add_argument("--work", default=None)
    sub.add_parser("env")
    sub.add_parser("list")
    args = parser.parse_args()
    try:
        recipes = load_all()
    except RecipeError as exc:
        sys.exit(f"cross: {exc}")
    if args.command == "env":
        _env()
        return
    if args.command == "suite":
        from . import suite

        if args.recipe not in recipes:
            sys.exit(f"cross: no recipe {args.recipe!r}")
        cpython = pathlib.Path(args.cpython).resolve()
        tc = Toolchain(pathlib.Path(args.work or cpython / "cross").resolve(), cpython)
        suite.run(tc, recipes[args.recipe], args.out, only=args.only, limit_s=args.limit)
        return
    if args.command == "list":
        for r in recipes.values():
            print(f"{r.name}\t{r.version}\t{r.license}")
        return
    unknown = set(args.recipes) - set(recipes)
    if unknown:
        sys.exit(f"cross: no recipe {sorted(unknown)}; there are {sorted(recipes)}")
    wanted = set(args.recipes or recipes)
    # with what they require, in dependency order
    pending = list(wanted)
    while pending:
        for n in recipes[pending.pop()].requires:
            if n not in wanted:
                wanted.add(n)
                pending.append(n)
    chosen = [r for n, r in recipes.items() if n in wanted]
    cpython = pathlib.Path(args.cpython).resolve()
    tc = Toolchain(pathlib.Path(args.work or cpython / "cross").resolve(), cpython)
    tc.work.mkdir(parents=True, exist_ok=True)
    stamp = tc.work / "stamps" / "toolchain"
    if not stamp.exists():
        log("toolchain")
        tc.prepare()
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
    tc.tools()
    tc.wrappers()
    tc.copy_recipes()
    steps.build(tc, chosen, recipes, tuple(args.step) if args.step else None)
    # The interpreter takes every recipe: the stage is always all of them.
    stage.combine(tc, list(recipes.values()))


if __name__ == "__main__":
    main()

"""Render docs/configuration.md's tables from `SETTINGS`.

    python -m cove_server._settings_doc            # rewrite docs/configuration.md in place
    python -m cove_server._settings_doc --check    # exit 1 when it is out of date

Only the regions between `<!-- BEGIN SETTINGS <section> -->` and `<!-- END SETTINGS -->` are
generated; the prose around them is the document's own. tests/server/test_docs.py checks that
the file equals its render.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys

from ._settings import SETTINGS, Setting

__all__ = ["render", "render_section"]

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "configuration.md"

_SECTIONS = {
    "server": ("server",),
    "pool": ("pool",),
    "limits": ("limits", "ceilings"),
}
_REGION = re.compile(
    r"(?P<begin><!-- BEGIN SETTINGS (?P<section>\w+) [^\n]*-->\n)"
    r"(?P<body>.*?)"
    r"(?P<end><!-- END SETTINGS -->)",
    re.DOTALL,
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _row(setting: Setting) -> str:
    return f"| `{setting.env}` | {_cell(setting.default_doc)} | {_cell(setting.doc)} |\n"


def render_section(section: str) -> str:
    """The Markdown of one generated region: a variable table, or ("flags") the flag table.

    Raises:
        KeyError: no such section.
    """
    if section == "flags":
        rows = [s for s in SETTINGS if s.flag is not None]
        return "| Flag | Overrides |\n| --- | --- |\n" + "".join(
            f"| `{s.flag}` | `{s.env}` |\n" for s in rows
        )
    targets = _SECTIONS[section]
    rows = [s for s in SETTINGS if s.target in targets]
    return "| Variable | Default | Meaning |\n| --- | --- | --- |\n" + "".join(map(_row, rows))


def render(text: str) -> str:
    """`text` (the document) with every generated region replaced by its render."""
    return _REGION.sub(
        lambda m: m["begin"] + render_section(m["section"]) + m["end"],
        text,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cove_server._settings_doc")
    parser.add_argument("path", nargs="?", type=pathlib.Path, default=DOC)
    parser.add_argument("--check", action="store_true", help="only report whether it is current")
    args = parser.parse_args(argv)
    path: pathlib.Path = args.path
    text = path.read_text()
    rendered = render(text)
    if args.check:
        if rendered != text:
            print(
                f"{path} is out of date: run python -m cove_server._settings_doc", file=sys.stderr
            )
            return 1
        return 0
    if rendered != text:
        path.write_text(rendered)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

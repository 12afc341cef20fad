"""What to tell model code that reaches for a package that is not here.

The reference backend installs Anthropic's code-execution package set; Cove has all of it (the
recipes, python-wasm/packages.txt), so a package model code cannot import is one no tool call
can install: there is no network. An uncaught ModuleNotFoundError says so
(`missing_module_note`), and so does `pip install` (`commands.pip`).
"""


def missing_module_note(exc: ModuleNotFoundError) -> str | None:
    """For an uncaught ModuleNotFoundError of a top-level package whose message says nothing
    more: a note saying what can be done; else None."""
    name = getattr(exc, "name", None)
    if not name or "." in name:
        return None
    if str(exc) != f"No module named {name!r}":
        return None
    return (
        "This sandbox has no network access to install packages; `pip list` shows the "
        "installed ones."
    )

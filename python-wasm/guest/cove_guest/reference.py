"""The reference package set's packages this interpreter does not have yet, and what to tell
model code that reaches for a package that is not here.

The reference backend installs Anthropic's code-execution package set; Cove builds it package
by package. Until one is here, importing it (`sandbox.unavailable`) and `pip install`
(`commands.pip`) say so, rather than a bare "No module named". A package that is installed is
found before anyone looks here, so an entry never hides one; remove it when it lands.
"""

# distribution name (canonical, PEP 503) -> the top-level modules it provides
NOT_YET = {
    "scikit-learn": ("sklearn",),
}
# top-level module -> its distribution
NOT_YET_MODULES = {module: dist for dist, modules in NOT_YET.items() for module in modules}


def not_yet_message(module: str) -> str:
    """The ModuleNotFoundError message for a reference package that is not here yet."""
    return (
        f"No module named {module!r}: {NOT_YET_MODULES[module]} is not available in this "
        "sandbox yet (there is no network access to install packages; `pip list` shows the "
        "installed packages)"
    )


def missing_module_note(exc: ModuleNotFoundError) -> str | None:
    """For an uncaught ModuleNotFoundError of a top-level package whose message says nothing
    more: a note saying what can be done; else None."""
    name = getattr(exc, "name", None)
    if not name or "." in name or name in NOT_YET_MODULES:
        return None
    if str(exc) != f"No module named {name!r}":
        return None
    return (
        "This sandbox has no network access to install packages; `pip list` shows the "
        "installed ones."
    )

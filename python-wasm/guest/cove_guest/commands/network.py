"""Network tools: the sandbox has no network, and they say so (`pip` is its own command:
`commands/pip.py`)."""

from cove_guest.shell.builtins import Command
from cove_guest.shell.io import Context


def no_network(name: str) -> Command:
    """The command `name`, answering that there is no network."""

    def run(ctx: Context, args: list[str]) -> int:
        ctx.err.write(
            f"{name}: this sandbox has no network access; "
            f"{name} cannot download or install anything. "
            "Installed Python packages: `pip list`.\n"
        )
        return 1

    return run

"""Network tools: the sandbox has no network, and they say so (`pip` is its own command:
`commands/pip.py`)."""


def no_network(name):
    def run(ctx, args):
        ctx.err.write(
            f"{name}: this sandbox has no network access; "
            f"{name} cannot download or install anything. "
            "Installed Python packages: `pip list`.\n"
        )
        return 1

    return run

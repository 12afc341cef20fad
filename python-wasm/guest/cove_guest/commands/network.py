"""Network and package tools: the sandbox has no network, and they say so; `pip
list`/`pip show` report that only the standard library is installed."""


def no_network(name):
    def run(ctx, args):
        if name in ("pip", "pip3") and args[:1] in (["list"], ["freeze"], ["show"]):
            return _pip_info(ctx, args)
        if name == "python" or name == "python3":
            return 127
        ctx.err.write(
            f"{name}: this sandbox has no network access; "
            f"{name} cannot download or install anything. "
            "The Python standard library is available.\n"
        )
        return 1

    return run


def _pip_info(ctx, args):
    if args[0] == "show":
        ctx.err.write(f"WARNING: Package(s) not found: {', '.join(args[1:])}\n")
        return 1
    if args[0] == "list":
        ctx.out.write("Package Version\n------- -------\n")
    return 0

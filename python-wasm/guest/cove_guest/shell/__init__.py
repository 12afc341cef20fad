"""The shell behind `bash_code_execution`: bash's grammar, expansions, control flow and
builtins, over commands handed in by the caller.

Nothing here imports `cove_guest.commands`; the driver wires them together with
`Shell(commands=COMMANDS, host=...)`.
"""

from cove_guest.shell.interp import Shell

__all__ = ["Shell"]

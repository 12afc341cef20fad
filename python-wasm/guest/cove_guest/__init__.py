"""The code that runs inside the sandbox: Cove's guest.

Layers, each importing only the ones before it:

    text       patterns, escapes, option parsing, input reading (the leaf)
    shell      parse, arith, expand, conditional, builtins, io, errors, interp
    commands   the utilities (one module per family; awk and jq are subpackages)
    editor     the text-editor tool
    driver     the protocol with the host: capture, cells, python_cli, host; wires the shell
               to the commands

`python-wasm/make_stdlib.py` puts this package into the guest's stdlib archive, and
`cove_driver.c` imports `cove_guest.driver` when the snapshot is made.
"""

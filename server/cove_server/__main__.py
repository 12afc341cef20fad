"""`python -m cove_server`: the `cove` command line (`_cli.main`)."""

from ._cli import main

main()

"""The shell's commands: the core utilities models reach for, with GNU output
formats and exit codes. Each is `name(ctx, args) -> status`, like the builtins; `ctx.stdin` is
bytes, `ctx.out`/`ctx.err` take text or bytes. Options a command does not implement are refused
with a clear message, and the status GNU gives a bad option (1 for coreutils and sed, 2 for
grep, sort, ls, diff, cmp, printf, expr and awk).

`COMMANDS` is the whole command namespace; the driver hands it to the shell.
"""

import functools

from cove_guest.commands.archive import gunzip, gzip_, tar, unzip, zcat, zip_
from cove_guest.commands.awk import awk
from cove_guest.commands.bc import bc
from cove_guest.commands.date import date
from cove_guest.commands.diff import cmp, diff
from cove_guest.commands.digest import base64, hashsum
from cove_guest.commands.dump import hexdump, od, strings, xxd
from cove_guest.commands.expr import expr
from cove_guest.commands.files import (
    basename,
    chmod,
    cp,
    df,
    dirname,
    du,
    ln,
    ls,
    mkdir,
    mktemp,
    mv,
    readlink,
    realpath,
    rm,
    rmdir,
    split,
    stat,
    touch,
    truncate,
)
from cove_guest.commands.filetype import file
from cove_guest.commands.find import find, xargs
from cove_guest.commands.grep import grep
from cove_guest.commands.jq import jq
from cove_guest.commands.merge import comm, join
from cove_guest.commands.network import no_network
from cove_guest.commands.pip import pip
from cove_guest.commands.printf import printf
from cove_guest.commands.sed import sed
from cove_guest.commands.sort import sort
from cove_guest.commands.sqlite import sqlite3
from cove_guest.commands.system import (
    env,
    hostname,
    printenv,
    python,
    sleep,
    timeout,
    uname,
    whoami,
    yes,
)
from cove_guest.commands.text import (
    cat,
    column,
    cut,
    echo,
    expand,
    fold,
    head,
    nl,
    paste,
    rev,
    seq,
    shuf,
    tac,
    tail,
    tee,
    tr,
    uniq,
    wc,
)
from cove_guest.shell.builtins import Command
from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, UsageError

COMMANDS: dict[str, Command] = {
    "echo": echo,
    "printf": printf,
    "cat": cat,
    "head": head,
    "tail": tail,
    "wc": wc,
    "ls": ls,
    "mkdir": mkdir,
    "mktemp": mktemp,
    "rm": rm,
    "rmdir": rmdir,
    "cp": cp,
    "mv": mv,
    "touch": touch,
    "ln": ln,
    "chmod": chmod,
    "basename": basename,
    "dirname": dirname,
    "realpath": realpath,
    "readlink": readlink,
    "du": du,
    "truncate": truncate,
    "split": split,
    "df": df,
    "stat": stat,
    "file": file,
    "find": find,
    "xargs": xargs,
    "tee": tee,
    "grep": grep,
    "egrep": lambda c, a: grep(c, ["-E", *a]),
    "fgrep": lambda c, a: grep(c, ["-F", *a]),
    "sort": sort,
    "uniq": uniq,
    "cut": cut,
    "tr": tr,
    "sed": sed,
    "seq": seq,
    "nl": nl,
    "rev": rev,
    "tac": tac,
    "paste": paste,
    "fold": fold,
    "expand": expand,
    "shuf": shuf,
    "join": join,
    "comm": comm,
    "column": column,
    "diff": diff,
    "cmp": cmp,
    "date": date,
    "sleep": sleep,
    "timeout": timeout,
    "env": env,
    "printenv": printenv,
    "expr": expr,
    "bc": bc,
    "md5sum": hashsum("md5"),
    "sha1sum": hashsum("sha1"),
    "sha256sum": hashsum("sha256"),
    "base64": base64,
    "od": od,
    "xxd": xxd,
    "hexdump": hexdump,
    "hd": hexdump,
    "strings": strings,
    "yes": yes,
    "uname": uname,
    "whoami": whoami,
    "hostname": hostname,
    "python": python,
    "python3": python,
    "awk": awk,
    "gawk": awk,
    "mawk": awk,
    "gzip": gzip_,
    "gunzip": gunzip,
    "zcat": zcat,
    "tar": tar,
    "zip": zip_,
    "unzip": unzip,
    "sqlite3": sqlite3,
    "jq": jq,
    "pip": pip,
    "pip3": pip,
}

for _tool in (
    "curl",
    "wget",
    "git",
    "apt-get",
    "apt",
    "npm",
    "npx",
    "yarn",
    "brew",
    "conda",
    "ssh",
    "scp",
    "nc",
    "ping",
    "sudo",
):
    COMMANDS[_tool] = no_network(_tool)


# GNU's words after a bad option or operand, which coreutils follow with a pointer to --help.
_TRY_HELP = (
    "invalid option",
    "unrecognized option",
    "option",
    "missing operand",
    "missing file operand",
    "missing destination",
    "extra operand",
    "you must specify",
    "invalid floating point",
    "fields are numbered",
    "byte/character positions are numbered",
    "invalid byte/character position",
    "invalid field value",
    "invalid decreasing range",
    "invalid range with no endpoint",
    "the delimiter must be",
    "only one list",
    "an input delimiter",
    "suppressing non-delimited",
    "cannot both summarize",
    "warning: summarizing conflicts",
    "value ",
    "invalid line numbering format",
    "invalid body numbering style",
    "printing all duplicated lines",
    "--group is mutually exclusive",
)


def _usage_status_1(name: str, command: Command) -> Command:
    """`command` with GNU's usage status for coreutils and sed: 1, not 2."""

    @functools.wraps(command)
    def run(ctx: Context, args: list[str]) -> int:
        try:
            return command(ctx, args)
        except UsageError as exc:
            message = str(exc)
            if message.startswith(_TRY_HELP):
                message += f"\nTry '{name} --help' for more information."
            raise ShellError(message, 1) from None

    return run


# The commands whose bad options and operands GNU answers with status 1.
_STATUS_1_ON_USAGE = """
head tail wc cat mkdir rm rmdir cp mv touch ln basename dirname realpath readlink du stat tee
cut tr uniq seq nl rev tac paste join comm sed date sleep md5sum sha1sum sha256sum base64 find
xargs column file mktemp od fold expand shuf truncate split gzip gunzip zcat
"""
for _name in _STATUS_1_ON_USAGE.split():
    if _name in COMMANDS:
        COMMANDS[_name] = _usage_status_1(_name, COMMANDS[_name])

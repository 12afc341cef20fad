"""The shell's commands: the core utilities models reach for, with GNU output
formats and exit codes. Each is `name(ctx, args) -> status`, like the builtins; `ctx.stdin` is
bytes, `ctx.out`/`ctx.err` take text or bytes. Options a command does not implement are refused
with a clear message (status 2).

`COMMANDS` is the whole command namespace; the driver hands it to the shell.
"""

from cove_guest.commands.archive import gunzip, gzip_, tar, unzip, zcat, zip_
from cove_guest.commands.awk import awk
from cove_guest.commands.date import date
from cove_guest.commands.diff import cmp, diff
from cove_guest.commands.digest import base64, hashsum
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
    mv,
    readlink,
    realpath,
    rm,
    rmdir,
    stat,
    touch,
)
from cove_guest.commands.filetype import file
from cove_guest.commands.find import find, xargs
from cove_guest.commands.grep import grep
from cove_guest.commands.jq import jq
from cove_guest.commands.network import no_network
from cove_guest.commands.pip import pip
from cove_guest.commands.sed import sed
from cove_guest.commands.sort import sort
from cove_guest.commands.sqlite import sqlite3
from cove_guest.commands.system import env, hostname, printenv, python, sleep, uname, whoami, yes
from cove_guest.commands.text import (
    cat,
    column,
    cut,
    echo,
    head,
    nl,
    paste,
    printf,
    rev,
    seq,
    tac,
    tail,
    tee,
    tr,
    uniq,
    wc,
)

COMMANDS = {
    "echo": echo,
    "printf": printf,
    "cat": cat,
    "head": head,
    "tail": tail,
    "wc": wc,
    "ls": ls,
    "mkdir": mkdir,
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
    "column": column,
    "diff": diff,
    "cmp": cmp,
    "date": date,
    "sleep": sleep,
    "env": env,
    "printenv": printenv,
    "expr": expr,
    "md5sum": hashsum("md5"),
    "sha1sum": hashsum("sha1"),
    "sha256sum": hashsum("sha256"),
    "base64": base64,
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

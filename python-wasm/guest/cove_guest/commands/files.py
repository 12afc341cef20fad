"""File commands: ls, mkdir, rm, rmdir, cp, mv, touch, ln, chmod, basename,
dirname, realpath, readlink, du, df, stat, mktemp, truncate, split.

Over 500 lines as a list of independent commands (a function each, with its helpers beside
it) that share their error wording (`_cannot`) and `ls`-style sizes and modes.
"""

import datetime
import fnmatch
import os
import re
import secrets
import shutil
import stat as _stat
import time

from cove_guest.commands.date import date_zone, parse_date
from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, UsageError, os_message
from cove_guest.text.inputs import read_operand
from cove_guest.text.options import getopt, parse_options


def human_size(n: int, base: int = 1024) -> str:
    """A byte count as GNU's -h shows it (`--si` with base 1000): rounded up, one decimal below
    10 (`4.0K`, `13K`, `1.0M`), bytes below one unit as they are."""
    units = "KMGTPEZY" if base == 1024 else "kMGTPEZY"
    if n < base:
        return str(n)
    exp = 1
    while n >= base ** (exp + 1) and exp < len(units):
        exp += 1
    scale = base**exp
    tenths = -(-n * 10 // scale)
    if tenths < 100:
        return f"{tenths // 10}.{tenths % 10}{units[exp - 1]}"
    whole = -(-n // scale)
    if whole >= base and exp < len(units):
        return f"1.0{units[exp]}"
    return f"{whole}{units[exp - 1]}"


def _q(name: str) -> str:
    """A name as coreutils quote it in messages and -v output."""
    return f'"{name}"' if "'" in name else f"'{name}'"


def _cannot(ctx: Context, what: str, exc: OSError, *, write: bool = True) -> int:
    """Report a failed file operation as coreutils does (`rm: cannot remove 'x': Permission
    denied`); returns the status, 1."""
    ctx.err.write(f"{what}: {os_message(exc, write=write)}\n")
    return 1


def _mode_string(st: os.stat_result) -> str:
    kind = "d" if _stat.S_ISDIR(st.st_mode) else "l" if _stat.S_ISLNK(st.st_mode) else "-"
    perms = "rwxr-xr-x" if kind == "d" else "rw-r--r--"
    return kind + perms


def ls(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(
        args,
        "laA1RhtSrdFp",
        long_map={"all": "a", "human-readable": "h", "recursive": "R", "reverse": "r"},
    )
    status = 0
    names = names or ["."]
    files: list[str]
    dirs: list[str]
    files, dirs = [], []
    for name in names:
        try:
            st = os.lstat(name)
        except OSError:
            ctx.err.write(f"ls: cannot access '{name}': No such file or directory\n")
            status = 2
            continue
        (dirs if _stat.S_ISDIR(st.st_mode) and "d" not in on else files).append(name)
    one_per_line = True  # output is never a terminal here
    if files:
        _ls_entries(ctx, files, on, ".", one_per_line, direct=True)
    show_header = len(names) > 1 or "R" in on
    for k, d in enumerate(sorted(dirs)):
        if show_header:
            ctx.out.write(("\n" if (k or files) else "") + f"{d}:\n")
        try:
            entries = os.listdir(d)
        except OSError as exc:
            ctx.err.write(f"ls: cannot open directory '{d}': {os_message(exc)}\n")
            status = 2
            continue
        if "a" in on:
            entries += [".", ".."]
        elif "A" not in on:
            entries = [e for e in entries if not e.startswith(".")]
        entries = _ls_sorted(d, entries, on)
        if "l" in on:
            total = sum(_blocks(os.path.join(d, e)) for e in entries)
            ctx.out.write(f"total {total}\n")
        _ls_entries(ctx, entries, on, d, one_per_line)
        if "R" in on:
            for e in entries:
                p = os.path.join(d, e)
                if e not in (".", "..") and os.path.isdir(p) and not os.path.islink(p):
                    ctx.out.write("\n")
                    status = ls(ctx, _ls_args(on, p)) or status
    return status


def _ls_args(on: set[str], path: str) -> list[str]:
    flags = "".join(sorted(on))
    return [f"-{flags}", path]


def _blocks(path: str) -> int:
    try:
        st = os.lstat(path)
        return (st.st_size + 1023) // 1024 * 1 if not _stat.S_ISDIR(st.st_mode) else 4
    except OSError:
        return 0


def _ls_sorted(d: str, entries: list[str], on: set[str]) -> list[str]:
    def mtime(e: str) -> int:
        try:
            return os.lstat(os.path.join(d, e)).st_mtime_ns
        except OSError:
            return 0

    def size(e: str) -> int:
        try:
            return os.lstat(os.path.join(d, e)).st_size
        except OSError:
            return 0

    if "t" in on:
        entries = sorted(entries, key=lambda e: (-mtime(e), e))
    elif "S" in on:
        entries = sorted(entries, key=lambda e: (-size(e), e))
    else:
        entries = sorted(entries, key=_ls_key)
    if "r" in on:
        entries.reverse()
    return entries


def _ls_key(name: str) -> str:
    # GNU ls in the C.UTF-8 locale sorts by bytes.
    return name


def _ls_entries(
    ctx: Context, entries: list[str], on: set[str], d: str, one_per_line: bool, direct: bool = False
) -> None:
    if direct:
        entries = _ls_sorted(".", entries, on)
    for e in entries:
        path = e if direct else os.path.join(d, e)
        suffix = ""
        if ("F" in on or "p" in on) and os.path.isdir(path):
            suffix = "/"
        if "l" in on:
            try:
                st = os.lstat(path)
            except OSError:
                continue
            size = human_size(st.st_size) if "h" in on else str(st.st_size)
            when = datetime.datetime.fromtimestamp(st.st_mtime)
            stamp = (
                when.strftime("%b %e %H:%M")
                if abs(time.time() - st.st_mtime) < 15552000
                else when.strftime("%b %e  %Y")
            )
            link = f" -> {os.readlink(path)}" if _stat.S_ISLNK(st.st_mode) else ""
            ctx.out.write(f"{_mode_string(st)} 1 user user {size:>5} {stamp} {e}{suffix}{link}\n")
        else:
            ctx.out.write(f"{e}{suffix}\n")


def mkdir(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(args, "pv", with_value="m", long_map={"parents": "p"})
    if not names:
        raise UsageError("missing operand")
    status = 0
    for name in names:
        try:
            if "p" in on:
                parts = name.split("/")
                for k in range(1, len(parts) + 1):
                    step = "/".join(parts[:k])
                    if step and not os.path.isdir(step):
                        os.mkdir(step)
                        if "v" in on:
                            ctx.out.write(f"mkdir: created directory {_q(step)}\n")
            else:
                os.mkdir(name)
                if "v" in on:
                    ctx.out.write(f"mkdir: created directory {_q(name)}\n")
        except OSError as exc:
            status = _cannot(ctx, f"mkdir: cannot create directory '{name}'", exc)
    return status


def rm(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(args, "rRfvid", long_map={"recursive": "r", "force": "f"})
    if not names and "f" not in on:
        raise UsageError("missing operand")
    status = 0
    for name in names:
        try:
            if os.path.isdir(name) and not os.path.islink(name):
                if not ({"r", "R"} & on):
                    if "d" in on:
                        os.rmdir(name)
                        if "v" in on:
                            ctx.out.write(f"removed directory {_q(name)}\n")
                        continue
                    ctx.err.write(f"rm: cannot remove '{name}': Is a directory\n")
                    status = 1
                    continue
                if "v" in on:
                    _remove_tree(ctx, name)
                else:
                    shutil.rmtree(name)
            else:
                os.remove(name)
                if "v" in on:
                    ctx.out.write(f"removed {_q(name)}\n")
        except OSError as exc:
            if not (isinstance(exc, FileNotFoundError) and "f" in on):
                status = _cannot(ctx, f"rm: cannot remove '{name}'", exc)
    return status


def _remove_tree(ctx: Context, path: str) -> None:
    """rm -rv: each entry removed and said so, the directory after its entries."""
    for entry in os.listdir(path):
        sub = os.path.join(path, entry)
        if os.path.isdir(sub) and not os.path.islink(sub):
            _remove_tree(ctx, sub)
        else:
            os.remove(sub)
            ctx.out.write(f"removed {_q(sub)}\n")
    os.rmdir(path)
    ctx.out.write(f"removed directory {_q(path)}\n")


def rmdir(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(args, "pv", long_map={"parents": "p", "verbose": "v"})
    if not names:
        raise UsageError("missing operand")
    status = 0
    for name in names:
        try:
            if "v" in on:
                ctx.out.write(f"rmdir: removing directory, {_q(name)}\n")
            os.rmdir(name)
            if "p" in on:
                parent = os.path.dirname(name.rstrip("/"))
                while parent and parent not in (".", "/"):
                    if "v" in on:
                        ctx.out.write(f"rmdir: removing directory, {_q(parent)}\n")
                    os.rmdir(parent)
                    parent = os.path.dirname(parent)
        except OSError as exc:
            status = _cannot(ctx, f"rmdir: failed to remove '{name}'", exc)
    return status


def _targets(ctx: Context, cmd: str, names: list[str]) -> list[tuple[str, str]] | None:
    """(source, target) pairs for cp/mv operands, or None after reporting a usage problem."""
    if len(names) < 2:
        raise UsageError(
            f"missing destination file operand after '{names[0]}'"
            if names
            else "missing file operand"
        )
    *srcs, dest = names
    dest_is_dir = os.path.isdir(dest)
    if len(srcs) > 1 and not dest_is_dir:
        ctx.err.write(f"{cmd}: target '{dest}' is not a directory\n")
        return None
    return [
        (src, os.path.join(dest, os.path.basename(src.rstrip("/"))) if dest_is_dir else dest)
        for src in srcs
    ]


def cp(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(args, "rRapfnvuT", long_map={"recursive": "r"})
    pairs = _targets(ctx, "cp", names)
    if pairs is None:
        return 1
    status = 0
    for src, target in pairs:
        try:
            if os.path.isdir(src):
                if not ({"r", "R", "a"} & on):
                    ctx.err.write(f"cp: -r not specified; omitting directory '{src}'\n")
                    status = 1
                    continue
                if "v" in on:
                    _copy_tree(ctx, src, target)
                else:
                    shutil.copytree(src, target, dirs_exist_ok=True, symlinks=True)
            elif not ("n" in on and os.path.exists(target)):
                shutil.copyfile(src, target)
                if {"p", "a"} & on:
                    shutil.copystat(src, target)
                if "v" in on:
                    ctx.out.write(f"{_q(src)} -> {_q(target)}\n")
        except FileNotFoundError as exc:
            status = _cannot(ctx, f"cp: cannot stat '{src}'", exc)
        except OSError as exc:
            status = _cannot(ctx, f"cp: cannot create regular file '{target}'", exc)
    return status


def _copy_tree(ctx: Context, src: str, target: str) -> None:
    """cp -rv: each entry copied and said so, the directory before its entries."""
    os.makedirs(target, exist_ok=True)
    ctx.out.write(f"{_q(src)} -> {_q(target)}\n")
    for entry in os.listdir(src):
        a, b = os.path.join(src, entry), os.path.join(target, entry)
        if os.path.islink(a):
            os.symlink(os.readlink(a), b)
            ctx.out.write(f"{_q(a)} -> {_q(b)}\n")
        elif os.path.isdir(a):
            _copy_tree(ctx, a, b)
        else:
            shutil.copyfile(a, b)
            ctx.out.write(f"{_q(a)} -> {_q(b)}\n")


def mv(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(args, "fnvuiT")
    pairs = _targets(ctx, "mv", names)
    if pairs is None:
        return 1
    status = 0
    for src, target in pairs:
        try:
            if not ("n" in on and os.path.exists(target)):
                os.replace(src, target)
                if "v" in on:
                    ctx.out.write(f"renamed {_q(src)} -> {_q(target)}\n")
        except FileNotFoundError as exc:
            status = _cannot(ctx, f"mv: cannot stat '{src}'", exc)
        except OSError as exc:
            status = _cannot(ctx, f"mv: cannot move '{src}' to '{target}'", exc)
    return status


def touch(ctx: Context, args: list[str]) -> int:
    on, vals, names = parse_options(
        args, "acm", with_value="dtr", long_map={"date": "d", "reference": "r", "no-create": "c"}
    )
    stamp = None
    if "d" in vals:
        moment = parse_date(vals["d"], date_zone(ctx, False))
        if moment is None:
            raise ShellError(f"invalid date format '{vals['d']}'")
        stamp = moment.timestamp()
    elif "t" in vals:
        m = re.fullmatch(r"(\d{2}|\d{4})?(\d{8})(?:\.(\d{2}))?", vals["t"])
        if not m:
            raise ShellError(f"invalid date format '{vals['t']}'")
        year = m.group(1) or str(datetime.datetime.now().year)
        year = ("20" if int(year) < 69 else "19") + year if len(year) == 2 else year
        d = m.group(2)
        try:
            moment = datetime.datetime(
                int(year),
                int(d[:2]),
                int(d[2:4]),
                int(d[4:6]),
                int(d[6:8]),
                int(m.group(3) or 0),
                tzinfo=date_zone(ctx, False),
            )
        except ValueError:
            raise ShellError(f"invalid date format '{vals['t']}'") from None
        stamp = moment.timestamp()
    elif "r" in vals:
        try:
            stamp = os.stat(vals["r"]).st_mtime
        except OSError as exc:
            raise ShellError(
                f"failed to get attributes of '{vals['r']}': {os_message(exc)}"
            ) from None
    status = 0
    for name in names:
        try:
            if not os.path.exists(name):
                if "c" in on:
                    continue
                open(name, "ab").close()
            if stamp is None:
                os.utime(name)
            else:
                st = os.stat(name)
                os.utime(
                    name, (st.st_atime if "m" in on else stamp, st.st_mtime if "a" in on else stamp)
                )
        except OSError as exc:
            status = _cannot(ctx, f"touch: cannot touch '{name}'", exc)
    return status


def ln(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(args, "sfnvT")
    if len(names) < 2:
        raise UsageError("missing file operand")
    src, dest = names[0], names[1]
    if os.path.isdir(dest) and not os.path.islink(dest):
        dest = os.path.join(dest, os.path.basename(src))
    try:
        if "f" in on and os.path.lexists(dest):
            os.remove(dest)
        if "s" in on:
            os.symlink(src, dest)
        else:
            os.link(src, dest)
        if "v" in on:
            ctx.out.write(f"{_q(dest)} -> {_q(src)}\n")
    except OSError as exc:
        return _cannot(ctx, f"ln: failed to create link '{dest}'", exc)
    return 0


def chmod(ctx: Context, args: list[str]) -> int:
    names = [a for a in args if not a.startswith("-")][1:]
    for name in names:
        if not os.path.exists(name):
            ctx.err.write(f"chmod: cannot access '{name}': No such file or directory\n")
            return 1
    return 0


def basename(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(args, "as:z", {"multiple": ("a", 0), "suffix": ("s", 1), "zero": ("z", 0)})
    on = {key for key, _ in opts}
    suffix = next((val or "" for key, val in reversed(opts) if key == "s"), "")
    if not names:
        raise UsageError("missing operand")
    if "a" not in on and "s" not in on:
        if len(names) > 2:
            raise UsageError(f"extra operand '{names[2]}'")
        if len(names) == 2:
            names, suffix = [names[0]], names[1]
    end = "\0" if "z" in on else "\n"
    for name in names:
        base = name.rstrip("/").rsplit("/", 1)[-1] or ("/" if name.startswith("/") else "")
        if suffix and base.endswith(suffix) and base != suffix:
            base = base[: -len(suffix)]
        ctx.out.write(base + end)
    return 0


def dirname(ctx: Context, args: list[str]) -> int:
    if not args:
        raise UsageError("missing operand")
    for name in args:
        stripped = name.rstrip("/")
        if "/" not in stripped:
            ctx.out.write(("/" if name.startswith("/") else ".") + "\n")
            continue
        head_ = stripped.rsplit("/", 1)[0].rstrip("/")
        ctx.out.write((head_ or "/") + "\n")
    return 0


def _resolve(name: str, mode: str, physical: bool = True) -> str | None:
    """A canonical absolute path: `e` every part must exist, `m` none need to, default (GNU
    realpath's and readlink -f's) all but the last; None when that fails."""
    path = os.path.abspath(name)
    resolved = os.path.realpath(path) if physical else os.path.normpath(path)
    if mode == "m":
        return resolved
    if mode == "e":
        return resolved if os.path.exists(resolved) else None
    # A path that exists has its parent (WASI cannot stat "/" above /workspace, so asking
    # about the parent alone would refuse /workspace itself).
    parent = os.path.dirname(resolved)
    return resolved if os.path.exists(resolved) or os.path.isdir(parent) else None


def realpath(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "emLPqsz",
        {
            "canonicalize-existing": ("e", 0),
            "canonicalize-missing": ("m", 0),
            "logical": ("L", 0),
            "physical": ("P", 0),
            "quiet": ("q", 0),
            "strip": ("s", 0),
            "no-symlinks": ("s", 0),
            "zero": ("z", 0),
            "relative-to": ("relative-to", 1),
            "relative-base": ("relative-base", 1),
        },
    )
    mode, on, relative_to, relative_base = "", set(), None, None
    for key, val in opts:
        if key in ("e", "m"):
            mode = key
        elif key == "relative-to":
            relative_to = val
        elif key == "relative-base":
            relative_base = val
        else:
            on.add(key)
    if not names:
        raise UsageError("missing operand")
    physical = "s" not in on
    if relative_to is not None:
        given, relative_to = relative_to, _resolve(relative_to, mode, physical)
        if relative_to is None:
            raise ShellError(f"{given}: No such file or directory")
    if relative_base is not None:
        relative_base = _resolve(relative_base, mode, physical)
    end = "\0" if "z" in on else "\n"
    status = 0
    for name in names:
        path = _resolve(name, mode, physical)
        if path is None:
            if "q" not in on:
                ctx.err.write(f"realpath: {name}: No such file or directory\n")
            status = 1
            continue
        base = relative_base if relative_base is not None else relative_to
        inside = base is None or path == base or path.startswith(base.rstrip("/") + "/")
        if relative_to is not None and inside:
            path = os.path.relpath(path, relative_to)
        elif relative_base is not None and inside:
            path = os.path.relpath(path, relative_base)
        ctx.out.write(path + end)
    return status


def readlink(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "efmnqsvz",
        {
            "canonicalize": ("f", 0),
            "canonicalize-existing": ("e", 0),
            "canonicalize-missing": ("m", 0),
            "no-newline": ("n", 0),
            "quiet": ("q", 0),
            "silent": ("s", 0),
            "verbose": ("v", 0),
            "zero": ("z", 0),
        },
    )
    on = {key for key, _ in opts}
    if not names:
        raise UsageError("missing operand")
    end = "\0" if "z" in on else "" if "n" in on and len(names) == 1 else "\n"
    status = 0
    for name in names:
        mode = next((m for m in "fem" if m in on), None)
        if mode is not None:
            path = _resolve(name, "" if mode == "f" else mode)
        else:
            try:
                path = os.readlink(name)
            except OSError:
                path = None
        if path is None:
            status = 1
            continue
        ctx.out.write(path + end)
    return status


def _block_size(spec: str) -> tuple[int, str]:
    """--block-size=SIZE: the unit in bytes, and the suffix printed after each number (when SIZE
    is a unit without a number: `-BM` prints `1M`, `-B1M` prints `1`)."""
    m = re.fullmatch(r"(\d*)(?:([kKmMgGtTpPeE])(iB|B)?)?", spec)
    if not m or not spec or (m.group(1) and int(m.group(1)) == 0):
        raise ShellError(f"invalid --block-size argument '{spec}'")
    number = int(m.group(1) or 1)
    letter = m.group(2)
    if not letter:
        return number, ""
    power = "KMGTPE".index(letter.upper()) + 1
    base = 1000 if m.group(3) == "B" else 1024
    suffix = "" if m.group(1) else (("k" if letter in "kK" else letter.upper()) + "B")
    if base == 1024 and not m.group(1):
        suffix = letter.upper() + (m.group(3) or "")
    return number * base**power, suffix


def _disk_usage(st: os.stat_result) -> int:
    """Bytes allocated on an ext4-like file system of 4K blocks. WASI shows no allocated blocks:
    a file takes its size rounded up to a block, a short symlink lives in its inode."""
    if _stat.S_ISLNK(st.st_mode):
        return 0 if st.st_size < 60 else 4096
    return -(-st.st_size // 4096) * 4096


def du(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "0abcd:hHklmsxB:LPS",
        {
            "null": ("0", 0),
            "all": ("a", 0),
            "apparent-size": ("apparent", 0),
            "bytes": ("b", 0),
            "total": ("c", 0),
            "max-depth": ("d", 1),
            "human-readable": ("h", 0),
            "si": ("si", 0),
            "block-size": ("B", 1),
            "summarize": ("s", 0),
            "one-file-system": ("x", 0),
            "dereference": ("L", 0),
            "no-dereference": ("P", 0),
            "separate-dirs": ("S", 0),
            "exclude": ("exclude", 1),
        },
    )
    on = set()
    unit, suffix, human = 1024, "", 0
    max_depth = None
    excludes: list[str] = []
    for key, val in opts:
        if key == "b":
            on.add("apparent")
            unit, suffix, human = 1, "", 0
        elif key == "k":
            unit, suffix, human = 1024, "", 0
        elif key == "m":
            unit, suffix, human = 1024 * 1024, "", 0
        elif key == "B":
            unit, suffix = _block_size(val or "")
            human = 0
        elif key == "h":
            human = 1024
        elif key == "si":
            human = 1000
        elif key == "d":
            if not re.fullmatch(r"\d+", val or ""):
                raise ShellError(f"invalid maximum depth '{val}'")
            max_depth = int(val or 0)
        elif key == "exclude":
            excludes.append(val or "")
        else:
            on.add(key)
    if "s" in on and "a" in on:
        raise UsageError("cannot both summarize and show all entries")
    if "s" in on and max_depth is not None:
        if max_depth:
            raise UsageError(f"warning: summarizing conflicts with --max-depth={max_depth}")
        ctx.err.write("du: warning: summarizing is the same as using --max-depth=0\n")
    if "s" in on:
        max_depth = 0
    names = names or ["."]
    end = "\0" if "0" in on else "\n"
    follow = "L" in on
    # GNU counts a file once: with several operands (or -L) every file, else hard links
    hash_all = len(names) > 1 or follow
    seen: set[tuple[int, int]] = set()

    def show(n: int) -> str:
        if human:
            return human_size(n, human)
        return f"{-(-n // unit)}{suffix}"

    def excluded(path: str) -> bool:
        tails = [path] + [path[k + 1 :] for k, c in enumerate(path) if c == "/"]
        return any(fnmatch.fnmatchcase(t, pat) for pat in excludes for t in tails if t)

    status = 0
    grand = 0

    def walk(path: str, depth: int) -> tuple[int, bool]:
        """The bytes under `path` (-1 when not counted) and whether it is a directory; its row
        is written after its entries'."""
        nonlocal status
        try:
            st = os.stat(path) if follow else os.lstat(path)
        except OSError as exc:
            status = _cannot(ctx, f"du: cannot access '{path}'", exc, write=False)
            return -1, False
        is_dir = _stat.S_ISDIR(st.st_mode)
        if st.st_ino and (hash_all or (not is_dir and st.st_nlink > 1)):
            if (st.st_dev, st.st_ino) in seen:
                return -1, is_dir
            seen.add((st.st_dev, st.st_ino))
        size = st.st_size if "apparent" in on else _disk_usage(st)
        if is_dir:
            try:
                entries = os.listdir(path)  # readdir order, as GNU's fts walks
            except OSError as exc:
                status = _cannot(ctx, f"du: cannot read directory '{path}'", exc, write=False)
                entries = []
            for e in entries:
                sub = path + e if path.endswith("/") else f"{path}/{e}"
                if excludes and excluded(sub):
                    continue
                below, sub_dir = walk(sub, depth + 1)
                if below > 0 and not ("S" in on and sub_dir):
                    size += below
        if (is_dir or "a" in on or depth == 0) and (max_depth is None or depth <= max_depth):
            ctx.out.write(f"{show(size)}\t{path}{end}")
        return size, is_dir

    for name in names:
        if excludes and excluded(name):
            continue
        grand += max(walk(name, 0)[0], 0)
    if "c" in on:
        ctx.out.write(f"{show(grand)}\ttotal{end}")
    return status


def df(ctx: Context, args: list[str]) -> int:
    ctx.out.write(
        "Filesystem     1K-blocks  Used Available Use% Mounted on\n"
        "workspace              -     -         -    - /workspace\n"
    )
    return 0


def stat(ctx: Context, args: list[str]) -> int:
    _on, vals, names = parse_options(args, "Lt", with_value="cf", long_map={"format": "c"})
    status = 0
    for name in names:
        try:
            st = os.lstat(name)
        except OSError:
            ctx.err.write(f"stat: cannot statx '{name}': No such file or directory\n")
            status = 1
            continue
        fmt = vals.get("c")
        kind = (
            "directory"
            if _stat.S_ISDIR(st.st_mode)
            else "symbolic link"
            if _stat.S_ISLNK(st.st_mode)
            else ("regular file" if st.st_size else "regular empty file")
        )
        if fmt:
            rep = {
                "%s": str(st.st_size),
                "%n": name,
                "%F": kind,
                "%Y": str(int(st.st_mtime)),
                "%a": "755" if kind == "directory" else "644",
                "%U": "user",
                "%G": "user",
                "%%": "%",
            }
            ctx.out.write(
                # mypy cannot infer a lambda with a default (rep=rep binds this file's table)
                re.sub(r"%.", lambda m, rep=rep: rep.get(m.group(0), m.group(0)), fmt)  # type: ignore[misc]
                + "\n"
            )
            continue
        mtime = datetime.datetime.fromtimestamp(st.st_mtime).strftime("%Y-%m-%d %H:%M:%S.%f")
        ctx.out.write(
            f"  File: {name}\n  Size: {st.st_size}\tBlocks: {(st.st_size + 511) // 512}"
            f"\tIO Block: 4096   {kind}\nModify: {mtime}\n"
        )
    return status


def mktemp(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "dp:qtu",
        {
            "directory": ("d", 0),
            "tmpdir": ("p", 2),
            "quiet": ("q", 0),
            "dry-run": ("u", 0),
            "suffix": ("suffix", 1),
        },
    )
    on: set[str] = set()
    tmpdir: str | None = None
    suffix: str | None = None
    for key, val in opts:
        if key == "p":
            tmpdir = val if val else ""
        elif key == "suffix":
            suffix = val or ""
        else:
            on.add(key)
    if len(names) > 1:
        raise UsageError("too many templates")
    default_dir = ctx.env.get("TMPDIR") or "/tmp"
    if names:
        template = names[0]
        if tmpdir is not None or "t" in on:
            if "/" in template:
                raise ShellError(f"invalid template, '{template}', contains directory separator")
            template = os.path.join(tmpdir or default_dir, template)
    else:
        template = os.path.join(tmpdir or default_dir, "tmp.XXXXXXXXXX")
    if suffix is None:
        end = template.rfind("X") + 1
        suffix = template[end:]
        template = template[:end]
    elif not template.endswith("X"):
        raise ShellError(f"with --suffix, template '{template}' must end in X")
    xs = len(template) - len(template.rstrip("X"))
    if xs < 3:
        raise ShellError(f"too few X's in template '{template + suffix}'")
    stem = template[: len(template) - xs]
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    for _ in range(100):
        path = stem + "".join(secrets.choice(alphabet) for _ in range(xs)) + suffix
        if "u" in on:
            if not os.path.lexists(path):
                break
            continue
        try:
            if "d" in on:
                os.mkdir(path, 0o700)
            else:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
            break
        except FileExistsError:
            continue
        except OSError as exc:
            if "q" not in on:
                kind = "directory" if "d" in on else "file"
                ctx.err.write(
                    f"mktemp: failed to create {kind} via template '{template + suffix}': "
                    f"{os_message(exc, write=True)}\n"
                )
            return 1
    ctx.out.write(path + "\n")
    return 0


def _size_spec(spec: str) -> int:
    """A SIZE of truncate and split: digits and an optional unit (K, KB, KiB, M, ...)."""
    m = re.fullmatch(r"(\d+)(?:([kKmMgGtTpPeE])(iB|B)?)?", spec)
    if not m:
        raise ShellError(f"invalid number: '{spec}'")
    n = int(m.group(1))
    if m.group(2):
        power = "KMGTPE".index(m.group(2).upper()) + 1
        n *= (1000 if m.group(3) == "B" else 1024) ** power
    return n


def truncate(ctx: Context, args: list[str]) -> int:
    opts, names = getopt(
        args,
        "cor:s:",
        {"no-create": ("c", 0), "io-blocks": ("o", 0), "reference": ("r", 1), "size": ("s", 1)},
    )
    no_create, spec, ref = False, None, None
    for key, val in opts:
        if key == "c":
            no_create = True
        elif key == "s":
            spec = val or ""
        elif key == "r":
            ref = val
    if spec is None and ref is None:
        raise UsageError("you must specify either '--size' or '--reference'")
    if not names:
        raise UsageError("missing file operand")
    mode = ""
    if spec and spec[0] in "+-<>/%":
        mode, spec = spec[0], spec[1:]
    amount = _size_spec(spec) if spec is not None else 0
    if ref is not None:
        try:
            base = os.stat(ref).st_size
        except OSError as exc:
            raise ShellError(f"cannot stat '{ref}': {os_message(exc)}") from None
        amount = base + amount if mode == "+" else base - amount if mode == "-" else base
        if spec is None or mode in "+-":
            mode = ""
    status = 0
    for name in names:
        if no_create and not os.path.exists(name):
            continue
        try:
            size = os.stat(name).st_size if os.path.exists(name) else 0
            new = {
                "": amount,
                "+": size + amount,
                "-": max(size - amount, 0),
                "<": min(size, amount),
                ">": max(size, amount),
                "/": size - size % amount if amount else size,
                "%": -(-size // amount) * amount if amount else size,
            }[mode]
            with open(name, "ab") as f:
                f.truncate(new)
        except OSError as exc:
            status = _cannot(ctx, f"truncate: cannot open '{name}' for writing", exc)
    return status


def split(ctx: Context, args: list[str]) -> int:
    args = [("-l" + a[1:]) if re.fullmatch(r"-\d+", a) else a for a in args]
    opts, names = getopt(
        args,
        "a:b:C:dl:n:x",
        {
            "suffix-length": ("a", 1),
            "bytes": ("b", 1),
            "line-bytes": ("C", 1),
            "lines": ("l", 1),
            "number": ("n", 1),
            "numeric-suffixes": ("d", 2),
            "hex-suffixes": ("x", 2),
            "additional-suffix": ("suffix", 1),
            "elide-empty-files": ("e", 0),
            "verbose": ("verbose", 0),
        },
    )
    mode, amount, width, digits, start, extra = "l", 1000, 2, "", 0, ""
    verbose = False
    for key, val in opts:
        if key in ("l", "b", "C", "n"):
            mode = key
            if key == "n":
                m = re.fullmatch(r"(?:l/)?(\d+)", val or "")
                if not m or int(m.group(1)) == 0:
                    raise ShellError(f"invalid number of chunks: '{val}'")
                mode = "nl" if (val or "").startswith("l/") else "n"
                amount = int(m.group(1))
            else:
                amount = _size_spec(val or "")
                if amount == 0:
                    raise ShellError(f"invalid number of {'lines' if key == 'l' else 'bytes'}: '0'")
        elif key == "a":
            width = int(val or 2)
        elif key in ("d", "x"):
            digits = "0123456789" if key == "d" else "0123456789abcdef"
            start = int(val, 16 if key == "x" else 10) if val else 0
        elif key == "suffix":
            extra = val or ""
        elif key == "verbose":
            verbose = True
    if len(names) > 2:
        raise UsageError(f"extra operand '{names[2]}'")
    source = names[0] if names else "-"
    prefix = names[1] if len(names) > 1 else "x"
    try:
        data = read_operand(ctx, source)
    except OSError as exc:
        raise ShellError(f"cannot open '{source}' for reading: {os_message(exc)}") from None
    chunks: list[bytes] = []
    if mode == "l":
        lines = data.splitlines(keepends=True)
        chunks = [b"".join(lines[k : k + amount]) for k in range(0, len(lines), amount)]
    elif mode == "b":
        chunks = [data[k : k + amount] for k in range(0, len(data), amount)]
    elif mode == "C":
        current = b""
        for line in data.splitlines(keepends=True):
            while len(line) > amount:
                if current:
                    chunks.append(current)
                    current = b""
                chunks.append(line[:amount])
                line = line[amount:]
            if len(current) + len(line) > amount:
                chunks.append(current)
                current = b""
            current += line
        if current:
            chunks.append(current)
    else:
        size = len(data)
        bounds = [size * k // amount for k in range(amount + 1)]
        if mode == "n":
            chunks = [data[bounds[k] : bounds[k + 1]] for k in range(amount)]
        else:
            # l/N: the same byte ranges, each ending at the end of a line
            chunks, pos = [], 0
            for k in range(amount):
                end = bounds[k + 1]
                if k < amount - 1:
                    nl = data.find(b"\n", max(end - 1, pos))
                    end = size if nl < 0 else nl + 1
                chunks.append(data[pos:end] if pos < end else b"")
                pos = max(pos, end)
    alphabet = digits or "abcdefghijklmnopqrstuvwxyz"
    for n, chunk in enumerate(chunks):
        k = n + start
        suffix = ""
        for _ in range(width):
            k, d = divmod(k, len(alphabet))
            suffix = alphabet[d] + suffix
        if k:
            raise ShellError("output file suffixes exhausted")
        name = prefix + suffix + extra
        if verbose:
            ctx.out.write(f"creating file '{name}'\n")
        with open(name, "wb") as f:
            f.write(chunk)
    return 0

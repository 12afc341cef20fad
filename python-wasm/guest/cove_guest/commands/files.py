"""File commands: ls, mkdir, rm, rmdir, cp, mv, touch, ln, chmod, basename,
dirname, realpath, readlink, du, df, stat."""

import datetime
import os
import re
import shutil
import stat as _stat
import time

from cove_guest.commands.date import date_zone, parse_date
from cove_guest.text.errors import ShellError, UsageError, os_message
from cove_guest.text.options import parse_options


def _human(n):
    for unit in ("", "K", "M", "G", "T"):
        if n < 1024 or unit == "T":
            if unit == "":
                return str(n)
            return (f"{n:.1f}" if n < 10 else f"{n:.0f}") + unit
        n = n / 1024
    return str(n)


def _human_ceil(n):
    import math

    if n < 1024:
        return str(n)
    for unit in ("K", "M", "G", "T"):
        n = n / 1024
        if n < 1024 or unit == "T":
            if n < 10:
                v = math.ceil(n * 10) / 10
                return (f"{v:.1f}" if v < 10 else f"{math.ceil(v):.0f}") + unit
            return f"{math.ceil(n):.0f}" + unit
    return str(n)


def _mode_string(st):
    kind = "d" if _stat.S_ISDIR(st.st_mode) else "l" if _stat.S_ISLNK(st.st_mode) else "-"
    perms = "rwxr-xr-x" if kind == "d" else "rw-r--r--"
    return kind + perms


def ls(ctx, args):
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


def _ls_args(on, path):
    flags = "".join(sorted(on))
    return [f"-{flags}", path]


def _blocks(path):
    try:
        st = os.lstat(path)
        return (st.st_size + 1023) // 1024 * 1 if not _stat.S_ISDIR(st.st_mode) else 4
    except OSError:
        return 0


def _ls_sorted(d, entries, on):
    def st(e):
        try:
            return os.lstat(os.path.join(d, e))
        except OSError:
            return None

    if "t" in on:
        entries = sorted(entries, key=lambda e: (-(st(e).st_mtime_ns if st(e) else 0), e))
    elif "S" in on:
        entries = sorted(entries, key=lambda e: (-(st(e).st_size if st(e) else 0), e))
    else:
        entries = sorted(entries, key=_ls_key)
    if "r" in on:
        entries.reverse()
    return entries


def _ls_key(name):
    # GNU ls in the C.UTF-8 locale sorts by bytes.
    return name


def _ls_entries(ctx, entries, on, d, one_per_line, direct=False):
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
            size = _human(st.st_size) if "h" in on else str(st.st_size)
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


def mkdir(ctx, args):
    on, _, names = parse_options(args, "pv", with_value="m", long_map={"parents": "p"})
    if not names:
        raise UsageError("missing operand")
    status = 0
    for name in names:
        try:
            if "p" in on:
                os.makedirs(name, exist_ok=True)
            else:
                os.mkdir(name)
        except FileExistsError:
            ctx.err.write(f"mkdir: cannot create directory '{name}': File exists\n")
            status = 1
        except FileNotFoundError:
            ctx.err.write(f"mkdir: cannot create directory '{name}': No such file or directory\n")
            status = 1
        except OSError as exc:
            ctx.err.write(
                f"mkdir: cannot create directory '{name}': {os_message(exc, write=True)}\n"
            )
            status = 1
    return status


def rm(ctx, args):
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
                        continue
                    ctx.err.write(f"rm: cannot remove '{name}': Is a directory\n")
                    status = 1
                    continue
                shutil.rmtree(name)
            else:
                os.remove(name)
        except FileNotFoundError:
            if "f" not in on:
                ctx.err.write(f"rm: cannot remove '{name}': No such file or directory\n")
                status = 1
        except OSError as exc:
            ctx.err.write(f"rm: cannot remove '{name}': {os_message(exc, write=True)}\n")
            status = 1
    return status


def rmdir(ctx, args):
    _on, _, names = parse_options(args, "p")
    status = 0
    for name in names:
        try:
            os.rmdir(name)
        except OSError as exc:
            ctx.err.write(f"rmdir: failed to remove '{name}': {os_message(exc, write=True)}\n")
            status = 1
    return status


def _targets(ctx, cmd, names):
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


def cp(ctx, args):
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
                shutil.copytree(src, target, dirs_exist_ok=True, symlinks=True)
            elif not ("n" in on and os.path.exists(target)):
                shutil.copyfile(src, target)
        except FileNotFoundError:
            ctx.err.write(f"cp: cannot stat '{src}': No such file or directory\n")
            status = 1
        except OSError as exc:
            ctx.err.write(
                f"cp: cannot create regular file '{target}': {os_message(exc, write=True)}\n"
            )
            status = 1
    return status


def mv(ctx, args):
    on, _, names = parse_options(args, "fnvuiT")
    pairs = _targets(ctx, "mv", names)
    if pairs is None:
        return 1
    status = 0
    for src, target in pairs:
        try:
            if not ("n" in on and os.path.exists(target)):
                os.replace(src, target)
        except FileNotFoundError:
            ctx.err.write(f"mv: cannot stat '{src}': No such file or directory\n")
            status = 1
        except OSError as exc:
            ctx.err.write(f"mv: cannot move '{src}' to '{target}': {os_message(exc, write=True)}\n")
            status = 1
    return status


def touch(ctx, args):
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
            ctx.err.write(f"touch: cannot touch '{name}': {os_message(exc, write=True)}\n")
            status = 1
    return status


def ln(ctx, args):
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
    except OSError as exc:
        ctx.err.write(f"ln: failed to create link '{dest}': {os_message(exc, write=True)}\n")
        return 1
    return 0


def chmod(ctx, args):
    names = [a for a in args if not a.startswith("-")][1:]
    for name in names:
        if not os.path.exists(name):
            ctx.err.write(f"chmod: cannot access '{name}': No such file or directory\n")
            return 1
    return 0


def basename(ctx, args):
    on, vals, names = parse_options(args, "az", with_value="s")
    if not names:
        raise UsageError("missing operand")
    if "a" not in on and "s" not in vals and len(names) == 2:
        names, suffix = [names[0]], names[1]
    else:
        suffix = vals.get("s", "")
    for name in names:
        base = name.rstrip("/").rsplit("/", 1)[-1] or ("/" if name.startswith("/") else "")
        if suffix and base.endswith(suffix) and base != suffix:
            base = base[: -len(suffix)]
        ctx.out.write(base + "\n")
    return 0


def dirname(ctx, args):
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


def realpath(ctx, args):
    _on, _, names = parse_options(args, "esmq")
    for name in names:
        ctx.out.write(os.path.realpath(name) + "\n")
    return 0


def readlink(ctx, args):
    on, _, names = parse_options(args, "fenm")
    status = 0
    for name in names:
        if "f" in on or "e" in on or "m" in on:
            ctx.out.write(os.path.realpath(name) + "\n")
            continue
        try:
            ctx.out.write(os.readlink(name) + "\n")
        except OSError:
            status = 1
    return status


def du(ctx, args):
    on, vals, names = parse_options(args, "shacb", with_value="d", long_map={"max-depth": "d"})
    names = names or ["."]
    status = 0
    grand = 0

    def size_of(path):
        try:
            st = os.lstat(path)
        except OSError:
            return 0
        return (st.st_size + 4095) // 4096 * 4 if not _stat.S_ISDIR(st.st_mode) else 4

    for name in names:
        if not os.path.exists(name):
            ctx.err.write(f"du: cannot access '{name}': No such file or directory\n")
            status = 1
            continue
        rows: list[tuple[int, str, int]] = []  # (size, path, depth)

        def walk(path, depth, rows):
            total = size_of(path)
            if os.path.isdir(path) and not os.path.islink(path):
                for e in sorted(os.listdir(path)):
                    sub = walk(os.path.join(path, e), depth + 1, rows)
                    total += sub
            if os.path.isdir(path) or "a" in on or depth == 0:
                rows.append((total, path, depth))
            return total

        total = walk(name, 0, rows)
        grand += total
        max_depth = int(vals["d"]) if "d" in vals else None
        for t, path, depth in rows:
            if "s" in on and depth > 0:
                continue
            if max_depth is not None and depth > max_depth:
                continue
            ctx.out.write(f"{_human_ceil(t * 1024) if 'h' in on else t}\t{path}\n")
    if "c" in on:
        ctx.out.write(f"{_human_ceil(grand * 1024) if 'h' in on else grand}\ttotal\n")
    return status


def df(ctx, args):
    ctx.out.write(
        "Filesystem     1K-blocks  Used Available Use% Mounted on\n"
        "workspace              -     -         -    - /workspace\n"
    )
    return 0


def stat(ctx, args):
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

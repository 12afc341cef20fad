"""gzip, gunzip, zcat, tar (create, list, extract, gzip) and zip/unzip."""

import os

from cove_guest.shell.io import Context
from cove_guest.text.errors import UsageError
from cove_guest.text.inputs import read_operand, walk_tree
from cove_guest.text.options import parse_options
from cove_guest.text.patterns import fnmatch


def gzip_(ctx: Context, args: list[str]) -> int:
    import gzip as _gz

    on, _, names = parse_options(
        args, "dckfv", long_map={"decompress": "d", "stdout": "c", "keep": "k"}
    )
    status = 0
    if not names:
        ctx.out.write(_gz.decompress(ctx.stdin) if "d" in on else _gz.compress(ctx.stdin, mtime=0))
        return 0
    for name in names:
        try:
            data = read_operand(ctx, name)
        except OSError:
            ctx.err.write(f"gzip: {name}: No such file or directory\n")
            status = 1
            continue
        if "d" in on:
            if not name.endswith(".gz"):
                ctx.err.write(f"gzip: {name}: unknown suffix -- ignored\n")
                status = 2
                continue
            out, target = _gz.decompress(data), name[:-3]
        else:
            out, target = _gz.compress(data), name + ".gz"
        if "c" in on:
            ctx.out.write(out)
            continue
        with open(target, "wb") as f:
            f.write(out)
        if "k" not in on:
            os.remove(name)
    return status


def gunzip(ctx: Context, args: list[str]) -> int:
    return gzip_(ctx, ["-d", *args])


def zcat(ctx: Context, args: list[str]) -> int:
    return gzip_(ctx, ["-dc", *args])


def tar(ctx: Context, args: list[str]) -> int:
    import tarfile

    if args and not args[0].startswith("-"):
        args = ["-" + args[0], *args[1:]]
    on, vals, names = parse_options(args, "cxtzvjf", with_value="C", long_map={"directory": "C"})
    archive = None
    if "f" in on:
        if not names:
            raise UsageError("option requires an argument -- 'f'")
        archive = names.pop(0)
    if archive is None:
        raise UsageError("refusing to use the terminal as an archive; give -f FILE")
    base = vals.get("C", ".")
    try:
        if "c" in on:
            with tarfile.open(
                archive, "w:gz" if "z" in on else "w", format=tarfile.GNU_FORMAT
            ) as t:
                for n in names:
                    t.add(n)
                    if "v" in on:
                        for path, _ in walk_tree(n, None):
                            ctx.out.write(path + ("/" if os.path.isdir(path) else "") + "\n")
            return 0
        with tarfile.open(archive, "r:*") as t:
            if "t" in on:
                for m in t.getmembers():
                    ctx.out.write(m.name + ("/" if m.isdir() else "") + "\n")
                return 0
            if "x" in on:
                for m in t.getmembers():
                    if m.name.startswith("/") or ".." in m.name.split("/"):
                        ctx.err.write(f"tar: {m.name}: unsafe path skipped\n")
                        continue
                    if not (m.isfile() or m.isdir()):
                        ctx.err.write(f"tar: {m.name}: only files and directories are extracted\n")
                        continue
                    t.extract(m, base)
                    if "v" in on:
                        ctx.out.write(m.name + ("/" if m.isdir() else "") + "\n")
                return 0
    except FileNotFoundError as exc:
        ctx.err.write(f"tar: {exc.filename}: Cannot open: No such file or directory\n")
        return 2
    except tarfile.TarError as exc:
        ctx.err.write(f"tar: {exc}\n")
        return 2
    raise UsageError("you must specify one of the '-ctx' options")


def zip_(ctx: Context, args: list[str]) -> int:
    import zipfile

    on, _, names = parse_options(args, "rqj")
    if len(names) < 2:
        raise UsageError("usage: zip [-r] archive.zip files...")
    archive, files = names[0], names[1:]
    if not archive.endswith(".zip"):
        archive += ".zip"
    with zipfile.ZipFile(
        archive, "a" if os.path.exists(archive) else "w", zipfile.ZIP_DEFLATED
    ) as z:
        for f in files:
            if os.path.isdir(f) and "r" in on:
                for path, _ in walk_tree(f, None):
                    z.write(path)
                    if "q" not in on:
                        ctx.out.write(
                            f"  adding: {path}{'/' if os.path.isdir(path) else ''} (stored 0%)\n"
                        )
            elif os.path.exists(f):
                z.write(f, os.path.basename(f) if "j" in on else f)
                if "q" not in on:
                    ctx.out.write(f"  adding: {f} (deflated)\n")
            else:
                ctx.err.write(f"zip warning: name not matched: {f}\n")
    return 0


def unzip(ctx: Context, args: list[str]) -> int:
    import zipfile

    on, vals, names = parse_options(args, "loqnp", with_value="d")
    if not names:
        raise UsageError("usage: unzip [-l] archive.zip [-d dir]")
    try:
        with zipfile.ZipFile(names[0]) as z:
            if "p" in on:  # members to stdout
                for info in z.infolist():
                    if not info.is_dir() and (
                        len(names) == 1 or any(fnmatch(info.filename, n) for n in names[1:])
                    ):
                        ctx.out.write(z.read(info))
                return 0
            if "l" in on:
                for info in z.infolist():
                    ctx.out.write(f"{info.file_size:>9}  {info.filename}\n")
                return 0
            dest = vals.get("d", ".")
            for info in z.infolist():
                if info.filename.startswith("/") or ".." in info.filename.split("/"):
                    ctx.err.write(f"unzip: {info.filename}: unsafe path skipped\n")
                    continue
                z.extract(info, dest)
                if "q" not in on:
                    ctx.out.write(
                        "  inflating: "
                        f"{os.path.join(dest, info.filename) if dest != '.' else info.filename}\n"
                    )
    except FileNotFoundError:
        ctx.err.write(f"unzip:  cannot find or open {names[0]}\n")
        return 9
    except zipfile.BadZipFile:
        ctx.err.write(f"unzip:  {names[0]} is not a zip archive\n")
        return 9
    return 0

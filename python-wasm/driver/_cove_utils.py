"""The shell's utilities: the core commands models reach for, with GNU output formats and exit
codes. Each is `name(ctx, args) -> status`; `ctx.stdin` is bytes, `ctx.out`/`ctx.err` take text
or bytes. Options a command does not implement are refused with a clear message (status 2).

One module (awk and jq have their own): the utilities share option parsing, input reading and
the regex translation, and one table (COMMANDS) is the shell's whole command namespace."""

import base64 as _b64
import datetime
import difflib
import functools
import hashlib
import json
import os
import re
import shutil
import stat as _stat
import time

from _cove_shell import ShellError, os_message


class Usage(ShellError):
    def __init__(self, message):
        super().__init__(message, 2)


def _opts(args, flags, with_value=(), long_map=None):
    """Parse short flags (bundled), flags with values, and `--`; returns (set, values, rest)."""
    on, values, rest = set(), {}, []
    i = 0
    long_map = long_map or {}
    while i < len(args):
        a = args[i]
        if a == "--":
            rest.extend(args[i + 1:])
            break
        if a.startswith("--") and len(a) > 2:
            name, eq, val = a[2:].partition("=")
            if name in long_map:
                key = long_map[name]
                if key in with_value:
                    if not eq:
                        i += 1
                        val = args[i]
                    values[key] = val
                else:
                    on.add(key)
                i += 1
                continue
            raise Usage(f"unrecognized option '{a}'")
        if a.startswith("-") and len(a) > 1:
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in with_value:
                    val = a[j + 1:]
                    if not val:
                        i += 1
                        if i >= len(args):
                            raise Usage(f"option requires an argument -- '{ch}'")
                        val = args[i]
                    values[ch] = val
                    break
                if ch not in flags:
                    raise Usage(f"invalid option -- '{ch}'")
                on.add(ch)
                j += 1
            i += 1
            continue
        rest.append(a)
        i += 1
    return on, values, rest


def _is_number(a):
    return bool(re.fullmatch(r"-\d+", a))


def _read(ctx, name):
    if name == "-":
        return ctx.stdin
    if name == "/dev/null":
        return b""
    with open(name, "rb") as f:
        return f.read()


def _inputs(ctx, names, cmd):
    """Yield (name, bytes) for each operand (stdin when none); errors reported, status kept."""
    status = 0
    out = []
    for name in names or ["-"]:
        try:
            out.append((name, _read(ctx, name)))
        except FileNotFoundError:
            ctx.err.write(f"{cmd}: {name}: No such file or directory\n")
            status = 1
        except IsADirectoryError:
            ctx.err.write(f"{cmd}: {name}: Is a directory\n")
            status = 1
        except OSError as exc:
            ctx.err.write(f"{cmd}: {name}: {os_message(exc)}\n")
            status = 1
    return out, status


def _lines(data):
    """Split bytes into lines keeping terminators."""
    return data.splitlines(keepends=True)


def _text(b):
    return b.decode("utf-8", "surrogateescape")


def _bytes(s):
    return s.encode("utf-8", "surrogateescape")


# -- output of text -----------------------------------------------------------------------------

def echo(ctx, args):
    newline, escapes = True, False
    i = 0
    while i < len(args) and re.fullmatch(r"-[neE]+", args[i]):
        for ch in args[i][1:]:
            if ch == "n":
                newline = False
            elif ch == "e":
                escapes = True
            else:
                escapes = False
        i += 1
    text = " ".join(args[i:])
    if escapes:
        text, stop = _echo_escapes(text)
        if stop:
            ctx.out.write(text)
            return 0
    ctx.out.write(text + ("\n" if newline else ""))
    return 0


def _echo_escapes(s):
    out = []
    i = 0
    table = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "\\": "\\", "e": "\x1b", "E": "\x1b"}
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            d = s[i + 1]
            if d == "c":
                return "".join(out), True
            if d in table:
                out.append(table[d])
                i += 2
                continue
            if d == "0":
                m = re.match(r"[0-7]{0,3}", s[i + 2:])
                out.append(chr(int(m.group(0) or "0", 8)))
                i += 2 + len(m.group(0))
                continue
            if d == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2:])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + len(m.group(0))
                    continue
        out.append(c)
        i += 1
    return "".join(out), False


def printf(ctx, args):
    if args and args[0] == "-v":
        raise Usage("-v is not supported")
    if not args:
        raise Usage("usage: printf format [arguments]")
    fmt, rest = args[0], args[1:]
    out = []
    status = 0
    first = True
    while first or rest:
        first = False
        text, rest, consumed, bad = _format(fmt, rest)
        out.append(text)
        status = status or bad
        if not consumed:
            break
    ctx.out.write("".join(out))
    return status


_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([diouxXeEfFgGcsqb%])")


def _format(fmt, args):
    out = []
    i = 0
    consumed = False
    bad = 0
    args = list(args)
    while i < len(fmt):
        c = fmt[i]
        if c == "\\":
            text, stop = _echo_escapes(fmt[i:i + 2] if fmt[i + 1:i + 2] != "0" else fmt[i:i + 5])
            seg = fmt[i:i + 2]
            if fmt[i + 1:i + 2] in ("0",):
                m = re.match(r"\\0[0-7]{0,3}", fmt[i:])
                seg = m.group(0)
                text = chr(int(seg[2:] or "0", 8))
            elif fmt[i + 1:i + 2] == "x":
                m = re.match(r"\\x[0-9a-fA-F]{1,2}", fmt[i:])
                if m:
                    seg = m.group(0)
                    text = chr(int(seg[2:], 16))
            out.append(text)
            i += len(seg)
            continue
        if c == "%":
            m = _SPEC.match(fmt, i)
            if not m:
                out.append(c)
                i += 1
                continue
            flags, width, prec, conv = m.groups()
            i = m.end()
            if conv == "%":
                out.append("%")
                continue
            if width == "*":
                width = args.pop(0) if args else "0"
                consumed = True
            if prec == "*":
                prec = args.pop(0) if args else "0"
                consumed = True
            arg = args.pop(0) if args else None
            if arg is not None:
                consumed = True
            spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
            if conv in "diouxX":
                value, ok = _int_arg(arg)
                bad = bad or (0 if ok else 1)
                pyconv = "d" if conv in "diu" else conv
                out.append((spec + pyconv) % value)
            elif conv in "eEfFgG":
                try:
                    value = float(arg) if arg not in (None, "") else 0.0
                except ValueError:
                    value, bad = 0.0, 1
                out.append((spec + conv) % value)
            elif conv == "c":
                out.append((spec + "s") % ((arg or "")[:1]))
            elif conv == "b":
                out.append((spec + "s") % _echo_escapes(arg or "")[0])
            elif conv == "q":
                from _cove_shell import _quote

                out.append(_quote(arg or "''" if arg == "" else arg or ""))
            else:
                out.append((spec + "s") % (arg or ""))
            continue
        out.append(c)
        i += 1
    return "".join(out), args, consumed, bad


def _int_arg(arg):
    if arg is None or arg == "":
        return 0, True
    s = arg.strip()
    if s[:1] in ("'", '"') and len(s) > 1:
        return ord(s[1]), True
    try:
        return int(s, 0) if s.lower().startswith(("0x", "-0x")) else int(s), True
    except ValueError:
        return 0, False


def cat(ctx, args):
    on, _, names = _opts(args, "nAbsvET", long_map={"number": "n", "show-all": "A", "number-nonblank": "b",
                                                    "squeeze-blank": "s", "show-ends": "E", "show-tabs": "T",
                                                    "show-nonprinting": "v"})
    if "A" in on:
        on |= {"v", "E", "T"}
    data, status = _inputs(ctx, names, "cat")
    blob = b"".join(d for _, d in data)
    if "s" in on:
        blob = re.sub(rb"\n\n\n+", b"\n\n", blob)
    if on & {"v", "E", "T"}:
        blob = b"".join(_cat_visible(line, on) for line in _lines(blob))
    if "n" in on or "b" in on:
        out = []
        k = 0
        for line in _lines(blob):
            if "b" in on and line.strip(b"\n") == b"":
                out.append(line)
                continue
            k += 1
            out.append(b"%6d\t" % k + line)
        blob = b"".join(out)
    ctx.out.write(blob)
    return status


def _cat_visible(line, on):
    """One line as cat -v / -E / -T show it: ^X for controls, M- for high bytes, $ at the end."""
    body, end = (line[:-1], b"\n") if line.endswith(b"\n") else (line, b"")
    out = bytearray()
    for c in body:
        if c == 9:
            out += b"^I" if "T" in on else b"\t"
        elif "v" not in on:
            out.append(c)
        else:
            prefix = b"M-" if c >= 128 else b""
            c &= 0x7F
            out += prefix + (b"^" + bytes([c ^ 0x40]) if c < 32 or c == 127 else bytes([c]))
    return bytes(out) + (b"$" if "E" in on and end else b"") + end


def _legacy_counts(args):
    """`head -5` / `tail -5` mean `-n 5`; a count that is the value of -n or -c stays as it is."""
    out = []
    for k, a in enumerate(args):
        value_of = k > 0 and args[k - 1] in ("-n", "-c", "--lines", "--bytes")
        out.append(("-n" + a[1:]) if _is_number(a) and not value_of else a)
    return out


def _count(spec, what):
    try:
        return int(spec)
    except ValueError:
        raise ShellError(f"invalid number of {what}: '{spec}'") from None


def head(ctx, args):
    args = _legacy_counts(args)
    on, vals, names = _opts(args, "qv", with_value="nc", long_map={"lines": "n", "bytes": "c", "quiet": "q"})
    data, status = _inputs(ctx, names, "head")
    for k, (name, blob) in enumerate(data):
        if len(data) > 1 and "q" not in on:
            ctx.out.write(("\n" if k else "") + f"==> {name if name != '-' else 'standard input'} <==\n")
        if "c" in vals:
            n = _count(vals["c"], "bytes")
            # -c -N: all but the last N bytes
            ctx.out.write(blob[:n] if n >= 0 else blob[:max(len(blob) + n, 0)])
            continue
        n = _count(vals.get("n", "10"), "lines")
        lines = _lines(blob)
        ctx.out.write(b"".join(lines[:n] if n >= 0 else lines[:max(len(lines) + n, 0)]))
    return status


def tail(ctx, args):
    args = _legacy_counts(args)
    if args and re.fullmatch(r"\+\d+", args[0]):
        args = ["-n", args[0], *args[1:]]
    on, vals, names = _opts(args, "qvf", with_value="nc", long_map={"lines": "n", "bytes": "c"})
    data, status = _inputs(ctx, names, "tail")
    for k, (name, blob) in enumerate(data):
        if len(data) > 1 and "q" not in on:
            ctx.out.write(("\n" if k else "") + f"==> {name} <==\n")
        if "c" in vals:
            spec = vals["c"]
            n = abs(_count(spec, "bytes"))
            if spec.startswith("+"):
                ctx.out.write(blob[max(n - 1, 0):])  # from byte N on
            else:
                ctx.out.write(blob[-n:] if n else b"")
            continue
        spec = vals.get("n", "10")
        lines = _lines(blob)
        n = abs(_count(spec, "lines"))
        if spec.startswith("+"):
            ctx.out.write(b"".join(lines[max(n - 1, 0):]))
        else:
            ctx.out.write(b"".join(lines[-n:]) if n else b"")
    return status


def wc(ctx, args):
    on, _, names = _opts(args, "lwcmL", long_map={"lines": "l", "words": "w", "bytes": "c", "chars": "m",
                                                  "max-line-length": "L"})
    if not on:
        on = {"l", "w", "c"}
    data, status = _inputs(ctx, names, "wc")
    rows = []
    totals = [0, 0, 0, 0, 0]
    for name, blob in data:
        longest = max((len(ln.expandtabs(8)) for ln in _text(blob).split("\n")), default=0)
        counts = [blob.count(b"\n"), len(blob.split()), len(_text(blob)), len(blob), longest]
        totals = [a + b for a, b in zip(totals[:4], counts)] + [max(totals[4], longest)]
        rows.append((counts, name if names else None))
    if len(data) > 1:
        rows.append((totals, "total"))
    order = [("l", 0), ("w", 1), ("m", 2), ("c", 3), ("L", 4)]
    fields = [idx for key, idx in order if key in on]
    # GNU: one count of one input is unpadded; otherwise the width fits the total size of the
    # regular files read, at least 7 when any input is not a regular file (stdin).
    if len(fields) == 1 and len(data) == 1:
        width = 1
    else:
        regular_total, minimum = 0, 1
        for name, blob in data:
            if name == "-":
                minimum = 7
            else:
                regular_total += len(blob)
        width = max(len(str(regular_total)), minimum)
    for counts, name in rows:
        text = " ".join(str(counts[i]).rjust(width) for i in fields)
        ctx.out.write(text + (f" {name}" if name else "") + "\n")
    return status


# -- files ----------------------------------------------------------------------------------------

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
    on, _, names = _opts(args, "laA1RhtSrdFp", long_map={"all": "a", "human-readable": "h", "recursive": "R", "reverse": "r"})
    status = 0
    names = names or ["."]
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
        if "F" in on or "p" in on:
            if os.path.isdir(path):
                suffix = "/"
        if "l" in on:
            try:
                st = os.lstat(path)
            except OSError:
                continue
            size = _human(st.st_size) if "h" in on else str(st.st_size)
            when = datetime.datetime.fromtimestamp(st.st_mtime)
            stamp = when.strftime("%b %e %H:%M") if abs(time.time() - st.st_mtime) < 15552000 else when.strftime("%b %e  %Y")
            link = f" -> {os.readlink(path)}" if _stat.S_ISLNK(st.st_mode) else ""
            ctx.out.write(f"{_mode_string(st)} 1 user user {size:>5} {stamp} {e}{suffix}{link}\n")
        else:
            ctx.out.write(f"{e}{suffix}\n")


def mkdir(ctx, args):
    on, _, names = _opts(args, "pv", with_value="m", long_map={"parents": "p"})
    if not names:
        raise Usage("missing operand")
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
            ctx.err.write(f"mkdir: cannot create directory '{name}': {os_message(exc, write=True)}\n")
            status = 1
    return status


def rm(ctx, args):
    on, _, names = _opts(args, "rRfvid", long_map={"recursive": "r", "force": "f"})
    if not names and "f" not in on:
        raise Usage("missing operand")
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
    on, _, names = _opts(args, "p")
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
        raise Usage(f"missing destination file operand after '{names[0]}'" if names else "missing file operand")
    *srcs, dest = names
    dest_is_dir = os.path.isdir(dest)
    if len(srcs) > 1 and not dest_is_dir:
        ctx.err.write(f"{cmd}: target '{dest}' is not a directory\n")
        return None
    return [(src, os.path.join(dest, os.path.basename(src.rstrip("/"))) if dest_is_dir else dest) for src in srcs]


def cp(ctx, args):
    on, _, names = _opts(args, "rRapfnvuT", long_map={"recursive": "r"})
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
            ctx.err.write(f"cp: cannot create regular file '{target}': {os_message(exc, write=True)}\n")
            status = 1
    return status


def mv(ctx, args):
    on, _, names = _opts(args, "fnvuiT")
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
    on, vals, names = _opts(args, "acm", with_value="dtr", long_map={"date": "d", "reference": "r", "no-create": "c"})
    stamp = None
    if "d" in vals:
        moment = _parse_date(vals["d"], _date_zone(ctx, False))
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
            moment = datetime.datetime(int(year), int(d[:2]), int(d[2:4]), int(d[4:6]), int(d[6:8]), int(m.group(3) or 0),
                                       tzinfo=_date_zone(ctx, False))
        except ValueError:
            raise ShellError(f"invalid date format '{vals['t']}'") from None
        stamp = moment.timestamp()
    elif "r" in vals:
        try:
            stamp = os.stat(vals["r"]).st_mtime
        except OSError as exc:
            raise ShellError(f"failed to get attributes of '{vals['r']}': {os_message(exc)}") from None
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
                os.utime(name, (st.st_atime if "m" in on else stamp, st.st_mtime if "a" in on else stamp))
        except OSError as exc:
            ctx.err.write(f"touch: cannot touch '{name}': {os_message(exc, write=True)}\n")
            status = 1
    return status


def ln(ctx, args):
    on, _, names = _opts(args, "sfnvT")
    if len(names) < 2:
        raise Usage("missing file operand")
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
    on, vals, names = _opts(args, "az", with_value="s")
    if not names:
        raise Usage("missing operand")
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
        raise Usage("missing operand")
    for name in args:
        stripped = name.rstrip("/")
        if "/" not in stripped:
            ctx.out.write(("/" if name.startswith("/") else ".") + "\n")
            continue
        head_ = stripped.rsplit("/", 1)[0].rstrip("/")
        ctx.out.write((head_ or "/") + "\n")
    return 0


def realpath(ctx, args):
    on, _, names = _opts(args, "esmq")
    for name in names:
        ctx.out.write(os.path.realpath(name) + "\n")
    return 0


def readlink(ctx, args):
    on, _, names = _opts(args, "fenm")
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
    on, vals, names = _opts(args, "shacb", with_value="d", long_map={"max-depth": "d"})
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
        rows = []

        def walk(path, depth):
            total = size_of(path)
            if os.path.isdir(path) and not os.path.islink(path):
                for e in sorted(os.listdir(path)):
                    sub = walk(os.path.join(path, e), depth + 1)
                    total += sub
            if os.path.isdir(path) or "a" in on or depth == 0:
                rows.append((total, path, depth))
            return total

        total = walk(name, 0)
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
    ctx.out.write("Filesystem     1K-blocks  Used Available Use% Mounted on\nworkspace              -     -         -    - /workspace\n")
    return 0


def stat(ctx, args):
    on, vals, names = _opts(args, "Lt", with_value="cf", long_map={"format": "c"})
    status = 0
    for name in names:
        try:
            st = os.lstat(name)
        except OSError:
            ctx.err.write(f"stat: cannot statx '{name}': No such file or directory\n")
            status = 1
            continue
        fmt = vals.get("c")
        kind = "directory" if _stat.S_ISDIR(st.st_mode) else "symbolic link" if _stat.S_ISLNK(st.st_mode) else ("regular file" if st.st_size else "regular empty file")
        if fmt:
            rep = {"%s": str(st.st_size), "%n": name, "%F": kind, "%Y": str(int(st.st_mtime)),
                   "%a": "755" if kind == "directory" else "644", "%U": "user", "%G": "user",
                   "%%": "%"}
            ctx.out.write(re.sub(r"%.", lambda m: rep.get(m.group(0), m.group(0)), fmt) + "\n")
            continue
        mtime = datetime.datetime.fromtimestamp(st.st_mtime).strftime("%Y-%m-%d %H:%M:%S.%f")
        ctx.out.write(f"  File: {name}\n  Size: {st.st_size}\tBlocks: {(st.st_size + 511) // 512}\tIO Block: 4096   {kind}\nModify: {mtime}\n")
    return status


def file(ctx, args):
    on, _, names = _opts(args, "bLiEk", long_map={"brief": "b", "mime": "i", "mime-type": "T", "dereference": "L"})
    if not names:
        raise Usage("Usage: file [-bLi] [--mime-type] file ...")
    width = max(len(n) for n in names) + 1
    status = 0
    for name in names:
        desc, mime = _file_kind(name, "L" in on)
        if desc.startswith("cannot open") and "E" in on:
            status = 1
        shown = mime.split(";")[0] if "T" in on else mime if "i" in on else desc
        ctx.out.write(shown + "\n" if "b" in on else f"{name + ':':<{width}} {shown}\n")
    return status


_FILE_SCRIPTS = {"python": ("Python script, {} executable", "text/x-script.python"),
                 "bash": ("Bourne-Again shell script, {} executable", "text/x-shellscript"),
                 "sh": ("POSIX shell script, {} executable", "text/x-shellscript"),
                 "dash": ("POSIX shell script, {} executable", "text/x-shellscript"),
                 "zsh": ("Paul Falstad's zsh script, {} executable", "text/x-shellscript"),
                 "node": ("Node.js script executable, {}", "application/javascript"),
                 "perl": ("Perl script text executable", "text/x-perl"),
                 "ruby": ("Ruby script, {} executable", "text/x-ruby")}


def _file_kind(name, follow=False):
    """(description, mime type) as GNU file 5.44 reports them for the common kinds."""
    try:
        if os.path.islink(name) and not follow:
            return f"symbolic link to {os.readlink(name)}", "inode/symlink; charset=binary"
        if os.path.isdir(name):
            return "directory", "inode/directory; charset=binary"
        with open(name, "rb") as f:
            data = f.read(1 << 16)
    except OSError as exc:
        return f"cannot open `{name}' ({os_message(exc)})", "cannot open"
    if not data:
        return "empty", "inode/x-empty; charset=binary"
    binary = _file_binary(data, name)
    if binary:
        return binary
    return _file_text(data)


def _file_binary(data, name):
    be = int.from_bytes
    if data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR":
        w, h, depth, color, interlace = be(data[16:20], "big"), be(data[20:24], "big"), data[24], data[25], data[28]
        kind = {0: "grayscale", 2: "/color RGB", 3: " colormap", 4: " gray+alpha", 6: "/color RGBA"}.get(color, "")
        kind = f"{depth}-bit" + (kind if kind.startswith(("/", " ")) else " " + kind)
        return (f"PNG image data, {w} x {h}, {kind}, {'interlaced' if interlace else 'non-interlaced'}",
                "image/png; charset=binary")
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return (f"GIF image data, version {data[3:6].decode()}, {be(data[6:8], 'little')} x {be(data[8:10], 'little')}",
                "image/gif; charset=binary")
    if data.startswith(b"\xff\xd8\xff"):
        return _file_jpeg(data), "image/jpeg; charset=binary"
    if data.startswith(b"%PDF-"):
        version = re.match(rb"%PDF-(\d+\.\d+)", data)
        return (f"PDF document, version {version.group(1).decode()}" if version else "PDF document",
                "application/pdf; charset=binary")
    if data.startswith(b"PK\x03\x04"):
        return _file_zip(data)
    if data.startswith(b"\x1f\x8b"):
        with open(name, "rb") as f:
            f.seek(-4, 2)
            size = int.from_bytes(f.read(4), "little")
        return _file_gzip(data) + f", original size modulo 2^32 {size}", "application/gzip; charset=binary"
    if data.startswith(b"BZh") and data[3:4].isdigit():
        return f"bzip2 compressed data, block size = {data[3:4].decode()}00k", "application/x-bzip2; charset=binary"
    if data.startswith(b"\xfd7zXZ\x00"):
        check = {0: "no check", 1: "CRC32", 4: "CRC64", 10: "SHA-256"}.get(data[7] & 0xF, "unknown check")
        return f"XZ compressed data, checksum {check}", "application/x-xz; charset=binary"
    if len(data) >= 265 and data[257:263] in (b"ustar\x00", b"ustar "):
        return ("POSIX tar archive (GNU)" if data[257:265] == b"ustar  \x00" else "POSIX tar archive",
                "application/x-tar; charset=binary")
    if data.startswith(b"SQLite format 3\x00") and len(data) >= 100:
        enc = {1: "UTF-8", 2: "UTF-16 little endian", 3: "UTF-16 big endian"}.get(be(data[56:60], "big"), "")
        return (f"SQLite 3.x database, last written using SQLite version {be(data[96:100], 'big')}, file counter "
                f"{be(data[24:28], 'big')}, database pages {be(data[28:32], 'big')}, cookie {hex(be(data[40:44], 'big'))}, "
                f"schema {be(data[44:48], 'big')}, {enc}, version-valid-for {be(data[92:96], 'big')}",
                "application/vnd.sqlite3; charset=binary")
    if data.startswith(b"\x7fELF") and len(data) >= 20:
        bits = {1: "32-bit", 2: "64-bit"}.get(data[4], "")
        order = "little" if data[5] == 1 else "big"
        etype = be(data[16:18], order)
        kind = {1: "relocatable", 2: "executable", 3: "shared object", 4: "core file"}.get(etype, "unknown type")
        machine = {3: "Intel 80386", 40: "ARM", 62: "x86-64", 183: "ARM aarch64", 243: "UCB RISC-V"}.get(
            be(data[18:20], order), "unknown arch")
        mime = {1: "x-object", 2: "x-executable", 3: "x-sharedlib", 4: "x-coredump"}.get(etype, "octet-stream")
        linking = _file_elf_linking(data, bits == "64-bit", order)
        if etype == 3 and linking.startswith("dynamically linked, interpreter"):
            kind, mime = "pie executable", "x-pie-executable"
        return (f"ELF {bits} {'LSB' if order == 'little' else 'MSB'} {kind}, {machine}, version {data[6]} (SYSV)"
                + (f", {linking}" if linking and etype in (2, 3) else ""), f"application/{mime}; charset=binary")
    if data.startswith(b"\x00asm"):
        return f"WebAssembly (wasm) binary module version {hex(be(data[4:8], 'little'))}", "application/wasm; charset=binary"
    return None


def _file_elf_linking(data, wide, order):
    """From the program headers: "dynamically linked, interpreter X", "dynamically linked",
    "statically linked"."""
    be = int.from_bytes
    phoff, phentsize, phnum = ((be(data[32:40], order), be(data[54:56], order), be(data[56:58], order)) if wide
                               else (be(data[28:32], order), be(data[42:44], order), be(data[44:46], order)))
    dynamic = False
    for k in range(phnum):
        at = phoff + k * phentsize
        if at + phentsize > len(data):
            return ""
        kind = be(data[at:at + 4], order)
        if kind == 3:  # PT_INTERP
            off, size = ((be(data[at + 8:at + 16], order), be(data[at + 32:at + 40], order)) if wide
                         else (be(data[at + 4:at + 8], order), be(data[at + 16:at + 20], order)))
            return "dynamically linked, interpreter " + _text(data[off:off + size].rstrip(b"\x00"))
        dynamic = dynamic or kind == 2
    return "dynamically linked" if dynamic else "statically linked"


def _file_jpeg(data):
    parts = ["JPEG image data"]
    if data[6:11] == b"JFIF\x00" and len(data) >= 18:
        units = {0: "aspect ratio", 1: "resolution (DPI)", 2: "resolution (DPCM)"}.get(data[13], "")
        parts += [f"JFIF standard {data[11]}.{data[12]:02d}", units,
                  f"density {int.from_bytes(data[14:16], 'big')}x{int.from_bytes(data[16:18], 'big')}",
                  f"segment length {int.from_bytes(data[4:6], 'big')}"]
    i = 2
    while i + 9 < len(data) and data[i] == 0xFF:
        marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            parts += [{0xC0: "baseline", 0xC1: "extended sequential", 0xC2: "progressive"}[marker],
                      f"precision {data[i + 4]}",
                      f"{int.from_bytes(data[i + 7:i + 9], 'big')}x{int.from_bytes(data[i + 5:i + 7], 'big')}",
                      f"components {data[i + 9]}"]
            break
        i += 2 + length
    return ", ".join(p for p in parts if p)


def _file_zip(data):
    import io as _io
    import zipfile

    try:
        names = zipfile.ZipFile(_io.BytesIO(data)).namelist() if len(data) < (1 << 16) else []
    except (zipfile.BadZipFile, ValueError, OSError):
        names = []
    if not names:  # a large archive: the names of the local headers in the first bytes
        le, pos = int.from_bytes, 0
        while data.startswith(b"PK\x03\x04", pos) and pos + 30 <= len(data):
            size, n, extra = le(data[pos + 18:pos + 22], "little"), le(data[pos + 26:pos + 28], "little"), le(data[pos + 28:pos + 30], "little")
            names.append(data[pos + 30:pos + 30 + n].decode("latin-1"))
            pos += 30 + n + extra + size
    if names and names[0] in ("[Content_Types].xml", "_rels/.rels") or "[Content_Types].xml" in names:
        for prefix, desc, mime in (("word/", "Microsoft Word 2007+", "wordprocessingml.document"),
                                   ("xl/", "Microsoft Excel 2007+", "spreadsheetml.sheet"),
                                   ("ppt/", "Microsoft PowerPoint 2007+", "presentationml.presentation")):
            if any(n.startswith(prefix) for n in names):
                return desc, f"application/vnd.openxmlformats-officedocument.{mime}; charset=binary"
        return "Microsoft OOXML", "application/octet-stream; charset=binary"
    version = data[4]
    method = {0: "store", 8: "deflate", 12: "bzip2", 14: "lzma", 93: "zstd"}.get(int.from_bytes(data[8:10], "little"))
    desc = f"Zip archive data, at least v{version // 10}.{version % 10} to extract"
    return desc + (f", compression method={method}" if method else ""), "application/zip; charset=binary"


def _file_gzip(data):
    parts = ["gzip compressed data"]
    flags, mtime, xfl, os_byte = data[3], int.from_bytes(data[4:8], "little"), data[8], data[9]
    if flags & 8:
        start = 10 + (2 + int.from_bytes(data[10:12], "little") if flags & 4 else 0)
        end = data.find(b"\x00", start)
        parts.append(f'was "{_text(data[start:end])}"')
    if mtime:
        parts.append("last modified: " + time.strftime("%a %b %e %H:%M:%S %Y", time.localtime(mtime)))
    if xfl in (2, 4):
        parts.append("max compression" if xfl == 2 else "max speed")
    if os_byte == 3:
        parts.append("from Unix")
    return ", ".join(parts)


def _file_text(data):
    enc, mime_charset, text = None, None, None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        endian = "little" if data[:2] == b"\xff\xfe" else "big"
        return f"Unicode text, UTF-16, {endian}-endian text", f"text/plain; charset=utf-16{endian[0]}e"
    bom = data.startswith(b"\xef\xbb\xbf")
    body = data[3:] if bom else data
    if re.search(rb"[\x00-\x06\x0e-\x1a\x1c-\x1f\x7f]", body):
        return "data", "application/octet-stream; charset=binary"
    if body.isascii() and not bom:
        enc, mime_charset, text = "ASCII", "us-ascii", body.decode("ascii")
    else:
        try:
            text = body.decode("utf-8")
            enc, mime_charset = "Unicode text, UTF-8" + (" (with BOM)" if bom else ""), "utf-8"
        except UnicodeDecodeError:
            text = body.decode("latin-1")
            if re.search(rb"[\x80-\x9f]", body):
                enc, mime_charset = "Non-ISO extended-ASCII", "unknown-8bit"
            else:
                enc, mime_charset = "ISO-8859", "iso-8859-1"
    desc, mime = f"{enc} text", "text/plain"
    first = text.split("\n", 1)[0]
    if first.startswith("#!"):
        words = first[2:].split()
        interp = os.path.basename(words[0]) if words else ""
        if interp == "env" and len(words) > 1:
            interp = words[1]
        key = re.sub(r"[\d.]+$", "", interp)
        form, mime = _FILE_SCRIPTS.get(key, (f"a {' '.join(words)} script, {{}} executable", "text/x-script"))
        desc = form.format(desc)
    elif re.match(r"\s*<\?xml version=\"1\.0\"", text):
        desc, mime = f"XML 1.0 document, {desc}", "text/xml"
    elif re.match(r"\s*<(!doctype html|html)", text, re.I):
        desc, mime = f"HTML document, {desc}", "text/html"
    elif text.lstrip()[:1] in ("{", "[") and _file_json(text):
        return "JSON text data", f"application/json; charset={mime_charset}"
    elif (re.search(r"^from\s+[\w.]+\s+import\s", text, re.M) or re.search(r"^\s{0,8}def\s+\w+\s*\(.*\)\s*(->.*)?:\s*$", text, re.M)
          or re.search(r"^class\s+\w+.*:\s*$", text, re.M)):
        desc, mime = f"Python script, {desc} executable", "text/x-script.python"
    elif re.search(r"^#include\s*[<\"]|^\s*int\s+main\s*\(", text, re.M):
        desc, mime = f"C source, {desc}", "text/x-c"
    elif _file_csv(text):
        desc, mime = "CSV text", "text/csv"
    lines = re.split(r"\r\n|\r|\n", text)
    longest = max(len(x) for x in lines)
    if longest > 300:
        desc += f", with very long lines ({longest})"
    ends = [e for e, rx in (("CRLF", r"\r\n"), ("CR", r"\r(?!\n)"), ("LF", r"(?<!\r)\n")) if re.search(rx, text)]
    if not ends:
        desc += ", with no line terminators"
    elif ends != ["LF"]:
        desc += f", with {', '.join(ends)} line terminators"
    if "\x1b" in text:
        desc += ", with escape sequences"
    if "\b" in text:
        desc += ", with overstriking"
    return desc, f"{mime}; charset={mime_charset}"


def _file_json(text):
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _file_csv(text):
    """libmagic's test: at least three lines with the same number (two or more) of fields."""
    lines = [x for x in text.splitlines()[:10] if x]
    counts = {x.count(",") for x in lines}
    return len(lines) >= 3 and len(counts) == 1 and counts.pop() >= 1


def find(ctx, args):
    paths = []
    i = 0
    while i < len(args) and not args[i].startswith(("-", "(", "!")):
        paths.append(args[i])
        i += 1
    paths = paths or ["."]
    state = _FindState(ctx)
    test, maxdepth, mindepth, acted = _find_parse(args[i:], state)
    status = 0
    for root in paths:
        if not os.path.lexists(root):
            ctx.err.write(f"find: '{root}': No such file or directory\n")
            status = 1
            continue
        for path, depth in _find_walk(root, maxdepth, state):
            if depth < mindepth:
                continue
            state.prune = False
            if test(path) and not acted:
                ctx.out.write(path + "\n")
    for flush in state.flushers:
        flush()
    return 1 if status or state.failed else 0


class _FindState:
    """What find's predicates share during one run: the context, the start time, whether the
    current path is pruned, the pending `-exec … +` batches, and whether an action failed."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.now = time.time()
        self.prune = False
        self.flushers = []
        self.failed = False


def _find_walk(root, maxdepth, state=None):
    """Paths under root, depth first in directory order; `state` (find's) can prune, and gets
    unreadable directories reported."""
    stack = [(root, 0)]
    while stack:
        path, depth = stack.pop()
        yield path, depth
        if state is not None and state.prune:
            continue
        if os.path.isdir(path) and not os.path.islink(path) and (maxdepth is None or depth < maxdepth):
            try:
                # readdir order, as GNU find walks (and the same file system gives the same order)
                entries = list(reversed(os.listdir(path)))
            except OSError as exc:
                if state is not None:
                    state.ctx.err.write(f"find: '{path}': {os_message(exc)}\n")
                    state.failed = True
                continue
            for e in entries:
                stack.append((os.path.join(path, e) if path != "/" else "/" + e, depth + 1))


def _find_age(spec, unit, state, stamp):
    m = re.fullmatch(r"([+-]?)(\d+)", spec)
    if not m:
        raise Usage(f"invalid argument `{spec}'")
    sign, n = m.group(1), int(m.group(2))

    def t(p):
        try:
            age = int((state.now - stamp(p)) // unit)
        except OSError:
            return False
        return age > n if sign == "+" else age < n if sign == "-" else age == n

    return t


def _find_exec(cmd, batch, in_dir, state):
    """`-exec CMD {} ;` (a test: true when CMD succeeds) or `-exec CMD {} +` (always true; CMD
    runs once at the end with every path, and a failure makes find's status 1)."""
    ctx = state.ctx

    def argv_for(p):
        return [p if a == "{}" else a.replace("{}", p) for a in cmd]

    def call(argv, cwd=None):
        old = os.getcwd() if cwd else None
        try:
            if cwd:
                os.chdir(cwd)
            return ctx.shell.call(argv, _io(ctx))
        finally:
            if old:
                os.chdir(old)

    def local(p):
        return os.path.dirname(p) or ".", "./" + os.path.basename(p)

    if not batch:
        def run(p):
            if in_dir:
                cwd, name = local(p)
                return call(argv_for(name), cwd) == 0
            return call(argv_for(p)) == 0

        return run
    pending = []

    def flush():
        if not pending:
            return
        at = cmd.index("{}")
        groups = {}
        for p in pending:
            cwd, name = local(p) if in_dir else (None, p)
            groups.setdefault(cwd, []).append(name)
        for cwd, names in groups.items():
            for k in range(0, len(names), 5000):
                if call(cmd[:at] + names[k:k + 5000] + cmd[at + 1:], cwd) != 0:
                    state.failed = True
        pending.clear()

    state.flushers.append(flush)

    def collect(p):
        pending.append(p)
        return True

    return collect


def _find_parse(expr, state):
    """The expression as one predicate over paths (actions are predicates with effects), the
    depth limits, and whether it contains an action (if not, bash's implicit -print)."""
    maxdepth, mindepth = None, 0
    acted = False
    tokens = list(expr)
    ctx = state.ctx

    def parse_or(i):
        left, i = parse_and(i)
        while i < len(tokens) and tokens[i] in ("-o", "-or"):
            right, i = parse_and(i + 1)
            left = (lambda a, b: lambda p: a(p) or b(p))(left, right)
        return left, i

    def parse_and(i):
        left, i = parse_not(i)
        while i < len(tokens) and tokens[i] not in ("-o", "-or", ")", ","):
            if tokens[i] in ("-a", "-and"):
                i += 1
            right, i = parse_not(i)
            left = (lambda a, b: lambda p: a(p) and b(p))(left, right)
        return left, i

    def parse_not(i):
        if i < len(tokens) and tokens[i] in ("!", "-not"):
            inner, i = parse_not(i + 1)
            return (lambda p: not inner(p)), i
        return parse_primary(i)

    def arg(i):
        if i + 1 >= len(tokens):
            raise Usage(f"missing argument to `{tokens[i]}'")
        return tokens[i + 1]

    def parse_primary(i):
        nonlocal maxdepth, mindepth, acted
        if i >= len(tokens):
            raise Usage("expected an expression after `" + (tokens[i - 1] if i else "") + "'")
        tok = tokens[i]
        if tok == "(":
            inner, i = parse_or(i + 1)
            if i >= len(tokens) or tokens[i] != ")":
                raise Usage("invalid expression; I was expecting to find a ')' somewhere but did not see one.")
            return inner, i + 1
        if tok in ("-name", "-iname", "-path", "-ipath", "-wholename"):
            pat = arg(i)
            fold = tok in ("-iname", "-ipath")
            whole = tok in ("-path", "-ipath", "-wholename")

            def t(p, pat=pat):
                subject = p if whole else os.path.basename(p.rstrip("/")) or p
                return _fnmatch_case(subject.lower() if fold else subject, pat.lower() if fold else pat)

            return t, i + 2
        if tok in ("-regex", "-iregex"):
            rx = re.compile(_bre_to_py(arg(i)), re.I if tok == "-iregex" else 0)
            return (lambda p: rx.fullmatch(p) is not None), i + 2
        if tok in ("-type", "-xtype"):
            kinds = arg(i).split(",")
            checks = {"f": lambda p: os.path.isfile(p) and not os.path.islink(p), "d": lambda p: os.path.isdir(p) and not os.path.islink(p),
                      "l": os.path.islink}
            for kind in kinds:
                if kind not in checks:
                    raise Usage(f"Unknown argument to -type: {kind}")
            return (lambda p: any(checks[k](p) for k in kinds)), i + 2
        if tok == "-maxdepth":
            maxdepth = int(arg(i))
            return (lambda p: True), i + 2
        if tok == "-mindepth":
            mindepth = int(arg(i))
            return (lambda p: True), i + 2
        if tok == "-size":
            spec = arg(i)
            m = re.fullmatch(r"([+-]?)(\d+)([ckMGb]?)", spec)
            if not m:
                raise Usage(f"invalid argument `{spec}' to `-size'")
            sign, num, unit = m.groups()
            mult = {"c": 1, "k": 1024, "M": 1024 ** 2, "G": 1024 ** 3, "b": 512, "": 512}[unit]
            n = int(num)

            def t(p):
                if os.path.isdir(p) or not os.path.exists(p):
                    size = 4096 if os.path.isdir(p) else 0
                else:
                    size = os.path.getsize(p)
                units = -(-size // mult)
                return units > n if sign == "+" else units < n if sign == "-" else units == n

            return t, i + 2
        if tok in ("-newer", "-anewer", "-cnewer"):
            try:
                ref = os.stat(arg(i)).st_mtime
            except OSError as exc:
                raise ShellError(f"'{arg(i)}': {os_message(exc)}") from None
            return (lambda p: os.lstat(p).st_mtime > ref), i + 2
        if tok in ("-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin"):
            unit = 86400 if tok.endswith("time") else 60
            field = {"m": "st_mtime", "a": "st_atime", "c": "st_ctime"}[tok[1]]
            return _find_age(arg(i), unit, state, lambda p: getattr(os.lstat(p), field)), i + 2
        if tok == "-empty":
            return (lambda p: (os.path.isdir(p) and not os.path.islink(p) and not os.listdir(p))
                    or (os.path.isfile(p) and not os.path.islink(p) and os.path.getsize(p) == 0)), i + 1
        if tok in ("-true", "-false"):
            return (lambda p, v=tok == "-true": v), i + 1
        if tok == "-prune":
            def prune(p):
                state.prune = True
                return True
            return prune, i + 1
        if tok == "-quit":
            raise Usage("-quit is not supported")
        if tok in ("-print", "-print0"):
            acted = True
            end = "\n" if tok == "-print" else "\0"
            return (lambda p: ctx.out.write(p + end) or True), i + 1
        if tok == "-delete":
            acted = True

            def delete(p):
                try:
                    if os.path.isdir(p) and not os.path.islink(p):
                        os.rmdir(p)
                    else:
                        os.remove(p)
                except OSError as exc:
                    ctx.err.write(f"find: cannot delete '{p}': {os_message(exc, write=True)}\n")
                    state.failed = True
                    return False
                return True

            return delete, i + 1
        if tok in ("-exec", "-execdir", "-ok", "-okdir"):
            acted = True
            j = i + 1
            cmd = []
            while j < len(tokens) and tokens[j] not in (";", "+"):
                cmd.append(tokens[j])
                j += 1
            if j >= len(tokens) or not cmd:
                raise Usage(f"missing argument to `{tok}'")
            batch = tokens[j] == "+"
            if batch and (cmd[-1] != "{}" or cmd.count("{}") != 1):
                raise Usage(f"missing argument to `{tok}'")
            return _find_exec(cmd, batch, tok.endswith("dir"), state), j + 1
        raise Usage(f"unknown predicate `{tok}'")

    if not tokens:
        return (lambda p: True), None, 0, False
    test, i = parse_or(0)
    while i < len(tokens) and tokens[i] == ",":
        right, i = parse_or(i + 1)
        test = (lambda a, b: lambda p: (a(p), b(p))[1])(test, right)
    if i != len(tokens):
        if tokens[i] == ")":
            raise Usage("invalid expression; you have too many ')'")
        raise Usage(f"paths must precede expression: `{tokens[i]}'")
    return test, maxdepth, mindepth, acted


def _io(ctx):
    from _cove_shell import IO

    return IO(b"", ctx.out, ctx.err)


def _fnmatch_case(name, pattern):
    from _cove_shell import _fnmatch

    return _fnmatch(name, pattern)


def xargs(ctx, args):
    k = 0
    while k < len(args) and args[k].startswith("-") and args[k] != "-":
        k += 1 if args[k][1:2] not in "nIdL" or len(args[k]) > 2 else 2
    on, vals, cmd = _opts(args[:k], "0rt", with_value="nIdL")
    cmd = cmd + args[k:]
    cmd = cmd or ["echo"]
    data = _text(ctx.stdin)
    if "0" in on:
        items = [x for x in data.split("\0") if x]
    elif "d" in vals:
        items = [x for x in data.split(vals["d"]) if x]
    elif "I" in vals or "L" in vals:
        items = [line for line in data.splitlines() if line.strip()]
    else:
        import shlex

        try:
            items = shlex.split(data)
        except ValueError:
            items = data.split()
    if not items and "r" in on:
        return 0
    status = 0
    from _cove_shell import IO

    io_ = IO(b"", ctx.out, ctx.err)
    if "I" in vals:
        rep = vals["I"]
        for item in items:
            argv = [a.replace(rep, item) for a in cmd]
            status = ctx.shell.call(argv, io_) or status
        return 123 if status else 0
    n = int(vals.get("n", vals.get("L", "0")) or 0) or len(items) or 1
    for k in range(0, max(len(items), 1), n):
        argv = cmd + items[k:k + n]
        status = ctx.shell.call(argv, io_) or status
    return 123 if status else 0


def tee(ctx, args):
    on, _, names = _opts(args, "ai")
    mode = "ab" if "a" in on else "wb"
    for name in names:
        with open(name, mode) as f:
            f.write(ctx.stdin)
    ctx.out.write(ctx.stdin)
    return 0


# -- text processing -------------------------------------------------------------------------------

def grep(ctx, args):
    on, vals, rest = _opts(
        args, "nivclLrRwoEFqshHxzP", with_value="eABCmf",
        long_map={"include": "include", "exclude": "exclude", "color": "color", "colour": "color", "line-number": "n",
                  "ignore-case": "i", "invert-match": "v", "count": "c", "files-with-matches": "l", "recursive": "r",
                  "word-regexp": "w", "only-matching": "o", "extended-regexp": "E", "fixed-strings": "F", "quiet": "q",
                  "silent": "q", "no-filename": "h", "with-filename": "H"},
    )
    patterns = _repeated(args, "-e")
    if patterns:
        pass
    elif rest:
        patterns.append(rest.pop(0))
    else:
        raise Usage("usage: grep [OPTION]... PATTERNS [FILE]...")
    files = rest
    flags = re.I if "i" in on else 0
    rx_parts = []
    for p in "\n".join(patterns).split("\n"):
        if "F" in on:
            part = re.escape(p)
        elif "E" in on or "P" in on:
            part = _ere_to_py(p)
        else:
            part = _bre_to_py(p)
        if "w" in on:
            part = r"(?<![\w])(?:" + part + r")(?![\w])"
        if "x" in on:
            part = r"^(?:" + part + r")$"
        rx_parts.append(part)
    try:
        rx = re.compile("|".join(f"(?:{p})" for p in rx_parts), flags)
    except re.error as exc:
        ctx.err.write(f"grep: {exc}\n")
        return 2
    recursive = bool({"r", "R"} & on)
    include = _long_values(args, "--include")
    exclude = _long_values(args, "--exclude")
    targets = []
    status = 0
    if recursive:
        for f in files or ["."]:
            if os.path.isdir(f):
                for path, _ in _find_walk(f, None):
                    if os.path.isfile(path):
                        base = os.path.basename(path)
                        if include and not any(_fnmatch_case(base, g) for g in include):
                            continue
                        if exclude and any(_fnmatch_case(base, g) for g in exclude):
                            continue
                        shown = path[2:] if f == "." and path.startswith("./") and not files else path
                        targets.append(shown)
            else:
                targets.append(f)

    else:
        targets = files or ["-"]
    show_name = ("H" in on) or (len(targets) > 1 or recursive) and "h" not in on
    matched_any = False
    before = int(vals.get("B", vals.get("C", "0")))
    after = int(vals.get("A", vals.get("C", "0")))
    maxcount = int(vals["m"]) if "m" in vals else None
    for name in targets:
        try:
            data = _read(ctx, name)
        except FileNotFoundError:
            if "s" not in on:
                ctx.err.write(f"grep: {name}: No such file or directory\n")
            status = 2
            continue
        except IsADirectoryError:
            if "s" not in on:
                ctx.err.write(f"grep: {name}: Is a directory\n")
            continue
        label = "(standard input)" if name == "-" else name
        if b"\0" in data[:8192] and "a" not in on:
            if any(rx.search(_text(line)) for line in data.split(b"\n")) != ("v" in on):
                matched_any = True
                if "q" in on:
                    return 0
                if "l" in on:
                    ctx.out.write(label + "\n")
                elif "c" not in on:
                    ctx.out.write(f"Binary file {label} matches\n")
            continue
        text = _text(data)
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        count = 0
        last_printed = -1
        pending_after = 0
        for idx, line in enumerate(lines):
            hit = bool(rx.search(line)) != ("v" in on)
            if hit and (maxcount is None or count < maxcount):
                count += 1
                matched_any = True
                if "q" in on:
                    return 0
                if "l" in on or "L" in on or "c" in on:
                    continue
                start = max(idx - before, last_printed + 1)
                if (before or after) and last_printed >= 0 and start > last_printed + 1:
                    ctx.out.write("--\n")
                for k in range(start, idx):
                    ctx.out.write(_grep_line(label, k, lines[k], show_name, "n" in on, "-"))
                if "o" in on and "v" not in on:
                    for m in rx.finditer(line):
                        if m.group(0):
                            ctx.out.write(_grep_line(label, idx, m.group(0), show_name, "n" in on, ":"))
                else:
                    ctx.out.write(_grep_line(label, idx, line, show_name, "n" in on, ":"))
                last_printed = idx
                pending_after = after
            elif pending_after and "c" not in on and "l" not in on:
                ctx.out.write(_grep_line(label, idx, line, show_name, "n" in on, "-"))
                last_printed = idx
                pending_after -= 1
        if "c" in on:
            ctx.out.write((f"{label}:" if show_name else "") + f"{count}\n")
        if "l" in on and count:
            ctx.out.write(label + "\n")
        if "L" in on and not count:
            ctx.out.write(label + "\n")
    if status == 2 and not matched_any:
        return 2
    return 0 if matched_any else 1


def _repeated(args, flag):
    """Every value of a short option that may repeat (grep -e, sed -e)."""
    out = []
    for k, a in enumerate(args):
        if a == "--":
            break
        if a == flag and k + 1 < len(args):
            out.append(args[k + 1])
        elif a.startswith(flag) and len(a) > len(flag) and not a.startswith("--"):
            out.append(a[len(flag):])
    return out


def _long_values(args, name):
    out = []
    for k, a in enumerate(args):
        if a.startswith(name + "="):
            out.append(a.split("=", 1)[1])
        elif a == name and k + 1 < len(args):
            out.append(args[k + 1])
    return out


def _grep_line(label, idx, line, show_name, numbers, sep):
    prefix = (label + sep if show_name else "") + (f"{idx + 1}{sep}" if numbers else "")
    return prefix + line + "\n"


def _bre_to_py(p):
    """POSIX basic regular expression to Python: \\( \\) \\{ \\} \\| \\+ \\? are the operators."""
    out = []
    i = 0
    while i < len(p):
        c = p[i]
        if c == "\\" and i + 1 < len(p):
            d = p[i + 1]
            if d in "(){}|+?":
                out.append(d)
            elif d in "<>":
                out.append(r"\b")
            else:
                out.append("\\" + d)
            i += 2
            continue
        if c in "(){}|+?":
            out.append("\\" + c)
        elif c == "*" and (i == 0 or p[i - 1] == "^" and i == 1):
            out.append(r"\*")
        elif c == "[":
            j = _bracket_end(p, i)
            out.append(_bracket(p[i:j]))
            i = j
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _ere_to_py(p):
    out = []
    i = 0
    while i < len(p):
        c = p[i]
        if c == "[":
            j = _bracket_end(p, i)
            out.append(_bracket(p[i:j]))
            i = j
            continue
        if c == "\\" and i + 1 < len(p):
            d = p[i + 1]
            out.append(r"\b" if d in "<>" else "\\" + d)
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _bracket_end(p, i):
    j = i + 1
    if j < len(p) and p[j] in "^!":
        j += 1
    if j < len(p) and p[j] == "]":
        j += 1
    while j < len(p) and p[j] != "]":
        if p[j] == "[" and j + 1 < len(p) and p[j + 1] == ":":
            k = p.find(":]", j + 2)
            if k >= 0:
                j = k + 2
                continue
        j += 1
    return min(j + 1, len(p))


_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
            "space": r" \t\n\r\f\v", "punct": r"!-/:-@\[-`{-~", "xdigit": "0-9a-fA-F", "blank": r" \t"}


def _bracket(b):
    inner = b[1:-1]
    neg = inner[:1] in ("^",)
    if neg:
        inner = inner[1:]
    inner = re.sub(r"\[:(\w+):\]", lambda m: _CLASSES.get(m.group(1), ""), inner)
    inner = inner.replace("\\", "\\\\")
    if inner.startswith("]"):
        inner = "\\]" + inner[1:]
    inner = inner.replace("[", "\\[")
    return "[" + ("^" if neg else "") + inner + "]"


def sort(ctx, args):
    long_map = {"numeric-sort": "n", "reverse": "r", "unique": "u", "human-numeric-sort": "h", "ignore-case": "f",
                "key": "k", "field-separator": "t", "output": "o", "stable": "s", "general-numeric-sort": "g",
                "ignore-leading-blanks": "b", "check": "c", "version-sort": "V", "month-sort": "M",
                "dictionary-order": "d", "zero-terminated": "z"}
    on, vals, names = _opts(args, "nrufhbVsdgcMRz", with_value="ktoS", long_map=long_map)
    keys = [_sort_keyspec(k) for k in _repeated(args, "-k") + [a.split("=", 1)[1] for a in args if a.startswith("--key=")]]
    data, status = _inputs(ctx, names, "sort")
    text = "".join(_text(d) for _, d in data)
    eol = "\0" if "z" in on else "\n"
    lines = text.split(eol)
    if lines and lines[-1] == "":
        lines.pop()
    sep = vals.get("t")
    glob = "".join(sorted(on & set("nrfhbdgMV")))
    specs = keys or [(1, 0, None, 0, "")]
    specs = [(f1, c1, f2, c2, opts or glob) for f1, c1, f2, c2, opts in specs]

    def compare(a, b):
        for f1, c1, f2, c2, opts in specs:
            if keys:
                x, y = _sort_field(a, sep, f1, c1, f2, c2, opts), _sort_field(b, sep, f1, c1, f2, c2, opts)
            else:
                x, y = a, b
            r = _sort_cmp(x, y, opts)
            if r:
                return -r if "r" in opts else r
        return 0

    def full(a, b):
        r = compare(a, b)
        if r or "s" in on or "u" in on:
            return r
        # GNU's last-resort comparison: whole lines, bytewise
        r = (a > b) - (a < b)
        return -r if "r" in on else r

    key = functools.cmp_to_key(full)
    if "c" in on:
        for k in range(1, len(lines)):
            r = full(lines[k - 1], lines[k])
            if r > 0 or (r == 0 and "u" in on):
                ctx.err.write(f"sort: {names[0] if names else '-'}:{k + 1}: disorder: {lines[k]}\n")
                return 1
        return 0
    lines.sort(key=key)
    if "u" in on:
        out = []
        for ln in lines:
            if not out or compare(out[-1], ln) != 0:
                out.append(ln)
        lines = out
    body = "".join(ln + eol for ln in lines)
    if "o" in vals:
        with open(vals["o"], "w") as f:
            f.write(body)
    else:
        ctx.out.write(body)
    return status


def _sort_keyspec(spec):
    m = re.fullmatch(r"(\d+)(?:\.(\d+))?([a-zA-Z]*)(?:,(\d+)(?:\.(\d+))?([a-zA-Z]*))?", spec)
    if not m or int(m.group(1)) == 0:
        raise ShellError(f"invalid number at field start: invalid count at start of '{spec}'")
    f2 = int(m.group(4)) if m.group(4) else None
    return int(m.group(1)), int(m.group(2) or 1), f2, int(m.group(5) or 0), (m.group(3) or "") + (m.group(6) or "")


def _sort_field(line, sep, f1, c1, f2, c2, opts):
    """The text of one key: from field f1 (character c1) to the end of field f2 (or its
    character c2), fields split at `sep` or (without -t) before each run of blanks."""
    if sep is not None:
        starts, pos = [], 0
        for part in line.split(sep):
            starts.append((pos, pos + len(part)))
            pos += len(part) + len(sep)
    else:
        starts = [(m.start(), m.end()) for m in re.finditer(r"[ \t]*[^ \t]+", line)]
    if f1 > len(starts):
        return ""
    lo = starts[f1 - 1][0]
    if "b" in opts:
        while lo < len(line) and line[lo] in " \t":
            lo += 1
    lo += c1 - 1
    if f2 is None or f2 > len(starts):
        hi = len(line)
    elif c2:
        begin = starts[f2 - 1][0]
        if "b" in opts:
            while begin < len(line) and line[begin] in " \t":
                begin += 1
        hi = min(begin + c2, len(line))
    else:
        hi = starts[f2 - 1][1]
    return line[lo:hi] if lo < hi else ""


def _sort_num(s):
    m = re.match(r"\s*(-?(?:\d+(?:\.\d*)?|\.\d+))", s)
    return float(m.group(1)) if m else 0.0


def _sort_human(s):
    m = re.match(r"\s*(-?(?:\d+(?:\.\d*)?|\.\d+))([KMGTPEZY]?)", s)
    if not m:
        return (0, 0.0)
    v = float(m.group(1))
    return ((1 if v > 0 else -1 if v < 0 else 0) * ("KMGTPEZY".find(m.group(2)) + 2 if m.group(2) else 1), v)


def _sort_general(s):
    try:
        return (1, float(re.match(r"\s*(\S*)", s).group(1)))
    except ValueError:
        return (0, 0.0)


def _sort_cmp(x, y, opts):
    if "b" in opts:
        x, y = x.lstrip(" \t"), y.lstrip(" \t")
    if "n" in opts:
        a, b = _sort_num(x), _sort_num(y)
    elif "h" in opts:
        a, b = _sort_human(x), _sort_human(y)
    elif "g" in opts:
        a, b = _sort_general(x), _sort_general(y)
    elif "M" in opts:
        a, b = (_MONTHS.index(v.strip()[:3].lower()) + 1 if v.strip()[:3].lower() in _MONTHS else 0 for v in (x, y))
    elif "V" in opts:
        a, b = ([(int(p) if p.isdigit() else p) for p in re.findall(r"\d+|\D+", v)] for v in (x, y))
        try:
            return (a > b) - (a < b)
        except TypeError:
            a, b = x, y
    else:
        if "d" in opts:
            x, y = re.sub(r"[^\w\s]", "", x), re.sub(r"[^\w\s]", "", y)
        if "f" in opts:
            x, y = x.upper(), y.upper()
        a, b = x, y
    return (a > b) - (a < b)


def uniq(ctx, args):
    on, vals, names = _opts(args, "cdui", with_value="fs", long_map={"count": "c"})
    data, status = _inputs(ctx, names[:1], "uniq")
    text = "".join(_text(d) for _, d in data)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    groups = []
    for ln in lines:
        k = ln.lower() if "i" in on else ln
        if groups and groups[-1][0] == k:
            groups[-1][2] += 1
        else:
            groups.append([k, ln, 1])
    out = []
    for _, ln, n in groups:
        if "d" in on and n < 2:
            continue
        if "u" in on and n > 1:
            continue
        out.append((f"{n:7d} " if "c" in on else "") + ln + "\n")
    body = "".join(out)
    if len(names) > 1:
        with open(names[1], "w") as f:
            f.write(body)
    else:
        ctx.out.write(body)
    return status


def cut(ctx, args):
    on, vals, names = _opts(args, "s", with_value=("d", "f", "c", "b", "od"), long_map={"delimiter": "d", "fields": "f", "characters": "c", "complement": "complement", "output-delimiter": "od"})
    if "f" not in vals and "c" not in vals and "b" not in vals:
        raise Usage("you must specify a list of bytes, characters, or fields")
    data, status = _inputs(ctx, names, "cut")
    text = "".join(_text(d) for _, d in data)
    lines = text.split("\n")
    trailing = lines and lines[-1] == ""
    if trailing:
        lines.pop()
    spec = vals.get("f") or vals.get("c") or vals.get("b")
    ranges = []
    for part in spec.split(","):
        a, dash, b = part.partition("-")
        if not dash:
            ranges.append((int(a), int(a)))
        else:
            ranges.append((int(a) if a else 1, int(b) if b else 10 ** 9))

    def pick(n):
        return any(a <= n <= b for a, b in ranges)

    out = []
    for ln in lines:
        if "f" in vals:
            d = vals.get("d", "\t")
            if d not in ln:
                if "s" not in on:
                    out.append(ln + "\n")
                continue
            parts = ln.split(d)
            out.append(vals.get("od", d).join(p for k, p in enumerate(parts, 1) if pick(k)) + "\n")
        elif "od" in vals:
            picked = [k for k in range(1, len(ln) + 1) if pick(k)]
            runs = []
            for k in picked:
                if runs and runs[-1][-1] == k - 1:
                    runs[-1].append(k)
                else:
                    runs.append([k])
            out.append(vals["od"].join("".join(ln[k - 1] for k in run) for run in runs) + "\n")
        else:
            out.append("".join(ch for k, ch in enumerate(ln, 1) if pick(k)) + "\n")
    ctx.out.write("".join(out))
    return status


def tr(ctx, args):
    on, _, sets = _opts(args, "dscC")
    if not sets:
        raise Usage("missing operand")
    src = _tr_set(sets[0])
    text = _text(ctx.stdin)
    if "c" in on or "C" in on:
        universe = set(text)
        src = [ch for ch in sorted(universe) if ch not in src]
    if "d" in on:
        out = "".join(ch for ch in text if ch not in set(src))
        if "s" in on and len(sets) > 1:
            out = _squeeze(out, set(_tr_set(sets[1])))
        ctx.out.write(out)
        return 0
    if len(sets) > 1:
        dst = _tr_set(sets[1])
        if not dst:
            raise Usage("when not truncating set1, string2 must be non-empty")
        dst = dst + [dst[-1]] * (len(src) - len(dst))
        table = {ord(a): b for a, b in zip(src, dst)}
        out = text.translate(table)
        if "s" in on:
            out = _squeeze(out, set(dst))
    elif "s" in on:
        out = _squeeze(text, set(src))
    else:
        raise Usage("missing operand after set1")
    ctx.out.write(out)
    return 0


def _squeeze(text, chars):
    out = []
    for ch in text:
        if out and out[-1] == ch and ch in chars:
            continue
        out.append(ch)
    return "".join(out)


def _tr_set(s):
    classes = {"[:lower:]": "abcdefghijklmnopqrstuvwxyz", "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
               "[:digit:]": "0123456789", "[:space:]": " \t\n\r\f\v", "[:blank:]": " \t",
               "[:alpha:]": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
               "[:alnum:]": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
               "[:punct:]": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"}
    out = []
    i = 0
    while i < len(s):
        matched = next((k for k in classes if s.startswith(k, i)), None)
        if matched:
            out.extend(classes[matched])
            i += len(matched)
            continue
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            c = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\"}.get(s[i + 1], s[i + 1])
            i += 2
        else:
            i += 1
        if i + 1 < len(s) and s[i] == "-":
            end = s[i + 1]
            out.extend(chr(x) for x in range(ord(c), ord(end) + 1))
            i += 2
            continue
        out.append(c)
    return out


def sed(ctx, args):
    on, vals, rest = _opts(args, "nEri", with_value="e", long_map={"quiet": "n", "regexp-extended": "E", "in-place": "i"})
    scripts = _repeated(args, "-e")
    if not scripts:
        if not rest:
            raise Usage("no script specified")
        scripts.append(rest.pop(0))
    program = _sed_parse(";".join(scripts) if len(scripts) > 1 else scripts[0], extended=bool({"E", "r"} & on))
    files = rest
    if "i" in on:
        status = 0
        for name in files:
            try:
                data = _text(_read(ctx, name))
            except OSError:
                ctx.err.write(f"sed: can't read {name}: No such file or directory\n")
                status = 2
                continue
            with open(name, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(_sed_run(program, data, "n" in on))
        return status
    data, status = _inputs(ctx, files, "sed")
    text = "".join(_text(d) for _, d in data)
    ctx.out.write(_sed_run(program, text, "n" in on))
    return 2 if status else 0


def _sed_parse(script, extended):
    cmds = []
    i = 0
    n = len(script)

    def addr(i):
        if i < n and script[i] == "$":
            return ("last",), i + 1
        m = re.match(r"\d+", script[i:])
        if m:
            return ("line", int(m.group(0))), i + len(m.group(0))
        if i < n and script[i] == "/":
            j = i + 1
            while j < n and script[j] != "/":
                if script[j] == "\\":
                    j += 1
                j += 1
            rx = script[i + 1:j]
            return ("re", re.compile(_ere_to_py(rx) if extended else _bre_to_py(rx))), j + 1
        return None, i

    while i < n:
        while i < n and script[i] in " \t\n;":
            i += 1
        if i >= n:
            break
        a1, i = addr(i)
        a2 = None
        if a1 and i < n and script[i] == ",":
            a2, i = addr(i + 1)
        negate = False
        while i < n and script[i] == " ":
            i += 1
        if i < n and script[i] == "!":
            negate = True
            i += 1
        cmd = script[i]
        i += 1
        if cmd == "s":
            delim = script[i]
            parts = []
            j = i + 1
            cur = []
            while j < n and len(parts) < 2:
                if script[j] == "\\" and j + 1 < n:
                    if script[j + 1] == delim:
                        cur.append(delim)
                    else:
                        cur.append(script[j:j + 2])
                    j += 2
                    continue
                if script[j] == delim:
                    parts.append("".join(cur))
                    cur = []
                    j += 1
                    continue
                cur.append(script[j])
                j += 1
            if len(parts) < 2:
                raise Usage(f"-e expression #1, char {j}: unterminated `s' command")
            m = re.match(r"[gpiI0-9]*", script[j:])
            flags = m.group(0)
            j += len(flags)
            pat = _ere_to_py(parts[0]) if extended else _bre_to_py(parts[0])
            rx = re.compile(pat, re.I if ("i" in flags or "I" in flags) else 0)
            rep = _sed_repl(parts[1], extended)
            count = 0 if "g" in flags else int(re.sub(r"\D", "", flags) or 1)
            cmds.append((a1, a2, negate, "s", (rx, rep, "g" in flags, count, "p" in flags)))
            i = j
        elif cmd in "dpqP=":
            cmds.append((a1, a2, negate, cmd, None))
        elif cmd in "aic":
            text = script[i:].lstrip()
            if text.startswith("\\"):
                text = text[1:].lstrip("\n")
            cmds.append((a1, a2, negate, cmd, text))
            i = n
        elif cmd == "y":
            delim = script[i]
            parts = script[i + 1:].split(delim)
            cmds.append((a1, a2, negate, "y", str.maketrans(parts[0], parts[1])))
            i = i + 1 + len(parts[0]) + 1 + len(parts[1]) + 1
        else:
            raise Usage(f"-e expression #1, char {i}: unknown command: `{cmd}'")
    return cmds


def _sed_repl(rep, extended):
    out = []
    i = 0
    while i < len(rep):
        c = rep[i]
        if c == "\\" and i + 1 < len(rep):
            d = rep[i + 1]
            if d.isdigit():
                out.append(f"\\g<{d}>")
            elif d == "n":
                out.append("\n")
            elif d == "t":
                out.append("\t")
            else:
                out.append(d.replace("\\", "\\\\"))
            i += 2
            continue
        if c == "&":
            out.append("\\g<0>")
        elif c == "\\":
            out.append("\\\\")
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _sed_run(cmds, text, quiet):
    lines = text.split("\n")
    trailing_newline = text.endswith("\n")
    if trailing_newline:
        lines.pop()
    out = []
    active = {}
    total = len(lines)
    for idx, line in enumerate(lines):
        num = idx + 1
        deleted = False
        appended = []
        for k, (a1, a2, negate, cmd, arg) in enumerate(cmds):
            hit = _sed_match(k, a1, a2, num, total, line, active)
            if negate:
                hit = not hit
            if not hit:
                continue
            if cmd == "s":
                rx, rep, glob, count, printit = arg
                if glob:
                    new, nsub = rx.subn(rep, line)
                else:
                    matches = list(rx.finditer(line))
                    nsub = 0
                    new = line
                    if len(matches) >= count:
                        m = matches[count - 1]
                        new = line[:m.start()] + m.expand(rep) + line[m.end():]
                        nsub = 1
                line = new
                if printit and nsub:
                    out.append(line + "\n")
            elif cmd == "d":
                deleted = True
                break
            elif cmd == "p":
                out.append(line + "\n")
            elif cmd == "=":
                out.append(f"{num}\n")
            elif cmd == "q":
                if not quiet:
                    out.append(line + "\n")
                return "".join(out)
            elif cmd == "a":
                appended.append(arg + "\n")
            elif cmd == "i":
                out.append(arg + "\n")
            elif cmd == "c":
                out.append(arg + "\n")
                deleted = True
                break
            elif cmd == "y":
                line = line.translate(arg)
        if not deleted and not quiet:
            last = idx == total - 1
            out.append(line + ("\n" if (not last or trailing_newline) else ""))
        out.extend(appended)
    return "".join(out)


def _sed_match(k, a1, a2, num, total, line, active):
    def one(a):
        if a is None:
            return True
        if a[0] == "last":
            return num == total
        if a[0] == "line":
            return num == a[1]
        return a[1].search(line) is not None

    if a1 is None:
        return True
    if a2 is None:
        return one(a1)
    if active.get(k):
        if (a2[0] == "line" and num >= a2[1]) or (a2[0] != "line" and one(a2)):
            active[k] = False
        return True
    if one(a1):
        if not (a2[0] == "line" and num >= a2[1]):
            active[k] = True
        return True
    return False


def seq(ctx, args):
    # Options first; operands may be negative numbers, so no generic option parsing.
    on, vals, nums = set(), {}, []
    k = 0
    while k < len(args):
        a = args[k]
        if a in ("-s", "-f") and k + 1 < len(args):
            vals[a[1]] = args[k + 1]
            k += 2
            continue
        if a.startswith("-s") and len(a) > 2 and not re.fullmatch(r"-[\d.]+", a):
            vals["s"] = a[2:]
        elif a == "-w":
            on.add("w")
        else:
            nums.append(a)
        k += 1
    if not nums:
        raise Usage("missing operand")
    try:
        vals_ = [float(x) if "." in x else int(x) for x in nums]
    except ValueError:
        raise Usage(f"invalid floating point argument: '{nums[0]}'") from None
    first, step, last = 1, 1, vals_[-1]
    if len(vals_) == 2:
        first = vals_[0]
    elif len(vals_) == 3:
        first, step, last = vals_
    sep = vals.get("s", "\n")
    out = []
    x = first
    decimals = max((len(n.split(".")[1]) for n in nums if "." in n), default=0)
    width = max(len(str(first)), len(str(last))) if "w" in on else 0
    fmt = vals.get("f")
    if fmt is not None and not re.fullmatch(r"[^%]*(%%[^%]*)*%[-+ #0']*\d*(\.\d+)?[eEfgGaA]([^%]|%%)*", fmt):
        raise ShellError(f"invalid format string: '{fmt}'")
    while (step > 0 and x <= last + 1e-9) or (step < 0 and x >= last - 1e-9):
        if fmt is not None:
            text = fmt.replace("'", "") % float(x)
        else:
            text = f"{x:.{decimals}f}" if decimals else str(int(x))
        out.append(text.zfill(width) if width else text)
        x = x + step
        if step == 0:
            break
    if out:
        ctx.out.write(sep.join(out) + "\n")
    return 0


def nl(ctx, args):
    on, vals, names = _opts(args, "", with_value="bwsv")
    data, status = _inputs(ctx, names, "nl")
    text = "".join(_text(d) for _, d in data)
    k = 0
    out = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    body_all = vals.get("b") == "a"
    for ln in lines:
        if ln == "" and not body_all:
            out.append("       \n")
            continue
        k += 1
        out.append(f"{k:6d}\t{ln}\n")
    ctx.out.write("".join(out))
    return status


def rev(ctx, args):
    data, status = _inputs(ctx, args, "rev")
    text = "".join(_text(d) for _, d in data)
    lines = text.split("\n")
    trailing = lines and lines[-1] == ""
    if trailing:
        lines.pop()
    ctx.out.write("".join(ln[::-1] + "\n" for ln in lines))
    return status


def tac(ctx, args):
    data, status = _inputs(ctx, args, "tac")
    for _, blob in data:
        ctx.out.write(b"".join(reversed(_lines(blob))))
    return status


def paste(ctx, args):
    on, vals, names = _opts(args, "s", with_value="d")
    delims = vals.get("d", "\t") or ""
    data, status = _inputs(ctx, names, "paste")
    columns = []
    for _, blob in data:
        lines = _text(blob).split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        columns.append(lines)
    out = []
    if "s" in on:
        for col in columns:
            out.append(_join_delims(col, delims) + "\n")
    else:
        rows = max((len(c) for c in columns), default=0)
        for r in range(rows):
            out.append(_join_delims([c[r] if r < len(c) else "" for c in columns], delims) + "\n")
    ctx.out.write("".join(out))
    return status


def _join_delims(items, delims):
    if not items:
        return ""
    out = [items[0]]
    for k, item in enumerate(items[1:]):
        out.append((delims[k % len(delims)] if delims else "") + item)
    return "".join(out)


def column(ctx, args):
    on, vals, names = _opts(args, "tn", with_value="so")
    data, status = _inputs(ctx, names, "column")
    text = "".join(_text(d) for _, d in data)
    lines = [ln for ln in text.split("\n") if ln.strip()]
    if "t" not in on:
        ctx.out.write("".join(ln + "\n" for ln in lines))
        return status
    sep = vals.get("s")
    rows = [ln.split(sep) if sep else ln.split() for ln in lines]
    width = max((len(r) for r in rows), default=0)
    widths = [max((len(r[k]) for r in rows if k < len(r)), default=0) for k in range(width)]
    outsep = vals.get("o", "  ")
    for r in rows:
        cells = [c.ljust(widths[k]) if k < len(r) - 1 else c for k, c in enumerate(r)]
        ctx.out.write(outsep.join(cells).rstrip() + "\n")
    return status


def diff(ctx, args):
    labels, rest, switches = [], [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--label" and i + 1 < len(args):
            labels.append(args[i + 1])
            switches += args[i:i + 2]
            i += 2
            continue
        if a.startswith("--label="):
            labels.append(a[8:])
        elif a.startswith("--unified=") or a.startswith("-U") and a[2:].isdigit():
            rest.append("-U" + a.split("=", 1)[-1].lstrip("-U"))
        elif a == "--":
            rest += args[i:]
            break
        else:
            rest.append(a)
        if a.startswith("-") and a != "-":
            switches.append(a)
        i += 1
    on, vals, names = _opts(rest, "uqrNwiBbsa", with_value="U", long_map={
        "unified": "u", "brief": "q", "recursive": "r", "new-file": "N", "ignore-all-space": "w",
        "ignore-case": "i", "ignore-blank-lines": "B", "ignore-space-change": "b",
        "report-identical-files": "s", "text": "a"})
    if len(names) != 2:
        raise Usage(f"missing operand after '{names[-1]}'" if names else "missing operand")
    if "U" in vals:
        on.add("u")
    context = _count(vals.get("U", "3"), "context lines")
    run = _Diff(ctx, on, context, labels, "diff " + " ".join(switches) + " " if switches else "diff ")
    a, b = names
    for name in (a, b):
        if name != "-" and not os.path.exists(name):
            ctx.err.write(f"diff: {name}: No such file or directory\n")
            return 2
    a_dir, b_dir = os.path.isdir(a), os.path.isdir(b)
    if a_dir and b_dir:
        run.dirs(a, b, top=True)
    elif a_dir or b_dir:
        # diff FILE DIR compares FILE with DIR/FILE's name
        if a_dir:
            a = _diff_join(a, os.path.basename(b))
        else:
            b = _diff_join(b, os.path.basename(a))
        run.files(a, b)
    else:
        run.files(a, b)
    return run.status


def _diff_join(d, name):
    return d + name if d.endswith("/") else d + "/" + name


class _Diff:
    """One diff run: files, directories (recursively with -r), in normal, unified or brief form;
    status 0 (same), 1 (different), 2 (trouble)."""

    def __init__(self, ctx, on, context, labels, header):
        self.ctx, self.on, self.context, self.labels, self.header = ctx, on, context, labels, header
        self.status = 0

    def read(self, name):
        if name is None:
            return b""
        try:
            return _read(self.ctx, name)
        except OSError as exc:
            self.ctx.err.write(f"diff: {name}: {os_message(exc)}\n")
            self.status = 2
            return None

    def key(self, line):
        if "w" in self.on:
            line = re.sub(r"\s+", "", line)
        elif "b" in self.on:
            line = re.sub(r"[ \t]+", " ", line).rstrip(" \t\n") + "\n"
        return line.lower() if "i" in self.on else line

    def files(self, a, b, in_dir=False, a_exists=True, b_exists=True):
        left = self.read(a if a_exists else None)
        right = self.read(b if b_exists else None)
        if left is None or right is None:
            return
        if left == right:
            if "s" in self.on:
                self.ctx.out.write(f"Files {a} and {b} are identical\n")
            return
        if "a" not in self.on and (b"\0" in left[:8192] or b"\0" in right[:8192]):
            self.ctx.out.write(f"Binary files {a} and {b} differ\n")
            self.status = max(self.status, 1)
            return
        lt, rt = _text(left).splitlines(keepends=True), _text(right).splitlines(keepends=True)
        ops = difflib.SequenceMatcher(None, [self.key(x) for x in lt], [self.key(x) for x in rt], autojunk=False).get_opcodes()
        changed = [op for op in ops if op[0] != "equal" and not (
            "B" in self.on and all(not x.strip() for x in lt[op[1]:op[2]] + rt[op[3]:op[4]]))]
        if not changed:
            return
        self.status = max(self.status, 1)
        if "q" in self.on:
            self.ctx.out.write(f"Files {a} and {b} differ\n")
            return
        if in_dir:
            self.ctx.out.write(f"{self.header}{a} {b}\n")
        if "u" in self.on:
            self.unified(a, b, lt, rt, changed)
        else:
            self.normal(lt, rt, changed)

    def normal(self, lt, rt, ops):
        out = self.ctx.out

        def rng(lo, hi):
            return f"{lo + 1}" if hi - lo == 1 else f"{lo + 1},{hi}"

        for tag, i1, i2, j1, j2 in ops:
            if tag == "delete":
                out.write(f"{rng(i1, i2)}d{j1}\n")
            elif tag == "insert":
                out.write(f"{i1}a{rng(j1, j2)}\n")
            else:
                out.write(f"{rng(i1, i2)}c{rng(j1, j2)}\n")
            for line in lt[i1:i2]:
                out.write("< " + _diff_eol(line))
            if tag == "replace":
                out.write("---\n")
            for line in rt[j1:j2]:
                out.write("> " + _diff_eol(line))

    def unified(self, a, b, lt, rt, ops):
        out = self.ctx.out
        heads = [self.labels[k] if k < len(self.labels) else f"{name}\t{_diff_stamp(name)}" for k, name in enumerate((a, b))]
        out.write(f"--- {heads[0]}\n+++ {heads[1]}\n")
        n = self.context
        # hunks: changes closer than 2n lines share one
        groups = []
        for op in ops:
            if groups and op[1] - groups[-1][-1][2] <= 2 * n:
                groups[-1].append(op)
            else:
                groups.append([op])
        for group in groups:
            i1, j1 = max(group[0][1] - n, 0), max(group[0][3] - n, 0)
            i2, j2 = min(group[-1][2] + n, len(lt)), min(group[-1][4] + n, len(rt))
            out.write(f"@@ -{_diff_urange(i1, i2)} +{_diff_urange(j1, j2)} @@\n")
            i = i1
            for _, o1, o2, p1, p2 in group:
                for line in lt[i:o1]:
                    out.write(" " + _diff_eol(line))
                for line in lt[o1:o2]:
                    out.write("-" + _diff_eol(line))
                for line in rt[p1:p2]:
                    out.write("+" + _diff_eol(line))
                i = o2
            for line in lt[i:i2]:
                out.write(" " + _diff_eol(line))

    def dirs(self, a, b, top=False):
        try:
            left, right = set(os.listdir(a)), set(os.listdir(b))
        except OSError as exc:
            self.ctx.err.write(f"diff: {exc.filename}: {os_message(exc)}\n")
            self.status = 2
            return
        for name in sorted(left | right, key=lambda s: s.encode("utf-8", "surrogateescape")):
            pa, pb = _diff_join(a, name), _diff_join(b, name)
            if name not in right or name not in left:
                where, path = (a, pa) if name not in right else (b, pb)
                if "N" in self.on and not os.path.isdir(path):
                    self.files(pa, pb, True, name in left, name in right)
                elif "N" in self.on:
                    self.dirs_one_sided(pa, pb, name in left)
                else:
                    self.ctx.out.write(f"Only in {where}: {name}\n")
                    self.status = max(self.status, 1)
                continue
            da, db = os.path.isdir(pa), os.path.isdir(pb)
            if da and db:
                if "r" in self.on:
                    self.dirs(pa, pb)
                else:
                    self.ctx.out.write(f"Common subdirectories: {pa} and {pb}\n")
            elif da or db:
                kinds = ("directory" if da else "regular file", "directory" if db else "regular file")
                self.ctx.out.write(f"File {pa} is a {kinds[0]} while file {pb} is a {kinds[1]}\n")
                self.status = max(self.status, 1)
            else:
                self.files(pa, pb, True)

    def dirs_one_sided(self, pa, pb, in_left):
        if "r" not in self.on:
            self.ctx.out.write(f"Only in {os.path.dirname(pa if in_left else pb)}: {os.path.basename(pa)}\n")
            self.status = max(self.status, 1)
            return
        base = pa if in_left else pb
        for name in sorted(os.listdir(base)):
            sa, sb = _diff_join(pa, name), _diff_join(pb, name)
            if os.path.isdir(_diff_join(base, name)):
                self.dirs_one_sided(sa, sb, in_left)
            else:
                self.files(sa, sb, True, in_left, not in_left)


def _diff_eol(line):
    return line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


def _diff_urange(start, stop):
    length = stop - start
    if length == 1:
        return f"{start + 1}"
    return f"{start if not length else start + 1},{length}"


def _diff_stamp(name):
    if name == "-":
        return datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S.%f000 %z")
    st = os.stat(name)
    when = datetime.datetime.fromtimestamp(st.st_mtime).astimezone()
    return when.strftime("%Y-%m-%d %H:%M:%S.") + f"{st.st_mtime_ns % 1_000_000_000:09d}" + when.strftime(" %z")


def cmp(ctx, args):
    on, _, names = _opts(args, "sl")
    a, b = names[:2]
    try:
        da, db = _read(ctx, a), _read(ctx, b)
    except FileNotFoundError as exc:
        ctx.err.write(f"cmp: {exc.filename}: No such file or directory\n")
        return 2
    if da == db:
        return 0
    if "s" in on:
        return 1
    for k, (x, y) in enumerate(zip(da, db)):
        if x != y:
            line = da[:k].count(b"\n") + 1
            ctx.out.write(f"{a} {b} differ: byte {k + 1}, line {line}\n")
            return 1
    shorter = a if len(da) < len(db) else b
    ctx.err.write(f"cmp: EOF on {shorter} after byte {min(len(da), len(db))}\n")
    return 1


def date(ctx, args):
    utc = False
    fmt = when = ref = None
    args = list(args)
    i = 0
    while i < len(args):
        a = args[i]
        if len(a) > 2 and a[0] == "-" and a[1] in "uR":
            args[i:i + 1] = [a[:2], "-" + a[2:]]  # bundled: -ud STRING, -uR
            a = args[i]
        if a in ("-u", "--utc", "--universal"):
            utc = True
        elif a in ("-d", "--date", "-r", "--reference"):
            if i + 1 >= len(args):
                raise Usage(f"option requires an argument -- '{a.lstrip('-')[0]}'")
            i += 1
            if a in ("-d", "--date"):
                when = args[i]
            else:
                ref = args[i]
        elif a.startswith("--date="):
            when = a[7:]
        elif a.startswith("--reference="):
            ref = a[12:]
        elif a.startswith("-d") and len(a) > 2:
            when = a[2:]
        elif a.startswith("-I") or a.startswith("--iso-8601"):
            spec = a[2:] if a.startswith("-I") else a[len("--iso-8601"):].lstrip("=")
            fmt = _DATE_ISO.get(spec or "date")
            if fmt is None:
                raise Usage(f"invalid argument '{spec}' for '--iso-8601'")
        elif a in ("-R", "--rfc-email", "--rfc-2822"):
            fmt = "%a, %d %b %Y %H:%M:%S %z"
        elif a.startswith("--rfc-3339="):
            fmt = {"date": "%Y-%m-%d", "seconds": "%Y-%m-%d %H:%M:%S%:z", "ns": "%Y-%m-%d %H:%M:%S.%N%:z"}.get(a[11:])
            if fmt is None:
                raise Usage(f"invalid argument '{a[11:]}' for '--rfc-3339'")
        elif a in ("-s", "--set") or a.startswith("--set="):
            ctx.err.write("date: cannot set date: Operation not permitted\n")
            return 1
        elif a.startswith("+"):
            if fmt is not None and not fmt.startswith("%"):
                raise Usage("multiple output formats specified")
            fmt = a[1:]
        elif a.startswith("-") and a != "-":
            raise Usage(f"invalid option -- '{a[1:2]}'")
        else:
            raise ShellError(f"invalid date '{a}'")
        i += 1
    tz = _date_zone(ctx, utc)
    if ref is not None:
        try:
            moment = datetime.datetime.fromtimestamp(os.stat(ref).st_mtime, tz)
        except OSError as exc:
            raise ShellError(f"{ref}: {os_message(exc)}") from None
    elif when is not None:
        moment = _parse_date(when, tz)
        if moment is None:
            ctx.err.write(f"date: invalid date '{when}'\n")
            return 1
    else:
        moment = datetime.datetime.now(tz)
    ctx.out.write(_strftime(moment, "%a %b %e %H:%M:%S %Z %Y" if fmt is None else fmt) + "\n")
    return 0


_DATE_ISO = {"date": "%Y-%m-%d", "hours": "%Y-%m-%dT%H%:z", "minutes": "%Y-%m-%dT%H:%M%:z",
             "seconds": "%Y-%m-%dT%H:%M:%S%:z", "ns": "%Y-%m-%dT%H:%M:%S,%N%:z"}


def _date_zone(ctx, utc):
    """The zone date shows: UTC for -u or TZ=UTC (the sandbox's clock is UTC), a named TZ when
    the zone database has it, else the local zone."""
    name = ctx.env.get("TZ")
    if utc or (name is not None and name.lstrip(":") in ("", "UTC", "UTC0", "GMT", "GMT0", "Etc/UTC", "UCT", "Z")):
        return datetime.timezone.utc
    if name:
        try:
            import zoneinfo

            return zoneinfo.ZoneInfo(name.lstrip(":"))
        except Exception:
            return datetime.timezone.utc
    return datetime.datetime.now().astimezone().tzinfo


def _strftime(moment, fmt):
    """strftime with GNU date's extensions: %N (nanoseconds), %s (epoch seconds), %:z, %P, and
    the padding flags `-`, `_` and `^`."""
    def conv(m):
        flag, spec = m.group(1), m.group(2)
        if spec == "%":
            return "%"
        if spec == "N":
            value = f"{moment.microsecond * 1000:09d}"
        elif spec == "s":
            value = str(int(moment.timestamp() // 1))
        elif spec == ":z":
            z = moment.strftime("%z")
            value = z[:3] + ":" + z[3:] if z else ""
        elif spec == "P":
            value = moment.strftime("%p").lower()
        elif spec in "ekl":
            value = f"{(moment.day, moment.hour, (moment.hour % 12) or 12)['ekl'.index(spec)]:2d}"
        else:
            value = moment.strftime("%" + spec)
        if flag == "-" and value.strip().isdigit():
            value = value.lstrip("0 ") or "0"
        elif flag == "_" and value.isdigit():
            value = (value.lstrip("0") or "0").rjust(len(value))
        elif flag == "^":
            value = value.upper()
        return value

    return re.sub(r"%([-_^]?)(:z|.)", conv, fmt)


_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
_UNITS = {"year": ("months", 12), "month": ("months", 1), "fortnight": ("days", 14), "week": ("days", 7),
          "day": ("days", 1), "hour": ("seconds", 3600), "minute": ("seconds", 60), "min": ("seconds", 60),
          "second": ("seconds", 1), "sec": ("seconds", 1)}
_DATE_TOKEN = re.compile(
    r"\s*(?:(?P<iso>\d{4}-\d{1,2}-\d{1,2})t?|(?P<us>\d{1,2}/\d{1,2}/\d{4})"
    r"|(?P<time>\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)(?P<tzo>z|[+-]\d{2}:?\d{2})?"
    r"|(?P<num>[+-]?\s*\d+)|(?P<word>[a-z]+\.?)|(?P<comma>,))")


def _date_word(word, table, full):
    """The index of `word` in `table` (three-letter prefixes), or None."""
    w = word.rstrip(".")
    for k, short in enumerate(table):
        if w == short or (w.startswith(short) and full[k].startswith(w)):
            return k
    return None


def _parse_date(text, tz):
    """GNU date's -d: ISO dates and times, `@EPOCH`, month names, now/today/yesterday/tomorrow,
    relative items (`+3 days`, `2 weeks ago`, `next monday`, `last month`) on a base date.
    Returns an aware datetime, or None for what GNU would refuse."""
    s = text.strip().lower()
    m = re.fullmatch(r"@\s*([+-]?\d+(?:\.\d+)?)", s)
    if m:
        return datetime.datetime.fromtimestamp(float(m.group(1)), tz)
    months_full = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                   "october", "november", "december"]
    days_full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    tokens = []
    pos = 0
    while pos < len(s):
        m = _DATE_TOKEN.match(s, pos)
        if not m or m.end() == pos:
            if s[pos:].strip() == "":
                break
            return None
        pos = m.end()
        kind = m.lastgroup if m.lastgroup != "tzo" else "time"
        tokens.append((kind, m.group(kind), m))
    ymd = hms = zone = None
    rel = {"months": 0, "days": 0, "seconds": 0}
    weekday = None
    ordinal = None
    last_rel = None
    month_word = None
    loose = []  # plain numbers waiting for a month name
    k = 0
    while k < len(tokens):
        kind, value, m = tokens[k]
        nxt = tokens[k + 1] if k + 1 < len(tokens) else (None, None, None)
        if kind == "iso":
            if ymd:
                return None
            ymd = tuple(int(x) for x in value.split("-"))
        elif kind == "us":
            if ymd:
                return None
            mo, d, y = (int(x) for x in value.split("/"))
            ymd = (y, mo, d)
        elif kind == "time":
            if hms:
                return None
            parts = value.split(":")
            sec = parts[2] if len(parts) > 2 else "0"
            whole, _, frac = sec.replace(",", ".").partition(".")
            hms = [int(parts[0]), int(parts[1]), int(whole), int((frac + "000000")[:6])]
            tzo = m.group("tzo")
            if tzo:
                zone = 0 if tzo == "z" else _date_offset(tzo)
            elif nxt[0] == "num" and nxt[1][0] in "+-":
                zone = _date_offset(nxt[1].replace(" ", ""))  # GNU reads `12:30 +1` as a zone
                if zone is None:
                    return None
                k += 1
        elif kind == "num":
            n = int(value.replace(" ", ""))
            unit = _date_unit(nxt[1]) if nxt[0] == "word" else None
            if unit is not None:
                field, mult = _UNITS[unit]
                rel[field] += n * mult
                last_rel = (field, n * mult)
                k += 1
            elif nxt[0] == "word" and nxt[1] in ("am", "pm") and hms is None and value.isdigit():
                hms = [n, 0, 0, 0]  # `2pm`
            elif re.fullmatch(r"\d{8}", value) and ymd is None:
                ymd = (int(value[:4]), int(value[4:6]), int(value[6:]))
            elif value.isdigit():
                loose.append(n)
            else:
                return None
        elif kind == "word":
            w = value.rstrip(".")
            if w in ("now", "today"):
                pass
            elif w in ("yesterday", "tomorrow"):
                rel["days"] += -1 if w == "yesterday" else 1
            elif w in ("next", "last", "this"):
                ordinal = {"next": 1, "last": -1, "this": 0}[w]
                if nxt[0] != "word":
                    return None
            elif w == "ago":
                if last_rel is None:
                    return None
                rel[last_rel[0]] -= 2 * last_rel[1]
                last_rel = None
            elif w in ("utc", "gmt", "z"):
                zone = 0
            elif w in ("am", "pm"):
                if not hms or not 1 <= hms[0] <= 12:
                    return None
                hms[0] = hms[0] % 12 + (12 if w == "pm" else 0)
            elif _date_unit(w) is not None:
                field, mult = _UNITS[_date_unit(w)]
                n = 1 if ordinal is None else ordinal
                rel[field] += n * mult
                last_rel = (field, n * mult)
                ordinal = None
            elif _date_word(w, _WEEKDAYS, days_full) is not None:
                if weekday is not None:
                    return None
                weekday = (0 if ordinal is None else ordinal, _date_word(w, _WEEKDAYS, days_full))
                ordinal = None
            elif _date_word(w, _MONTHS, months_full) is not None:
                if month_word is not None or ymd:
                    return None
                month_word = _date_word(w, _MONTHS, months_full) + 1
            else:
                return None
        k += 1
    if month_word is not None:
        # `Mar 1 2024`, `1 Mar 2024`, `March 1, 2024`, `Mar 1` (this year)
        day = next((n for n in loose if n <= 31), None)
        year = next((n for n in loose if n > 31), None)
        if day is None or len(loose) > 2:
            return None
        ymd = (year if year is not None else datetime.datetime.now(tz).year, month_word, day)
    elif loose:
        return None
    now = datetime.datetime.now(tz)
    try:
        if ymd is None:
            ymd = (now.year, now.month, now.day)
            if hms is None and weekday is None:
                hms = [now.hour, now.minute, now.second, now.microsecond]
        elif weekday is not None:
            weekday = None  # GNU ignores a day of the week next to a calendar date
        hms = hms or [0, 0, 0, 0]
        base = datetime.datetime(*ymd, *hms)
        if weekday is not None:
            order, day = weekday
            w = base.weekday()
            base += datetime.timedelta(days=(day - w + 7) % 7 + 7 * (order - (order > 0 and w != day)))
        months = base.year * 12 + base.month - 1 + rel["months"]
        # mktime's normalization: Jan 31 + 1 month is Mar 2 (or 3)
        base = (datetime.datetime(months // 12, months % 12 + 1, 1, base.hour, base.minute, base.second, base.microsecond)
                + datetime.timedelta(days=base.day - 1 + rel["days"]))
        zone_info = tz if zone is None else datetime.timezone(datetime.timedelta(seconds=zone))
        moment = base.replace(tzinfo=zone_info)
        return (moment + datetime.timedelta(seconds=rel["seconds"])).astimezone(tz)
    except (ValueError, OverflowError):
        return None


def _date_unit(word):
    """`days` / `day` / `min` / `secs`: the unit's name in _UNITS, or None."""
    for name in (word, word[:-1] if word.endswith("s") else None):
        if name in _UNITS:
            return name
    return None


def _date_offset(text):
    """`+1`, `-05`, `+0200`, `+02:00` as seconds east of UTC, or None."""
    m = re.fullmatch(r"([+-])(\d{1,2})(?::?(\d{2}))?", text)
    if not m:
        return None
    sign = -1 if m.group(1) == "-" else 1
    return sign * (int(m.group(2)) * 3600 + int(m.group(3) or 0) * 60)


def sleep(ctx, args):
    total = 0.0
    for a in args:
        m = re.fullmatch(r"(\d*\.?\d+)([smhd]?)", a)
        if not m:
            raise Usage(f"invalid time interval '{a}'")
        total += float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[m.group(2)]
    time.sleep(total)
    return 0


def env(ctx, args):
    if args and args[0] not in ("-i", "-u") and "=" not in args[0]:
        return ctx.shell.call(args, _io_full(ctx))
    for name, value in sorted(ctx.env.items()):
        ctx.out.write(f"{name}={value}\n")
    return 0


def printenv(ctx, args):
    env_ = ctx.env
    if args:
        status = 0
        for a in args:
            if a in env_:
                ctx.out.write(env_[a] + "\n")
            else:
                status = 1
        return status
    for name, value in sorted(env_.items()):
        ctx.out.write(f"{name}={value}\n")
    return 0


def _io_full(ctx):
    from _cove_shell import IO

    return IO(ctx.stdin, ctx.out, ctx.err)


def expr(ctx, args):
    def value(tok):
        return int(tok) if re.fullmatch(r"-?\d+", tok) else tok

    toks = list(args)
    try:
        result = _expr_or(toks)
    except (IndexError, ValueError, ZeroDivisionError):
        ctx.err.write("expr: syntax error\n")
        return 2
    ctx.out.write(f"{result}\n")
    return 1 if result in (0, "", "0") else 0


def _expr_or(t):
    left = _expr_and(t)
    while t and t[0] == "|":
        t.pop(0)
        right = _expr_and(t)
        left = left if left not in (0, "") else right
    return left


def _expr_and(t):
    left = _expr_cmp(t)
    while t and t[0] == "&":
        t.pop(0)
        right = _expr_cmp(t)
        left = left if left not in (0, "") and right not in (0, "") else 0
    return left


def _expr_cmp(t):
    left = _expr_add(t)
    while t and t[0] in ("=", "!=", "<", ">", "<=", ">="):
        op = t.pop(0)
        right = _expr_add(t)
        a, b = left, right
        if not (isinstance(a, int) and isinstance(b, int)):
            a, b = str(a), str(b)
        left = int({"=": a == b, "!=": a != b, "<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op])
    return left


def _expr_add(t):
    left = _expr_mul(t)
    while t and t[0] in ("+", "-"):
        op = t.pop(0)
        right = _expr_mul(t)
        left = int(left) + int(right) if op == "+" else int(left) - int(right)
    return left


def _expr_mul(t):
    left = _expr_atom(t)
    while t and t[0] in ("*", "/", "%"):
        op = t.pop(0)
        right = int(_expr_atom(t))
        left = int(left)
        if op == "*":
            left = left * right
        elif op == "/":
            left = int(left / right)
        else:
            left = left - right * int(left / right)
    return left


def _expr_atom(t):
    tok = t.pop(0)
    if tok == "(":
        v = _expr_or(t)
        t.pop(0)
        return v
    if tok == "length":
        return len(str(t.pop(0)))
    if tok == "substr" and len(t) >= 3:
        text, pos, n = str(t.pop(0)), int(t.pop(0)), int(t.pop(0))
        return text[pos - 1:pos - 1 + n] if pos > 0 and n > 0 else ""
    if tok == "index" and len(t) >= 2:
        text, chars = str(t.pop(0)), str(t.pop(0))
        return min((text.index(c) + 1 for c in chars if c in text), default=0)
    if tok == "match" and len(t) >= 2:
        tok = t.pop(0)
        t.insert(0, ":")
    if t and t[0] == ":":
        t.pop(0)
        pat = t.pop(0)
        m = re.match(_bre_to_py(pat), tok)
        if not m:
            return 0 if not re.search(r"\\\(", pat) else ""
        return m.group(1) if m.groups() else m.end()
    return int(tok) if re.fullmatch(r"-?\d+", tok) else tok


def _hashsum(algo):
    def run(ctx, args):
        on, _, names = _opts(args, "cb", long_map={"check": "c"})
        data, status = _inputs(ctx, names, f"{algo}sum")
        for name, blob in data:
            ctx.out.write(f"{hashlib.new(algo, blob).hexdigest()}  {name}\n")
        return status

    return run


def base64(ctx, args):
    on, vals, names = _opts(args, "di", with_value="w", long_map={"decode": "d", "wrap": "w"})
    data, status = _inputs(ctx, names, "base64")
    blob = b"".join(d for _, d in data)
    if "d" in on:
        try:
            ctx.out.write(_b64.b64decode(b"".join(blob.split())))
        except ValueError:
            ctx.err.write("base64: invalid input\n")
            return 1
        return status
    enc = _b64.b64encode(blob).decode()
    width = int(vals.get("w", 76))
    if width:
        enc = "\n".join(enc[k:k + width] for k in range(0, len(enc), width))
    ctx.out.write(enc + "\n")
    return status


def yes(ctx, args):
    raise ShellError("yes: refused: it never ends without a process to kill it", 1)


def true_(ctx, args):
    return 0


def false_(ctx, args):
    return 1


def uname(ctx, args):
    if "-a" in args:
        ctx.out.write("Linux cove 6.0 #1 SMP wasm32 GNU/Linux\n")
    elif "-m" in args:
        ctx.out.write("wasm32\n")
    else:
        ctx.out.write("Linux\n")
    return 0


def whoami(ctx, args):
    ctx.out.write("user\n")
    return 0


def hostname(ctx, args):
    ctx.out.write("cove\n")
    return 0


def no_network(name):
    def run(ctx, args):
        if name in ("pip", "pip3") and args[:1] in (["list"], ["freeze"], ["show"]):
            return _pip_info(ctx, args)
        if name == "python" or name == "python3":
            return 127
        ctx.err.write(f"{name}: this sandbox has no network access; {name} cannot download or install anything. "
                      "The Python standard library is available.\n")
        return 1

    return run


def _pip_info(ctx, args):
    if args[0] == "show":
        ctx.err.write(f"WARNING: Package(s) not found: {', '.join(args[1:])}\n")
        return 1
    if args[0] == "list":
        ctx.out.write("Package Version\n------- -------\n")
    return 0


def python(ctx, args):
    host = ctx.shell.host
    if host is None:
        ctx.err.write("python: not available in this context\n")
        return 127
    return host.python(ctx, args)


def awk(ctx, args):
    import _cove_awk

    field_sep = None
    assigns = []
    program = None
    k = 0
    while k < len(args):
        a = args[k]
        if a == "--":
            k += 1
            break
        if a.startswith("-F"):
            if len(a) > 2:
                field_sep = a[2:]
            else:
                k += 1
                field_sep = args[k]
        elif a == "-v":
            k += 1
            name, _, value = args[k].partition("=")
            assigns.append((name, _echo_escapes(value)[0]))
        elif a.startswith("-v") and len(a) > 2:
            name, _, value = a[2:].partition("=")
            assigns.append((name, _echo_escapes(value)[0]))
        elif a == "-f":
            k += 1
            with open(args[k], encoding="utf-8") as f:
                program = f.read()
        elif a.startswith("-") and a != "-":
            raise Usage(f"unknown option {a}")
        else:
            break
        k += 1
    rest = args[k:]
    if program is None:
        if not rest:
            raise Usage("usage: awk [-F fs][-v var=value][prog | -f progfile][file ...]")
        program = rest.pop(0)
    operands = []
    for r in rest:
        if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*=.*", r):
            assigns.append(tuple(r.split("=", 1)))
        else:
            operands.append(r)
    data, status = _inputs(ctx, operands, "awk")
    inputs = [(name if name != "-" else "", _text(blob)) for name, blob in data]
    try:
        code = _cove_awk.run(program, inputs, _TextOut(ctx.out), _TextOut(ctx.err), field_sep, assigns)
    except _cove_awk.AwkError as exc:
        ctx.err.write(f"awk: {exc}\n")
        return 2
    return code or (2 if status else 0)


class _TextOut:
    def __init__(self, w):
        self.w = w

    def write(self, s):
        self.w.write(s)


def gzip_(ctx, args):
    import gzip as _gz

    on, _, names = _opts(args, "dckfv", long_map={"decompress": "d", "stdout": "c", "keep": "k"})
    status = 0
    if not names:
        ctx.out.write(_gz.decompress(ctx.stdin) if "d" in on else _gz.compress(ctx.stdin, mtime=0))
        return 0
    for name in names:
        try:
            data = _read(ctx, name)
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


def gunzip(ctx, args):
    return gzip_(ctx, ["-d", *args])


def zcat(ctx, args):
    return gzip_(ctx, ["-dc", *args])


def tar(ctx, args):
    import tarfile

    if args and not args[0].startswith("-"):
        args = ["-" + args[0], *args[1:]]
    on, vals, names = _opts(args, "cxtzvjf", with_value="C", long_map={"directory": "C"})
    archive = None
    if "f" in on:
        if not names:
            raise Usage("option requires an argument -- 'f'")
        archive = names.pop(0)
    if archive is None:
        raise Usage("refusing to use the terminal as an archive; give -f FILE")
    base = vals.get("C", ".")
    try:
        if "c" in on:
            with tarfile.open(archive, "w:gz" if "z" in on else "w", format=tarfile.GNU_FORMAT) as t:
                for n in names:
                    t.add(n)
                    if "v" in on:
                        for path, _ in _find_walk(n, None):
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
    raise Usage("you must specify one of the '-ctx' options")


def zip_(ctx, args):
    import zipfile

    on, _, names = _opts(args, "rqj")
    if len(names) < 2:
        raise Usage("usage: zip [-r] archive.zip files...")
    archive, files = names[0], names[1:]
    if not archive.endswith(".zip"):
        archive += ".zip"
    with zipfile.ZipFile(archive, "a" if os.path.exists(archive) else "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            if os.path.isdir(f) and "r" in on:
                for path, _ in _find_walk(f, None):
                    z.write(path)
                    if "q" not in on:
                        ctx.out.write(f"  adding: {path}{'/' if os.path.isdir(path) else ''} (stored 0%)\n")
            elif os.path.exists(f):
                z.write(f, os.path.basename(f) if "j" in on else f)
                if "q" not in on:
                    ctx.out.write(f"  adding: {f} (deflated)\n")
            else:
                ctx.err.write(f"zip warning: name not matched: {f}\n")
    return 0


def unzip(ctx, args):
    import zipfile

    on, vals, names = _opts(args, "loqnp", with_value="d")
    if not names:
        raise Usage("usage: unzip [-l] archive.zip [-d dir]")
    try:
        with zipfile.ZipFile(names[0]) as z:
            if "p" in on:  # members to stdout
                for info in z.infolist():
                    if not info.is_dir() and (len(names) == 1 or any(_fnmatch_case(info.filename, n) for n in names[1:])):
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
                    ctx.out.write(f"  inflating: {os.path.join(dest, info.filename) if dest != '.' else info.filename}\n")
    except FileNotFoundError:
        ctx.err.write(f"unzip:  cannot find or open {names[0]}\n")
        return 9
    except zipfile.BadZipFile:
        ctx.err.write(f"unzip:  {names[0]} is not a zip archive\n")
        return 9
    return 0


def sqlite3(ctx, args):
    import sqlite3 as _sql

    on, _, names = _opts(args, "", long_map={"header": "header", "csv": "csv", "json": "json"})
    flags = set(a.lstrip("-") for a in args if a.startswith("-"))
    names = [n for n in names]
    if not names:
        raise Usage("usage: sqlite3 DATABASE [SQL]")
    db = names[0]
    sql = " ".join(names[1:]) if len(names) > 1 else _text(ctx.stdin)
    sep = "," if "csv" in flags else "|"
    try:
        con = _sql.connect(db)
    except _sql.Error as exc:
        ctx.err.write(f"Error: {exc}\n")
        return 1
    try:
        for statement in [s for s in _split_sql(sql) if s.strip()]:
            stripped = statement.strip()
            if stripped.startswith("."):
                cmd = stripped.split()
                if cmd[0] == ".tables":
                    rows = con.execute("select name from sqlite_master where type='table' order by name").fetchall()
                    ctx.out.write("  ".join(r[0] for r in rows) + ("\n" if rows else ""))
                elif cmd[0] == ".schema":
                    for (text,) in con.execute("select sql from sqlite_master where sql is not null"):
                        ctx.out.write(text + ";\n")
                else:
                    ctx.err.write(f"Error: unknown command or invalid arguments: \"{cmd[0][1:]}\"\n")
                    return 1
                continue
            cur = con.execute(stripped)
            rows = cur.fetchall()
            if "json" in flags and cur.description:
                cols = [d[0] for d in cur.description]
                ctx.out.write(json.dumps([dict(zip(cols, r)) for r in rows]) + "\n")
                continue
            if "header" in flags and cur.description and rows:
                ctx.out.write(sep.join(d[0] for d in cur.description) + "\n")
            for r in rows:
                ctx.out.write(sep.join("" if v is None else str(v) for v in r) + "\n")
        con.commit()
    except _sql.Error as exc:
        ctx.err.write(f"Error: {exc}\n")
        return 1
    finally:
        con.close()
    return 0


def _split_sql(sql):
    parts, cur, quote = [], [], None
    for line in sql.splitlines(keepends=True):
        if not cur and line.strip().startswith(".") and quote is None:
            parts.append(line)
            continue
        for ch in line:
            cur.append(ch)
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch == ";":
                parts.append("".join(cur)[:-1])
                cur = []
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def jq(ctx, args):
    import _cove_jq

    return _cove_jq.main(ctx, args)


COMMANDS = {
    "echo": echo, "printf": printf, "cat": cat, "head": head, "tail": tail, "wc": wc, "ls": ls,
    "mkdir": mkdir, "rm": rm, "rmdir": rmdir, "cp": cp, "mv": mv, "touch": touch, "ln": ln,
    "chmod": chmod, "basename": basename, "dirname": dirname, "realpath": realpath,
    "readlink": readlink, "du": du, "df": df, "stat": stat, "file": file, "find": find,
    "xargs": xargs, "tee": tee, "grep": grep, "egrep": lambda c, a: grep(c, ["-E", *a]),
    "fgrep": lambda c, a: grep(c, ["-F", *a]), "sort": sort, "uniq": uniq, "cut": cut, "tr": tr,
    "sed": sed, "seq": seq, "nl": nl, "rev": rev, "tac": tac, "paste": paste, "column": column,
    "diff": diff, "cmp": cmp, "date": date, "sleep": sleep, "env": env, "printenv": printenv,
    "expr": expr, "md5sum": _hashsum("md5"), "sha1sum": _hashsum("sha1"),
    "sha256sum": _hashsum("sha256"), "base64": base64, "yes": yes, "uname": uname,
    "whoami": whoami, "hostname": hostname, "python": python, "python3": python,
    "awk": awk, "gawk": awk, "mawk": awk, "gzip": gzip_, "gunzip": gunzip, "zcat": zcat,
    "tar": tar, "zip": zip_, "unzip": unzip, "sqlite3": sqlite3, "jq": jq,
}
for _tool in ("pip", "pip3", "curl", "wget", "git", "apt-get", "apt", "npm", "npx", "yarn", "brew",
              "conda", "ssh", "scp", "nc", "ping", "sudo"):
    COMMANDS[_tool] = no_network(_tool)

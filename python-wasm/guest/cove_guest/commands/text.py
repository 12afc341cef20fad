"""Text commands: echo, printf, cat, head, tail, wc, uniq, cut, tr, seq, nl, rev,
tac, paste, column, tee."""

import re
from typing import Any

from cove_guest.text.errors import ShellError, UsageError
from cove_guest.text.escapes import echo_escapes, shell_quote
from cove_guest.text.inputs import decode, read_inputs, split_lines
from cove_guest.text.options import is_count_option, parse_count, parse_options


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
        text, stop = echo_escapes(text)
        if stop:
            ctx.out.write(text)
            return 0
    ctx.out.write(text + ("\n" if newline else ""))
    return 0


def printf(ctx, args):
    if args and args[0] == "-v":
        raise UsageError("-v is not supported")
    if not args:
        raise UsageError("usage: printf format [arguments]")
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
            text, _stop = echo_escapes(
                fmt[i : i + 2] if fmt[i + 1 : i + 2] != "0" else fmt[i : i + 5]
            )
            seg = fmt[i : i + 2]
            if fmt[i + 1 : i + 2] in ("0",):
                m = re.match(r"\\0[0-7]{0,3}", fmt[i:])
                assert m is not None  # fmt[i:] starts with \0, so this always matches
                seg = m.group(0)
                text = chr(int(seg[2:] or "0", 8))
            elif fmt[i + 1 : i + 2] == "x":
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
                out.append((spec + "s") % echo_escapes(arg or "")[0])
            elif conv == "q":
                out.append(shell_quote(arg or "''" if arg == "" else arg or ""))
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
    on, _, names = parse_options(
        args,
        "nAbsvET",
        long_map={
            "number": "n",
            "show-all": "A",
            "number-nonblank": "b",
            "squeeze-blank": "s",
            "show-ends": "E",
            "show-tabs": "T",
            "show-nonprinting": "v",
        },
    )
    if "A" in on:
        on |= {"v", "E", "T"}
    data, status = read_inputs(ctx, names, "cat")
    blob = b"".join(d for _, d in data)
    if "s" in on:
        blob = re.sub(rb"\n\n\n+", b"\n\n", blob)
    if on & {"v", "E", "T"}:
        blob = b"".join(_cat_visible(line, on) for line in split_lines(blob))
    if "n" in on or "b" in on:
        out = []
        k = 0
        for line in split_lines(blob):
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
        out.append(("-n" + a[1:]) if is_count_option(a) and not value_of else a)
    return out


def head(ctx, args):
    args = _legacy_counts(args)
    on, vals, names = parse_options(
        args, "qv", with_value="nc", long_map={"lines": "n", "bytes": "c", "quiet": "q"}
    )
    data, status = read_inputs(ctx, names, "head")
    for k, (name, blob) in enumerate(data):
        if len(data) > 1 and "q" not in on:
            ctx.out.write(
                ("\n" if k else "") + f"==> {name if name != '-' else 'standard input'} <==\n"
            )
        if "c" in vals:
            n = parse_count(vals["c"], "bytes")
            # -c -N: all but the last N bytes
            ctx.out.write(blob[:n] if n >= 0 else blob[: max(len(blob) + n, 0)])
            continue
        n = parse_count(vals.get("n", "10"), "lines")
        lines = split_lines(blob)
        ctx.out.write(b"".join(lines[:n] if n >= 0 else lines[: max(len(lines) + n, 0)]))
    return status


def tail(ctx, args):
    args = _legacy_counts(args)
    if args and re.fullmatch(r"\+\d+", args[0]):
        args = ["-n", args[0], *args[1:]]
    on, vals, names = parse_options(
        args, "qvf", with_value="nc", long_map={"lines": "n", "bytes": "c"}
    )
    data, status = read_inputs(ctx, names, "tail")
    for k, (name, blob) in enumerate(data):
        if len(data) > 1 and "q" not in on:
            ctx.out.write(("\n" if k else "") + f"==> {name} <==\n")
        if "c" in vals:
            spec = vals["c"]
            n = abs(parse_count(spec, "bytes"))
            if spec.startswith("+"):
                ctx.out.write(blob[max(n - 1, 0) :])  # from byte N on
            else:
                ctx.out.write(blob[-n:] if n else b"")
            continue
        spec = vals.get("n", "10")
        lines = split_lines(blob)
        n = abs(parse_count(spec, "lines"))
        if spec.startswith("+"):
            ctx.out.write(b"".join(lines[max(n - 1, 0) :]))
        else:
            ctx.out.write(b"".join(lines[-n:]) if n else b"")
    return status


def wc(ctx, args):
    on, _, names = parse_options(
        args,
        "lwcmL",
        long_map={"lines": "l", "words": "w", "bytes": "c", "chars": "m", "max-line-length": "L"},
    )
    if not on:
        on = {"l", "w", "c"}
    data, status = read_inputs(ctx, names, "wc")
    rows = []
    totals = [0, 0, 0, 0, 0]
    for name, blob in data:
        longest = max((len(ln.expandtabs(8)) for ln in decode(blob).split("\n")), default=0)
        counts = [blob.count(b"\n"), len(blob.split()), len(decode(blob)), len(blob), longest]
        totals = [a + b for a, b in zip(totals[:4], counts, strict=False)] + [
            max(totals[4], longest)
        ]
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


def tee(ctx, args):
    on, _, names = parse_options(args, "ai")
    mode = "ab" if "a" in on else "wb"
    for name in names:
        with open(name, mode) as f:
            f.write(ctx.stdin)
    ctx.out.write(ctx.stdin)
    return 0


def uniq(ctx, args):
    on, _vals, names = parse_options(args, "cdui", with_value="fs", long_map={"count": "c"})
    data, status = read_inputs(ctx, names[:1], "uniq")
    text = "".join(decode(d) for _, d in data)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    groups: list[list[Any]] = []  # [key, line, count]
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
    on, vals, names = parse_options(
        args,
        "s",
        with_value=("d", "f", "c", "b", "od"),
        long_map={
            "delimiter": "d",
            "fields": "f",
            "characters": "c",
            "complement": "complement",
            "output-delimiter": "od",
        },
    )
    if "f" not in vals and "c" not in vals and "b" not in vals:
        raise UsageError("you must specify a list of bytes, characters, or fields")
    data, status = read_inputs(ctx, names, "cut")
    text = "".join(decode(d) for _, d in data)
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
            ranges.append((int(a) if a else 1, int(b) if b else 10**9))

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
            runs: list[list[int]] = []
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
    on, _, sets = parse_options(args, "dscC")
    if not sets:
        raise UsageError("missing operand")
    src = _tr_set(sets[0])
    text = decode(ctx.stdin)
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
            raise UsageError("when not truncating set1, string2 must be non-empty")
        dst = dst + [dst[-1]] * (len(src) - len(dst))
        table = {ord(a): b for a, b in zip(src, dst, strict=False)}
        out = text.translate(table)
        if "s" in on:
            out = _squeeze(out, set(dst))
    elif "s" in on:
        out = _squeeze(text, set(src))
    else:
        raise UsageError("missing operand after set1")
    ctx.out.write(out)
    return 0


def _squeeze(text, chars):
    out: list[str] = []
    for ch in text:
        if out and out[-1] == ch and ch in chars:
            continue
        out.append(ch)
    return "".join(out)


def _tr_set(s):
    classes = {
        "[:lower:]": "abcdefghijklmnopqrstuvwxyz",
        "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "[:digit:]": "0123456789",
        "[:space:]": " \t\n\r\f\v",
        "[:blank:]": " \t",
        "[:alpha:]": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "[:alnum:]": "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
        "[:punct:]": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
    }
    out: list[str] = []
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
        raise UsageError("missing operand")
    try:
        vals_ = [float(x) if "." in x else int(x) for x in nums]
    except ValueError:
        raise UsageError(f"invalid floating point argument: '{nums[0]}'") from None
    first: float
    step: float
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
    if fmt is not None and not re.fullmatch(
        r"[^%]*(%%[^%]*)*%[-+ #0']*\d*(\.\d+)?[eEfgGaA]([^%]|%%)*", fmt
    ):
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
    _on, vals, names = parse_options(args, "", with_value="bwsv")
    data, status = read_inputs(ctx, names, "nl")
    text = "".join(decode(d) for _, d in data)
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
    data, status = read_inputs(ctx, args, "rev")
    text = "".join(decode(d) for _, d in data)
    lines = text.split("\n")
    trailing = lines and lines[-1] == ""
    if trailing:
        lines.pop()
    ctx.out.write("".join(ln[::-1] + "\n" for ln in lines))
    return status


def tac(ctx, args):
    data, status = read_inputs(ctx, args, "tac")
    for _, blob in data:
        ctx.out.write(b"".join(reversed(split_lines(blob))))
    return status


def paste(ctx, args):
    on, vals, names = parse_options(args, "s", with_value="d")
    delims = vals.get("d", "\t") or ""
    data, status = read_inputs(ctx, names, "paste")
    columns = []
    for _, blob in data:
        lines = decode(blob).split("\n")
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
    on, vals, names = parse_options(args, "tn", with_value="so")
    data, status = read_inputs(ctx, names, "column")
    text = "".join(decode(d) for _, d in data)
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

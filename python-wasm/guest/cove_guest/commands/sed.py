"""sed: s with flags, d p q = a i c y, line, `$` and regex addresses, ranges, `!`."""

import re
from typing import Any

from cove_guest.text.errors import UsageError
from cove_guest.text.inputs import decode, read_inputs, read_operand
from cove_guest.text.options import parse_options, repeated_values
from cove_guest.text.patterns import bre_to_re, ere_to_re


def sed(ctx, args):
    on, _vals, rest = parse_options(
        args,
        "nEri",
        with_value="e",
        long_map={"quiet": "n", "regexp-extended": "E", "in-place": "i"},
    )
    scripts = repeated_values(args, "-e")
    if not scripts:
        if not rest:
            raise UsageError("no script specified")
        scripts.append(rest.pop(0))
    program = _sed_parse(
        ";".join(scripts) if len(scripts) > 1 else scripts[0], extended=bool({"E", "r"} & on)
    )
    files = rest
    if "i" in on:
        status = 0
        for name in files:
            try:
                data = decode(read_operand(ctx, name))
            except OSError:
                ctx.err.write(f"sed: can't read {name}: No such file or directory\n")
                status = 2
                continue
            with open(name, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(_sed_run(program, data, "n" in on))
        return status
    data, status = read_inputs(ctx, files, "sed")
    text = "".join(decode(d) for _, d in data)
    ctx.out.write(_sed_run(program, text, "n" in on))
    return 2 if status else 0


def _sed_parse(script, extended):
    cmds: list[tuple[Any, Any, bool, str, Any]] = []  # (addr1, addr2, negate, command, argument)
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
            rx = script[i + 1 : j]
            return ("re", re.compile(ere_to_re(rx) if extended else bre_to_re(rx))), j + 1
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
            parts: list[str] = []
            j = i + 1
            cur = []
            while j < n and len(parts) < 2:
                if script[j] == "\\" and j + 1 < n:
                    if script[j + 1] == delim:
                        cur.append(delim)
                    else:
                        cur.append(script[j : j + 2])
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
                raise UsageError(f"-e expression #1, char {j}: unterminated `s' command")
            m = re.match(r"[gpiI0-9]*", script[j:])
            assert m is not None  # `*` always matches
            flags = m.group(0)
            j += len(flags)
            pat = ere_to_re(parts[0]) if extended else bre_to_re(parts[0])
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
            parts = script[i + 1 :].split(delim)
            cmds.append((a1, a2, negate, "y", str.maketrans(parts[0], parts[1])))
            i = i + 1 + len(parts[0]) + 1 + len(parts[1]) + 1
        else:
            raise UsageError(f"-e expression #1, char {i}: unknown command: `{cmd}'")
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
    active: dict[int, bool] = {}
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
                        new = line[: m.start()] + m.expand(rep) + line[m.end() :]
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

"""grep (and egrep/fgrep through options): BRE, ERE and fixed strings, context,
counts, recursion."""

import os
import re

from cove_guest.shell.io import Context
from cove_guest.text.errors import UsageError, os_message
from cove_guest.text.inputs import decode, read_operand, walk_tree
from cove_guest.text.options import long_values, parse_options, repeated_values
from cove_guest.text.patterns import bre_to_re, ere_to_re, fnmatch


def grep(ctx: Context, args: list[str]) -> int:
    on, vals, rest = parse_options(
        args,
        "nivclLrRwoEFqshHxzP",
        with_value="eABCmf",
        long_map={
            "include": "include",
            "exclude": "exclude",
            "color": "color",
            "colour": "color",
            "line-number": "n",
            "ignore-case": "i",
            "invert-match": "v",
            "count": "c",
            "files-with-matches": "l",
            "recursive": "r",
            "word-regexp": "w",
            "only-matching": "o",
            "extended-regexp": "E",
            "fixed-strings": "F",
            "quiet": "q",
            "silent": "q",
            "no-filename": "h",
            "with-filename": "H",
        },
    )
    patterns = repeated_values(args, "-e")
    pattern_files = repeated_values(args, "-f") + long_values(args, "--file")
    for path in pattern_files:
        # -f FILE: one pattern per line ("-": stdin); an empty file adds none.
        try:
            text = decode(read_operand(ctx, path))
        except OSError as exc:
            ctx.err.write(f"grep: {path}: {os_message(exc)}\n")
            return 2
        patterns.extend(text.removesuffix("\n").split("\n") if text else [])
    if patterns or pattern_files:
        pass
    elif rest:
        patterns.append(rest.pop(0))
    else:
        raise UsageError("usage: grep [OPTION]... PATTERNS [FILE]...")
    files = rest
    flags = re.I if "i" in on else 0
    rx_parts = []
    for p in "\n".join(patterns).split("\n") if patterns else []:
        if "F" in on:
            part = re.escape(p)
        elif "E" in on or "P" in on:
            part = ere_to_re(p)
        else:
            part = bre_to_re(p)
        if "w" in on:
            part = r"(?<![\w])(?:" + part + r")(?![\w])"
        if "x" in on:
            part = r"^(?:" + part + r")$"
        rx_parts.append(part)
    try:
        # No pattern at all (an empty -f file) matches no line.
        rx = re.compile("|".join(f"(?:{p})" for p in rx_parts) or "(?!)", flags)
    except re.error as exc:
        ctx.err.write(f"grep: {exc}\n")
        return 2
    recursive = bool({"r", "R"} & on)
    include = long_values(args, "--include")
    exclude = long_values(args, "--exclude")
    targets = []
    status = 0
    if recursive:
        for f in files or ["."]:
            if os.path.isdir(f):
                for path, _ in walk_tree(f, None):
                    if os.path.isfile(path):
                        base = os.path.basename(path)
                        if include and not any(fnmatch(base, g) for g in include):
                            continue
                        if exclude and any(fnmatch(base, g) for g in exclude):
                            continue
                        shown = (
                            path[2:] if f == "." and path.startswith("./") and not files else path
                        )
                        targets.append(shown)
            else:
                targets.append(f)

    else:
        targets = files or ["-"]
    show_name = ("H" in on) or ((len(targets) > 1 or recursive) and "h" not in on)
    matched_any = False
    before = int(vals.get("B", vals.get("C", "0")))
    after = int(vals.get("A", vals.get("C", "0")))
    maxcount = int(vals["m"]) if "m" in vals else None
    for name in targets:
        try:
            data = read_operand(ctx, name)
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
            if any(rx.search(decode(line)) for line in data.split(b"\n")) != ("v" in on):
                matched_any = True
                if "q" in on:
                    return 0
                if "l" in on:
                    ctx.out.write(label + "\n")
                elif "c" not in on:
                    ctx.out.write(f"Binary file {label} matches\n")
            continue
        text = decode(data)
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
                            ctx.out.write(
                                _grep_line(label, idx, m.group(0), show_name, "n" in on, ":")
                            )
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


def _grep_line(label: str, idx: int, line: str, show_name: bool, numbers: bool, sep: str) -> str:
    prefix = (label + sep if show_name else "") + (f"{idx + 1}{sep}" if numbers else "")
    return prefix + line + "\n"

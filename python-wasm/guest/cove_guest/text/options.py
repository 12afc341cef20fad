"""Command-line option parsing for the commands, GNU style: bundled short flags, flags
with values (attached or separate), long options through a map, and `--`.
"""

import re

from cove_guest.text.errors import ShellError, UsageError


def parse_options(args, flags, with_value=(), long_map=None):
    """Parse short flags (bundled), flags with values, and `--`; returns (set, values, rest)."""
    on, values, rest = set(), {}, []
    i = 0
    long_map = long_map or {}
    while i < len(args):
        a = args[i]
        if a == "--":
            rest.extend(args[i + 1 :])
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
            raise UsageError(f"unrecognized option '{a}'")
        if a.startswith("-") and len(a) > 1:
            j = 1
            while j < len(a):
                ch = a[j]
                if ch in with_value:
                    val = a[j + 1 :]
                    if not val:
                        i += 1
                        if i >= len(args):
                            raise UsageError(f"option requires an argument -- '{ch}'")
                        val = args[i]
                    values[ch] = val
                    break
                if ch not in flags:
                    raise UsageError(f"invalid option -- '{ch}'")
                on.add(ch)
                j += 1
            i += 1
            continue
        rest.append(a)
        i += 1
    return on, values, rest


def is_count_option(a):
    return bool(re.fullmatch(r"-\d+", a))


def parse_count(spec, what):
    try:
        return int(spec)
    except ValueError:
        raise ShellError(f"invalid number of {what}: '{spec}'") from None


def repeated_values(args, flag):
    """Every value of a short option that may repeat (grep -e, sed -e)."""
    out = []
    for k, a in enumerate(args):
        if a == "--":
            break
        if a == flag and k + 1 < len(args):
            out.append(args[k + 1])
        elif a.startswith(flag) and len(a) > len(flag) and not a.startswith("--"):
            out.append(a[len(flag) :])
    return out


def long_values(args, name):
    out = []
    for k, a in enumerate(args):
        if a.startswith(name + "="):
            out.append(a.split("=", 1)[1])
        elif a == name and k + 1 < len(args):
            out.append(args[k + 1])
    return out

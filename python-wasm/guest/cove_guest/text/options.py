"""Command-line option parsing for the commands, GNU style: bundled short flags, flags
with values (attached or separate), long options through a map, and `--`.
"""

import re
from collections.abc import Collection, Mapping

from cove_guest.text.errors import ShellError, UsageError


def parse_options(
    args: list[str],
    flags: Collection[str],
    with_value: Collection[str] = (),
    long_map: Mapping[str, str] | None = None,
) -> tuple[set[str], dict[str, str], list[str]]:
    """Parse short flags (bundled), flags with values, and `--`; returns (set, values, rest)."""
    on: set[str] = set()
    values: dict[str, str] = {}
    rest: list[str] = []
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


def is_count_option(a: str) -> bool:
    """Whether `a` is head's and tail's old `-N` form."""
    return bool(re.fullmatch(r"-\d+", a))


def parse_count(spec: str, what: str) -> int:
    """`spec` as a count of `what` (lines, bytes), or the error GNU gives."""
    try:
        return int(spec)
    except ValueError:
        raise ShellError(f"invalid number of {what}: '{spec}'") from None


def repeated_values(args: list[str], flag: str) -> list[str]:
    """Every value of a short option that may repeat (grep -e, sed -e)."""
    out: list[str] = []
    for k, a in enumerate(args):
        if a == "--":
            break
        if a == flag and k + 1 < len(args):
            out.append(args[k + 1])
        elif a.startswith(flag) and len(a) > len(flag) and not a.startswith("--"):
            out.append(a[len(flag) :])
    return out


def long_values(args: list[str], name: str) -> list[str]:
    """Every value of a long option that may repeat (`--name=v` or `--name v`)."""
    out: list[str] = []
    for k, a in enumerate(args):
        if a.startswith(name + "="):
            out.append(a.split("=", 1)[1])
        elif a == name and k + 1 < len(args):
            out.append(args[k + 1])
    return out


def getopt(
    args: list[str], spec: str, longs: dict[str, tuple[str, int]] | None = None
) -> tuple[list[tuple[str, str | None]], list[str]]:
    """GNU getopt_long, options kept in order (for those that repeat or accumulate).

    `spec` is getopt's optstring: a letter, then `:` when it takes a value, `::` when the value
    is optional (attached only: `-i.bak`); a leading `+` stops at the first operand (xargs's
    command), as POSIXLY_CORRECT does. `longs` maps a long name to (key, arity): 0 no
    value, 1 a value (`--name=v` or `--name v`), 2 an optional one (`--name=v` only); an
    unambiguous prefix of a long name is accepted, as getopt_long does. Operands may come
    anywhere (GNU permutes them); `--` ends the options. Returns ([(key, value)], operands).
    """
    arity: dict[str, int] = {}
    in_order = spec.startswith("+")
    k = 1 if in_order else 0
    while k < len(spec):
        colons = len(spec[k + 1 :]) - len(spec[k + 1 :].lstrip(":"))
        arity[spec[k]] = min(colons, 2)
        k += 1 + colons
    longs = longs or {}
    opts: list[tuple[str, str | None]] = []
    operands: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            operands.extend(args[i:])
            break
        if a.startswith("--"):
            name, eq, val = a[2:].partition("=")
            matches = [n for n in longs if n.startswith(name)]
            if name in longs:
                matches = [name]
            if not matches:
                raise UsageError(f"unrecognized option '{a}'")
            if len({longs[n] for n in matches}) > 1:
                raise UsageError(
                    f"option '{a}' is ambiguous; possibilities:"
                    + "".join(f" '--{n}'" for n in matches)
                )
            key, takes = longs[matches[0]]
            if takes == 0 and eq:
                raise UsageError(f"option '--{matches[0]}' doesn't allow an argument")
            if takes == 1 and not eq:
                if i >= len(args):
                    raise UsageError(f"option '--{matches[0]}' requires an argument")
                val = args[i]
                i += 1
            opts.append((key, val if (eq or takes == 1) else None))
            continue
        if not a.startswith("-") or a == "-":
            operands.append(a)
            if in_order:
                operands.extend(args[i:])
                break
            continue
        j = 1
        while j < len(a):
            ch = a[j]
            j += 1
            if ch not in arity or ch == ":":
                raise UsageError(f"invalid option -- '{ch}'")
            if arity[ch] == 0:
                opts.append((ch, None))
                continue
            val = a[j:]
            if not val and arity[ch] == 1:
                if i >= len(args):
                    raise UsageError(f"option requires an argument -- '{ch}'")
                val = args[i]
                i += 1
            opts.append((ch, val if (val or arity[ch] == 1) else None))
            break
    return opts, operands

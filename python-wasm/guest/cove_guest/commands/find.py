"""find (tests, actions on their own branch, -exec … ; and -exec … +) and xargs:
the commands that run other commands through the shell."""

import os
import re
import time
from collections.abc import Callable

from cove_guest.shell.io import IO, Context, command_io
from cove_guest.text.errors import ShellError, UsageError, os_message
from cove_guest.text.inputs import decode, read_operand, walk_tree
from cove_guest.text.options import getopt
from cove_guest.text.patterns import bre_to_re, fnmatch


def find(ctx: Context, args: list[str]) -> int:
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
        for path, depth in walk_tree(root, maxdepth, state):
            if depth < mindepth:
                continue
            state.prune = False
            if test(path) and not acted:
                ctx.out.write(path + "\n")
    for flush in state.flushers:
        flush()
    return 1 if status or state.failed else 0


# A test or an action of find's expression, over one path.
Predicate = Callable[[str], bool]


def _either(a: Predicate, b: Predicate) -> Predicate:
    return lambda p: a(p) or b(p)


def _both(a: Predicate, b: Predicate) -> Predicate:
    return lambda p: a(p) and b(p)


def _then(a: Predicate, b: Predicate) -> Predicate:
    """`a , b`: both run, the value is b's."""
    return lambda p: (a(p), b(p))[1]


class _FindState:
    """What find's predicates share during one run: the context, the start time, whether the
    current path is pruned, the pending `-exec … +` batches, and whether an action failed."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.now = time.time()
        self.prune = False
        self.flushers: list[Callable[[], None]] = []
        self.failed = False


def _find_age(spec: str, unit: int, state: _FindState, stamp: Callable[[str], float]) -> Predicate:
    m = re.fullmatch(r"([+-]?)(\d+)", spec)
    if not m:
        raise UsageError(f"invalid argument `{spec}'")
    sign, n = m.group(1), int(m.group(2))

    def t(p: str) -> bool:
        try:
            age = int((state.now - stamp(p)) // unit)
        except OSError:
            return False
        return age > n if sign == "+" else age < n if sign == "-" else age == n

    return t


def _find_exec(cmd: list[str], batch: bool, in_dir: bool, state: _FindState) -> Predicate:
    """`-exec CMD {} ;` (a test: true when CMD succeeds) or `-exec CMD {} +` (always true; CMD
    runs once at the end with every path, and a failure makes find's status 1)."""
    ctx = state.ctx

    def argv_for(p: str) -> list[str]:
        return [p if a == "{}" else a.replace("{}", p) for a in cmd]

    def call(argv: list[str], cwd: str | None = None) -> int:
        old = os.getcwd() if cwd else None
        try:
            if cwd:
                os.chdir(cwd)
            return ctx.shell.call(argv, command_io(ctx))
        finally:
            if old:
                os.chdir(old)

    def local(p: str) -> tuple[str, str]:
        return os.path.dirname(p) or ".", "./" + os.path.basename(p)

    if not batch:

        def run(p: str) -> bool:
            if in_dir:
                cwd, name = local(p)
                return call(argv_for(name), cwd) == 0
            return call(argv_for(p)) == 0

        return run
    pending: list[str] = []

    def flush() -> None:
        if not pending:
            return
        at = cmd.index("{}")
        groups: dict[str | None, list[str]] = {}
        for p in pending:
            cwd, name = local(p) if in_dir else (None, p)
            groups.setdefault(cwd, []).append(name)
        for cwd, names in groups.items():
            for k in range(0, len(names), 5000):
                if call(cmd[:at] + names[k : k + 5000] + cmd[at + 1 :], cwd) != 0:
                    state.failed = True
        pending.clear()

    state.flushers.append(flush)

    def collect(p: str) -> bool:
        pending.append(p)
        return True

    return collect


def _find_parse(expr: list[str], state: _FindState) -> tuple[Predicate, int | None, int, bool]:
    """The expression as one predicate over paths (actions are predicates with effects), the
    depth limits, and whether it contains an action (if not, bash's implicit -print)."""
    maxdepth: int | None = None
    mindepth = 0
    acted = False
    tokens = list(expr)
    ctx = state.ctx

    def parse_or(i: int) -> tuple[Predicate, int]:
        left, i = parse_and(i)
        while i < len(tokens) and tokens[i] in ("-o", "-or"):
            right, i = parse_and(i + 1)
            left = _either(left, right)
        return left, i

    def parse_and(i: int) -> tuple[Predicate, int]:
        left, i = parse_not(i)
        while i < len(tokens) and tokens[i] not in ("-o", "-or", ")", ","):
            if tokens[i] in ("-a", "-and"):
                i += 1
            right, i = parse_not(i)
            left = _both(left, right)
        return left, i

    def parse_not(i: int) -> tuple[Predicate, int]:
        if i < len(tokens) and tokens[i] in ("!", "-not"):
            inner, i = parse_not(i + 1)
            return (lambda p: not inner(p)), i
        return parse_primary(i)

    def arg(i: int) -> str:
        if i + 1 >= len(tokens):
            raise UsageError(f"missing argument to `{tokens[i]}'")
        return tokens[i + 1]

    def parse_primary(i: int) -> tuple[Predicate, int]:
        nonlocal maxdepth, mindepth, acted
        if i >= len(tokens):
            raise UsageError("expected an expression after `" + (tokens[i - 1] if i else "") + "'")
        tok = tokens[i]
        if tok == "(":
            inner, i = parse_or(i + 1)
            if i >= len(tokens) or tokens[i] != ")":
                raise UsageError(
                    "invalid expression; "
                    "I was expecting to find a ')' somewhere but did not see one."
                )
            return inner, i + 1
        if tok in ("-name", "-iname", "-path", "-ipath", "-wholename"):
            pat = arg(i)
            fold = tok in ("-iname", "-ipath")
            whole = tok in ("-path", "-ipath", "-wholename")

            def t(p: str, pat: str = pat) -> bool:
                subject = p if whole else os.path.basename(p.rstrip("/")) or p
                return fnmatch(subject.lower() if fold else subject, pat.lower() if fold else pat)

            return t, i + 2
        if tok in ("-regex", "-iregex"):
            rx = re.compile(bre_to_re(arg(i)), re.I if tok == "-iregex" else 0)
            return (lambda p: rx.fullmatch(p) is not None), i + 2
        if tok in ("-type", "-xtype"):
            kinds = arg(i).split(",")
            checks = {
                "f": lambda p: os.path.isfile(p) and not os.path.islink(p),
                "d": lambda p: os.path.isdir(p) and not os.path.islink(p),
                "l": os.path.islink,
            }
            for kind in kinds:
                if kind not in checks:
                    raise UsageError(f"Unknown argument to -type: {kind}")
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
                raise UsageError(f"invalid argument `{spec}' to `-size'")
            sign, num, unit = m.groups()
            mult = {"c": 1, "k": 1024, "M": 1024**2, "G": 1024**3, "b": 512, "": 512}[unit]
            n = int(num)

            def t_size(p: str) -> bool:
                if os.path.isdir(p) or not os.path.exists(p):
                    size = 4096 if os.path.isdir(p) else 0
                else:
                    size = os.path.getsize(p)
                units = -(-size // mult)
                return units > n if sign == "+" else units < n if sign == "-" else units == n

            return t_size, i + 2
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
            return (
                lambda p: (
                    (os.path.isdir(p) and not os.path.islink(p) and not os.listdir(p))
                    or (os.path.isfile(p) and not os.path.islink(p) and os.path.getsize(p) == 0)
                )
            ), i + 1
        if tok in ("-true", "-false"):
            return (lambda p, v=tok == "-true": v), i + 1
        if tok == "-prune":

            def prune(p: str) -> bool:
                state.prune = True
                return True

            return prune, i + 1
        if tok == "-quit":
            raise UsageError("-quit is not supported")
        if tok in ("-print", "-print0"):
            acted = True
            end = "\n" if tok == "-print" else "\0"

            def show(p: str) -> bool:
                ctx.out.write(p + end)
                return True

            return show, i + 1
        if tok == "-delete":
            acted = True

            def delete(p: str) -> bool:
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
            cmd: list[str] = []
            while j < len(tokens) and tokens[j] not in (";", "+"):
                cmd.append(tokens[j])
                j += 1
            if j >= len(tokens) or not cmd:
                raise UsageError(f"missing argument to `{tok}'")
            batch = tokens[j] == "+"
            if batch and (cmd[-1] != "{}" or cmd.count("{}") != 1):
                raise UsageError(f"missing argument to `{tok}'")
            return _find_exec(cmd, batch, tok.endswith("dir"), state), j + 1
        raise UsageError(f"unknown predicate `{tok}'")

    if not tokens:
        return (lambda p: True), None, 0, False
    test, i = parse_or(0)
    while i < len(tokens) and tokens[i] == ",":
        right, i = parse_or(i + 1)
        test = _then(test, right)
    if i != len(tokens):
        if tokens[i] == ")":
            raise UsageError("invalid expression; you have too many ')'")
        raise UsageError(f"paths must precede expression: `{tokens[i]}'")
    return test, maxdepth, mindepth, acted


def xargs(ctx: Context, args: list[str]) -> int:
    opts, cmd = getopt(
        args,
        "+0a:d:E:e::I:i::L:l::n:P:prs:tx",
        {
            "null": ("0", 0),
            "arg-file": ("a", 1),
            "delimiter": ("d", 1),
            "eof": ("e", 2),
            "replace": ("i", 2),
            "max-lines": ("l", 2),
            "max-args": ("n", 1),
            "max-procs": ("P", 1),
            "no-run-if-empty": ("r", 0),
            "max-chars": ("s", 1),
            "verbose": ("t", 0),
            "exit": ("x", 0),
            "interactive": ("p", 0),
        },
    )
    on: set[str] = set()
    sep: str | None = None
    eof: str | None = None
    replace: str | None = None
    max_args = max_lines = 0
    arg_file: str | None = None
    for key, val in opts:
        if key == "0":
            sep = "\0"
        elif key == "d":
            sep = _xargs_delimiter(val or "")
        elif key in ("E", "e"):
            eof = val or None
        elif key in ("I", "i"):
            replace = val or "{}"
            max_args = max_lines = 0
        elif key in ("L", "l", "n"):
            number = val or ("1" if key == "l" else "")
            if not re.fullmatch(r"\d+", number) or int(number) < 1:
                option = "-n" if key == "n" else "-L"
                raise UsageError(f"value {number} for {option} option should be >= 1")
            if key == "n":
                max_args, max_lines = int(number), 0
            else:
                max_lines, max_args = int(number), 0
            replace = None
        elif key == "a":
            arg_file = val or ""
        elif key == "p":
            raise UsageError("-p (interactive) is not supported: there is no terminal")
        else:
            on.add(key)  # -P, -s and -x change nothing here: commands run one at a time
    cmd = cmd or ["echo"]
    if arg_file is not None:
        try:
            data = decode(read_operand(ctx, arg_file))
        except OSError as exc:
            raise ShellError(f"{arg_file}: {os_message(exc)}") from None
    else:
        data = decode(ctx.stdin)
    if sep is not None:
        items = data.split(sep)
        if items and items[-1] == "":
            items.pop()
        groups = [[item] for item in items]
        if replace is None and not max_lines:
            groups = [items] if items else []
    elif replace is not None:
        groups = [[line.lstrip(" \t")] for line in data.split("\n") if line.strip(" \t")]
    else:
        by_line = _xargs_lines(ctx, data, eof)
        if by_line is None:
            return 1
        groups = by_line
        if not max_lines:
            groups = [[item for line in groups for item in line]] if groups else []
    # the runs: -I one per line, -L N lines, -n N arguments, else all at once
    if replace is not None:
        runs = [[a.replace(replace, group[0]) for a in cmd] for group in groups]
    elif max_lines:
        runs = [
            cmd + [item for line in groups[k : k + max_lines] for item in line]
            for k in range(0, len(groups), max_lines)
        ]
    else:
        items = groups[0] if groups else []
        step = max_args or max(len(items), 1)
        runs = [cmd + items[k : k + step] for k in range(0, len(items), step)]
    if not runs and "r" not in on and replace is None:
        runs = [list(cmd)]
    status = 0
    io_ = IO(ctx.stdin if arg_file is not None else b"", ctx.out, ctx.err)
    for argv in runs:
        if "t" in on:
            ctx.err.write(" ".join(argv) + "\n")
        rc = ctx.shell.call(argv, io_)
        if rc == 127:
            return 127
        if rc == 255:
            ctx.err.write(f"xargs: {argv[0]}: exited with status 255; aborting\n")
            return 124
        if rc:
            status = 123
    return status


def _xargs_delimiter(spec: str) -> str:
    """-d's delimiter: one character, or an escape (`\\n`, `\\t`, `\\0`, octal, `\\xHH`)."""
    if len(spec) == 1:
        return spec
    m = re.fullmatch(r"\\(?:([abfnrtv\\])|([0-7]{1,3})|x([0-9a-fA-F]{1,2}))", spec)
    if not m:
        raise ShellError(
            f"invalid input delimiter specification {spec}: the delimiter must be"
            " either a single character or an escape sequence starting with \\."
        )
    if m.group(1):
        return {
            "a": "\a",
            "b": "\b",
            "f": "\f",
            "n": "\n",
            "r": "\r",
            "t": "\t",
            "v": "\v",
            "\\": "\\",
        }[m.group(1)]
    return chr(int(m.group(2), 8) if m.group(2) else int(m.group(3), 16))


def _xargs_lines(ctx: Context, data: str, eof: str | None) -> list[list[str]] | None:
    """The items of xargs's default input, by line: blanks separate, quotes group (without
    escapes inside), a backslash escapes, a line ending in a blank goes on; blank lines are
    skipped and an item equal to the -E string ends the input. None after an unmatched quote
    (reported)."""
    lines: list[list[str]] = []
    current: list[str] = []
    item: list[str] | None = None
    i, n = 0, len(data)
    while i < n:
        c = data[i]
        if c in "'\"":
            end = data.find(c, i + 1)
            newline = data.find("\n", i + 1)
            if end < 0 or (0 <= newline < end):
                kind = "single" if c == "'" else "double"
                ctx.err.write(
                    f"xargs: unmatched {kind} quote; by default quotes are special to xargs"
                    " unless you use the -0 option\n"
                )
                return None
            item = (item or []) + [data[i + 1 : end]]
            i = end + 1
            continue
        if c == "\\" and i + 1 < n:
            item = (item or []) + [data[i + 1]]
            i += 2
            continue
        if c in " \t\n":
            if item is not None:
                word = "".join(item)
                if eof is not None and word == eof:
                    break
                current.append(word)
                item = None
            # a line whose last character is a blank goes on to the next
            if c == "\n" and current and (i == 0 or data[i - 1] not in " \t"):
                lines.append(current)
                current = []
            i += 1
            continue
        item = (item or []) + [c]
        i += 1
    else:
        if item is not None:
            word = "".join(item)
            if eof is None or word != eof:
                current.append(word)
    if current:
        lines.append(current)
    return lines

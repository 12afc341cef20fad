"""diff (normal and unified, recursive) and cmp."""

import datetime
import difflib
import os
import re
from collections.abc import Sequence

from cove_guest.shell.io import Context
from cove_guest.text.errors import UsageError, os_message
from cove_guest.text.inputs import decode, read_operand
from cove_guest.text.options import parse_count, parse_options


def diff(ctx: Context, args: list[str]) -> int:
    labels, rest, switches = [], [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--label" and i + 1 < len(args):
            labels.append(args[i + 1])
            switches += args[i : i + 2]
            i += 2
            continue
        if a.startswith("--label="):
            labels.append(a[8:])
        elif a.startswith("--unified=") or (a.startswith("-U") and a[2:].isdigit()):
            rest.append("-U" + a.split("=", 1)[-1].lstrip("-U"))
        elif a == "--":
            rest += args[i:]
            break
        else:
            rest.append(a)
        if a.startswith("-") and a != "-":
            switches.append(a)
        i += 1
    on, vals, names = parse_options(
        rest,
        "uqrNwiBbsa",
        with_value="U",
        long_map={
            "unified": "u",
            "brief": "q",
            "recursive": "r",
            "new-file": "N",
            "ignore-all-space": "w",
            "ignore-case": "i",
            "ignore-blank-lines": "B",
            "ignore-space-change": "b",
            "report-identical-files": "s",
            "text": "a",
        },
    )
    if len(names) != 2:
        raise UsageError(f"missing operand after '{names[-1]}'" if names else "missing operand")
    if "U" in vals:
        on.add("u")
    context = parse_count(vals.get("U", "3"), "context lines")
    run = _Diff(
        ctx, on, context, labels, "diff " + " ".join(switches) + " " if switches else "diff "
    )
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


# difflib's opcodes: (tag, i1, i2, j1, j2).
_Opcode = tuple[str, int, int, int, int]


def _diff_join(d: str, name: str) -> str:
    return d + name if d.endswith("/") else d + "/" + name


class _Diff:
    """One diff run: files, directories (recursively with -r), in normal, unified or brief form;
    status 0 (same), 1 (different), 2 (trouble)."""

    def __init__(
        self, ctx: Context, on: set[str], context: int, labels: list[str], header: str
    ) -> None:
        self.ctx, self.on, self.context, self.labels, self.header = ctx, on, context, labels, header
        self.status = 0

    def read(self, name: str | None) -> bytes | None:
        if name is None:
            return b""
        try:
            return read_operand(self.ctx, name)
        except OSError as exc:
            self.ctx.err.write(f"diff: {name}: {os_message(exc)}\n")
            self.status = 2
            return None

    def key(self, line: str) -> str:
        if "w" in self.on:
            line = re.sub(r"\s+", "", line)
        elif "b" in self.on:
            line = re.sub(r"[ \t]+", " ", line).rstrip(" \t\n") + "\n"
        return line.lower() if "i" in self.on else line

    def files(
        self, a: str, b: str, in_dir: bool = False, a_exists: bool = True, b_exists: bool = True
    ) -> None:
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
        lt, rt = decode(left).splitlines(keepends=True), decode(right).splitlines(keepends=True)
        ops = difflib.SequenceMatcher(
            None, [self.key(x) for x in lt], [self.key(x) for x in rt], autojunk=False
        ).get_opcodes()
        changed = [
            op
            for op in ops
            if op[0] != "equal"
            and not (
                "B" in self.on and all(not x.strip() for x in lt[op[1] : op[2]] + rt[op[3] : op[4]])
            )
        ]
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

    def normal(self, lt: list[str], rt: list[str], ops: Sequence[_Opcode]) -> None:
        out = self.ctx.out

        def rng(lo: int, hi: int) -> str:
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

    def unified(self, a: str, b: str, lt: list[str], rt: list[str], ops: Sequence[_Opcode]) -> None:
        out = self.ctx.out
        heads = [
            self.labels[k] if k < len(self.labels) else f"{name}\t{_diff_stamp(name)}"
            for k, name in enumerate((a, b))
        ]
        out.write(f"--- {heads[0]}\n+++ {heads[1]}\n")
        n = self.context
        # hunks: changes closer than 2n lines share one
        groups: list[list[tuple[str, int, int, int, int]]] = []
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

    def dirs(self, a: str, b: str, top: bool = False) -> None:
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
                kinds = (
                    "directory" if da else "regular file",
                    "directory" if db else "regular file",
                )
                self.ctx.out.write(f"File {pa} is a {kinds[0]} while file {pb} is a {kinds[1]}\n")
                self.status = max(self.status, 1)
            else:
                self.files(pa, pb, True)

    def dirs_one_sided(self, pa: str, pb: str, in_left: bool) -> None:
        if "r" not in self.on:
            self.ctx.out.write(
                f"Only in {os.path.dirname(pa if in_left else pb)}: {os.path.basename(pa)}\n"
            )
            self.status = max(self.status, 1)
            return
        base = pa if in_left else pb
        for name in sorted(os.listdir(base)):
            sa, sb = _diff_join(pa, name), _diff_join(pb, name)
            if os.path.isdir(_diff_join(base, name)):
                self.dirs_one_sided(sa, sb, in_left)
            else:
                self.files(sa, sb, True, in_left, not in_left)


def _diff_eol(line: str) -> str:
    return line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"


def _diff_urange(start: int, stop: int) -> str:
    length = stop - start
    if length == 1:
        return f"{start + 1}"
    return f"{start if not length else start + 1},{length}"


def _diff_stamp(name: str) -> str:
    if name == "-":
        return datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S.%f000 %z")
    st = os.stat(name)
    when = datetime.datetime.fromtimestamp(st.st_mtime).astimezone()
    return (
        when.strftime("%Y-%m-%d %H:%M:%S.")
        + f"{st.st_mtime_ns % 1_000_000_000:09d}"
        + when.strftime(" %z")
    )


def cmp(ctx: Context, args: list[str]) -> int:
    on, _, names = parse_options(args, "sl")
    a, b = names[:2]
    try:
        da, db = read_operand(ctx, a), read_operand(ctx, b)
    except FileNotFoundError as exc:
        ctx.err.write(f"cmp: {exc.filename}: No such file or directory\n")
        return 2
    if da == db:
        return 0
    if "s" in on:
        return 1
    for k, (x, y) in enumerate(zip(da, db, strict=False)):
        if x != y:
            line = da[:k].count(b"\n") + 1
            ctx.out.write(f"{a} {b} differ: byte {k + 1}, line {line}\n")
            return 1
    shorter = a if len(da) < len(db) else b
    ctx.err.write(f"cmp: EOF on {shorter} after byte {min(len(da), len(db))}\n")
    return 1

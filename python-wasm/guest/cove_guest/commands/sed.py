"""sed, as GNU sed 4.9 runs it: a program of commands over a pattern space and a hold space.

Addresses: N, `$`, /RE/ and \\cREc (with `I` and `M`), first~step, ranges (addr2 a line, a
regex, `+N`, `~N`; `0,/RE/`), `!`. Commands: `{ }`, `s` (flags g p N i I m M w, the
replacement's \\1…\\9 & \\n and GNU's \\U \\L \\u \\l \\E), `y`, `d D p P n N g G h H x`, `a i c`
(one-liners and `a\\` text), `= l q Q z`, `b t T :label`, `r R w W FILE` (`/dev/stdout` and
`/dev/stderr` included), `#` comments. Options: -n -E/-r -e -f -s -i[SUFFIX] (backup names
with `*`), -z, -u, -l N, --posix.

One module over 500 lines: the script's parser and the machine that runs it share the command
table and its addresses, and sed's semantics live in how the two meet.
"""

from __future__ import annotations

import os
import re
from typing import Any

from cove_guest.shell.io import Context
from cove_guest.text.errors import ShellError, UsageError, os_message
from cove_guest.text.inputs import decode, encode, read_operand
from cove_guest.text.options import getopt
from cove_guest.text.patterns import bre_to_re, ere_to_re


def sed(ctx: Context, args: list[str]) -> int:
    opts, rest = getopt(
        args,
        "nrEe:f:i::sul:z",
        {
            "quiet": ("n", 0),
            "silent": ("n", 0),
            "regexp-extended": ("E", 0),
            "expression": ("e", 1),
            "file": ("f", 1),
            "in-place": ("i", 2),
            "separate": ("s", 0),
            "unbuffered": ("u", 0),
            "line-length": ("l", 1),
            "null-data": ("z", 0),
            "zero-terminated": ("z", 0),
            "posix": ("posix", 0),
            "follow-symlinks": ("follow-symlinks", 0),
            "sandbox": ("sandbox", 0),
        },
    )
    quiet = extended = separate = False
    suffix: str | None = None  # -i's backup suffix; "" in place without a backup
    scripts: list[str] = []
    wrap, eol = 70, "\n"
    for key, val in opts:
        if key == "n":
            quiet = True
        elif key in ("r", "E"):
            extended = True
        elif key == "e":
            scripts.append(val or "")
        elif key == "f":
            scripts.append(_script_file(ctx, val or ""))
        elif key == "i":
            suffix = val or ""
            separate = True
        elif key == "s":
            separate = True
        elif key == "l":
            if not re.fullmatch(r"\d+", val or ""):
                raise ShellError(f"invalid line length: '{val}'", 1)
            wrap = int(val or 0)
        elif key == "z":
            eol = "\0"
    if not scripts:
        if not rest:
            raise UsageError(
                "no script specified"
                if not opts
                else "-e expression #1, char 0: no previous regular expression"
            )
        scripts.append(rest.pop(0))
    program = _Program("\n".join(scripts), extended)
    run = _Run(ctx, program, quiet, wrap, eol)
    if suffix is not None:
        return _sed_in_place(ctx, run, rest, suffix)
    status = 0
    streams: list[list[str]] = []
    for name in rest or ["-"]:
        try:
            streams.append([decode(read_operand(ctx, name))])
        except IsADirectoryError:
            ctx.err.write(f"sed: couldn't edit {name}: not a regular file\n")
            status = 2
        except OSError as exc:
            ctx.err.write(f"sed: can't read {name}: {os_message(exc)}\n")
            status = 2
    if not separate:
        streams = [[text for stream in streams for text in stream]]
    for stream in streams:
        out = run.stream(stream)
        ctx.out.write(out)
        if run.exit_code is not None:
            return run.exit_code
    return status


def _script_file(ctx: Context, name: str) -> str:
    """-f FILE: its script (a last newline dropped, as GNU reads it)."""
    try:
        text = decode(read_operand(ctx, name))
    except OSError as exc:
        raise ShellError(f"couldn't open file {name}: {os_message(exc)}") from None
    return text[:-1] if text.endswith("\n") else text


def _sed_in_place(ctx: Context, run: _Run, files: list[str], suffix: str) -> int:
    """-i[SUFFIX]: each file edited on its own, the original kept under SUFFIX when given
    (a `*` in it stands for the file's name: `-i 'bak_*'`)."""
    if not files:
        raise ShellError("no input files", 4)
    status = 0
    for name in files:
        try:
            data = decode(read_operand(ctx, name))
        except IsADirectoryError:
            ctx.err.write(f"sed: couldn't edit {name}: not a regular file\n")
            status = 4
            continue
        except OSError as exc:
            ctx.err.write(f"sed: can't read {name}: {os_message(exc)}\n")
            status = 2
            continue
        out = run.stream([data])
        if suffix:
            backup = suffix.replace("*", name) if "*" in suffix else name + suffix
            try:
                os.replace(name, backup)
            except OSError as exc:
                raise ShellError(
                    f"cannot rename {name}: {os_message(exc, write=True)}", 4
                ) from None
        with open(name, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(out)
        if run.exit_code is not None:
            return run.exit_code
    return status


# ------------------------------------------------------------------------------------ parsing


class _Cmd:
    __slots__ = ("a1", "a2", "arg", "name", "negate", "target")

    def __init__(self, a1: Any, a2: Any, negate: bool, name: str, arg: Any = None):
        self.a1, self.a2, self.negate, self.name, self.arg = a1, a2, negate, name, arg
        self.target = -1  # `{`: the index of its `}`; b t T: the label's index


class _Program:
    """A script parsed into a flat list of commands; `{` and branches know where they jump."""

    def __init__(self, script: str, extended: bool):
        self.src = script
        self.extended = extended
        self.i = 0
        self.cmds: list[_Cmd] = []
        self.files: dict[str, Any] = {}  # w FILE targets, truncated when the script is read
        self.parse()

    def fail(self, message: str) -> ShellError:
        return ShellError(f"-e expression #1, char {self.i}: {message}", 1)

    def peek(self) -> str:
        return self.src[self.i] if self.i < len(self.src) else ""

    def skip_blanks(self) -> None:
        while self.peek() in (" ", "\t"):
            self.i += 1

    def regex(self, delim: str) -> str:
        """The text up to an unescaped `delim` (consumed); `\\delim` is the delimiter itself,
        `\\n` a newline."""
        out: list[str] = []
        src = self.src
        while self.i < len(src):
            c = src[self.i]
            if c == "\\" and self.i + 1 < len(src):
                d = src[self.i + 1]
                out.append(d if d == delim and delim not in "&" else "\n" if d == "n" else c + d)
                self.i += 2
                continue
            if c == "[":  # a bracket expression may hold the delimiter
                j = self.i + 1
                if j < len(src) and src[j] == "^":
                    j += 1
                if j < len(src) and src[j] == "]":
                    j += 1
                while j < len(src) and src[j] != "]" and src[j] != "\n":
                    if src[j] == "[" and j + 1 < len(src) and src[j + 1] in ":.=":
                        k = src.find(src[j + 1] + "]", j + 2)
                        j = k + 2 if k >= 0 else j + 1
                        continue
                    j += 1
                if j < len(src) and src[j] == "]":
                    out.append(src[self.i : j + 1])
                    self.i = j + 1
                    continue
            if c == delim:
                self.i += 1
                return "".join(out)
            if c == "\n" and delim != "\n":
                break
            out.append(c)
            self.i += 1
        raise self.fail("unterminated address regex")

    def compile(self, text: str, flags: str) -> re.Pattern[str] | None:
        if text == "":
            return None  # the last regex used
        pattern = ere_to_re(text) if self.extended else bre_to_re(text)
        # `$` is the end of the pattern space only (Python's also matches before a last \n)
        if "M" not in flags:
            pattern = re.sub(r"(?<!\\)\$$", r"\\Z", pattern)
        f = re.S
        if "I" in flags or "i" in flags:
            f |= re.I
        if "M" in flags or "m" in flags:
            f |= re.M
        try:
            return re.compile(pattern, f)
        except re.error as exc:
            raise self.fail(f"invalid regular expression: {exc}") from None

    def address(self) -> Any:
        c = self.peek()
        if c == "$":
            self.i += 1
            return ("last",)
        m = re.match(r"(\d+)(?:~(\d+))?", self.src[self.i :])
        if m:
            self.i += m.end()
            if m.group(2) is not None:
                return ("step", int(m.group(1)), int(m.group(2)))
            return ("line", int(m.group(1)))
        if c == "/" or c == "\\":
            if c == "\\":
                self.i += 1
                delim = self.peek()
            else:
                delim = "/"
            self.i += 1
            text = self.regex(delim)
            flags = ""
            while self.peek() in ("I", "M"):
                flags += self.peek()
                self.i += 1
            return ("re", self.compile(text, flags))
        return None

    def label(self) -> str:
        self.skip_blanks()
        m = re.match(r"[^;\n]*", self.src[self.i :])
        assert m is not None
        self.i += m.end()
        return m.group(0).rstrip()

    def filename(self) -> str:
        self.skip_blanks()
        end = self.src.find("\n", self.i)
        end = len(self.src) if end < 0 else end
        name = self.src[self.i : end]
        self.i = end
        return name

    def end_of_command(self) -> None:
        self.skip_blanks()
        c = self.peek()
        if c == "#":
            return
        if c in (";", "\n"):
            self.i += 1
        elif c not in ("", "}"):
            raise self.fail("extra characters after command")

    def parse(self) -> None:
        src = self.src
        opened: list[int] = []
        labels: dict[str, int] = {}
        while True:
            while self.peek() in (" ", "\t", "\n", ";"):
                self.i += 1
            if self.i >= len(src):
                break
            if self.peek() == "#":
                end = src.find("\n", self.i)
                self.i = len(src) if end < 0 else end
                continue
            a1 = self.address()
            a2 = None
            if a1 is not None and self.peek() == ",":
                self.i += 1
                self.skip_blanks()
                m = re.match(r"([+~])(\d+)", src[self.i :])
                if m:
                    self.i += m.end()
                    a2 = ("plus" if m.group(1) == "+" else "mult", int(m.group(2)))
                else:
                    a2 = self.address()
                    if a2 is None:
                        raise self.fail("unexpected `,'")
                if a1 == ("line", 0) and (a2 is None or a2[0] != "re"):
                    raise self.fail("invalid usage of line address 0")
            elif a1 == ("line", 0):
                raise self.fail("invalid usage of line address 0")
            self.skip_blanks()
            negate = False
            while self.peek() == "!":
                negate = True
                self.i += 1
                self.skip_blanks()
            name = self.peek()
            if not name:
                raise self.fail("missing command")
            self.i += 1
            cmd = _Cmd(a1, a2, negate, name)
            if name == "{":
                opened.append(len(self.cmds))
                self.cmds.append(cmd)
                continue
            if name == "}":
                if a1 is not None or negate:
                    raise self.fail("} doesn't want any addresses")
                if not opened:
                    raise self.fail("unexpected `}'")
                self.cmds[opened.pop()].target = len(self.cmds)
                self.cmds.append(cmd)
                self.end_of_command()
                continue
            if name == ":":
                if a1 is not None:
                    raise self.fail(": doesn't want any addresses")
                label = self.label()
                if not label:
                    raise self.fail('":" lacks a label')
                labels[label] = len(self.cmds)
                if self.peek() == ";":
                    self.i += 1
                continue
            if name == "s":
                cmd.arg = self.substitution()
            elif name == "y":
                cmd.arg = self.transliteration()
            elif name in "aic":
                cmd.arg = self.text()
            elif name in "btT":
                cmd.arg = self.label()
                if self.peek() == ";":
                    self.i += 1
            elif name in "rRwW":
                cmd.arg = self.filename()
                if name in "wW":
                    self.files.setdefault(cmd.arg, None)
            elif name in "qQlL":
                self.skip_blanks()
                m = re.match(r"\d+", src[self.i :])
                cmd.arg = int(m.group(0)) if m else None
                if m:
                    self.i += m.end()
                self.end_of_command()
            elif name in "=dDgGhHnNpPxzF":
                self.end_of_command()
            else:
                raise self.fail(f"unknown command: `{name}'")
            self.cmds.append(cmd)
        if opened:
            self.i = len(src)
            raise self.fail("unmatched `{'")
        for cmd in self.cmds:
            if cmd.name in "btT":
                if cmd.arg and cmd.arg not in labels:
                    raise ShellError(f"can't find label for jump to `{cmd.arg}'", 4)
                cmd.target = labels[cmd.arg] if cmd.arg else len(self.cmds)

    def substitution(self) -> tuple:
        delim = self.peek()
        if not delim or delim in "\n\\":
            raise self.fail("unterminated `s' command")
        self.i += 1
        try:
            pattern = self.regex(delim)
        except ShellError:
            raise self.fail("unterminated `s' command") from None
        replacement = self.replacement(delim)
        flags, count, glob, printit, wfile = "", 1, False, 0, None
        while True:
            c = self.peek()
            if not c:
                break
            if c == "g":
                glob = True
            elif c == "p":
                printit += 1
            elif c in "iImMe":
                if c == "e":
                    raise self.fail("the `e' flag (run a command) is not supported")
                flags += c.upper()
            elif c.isdigit():
                m = re.match(r"\d+", self.src[self.i :])
                assert m is not None
                count = int(m.group(0))
                if count == 0:
                    raise self.fail("number option to `s' command may not be zero")
                self.i += m.end()
                continue
            elif c == "w":
                self.i += 1
                wfile = self.filename()
                self.files.setdefault(wfile, None)
                break
            else:
                break
            self.i += 1
        if wfile is None:
            self.end_of_command()
        return (self.compile(pattern, flags), replacement, count, glob, printit, wfile)

    def replacement(self, delim: str) -> list[tuple[str, Any]]:
        """The replacement as pieces: ("text", s), ("group", n), ("case", U/L/E/u/l)."""
        out: list[tuple[str, Any]] = []
        src = self.src
        buf: list[str] = []

        def flush() -> None:
            if buf:
                out.append(("text", "".join(buf)))
                buf.clear()

        while self.i < len(src):
            c = src[self.i]
            if c == "\\" and self.i + 1 < len(src):
                d = src[self.i + 1]
                self.i += 2
                if d.isdigit():
                    flush()
                    out.append(("group", int(d)))
                elif d == "&":
                    buf.append("&")
                elif d in "ULEul":
                    flush()
                    out.append(("case", d))
                elif d == "n":
                    buf.append("\n")
                elif d == "t":
                    buf.append("\t")
                elif d == "\n":
                    buf.append("\n")
                elif d == "x" and re.match(r"[0-9a-fA-F]{1,2}", src[self.i :]):
                    m = re.match(r"[0-9a-fA-F]{1,2}", src[self.i :])
                    assert m is not None
                    buf.append(chr(int(m.group(0), 16)))
                    self.i += m.end()
                else:
                    buf.append(d)
                continue
            if c == delim:
                self.i += 1
                flush()
                return out
            if c == "&":
                flush()
                out.append(("group", 0))
            else:
                buf.append(c)
            self.i += 1
        raise self.fail("unterminated `s' command")

    def transliteration(self) -> dict[str, str]:
        delim = self.peek()
        self.i += 1
        parts = []
        for _ in range(2):
            buf: list[str] = []
            while True:
                if self.i >= len(self.src):
                    raise self.fail("unterminated `y' command")
                c = self.src[self.i]
                if c == "\\" and self.i + 1 < len(self.src):
                    d = self.src[self.i + 1]
                    buf.append({"n": "\n", "t": "\t", "\\": "\\"}.get(d, d))
                    self.i += 2
                    continue
                self.i += 1
                if c == delim:
                    break
                buf.append(c)
            parts.append(buf)
        if len(parts[0]) != len(parts[1]):
            raise self.fail("strings for `y' command are different lengths")
        self.end_of_command()
        return dict(zip(parts[0], parts[1], strict=True))

    def text(self) -> str:
        """The text of `a`, `i` or `c` with its trailing newline ("" for none): GNU's one-liner
        (`a text`, leading blanks dropped) or `a\\` followed by lines, each ending in a
        backslash but the last."""
        src = self.src
        self.skip_blanks()
        if self.peek() == "\\":
            self.i += 1
            if self.peek() == "\n":
                self.i += 1
        elif self.peek() in ("", "\n"):
            raise self.fail("expected \\ after `a', `c' or `i'")
        out = []
        while self.i < len(src) and src[self.i] != "\n":
            c = src[self.i]
            if c == "\\" and self.i + 1 < len(src):
                d = src[self.i + 1]
                out.append(_TEXT_ESCAPES.get(d, d))
                self.i += 2
                continue
            out.append(c)
            self.i += 1
        text = "".join(out)
        return text + "\n" if text else ""


_TEXT_ESCAPES = {"t": "\t", "n": "\n", "a": "\a", "f": "\f", "v": "\v", "r": "\r"}


# ---------------------------------------------------------------------------------- execution


class _Quit(Exception):
    """q or Q: the program ends here, with this status."""

    def __init__(self, code: int):
        super().__init__()
        self.code = code


class _Run:
    """The program's state across its inputs: the hold space, the ranges, the last regex, the
    files `w` writes, and how it ended (`exit_code`, after q or Q)."""

    def __init__(self, ctx: Context, program: _Program, quiet: bool, wrap: int, eol: str):
        self.ctx = ctx
        self.program = program
        self.quiet = quiet
        self.wrap = wrap
        self.eol = eol
        self.hold = ""
        self.active: dict[int, int] = {}
        self.zero_done: set[int] = set()
        self.last_regex: re.Pattern[str] | None = None
        self.exit_code: int | None = None
        self.readers: dict[str, list[str]] = {}
        self.writers: dict[str, Any] = {}
        for name in program.files:
            self.writer(name)

    def writer(self, name: str) -> Any:
        if name not in self.writers:
            if name in ("/dev/stdout", "/dev/stderr"):
                self.writers[name] = self.ctx.out if name == "/dev/stdout" else self.ctx.err
            else:
                try:
                    self.writers[name] = _FileSink(name)
                except OSError as exc:
                    raise ShellError(
                        f"couldn't open file {name}: {os_message(exc, True)}", 4
                    ) from None
        return self.writers[name]

    def stream(self, texts: list[str]) -> str:
        """Run over one stream (the inputs' texts, read as one); returns what it printed."""
        lines: list[str] = []
        missing = False
        for text in texts:
            if not text:
                continue
            parts = text.split(self.eol)
            missing = parts[-1] != ""
            if not missing:
                parts.pop()
            lines.extend(parts)
        self.lines = lines
        self.missing = missing
        self.active = {}
        self.zero_done = set()
        self.pos = 0
        self.lineno = 0
        self.out: list[str] = []
        self.pending_newline = False
        try:
            while self.pos < len(lines):
                self.cycle()
        except _Quit as q:
            self.exit_code = q.code
        for w in self.writers.values():
            if isinstance(w, _FileSink):
                w.flush()
        return "".join(self.out)

    # output: the last line of input may lack its newline, and so does what prints it

    def emit(self, text: str, newline: bool = True) -> None:
        if self.pending_newline:
            self.out.append(self.eol)
            self.pending_newline = False
        self.out.append(text)
        if newline:
            self.out.append(self.eol)

    def emit_ps(self, text: str) -> None:
        if self.pos >= len(self.lines) and self.missing:
            self.emit(text, newline=False)
            self.pending_newline = True
        else:
            self.emit(text)

    def next_line(self) -> str | None:
        if self.pos >= len(self.lines):
            return None
        line = self.lines[self.pos]
        self.pos += 1
        self.lineno += 1
        return line

    def is_last(self) -> bool:
        return self.pos >= len(self.lines)

    def matches(self, k: int, cmd: _Cmd, ps: str) -> bool:
        hit = self.match_range(k, cmd, ps) if cmd.a1 is not None else True
        return hit != cmd.negate

    def one(self, a: Any, ps: str) -> bool:
        kind = a[0]
        if kind == "last":
            return self.is_last()
        if kind == "line":
            return self.lineno == a[1]
        if kind == "step":
            first, step = a[1], a[2]
            if step <= 0:
                return self.lineno == first
            return self.lineno >= first and (self.lineno - first) % step == 0
        return self.search(a[1], ps) is not None

    def search(self, rx: re.Pattern[str] | None, ps: str) -> re.Match[str] | None:
        if rx is None:
            rx = self.last_regex
            if rx is None:
                raise ShellError("no previous regular expression", 1)
        self.last_regex = rx
        return rx.search(ps)

    def match_range(self, k: int, cmd: _Cmd, ps: str) -> bool:
        a1, a2 = cmd.a1, cmd.a2
        if a2 is None:
            return self.one(a1, ps)
        state = self.active.get(k)
        n = self.lineno
        if state is not None:
            kind = a2[0]
            if kind == "line":
                done = n >= a2[1]
            elif kind == "plus":
                done = n >= state + a2[1]
            elif kind == "mult":
                done = a2[1] <= 0 or n % a2[1] == 0
            else:
                done = self.one(a2, ps)
            if done:
                del self.active[k]
            return True
        if a1 == ("line", 0):
            # 0,/re/: open before the first line, so /re/ may close it on line 1
            if k in self.zero_done:
                return False
            if self.one(a2, ps):
                self.zero_done.add(k)
            return True
        if not self.one(a1, ps):
            return False
        return self.start(k, a2, ps, n)

    def start(self, k: int, a2: Any, ps: str, n: int) -> bool:
        kind = a2[0]
        if kind == "line":
            if a2[1] > n:
                self.active[k] = n
        elif kind == "plus":
            if a2[1] > 0:
                self.active[k] = n
        elif kind == "mult":
            if a2[1] > 0 and n % a2[1] != 0:
                self.active[k] = n
        else:
            self.active[k] = n  # a regex end is looked for from the next line on
        return True

    def substitute(self, arg: tuple, ps: str) -> tuple[str, bool]:
        rx, pieces, count, glob, _printit, _wfile = arg
        if rx is None:
            rx = self.last_regex
            if rx is None:
                raise ShellError("no previous regular expression", 1)
        self.last_regex = rx
        out: list[str] = []
        pos = 0
        nth = 0
        prev_end = -1
        done = False
        for m in rx.finditer(ps):
            if m.start() == m.end() and m.start() == prev_end:
                continue  # no empty match right after a match, as GNU
            prev_end = m.end()
            nth += 1
            if nth < count:
                continue
            out.append(ps[pos : m.start()])
            out.append(_expand(pieces, m))
            pos = m.end()
            done = True
            if not glob:
                break
        if not done:
            return ps, False
        out.append(ps[pos:])
        return "".join(out), True

    def listing(self, ps: str, width: int | None) -> None:
        wrap = self.wrap if width is None else width
        escapes = {"\\": "\\\\", "\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n"}
        escapes |= {"\r": "\\r", "\t": "\\t", "\v": "\\v"}
        pieces = []
        for ch in ps:
            if ch in escapes:
                pieces.append(escapes[ch])
            elif ch.isprintable() and ord(ch) < 128:
                pieces.append(ch)
            else:
                pieces.extend(f"\\{b:03o}" for b in encode(ch))
        line = ""
        for piece in pieces:
            if wrap > 1 and len(line) + len(piece) > wrap - 1:
                self.emit(line + "\\")
                line = ""
            line += piece
        self.emit(line + "$")

    def flush_appended(self, appended: list[tuple[str, str]]) -> None:
        for kind, value in appended:
            if kind == "text":
                if value:
                    self.emit(value, newline=False)
                continue
            if kind == "file":
                try:
                    with open(value, encoding="utf-8", errors="surrogateescape") as f:
                        data = f.read()
                except OSError:
                    continue  # GNU reads what it can, silently
                if data:
                    self.emit(data, newline=False)
                continue
            lines = self.readers.get(value)
            if lines is None:
                try:
                    with open(value, encoding="utf-8", errors="surrogateescape") as f:
                        lines = f.read().splitlines(keepends=True)
                except OSError:
                    lines = []
                self.readers[value] = lines
            if lines:
                line = lines.pop(0)
                self.emit(line.rstrip("\n"))
        appended.clear()

    def cycle(self) -> None:
        line = self.next_line()
        assert line is not None
        ps = line
        cmds = self.program.cmds
        appended: list[tuple[str, str]] = []
        replaced = False
        while True:
            pc = 0
            end = "print"
            code = 0
            while pc < len(cmds):
                cmd = cmds[pc]
                name = cmd.name
                if name == "}":
                    pc += 1
                    continue
                if not self.matches(pc, cmd, ps):
                    pc = cmd.target + 1 if name == "{" else pc + 1
                    continue
                here = pc
                pc += 1
                if name == "{":
                    continue
                if name == "s":
                    new, did = self.substitute(cmd.arg, ps)
                    if did:
                        ps, replaced = new, True
                        for _ in range(cmd.arg[4]):
                            self.emit_ps(ps)
                        if cmd.arg[5] is not None:
                            self.writer(cmd.arg[5]).write(ps + "\n")
                elif name == "p":
                    self.emit_ps(ps)
                elif name == "d":
                    end = "delete"
                    break
                elif name == "D":
                    if "\n" not in ps:
                        end = "delete"
                    else:
                        ps = ps.split("\n", 1)[1]
                        end = "restart"
                    break
                elif name == "P":
                    if "\n" in ps:
                        self.emit(ps.split("\n", 1)[0])
                    else:
                        self.emit_ps(ps)
                elif name in "nN":
                    if self.is_last():
                        # GNU: no next line, so print (unless -n) and end, as at the end
                        break
                    if name == "n" and not self.quiet:
                        self.emit_ps(ps)
                    self.flush_appended(appended)
                    nxt = self.next_line() or ""
                    ps = nxt if name == "n" else ps + "\n" + nxt
                elif name == "g":
                    ps = self.hold
                elif name == "G":
                    ps = ps + "\n" + self.hold
                elif name == "h":
                    self.hold = ps
                elif name == "H":
                    self.hold = self.hold + "\n" + ps
                elif name == "x":
                    ps, self.hold = self.hold, ps
                elif name == "z":
                    ps = ""
                elif name == "=":
                    self.emit(str(self.lineno), newline=False)
                    self.out.append("\n")
                elif name in "lL":
                    self.listing(ps, cmd.arg)
                elif name == "a":
                    appended.append(("text", cmd.arg))
                elif name == "i":
                    if cmd.arg:
                        self.emit(cmd.arg, newline=False)
                elif name == "c":
                    # a range is changed as a whole: its text printed at its end
                    at_end = cmd.a2 is None or cmd.negate or here not in self.active
                    if at_end and cmd.arg:
                        self.emit(cmd.arg, newline=False)
                    end = "delete"
                    break
                elif name == "y":
                    ps = "".join(cmd.arg.get(ch, ch) for ch in ps)
                elif name == "b":
                    pc = cmd.target
                elif name == "t":
                    if replaced:
                        replaced = False
                        pc = cmd.target
                elif name == "T":
                    if not replaced:
                        pc = cmd.target
                    else:
                        replaced = False
                elif name in "qQ":
                    end, code = name, cmd.arg or 0
                    break
                elif name == "r":
                    appended.append(("file", cmd.arg))
                elif name == "R":
                    appended.append(("line", cmd.arg))
                elif name == "w":
                    self.writer(cmd.arg).write(ps + "\n")
                elif name == "W":
                    self.writer(cmd.arg).write(ps.split("\n", 1)[0] + "\n")
                elif name == "F":
                    self.emit("-")
            if end in ("print", "q") and not self.quiet:
                self.emit_ps(ps)
            if end == "Q":
                raise _Quit(code)
            self.flush_appended(appended)
            if end == "q":
                raise _Quit(code)
            if end != "restart":
                return
            replaced = False


class _FileSink:
    """A file `w` writes: truncated when the script is read, written when a stream ends."""

    def __init__(self, name: str):
        self.name = name
        self.parts: list[str] = []
        with open(name, "w"):
            pass

    def write(self, text: str) -> None:
        self.parts.append(text)

    def flush(self) -> None:
        if self.parts:
            with open(self.name, "a", encoding="utf-8", errors="surrogateescape") as f:
                f.write("".join(self.parts))
            self.parts.clear()


def _expand(pieces: list[tuple[str, Any]], m: re.Match[str]) -> str:
    """A replacement for one match: its text and groups, through GNU's case conversions."""
    out: list[str] = []
    mode = ""  # U or L until \E
    once = ""  # u or l: the next character only
    for kind, value in pieces:
        if kind == "case":
            if value in "UL":
                mode, once = value, ""
            elif value == "E":
                mode, once = "", ""
            else:
                once = value
            continue
        text = value if kind == "text" else (m.group(value) or "")
        if not text:
            continue
        if mode == "U":
            text = text.upper()
        elif mode == "L":
            text = text.lower()
        if once:
            text = (text[0].upper() if once == "u" else text[0].lower()) + text[1:]
            once = ""
        out.append(text)
    return "".join(out)

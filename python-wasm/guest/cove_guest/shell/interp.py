"""Cove's shell: runs bash command lines inside the guest interpreter, on the session's
/workspace. There are no processes in WASI: builtins and commands are Python functions, a
pipeline runs its stages in order over in-memory buffers, and `python` starts a fresh
interpreter through the host. State (variables, exports, functions, cwd) persists between
calls, like a terminal the model keeps typing into.

`Shell` is one class over 500 lines because execution and expansion recurse into each other
(command substitution runs the interpreter; every command expands its words). The stateless
parts live beside it: parsing (`parse`), arithmetic (`arith`), expansions (`expand`), tests
(`conditional`) and builtins (`builtins`). The commands are handed in (`Shell(commands=...)`):
this package never imports them.
"""

import functools
import glob as _glob
import io
import os
import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from cove_guest.deadline import TimeLimitExceeded
from cove_guest.shell.arith import ArithError, evaluate
from cove_guest.shell.arrays import AssocArray, Compound, IndexedArray, Value
from cove_guest.shell.ast import (
    AndOr,
    Arith,
    Case,
    CFor,
    CommandList,
    Cond,
    For,
    FuncDef,
    Group,
    If,
    Pipeline,
    Redir,
    Select,
    Simple,
    Stage,
    Subshell,
    Unsupported,
    While,
)
from cove_guest.shell.ast import Command as AstCommand
from cove_guest.shell.builtins import BUILTINS, Command
from cove_guest.shell.conditional import binary_test, unary_test
from cove_guest.shell.errors import (
    CONTROL_FLOW,
    FatalError,
    FunctionReturn,
    LoopBreak,
    LoopContinue,
    ShellExit,
    internal_error,
)
from cove_guest.shell.expand import (
    brace_expand,
    ifs_split,
    pathname_expand,
    replace_pattern,
    split_unescaped,
    trim_pattern,
)
from cove_guest.shell.io import (
    IO,
    ByteSink,
    Context,
    NullSink,
    Output,
    Writer,
    open_writer,
    read_path,
)
from cove_guest.shell.parse import (
    Parser,
    ShellSyntaxError,
    parse,
    scan_ansi,
    scan_dollar,
    scan_quoted,
    split_assignment,
    tokenize,
    unquoted_chars,
)
from cove_guest.text.errors import ShellError, os_message
from cove_guest.text.escapes import ansi_c, shell_quote
from cove_guest.text.patterns import expand_classes, fnmatch, glob_escape

MAX_DEPTH = 100
# What scanning a word gives: (text, quoted, "lit" or "exp"), or "BREAK" between the fields of
# "$@".
Segment = tuple[str, bool, str] | str


# Variables by name: the globals, or a function's locals (None: declared local, unset).
Frame = dict[str, Value | None]


class Host(Protocol):
    """What starts a fresh interpreter for the shell's `python` (the driver's `GuestHost`)."""

    def python(self, ctx: Context, args: list[str]) -> int: ...


# Builtins whose assignment arguments are assignments (not split, not globbed; `a=(...)` kept
# whole for the builtin to assign), as bash treats them.
DECLARATIONS = frozenset({"declare", "typeset", "local", "readonly", "export"})


# `${a[...]...}`, `${#a[...]}`, `${!a[...]}`: up to the subscript's opening bracket.
_SUBSCRIPTED = re.compile(r"([#!]?)([A-Za-z_][A-Za-z0-9_]*)\[")


def _subscript_end(body: str, i: int) -> int | None:
    """The index of the `]` closing the subscript that starts at body[i], or None."""
    depth = 1
    for j, c in unquoted_chars(body, i):
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return j
    return None


def _copy_vars(frame: Frame) -> Frame:
    return {
        k: (v.copy() if isinstance(v, (IndexedArray, AssocArray)) else v) for k, v in frame.items()
    }


class Shell:
    """One shell session's state and interpreter.

    `commands` maps a command name to `name(ctx, args) -> status` (the driver passes
    `cove_guest.commands.COMMANDS`); `host` provides `python(ctx, args)`, which starts a fresh
    interpreter (None: python is unavailable).
    """

    def __init__(
        self, commands: Mapping[str, Command] | None = None, host: Host | None = None
    ) -> None:
        self.vars: Frame = {
            "HOME": "/workspace",
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "IFS": " \t\n",
            "PWD": os.getcwd(),
            "SHELL": "/bin/bash",
            "USER": "user",
            "LANG": "C.UTF-8",
            "TERM": "dumb",
        }
        self.exported = {"HOME", "PATH", "PWD", "SHELL", "USER", "LANG", "TERM"}
        self.functions: dict[str, Stage] = {}
        self.positional: list[str] = []
        self.status = 0
        self.opts = {"errexit": False, "nounset": False, "xtrace": False, "pipefail": False}
        self.locals: list[Frame] = []
        self.host = host
        self.depth = 0
        self.line = 1
        self._current_err: Output = NullSink()
        self.commands = dict(commands or {})
        self.arg0 = "bash"
        # trap's commands by event (EXIT, ERR, ...) or signal name; a command line's EXIT trap
        # runs when that command line ends (each call is a script), then they are cleared.
        self.traps: dict[str, str] = {}
        self._in_trap = False
        # Process substitutions made for the command being run: (path, command or None).
        self._procsubs: list[tuple[str, str | None]] = []
        self._subst_status: int | None = None

    # -- entry point --------------------------------------------------------------------------

    def run(
        self, src: str, stdin: bytes = b"", *, stop_at_time_limit: bool = False
    ) -> tuple[bytes, bytes, int]:
        """Run a command line; returns (stdout bytes, stderr bytes, status).

        With `stop_at_time_limit` (the session's own shell), the call's time limit stops the
        command line with status 124 and the shell goes on; otherwise (a shell run by model code,
        `subprocess`) `TimeLimitExceeded` propagates to that code's caller.
        """
        out, err = io.BytesIO(), io.BytesIO()
        status = self.run_into(src, out, err, stdin=stdin, stop_at_time_limit=stop_at_time_limit)
        return out.getvalue(), err.getvalue(), status

    def run_into(
        self,
        src: str,
        out: ByteSink,
        err: ByteSink,
        *,
        stdin: bytes = b"",
        stop_at_time_limit: bool = False,
    ) -> int:
        """Run a command line with its stdout and stderr written to `out` and `err` as it runs
        (byte sinks: the session's shell is given bounded ones, so a command's output is bounded
        while it is written, not after); returns the status."""
        io_ = IO(stdin, Writer(out), Writer(err))
        return self.run_script_source(src, io_, stop_at_time_limit=stop_at_time_limit) & 0xFF

    def run_script_source(self, src: str, io_: IO, *, stop_at_time_limit: bool = False) -> int:
        """Run `src` as bash runs a script: each complete command is parsed, then run, in
        turn (a syntax error stops the script there, status 2, after what came before it
        ran); the EXIT trap runs at the end. Returns the status."""
        try:
            status = self._run_items(src, io_)
        except ShellExit as exc:
            status = exc.code
        except FatalError as exc:
            io_.err.write(f"bash: line 1: {exc}\n")
            status = exc.code
        except (FunctionReturn, LoopBreak, LoopContinue):
            status = self.status
        except RecursionError:
            io_.err.write("bash: maximum function nesting level exceeded\n")
            status = 1
        except ShellError as exc:
            io_.err.write(f"bash: {exc}\n")
            status = exc.code
        except OSError as exc:
            io_.err.write(f"bash: {os_message(exc)}\n")
            status = 1
        except (Exception, SystemExit) as exc:
            # Whatever went wrong, the shell (and the interpreter it lives in) goes on.
            io_.err.write(internal_error("bash", exc))
            status = 1
        except TimeLimitExceeded:
            if not stop_at_time_limit:
                raise
            io_.err.write("bash: the command line was stopped: the call's time limit was reached\n")
            status = 124
        self.status = status
        return self.run_exit_trap(io_, status)

    def _run_items(self, src: str, io_: IO) -> int:
        try:
            parser = Parser(src)
        except ShellSyntaxError as exc:
            io_.err.write(f"bash: -c: line 1: {exc}\n")
            return 2
        status = 0
        while True:
            try:
                item = parser.next_item()
            except ShellSyntaxError as exc:
                io_.err.write(f"bash: -c: line {parser.line()}: {exc}\n")
                return 2
            if item is None:
                return status
            status = self.exec_node(item.node, io_)

    def run_child(
        self,
        src: str,
        io_: IO,
        *,
        stdin: bytes,
        arg0: str,
        positional: list[str],
        opts: dict[str, bool],
    ) -> int:
        """`bash -c`, `sh FILE`: `src` in a new shell that has what this one exports (no other
        variables, no functions), on `io_`'s output; this shell's directory is kept."""
        if self.depth >= MAX_DEPTH:
            raise ShellError("maximum nesting level exceeded")
        child = Shell(commands=self.commands, host=self.host)
        env = self.environ()
        child.vars.update(env)
        child.exported |= set(env)
        child.arg0 = arg0
        child.positional = list(positional)
        child.opts.update((k, v) for k, v in opts.items() if k in child.opts)
        child.depth = self.depth + 1
        cwd = os.getcwd()
        try:
            return child.run_script_source(src, IO(stdin, io_.out, io_.err))
        finally:
            try:
                os.chdir(cwd)
            except OSError:
                pass

    def run_exit_trap(self, io_: IO, status: int) -> int:
        """Run (and clear) the EXIT trap; the status the shell exits with."""
        action = self.traps.pop("EXIT", None)
        self.traps.clear()
        if not action:
            return status
        self.status = status
        try:
            self.exec_list(parse(action), io_)
        except ShellExit as exc:
            return exc.code
        except (ShellError, ShellSyntaxError, FatalError) as exc:
            io_.err.write(f"bash: {exc}\n")
        return status

    # -- variables ----------------------------------------------------------------------------

    def _frame_of(self, name: str) -> Frame | None:
        """The dict holding `name`: its innermost local frame, else the globals (or None)."""
        for frame in reversed(self.locals):
            if name in frame:
                return frame
        return self.vars if name in self.vars else None

    def get_var(self, name: str) -> Value | None:
        """A variable's stored value: a str, an array, or None."""
        frame = self._frame_of(name)
        if frame is not None:
            return frame[name]
        if name == "PWD":
            return os.getcwd()
        return None

    def set_var(self, name: str, value: Value) -> None:
        """Store `value` (a str or an array) as the variable `name`, where it lives."""
        frame = self._frame_of(name)
        (self.vars if frame is None else frame)[name] = value

    def get(self, name: str) -> str | None:
        """A variable's value as a string (an array's element 0); `a[sub]` reads an element."""
        if name.endswith("]") and "[" in name:
            base, _, sub = name[:-1].partition("[")
            return self.get_element(base, sub, key_expanded=True)
        value = self.get_var(name)
        if isinstance(value, IndexedArray):
            return value.get(0)
        if isinstance(value, AssocArray):
            return value.get("0")
        return value

    def set(self, name: str, value: str) -> None:
        if name.endswith("]") and "[" in name:
            base, _, sub = name[:-1].partition("[")
            self.set_element(base, sub, value, key_expanded=True)
            return
        current = self.get_var(name)
        if isinstance(current, IndexedArray):
            current.set(0, value)
        elif isinstance(current, AssocArray):
            current.set("0", value)
        else:
            self.set_var(name, value)

    def unset(self, name: str) -> None:
        if name.endswith("]") and "[" in name:
            base, _, sub = name[:-1].partition("[")
            array = self.get_var(base)
            if isinstance(array, AssocArray):
                array.unset(self.expand_str(sub))
            elif isinstance(array, IndexedArray):
                array.unset(self.arith(sub))
            elif sub in ("0", "@", "*"):
                self.unset(base)
            return
        for frame in reversed(self.locals):
            if name in frame:
                frame[name] = None
                return
        self.vars.pop(name, None)
        self.exported.discard(name)

    def _key(self, array: Value | None, sub: str, key_expanded: bool) -> Any:
        if isinstance(array, AssocArray):
            return sub if key_expanded else self.expand_str(sub)
        try:
            return self.arith(sub)
        except ArithError as exc:
            raise FatalError(f"{sub}: {exc}") from None

    def is_set(self, name: str) -> bool:
        """`[[ -v name ]]`, `[[ -v a[k] ]]`: whether the variable (or element) is set."""
        if name.endswith("]") and "[" in name:
            base, _, sub = name[:-1].partition("[")
            return self.get_element(base, sub, key_expanded=True) is not None
        value = self.get_var(name)
        if isinstance(value, (IndexedArray, AssocArray)):
            return len(value) > 0
        return value is not None or name in ("PWD",)

    def get_element(self, name: str, sub: str, *, key_expanded: bool = False) -> str | None:
        array = self.get_var(name)
        key = self._key(array, sub, key_expanded)
        if isinstance(array, (IndexedArray, AssocArray)):
            return array.get(key)
        return array if key in (0, -1) else None

    def set_element(
        self, name: str, sub: str, value: str, *, key_expanded: bool = False, append: bool = False
    ) -> None:
        array = self.get_var(name)
        if not isinstance(array, (IndexedArray, AssocArray)):
            array = IndexedArray([] if array is None else [array])
            self.set_var(name, array)
        key = self._key(array, sub, key_expanded)
        if append:
            value = (array.get(key) or "") + value
        if array.set(key, value) is False:
            raise FatalError(f"{name}[{sub}]: bad array subscript")

    def assign_compound(
        self,
        name: str,
        inner: str,
        *,
        append: bool = False,
        assoc: bool | None = None,
        frame: Frame | None = None,
    ) -> None:
        """`name=(...)` / `name+=(...)`: `inner` is the text between the parentheses, its words
        expanded as bash does (values split and globbed; `[key]=value` not)."""
        current = frame.get(name) if frame is not None else self.get_var(name)
        if assoc is None:
            assoc = isinstance(current, AssocArray)
        if append and isinstance(current, (IndexedArray, AssocArray)):
            array = current
        elif append and isinstance(current, str):
            array = AssocArray() if assoc else IndexedArray([current])
        else:
            array = AssocArray() if assoc else IndexedArray()
        words = []
        for tok in tokenize(inner):
            if tok.kind == "word":
                words.append(tok.value)
            elif tok.kind == "op" and tok.value == "\n":
                continue
            elif tok.kind != "eof":
                raise FatalError(f"syntax error near unexpected token `{tok.value}'")
        index = array.next_index() if isinstance(array, IndexedArray) else 0
        pending = []  # an associative array's `(key value key value ...)` form
        for word in words:
            keyed = split_assignment("x" + word) if word.startswith("[") else None
            if keyed is not None and keyed[1] is not None:
                _, maybe_sub, add, raw = keyed
                sub = maybe_sub or ""
                value = self.expand_str(raw, assign=True)
                if isinstance(array, AssocArray):
                    key = self.expand_str(sub)
                    array.set(key, (array.get(key) or "") + value if add else value)
                else:
                    index = self._key(array, sub, False)
                    if add:
                        value = (array.get(index) or "") + value
                    at = array.resolve(index)
                    if at is None or not array.set(at, value):
                        raise FatalError(f"{name}[{sub}]: bad array subscript")
                    index = at + 1
                continue
            for field in self.expand(word):
                if isinstance(array, AssocArray):
                    pending.append(field)
                else:
                    array.set(index, field)
                    index += 1
        if isinstance(array, AssocArray):
            for k in range(0, len(pending), 2):
                array.set(pending[k], pending[k + 1] if k + 1 < len(pending) else "")
        if frame is not None:
            frame[name] = array
        else:
            self.set_var(name, array)

    def environ(self) -> dict[str, str]:
        env = {}
        for name in self.exported:
            value = self.get_var(name)
            if isinstance(value, str):
                env[name] = value
        return env

    def special(self, name: str) -> str | None:
        if name == "?":
            return str(self.status)
        if name == "#":
            return str(len(self.positional))
        if name == "$":
            return "1"
        if name == "!":
            return ""
        if name == "-":
            return "hB"
        if name == "0":
            return self.arg0
        if name.isdigit():
            k = int(name)
            return self.positional[k - 1] if 0 < k <= len(self.positional) else None
        if name in ("@", "*"):
            return " ".join(self.positional)
        if name == "RANDOM":
            import random

            return str(random.randint(0, 32767))
        if name == "LINENO":
            return str(self.line)
        if name == "SECONDS":
            return "0"
        return self.get(name)

    # -- execution ----------------------------------------------------------------------------

    def exec_list(self, node: CommandList, io_: IO, cond: bool = False) -> int:
        status = 0
        for item in node.items:
            status = self.exec_node(item.node, io_, cond)
        return status

    def exec_node(self, node: AstCommand, io_: IO, cond: bool = False) -> int:
        match node:
            case AndOr(op=op, left=left, right=right):
                status = self.exec_node(left, io_, True)
                if (op == "&&" and status == 0) or (op == "||" and status != 0):
                    return self.exec_node(right, io_, cond)
                return status
            case Pipeline(negate=negate):
                status = self.exec_pipeline(node, io_, cond)
                if negate:
                    status = int(status == 0)
                self.status = status
                if status != 0 and not cond and not negate:
                    if "ERR" in self.traps and not self._in_trap:
                        self.run_trap("ERR", io_)
                        self.status = status
                    if self.opts["errexit"]:
                        raise ShellExit(status)
                return status
        raise ShellError(f"cannot run {type(node).__name__}")

    def run_trap(self, event: str, io_: IO) -> None:
        """Run the trap set for `event` (its status is not the shell's)."""
        action = self.traps.get(event)
        if not action:
            return
        self._in_trap = True
        try:
            self.exec_list(parse(action), io_)
        finally:
            self._in_trap = False

    def exec_pipeline(self, node: Pipeline, io_: IO, cond: bool) -> int:
        stages = node.stages
        if len(stages) == 1:
            status = self.exec_command(stages[0], io_, cond)
            self.vars["PIPESTATUS"] = IndexedArray([str(status & 0xFF)])
            return status
        data = io_.stdin
        statuses = []
        for k, stage in enumerate(stages):
            if k == len(stages) - 1:
                statuses.append(self.exec_command(stage, IO(data, io_.out, io_.err), cond, True))
                break
            out = Writer()
            statuses.append(self.exec_command(stage, IO(data, out, io_.err), cond, True))
            data = out.getvalue()
        self.vars["PIPESTATUS"] = IndexedArray([str(s & 0xFF) for s in statuses])
        if self.opts["pipefail"]:
            return next((s for s in reversed(statuses) if s != 0), 0)
        return statuses[-1]

    def exec_command(self, node: Stage, io_: IO, cond: bool = False, isolated: bool = False) -> int:
        # A command substitution's stderr is the stderr of the command being expanded (before
        # that command's own redirections, which bash applies after expanding its words).
        saved_err = self._current_err
        self._current_err = io_.err
        procsubs = len(self._procsubs)
        try:
            redirected, closers = self.redirect(node.redirs, io_)
        except ShellError as exc:
            io_.err.write(f"bash: {exc}\n")
            self._current_err = saved_err
            self._finish_procsubs(procsubs, io_)
            return 1
        if not isinstance(node, Simple):
            self._current_err = redirected.err
        try:
            if isinstance(node, Simple):
                return self.exec_simple(node, redirected, cond)
            # A compound command in a multi-stage pipeline runs in a subshell, as bash runs
            # every stage of a pipeline: `{ x=1; } | cat` leaves x as it was.
            if isinstance(node, Subshell) or isolated:
                return self.subshell(lambda: self.exec_compound(node, redirected, cond), redirected)
            return self.exec_compound(node, redirected, cond)
        finally:
            self._current_err = saved_err
            for close in closers:
                close()
            self._finish_procsubs(procsubs, io_)

    def subshell(self, body: Callable[[], int], io_: IO | None = None) -> int:
        """Run `body` on a copy of the shell's state (a subshell); its EXIT trap, if it sets
        one, runs as it ends (on `io_`)."""
        saved = (
            _copy_vars(self.vars),
            set(self.exported),
            dict(self.functions),
            list(self.positional),
            dict(self.opts),
            os.getcwd(),
            [_copy_vars(frame) for frame in self.locals],
            self.traps,
        )
        self.traps = {}
        status = 1
        try:
            status = body()
        except ShellExit as exc:
            status = exc.code
        finally:
            if self.traps.get("EXIT") and io_ is not None:
                status = self.run_exit_trap(io_, status)
            (
                self.vars,
                self.exported,
                self.functions,
                self.positional,
                self.opts,
                cwd,
                self.locals[:],
                self.traps,
            ) = saved
            try:
                os.chdir(cwd)
            except OSError:
                pass
        return status

    # -- process substitution -----------------------------------------------------------------

    def process_substitution(self, word: str) -> str:
        """`<(cmd)`: cmd's output in a file, whose path replaces the word. `>(cmd)`: a file the
        command writes, given to cmd as its stdin once the command has run. WASI has no pipes
        between processes: the files live in the temporary directory until the command ends."""
        import tempfile

        fd, path = tempfile.mkstemp(prefix="cove-procsub-")
        os.close(fd)
        source = word[2:-1]
        if word[0] == "<":
            out = Writer()
            try:
                tree = parse(source)
            except ShellSyntaxError as exc:
                raise FatalError(f"process substitution: {exc}") from None
            self.subshell(lambda: self.exec_list(tree, IO(b"", out, self._current_err)))
            with open(path, "wb") as f:
                f.write(out.getvalue())
            self._procsubs.append((path, None))
        else:
            self._procsubs.append((path, source))
        return path

    def _finish_procsubs(self, mark: int, io_: IO) -> None:
        """After the command that used them: run each `>(cmd)` on what was written to it, and
        remove the files."""
        while len(self._procsubs) > mark:
            path, source = self._procsubs.pop(mark)
            try:
                if source is not None:
                    with open(path, "rb") as f:
                        data = f.read()
                    tree = parse(source)
                    io_in = IO(data, io_.out, io_.err)
                    self.subshell(functools.partial(self.exec_list, tree, io_in))
            except ShellSyntaxError as exc:
                io_.err.write(f"bash: process substitution: {exc}\n")
            finally:
                try:
                    os.unlink(path)
                except OSError:
                    pass

    def exec_compound(self, node: Stage, io_: IO, cond: bool) -> int:
        match node:
            case Group(body=body) | Subshell(body=body):
                return self.exec_list(body, io_, cond)
            case If(clauses=clauses, else_=else_):
                for test, body in clauses:
                    if self.exec_list(test, io_, True) == 0:
                        return self.exec_list(body, io_, cond)
                return self.exec_list(else_, io_, cond) if else_ else 0
            case While(cond=test, body=body, until=until):
                status = 0
                while (self.exec_list(test, io_, True) == 0) != until:
                    status, broken = self._loop_body(body, io_, cond, status)
                    if broken:
                        break
                return status
            case For(var=var, items=words, body=body):
                if words is None:
                    items = list(self.positional)
                else:
                    items = []
                    for word in words:
                        items.extend(self.expand(word))
                status = 0
                for item in items:
                    self.set(var, item)
                    status, broken = self._loop_body(body, io_, cond, status)
                    if broken:
                        break
                return status
            case Select():
                return self.exec_select(node, io_, cond)
            case CFor(init=init, cond=test, step=step, body=body):
                self.arith(init)
                status = 0
                while test.strip() == "" or self.arith(test) != 0:
                    status, broken = self._loop_body(body, io_, cond, status)
                    if broken:
                        break
                    self.arith(step)
                return status
            case Case(word=word, arms=arms):
                subject = self.expand_str(word)
                for patterns, body in arms:
                    for pattern in patterns:
                        if self.match(subject, self.expand_pattern(pattern)):
                            return self.exec_list(body, io_, cond)
                return 0
            case FuncDef(name=name, body=body):
                self.functions[name] = body
                return 0
            case Arith(expr=expr):
                try:
                    return 0 if self.arith(expr) != 0 else 1
                except ArithError as exc:
                    io_.err.write(f"bash: ((: {expr}: {exc}\n")
                    return 1
            case Cond(words=words):
                try:
                    return 0 if self.cond(words) else 1
                except ShellError as exc:
                    io_.err.write(f"bash: {exc}\n")
                    return 2
            case Unsupported(what=what):
                io_.err.write(f"bash: {what}\n")
                return 2
        raise ShellError(f"unsupported construct {type(node).__name__}")

    def _loop_body(self, body: CommandList, io_: IO, cond: bool, status: int) -> tuple[int, bool]:
        """One round of a loop's body: (the loop's status after it, whether a `break` ended the
        loop). `break N` and `continue N` aimed at an enclosing loop go on up, one level less;
        a round they cut short leaves the status as it was."""
        try:
            return self.exec_list(body, io_, cond), False
        except LoopBreak as b:
            if b.levels > 1:
                raise LoopBreak(b.levels - 1) from None
            return status, True
        except LoopContinue as c:
            if c.levels > 1:
                raise LoopContinue(c.levels - 1) from None
            return status, False

    def exec_select(self, node: Select, io_: IO, cond: bool) -> int:
        """`select`: the menu and the `PS3` prompt on stderr, a line of stdin per round."""
        items = list(self.positional) if node.items is None else []
        for word in node.items or []:
            items.extend(self.expand(word))
        data = io_.stdin if isinstance(io_.stdin, bytes) else b""
        lines = data.decode("utf-8", "surrogateescape").splitlines()
        status = 0  # the body's last, when a `break` ends the loop
        show_menu = True
        while True:
            if show_menu:
                width = len(str(len(items)))
                for k, item in enumerate(items, 1):
                    io_.err.write(f"{k:>{width}}) {item}\n")
            prompt = self.get("PS3")
            io_.err.write(prompt if prompt is not None else "#? ")
            if not lines:
                io_.out.write("\n")
                return 1
            reply = lines.pop(0)
            self.set("REPLY", reply)
            show_menu = reply.strip() == ""
            if show_menu:
                continue
            choice = reply.strip()
            self.set(
                node.var,
                items[int(choice) - 1]
                if choice.isdigit() and 0 < int(choice) <= len(items)
                else "",
            )
            status, broken = self._loop_body(node.body, IO(b"", io_.out, io_.err), cond, status)
            if broken:
                return status

    def arith(self, expr: str) -> int:
        expanded = self.expand_str(expr, arith=True)

        def get(name: str) -> str | None:
            value = self.get(name)
            if value is None and self.opts["nounset"]:
                raise FatalError(f"{name}: unbound variable")
            return value

        return evaluate(expanded, get, lambda n, v: self.set(n, str(v)))

    def exec_simple(self, node: Simple, io_: IO, cond: bool) -> int:
        argv: list[str] = []
        declaring = bool(node.words) and node.words[0] in DECLARATIONS
        for k, word in enumerate(node.words):
            parts = split_assignment(word) if declaring and k else None
            if parts is not None:
                raw = parts[3]
                if parts[1] is None and raw.startswith("(") and raw.endswith(")"):
                    argv.append(Compound(word))
                else:
                    argv.append(word[: len(word) - len(raw)] + self.expand_str(raw, assign=True))
                continue
            argv.extend(self.expand(word))
        if not argv:
            # Assignments alone: made in order (each sees the ones before it); the status is
            # the last command substitution's, else 0.
            self._subst_status = None
            for a in node.assigns:
                self.assign(a)
            if self.opts["xtrace"] and node.assigns:
                io_.err.write("+ " + " ".join(node.assigns) + "\n")
            status = self._subst_status
            self._subst_status = None
            if status is not None:
                return status
            return self.status if node.words else 0
        assigns = []
        for a in node.assigns:
            parsed = split_assignment(a)
            assert parsed is not None  # the parser took it for an assignment
            name, _, append, value = parsed
            value = self.expand_str(value, assign=True)
            if append:
                value = (self.get(name) or "") + value
            assigns.append((name, value))
        if self.opts["xtrace"]:
            io_.err.write(
                "+ "
                + " ".join([f"{n}={v}" for n, v in assigns] + [shell_quote(a) for a in argv])
                + "\n"
            )
        saved = {}
        if assigns:
            for name, value in assigns:
                saved[name] = (self.get(name), name in self.exported)
                self.set(name, value)
                self.exported.add(name)
        try:
            return self.call(argv, io_, cond)
        finally:
            for name, (old, was_exported) in saved.items():
                if old is None:
                    self.unset(name)
                else:
                    self.set(name, old)
                if not was_exported:
                    self.exported.discard(name)

    def assign(self, word: str) -> None:
        """One assignment word, made now: `a=v`, `a+=v`, `a[k]=v`, `a=(...)`, `a+=(...)`."""
        parsed = split_assignment(word)
        if parsed is None:
            raise ShellError(f"`{word}': not a valid identifier")
        name, sub, append, raw = parsed
        if sub is None and raw.startswith("(") and raw.endswith(")"):
            self.assign_compound(name, raw[1:-1], append=append)
            return
        value = self.expand_str(raw, assign=True)
        if sub is not None:
            self.set_element(name, sub, value, append=append)
            return
        if append:
            value = (self.get(name) or "") + value
        self.set(name, value)

    def call(self, argv: list[str], io_: IO, cond: bool = False) -> int:
        name = argv[0]
        if name in self.functions:
            return self.call_function(name, argv, io_)
        builtin = BUILTINS.get(name)
        if builtin is not None:
            try:
                return builtin(Context(self, argv, io_), argv[1:])
            except CONTROL_FLOW:
                raise
            except ShellError as exc:
                io_.err.write(f"bash: {name}: {exc}\n")
                return exc.code
            except OSError as exc:
                io_.err.write(f"bash: {name}: {os_message(exc)}\n")
                return 1
            except (Exception, SystemExit) as exc:
                io_.err.write(internal_error(f"bash: {name}", exc))
                return 1
        command = self.commands.get(name)
        if command is None and "/" in name:
            command = (
                self.commands.get(name.rsplit("/", 1)[1])
                if name.startswith(("/bin/", "/usr/bin/"))
                else None
            )
            if command is None and os.path.isfile(name):
                return self.run_script(name, argv[1:], io_)
        if command is None:
            io_.err.write(f"bash: {name}: command not found\n")
            return 127
        ctx = Context(self, argv, io_)
        try:
            return command(ctx, argv[1:])
        except ShellError as exc:
            io_.err.write(f"{name}: {exc}\n")
            return exc.code
        except CONTROL_FLOW:
            raise
        except OSError as exc:
            io_.err.write(f"{name}: {os_message(exc)}\n")
            return 1
        except (Exception, SystemExit) as exc:
            # A utility's unexpected failure is its own error, never the shell's.
            io_.err.write(internal_error(f"bash: {name}", exc))
            return 2

    def call_function(self, name: str, argv: list[str], io_: IO) -> int:
        if self.depth >= MAX_DEPTH:
            raise ShellError("maximum function nesting level exceeded")
        saved = self.positional
        self.positional = argv[1:]
        self.locals.append({})
        self.depth += 1
        try:
            return self.exec_command(self.functions[name], io_)
        except FunctionReturn as r:
            return r.code
        finally:
            self.depth -= 1
            self.locals.pop()
            self.positional = saved

    def run_script(self, path: str, args: list[str], io_: IO) -> int:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            src = f.read()
        if src.startswith("#!") and "python" in src.split("\n", 1)[0]:
            return self.call(["python3", path, *args], io_)
        saved = self.positional
        self.positional = list(args)
        try:
            return self.subshell(lambda: self.exec_list(parse(src), io_))
        finally:
            self.positional = saved

    # -- redirections -------------------------------------------------------------------------

    def redirect(self, redirs: tuple[Redir, ...], io_: IO) -> tuple[IO, list[Callable[[], object]]]:
        if not redirs:
            return io_, []
        fds: dict[int, Any] = {0: io_.stdin, 1: io_.out, 2: io_.err}  # bytes for stdin
        closers = []
        for r in redirs:
            op, fd = r.op, r.fd
            if op in ("<<", "<<-"):
                body = r.heredoc["body"] if r.heredoc else ""
                if r.heredoc and not r.heredoc["quoted"]:
                    body = self.expand_str(body, heredoc=True)
                fds[fd] = body.encode("utf-8", "surrogateescape")
                continue
            if op == "<<<":
                fds[fd] = (self.expand_str(r.target) + "\n").encode("utf-8", "surrogateescape")
                continue
            words = self.expand(r.target)
            if len(words) != 1:
                raise ShellError(f"{r.target}: ambiguous redirect")
            target = words[0]
            if op in (">&", "<&") and (target.isdigit() or target == "-"):
                if target == "-":
                    fds[fd] = NullSink() if fd else b""
                    continue
                src_fd = int(target)
                if src_fd not in fds:
                    raise ShellError(f"{target}: Bad file descriptor")
                fds[fd] = fds[src_fd]
                continue
            if op == "<":
                fds[fd] = read_path(target)
                continue
            if op == "<>":
                raise ShellError("<> redirection is not supported")
            mode = "ab" if op in (">>", "&>>") else "wb"
            writer = open_writer(target, mode)
            if hasattr(writer.target, "close"):
                closers.append(writer.target.close)
            if op in ("&>", "&>>") or (op == ">&" and not target.isdigit()):
                fds[1] = writer
                fds[2] = writer
            else:
                fds[fd] = writer
        return IO(fds[0], fds[1], fds[2]), closers

    # -- expansion ----------------------------------------------------------------------------

    def expand(self, word: str) -> list[str]:
        """Full expansion of one word into fields: braces, tilde, parameters, command and
        arithmetic substitution, field splitting, pathname expansion, quote removal."""
        if word[:2] in ("<(", ">(") and word.endswith(")") and scan_dollar(word, 0) == len(word):
            return [self.process_substitution(word)]
        fields = []
        for piece in brace_expand(word):
            fields.extend(self._expand_one(piece))
        return fields

    def expand_str(
        self, text: str, assign: bool = False, heredoc: bool = False, arith: bool = False
    ) -> str:
        """Expansion without splitting or globbing (assignments, heredocs, case words)."""
        segs = self._segments(text, heredoc=heredoc, tilde=not heredoc and not arith, assign=assign)
        return "".join(s[0] if isinstance(s, tuple) else "" for s in segs)

    def expand_pattern(self, text: str) -> str:
        """A word as a pattern: quoted parts match literally."""
        out = []
        for seg in self._segments(text):
            if not isinstance(seg, tuple):
                continue
            value, quoted = seg[0], seg[1]
            out.append(glob_escape(value) if quoted else value)
        return "".join(out)

    def _expand_one(self, word: str) -> list[str]:
        segs = self._segments(word)
        # Build fields: quoted and literal text joins; unquoted expansion results split on IFS.
        ifs = self.get("IFS")
        if ifs is None:
            ifs = " \t\n"
        fields = []
        cur_text: list[str]
        cur_pat: list[str]
        cur_text, cur_pat, has_any, magic = [], [], False, False

        def flush(force: bool = False) -> None:
            nonlocal cur_text, cur_pat, has_any, magic
            if has_any or force:
                fields.append(("".join(cur_text), "".join(cur_pat), magic))
            cur_text, cur_pat, has_any, magic = [], [], False, False

        for seg in segs:
            if seg == "BREAK":
                flush(force=True)
                continue
            value, quoted, kind = seg if isinstance(seg, tuple) else ("", False, "")
            if kind == "lit":
                cur_text.append(value)
                if quoted:
                    cur_pat.append(glob_escape(value))
                else:
                    cur_pat.append(value)
                    if _glob.has_magic(value):
                        magic = True
                has_any = True
                continue
            if quoted:
                cur_text.append(value)
                cur_pat.append(glob_escape(value))
                has_any = True
                continue
            # Unquoted expansion: split on IFS.
            if not value:
                continue
            parts = ifs_split(value, ifs)
            if not parts:
                if value and any(c in ifs for c in value) and ifs and value.strip(ifs) == "":
                    flush()
                continue
            leading = value[0] in ifs
            trailing = value[-1] in ifs
            for k, part in enumerate(parts):
                if k > 0 or leading:
                    flush()
                cur_text.append(part)
                cur_pat.append(part)
                if _glob.has_magic(part):
                    magic = True
                has_any = True
            if trailing:
                flush()
        flush()
        out = []
        for text, pattern, is_magic in fields:
            if is_magic:
                matches = pathname_expand(pattern)
                if matches:
                    out.extend(matches)
                    continue
            out.append(text)
        return out

    def _segments(
        self, text: str, heredoc: bool = False, tilde: bool = True, assign: bool = False
    ) -> list[Segment]:
        """Scan `text` into segments (value, quoted, kind) and "BREAK" markers ("$@" fields)."""
        segs: list[tuple[str, bool, str] | str] = []
        i, n = 0, len(text)
        lit: list[str] = []

        def flush_lit(quoted: bool = False) -> None:
            if lit:
                segs.append(("".join(lit), quoted, "lit"))
                lit.clear()

        if tilde and text.startswith("~"):
            j = 1
            while j < n and text[j] not in "/:":
                j += 1
            if j == 1:
                lit.append(self.get("HOME") or "/workspace")
                i = 1
        while i < n:
            c = text[i]
            if c == "\\" and not heredoc:
                if i + 1 < n:
                    flush_lit()
                    segs.append((text[i + 1], True, "lit"))
                    i += 2
                else:
                    lit.append("\\")
                    i += 1
                continue
            if c == "\\" and heredoc:
                if i + 1 < n and text[i + 1] in "$`\\\n":
                    if text[i + 1] != "\n":
                        lit.append(text[i + 1])
                    i += 2
                else:
                    lit.append(c)
                    i += 1
                continue
            if c == "'" and not heredoc:
                j = text.index("'", i + 1)
                flush_lit()
                segs.append((text[i + 1 : j], True, "lit"))
                i = j + 1
                continue
            if c == '"' and not heredoc:
                j = scan_quoted(text, i + 1, '"')
                flush_lit()
                inner = text[i + 1 : j - 1]
                sub = self._dquote(inner)
                if not sub:
                    segs.append(("", True, "lit"))
                segs.extend(sub)
                i = j
                continue
            if c == "$" and i + 1 < n and text[i + 1] == "'" and not heredoc:
                j = scan_ansi(text, i + 2)
                flush_lit()
                segs.append((ansi_c(text[i + 2 : j - 1]), True, "lit"))
                i = j
                continue
            if c == "$" and i + 1 < n and text[i + 1] == '"' and not heredoc:
                i += 1
                continue
            if c == "$" or c == "`":
                value, i, is_at = self._dollar(text, i, quoted=heredoc)
                flush_lit()
                if is_at is not None and not heredoc:
                    for k, item in enumerate(is_at):
                        if k:
                            segs.append("BREAK")
                        segs.append((item, False, "exp"))
                    continue
                if value is None:  # a lone $ is literal
                    lit.append("$")
                    continue
                segs.append((value, heredoc, "exp"))
                continue
            if assign and c == ":" and i + 1 < n and text[i + 1] == "~":
                lit.append(":" + (self.get("HOME") or ""))
                i += 2
                continue
            lit.append(c)
            i += 1
        flush_lit()
        return segs

    def _dquote(self, inner: str) -> list[Segment]:
        segs: list[tuple[str, bool, str] | str] = []
        i, n = 0, len(inner)
        lit = []
        while i < n:
            c = inner[i]
            if c == "\\" and i + 1 < n and inner[i + 1] in '$`"\\\n':
                if inner[i + 1] != "\n":
                    lit.append(inner[i + 1])
                i += 2
                continue
            if c == "$" or c == "`":
                value, i, at = self._dollar(inner, i, quoted=True)
                if at is not None:
                    if lit:
                        segs.append(("".join(lit), True, "lit"))
                        lit.clear()
                    for k, item in enumerate(at):
                        if k:
                            segs.append("BREAK")
                        segs.append((item, True, "exp"))
                    if not at:
                        segs.append(("", False, "exp"))
                    continue
                if value is None:
                    lit.append("$")
                    continue
                lit.append(value)
                continue
            lit.append(c)
            i += 1
        if lit:
            segs.append(("".join(lit), True, "lit"))
        return segs

    def _dollar(self, text: str, i: int, quoted: bool) -> tuple[str | None, int, list[str] | None]:
        """Expand the $-form or backquote at text[i]; returns (value, next index, "$@" list)."""
        n = len(text)
        if text[i] == "`":
            j = scan_quoted(text, i + 1, "`")
            inner = (
                text[i + 1 : j - 1].replace("\\`", "`").replace("\\$", "$").replace("\\\\", "\\")
            )
            return self.command_substitution(inner), j, None
        if i + 1 >= n:
            return None, i + 1, None
        c = text[i + 1]
        if c == "(":
            if text.startswith("$((", i):
                j = scan_dollar(text, i)
                expr = text[i + 3 : j - 2]
                if text[j - 2 : j] == "))":
                    try:
                        return str(self.arith(expr)), j, None
                    except ArithError as exc:
                        raise FatalError(f"{expr}: {exc}") from None
            j = scan_dollar(text, i)
            return self.command_substitution(text[i + 2 : j - 1]), j, None
        if c == "{":
            j = scan_dollar(text, i)
            value, _, at = self.param(text[i + 2 : j - 1], quoted)
            return value, j, at
        if c in "@*":
            if c == "@" or not quoted:
                return None, i + 2, list(self.positional)
            ifs = self.get("IFS")
            sep = (ifs[0] if ifs else "") if ifs is not None else " "
            return sep.join(self.positional), i + 2, None
        if c in "?#$!-0123456789":
            value = self.special(c)
            return ("" if value is None else value), i + 2, None
        if c.isalpha() or c == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            name = text[i + 1 : j]
            value = (
                self.special(name) if name in ("RANDOM", "LINENO", "SECONDS") else self.get(name)
            )
            if value is None:
                if self.opts["nounset"]:
                    raise FatalError(f"{name}: unbound variable")
                value = ""
            return value, j, None
        return None, i + 1, None

    def param(self, body: str, quoted: bool) -> tuple[str | None, None, list[str] | None]:
        """${...} forms."""
        m = _SUBSCRIPTED.match(body)
        if m is not None:
            close = _subscript_end(body, m.end())
            if close is None:
                raise FatalError(f"${{{body}}}: bad substitution")
            return self._param_array(
                m.group(1), m.group(2), body[m.end() : close], body[close + 1 :], quoted, body
            )
        if body.startswith("#") and len(body) > 1:
            name = body[1:]
            if name in ("@", "*"):
                return str(len(self.positional)), None, None
            value = self._lookup(name)
            return str(len(value or "")), None, None
        if body.startswith("!"):
            name = self._lookup(body[1:]) or ""
            return self._lookup(name) or "", None, None
        m = re.match(r"^([A-Za-z_][A-Za-z_0-9]*|[0-9]+|[@*#?$!-])(.*)$", body, re.S)
        if not m:
            raise FatalError(f"${{{body}}}: bad substitution")
        name, rest = m.group(1), m.group(2)
        if name in ("@", "*") and not rest:
            if name == "@" or not quoted:
                return None, None, list(self.positional)
            return " ".join(self.positional), None, None
        value = self._lookup(name)
        if not rest:
            if value is None and self.opts["nounset"]:
                raise FatalError(f"{name}: unbound variable")
            return value or "", None, None
        return self._param_ops(name, value, rest, body), None, None

    def _param_array(
        self, prefix: str, name: str, sub: str, rest: str, quoted: bool, body: str
    ) -> tuple[str | None, None, list[str] | None]:
        """`${a[...]...}`, `${#a[...]}` and `${!a[@]}`."""
        array = self.get_var(name)
        if sub in ("@", "*"):
            if isinstance(array, (IndexedArray, AssocArray)):
                keys, values = array.keys(), array.values()
            elif array is None:
                keys, values = [], []
            else:
                keys, values = ["0"], [array]
            if prefix in ("#", "!") and rest:
                raise FatalError(f"${{{body}}}: bad substitution")
            if prefix == "#":
                return str(len(values)), None, None
            if prefix == "!":
                items = keys
            elif not rest:
                items = values
            else:
                chosen = self._array_ops(name, array, values, rest, body)
                if isinstance(chosen, str):
                    return chosen, None, None
                items = chosen
            if sub == "@" or not quoted:
                return None, None, items
            ifs = self.get("IFS")
            sep = (ifs[0] if ifs else "") if ifs is not None else " "
            return sep.join(items), None, None
        value = self.get_element(name, sub)
        if prefix == "#":
            return str(len(value or "")), None, None
        if prefix == "!":
            return self._lookup(value or "") or "", None, None
        if not rest:
            if value is None and self.opts["nounset"]:
                raise FatalError(f"{name}[{sub}]: unbound variable")
            return value or "", None, None
        return self._param_ops(f"{name}[{sub}]", value, rest, body), None, None

    def _array_ops(
        self, name: str, array: Value | None, values: list[str], rest: str, body: str
    ) -> str | list[str]:
        """An operator applied to every element (`${a[@]#p}`, `${a[@]^^}`, ...), a slice
        (`${a[@]:1:2}`) or a default (`${a[@]:-w}`): the resulting fields, or one string."""
        for op in (":-", ":=", ":+", ":?", "-", "=", "+", "?"):
            if rest.startswith(op):
                empty = not values or (op.startswith(":") and "".join(values) == "")
                base = op[-1]
                word = rest[len(op) :]
                if base == "-":
                    return self.expand_str(word) if empty else values
                if base == "+":
                    return "" if empty else self.expand_str(word)
                if base == "?" and empty:
                    message = self.expand_str(word) or "parameter null or not set"
                    raise FatalError(f"{name}: {message}")
                if base == "=" and empty:
                    raise FatalError(f"{name}[@]: bad array subscript")
                return values
        if rest.startswith(":"):
            off, _, length = rest[1:].partition(":")
            try:
                start = self.arith(off)
                count = self.arith(length) if length else None
            except ArithError as exc:
                raise FatalError(str(exc)) from None
            if isinstance(array, IndexedArray):
                if start < 0:
                    start += array.next_index()
                chosen = [array.items[k] for k in sorted(array.items) if k >= start]
            else:
                chosen = values[start:] if start >= 0 else values[len(values) + start :]
            if count is not None:
                if count < 0:
                    raise FatalError(f"{length}: substring expression < 0")
                chosen = chosen[:count]
            return chosen
        return [self._param_ops(name, v, rest, body) for v in values]

    def _param_ops(self, name: str, value: str | None, rest: str, body: str) -> str:
        """`${name<rest>}` on one value (None: unset): defaults, trimming, replacement,
        substrings, case."""
        for op in (":-", ":=", ":+", ":?", "-", "=", "+", "?"):
            if rest.startswith(op):
                word = rest[len(op) :]
                unset = value is None or (op.startswith(":") and value == "")
                base = op[-1]
                if base == "-":
                    return self.expand_str(word) if unset or value is None else value
                if base == "=":
                    if unset or value is None:
                        value = self.expand_str(word)
                        self.set(name, value)
                    return value
                if base == "+":
                    return "" if unset else self.expand_str(word)
                if unset or value is None:
                    msg = self.expand_str(word) or "parameter null or not set"
                    raise FatalError(f"{name}: {msg}")
                return value
        if value is None:
            if self.opts["nounset"]:
                raise FatalError(f"{name}: unbound variable")
            value = ""
        for op in ("##", "#", "%%", "%"):
            if rest.startswith(op):
                pattern = self.expand_pattern(rest[len(op) :])
                return trim_pattern(value, pattern, op)
        if rest.startswith("//") or rest.startswith("/"):
            all_ = rest.startswith("//")
            spec = rest[2:] if all_ else rest[1:]
            anchor = ""
            if spec[:1] in ("#", "%") and not all_:
                anchor, spec = spec[0], spec[1:]
            pat, _, rep = split_unescaped(spec, "/")
            return replace_pattern(
                value, self.expand_pattern(pat), self.expand_str(rep), all_, anchor
            )
        if rest.startswith(":"):
            spec = rest[1:]
            off, _, length = spec.partition(":")
            try:
                start = self.arith(off)
                if start < 0:
                    start = max(0, len(value) + start)
                if length:
                    ln = self.arith(length)
                    end = start + ln if ln >= 0 else len(value) + ln
                    return value[start:end]
                return value[start:]
            except ArithError as exc:
                raise FatalError(str(exc)) from None
        if rest in ("^^", ",,", "^", ","):
            if rest == "^^":
                return value.upper()
            if rest == ",,":
                return value.lower()
            if rest == "^":
                return value[:1].upper() + value[1:]
            return value[:1].lower() + value[1:]
        raise FatalError(f"${{{body}}}: bad substitution")

    def _lookup(self, name: str) -> str | None:
        if name.isdigit() or name in "?#$!-@*" or name in ("RANDOM", "LINENO", "SECONDS"):
            return self.special(name)
        return self.get(name)

    def command_substitution(self, src: str) -> str:
        out = Writer()
        err = self._current_err
        try:
            tree = parse(src)
        except ShellSyntaxError as exc:
            raise FatalError(f"command substitution: {exc}") from None

        def body() -> int:
            return self.exec_list(tree, IO(b"", out, err))

        self.status = self.subshell(body, IO(b"", out, err))
        self._subst_status = self.status
        return out.getvalue().decode("utf-8", "surrogateescape").rstrip("\n")

    def match(self, text: str, pattern: str) -> bool:
        return fnmatch(text, pattern)

    # -- [[ ]] ----------------------------------------------------------------------------------

    def cond(self, words: tuple[tuple[str, str], ...]) -> bool:
        pos = [0]

        def peek() -> tuple[str, str] | None:
            return words[pos[0]] if pos[0] < len(words) else None

        def take() -> tuple[str, str]:
            tok = words[pos[0]]
            pos[0] += 1
            return tok

        def or_() -> bool:
            v = and_()
            while peek() == ("op", "||"):
                take()
                rhs = and_()
                v = v or rhs
            return v

        def and_() -> bool:
            v = not_()
            while peek() == ("op", "&&"):
                take()
                rhs = not_()
                v = v and rhs
            return v

        def not_() -> bool:
            if peek() == ("word", "!"):
                take()
                return not not_()
            return primary()

        def primary() -> bool:
            tok = take()
            if tok == ("op", "("):
                v = or_()
                if take() != ("op", ")"):
                    raise ShellError("syntax error in conditional expression")
                return v
            kind, raw = tok
            nxt = peek()
            if (
                kind == "word"
                and raw.startswith("-")
                and len(raw) == 2
                and nxt
                and nxt[0] == "word"
                and not (
                    pos[0] + 1 < len(words)
                    and words[pos[0] + 1][0] == "word"
                    and words[pos[0] + 1][1]
                    in (
                        "==",
                        "=",
                        "!=",
                        "=~",
                        "-eq",
                        "-ne",
                        "-lt",
                        "-le",
                        "-gt",
                        "-ge",
                        "-nt",
                        "-ot",
                        "<",
                        ">",
                    )
                )
            ):
                operand = self.expand_str(take()[1])
                if raw == "-v":
                    return self.is_set(operand)
                return unary_test(raw, operand)
            left = self.expand_str(raw)
            if nxt is None or nxt in (("op", "&&"), ("op", "||"), ("op", ")")):
                return left != ""
            op = take()[1]
            right_raw = take()[1]
            if op in ("==", "=", "!="):
                pattern = self.expand_pattern(right_raw)
                result = fnmatch(left, pattern)
                return result if op != "!=" else not result
            if op == "=~":
                regex = self.expand_str(right_raw)
                m = re.search(expand_classes(regex), left)
                self.vars["BASH_REMATCH"] = m.group(0) if m else ""
                return m is not None
            right = self.expand_str(right_raw)
            if op == "<":
                return left < right
            if op == ">":
                return left > right
            return binary_test(op, left, right)

        value = or_()
        if pos[0] != len(words):
            raise ShellError("syntax error in conditional expression")
        return value

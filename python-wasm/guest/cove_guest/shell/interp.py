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

import glob as _glob
import os
import re

from cove_guest.deadline import TimeLimitExceeded
from cove_guest.shell.arith import ArithError, evaluate
from cove_guest.shell.builtins import BUILTINS
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
from cove_guest.shell.io import IO, Context, NullSink, Writer, open_writer, read_path
from cove_guest.shell.parse import ShellSyntaxError, parse, scan_ansi, scan_dollar, scan_quoted
from cove_guest.text.errors import ShellError, os_message
from cove_guest.text.escapes import ansi_c, shell_quote
from cove_guest.text.patterns import expand_classes, fnmatch, glob_escape

MAX_DEPTH = 100


class Shell:
    """One shell session's state and interpreter.

    `commands` maps a command name to `name(ctx, args) -> status` (the driver passes
    `cove_guest.commands.COMMANDS`); `host` provides `python(ctx, args)`, which starts a fresh
    interpreter (None: python is unavailable).
    """

    def __init__(self, commands=None, host=None):
        self.vars = {
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
        self.functions = {}
        self.positional = []
        self.status = 0
        self.opts = {"errexit": False, "nounset": False, "xtrace": False, "pipefail": False}
        self.locals = []
        self.host = host
        self.depth = 0
        self.line = 1
        self._current_err = NullSink()
        self.commands = dict(commands or {})

    # -- entry point --------------------------------------------------------------------------

    def run(self, src, stdin=b"", *, stop_at_time_limit=False):
        """Run a command line; returns (stdout bytes, stderr bytes, status).

        With `stop_at_time_limit` (the session's own shell), the call's time limit stops the
        command line with status 124 and the shell goes on; otherwise (a shell run by model code,
        `subprocess`) `TimeLimitExceeded` propagates to that code's caller.
        """
        out, err = Writer(), Writer()
        io_ = IO(stdin, out, err)
        try:
            tree = parse(src)
        except ShellSyntaxError as exc:
            err.write(f"bash: -c: line 1: {exc}\n")
            return out.getvalue(), err.getvalue(), 2
        try:
            status = self.exec_list(tree, io_)
        except ShellExit as exc:
            status = exc.code
        except FatalError as exc:
            err.write(f"bash: line 1: {exc}\n")
            status = exc.code
        except (FunctionReturn, LoopBreak, LoopContinue):
            status = self.status
        except RecursionError:
            err.write("bash: maximum function nesting level exceeded\n")
            status = 1
        except ShellError as exc:
            err.write(f"bash: {exc}\n")
            status = exc.code
        except OSError as exc:
            err.write(f"bash: {os_message(exc)}\n")
            status = 1
        except (Exception, SystemExit) as exc:
            # Whatever went wrong, the shell (and the interpreter it lives in) goes on.
            err.write(internal_error("bash", exc))
            status = 1
        except TimeLimitExceeded:
            if not stop_at_time_limit:
                raise
            err.write("bash: the command line was stopped: the call's time limit was reached\n")
            status = 124
        self.status = status
        return out.getvalue(), err.getvalue(), status & 0xFF

    # -- variables ----------------------------------------------------------------------------

    def get(self, name):
        for frame in reversed(self.locals):
            if name in frame:
                return frame[name]
        if name in self.vars:
            return self.vars[name]
        if name == "PWD":
            return os.getcwd()
        return None

    def set(self, name, value):
        for frame in reversed(self.locals):
            if name in frame:
                frame[name] = value
                return
        self.vars[name] = value

    def unset(self, name):
        for frame in reversed(self.locals):
            if name in frame:
                frame[name] = None
                return
        self.vars.pop(name, None)
        self.exported.discard(name)

    def environ(self):
        env = {}
        for name in self.exported:
            value = self.get(name)
            if value is not None:
                env[name] = value
        return env

    def special(self, name):
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
            return "bash"
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

    def exec_list(self, node, io_, cond=False):
        status = 0
        for item in node.items:
            status = self.exec_node(item.node, io_, cond)
        return status

    def exec_node(self, node, io_, cond=False):
        kind = node.kind
        if kind == "andor":
            left = self.exec_node(node.left, io_, True)
            if (node.op == "&&" and left == 0) or (node.op == "||" and left != 0):
                return self.exec_node(node.right, io_, cond)
            return left
        if kind == "pipeline":
            status = self.exec_pipeline(node, io_, cond)
            if node.negate:
                status = int(status == 0)
            self.status = status
            if status != 0 and self.opts["errexit"] and not cond and not node.negate:
                raise ShellExit(status)
            return status
        if kind == "list":
            return self.exec_list(node, io_, cond)
        raise ShellError(f"cannot run {kind}")

    def exec_pipeline(self, node, io_, cond):
        stages = node.stages
        if len(stages) == 1:
            return self.exec_command(stages[0], io_, cond)
        data = io_.stdin
        statuses = []
        for k, stage in enumerate(stages):
            last = k == len(stages) - 1
            out = io_.out if last else Writer()
            status = self.exec_command(stage, IO(data, out, io_.err), cond, isolated=True)
            statuses.append(status)
            if not last:
                data = out.getvalue()
        if self.opts["pipefail"]:
            return next((s for s in reversed(statuses) if s != 0), 0)
        return statuses[-1]

    def exec_command(self, node, io_, cond=False, isolated=False):
        kind = node.kind
        # A command substitution's stderr is the stderr of the command being expanded (before
        # that command's own redirections, which bash applies after expanding its words).
        saved_err = self._current_err
        self._current_err = io_.err
        try:
            redirected, closers = self.redirect(node.redirs, io_)
        except ShellError as exc:
            io_.err.write(f"bash: {exc}\n")
            self._current_err = saved_err
            return 1
        if kind != "simple":
            self._current_err = redirected.err
        try:
            if kind == "simple":
                return self.exec_simple(node, redirected, cond)
            if kind == "group":
                return self.exec_list(node.body, redirected, cond)
            if kind == "subshell" or (isolated and kind != "simple"):
                return self.subshell(
                    lambda: (
                        self.exec_list(node.body, redirected, cond)
                        if kind in ("subshell", "group")
                        else self.exec_compound(node, redirected, cond)
                    )
                )
            return self.exec_compound(node, redirected, cond)
        finally:
            self._current_err = saved_err
            for close in closers:
                close()

    def subshell(self, body):
        saved = (
            dict(self.vars),
            set(self.exported),
            dict(self.functions),
            list(self.positional),
            dict(self.opts),
            os.getcwd(),
        )
        try:
            return body()
        except ShellExit as exc:
            return exc.code
        finally:
            self.vars, self.exported, self.functions, self.positional, self.opts, cwd = saved
            try:
                os.chdir(cwd)
            except OSError:
                pass

    def exec_compound(self, node, io_, cond):
        kind = node.kind
        if kind == "if":
            for test, body in node.clauses:
                if self.exec_list(test, io_, True) == 0:
                    return self.exec_list(body, io_, cond)
            return self.exec_list(node.else_, io_, cond) if node.else_ else 0
        if kind == "while":
            status = 0
            while True:
                test = self.exec_list(node.cond, io_, True)
                if (test == 0) == node.until:
                    break
                try:
                    status = self.exec_list(node.body, io_, cond)
                except LoopBreak as b:
                    if b.levels > 1:
                        raise LoopBreak(b.levels - 1) from None
                    break
                except LoopContinue as c:
                    if c.levels > 1:
                        raise LoopContinue(c.levels - 1) from None
            return status
        if kind == "for":
            if node.items is None:
                items = list(self.positional)
            else:
                items = []
                for word in node.items:
                    items.extend(self.expand(word))
            status = 0
            for item in items:
                self.set(node.var, item)
                try:
                    status = self.exec_list(node.body, io_, cond)
                except LoopBreak as b:
                    if b.levels > 1:
                        raise LoopBreak(b.levels - 1) from None
                    break
                except LoopContinue as c:
                    if c.levels > 1:
                        raise LoopContinue(c.levels - 1) from None
            return status
        if kind == "cfor":
            self.arith(node.init)
            status = 0
            while node.cond.strip() == "" or self.arith(node.cond) != 0:
                try:
                    status = self.exec_list(node.body, io_, cond)
                except LoopBreak as b:
                    if b.levels > 1:
                        raise LoopBreak(b.levels - 1) from None
                    break
                except LoopContinue as c:
                    if c.levels > 1:
                        raise LoopContinue(c.levels - 1) from None
                self.arith(node.step)
            return status
        if kind == "case":
            word = self.expand_str(node.word)
            for patterns, body in node.arms:
                for pattern in patterns:
                    if self.match(word, self.expand_pattern(pattern)):
                        return self.exec_list(body, io_, cond)
            return 0
        if kind == "funcdef":
            self.functions[node.name] = node.body
            return 0
        if kind == "arith":
            try:
                return 0 if self.arith(node.expr) != 0 else 1
            except ArithError as exc:
                io_.err.write(f"bash: ((: {node.expr}: {exc}\n")
                return 1
        if kind == "cond":
            try:
                return 0 if self.cond(node.words) else 1
            except ShellError as exc:
                io_.err.write(f"bash: {exc}\n")
                return 2
        if kind in ("group", "subshell"):
            return self.exec_list(node.body, io_, cond)
        raise ShellError(f"unsupported construct {kind}")

    def arith(self, expr):
        expanded = self.expand_str(expr, arith=True)

        def get(name):
            value = self.get(name)
            if value is None and self.opts["nounset"]:
                raise FatalError(f"{name}: unbound variable")
            return value

        return evaluate(expanded, get, lambda n, v: self.set(n, str(v)))

    def exec_simple(self, node, io_, cond):
        argv = []
        for word in node.words:
            argv.extend(self.expand(word))
        assigns = []
        for a in node.assigns:
            name, _, value = a.partition("=")
            append = name.endswith("+")
            name = name.rstrip("+")
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
        if not argv:
            for name, value in assigns:
                self.set(name, value)
            return self.status if node.words else 0
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

    def call(self, argv, io_, cond=False):
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

    def call_function(self, name, argv, io_):
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

    def run_script(self, path, args, io_):
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

    def redirect(self, redirs, io_):
        if not redirs:
            return io_, []
        fds = {0: io_.stdin, 1: io_.out, 2: io_.err}
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

    def expand(self, word):
        """Full expansion of one word into fields: braces, tilde, parameters, command and
        arithmetic substitution, field splitting, pathname expansion, quote removal."""
        fields = []
        for piece in brace_expand(word):
            fields.extend(self._expand_one(piece))
        return fields

    def expand_str(self, text, assign=False, heredoc=False, arith=False):
        """Expansion without splitting or globbing (assignments, heredocs, case words)."""
        segs = self._segments(text, heredoc=heredoc, tilde=not heredoc and not arith, assign=assign)
        return "".join(s[0] if isinstance(s, tuple) else "" for s in segs)

    def expand_pattern(self, text):
        """A word as a pattern: quoted parts match literally."""
        out = []
        for seg in self._segments(text):
            if not isinstance(seg, tuple):
                continue
            value, quoted = seg[0], seg[1]
            out.append(glob_escape(value) if quoted else value)
        return "".join(out)

    def _expand_one(self, word):
        segs = self._segments(word)
        # Build fields: quoted and literal text joins; unquoted expansion results split on IFS.
        ifs = self.get("IFS")
        if ifs is None:
            ifs = " \t\n"
        fields = []
        cur_text: list[str]
        cur_pat: list[str]
        cur_text, cur_pat, has_any, magic = [], [], False, False

        def flush(force=False):
            nonlocal cur_text, cur_pat, has_any, magic
            if has_any or force:
                fields.append(("".join(cur_text), "".join(cur_pat), magic))
            cur_text, cur_pat, has_any, magic = [], [], False, False

        for seg in segs:
            if seg == "BREAK":
                flush(force=True)
                continue
            value, quoted, kind = seg
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

    def _segments(self, text, heredoc=False, tilde=True, assign=False):
        """Scan `text` into segments (value, quoted, kind) and "BREAK" markers ("$@" fields)."""
        segs: list[tuple[str, bool, str] | str] = []
        i, n = 0, len(text)
        lit: list[str] = []

        def flush_lit(quoted=False):
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

    def _dquote(self, inner):
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

    def _dollar(self, text, i, quoted):
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

    def param(self, body, quoted):
        """${...} forms."""
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
        for op in (":-", ":=", ":+", ":?", "-", "=", "+", "?"):
            if rest.startswith(op):
                word = rest[len(op) :]
                unset = value is None or (op.startswith(":") and value == "")
                base = op[-1]
                if base == "-":
                    return (self.expand_str(word) if unset else value), None, None
                if base == "=":
                    if unset:
                        value = self.expand_str(word)
                        self.set(name, value)
                    return value, None, None
                if base == "+":
                    return ("" if unset else self.expand_str(word)), None, None
                if unset:
                    msg = self.expand_str(word) or "parameter null or not set"
                    raise FatalError(f"{name}: {msg}")
                return value, None, None
        if value is None:
            if self.opts["nounset"]:
                raise FatalError(f"{name}: unbound variable")
            value = ""
        for op in ("##", "#", "%%", "%"):
            if rest.startswith(op):
                pattern = self.expand_pattern(rest[len(op) :])
                return trim_pattern(value, pattern, op), None, None
        if rest.startswith("//") or rest.startswith("/"):
            all_ = rest.startswith("//")
            spec = rest[2:] if all_ else rest[1:]
            anchor = ""
            if spec[:1] in ("#", "%") and not all_:
                anchor, spec = spec[0], spec[1:]
            pat, _, rep = split_unescaped(spec, "/")
            return (
                replace_pattern(
                    value, self.expand_pattern(pat), self.expand_str(rep), all_, anchor
                ),
                None,
                None,
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
                    return value[start:end], None, None
                return value[start:], None, None
            except ArithError as exc:
                raise FatalError(str(exc)) from None
        if rest in ("^^", ",,", "^", ","):
            if rest == "^^":
                return value.upper(), None, None
            if rest == ",,":
                return value.lower(), None, None
            if rest == "^":
                return value[:1].upper() + value[1:], None, None
            return value[:1].lower() + value[1:], None, None
        raise FatalError(f"${{{body}}}: bad substitution")

    def _lookup(self, name):
        if name.isdigit() or name in "?#$!-@*" or name in ("RANDOM", "LINENO", "SECONDS"):
            return self.special(name)
        return self.get(name)

    def command_substitution(self, src):
        out = Writer()
        err = self._current_err
        saved_status = self.status
        try:
            tree = parse(src)
        except ShellSyntaxError as exc:
            raise FatalError(f"command substitution: {exc}") from None

        def body():
            return self.exec_list(tree, IO(b"", out, err))

        status = self.subshell(body)
        self.status = status if status is not None else saved_status
        return out.getvalue().decode("utf-8", "surrogateescape").rstrip("\n")

    def match(self, text, pattern):
        return fnmatch(text, pattern)

    # -- [[ ]] ----------------------------------------------------------------------------------

    def cond(self, words):
        pos = [0]

        def peek():
            return words[pos[0]] if pos[0] < len(words) else None

        def take():
            tok = words[pos[0]]
            pos[0] += 1
            return tok

        def or_():
            v = and_()
            while peek() == ("op", "||"):
                take()
                rhs = and_()
                v = v or rhs
            return v

        def and_():
            v = not_()
            while peek() == ("op", "&&"):
                take()
                rhs = not_()
                v = v and rhs
            return v

        def not_():
            if peek() == ("word", "!"):
                take()
                return not not_()
            return primary()

        def primary():
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

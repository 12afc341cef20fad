"""Cove's shell: runs bash command lines inside the guest interpreter, on the session's
/workspace. There are no processes in WASI: builtins and utilities are Python functions, a
pipeline runs its stages in order over in-memory buffers, and `python` starts a fresh
interpreter through the host. State (variables, exports, functions, cwd) persists between
calls, like a terminal the model keeps typing into.

This module is one unit (expansion, redirection, control flow) because bash's semantics tie
them together; the parser is `_cove_shparse`, arithmetic `_cove_arith`, utilities `_cove_utils`.
"""

import errno
import glob as _glob
import io
import os
import re

import _cove_arith
import _cove_shparse
from _cove_shparse import ShellSyntaxError

MAX_DEPTH = 100


class ShellExit(Exception):
    def __init__(self, code):
        self.code = code


class _Return(Exception):
    def __init__(self, code):
        self.code = code


class _Break(Exception):
    def __init__(self, levels):
        self.levels = levels


class _Continue(Exception):
    def __init__(self, levels):
        self.levels = levels


class ShellError(Exception):
    """A command-level error: message to stderr, status `code`."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


class _Fatal(Exception):
    """An expansion error that ends a non-interactive shell (e.g. set -u)."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


# WASI's ENOTCAPABLE: a path outside the preopened workspace. bash would see the path as absent
# (reading) or forbidden (writing), and says so.
_ENOTCAPABLE = 76


def os_message(exc, write=False):
    """An OSError as bash and coreutils word it."""
    if getattr(exc, "errno", None) == _ENOTCAPABLE:
        return os.strerror(errno.EACCES) if write else os.strerror(errno.ENOENT)
    return exc.strerror or str(exc)


def internal_error(name, exc):
    """The last-resort message for an exception a utility or builtin did not expect."""
    if isinstance(exc, RecursionError):
        return f"{name}: maximum recursion depth exceeded\n"
    if isinstance(exc, MemoryError):
        return f"{name}: memory exhausted\n"
    return f"{name}: internal error: {type(exc).__name__}: {exc}\n"


class Writer:
    """A byte sink: a buffer, or a file opened by a redirection."""

    def __init__(self, target=None):
        self.target = target if target is not None else io.BytesIO()

    def write(self, data):
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        self.target.write(data)

    def getvalue(self):
        return self.target.getvalue()


class _Null:
    def write(self, data):
        pass


class IO:
    __slots__ = ("stdin", "out", "err")

    def __init__(self, stdin, out, err):
        self.stdin = stdin  # bytes
        self.out = out
        self.err = err


class Context:
    """What a utility sees: argv, stdin bytes, stdout/stderr writers, the shell."""

    def __init__(self, shell, argv, io_):
        self.shell = shell
        self.argv = argv
        self.stdin = io_.stdin
        self.out = io_.out
        self.err = io_.err

    @property
    def env(self):
        return self.shell.environ()

    def error(self, message):
        self.err.write(f"{self.argv[0]}: {message}\n")


# The exceptions that carry the shell's own control flow through utilities and builtins.
_CONTROL = (ShellExit, _Return, _Break, _Continue, _Fatal)


class Shell:
    def __init__(self, host=None):
        self.vars = {"HOME": "/workspace", "PATH": "/usr/local/bin:/usr/bin:/bin", "IFS": " \t\n",
                     "PWD": os.getcwd(), "SHELL": "/bin/bash", "USER": "user", "LANG": "C.UTF-8",
                     "TERM": "dumb"}
        self.exported = {"HOME", "PATH", "PWD", "SHELL", "USER", "LANG", "TERM"}
        self.functions = {}
        self.positional = []
        self.status = 0
        self.opts = {"errexit": False, "nounset": False, "xtrace": False, "pipefail": False}
        self.locals = []
        self.host = host
        self.depth = 0
        self.line = 1
        self._current_err = _Null()
        import _cove_utils

        self.utils = _cove_utils.COMMANDS

    # -- entry point --------------------------------------------------------------------------

    def run(self, src, stdin=b""):
        """Run a command line; returns (stdout bytes, stderr bytes, status)."""
        out, err = Writer(), Writer()
        io_ = IO(stdin, out, err)
        try:
            tree = _cove_shparse.parse(src)
        except ShellSyntaxError as exc:
            err.write(f"bash: -c: line 1: {exc}\n")
            return out.getvalue(), err.getvalue(), 2
        try:
            status = self.exec_list(tree, io_)
        except ShellExit as exc:
            status = exc.code
        except _Fatal as exc:
            err.write(f"bash: line 1: {exc}\n")
            status = exc.code
        except (_Return, _Break, _Continue):
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
                return self.subshell(lambda: self.exec_list(node.body, redirected, cond) if kind in ("subshell", "group") else self.exec_compound(node, redirected, cond))
            return self.exec_compound(node, redirected, cond)
        finally:
            self._current_err = saved_err
            for close in closers:
                close()

    def subshell(self, body):
        saved = (dict(self.vars), set(self.exported), dict(self.functions), list(self.positional),
                 dict(self.opts), os.getcwd())
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
                except _Break as b:
                    if b.levels > 1:
                        raise _Break(b.levels - 1) from None
                    break
                except _Continue as c:
                    if c.levels > 1:
                        raise _Continue(c.levels - 1) from None
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
                except _Break as b:
                    if b.levels > 1:
                        raise _Break(b.levels - 1) from None
                    break
                except _Continue as c:
                    if c.levels > 1:
                        raise _Continue(c.levels - 1) from None
            return status
        if kind == "cfor":
            self.arith(node.init)
            status = 0
            while node.cond.strip() == "" or self.arith(node.cond) != 0:
                try:
                    status = self.exec_list(node.body, io_, cond)
                except _Break as b:
                    if b.levels > 1:
                        raise _Break(b.levels - 1) from None
                    break
                except _Continue as c:
                    if c.levels > 1:
                        raise _Continue(c.levels - 1) from None
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
            except _cove_arith.ArithError as exc:
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
                raise _Fatal(f"{name}: unbound variable")
            return value

        return _cove_arith.evaluate(expanded, get, lambda n, v: self.set(n, str(v)))

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
            io_.err.write("+ " + " ".join([f"{n}={v}" for n, v in assigns] + [_quote(a) for a in argv]) + "\n")
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
                return builtin(self, argv, io_)
            except _CONTROL:
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
        util = self.utils.get(name)
        if util is None and "/" in name:
            util = self.utils.get(name.rsplit("/", 1)[1]) if name.startswith(("/bin/", "/usr/bin/")) else None
            if util is None and os.path.isfile(name):
                return self.run_script(name, argv[1:], io_)
        if util is None:
            io_.err.write(f"bash: {name}: command not found\n")
            return 127
        ctx = Context(self, argv, io_)
        try:
            return util(ctx, argv[1:])
        except ShellError as exc:
            io_.err.write(f"{name}: {exc}\n")
            return exc.code
        except _CONTROL:
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
        except _Return as r:
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
            return self.subshell(lambda: self.exec_list(_cove_shparse.parse(src), io_))
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
                    fds[fd] = _Null() if fd else b""
                    continue
                src_fd = int(target)
                if src_fd not in fds:
                    raise ShellError(f"{target}: Bad file descriptor")
                fds[fd] = fds[src_fd]
                continue
            if op == "<":
                fds[fd] = _read_path(target)
                continue
            if op == "<>":
                raise ShellError("<> redirection is not supported")
            mode = "ab" if op in (">>", "&>>") else "wb"
            writer = _open_writer(target, mode)
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
        for piece in _brace_expand(word):
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
            out.append(_glob_escape(value) if quoted else value)
        return "".join(out)

    def _expand_one(self, word):
        segs = self._segments(word)
        # Build fields: quoted and literal text joins; unquoted expansion results split on IFS.
        ifs = self.get("IFS")
        if ifs is None:
            ifs = " \t\n"
        fields = []
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
                    cur_pat.append(_glob_escape(value))
                else:
                    cur_pat.append(value)
                    if _glob.has_magic(value):
                        magic = True
                has_any = True
                continue
            if quoted:
                cur_text.append(value)
                cur_pat.append(_glob_escape(value))
                has_any = True
                continue
            # Unquoted expansion: split on IFS.
            if not value:
                continue
            parts = _ifs_split(value, ifs)
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
                matches = _pathname_expand(pattern)
                if matches:
                    out.extend(matches)
                    continue
            out.append(text)
        return out

    def _segments(self, text, heredoc=False, tilde=True, assign=False):
        """Scan `text` into segments (value, quoted, kind) and "BREAK" markers ("$@" fields)."""
        segs = []
        i, n = 0, len(text)
        lit = []

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
                segs.append((text[i + 1:j], True, "lit"))
                i = j + 1
                continue
            if c == '"' and not heredoc:
                j = _cove_shparse._scan_quoted(text, i + 1, '"')
                flush_lit()
                inner = text[i + 1:j - 1]
                sub = self._dquote(inner)
                if not sub:
                    segs.append(("", True, "lit"))
                segs.extend(sub)
                i = j
                continue
            if c == "$" and i + 1 < n and text[i + 1] == "'" and not heredoc:
                j = _cove_shparse._scan_ansi(text, i + 2)
                flush_lit()
                segs.append((_ansi_c(text[i + 2:j - 1]), True, "lit"))
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
        segs = []
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
            j = _cove_shparse._scan_quoted(text, i + 1, "`")
            inner = text[i + 1:j - 1].replace("\\`", "`").replace("\\$", "$").replace("\\\\", "\\")
            return self.command_substitution(inner), j, None
        if i + 1 >= n:
            return None, i + 1, None
        c = text[i + 1]
        if c == "(":
            if text.startswith("$((", i):
                j = _cove_shparse._scan_dollar(text, i)
                expr = text[i + 3:j - 2]
                if text[j - 2:j] == "))":
                    try:
                        return str(self.arith(expr)), j, None
                    except _cove_arith.ArithError as exc:
                        raise _Fatal(f"{expr}: {exc}") from None
            j = _cove_shparse._scan_dollar(text, i)
            return self.command_substitution(text[i + 2:j - 1]), j, None
        if c == "{":
            j = _cove_shparse._scan_dollar(text, i)
            value, _, at = self.param(text[i + 2:j - 1], quoted)
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
            name = text[i + 1:j]
            value = self.special(name) if name in ("RANDOM", "LINENO", "SECONDS") else self.get(name)
            if value is None:
                if self.opts["nounset"]:
                    raise _Fatal(f"{name}: unbound variable")
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
            raise _Fatal(f"${{{body}}}: bad substitution")
        name, rest = m.group(1), m.group(2)
        if name in ("@", "*") and not rest:
            if name == "@" or not quoted:
                return None, None, list(self.positional)
            return " ".join(self.positional), None, None
        value = self._lookup(name)
        if not rest:
            if value is None and self.opts["nounset"]:
                raise _Fatal(f"{name}: unbound variable")
            return value or "", None, None
        for op in (":-", ":=", ":+", ":?", "-", "=", "+", "?"):
            if rest.startswith(op):
                word = rest[len(op):]
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
                    raise _Fatal(f"{name}: {msg}")
                return value, None, None
        if value is None:
            if self.opts["nounset"]:
                raise _Fatal(f"{name}: unbound variable")
            value = ""
        for op in ("##", "#", "%%", "%"):
            if rest.startswith(op):
                pattern = self.expand_pattern(rest[len(op):])
                return _trim(value, pattern, op), None, None
        if rest.startswith("//") or rest.startswith("/"):
            all_ = rest.startswith("//")
            spec = rest[2:] if all_ else rest[1:]
            anchor = ""
            if spec[:1] in ("#", "%") and not all_:
                anchor, spec = spec[0], spec[1:]
            pat, _, rep = _split_unescaped(spec, "/")
            return _replace(value, self.expand_pattern(pat), self.expand_str(rep), all_, anchor), None, None
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
            except _cove_arith.ArithError as exc:
                raise _Fatal(str(exc)) from None
        if rest in ("^^", ",,", "^", ","):
            if rest == "^^":
                return value.upper(), None, None
            if rest == ",,":
                return value.lower(), None, None
            if rest == "^":
                return value[:1].upper() + value[1:], None, None
            return value[:1].lower() + value[1:], None, None
        raise _Fatal(f"${{{body}}}: bad substitution")

    def _lookup(self, name):
        if name.isdigit() or name in "?#$!-@*" or name in ("RANDOM", "LINENO", "SECONDS"):
            return self.special(name)
        return self.get(name)

    def command_substitution(self, src):
        out = Writer()
        err = self._current_err
        saved_status = self.status
        try:
            tree = _cove_shparse.parse(src)
        except ShellSyntaxError as exc:
            raise _Fatal(f"command substitution: {exc}") from None

        def body():
            return self.exec_list(tree, IO(b"", out, err))

        status = self.subshell(body)
        self.status = status if status is not None else saved_status
        return out.getvalue().decode("utf-8", "surrogateescape").rstrip("\n")

    def match(self, text, pattern):
        return _fnmatch(text, pattern)

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
            if kind == "word" and raw.startswith("-") and len(raw) == 2 and nxt and nxt[0] == "word" and not (
                pos[0] + 1 < len(words) and words[pos[0] + 1][0] == "word" and words[pos[0] + 1][1] in ("==", "=", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "<", ">")
            ):
                operand = self.expand_str(take()[1])
                return _unary_test(raw, operand)
            left = self.expand_str(raw)
            if nxt is None or nxt in (("op", "&&"), ("op", "||"), ("op", ")")):
                return left != ""
            op = take()[1]
            right_raw = take()[1]
            if op in ("==", "=", "!="):
                pattern = self.expand_pattern(right_raw)
                result = _fnmatch(left, pattern)
                return result if op != "!=" else not result
            if op == "=~":
                regex = self.expand_str(right_raw)
                m = re.search(_ere(regex), left)
                self.vars["BASH_REMATCH"] = m.group(0) if m else ""
                return m is not None
            right = self.expand_str(right_raw)
            if op == "<":
                return left < right
            if op == ">":
                return left > right
            return _binary_test(op, left, right)

        value = or_()
        if pos[0] != len(words):
            raise ShellError("syntax error in conditional expression")
        return value


# -- helpers ------------------------------------------------------------------------------------

def _quote(s):
    if s and all(c.isalnum() or c in "-_./=:,@%+" for c in s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def _glob_escape(s):
    return re.sub(r"([*?\[])", r"[\1]", s)


def _ifs_split(value, ifs):
    if not ifs:
        return [value]
    ws = "".join(c for c in ifs if c in " \t\n")
    other = "".join(c for c in ifs if c not in " \t\n")
    ws_rx = "[" + re.escape(ws) + "]" if ws else None
    if not other:
        return [p for p in re.split(ws_rx + "+", value) if p]
    sep = "[" + re.escape(other) + "]"
    if ws_rx:
        sep = ws_rx + "*" + sep + ws_rx + "*|" + ws_rx + "+"
        value = value.strip(ws)
    if not value:
        return []
    parts = re.split(sep, value)
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def _pathname_expand(pattern):
    hidden = os.path.basename(pattern).startswith(".")
    try:
        matches = _glob.glob(pattern, include_hidden=hidden)
    except (OSError, re.error):
        return []
    if not hidden:
        matches = [m for m in matches if not os.path.basename(m).startswith(".")]
    return sorted(matches, key=_collate)


def _collate(name):
    # Bash's default sort in the C.UTF-8 locale is by code point.
    return name


def _fnmatch(text, pattern):
    try:
        return re.fullmatch(_pattern_regex(pattern), text, re.S) is not None
    except re.error:
        return text == pattern


def _pattern_regex(pattern):
    out = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[":
            j = i + 1
            if j < n and pattern[j] in "!^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 1
            if j >= n:
                out.append("\\[")
            else:
                body = pattern[i + 1:j]
                if body[:1] in "!^":
                    body = "^" + body[1:]
                body = body.replace("\\", "\\\\")
                body = re.sub(r"\[:(\w+):\]", lambda m: _CLASSES.get(m.group(1), ""), body)
                out.append("[" + body + "]")
                i = j
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 1
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
            "space": " \\t\\n\\r\\f\\v", "punct": "!-/:-@\\[-`{-~", "xdigit": "0-9a-fA-F", "blank": " \\t"}


def _ere(regex):
    return re.sub(r"\[\[:(\w+):\]\]", lambda m: "[" + _CLASSES.get(m.group(1), "") + "]",
                  re.sub(r"\[:(\w+):\]", lambda m: _CLASSES.get(m.group(1), ""), regex))


def _trim(value, pattern, op):
    rx = _pattern_regex(pattern)
    if op in ("#", "##"):
        lengths = range(len(value) + 1) if op == "#" else range(len(value), -1, -1)
        for k in lengths:
            if re.fullmatch(rx, value[:k], re.S):
                return value[k:]
        return value
    lengths = range(len(value), -1, -1) if op == "%" else range(len(value) + 1)
    for k in lengths:
        if re.fullmatch(rx, value[k:], re.S):
            return value[:k]
    return value


def _replace(value, pattern, rep, all_, anchor):
    if pattern == "":
        return value
    rx = _pattern_regex(pattern)
    if anchor == "#":
        for k in range(len(value), -1, -1):
            if re.fullmatch(rx, value[:k], re.S):
                return rep + value[k:]
        return value
    if anchor == "%":
        for k in range(len(value) + 1):
            if re.fullmatch(rx, value[k:], re.S):
                return value[:k] + rep
        return value
    out = []
    i = 0
    n = len(value)
    done = False
    while i < n:
        if done:
            out.append(value[i:])
            break
        for k in range(n, i, -1):
            if re.fullmatch(rx, value[i:k], re.S):
                out.append(rep)
                i = k
                if not all_:
                    done = True
                break
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def _split_unescaped(s, sep):
    i = 0
    while i < len(s):
        if s[i] == "\\":
            i += 2
            continue
        if s[i] == sep:
            return s[:i], sep, s[i + 1:]
        i += 1
    return s, "", ""


def _ansi_c(s):
    out = []
    i, n = 0, len(s)
    simple = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b",
              "f": "\f", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
    while i < n:
        c = s[i]
        if c == "\\" and i + 1 < n:
            d = s[i + 1]
            if d in simple:
                out.append(simple[d])
                i += 2
                continue
            if d == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2:])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + len(m.group(0))
                    continue
            if d in "uU":
                m = re.match(r"[0-9a-fA-F]{1,8}" if d == "U" else r"[0-9a-fA-F]{1,4}", s[i + 2:])
                if m:
                    out.append(chr(int(m.group(0), 16)))
                    i += 2 + len(m.group(0))
                    continue
            if d in "01234567":
                m = re.match(r"[0-7]{1,3}", s[i + 1:])
                out.append(chr(int(m.group(0), 8)))
                i += 1 + len(m.group(0))
                continue
            out.append(c)
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _brace_expand(word):
    """Bash brace expansion on unquoted braces: {a,b}, {1..5}, {a..e}, {1..10..2}."""
    i, n = 0, len(word)
    depth = 0
    start = -1
    quote = None
    while i < n:
        c = word[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 2
                continue
            if c == quote:
                quote = None
            i += 1
            continue
        if c == "\\":
            i += 2
            continue
        if c in "'\"":
            quote = c
            i += 1
            continue
        if c == "$" and i + 1 < n and word[i + 1] == "{":
            i = _cove_shparse._scan_dollar(word, i)
            continue
        if c == "{":
            if depth == 0:
                start = i
            depth += 1
        elif c == "}" and depth:
            depth -= 1
            if depth == 0:
                body = word[start + 1:i]
                prefix, suffix = word[:start], word[i + 1:]
                alts = _brace_alternatives(body)
                if alts is not None:
                    out = []
                    for alt in alts:
                        out.extend(_brace_expand(prefix + alt + suffix))
                    return out
                rest = _brace_expand(suffix)
                return [word[:i + 1] + r for r in rest] if rest != [suffix] else [word]
        i += 1
    return [word]


def _brace_alternatives(body):
    m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?", body)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3))) if m.group(3) else 1
        step = step or 1
        width = max(len(m.group(1)), len(m.group(2))) if (m.group(1).lstrip("-").startswith("0") and len(m.group(1).lstrip("-")) > 1) or (m.group(2).lstrip("-").startswith("0") and len(m.group(2).lstrip("-")) > 1) else 0
        seq = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [str(v).zfill(width) if width else str(v) for v in seq]
    m = re.fullmatch(r"([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?", body)
    if m:
        a, b = ord(m.group(1)), ord(m.group(2))
        step = abs(int(m.group(3))) if m.group(3) else 1
        seq = range(a, b + 1, step) if a <= b else range(a, b - 1, -step)
        return [chr(v) for v in seq]
    parts, depth, cur, i = [], 0, [], 0
    quote = None
    while i < len(body):
        c = body[i]
        if quote:
            cur.append(c)
            if c == quote:
                quote = None
            i += 1
            continue
        if c in "'\"":
            quote = c
        elif c == "\\":
            cur.append(body[i:i + 2])
            i += 2
            continue
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts if len(parts) > 1 else None


def _read_path(path):
    if path == "/dev/null":
        return b""
    if path in ("/dev/stdin", "-"):
        return b""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise ShellError(f"{path}: No such file or directory") from None
    except IsADirectoryError:
        raise ShellError(f"{path}: Is a directory") from None
    except OSError as exc:
        raise ShellError(f"{path}: {os_message(exc)}") from None


def _open_writer(path, mode):
    if path == "/dev/null":
        return Writer(_NullFile())
    if path == "/dev/stdout" or path == "/dev/stderr":
        raise ShellError(f"{path}: use >&1 or >&2")
    try:
        return Writer(open(path, mode))
    except IsADirectoryError:
        raise ShellError(f"{path}: Is a directory") from None
    except FileNotFoundError:
        raise ShellError(f"{path}: No such file or directory") from None
    except OSError as exc:
        raise ShellError(f"{path}: {os_message(exc, write=True)}") from None


class _NullFile:
    def write(self, data):
        return len(data)

    def close(self):
        pass


def _unary_test(op, arg):
    if op == "-n":
        return arg != ""
    if op == "-z":
        return arg == ""
    if op == "-v":
        return False
    try:
        if op == "-e" or op == "-a":
            return os.path.exists(arg)
        if op == "-f":
            return os.path.isfile(arg)
        if op == "-d":
            return os.path.isdir(arg)
        if op == "-s":
            return os.path.isfile(arg) and os.path.getsize(arg) > 0
        if op == "-L" or op == "-h":
            return os.path.islink(arg)
        if op in ("-r", "-w"):
            return os.path.exists(arg)
        if op == "-x":
            return os.path.isdir(arg) or (os.path.isfile(arg) and os.access(arg, os.X_OK))
    except (OSError, ValueError):
        return False
    raise ShellError(f"{op}: unary operator expected")


def _binary_test(op, left, right):
    if op in ("-eq", "-ne", "-lt", "-le", "-gt", "-ge"):
        try:
            a, b = int(left.strip()), int(right.strip())
        except ValueError:
            bad = left if not left.strip().lstrip("-").isdigit() else right
            raise ShellError(f"{bad}: integer expression expected", 2) from None
        return {"-eq": a == b, "-ne": a != b, "-lt": a < b, "-le": a <= b, "-gt": a > b, "-ge": a >= b}[op]
    if op in ("=", "=="):
        return left == right
    if op == "!=":
        return left != right
    if op in ("-nt", "-ot"):
        try:
            a, b = os.path.getmtime(left), os.path.getmtime(right)
        except OSError:
            return False
        return a > b if op == "-nt" else a < b
    raise ShellError(f"{op}: binary operator expected", 2)


def test_command(args):
    """POSIX test / [ ] over already-expanded arguments; returns True/False or raises."""

    def expr(a):
        if not a:
            return False
        if a[0] == "!" and len(a) > 1:
            return not expr(a[1:])
        for k, tok in enumerate(a):
            if tok == "-o" and 0 < k < len(a) - 1:
                return expr(a[:k]) or expr(a[k + 1:])
        for k, tok in enumerate(a):
            if tok == "-a" and 0 < k < len(a) - 1:
                return expr(a[:k]) and expr(a[k + 1:])
        if a[0] == "(" and a[-1] == ")":
            return expr(a[1:-1])
        if len(a) == 1:
            return a[0] != ""
        if len(a) == 2:
            return _unary_test(a[0], a[1])
        if len(a) == 3:
            if a[1] in ("<", ">"):
                return a[0] < a[2] if a[1] == "<" else a[0] > a[2]
            return _binary_test(a[1], a[0], a[2])
        raise ShellError("too many arguments", 2)

    return expr(args)


# -- builtins -----------------------------------------------------------------------------------

def _b_cd(sh, argv, io_):
    target = argv[1] if len(argv) > 1 else (sh.get("HOME") or "/workspace")
    if target == "-":
        target = sh.get("OLDPWD") or os.getcwd()
        io_.out.write(target + "\n")
    old = os.getcwd()
    try:
        os.chdir(target)
    except FileNotFoundError:
        raise ShellError(f"{target}: No such file or directory") from None
    except NotADirectoryError:
        raise ShellError(f"{target}: Not a directory") from None
    except OSError as exc:
        raise ShellError(f"{target}: {os_message(exc)}") from None
    sh.vars["OLDPWD"] = old
    sh.vars["PWD"] = os.getcwd()
    return 0


def _b_pwd(sh, argv, io_):
    io_.out.write(os.getcwd() + "\n")
    return 0


def _b_true(sh, argv, io_):
    """true, :, and the builtins accepted as no-ops here (shopt, trap, wait)."""
    return 0


def _b_false(sh, argv, io_):
    return 1


def _b_exit(sh, argv, io_):
    code = sh.status
    if len(argv) > 1:
        try:
            code = int(argv[1]) & 0xFF
        except ValueError:
            io_.err.write(f"bash: exit: {argv[1]}: numeric argument required\n")
            code = 2
    raise ShellExit(code)


def _b_return(sh, argv, io_):
    code = int(argv[1]) & 0xFF if len(argv) > 1 else sh.status
    raise _Return(code)


def _b_break(sh, argv, io_):
    raise _Break(int(argv[1]) if len(argv) > 1 else 1)


def _b_continue(sh, argv, io_):
    raise _Continue(int(argv[1]) if len(argv) > 1 else 1)


def _b_export(sh, argv, io_):
    args = [a for a in argv[1:] if a not in ("-n",)]
    if not args or argv[1:] == ["-p"]:
        for name in sorted(sh.exported):
            value = sh.get(name)
            if value is not None:
                io_.out.write(f'declare -x {name}="{value}"\n')
        return 0
    for a in args:
        name, eq, value = a.partition("=")
        if not _cove_shparse._is_name(name):
            io_.err.write(f"bash: export: `{a}': not a valid identifier\n")
            return 1
        if eq:
            sh.set(name, value)
        if "-n" in argv[1:]:
            sh.exported.discard(name)
        else:
            sh.exported.add(name)
    return 0


def _b_unset(sh, argv, io_):
    for a in argv[1:]:
        if a in ("-v", "-f"):
            continue
        if "-f" in argv[1:]:
            sh.functions.pop(a, None)
        else:
            sh.unset(a)
    return 0


def _b_local(sh, argv, io_):
    if not sh.locals:
        io_.err.write("bash: local: can only be used in a function\n")
        return 1
    for a in argv[1:]:
        name, eq, value = a.partition("=")
        sh.locals[-1][name] = value if eq else ""
    return 0


def _b_declare(sh, argv, io_):
    args = [a for a in argv[1:] if not a.startswith("-")]
    flags = "".join(a[1:] for a in argv[1:] if a.startswith("-"))
    if "a" in flags or "A" in flags:
        io_.err.write("bash: declare: arrays are not supported in this shell\n")
        return 1
    for a in args:
        name, eq, value = a.partition("=")
        if sh.locals and "g" not in flags:
            sh.locals[-1][name] = value if eq else (sh.get(name) or "")
        elif eq:
            sh.set(name, value)
        if "x" in flags:
            sh.exported.add(name)
    return 0


def _b_shift(sh, argv, io_):
    k = int(argv[1]) if len(argv) > 1 else 1
    if k > len(sh.positional):
        return 1
    sh.positional = sh.positional[k:]
    return 0


def _b_set(sh, argv, io_):
    args = argv[1:]
    names = {"e": "errexit", "u": "nounset", "x": "xtrace"}
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--":
            sh.positional = args[i + 1:]
            return 0
        if a in ("-o", "+o") and i + 1 < len(args):
            opt = args[i + 1]
            if opt not in sh.opts:
                io_.err.write(f"bash: set: {opt}: invalid option name\n")
                return 1
            sh.opts[opt] = a == "-o"
            i += 2
            continue
        if a[:1] in "-+" and len(a) > 1:
            for ch in a[1:]:
                if ch in names:
                    sh.opts[names[ch]] = a[0] == "-"
                elif ch in "hBH":
                    continue
                else:
                    io_.err.write(f"bash: set: {a[0]}{ch}: invalid option\n")
                    return 2
            i += 1
            continue
        sh.positional = args[i:]
        return 0
    if not args:
        for name in sorted(sh.vars):
            io_.out.write(f"{name}={_quote(sh.vars[name])}\n")
    return 0


def _b_read(sh, argv, io_):
    args = argv[1:]
    raw = False
    delim = "\n"
    names = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-r":
            raw = True
        elif a == "-p":
            i += 1
        elif a == "-d":
            i += 1
            delim = args[i][:1] if args[i] else "\0"
        elif a in ("-s", "-e"):
            pass
        elif a.startswith("-"):
            io_.err.write(f"bash: read: {a}: unsupported option\n")
            return 2
        else:
            names.append(a)
        i += 1
    names = names or ["REPLY"]
    data = io_.stdin.decode("utf-8", "surrogateescape") if isinstance(io_.stdin, bytes) else ""
    # Consume one line from this command's stdin (shared across a loop's iterations).
    pos = sh.__dict__.setdefault("_read_pos", {})
    key = id(io_.stdin)
    offset = pos.get(key, 0)
    if offset >= len(data):
        for name in names:
            sh.set(name, "")
        return 1
    end = data.find(delim, offset)
    eof = end < 0
    line = data[offset:] if eof else data[offset:end]
    pos[key] = len(data) if eof else end + 1
    if not raw:
        line = re.sub(r"\\(.)", r"\1", line.replace("\\\n", ""))
    ifs = sh.get("IFS")
    ifs = " \t\n" if ifs is None else ifs
    if names == ["REPLY"] and len(names) == 1 and "REPLY" == names[0] and argv.count("REPLY") == 0:
        sh.set("REPLY", line)
        return 1 if eof and not line else 0
    ws = "".join(c for c in ifs if c in " \t\n")
    stripped = line.strip(ws) if ws else line
    fields = []
    rest = stripped
    for k in range(len(names)):
        if k == len(names) - 1:
            fields.append(rest.rstrip(ws) if ws else rest)
            break
        parts = _ifs_split(rest, ifs)
        if not parts:
            fields.append("")
            rest = ""
            continue
        first = parts[0]
        idx = rest.find(first) + len(first)
        fields.append(first)
        rest = rest[idx:]
        rest = rest.lstrip(ws)
        if rest[:1] and rest[0] in ifs and rest[0] not in ws:
            rest = rest[1:].lstrip(ws)
    for name, value in zip(names, fields + [""] * len(names)):
        sh.set(name, value)
    return 1 if eof else 0


def _b_eval(sh, argv, io_):
    src = " ".join(argv[1:])
    try:
        tree = _cove_shparse.parse(src)
    except ShellSyntaxError as exc:
        io_.err.write(f"bash: eval: line 1: {exc}\n")
        return 2
    return sh.exec_list(tree, io_)


def _b_source(sh, argv, io_):
    if len(argv) < 2:
        io_.err.write("bash: source: filename argument required\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8", errors="surrogateescape") as f:
            src = f.read()
    except OSError:
        io_.err.write(f"bash: {argv[1]}: No such file or directory\n")
        return 1
    saved = sh.positional
    if len(argv) > 2:
        sh.positional = argv[2:]
    try:
        return sh.exec_list(_cove_shparse.parse(src), io_)
    except _Return as r:
        return r.code
    finally:
        sh.positional = saved


def _b_type(sh, argv, io_):
    status = 0
    which = argv[0] == "which"
    for name in argv[1:]:
        if name.startswith("-"):
            continue
        if name in sh.functions and not which:
            io_.out.write(f"{name} is a function\n")
        elif name in BUILTINS and not which:
            io_.out.write(f"{name} is a shell builtin\n")
        elif name in sh.utils or name in BUILTINS:
            io_.out.write(f"/usr/bin/{name}\n" if which else f"{name} is /usr/bin/{name}\n")
        else:
            if not which:
                io_.err.write(f"bash: type: {name}: not found\n")
            status = 1
    return status


def _b_command(sh, argv, io_):
    args = argv[1:]
    if args and args[0] == "-v":
        status = 0
        for name in args[1:]:
            if name in sh.functions or name in BUILTINS:
                io_.out.write(name + "\n")
            elif name in sh.utils:
                io_.out.write(f"/usr/bin/{name}\n")
            else:
                status = 1
        return status
    if not args:
        return 0
    saved = sh.functions
    sh.functions = {}
    try:
        return sh.call(args, io_)
    finally:
        sh.functions = saved


def _b_test(sh, argv, io_):
    args = argv[1:]
    if argv[0] == "[":
        if not args or args[-1] != "]":
            io_.err.write("bash: [: missing `]'\n")
            return 2
        args = args[:-1]
    try:
        return 0 if test_command(args) else 1
    except ShellError as exc:
        io_.err.write(f"bash: {argv[0]}: {exc}\n")
        return 2


def _b_let(sh, argv, io_):
    value = 0
    for expr in argv[1:]:
        value = sh.arith(expr)
    return 0 if value != 0 else 1


def _b_umask(sh, argv, io_):
    io_.out.write("0022\n")
    return 0


BUILTINS = {
    "cd": _b_cd, "pwd": _b_pwd, "true": _b_true, "false": _b_false, "exit": _b_exit,
    "return": _b_return, "break": _b_break, "continue": _b_continue, "export": _b_export,
    "unset": _b_unset, "local": _b_local, "declare": _b_declare, "typeset": _b_declare,
    "readonly": _b_declare, "shift": _b_shift, "set": _b_set, "read": _b_read, "eval": _b_eval,
    "source": _b_source, ".": _b_source, "type": _b_type, "which": _b_type,
    "command": _b_command, "test": _b_test, "[": _b_test, "let": _b_let, ":": _b_true,
    "shopt": _b_true, "trap": _b_true, "wait": _b_true, "umask": _b_umask,
}

"""The tokenizer and parser for bash command lines: the tree of `shell.ast`.

Words are kept as raw source text (quotes and all); the interpreter expands them. The parser
only needs to find where a word ends. Anything the parser does not support is a clear syntax
error, never a silent misreading.

One module over 500 lines: the tokenizer's scanners (quotes, `$(...)`, here-documents) and the
parser's rules are one grammar, and the parser asks the scanners where each word ends.
"""

import dataclasses
import re
from collections.abc import Iterator
from typing import TypeVar

from cove_guest.shell.ast import (
    AndOr,
    Arith,
    Case,
    CFor,
    Command,
    CommandList,
    Compound,
    Cond,
    For,
    FuncDef,
    Group,
    Heredoc,
    If,
    Item,
    Pipeline,
    Redir,
    Select,
    Simple,
    Stage,
    Subshell,
    Unsupported,
    While,
)

_Redirected = TypeVar("_Redirected", bound=Compound)

OPERATORS = [
    "&&",
    "||",
    ";;",
    "|&",
    "<<<",
    "<<-",
    "<<",
    ">>",
    "&>>",
    "&>",
    ">&",
    "<&",
    ">|",
    "<>",
    "|",
    "&",
    ";",
    "(",
    ")",
    "<",
    ">",
    "\n",
]


RESERVED = {
    "if",
    "then",
    "elif",
    "else",
    "fi",
    "for",
    "in",
    "do",
    "done",
    "while",
    "until",
    "case",
    "esac",
    "function",
    "{",
    "}",
    "!",
    "[[",
    "]]",
    "select",
    "time",
    "coproc",
}


class ShellSyntaxError(Exception):
    """A command line bash would not parse: the message is bash's."""


class Tok:
    """A token: a word (raw text), an operator (with the fd written before a redirection's),
    an arithmetic command's text, or the end."""

    __slots__ = ("fd", "heredoc", "kind", "value")

    def __init__(self, kind: str, value: str, fd: int | None = None) -> None:
        self.kind = kind  # "word", "op", "arith", "eof"
        self.value = value
        self.fd = fd
        self.heredoc: Heredoc | None = None

    def __repr__(self) -> str:
        return f"Tok({self.kind}, {self.value!r})"


def scan_quoted(src: str, i: int, close: str) -> int:
    """Index just past the matching close quote starting after src[i-1]."""
    n = len(src)
    while i < n:
        c = src[i]
        if c == "\\" and close != "'":
            i += 2
            continue
        if c == close:
            return i + 1
        if close == '"' and c == "$" and i + 1 < n and src[i + 1] in "({":
            i = scan_dollar(src, i)
            continue
        if close == '"' and c == "`":
            i = scan_quoted(src, i + 1, "`")
            continue
        i += 1
    raise ShellSyntaxError(f"unexpected EOF while looking for matching `{close}'")


def scan_dollar(src: str, i: int) -> int:
    """Index past a $(...), $((...)) or ${...} starting at src[i] == '$'."""
    n = len(src)
    opener = src[i + 1]
    close = ")" if opener == "(" else "}"
    depth = 0
    j = i + 1
    while j < n:
        c = src[j]
        if c == "\\":
            j += 2
            continue
        # Quotes nest inside $( ); inside ${ } only double quotes do ('...' is literal there).
        if c in "'\"" and (close == ")" or c == '"'):
            j = scan_quoted(src, j + 1, c)
            continue
        if c == "$" and j + 1 < n and src[j + 1] in "({" and j != i:
            j = scan_dollar(src, j)
            continue
        if c == opener:
            depth += 1
        elif c == close:
            depth -= 1
            if depth == 0:
                return j + 1
        elif close == ")" and c == "#" and (src[j - 1] in " \t\n"):
            while j < n and src[j] != "\n":
                j += 1
            continue
        j += 1
    raise ShellSyntaxError(f"unexpected EOF while looking for matching `{close}'")


def tokenize(src: str) -> list[Tok]:
    """`src` as tokens, here-document bodies read into their operators' tokens."""
    toks: list[Tok] = []
    pending: list[Tok] = []  # heredoc tokens awaiting their bodies
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c in " \t":
            i += 1
            continue
        if c == "\\" and i + 1 < n and src[i + 1] == "\n":
            i += 2
            continue
        if c == "#" and (not toks or toks[-1].kind == "op" or src[i - 1] in " \t\n"):
            while i < n and src[i] != "\n":
                i += 1
            continue
        if c == "\n":
            toks.append(Tok("op", "\n"))
            i += 1
            for tok in pending:
                i = read_heredoc(src, i, tok, toks)
            pending = []
            continue
        # An fd number directly before a redirection: 2>, 2>>, 1>&2, 0<
        if c.isdigit():
            j = i
            while j < n and src[j].isdigit():
                j += 1
            if j < n and src[j] in "<>":
                op = _match_op(src, j)
                if op and op[0] in "<>":
                    tok = Tok("op", op, fd=int(src[i:j]))
                    toks.append(tok)
                    i = j + len(op)
                    if op in ("<<", "<<-"):
                        pending.append(tok)
                    continue
        if c in "<>" and i + 1 < n and src[i + 1] == "(":
            # Process substitution: one word, `<(...)` or `>(...)`, its command kept raw.
            j = scan_dollar(src, i)
            toks.append(Tok("word", src[i:j]))
            i = j
            continue
        if src.startswith("((", i):
            end = _arith_end(src, i + 2)
            if end is not None:
                # `(( expr ))` (or `for (( ...; ...; ... ))`): the expression's raw text.
                toks.append(Tok("arith", src[i + 2 : end]))
                i = end + 2
                continue
        op = _match_op(src, i)
        if op:
            tok = Tok("op", op)
            toks.append(tok)
            i += len(op)
            if op in ("<<", "<<-"):
                pending.append(tok)
            continue
        j = _scan_word(src, i)
        toks.append(Tok("word", src[i:j]))
        i = j
    for tok in pending:
        read_heredoc(src, n, tok, toks)
    toks.append(Tok("eof", ""))
    return toks


def unquoted_chars(text: str, i: int = 0) -> Iterator[tuple[int, str]]:
    """(index, character) of each character of text[i:] outside quotes, backslash escapes and
    `$(...)`/`${...}` forms: what the scanners below count brackets and separators on."""
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c in "'\"":
            i = scan_quoted(text, i + 1, c)
            continue
        if c == "$" and i + 1 < n and text[i + 1] in "({":
            i = scan_dollar(text, i)
            continue
        yield i, c
        i += 1


def _arith_end(src: str, i: int) -> int | None:
    """Where the `))` closing an arithmetic command opened just before src[i] starts, or None
    when the parentheses close otherwise (`( (cmd) )`, nested subshells)."""
    depth = 0
    for j, c in unquoted_chars(src, i):
        if c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return j if src.startswith("))", j) else None
            depth -= 1
    return None


_ARRAY_TARGET = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")


def _match_op(src: str, i: int) -> str | None:
    for op in OPERATORS:
        if src.startswith(op, i):
            return op
    return None


def _scan_word(src: str, i: int) -> int:
    n = len(src)
    start = i
    while i < n:
        c = src[i]
        if c == "(" and _ARRAY_TARGET.fullmatch(src, start, i):
            # An array's compound assignment, `name=(...)` or `name+=(...)`: one word.
            i = scan_dollar(src, i - 1)
            continue
        if c in " \t\n;&|<>()":
            break
        if c == "\\":
            i += 2
            continue
        if c in "'\"`":
            i = scan_quoted(src, i + 1, c)
            continue
        if c == "$" and i + 1 < n:
            if src[i + 1] in "({":
                i = scan_dollar(src, i)
                continue
            if src[i + 1] == "'":
                i = scan_ansi(src, i + 2)
                continue
            if src[i + 1] == '"':
                i = scan_quoted(src, i + 2, '"')
                continue
        i += 1
    return min(i, n)


def scan_ansi(src: str, i: int) -> int:
    n = len(src)
    while i < n:
        if src[i] == "\\":
            i += 2
            continue
        if src[i] == "'":
            return i + 1
        i += 1
    raise ShellSyntaxError("unexpected EOF while looking for matching `''")


def read_heredoc(src: str, i: int, tok: Tok, toks: list[Tok]) -> int:
    """Read the body of heredoc `tok` from src[i:] (the lines after its own line); returns the
    index just past the delimiter line. Body lines are raw text, never tokenized."""
    at = next(k for k, t in enumerate(toks) if t is tok)
    if at + 1 >= len(toks) or toks[at + 1].kind != "word":
        raise ShellSyntaxError("syntax error near unexpected token `newline'")
    raw = toks[at + 1].value
    quoted = any(q in raw for q in "'\"\\")
    delim = raw.replace("'", "").replace('"', "").replace("\\", "")
    body = []
    n = len(src)
    terminated = False
    while i < n:
        end = src.find("\n", i)
        line = src[i:] if end < 0 else src[i:end]
        i = n if end < 0 else end + 1
        check = line.lstrip("\t") if tok.value == "<<-" else line
        if check == delim:
            terminated = True
            break
        body.append(check)
    tok.heredoc = {
        "body": "".join(b + "\n" for b in body),
        "quoted": quoted,
        "delim": delim,
        "terminated": terminated,
    }
    return i


class Parser:
    """A recursive-descent parser over `tokenize(src)`, one method per rule of bash's grammar."""

    def __init__(self, src: str) -> None:
        self.src = src
        self.toks = tokenize(src)
        self.pos = 0

    def peek(self, k: int = 0) -> Tok:
        return self.toks[min(self.pos + k, len(self.toks) - 1)]

    def next(self) -> Tok:
        tok = self.toks[self.pos]
        self.pos += 1
        return tok

    def at_word(self, *values: str) -> bool:
        tok = self.peek()
        return tok.kind == "word" and tok.value in values

    def at_op(self, *values: str) -> bool:
        tok = self.peek()
        return tok.kind == "op" and tok.value in values

    def skip_newlines(self) -> None:
        while self.at_op("\n"):
            self.next()

    def expect_word(self, value: str) -> None:
        tok = self.next()
        if tok.kind != "word" or tok.value != value:
            raise _unexpected(tok)

    def parse(self) -> CommandList:
        node = self.list_(stop=())
        if self.peek().kind != "eof":
            raise _unexpected(self.peek())
        return node

    def next_item(self) -> Item | None:
        """The next complete top-level command (an `item`), or None at the end: a script runs
        each as soon as it is parsed, as bash does, so a syntax error stops it only there."""
        self.skip_newlines()
        tok = self.peek()
        if tok.kind == "eof":
            return None
        if tok.kind == "op" and tok.value in (")", ";;", ";"):
            raise _unexpected(tok)
        node = self.and_or()
        background = False
        if self.at_op("&"):
            self.next()
            background = True
        elif self.at_op(";"):
            self.next()
        elif not self.at_op("\n") and self.peek().kind != "eof":
            raise _unexpected(self.peek())
        return Item(node, background)

    def line(self) -> int:
        """The line (from 1) of the token the parser is at."""
        return 1 + sum(1 for tok in self.toks[: self.pos] if tok.kind == "op" and tok.value == "\n")

    def list_(self, stop: tuple[str, ...]) -> CommandList:
        items: list[Item] = []
        self.skip_newlines()
        while True:
            tok = self.peek()
            if (
                tok.kind == "eof"
                or (tok.kind == "word" and tok.value in stop)
                or (tok.kind == "op" and tok.value in (")", ";;"))
            ):
                break
            node = self.and_or()
            background = False
            if self.at_op("&"):
                self.next()
                background = True
            items.append(Item(node, background))
            if self.at_op(";", "\n"):
                self.next()
                self.skip_newlines()
                continue
            if background:
                self.skip_newlines()
                continue
            break
        return CommandList(tuple(items))

    def and_or(self) -> Command:
        left: Command = self.pipeline()
        while self.at_op("&&", "||"):
            op = self.next().value
            self.skip_newlines()
            right = self.pipeline()
            left = AndOr(op, left, right)
        return left

    def pipeline(self) -> Pipeline:
        negate = False
        while self.at_word("!"):
            self.next()
            negate = not negate
        if self.at_word("time"):
            self.next()
        stages = [self.command()]
        while self.at_op("|", "|&"):
            both = self.next().value == "|&"
            self.skip_newlines()
            cmd = self.command()
            if both:
                stderr_too = (*stages[-1].redirs, Redir(2, ">&", "1"))
                stages[-1] = dataclasses.replace(stages[-1], redirs=stderr_too)
            stages.append(cmd)
        return Pipeline(tuple(stages), negate)

    def command(self) -> Stage:
        tok = self.peek()
        if tok.kind == "arith":
            self.next()
            return self._with_redirs(Arith(tok.value))
        if tok.kind == "op" and tok.value == "(":
            self.next()
            body = self.list_(stop=())
            if not self.at_op(")"):
                raise _unexpected(self.peek())
            self.next()
            return self._with_redirs(Subshell(body))
        if tok.kind == "word":
            v = tok.value
            if v == "{":
                self.next()
                body = self.list_(stop=("}",))
                self.expect_word("}")
                return self._with_redirs(Group(body))
            if v == "if":
                return self._with_redirs(self.if_())
            if v in ("while", "until"):
                return self._with_redirs(self.while_())
            if v == "for":
                return self._with_redirs(self.for_())
            if v == "case":
                return self._with_redirs(self.case_())
            if v == "[[":
                return self._with_redirs(self.cond())
            if v == "function":
                self.next()
                name = self.next().value
                if self.at_op("("):
                    self.next()
                    if not self.at_op(")"):
                        raise _unexpected(self.peek())
                    self.next()
                return self.funcbody(name)
            if v == "select":
                loop = self.for_()
                if not isinstance(loop, For):
                    raise ShellSyntaxError("syntax error near unexpected token `(('")
                return self._with_redirs(Select(loop.var, loop.items, loop.body))
            if v == "coproc":
                # Parsed as bash does (`coproc [NAME] command`), run as a clear error.
                self.next()
                if (
                    self.peek().kind == "word"
                    and is_name(self.peek().value)
                    and self.peek(1).kind == "word"
                    and self.peek(1).value in ("{", "while")
                ):
                    self.next()
                self.command()
                return Unsupported(
                    "coproc: not supported in this shell (no processes to run beside it);"
                    " use a pipeline, or a temporary file"
                )
            if v in ("then", "elif", "else", "fi", "do", "done", "esac", "}", "in", "]]"):
                raise _unexpected(tok)
            if (
                self.peek(1).kind == "op"
                and self.peek(1).value == "("
                and self.peek(2).kind == "op"
                and self.peek(2).value == ")"
                and is_name(v)
            ):
                self.next()
                self.next()
                self.next()
                return self.funcbody(v)
        return self.simple()

    def funcbody(self, name: str) -> FuncDef:
        self.skip_newlines()
        body = self.command()
        return FuncDef(name, body)

    def _with_redirs(self, node: _Redirected) -> _Redirected:
        redirs: list[Redir] = []
        while (r := self.redir()) is not None:
            redirs.append(r)
        return dataclasses.replace(node, redirs=(*node.redirs, *redirs)) if redirs else node

    def redir(self) -> Redir | None:
        tok = self.peek()
        if tok.kind != "op" or tok.value not in (
            "<",
            ">",
            ">>",
            "<<",
            "<<-",
            "<<<",
            ">&",
            "<&",
            "&>",
            "&>>",
            ">|",
            "<>",
        ):
            return None
        self.next()
        target = self.next()
        if target.kind != "word":
            raise _unexpected(target)
        op = tok.value
        fd = tok.fd
        if fd is None:
            fd = 0 if op in ("<", "<<", "<<-", "<<<", "<&", "<>") else 1
        return Redir(fd, op, target.value, tok.heredoc)

    def simple(self) -> Simple:
        assigns: list[str] = []
        words: list[str] = []
        redirs: list[Redir] = []
        while True:
            r = self.redir()
            if r is not None:
                redirs.append(r)
                continue
            tok = self.peek()
            if tok.kind != "word":
                break
            if not words and _is_assignment(tok.value):
                assigns.append(self.next().value)
                continue
            if words or tok.value not in RESERVED or tok.value in ("!",):
                if not words and tok.value in (
                    "}",
                    "then",
                    "do",
                    "done",
                    "fi",
                    "else",
                    "elif",
                    "esac",
                    "]]",
                ):
                    break
                words.append(self.next().value)
                continue
            break
        if not assigns and not words and not redirs:
            raise _unexpected(self.peek())
        return Simple(tuple(assigns), tuple(words), tuple(redirs))

    def if_(self) -> If:
        self.expect_word("if")
        clauses: list[tuple[CommandList, CommandList]] = []
        cond = self.list_(stop=("then",))
        self.expect_word("then")
        body = self.list_(stop=("elif", "else", "fi"))
        clauses.append((cond, body))
        else_ = None
        while True:
            if self.at_word("elif"):
                self.next()
                cond = self.list_(stop=("then",))
                self.expect_word("then")
                body = self.list_(stop=("elif", "else", "fi"))
                clauses.append((cond, body))
                continue
            if self.at_word("else"):
                self.next()
                else_ = self.list_(stop=("fi",))
            self.expect_word("fi")
            break
        return If(tuple(clauses), else_)

    def while_(self) -> While:
        until = self.next().value == "until"
        cond = self.list_(stop=("do",))
        self.expect_word("do")
        body = self.list_(stop=("done",))
        self.expect_word("done")
        return While(cond, body, until)

    def for_(self) -> For | CFor:
        self.next()  # `for` (or `select`)
        if self.peek().kind == "arith":
            parts = split_unquoted(self.next().value, ";")
            if len(parts) != 3:
                raise ShellSyntaxError("syntax error in C-style for loop")
            if self.at_op(";"):
                self.next()
            self.skip_newlines()
            self.expect_word("do")
            body = self.list_(stop=("done",))
            self.expect_word("done")
            return CFor(parts[0], parts[1], parts[2], body)
        name = self.next()
        if name.kind != "word" or not is_name(name.value):
            raise ShellSyntaxError(f"`{name.value}': not a valid identifier")
        self.skip_newlines()
        items: list[str] | None = None
        if self.at_word("in"):
            self.next()
            items = []
            while self.peek().kind == "word":
                items.append(self.next().value)
        if self.at_op(";", "\n"):
            self.next()
        self.skip_newlines()
        self.expect_word("do")
        body = self.list_(stop=("done",))
        self.expect_word("done")
        return For(name.value, None if items is None else tuple(items), body)

    def case_(self) -> Case:
        self.expect_word("case")
        word = self.next().value
        self.skip_newlines()
        self.expect_word("in")
        self.skip_newlines()
        arms: list[tuple[tuple[str, ...], CommandList]] = []
        while not self.at_word("esac"):
            if self.at_op("("):
                self.next()
            patterns = [self.next().value]
            while self.at_op("|"):
                self.next()
                patterns.append(self.next().value)
            if not self.at_op(")"):
                raise _unexpected(self.peek())
            self.next()
            body = self.list_(stop=("esac",))
            arms.append((tuple(patterns), body))
            if self.at_op(";;"):
                self.next()
                self.skip_newlines()
            elif not self.at_word("esac"):
                raise _unexpected(self.peek())
        self.expect_word("esac")
        return Case(word, tuple(arms))

    def cond(self) -> Cond:
        self.expect_word("[[")
        words: list[tuple[str, str]] = []
        while not self.at_word("]]"):
            tok = self.next()
            if tok.kind == "eof":
                raise ShellSyntaxError("unexpected EOF while looking for `]]'")
            if tok.kind == "op" and tok.value in ("&&", "||", "(", ")", "<", ">"):
                words.append(("op", tok.value))
            elif tok.kind == "word":
                words.append(("word", tok.value))
            else:
                raise _unexpected(tok)
        self.next()
        return Cond(tuple(words))


def is_name(s: str) -> bool:
    """Whether `s` is a variable's (or a function's) name."""
    return bool(s) and (s[0].isalpha() or s[0] == "_") and all(c.isalnum() or c == "_" for c in s)


def _is_assignment(word: str) -> bool:
    """`name=value`, `name+=value`, `name[subscript]=value` (and `+=`)."""
    return split_assignment(word) is not None


def split_assignment(word: str) -> tuple[str, str | None, bool, str] | None:
    """(name, subscript or None, append, value) of an assignment word, or None."""
    m = _ASSIGNMENT.match(word)
    if m is None:
        return None
    return m.group(1), m.group(2), bool(m.group(3)), word[m.end() :]


_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:\[((?:[^\]\\]|\\.)*)\])?(\+?)=")


def split_unquoted(text: str, sep: str) -> list[str]:
    """`text` split at each `sep` outside quotes and parentheses."""
    parts: list[str] = []
    depth, start = 0, 0
    for j, c in unquoted_chars(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(text[start:j])
            start = j + 1
    parts.append(text[start:])
    return parts


def _unexpected(tok: Tok) -> ShellSyntaxError:
    if tok.kind == "eof":
        return ShellSyntaxError("syntax error: unexpected end of file")
    value = "newline" if tok.value == "\n" else tok.value
    return ShellSyntaxError(f"syntax error near unexpected token `{value}'")


def parse(src: str) -> CommandList:
    """A whole command line's tree (a syntax error anywhere raises)."""
    return Parser(src).parse()

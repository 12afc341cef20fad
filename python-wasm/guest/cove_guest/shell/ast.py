"""The shell's syntax tree: one frozen, slotted dataclass per kind of node, as `parse` builds
it and `interp` runs it (by `match`).

A script is a sequence of `Item`s (a command, and whether it ends with `&`); a command is an
`AndOr` of `Pipeline`s, whose stages are simple commands or compound ones. Words are kept as
written (quotes and all): the interpreter expands them when it runs the command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


class Heredoc(TypedDict):
    """A here-document: its body, whether its delimiter was quoted (no expansion then), the
    delimiter, and whether the delimiter line was found."""

    body: str
    quoted: bool
    delim: str
    terminated: bool


@dataclass(frozen=True, slots=True)
class Redir:
    """`[fd]op target`: `>`, `>>`, `<`, `<<` (with its `heredoc`), `2>&1`, `&>` ..."""

    fd: int
    op: str
    target: str
    heredoc: Heredoc | None = None


Redirs = tuple[Redir, ...]


@dataclass(frozen=True, slots=True)
class Item:
    """One command of a list, and whether it was put in the background (`&`)."""

    node: Command
    background: bool = False


@dataclass(frozen=True, slots=True)
class CommandList:
    """Commands run one after another: a script's body, a group's, a loop's."""

    items: tuple[Item, ...]


@dataclass(frozen=True, slots=True)
class AndOr:
    """`left && right`, `left || right`."""

    op: str
    left: Command
    right: Command


@dataclass(frozen=True, slots=True)
class Pipeline:
    """`a | b | c`, negated by a leading `!`."""

    stages: tuple[Stage, ...]
    negate: bool = False


@dataclass(frozen=True, slots=True)
class Simple:
    """`NAME=value ... word ... redirections`."""

    assigns: tuple[str, ...]
    words: tuple[str, ...]
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class Arith:
    """`(( expr ))`."""

    expr: str
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class Subshell:
    """`( list )`."""

    body: CommandList
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class Group:
    """`{ list; }`."""

    body: CommandList
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class If:
    """`if c; then b; elif c; then b; else e; fi`: (condition, body) clauses, then `else_`."""

    clauses: tuple[tuple[CommandList, CommandList], ...]
    else_: CommandList | None
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class While:
    """`while cond; do body; done`, or `until` (`until` true)."""

    cond: CommandList
    body: CommandList
    until: bool
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class For:
    """`for var in items; do body; done` (`items` None: the positional parameters)."""

    var: str
    items: tuple[str, ...] | None
    body: CommandList
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class Select:
    """`select var in items; do body; done`: a menu on stderr, a line of stdin per round."""

    var: str
    items: tuple[str, ...] | None
    body: CommandList
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class CFor:
    """`for (( init; cond; step )); do body; done`."""

    init: str
    cond: str
    step: str
    body: CommandList
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class Case:
    """`case word in pattern|pattern) body ;; ... esac`."""

    word: str
    arms: tuple[tuple[tuple[str, ...], CommandList], ...]
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class Cond:
    """`[[ ... ]]`: its words, each ("word", text) or ("op", one of && || ( ) < >)."""

    words: tuple[tuple[str, str], ...]
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class FuncDef:
    """`name() body` or `function name body`."""

    name: str
    body: Stage
    redirs: Redirs = ()


@dataclass(frozen=True, slots=True)
class Unsupported:
    """A construct parsed as bash parses it and refused when run (`coproc`): `what` says why."""

    what: str
    redirs: Redirs = ()


Compound = Arith | Subshell | Group | If | While | For | Select | CFor | Case | Cond | FuncDef
Stage = Simple | Compound | Unsupported
Command = AndOr | Pipeline

"""The shell's tokenizer and parser: the tree's shapes and clear syntax errors."""

from __future__ import annotations

import re

import pytest

from cove_guest.shell import ast
from cove_guest.shell.parse import ShellSyntaxError, parse


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("if true; then echo", "unexpected end of file"),
        ("echo 'unterminated", "unexpected EOF while looking for matching"),
        ("echo )", "syntax error near unexpected token `)'"),
        ("for 1x in a; do :; done", "not a valid identifier"),
        ("a=(1 2", "unexpected EOF while looking for matching `)'"),
        ("cat <(ls", "unexpected EOF while looking for matching `)'"),
        ("for ((i = 0; i < 3)); do :; done", "C-style for loop"),
        ("fi", "unexpected token `fi'"),
    ],
)
def test_parser_errors_are_clear_never_silent(src: str, message: str) -> None:
    with pytest.raises(ShellSyntaxError, match=re.escape(message)):
        parse(src)


def test_parser_shapes() -> None:
    tree = parse("a=1 b=2 cmd x >out 2>&1 | wc -l && echo ok; f() { :; }")
    first = tree.items[0].node
    assert isinstance(first, ast.AndOr) and isinstance(first.left, ast.Pipeline)
    simple = first.left.stages[0]
    assert isinstance(simple, ast.Simple)
    assert (simple.assigns, simple.words) == (("a=1", "b=2"), ("cmd", "x"))
    assert [(r.fd, r.op, r.target) for r in simple.redirs] == [(1, ">", "out"), (2, ">&", "1")]
    colon = ast.Item(ast.Pipeline((ast.Simple((), (":",)),)))
    body = ast.Group(ast.CommandList((colon,)))
    assert tree.items[1].node == ast.Pipeline((ast.FuncDef("f", body),))


def test_a_pipe_of_stderr_too_redirects_the_stage_before_it() -> None:
    (item,) = parse("{ a; } 2>e |& b").items
    assert isinstance(item.node, ast.Pipeline)
    group, _ = item.node.stages
    assert [(r.fd, r.op, r.target) for r in group.redirs] == [(2, ">", "e"), (2, ">&", "1")]


def test_heredoc_bodies_are_raw_text() -> None:
    tree = parse('cat <<EOF\nit\'s "$x" (x)\nEOF\necho next')
    pipeline = tree.items[0].node
    assert isinstance(pipeline, ast.Pipeline)
    redir = pipeline.stages[0].redirs[0]
    assert redir.heredoc == {
        "body": 'it\'s "$x" (x)\n',
        "quoted": False,
        "delim": "EOF",
        "terminated": True,
    }


def test_arithmetic_arrays_and_process_substitution_keep_their_raw_text() -> None:
    # `<=` inside (( )) stays one operator (it was split into `< =`); an array's
    # parentheses, comments and newlines stay in its word; <(...) is one word.
    tree = parse(
        "(( i <= 3 ))\na=(x 'y z' # c\n w)\ndiff <(sort a) <(sort b)\n"
        "for ((i = 0; i >= -2; i--)); do :; done\n( (echo nested) )"
    )
    arith, assign, diff, cfor, nested = (
        item.node.stages[0] for item in tree.items if isinstance(item.node, ast.Pipeline)
    )
    assert arith == ast.Arith(" i <= 3 ")
    assert assign == ast.Simple(("a=(x 'y z' # c\n w)",), ())
    assert diff == ast.Simple((), ("diff", "<(sort a)", "<(sort b)"))
    assert isinstance(cfor, ast.CFor)
    assert (cfor.init, cfor.cond, cfor.step) == ("i = 0", " i >= -2", " i--")
    assert isinstance(nested, ast.Subshell)

"""The shell's tokenizer and parser: the tree's shapes and clear syntax errors."""

from __future__ import annotations

import re

import pytest

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
    assert first.kind == "andor"
    simple = first.left.stages[0]
    assert (simple.assigns, simple.words) == (["a=1", "b=2"], ["cmd", "x"])
    assert [(r.fd, r.op, r.target) for r in simple.redirs] == [(1, ">", "out"), (2, ">&", "1")]
    assert tree.items[1].node.stages[0].kind == "funcdef"


def test_heredoc_bodies_are_raw_text() -> None:
    tree = parse('cat <<EOF\nit\'s "$x" (x)\nEOF\necho next')
    redir = tree.items[0].node.stages[0].redirs[0]
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
    arith, assign, diff, cfor, nested = (item.node.stages[0] for item in tree.items)
    assert (arith.kind, arith.expr) == ("arith", " i <= 3 ")
    assert assign.assigns == ["a=(x 'y z' # c\n w)"]
    assert diff.words == ["diff", "<(sort a)", "<(sort b)"]
    assert (cfor.kind, cfor.init, cfor.cond, cfor.step) == ("cfor", "i = 0", " i >= -2", " i--")
    assert nested.kind == "subshell"

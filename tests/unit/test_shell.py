"""The guest shell's parser, expansions and utilities, run natively (the same modules the
guest loads from the stdlib archive; they are plain Python)."""

from __future__ import annotations

import os
import pathlib
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest

DRIVER = pathlib.Path(__file__).resolve().parents[2] / "python-wasm" / "driver"
sys.path.insert(0, str(DRIVER))

import _cove_shell  # noqa: E402
import _cove_shparse  # noqa: E402


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    old = os.getcwd()
    os.chdir(tmp_path)
    (tmp_path / "f.txt").write_text("b\na\nc\na\n")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.py").write_text("x = 1\n")
    try:
        yield _cove_shell.Shell()
    finally:
        os.chdir(old)


def run(sh: Any, cmd: str) -> tuple[str, str, int]:
    out, err, rc = sh.run(cmd)
    return out.decode(), err.decode(), rc


@pytest.mark.parametrize(
    ("src", "message"),
    [
        ("if true; then echo", "unexpected end of file"),
        ("echo 'unterminated", "unexpected EOF while looking for matching"),
        ("echo )", "syntax error near unexpected token `)'"),
        ("for 1x in a; do :; done", "not a valid identifier"),
        ("cat <(ls)", "process substitution"),
        ("a=(1 2)", "arrays are not supported"),
        ("select x in a; do :; done", "not supported"),
        ("fi", "unexpected token `fi'"),
    ],
)
def test_parser_errors_are_clear_never_silent(src: str, message: str) -> None:
    with pytest.raises(_cove_shparse.ShellSyntaxError, match=re.escape(message)):
        _cove_shparse.parse(src)


def test_parser_shapes() -> None:
    tree = _cove_shparse.parse("a=1 b=2 cmd x >out 2>&1 | wc -l && echo ok; f() { :; }")
    first = tree.items[0].node
    assert first.kind == "andor"
    simple = first.left.stages[0]
    assert (simple.assigns, simple.words) == (["a=1", "b=2"], ["cmd", "x"])
    assert [(r.fd, r.op, r.target) for r in simple.redirs] == [(1, ">", "out"), (2, ">&", "1")]
    assert tree.items[1].node.stages[0].kind == "funcdef"


def test_heredoc_bodies_are_raw_text() -> None:
    tree = _cove_shparse.parse('cat <<EOF\nit\'s "$x" (x)\nEOF\necho next')
    redir = tree.items[0].node.stages[0].redirs[0]
    assert redir.heredoc == {
        "body": 'it\'s "$x" (x)\n',
        "quoted": False,
        "delim": "EOF",
        "terminated": True,
    }


@pytest.mark.parametrize(
    ("cmd", "out"),
    [
        ("x='a  b'; echo $x; echo \"$x\"", "a b\na  b\n"),
        ("echo {1..3} {a,b}c {x}", "1 2 3 ac bc {x}\n"),
        (
            "x=path/to/file.tar.gz; echo ${x##*/} ${x%%.*} ${x#*.} ${x%.*}",
            "file.tar.gz path/to/file tar.gz path/to/file.tar\n",
        ),
        ("echo ${u:-d} ${u-e}; u=; echo ${u:-d}[${u-e}]", "d e\nd[]\n"),
        ("x=hello; echo ${x/l/L} ${x//l/L} ${#x} ${x:1:2} ${x^^}", "heLlo heLLo 5 el HELLO\n"),
        ("echo $((7/2)) $((-7%3)) $((2**8)) $((1<2 ? 10 : 20))", "3 -1 256 10\n"),
        ('set -- a \'b c\'; for i in "$@"; do echo "[$i]"; done; echo $#', "[a]\n[b c]\n2\n"),
        ("echo $'a\\tb' \"q\\\"q\" 'x\\y'", 'a\tb q"q x\\y\n'),
        ('echo *.txt; echo "*.txt"; echo nomatch*', "f.txt\n*.txt\nnomatch*\n"),
        ("IFS=, read a b <<< 'x,y z'; echo \"$a|$b\"", "x|y z\n"),
        ("echo $(echo a; echo b) \"$(printf 'x\\ny')\"", "a b x\ny\n"),
        ("f() { local v=in; echo $v $1; }; v=out; f arg; echo $v", "in arg\nout\n"),
        ("i=0; while (( i < 3 )); do ((i++)); done; echo $i", "3\n"),
        ("case x.py in *.txt) echo t;; *.py) echo p;; esac", "p\n"),
        ("[[ foo == f* && ! -z foo ]] && echo yes", "yes\n"),
        ("cd d && pwd | sed 's|.*/||'; cd ..", "d\n"),
        ("(exit 3); echo $?; ! true; echo $?", "3\n1\n"),
        ("false | true; echo $?; set -o pipefail; false | true; echo $?", "0\n1\n"),
    ],
)
def test_expansions_and_control_flow(sh: Any, cmd: str, out: str) -> None:
    assert run(sh, cmd)[0] == out


def test_set_e_and_set_u(sh: Any) -> None:
    assert run(sh, "set -e; false; echo no") == ("", "", 1)
    out, err, rc = run(sh, "set -u; echo $nope")
    assert (out, rc) == ("", 1)
    assert "nope: unbound variable" in err


def test_state_persists_between_runs(sh: Any) -> None:
    run(sh, "export A=1; B=2; cd d; g() { echo fn; }")
    assert run(sh, "echo $A $B; pwd | sed 's|.*/||'; g")[0] == "1 2\nd\nfn\n"


def test_command_not_found_and_network_tools(sh: Any) -> None:
    assert run(sh, "nosuch")[2] == 127
    _, err, rc = run(sh, "pip install numpy")
    assert rc == 1
    assert "no network" in err


@pytest.mark.parametrize(
    ("cmd", "out"),
    [
        ("sort f.txt | uniq -c | sort -rn | head -1", "      2 a\n"),
        ("sort -u f.txt | tr '\\n' ,", "a,b,c,"),
        ("grep -n a f.txt; grep -c a f.txt; grep -v a f.txt | wc -l", "2:a\n4:a\n2\n2\n"),
        ("grep -o 'x = [0-9]' d/x.py; grep -rl 'x =' .", "x = 1\n./d/x.py\n"),
        ("head -2 f.txt; tail -1 f.txt; tail -n +4 f.txt", "b\na\na\na\n"),
        ("wc -l f.txt; wc -c < f.txt", "4 f.txt\n8\n"),
        ("cut -c1 f.txt | paste -sd+", "b+a+c+a\n"),
        ("sed -n '2,3p' f.txt; sed 's/a/A/g;1d' f.txt", "a\nc\nA\nc\nA\n"),
        ("awk '{n[$1]++} END {print n[\"a\"]}' f.txt", "2\n"),
        ("printf '%03d %s %.1f\\n' 7 x 2.25", "007 x 2.2\n"),
        ("seq -s' ' 3; seq 5 -2 1", "1 2 3\n5\n3\n1\n"),
        ("echo hello | rev; echo a-b | tr - _; echo 'a  b' | tr -s ' '", "olleh\na_b\na b\n"),
        ("find . -name '*.py'; find . -type d | sort", "./d/x.py\n.\n./d\n"),
        ("echo x | base64; echo eAo= | base64 -d", "eAo=\nx\n"),
        ("basename /a/b.txt .txt; dirname /a/b.txt", "b\n/a\n"),
        ("expr 2 + 3; expr length abc", "5\n3\n"),
        ("echo '{\"a\": [1, 2]}' | jq -c '.a | map(. + 1)'", "[2,3]\n"),
        ("diff f.txt f.txt && echo same; cmp f.txt d/x.py >/dev/null; echo $?", "same\n1\n"),
        ("mkdir -p p/q && touch p/q/r && ls -R p | head -2", "p:\nq\n"),
        ("cp f.txt g.txt && mv g.txt h.txt && rm h.txt && ls", "d\nf.txt\n"),
        ("echo a > o; echo b >> o; cat o; echo e >&2 2>/dev/null", "a\nb\n"),
        ("ls | xargs -n1 echo item", "item d\nitem f.txt\n"),
    ],
)
def test_utilities(sh: Any, cmd: str, out: str) -> None:
    assert run(sh, cmd)[0] == out


@pytest.mark.parametrize(
    ("cmd", "rc"),
    [
        ("grep zzz f.txt", 1),
        ("grep a missing.txt", 2),
        ("ls missing", 2),
        ("cat missing", 1),
        ("sort -Z f.txt", 2),
        ("awk '{print' f.txt", 2),
        ("jq '.[' f.txt", 3),
        ("mkdir d", 1),
    ],
)
def test_utility_failures_exit_like_gnu(sh: Any, cmd: str, rc: int) -> None:
    assert run(sh, cmd)[2] == rc

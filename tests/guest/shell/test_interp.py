"""The interpreter: expansions, control flow, state between runs, and failures that stay
in the shell."""

from __future__ import annotations

import errno
import os
import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from cove_guest.shell import builtins
from cove_guest.text.errors import os_message

from ..support import run, shell_in


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, {"f.txt": "b\na\nc\na\n", "d/x.py": "x = 1\n"}) as shell:
        yield shell


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
    _, err, rc = run(sh, "pip install no-such-package-anywhere")
    assert rc == 1
    assert "no network" in err
    _, err, rc = run(sh, "curl https://example.com")
    assert rc == 1
    assert "no network" in err


def test_an_exception_in_a_utility_stays_in_the_shell(sh: Any, monkeypatch: Any) -> None:
    def boom(ctx: Any, args: list[str]) -> int:
        raise OverflowError("numerical result out of range")

    monkeypatch.setitem(sh.commands, "boom", boom)
    out, err, rc = run(sh, "x=1; boom; echo after $x")
    assert out == "after 1\n"
    assert "boom: internal error: OverflowError: numerical result out of range" in err
    assert rc == 0
    assert run(sh, "boom")[2] != 0


def test_an_exception_in_a_builtin_stays_in_the_shell(sh: Any, monkeypatch: Any) -> None:
    def bad(ctx: Any, args: list[str]) -> int:
        raise KeyError("k")

    monkeypatch.setitem(builtins.BUILTINS, "badbuiltin", bad)
    out, err, _rc = run(sh, "badbuiltin; echo on")
    assert out == "on\n"
    assert "badbuiltin: internal error: KeyError" in err


def test_command_substitution_keeps_stderr(sh: Any) -> None:
    msg = "ls: cannot access 'nope': No such file or directory\n"
    assert run(sh, 'x=$(ls nope); echo "[$x]"') == ("[]\n", msg, 0)
    assert run(sh, "{ x=$(ls nope); } 2>/dev/null")[1] == ""
    assert run(sh, "echo $(ls nope) 2>/dev/null")[1] == msg


def test_enotcapable_reads_as_bash_would_word_it(sh: Any, monkeypatch: Any) -> None:
    real_open = open

    def wasi_open(path: Any, *a: Any, **k: Any) -> Any:
        if str(path).startswith("/outside"):
            raise OSError(76, "Capabilities insufficient", str(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr("builtins.open", wasi_open)
    _out, err, rc = run(sh, "cat /outside/x")
    assert (err, rc) == ("cat: /outside/x: No such file or directory\n", 1)
    _, err, _ = run(sh, "echo hi > /outside/y")
    assert err == "bash: /outside/y: Permission denied\n"
    assert "Capabilities" not in run(sh, "head /outside/x; wc -l /outside/x; grep a /outside/x")[1]
    assert os_message(OSError(76, "Capabilities insufficient"), write=False) == (
        os.strerror(errno.ENOENT)
    )


def test_a_command_lines_exit_trap_runs_when_it_ends_and_not_again(sh: Any) -> None:
    # Each call is a script: its EXIT trap runs as it ends, and the next call starts clean.
    assert run(sh, "trap 'echo bye' EXIT; echo work") == ("work\nbye\n", "", 0)
    assert run(sh, "echo next") == ("next\n", "", 0)
    assert run(sh, "trap 'echo status $?' EXIT; exit 4") == ("status 4\n", "", 4)
    # A function's trap is the shell's; a subshell's ends with the subshell.
    assert run(sh, "f() { trap 'echo f-done' EXIT; }; f; (trap 'echo sub' EXIT); echo main") == (
        "sub\nmain\nf-done\n",
        "",
        0,
    )


def test_variables_and_arrays_persist_between_calls_but_subshells_copy_them(sh: Any) -> None:
    run(sh, "a=(1 2 3); declare -A m=([k]=v)")
    assert run(sh, "( a[0]=9; m[k]=w; a+=(4) ); echo ${a[@]} ${m[k]}")[0] == "1 2 3 v\n"
    assert run(sh, "x=$(a[1]=7; echo ${a[1]}); echo $x ${a[1]}")[0] == "7 2\n"
    assert run(sh, "f() { local -a a=(x); a+=(y); echo ${a[@]}; }; f; echo ${a[@]}")[0] == (
        "x y\n1 2 3\n"
    )
    # Arrays are not exported (bash cannot export them either).
    assert run(sh, "export a; bash -c 'echo [${a-unset}]'")[0] == "[unset]\n"


def test_a_group_in_a_pipeline_runs_in_a_subshell_as_bash_runs_every_stage(sh: Any) -> None:
    assert run(sh, "x=0; { x=1; } | cat; echo $x") == ("0\n", "", 0)
    assert run(sh, "n=0; echo 5 | { read -r n; echo in=$n; }; echo out=$n")[0] == "in=5\nout=0\n"
    assert run(sh, "{ cd d; } | cat; basename $PWD")[0] != "d\n"
    # Alone (not in a pipeline), a group runs in the shell itself.
    assert run(sh, "y=0; { y=1; }; echo $y; { z=2; } > /dev/null; echo $z") == ("1\n2\n", "", 0)


def test_process_substitution_leaves_no_files_behind(sh: Any, tmp_path: pathlib.Path) -> None:
    import tempfile

    before = set(os.listdir(tempfile.gettempdir()))
    out, err, rc = run(sh, "cat <(echo a) <(echo b); echo x | tee >(cat > copy.txt) >/dev/null")
    assert (out, err, rc) == ("a\nb\n", "", 0)
    assert (tmp_path / "copy.txt").read_text() == "x\n"
    left = {n for n in set(os.listdir(tempfile.gettempdir())) - before if "procsub" in n}
    assert not left


def test_bash_c_is_a_new_shell_that_leaves_this_one_as_it_was(sh: Any) -> None:
    out, err, rc = run(
        sh,
        "v=1; export E=2; f() { :; }; bash -c 'echo \"$0|$1|$v|$E\"; type f; cd d; x=3' n a; "
        "echo $? $x; pwd | grep -c /d$",
    )
    assert out == "n|a||2\n0\n0\n", err
    assert "f: not found" in err
    # Nesting is bounded, as function calls are: a script that runs itself stops, saying why.
    out, err, rc = run(sh, "echo 'bash s.sh' > s.sh; bash s.sh; echo $?")
    assert (out, rc) == ("1\n", 0)
    assert "maximum nesting level exceeded" in err

"""The utilities added for "bash scripts as models write them": join, comm, paste's shared
stdin, sed's in-place editing and program (blocks, hold space, branches), du's sizes, bc,
printf, xargs, tr, the byte viewers; and the GNU getopt the new parsers share. GNU's output is
written out here so these run where coreutils are not installed (the differential corpus,
cases_tools.py, checks the same against the real tools)."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from cove_guest.text.errors import UsageError
from cove_guest.text.options import getopt

from ..support import run, shell_in

FILES = {
    "s.txt": "alice 90\nbob 85\ndave 70\n",
    "c.txt": "alice paris\ncarol rome\ndave oslo\n",
    "a.csv": "id,name\n1,ann\n2,ben\n",
    "b.csv": "id,score\n1,50\n3,70\n",
    "u.txt": "b 1\na 2\n",
    "w1": "apple\nbanana\ncherry\n",
    "w2": "banana\ncherry\ndate\n",
    "big.bin": "x" * 13066,
    "d/f.txt": "hello\n",
}


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, FILES) as shell:
        yield shell


@pytest.mark.parametrize(
    ("cmd", "out"),
    [
        ("join s.txt c.txt", "alice 90 paris\ndave 70 oslo\n"),
        ("join -a1 s.txt c.txt", "alice 90 paris\nbob 85\ndave 70 oslo\n"),
        ("join -v2 s.txt c.txt", "carol rome\n"),
        (
            "join -a1 -a2 -e NA -o 0,1.2,2.2 s.txt c.txt",
            "alice 90 paris\nbob 85 NA\ncarol NA rome\ndave 70 oslo\n",
        ),
        ("join -o auto -a2 -e - s.txt c.txt", "alice 90 paris\ncarol - rome\ndave 70 oslo\n"),
        ("join -t, --header a.csv b.csv", "id,name,score\n1,ann,50\n"),
        ("printf 'x a\\n' > k; printf 'a 1\\n' | join -1 2 -o 1.1,2.2 k -", "x 1\n"),
        ("printf 'alice x\\n' | join - s.txt", "alice x 90\n"),
        ("comm w1 w2", "apple\n\t\tbanana\n\t\tcherry\n\tdate\n"),
        ("comm -12 w1 w2; comm -3 w1 w2", "banana\ncherry\napple\n\tdate\n"),
        (
            "comm --output-delimiter=: --total w1 w2",
            "apple\n::banana\n::cherry\n:date\n1:1:2:total\n",
        ),
        ("seq 1 7 | paste - - -", "1\t2\t3\n4\t5\t6\n7\t\t\n"),
        ("seq 1 4 | paste -d, - w1", "1,apple\n2,banana\n3,cherry\n4,\n"),
        ("paste -sd+ - <<< $'1\\n2\\n3' | bc", "6\n"),
        (
            "du big.bin; du -b big.bin; du -h big.bin; du -bh big.bin",
            "16\tbig.bin\n13066\tbig.bin\n16K\tbig.bin\n13K\tbig.bin\n",
        ),
        (
            "du -BK big.bin; du -m big.bin; du --apparent-size big.bin",
            "16K\tbig.bin\n1\tbig.bin\n13\tbig.bin\n",
        ),
        ("du -ab d | head -1; du -a d | head -1", "6\td/f.txt\n4\td/f.txt\n"),
    ],
)
def test_outputs(sh: Any, cmd: str, out: str) -> None:
    assert run(sh, cmd)[0] == out


def test_join_and_comm_report_unsorted_input(sh: Any) -> None:
    out, err, rc = run(sh, "join u.txt c.txt")
    assert (out, rc) == ("", 1)
    assert "u.txt:2: is not sorted: a 2" in err and "input is not in sorted order" in err
    assert run(sh, "join --nocheck-order u.txt c.txt")[2] == 0
    out, err, rc = run(sh, "comm u.txt w1 --check-order; echo $?")
    assert out == "\tapple\nb 1\n1\n" and "file 1 is not in sorted order" in err
    assert run(sh, "comm u.txt w1; echo $?")[0].endswith("\tcherry\n1\n")
    assert run(sh, "join -a 3 s.txt c.txt")[2] == 1
    assert run(sh, "join s.txt")[2] == 1


def test_sed_in_place_backups(sh: Any) -> None:
    assert run(sh, "sed -i.bak 's/alice/ALICE/' s.txt; head -1 s.txt s.txt.bak")[0] == (
        "==> s.txt <==\nALICE 90\n\n==> s.txt.bak <==\nalice 90\n"
    )
    # -ie: the suffix is "e", the classic mistake, as GNU reads it
    assert run(sh, "sed -ie 's/bob/BOB/' s.txt; ls s.txt*")[0] == "s.txt\ns.txt.bak\ns.txte\n"
    assert run(sh, "mkdir bk; sed -i'bk/*.old' 1d c.txt; wc -l < bk/c.txt.old")[0] == "3\n"
    assert run(sh, "sed -n -i '$p' w1 w2; cat w1 w2")[0] == "cherry\ndate\n"
    assert run(sh, "echo x | sed -i s/x/y/")[2] == 4


@pytest.mark.parametrize(
    ("cmd", "out"),
    [
        ("seq 5 | sed -n '2{p;q}'", "2\n"),
        ("seq 3 | sed '1!G;h;$!d'", "3\n2\n1\n"),
        ("seq 4 | sed ':a;N;$!ba;s/\\n/,/g'", "1,2,3,4\n"),
        ("seq 6 | sed -n '0~3p;1~4p'", "1\n3\n5\n6\n"),
        ("echo hello world | sed 's/\\w\\+/\\u&/g;s/o/\\U&/2'", "Hello WOrld\n"),
        ("seq 5 | sed '2,4c\\gone'", "1\ngone\n5\n"),
        ("printf 'a' | sed p", "a\na"),
    ],
)
def test_sed_programs(sh: Any, cmd: str, out: str) -> None:
    assert run(sh, cmd)[0] == out


@pytest.mark.parametrize(
    ("cmd", "out"),
    [
        ("echo 'scale=2; 10/3' | bc", "3.33\n"),
        ("echo '-7 % 3; 2^-1; 1.5^2; -.25*4' | bc", "-1\n0\n2.2\n-1.00\n"),
        ("echo 'obase=16; 255; ibase=16; FF' | bc", "FF\nFF\n"),
        (
            "echo 'define f(n) { if (n<2) return 1; return n*f(n-1) }; f(20)' | bc",
            "2432902008176640000\n",
        ),
        ("echo '1/0; 5' | bc 2>/dev/null; echo 4 | bc", "4\n"),
        ("printf '%5.1f|%-4s|%03d|%x\\n' 3.14159 ab 7 255", "  3.1|ab  |007|ff\n"),
        (
            "printf '%q %q\\n' 'a b' \"it's\"; printf -v v '%s-%s' x y; echo $v",
            "a\\ b it\\'s\nx-y\n",
        ),
        ("echo \"a 'b c' d\" | xargs -n1", "a\nb c\nd\n"),
        ("printf '1\\n2\\n3\\n' | xargs -L2 echo", "1 2\n3\n"),
        ("echo 'Hello' | tr '[:upper:][:lower:]' '[:lower:][:upper:]'", "hELLO\n"),
        ("printf 'ab\\n' | od -c", "0000000   a   b  \\n\n0000003\n"),
        ("printf 'ab\\n' | xxd", "00000000: 6162 0a                                  ab.\n"),
        ("printf 'hello world\\n' | fold -w 5", "hello\n worl\nd\n"),
    ],
)
def test_new_utilities(sh: Any, cmd: str, out: str) -> None:
    assert run(sh, cmd)[0] == out


def test_getopt_keeps_order_permutes_and_reads_optional_values() -> None:
    opts, rest = getopt(
        ["f", "-i.bak", "-ne", "p", "--in-place=x", "--quiet", "g", "--", "-z"],
        "ne:i::",
        {"in-place": ("i", 2), "quiet": ("n", 0)},
    )
    assert opts == [("i", ".bak"), ("n", None), ("e", "p"), ("i", "x"), ("n", None)]
    assert rest == ["f", "g", "-z"]
    assert getopt(["-i", "x"], "i::")[0] == [("i", None)]
    assert getopt(["--qu"], "", {"quiet": ("q", 0)})[0] == [("q", None)]
    # a leading + stops at the first operand (xargs's command and its options)
    assert getopt(["-n1", "grep", "-c"], "+n:") == ([("n", "1")], ["grep", "-c"])
    with pytest.raises(UsageError, match="invalid option -- 'z'"):
        getopt(["-z"], "a")
    with pytest.raises(UsageError, match="option requires an argument -- 'e'"):
        getopt(["-e"], "e:")
    with pytest.raises(UsageError, match="ambiguous"):
        getopt(["--c"], "", {"check": ("c", 0), "count": ("k", 0)})

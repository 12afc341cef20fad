"""The commands' common cases and GNU exit statuses, one line each."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from ..support import run, shell_in


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, {"f.txt": "b\na\nc\na\n", "d/x.py": "x = 1\n"}) as shell:
        yield shell


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

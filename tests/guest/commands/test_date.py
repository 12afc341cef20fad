"""date -d: GNU's forms, relative dates, invalid dates."""

from __future__ import annotations

import pathlib
from collections.abc import Iterator
from typing import Any

import pytest

from ..support import run, shell_in


@pytest.fixture
def sh(tmp_path: pathlib.Path) -> Iterator[Any]:
    with shell_in(tmp_path, {"d/a.py": "x\n", "d/b.py": "y\ny\n"}) as shell:
        yield shell


@pytest.mark.parametrize(
    ("arg", "out"),
    [
        ("2024-03-01", "2024-03-01 00:00:00"),
        ("2024-03-01 12:30", "2024-03-01 12:30:00"),
        ("2024-03-01T12:30:00Z", "2024-03-01 12:30:00"),
        ("@1700000000", "2023-11-14 22:13:20"),
        ("2024-03-01 +1 month", "2024-04-01 00:00:00"),
        ("2024-01-31 + 1 day", "2024-02-01 00:00:00"),
        ("2024-03-01 3 days ago", "2024-02-27 00:00:00"),
        ("2024-03-01 -2 weeks", "2024-02-16 00:00:00"),
        ("2024-03-01 1 hour ago", "2024-02-29 23:00:00"),
        # GNU ignores a day of the week next to a calendar date
        ("2024-03-01 next monday", "2024-03-01 00:00:00"),
        ("2024-03-01 next week", "2024-03-08 00:00:00"),
        ("2024-03-01 last month", "2024-02-01 00:00:00"),
        ("2024-01-31 +1 month", "2024-03-02 00:00:00"),
        ("Mar 1 2024 2pm", "2024-03-01 14:00:00"),
        ("2024-03-01T10:00:00+02:00", "2024-03-01 08:00:00"),
        # after a time, GNU reads `+1` as a zone and `hour` as one hour
        ("2024-03-01 12:30 +1 hour", "2024-03-01 12:30:00"),
        ("2024-03-01 tomorrow", "2024-03-02 00:00:00"),
    ],
)
def test_date_d_parses_gnu_forms(sh: Any, arg: str, out: str) -> None:
    assert run(sh, f"TZ=UTC date -d '{arg}' '+%Y-%m-%d %H:%M:%S'") == (out + "\n", "", 0)


def test_date_d_relative_to_now_and_invalid(sh: Any) -> None:
    today = run(sh, "date -u +%F")[0]
    assert run(sh, "date -u -d today +%F")[0] == today
    assert run(sh, "date -u --date=now +%F")[0] == today
    y = run(sh, "date -u -d yesterday +%s")[0]
    assert abs(int(run(sh, "date -u +%s")[0]) - 86400 - int(y)) < 5
    assert run(sh, "date -d xyz") == ("", "date: invalid date 'xyz'\n", 1)
    assert run(sh, "date -d 2024-02-30")[2] == 1
    monday = run(sh, "date -u -d 'next monday' '+%u %s'")[0].split()
    last_friday = run(sh, "date -u -d 'last friday' '+%u %s'")[0].split()
    now = int(run(sh, "date -u +%s")[0])
    assert monday[0] == "1" and 0 < int(monday[1]) - now <= 7 * 86400
    assert last_friday[0] == "5" and 0 < now - int(last_friday[1]) <= 8 * 86400

"""GNU-style option parsing for the commands."""

from __future__ import annotations

import pytest

from cove_guest.text.errors import UsageError
from cove_guest.text.options import parse_count, parse_options


def test_bundled_flags_values_and_double_dash() -> None:
    on, values, rest = parse_options(
        ["-rn", "-k2", "-t", ",", "--reverse", "--", "-x"], "rn", "kt", {"reverse": "r"}
    )
    assert (on, values, rest) == ({"r", "n"}, {"k": "2", "t": ","}, ["-x"])


def test_unknown_options_are_usage_errors() -> None:
    with pytest.raises(UsageError, match="invalid option -- 'z'") as info:
        parse_options(["-z"], "a")
    assert info.value.code == 2
    with pytest.raises(UsageError, match="unrecognized option '--nope'"):
        parse_options(["--nope"], "a")


def test_parse_count() -> None:
    assert parse_count("12", "lines") == 12
    with pytest.raises(UsageError.__mro__[1], match="invalid number of lines: 'x'"):
        parse_count("x", "lines")

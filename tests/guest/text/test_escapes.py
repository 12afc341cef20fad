"""Backslash escapes: `$'…'` and `echo -e`, and shell quoting."""

from __future__ import annotations

from cove_guest.text.escapes import ansi_c, echo_escapes, shell_quote


def test_ansi_c() -> None:
    assert ansi_c(r"a\tb\x41\101\u00e9\'") == "a\tbAAé'"


def test_echo_escapes_stop_at_backslash_c() -> None:
    assert echo_escapes(r"a\nb\0101") == ("a\nbA", False)
    assert echo_escapes(r"x\cy") == ("x", True)


def test_shell_quote() -> None:
    assert shell_quote("plain-word") == "plain-word"
    assert shell_quote("it's") == "'it'\\''s'"
    assert shell_quote("") == "''"

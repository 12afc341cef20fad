"""Bounded capture of stdout and stderr."""

from __future__ import annotations

import sys

from cove_guest.capture import BoundedText, redirected_streams


def test_keeps_the_head_and_counts_the_rest() -> None:
    out = BoundedText(5)
    out.write("abc")
    out.write("défg")
    assert out.dropped == 3
    assert out.getvalue() == "abcd\ufffd\n[output truncated: 3 more bytes were dropped]\n"


def test_bytes_through_buffer_and_streams_restored() -> None:
    saved = sys.stdout

    def body(out: BoundedText, err: BoundedText) -> int:
        sys.stdout.buffer.write(b"raw\n")
        print("e", file=sys.stderr)
        return 7

    rc, out, err = redirected_streams(100, body)
    assert (rc, out.getvalue(), err.getvalue()) == (7, "raw\n", "e\n")
    assert sys.stdout is saved

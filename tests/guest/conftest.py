"""The guest package (python-wasm/guest/cove_guest) runs natively here: it is plain Python that
needs only the standard library. Its directory goes on sys.path once, for every guest test."""

from __future__ import annotations

import pathlib
import sys

GUEST = pathlib.Path(__file__).resolve().parents[2] / "python-wasm" / "guest"
if str(GUEST) not in sys.path:
    sys.path.insert(0, str(GUEST))

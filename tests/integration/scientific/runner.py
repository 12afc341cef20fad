"""Runs differential cases and turns each into one normalized text, natively or in the guest.

Plain stdlib Python 3.11, so that the same source runs on the host and, sent as text, inside
Cove's guest. A case's text is what it printed to stdout, then what it printed to stderr (if
anything), then one `WARNING <Category>: <message>` line per warning it let escape, then
`EXC <TypeName>: <message>` if it raised.

Each case runs in a fresh `__main__`-like namespace, in a fresh directory of its own (its name,
under a base directory), with numpy's and pandas' global state reset to what a new process has:
print options, floating-point error handling, pandas options, the legacy `np.random` state and
`random`'s (both seeded with 0), and Python's default warning filters.

Natively: `python runner.py OUT.json < cases.json` (cases as a JSON list of [name, code] pairs)
writes {"outputs": {name: text}, "seconds": {name: seconds}} to OUT.json, running every case
one after another in this one process under a temporary directory.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
import time
import traceback
import warnings
from typing import Any

# Python's default warning filters (without -W or PYTHONWARNINGS), first match wins.
_DEFAULT_FILTERS: list[tuple[Any, type[Warning], str]] = [
    ("default", DeprecationWarning, "__main__"),
    ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""),
    ("ignore", ImportWarning, ""),
    ("ignore", ResourceWarning, ""),
]


class _State:
    """numpy's and pandas' process-wide settings as a fresh process has them (if importable)."""

    def __init__(self) -> None:
        self.np: Any = None
        self.pd: Any = None
        self.printoptions: dict[str, Any] = {}
        self.errstate: dict[str, Any] = {}
        try:
            import numpy

            self.np = numpy
            self.printoptions = dict(numpy.get_printoptions())
            self.errstate = dict(numpy.geterr())
        except ImportError:
            pass
        self.options: dict[str, Any] = {}
        try:
            import pandas  # type: ignore[import-untyped,unused-ignore]

            self.pd = pandas
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for key in pandas._config.config._registered_options:
                    self.options[key] = pandas.get_option(key)
        except ImportError:
            pass

    def reset(self) -> None:
        random.seed(0)
        if self.np is not None:
            self.np.set_printoptions(**self.printoptions)
            self.np.seterr(**self.errstate)
            self.np.random.seed(0)
        if self.pd is not None:
            # Only what a case changed: resetting everything would load a plotting backend.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                for key, value in self.options.items():
                    if self.pd.get_option(key) != value:
                        self.pd.set_option(key, value)


def run_one(name: str, code: str, state: _State) -> str:
    """Runs `code` in a fresh namespace in the current directory; returns its normalized text."""
    state.reset()
    out, err = io.StringIO(), io.StringIO()
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": builtins}
    failure = ""
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        for action, category, module in _DEFAULT_FILTERS:
            warnings.filterwarnings(action, category=category, module=module, append=True)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                exec(compile(code, f"<case {name}>", "exec"), namespace)
            except SystemExit as exc:
                failure = f"EXC SystemExit: {exc.code}"
            except Exception as exc:
                failure = f"EXC {type(exc).__name__}: {exc}"
    text = out.getvalue()
    if err.getvalue():
        text += "--- stderr ---\n" + err.getvalue()
    for w in caught:
        text += f"WARNING {w.category.__name__}: {w.message}\n"
    if failure:
        text += failure + "\n"
    return text


def run_cases(cases: list[list[str]], base: str) -> dict[str, dict[str, Any]]:
    """Runs each [name, code] in its own directory `base/name`; outputs and times by name."""
    state = _State()
    outputs: dict[str, Any] = {}
    seconds: dict[str, Any] = {}
    home = os.getcwd()
    for name, code in cases:
        folder = os.path.join(base, name)
        os.makedirs(folder, exist_ok=True)
        os.chdir(folder)
        started = time.perf_counter()
        try:
            outputs[name] = run_one(name, code, state)
        except BaseException:  # the harness itself failed: still report the case
            outputs[name] = "HARNESS " + traceback.format_exc()
        finally:
            seconds[name] = round(time.perf_counter() - started, 4)
            os.chdir(home)
    return {"outputs": outputs, "seconds": seconds}


def run_cases_json(cases_json: str, base: str) -> str:
    """`run_cases` from and to JSON text (the guest's entry point)."""
    return json.dumps(run_cases(json.loads(cases_json), base))


def main(argv: list[str]) -> int:
    cases = json.load(sys.stdin)
    base = tempfile.mkdtemp(prefix="cove-scientific-")
    try:
        result = run_cases(cases, base)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    with open(argv[1], "w", encoding="utf-8") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

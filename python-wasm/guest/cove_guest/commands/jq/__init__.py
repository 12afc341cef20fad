"""jq's command line: -r -c -n -s -e -S -j --arg --argjson, input streams,
and output formatting. The language is in `lexer`, `parser`, `evaluate` and `values`."""

import json

from cove_guest.commands.jq.errors import JqError
from cove_guest.commands.jq.evaluate import Env, run
from cove_guest.commands.jq.parser import Parser
from cove_guest.commands.jq.values import truthy
from cove_guest.shell.io import Context
from cove_guest.text.inputs import decode, read_inputs


def _dump(v: object, compact: bool, sort_keys: bool, raw: bool) -> str:
    if raw and isinstance(v, str):
        return v
    if compact:
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)
    return json.dumps(v, ensure_ascii=False, indent=2, sort_keys=sort_keys)


def _parse_stream(text: str) -> list[object]:
    """Every JSON value in `text`, one after another (jq reads a stream of them)."""
    dec = json.JSONDecoder()
    i, n = 0, len(text)
    out: list[object] = []
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            return out
        v, i = dec.raw_decode(text, i)
        out.append(v)


def jq(ctx: Context, args: list[str]) -> int:
    flags = set()
    variables = {}
    rest = []
    k = 0
    while k < len(args):
        a = args[k]
        if a in ("--arg", "--argjson") and k + 2 < len(args):
            variables[args[k + 1]] = args[k + 2] if a == "--arg" else json.loads(args[k + 2])
            k += 3
            continue
        if a.startswith("--"):
            flags.add(
                {
                    "--raw-output": "r",
                    "--compact-output": "c",
                    "--null-input": "n",
                    "--slurp": "s",
                    "--exit-status": "e",
                    "--sort-keys": "S",
                    "--join-output": "j",
                    "--tab": "t",
                }.get(a, a)
            )
        elif a.startswith("-") and len(a) > 1 and len(a) <= 6 and set(a[1:]) <= set("rcnsejSt"):
            flags.update(a[1:])  # short options may follow the filter, as jq accepts
        else:
            rest.append(a)
        k += 1
    program = rest.pop(0) if rest else "."
    try:
        node = Parser(program).parse()
    except JqError as exc:
        ctx.err.write(f"jq: error: {exc}\njq: 1 compile error\n")
        return 3

    data, status = read_inputs(ctx, rest, "jq")
    if status:
        return 2
    text = "".join(decode(d) for _, d in data)
    try:
        inputs = _parse_stream(text)
    except ValueError as exc:
        # jq 1.6 exits 4 on input it cannot parse, 5 on a runtime error.
        ctx.err.write(f"parse error: {exc}\n")
        return 4
    if "s" in flags:
        inputs = [inputs]
    if "n" in flags:
        inputs = [None]
    env = Env(variables)
    last = None
    try:
        for value in inputs:
            for out in run(node, value, env):
                last = out
                text_out = _dump(out, "c" in flags, "S" in flags, bool({"r", "j"} & flags))
                ctx.out.write(text_out + ("" if "j" in flags else "\n"))
    except JqError as exc:
        ctx.err.write(f"jq: error (at <stdin>:0): {exc}\n")
        return 5
    except (TypeError, KeyError, IndexError, AttributeError) as exc:
        ctx.err.write(f"jq: error (at <stdin>:0): {exc}\n")
        return 5
    if "e" in flags:
        return 0 if truthy(last) else 1
    return 0

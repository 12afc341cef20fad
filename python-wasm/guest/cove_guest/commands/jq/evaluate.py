"""jq evaluation: every filter is a generator of outputs, and the builtins
models use most.

Over 500 lines because the builtins are evaluated in place (`_call`), beside the walk that
reaches them.
"""

import json
import math
import re
from collections.abc import Callable, Iterator
from typing import Any, cast

from cove_guest.commands.jq.errors import JqError
from cove_guest.commands.jq.parser import Node, Parser
from cove_guest.commands.jq.values import (
    Json,
    Path,
    all_paths,
    canonical_number,
    contains,
    delpaths,
    flatten,
    getpath,
    index_value,
    setpath,
    short,
    sort_key,
    tostring,
    truthy,
    type_name,
)


class Env:
    def __init__(self, variables: dict[str, Json]) -> None:
        self.vars = variables


def run(node: Node, value: Json, env: Env) -> Iterator[Json]:
    kind = node[0]
    if kind == "identity":
        yield value
    elif kind == "recurse":
        yield from _recurse(value)
    elif kind == "field":
        if value is None:
            yield None
        elif isinstance(value, dict):
            yield value.get(node[1])
        else:
            raise JqError(f'Cannot index {type_name(value)} with "{node[1]}"')
    elif kind == "index":
        for idx in run(node[1], value, env):
            yield index_value(value, idx)
    elif kind == "slice":
        lows = list(run(node[1], value, env)) if node[1] else [None]
        highs = list(run(node[2], value, env)) if node[2] else [None]
        for lo in lows:
            for hi in highs:
                if value is None:
                    yield None
                elif isinstance(value, (list, str)):
                    yield value[None if lo is None else int(lo) : None if hi is None else int(hi)]
                else:
                    raise JqError(f"Cannot index {type_name(value)} with object")
    elif kind == "iter":
        if isinstance(value, list):
            yield from value
        elif isinstance(value, dict):
            yield from value.values()
        else:
            raise JqError(
                f"Cannot iterate over {type_name(value)}"
                + (f" ({short(value)})" if value is not None else "")
            )
    elif kind == "pipe":
        for v in run(node[1], value, env):
            yield from run(node[2], v, env)
    elif kind == "comma":
        yield from run(node[1], value, env)
        yield from run(node[2], value, env)
    elif kind == "const":
        yield node[1]
    elif kind == "string":
        yield from _interpolate(node[1], value, env, None)
    elif kind == "fmtstring":
        yield from _interpolate(node[2], value, env, node[1])
    elif kind == "format":
        yield _format(node[1], value)
    elif kind == "neg":
        for v in run(node[1], value, env):
            yield -v
    elif kind == "array":
        yield [] if node[1] is None else list(run(node[1], value, env))
    elif kind == "object":
        yield from _objects(node[1], value, env)
    elif kind == "var":
        if node[1] == "__loc__":
            yield {"file": "<stdin>", "line": 1}
        elif node[1] not in env.vars:
            raise JqError(f"${node[1]} is not defined")
        else:
            yield env.vars[node[1]]
    elif kind == "as":
        for bound in run(node[1], value, env):
            inner = Env({**env.vars, node[2]: bound})
            yield from run(node[3], value, inner)
    elif kind == "alt":
        found = False
        try:
            for v in run(node[1], value, env):
                if truthy(v):
                    found = True
                    yield v
        except JqError:
            pass
        if not found:
            yield from run(node[2], value, env)
    elif kind in ("and", "or"):
        for a in run(node[1], value, env):
            if kind == "and" and not truthy(a):
                yield False
                continue
            if kind == "or" and truthy(a):
                yield True
                continue
            for b in run(node[2], value, env):
                yield truthy(b)
    elif kind == "cmp":
        for b in run(node[3], value, env):
            for a in run(node[2], value, env):
                op = node[1]
                if op == "==":
                    yield a == b and type_name(a) == type_name(b)
                elif op == "!=":
                    yield not (a == b and type_name(a) == type_name(b))
                else:
                    x, y = sort_key(a), sort_key(b)
                    yield {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
    elif kind == "arith":
        for b in run(node[3], value, env):
            for a in run(node[2], value, env):
                yield _arith(node[1], a, b)
    elif kind == "if":
        for c in run(node[1], value, env):
            yield from run(node[2] if truthy(c) else node[3], value, env)
    elif kind == "try":
        try:
            yield from list(run(node[1], value, env))
        except JqError:
            return
    elif kind == "trycatch":
        try:
            yield from list(run(node[1], value, env))
        except JqError as exc:
            yield from run(node[2], str(exc), env)
    elif kind == "reduce":
        for acc in run(node[3], value, env):
            for item in run(node[1], value, env):
                inner = Env({**env.vars, node[2]: item})
                results = list(run(node[4], acc, inner))
                acc = results[-1] if results else None
            yield acc
    elif kind == "update":
        yield _update(node, value, env)
    elif kind == "call":
        yield from _call(node[1], node[2], value, env)
    else:
        raise JqError(f"unsupported expression {kind}")


def _recurse(v: Json) -> Iterator[Json]:
    yield v
    if isinstance(v, list):
        for x in v:
            yield from _recurse(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _recurse(x)


def _arith(op: str, a: Json, b: Json) -> Json:
    if op == "+":
        if a is None:
            return b
        if b is None:
            return a
        if isinstance(a, dict) and isinstance(b, dict):
            return {**a, **b}
        if type_name(a) != type_name(b):
            raise JqError(
                f"{type_name(a)} ({short(a)}) and {type_name(b)} ({short(b)}) cannot be added"
            )
        return canonical_number(a + b) if isinstance(a, (int, float)) else a + b
    if op == "-":
        if isinstance(a, list) and isinstance(b, list):
            return [x for x in a if x not in b]
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return canonical_number(a - b)
        raise JqError(
            f"{type_name(a)} ({short(a)}) and {type_name(b)} ({short(b)}) cannot be subtracted"
        )
    if op == "*":
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return canonical_number(a * b)
        if isinstance(a, str) and isinstance(b, (int, float)):
            return a * int(b) if b > 0 else None
        raise JqError(f"{type_name(a)} and {type_name(b)} cannot be multiplied")
    if op == "/":
        if isinstance(a, str) and isinstance(b, str):
            return a.split(b)
        if b == 0:
            raise JqError(
                f"{type_name(a)} ({short(a)}) and {type_name(b)} ({short(b)}) cannot be divided "
                "because the divisor is zero"
            )
        return canonical_number(a / b)
    if op == "%":
        if b == 0:
            raise JqError("cannot be divided because the divisor is zero")
        return int(a) % int(b) if (a >= 0) == (b >= 0) else -(abs(int(a)) % abs(int(b)))
    raise JqError(op)


def _objects(entries: list[tuple[Node, Node]], value: Json, env: Env) -> Iterator[dict[str, Json]]:
    results: list[dict[str, Any]] = [{}]
    for key_node, val_node in entries:
        new = []
        for partial in results:
            for k in run(key_node, value, env):
                if not isinstance(k, str):
                    raise JqError("Object keys must be strings")
                for v in run(val_node, value, env):
                    new.append({**partial, k: v})
        results = new
    yield from results


def _interpolate(
    parts: list[tuple[str, str]], value: Json, env: Env, fmt: str | None
) -> Iterator[str]:
    outs = [""]
    for kind, text in parts:
        if kind == "lit":
            outs = [o + text for o in outs]
            continue
        node = Parser(text).parse()
        vals = list(run(node, value, env))
        outs = [o + (_format(fmt, v) if fmt else tostring(v)) for o in outs for v in vals]
    yield from outs


def _format(fmt: str, v: Json) -> str:
    if fmt == "@text":
        return tostring(v)
    if fmt == "@json":
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    if fmt == "@base64":
        import base64

        return base64.b64encode(tostring(v).encode()).decode()
    if fmt == "@base64d":
        import base64

        return base64.b64decode(tostring(v)).decode("utf-8", "replace")
    if fmt == "@uri":
        from urllib.parse import quote

        return quote(tostring(v), safe="-_.~")
    if fmt == "@html":
        import html

        return html.escape(tostring(v), quote=True).replace("&#x27;", "&#39;")
    if fmt in ("@csv", "@tsv"):
        if not isinstance(v, list):
            raise JqError(
                f"{type_name(v)} ({short(v)}) cannot be {fmt[1:]}-formatted, only an array can be"
            )
        cells = []
        for x in v:
            if isinstance(x, str):
                cells.append(
                    '"' + x.replace('"', '""') + '"'
                    if fmt == "@csv"
                    else x.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
                )
            elif x is None:
                cells.append("")
            else:
                cells.append(tostring(x))
        return ("," if fmt == "@csv" else "\t").join(cells)
    if fmt == "@sh":
        items = v if isinstance(v, list) else [v]
        return " ".join(
            "'" + tostring(x).replace("'", "'\\''") + "'" if isinstance(x, str) else tostring(x)
            for x in items
        )
    raise JqError(f"{fmt} is not a valid format")


def _paths_of(node: Node, value: Json, env: Env) -> list[Path]:
    """Concrete paths a simple path expression (fields, indexes, iteration) selects."""
    kind = node[0]
    if kind == "identity":
        return [[]]
    if kind == "field":
        return [[node[1]]]
    if kind == "index":
        return [[idx] for idx in run(node[1], value, env)]
    if kind == "iter":
        if isinstance(value, list):
            return [[k] for k in range(len(value))]
        if isinstance(value, dict):
            return [[k] for k in value]
        return []
    if kind == "pipe":
        out: list[list[Any]] = []
        for p in _paths_of(node[1], value, env):
            sub = getpath(value, p)
            out.extend(p + q for q in _paths_of(node[2], sub, env))
        return out
    if kind == "comma":
        return _paths_of(node[1], value, env) + _paths_of(node[2], value, env)
    if kind == "call" and node[1] == "select":
        return [[]] if any(truthy(c) for c in run(node[2][0], value, env)) else []
    raise JqError("Invalid path expression")


def _update(node: Node, value: Json, env: Env) -> Json:
    op, target, rhs = node[1], node[2], node[3]
    result = value
    for path in _paths_of(target, value, env):
        old = getpath(value, path)
        if op == "|=":
            outs = list(run(rhs, old, env))
            new = outs[0] if outs else None
        elif op == "=":
            new = next(iter(run(rhs, value, env)), None)
        else:
            new = _arith(op[0], old, next(iter(run(rhs, value, env)), None))
        result = setpath(result, path, new)
    return result


def _one(node: Node, value: Json, env: Env) -> Json:
    for v in run(node, value, env):
        return v
    raise JqError("argument produced no value")


def _call(name: str, args: list[Node], value: Json, env: Env) -> Iterator[Json]:
    out: Any  # a dict or a list, depending on the builtin
    n = len(args)
    if name == "empty":
        return
    if name == "not":
        yield not truthy(value)
    elif name == "length":
        if value is None:
            yield 0
        elif isinstance(value, bool):
            raise JqError("boolean (true) has no length")
        elif isinstance(value, (int, float)):
            yield abs(value)
        else:
            yield len(value)
    elif name == "utf8bytelength":
        yield len(value.encode())
    elif name in ("keys", "keys_unsorted"):
        if isinstance(value, dict):
            yield sorted(value) if name == "keys" else list(value)
        elif isinstance(value, list):
            yield list(range(len(value)))
        else:
            raise JqError(f"{type_name(value)} ({short(value)}) has no keys")
    elif name == "values":
        if value is not None:
            yield value
    elif name == "has":
        key = _one(args[0], value, env)
        yield key in value if isinstance(value, dict) else (0 <= key < len(value))
    elif name == "in":
        obj = _one(args[0], value, env)
        yield value in obj if isinstance(obj, dict) else (0 <= value < len(obj))
    elif name == "select":
        for c in run(args[0], value, env):
            if truthy(c):
                yield value
    elif name == "map":
        if not isinstance(value, (list, dict)):
            raise JqError(f"Cannot iterate over {type_name(value)}")
        items = value if isinstance(value, list) else list(value.values())
        yield [r for x in items for r in run(args[0], x, env)]
    elif name == "map_values":
        if isinstance(value, dict):
            out = {}
            for k, x in value.items():
                r = list(run(args[0], x, env))
                if r:
                    out[k] = r[0]
            yield out
        else:
            yield [r[0] for x in value for r in [list(run(args[0], x, env))] if r]
    elif name == "to_entries":
        yield [{"key": k, "value": x} for k, x in value.items()]
    elif name == "from_entries":
        out = {}
        for e in value:
            k = e.get("key", e.get("k", e.get("name", e.get("Key", e.get("Name")))))
            out[k if isinstance(k, str) else json.dumps(k)] = e.get(
                "value", e.get("v", e.get("Value"))
            )
        yield out
    elif name == "with_entries":
        entries = [{"key": k, "value": x} for k, x in value.items()]
        mapped = [r for e in entries for r in run(args[0], e, env)]
        yield {e["key"]: e.get("value") for e in mapped}
    elif name == "sort":
        yield sorted(value, key=sort_key)
    elif name in ("sort_by", "group_by", "unique_by", "min_by", "max_by"):
        keyed = [(list(run(args[0], x, env)), x) for x in value]
        keyed.sort(key=lambda kx: [sort_key(k) for k in kx[0]])
        if name == "sort_by":
            yield [x for _, x in keyed]
        elif name == "group_by":
            groups: list[tuple[list[Any], list[Any]]] = []
            for k, x in keyed:
                if groups and groups[-1][0] == k:
                    groups[-1][1].append(x)
                else:
                    groups.append((k, [x]))
            yield [g for _, g in groups]
        elif name == "unique_by":
            seen, out = [], []
            for k, x in keyed:
                if k not in seen:
                    seen.append(k)
                    out.append(x)
            yield out
        elif name == "min_by":
            yield keyed[0][1] if keyed else None
        else:
            yield keyed[-1][1] if keyed else None
    elif name == "unique":
        out = []
        for x in sorted(value, key=sort_key):
            if not out or out[-1] != x:
                out.append(x)
        yield out
    elif name in ("min", "max"):
        yield (
            (min(value, key=sort_key) if name == "min" else max(value, key=sort_key))
            if value
            else None
        )
    elif name == "add":
        acc = None
        for x in value if isinstance(value, list) else list(value.values()):
            acc = _arith("+", acc, x)
        yield acc
    elif name == "any":
        yield (
            any(truthy(x) for x in value)
            if n == 0
            else any(truthy(r) for x in value for r in run(args[0], x, env))
        )
    elif name == "all":
        yield (
            all(truthy(x) for x in value)
            if n == 0
            else all(truthy(r) for x in value for r in run(args[0], x, env))
        )
    elif name == "first":
        if n:
            for v in run(args[0], value, env):
                yield v
                break
        else:
            yield value[0] if value else None
    elif name == "last":
        if n:
            vals = list(run(args[0], value, env))
            if vals:
                yield vals[-1]
        else:
            yield value[-1] if value else None
    elif name == "limit":
        k = _one(args[0], value, env)
        for i, v in enumerate(run(args[1], value, env)):
            if i >= k:
                break
            yield v
    elif name == "reverse":
        yield value[::-1] if value is not None else []
    elif name == "type":
        yield type_name(value)
    elif name == "tostring":
        yield tostring(value)
    elif name == "tonumber":
        if isinstance(value, (int, float)):
            yield value
        else:
            try:
                yield canonical_number(float(value)) if re.search(r"[.eE]", value) else int(value)
            except (ValueError, TypeError):
                raise JqError(f"Cannot parse '{value}' as JSON") from None
    elif name == "tojson":
        yield json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    elif name == "fromjson":
        yield json.loads(value)
    elif name == "ascii_downcase":
        yield value.lower()
    elif name == "ascii_upcase":
        yield value.upper()
    elif name == "split":
        sep = _one(args[0], value, env)
        yield value.split(sep) if sep else list(value)
    elif name == "join":
        sep = _one(args[0], value, env)
        yield sep.join("" if x is None else tostring(x) for x in value)
    elif name == "test":
        rx = _one(args[0], value, env)
        flags = _one(args[1], value, env) if n > 1 else ""
        yield re.search(rx, value, re.I if "i" in (flags or "") else 0) is not None
    elif name in ("sub", "gsub"):
        rx, rep = _one(args[0], value, env), args[1]
        flags = _one(args[2], value, env) if n > 2 else ""
        count = 0 if name == "gsub" or "g" in (flags or "") else 1

        def repl(m: re.Match[str]) -> str:
            captures = {k: v for k, v in m.groupdict().items()}
            return "".join(str(x) for x in run(rep, captures, env))

        yield re.sub(rx, repl, value, count=count, flags=re.I if "i" in (flags or "") else 0)
    elif name == "startswith":
        yield value.startswith(_one(args[0], value, env))
    elif name == "endswith":
        yield value.endswith(_one(args[0], value, env))
    elif name == "ltrimstr":
        p = _one(args[0], value, env)
        yield value[len(p) :] if isinstance(value, str) and value.startswith(p) else value
    elif name == "rtrimstr":
        p = _one(args[0], value, env)
        yield value[: -len(p)] if isinstance(value, str) and p and value.endswith(p) else value
    elif name == "contains":
        yield contains(value, _one(args[0], value, env))
    elif name == "inside":
        yield contains(_one(args[0], value, env), value)
    elif name == "range":
        bounds = [_one(a, value, env) for a in args]
        if n == 1:
            yield from range(int(bounds[0]))
        else:
            step = bounds[2] if n > 2 else 1
            x = bounds[0]
            while (step > 0 and x < bounds[1]) or (step < 0 and x > bounds[1]):
                yield x
                x += step
    elif name in ("floor", "ceil", "sqrt", "fabs", "round"):
        fn = cast(
            Callable[[Any], Any],
            {
                "floor": math.floor,
                "ceil": math.ceil,
                "sqrt": math.sqrt,
                "fabs": abs,
                "round": round,
            }[name],
        )
        yield canonical_number(fn(value)) if name != "sqrt" else canonical_number(math.sqrt(value))
    elif name == "flatten":
        depth = _one(args[0], value, env) if n else 10**9
        yield flatten(value, depth)
    elif name == "tostream":
        raise JqError("tostream is not supported")
    elif name == "paths":
        yield from (p for p in all_paths(value) if p)
    elif name == "path":
        yield from _paths_of(args[0], value, env)
    elif name == "getpath":
        yield getpath(value, _one(args[0], value, env))
    elif name == "del":
        yield delpaths(value, _paths_of(args[0], value, env))
    elif name == "to_number":
        yield float(value)
    elif name == "env" or name == "$ENV":
        yield {}
    elif name == "error":
        raise JqError(tostring(_one(args[0], value, env)) if n else tostring(value))
    elif name == "input" or name == "inputs":
        raise JqError(f"{name} is not supported")
    elif name == "splits":
        yield from re.split(_one(args[0], value, env), value)
    elif name == "ascii":
        yield chr(value)
    elif name == "implode":
        yield "".join(chr(c) for c in value)
    elif name == "explode":
        yield [ord(c) for c in value]
    elif name == "indices" or name == "index" or name == "rindex":
        needle = _one(args[0], value, env)
        if isinstance(value, str):
            found = [m.start() for m in re.finditer(re.escape(needle), value)] if needle else []
        else:
            found = (
                [k for k in range(len(value)) if value[k : k + len(needle)] == needle]
                if isinstance(needle, list)
                else [k for k, x in enumerate(value) if x == needle]
            )
        yield (
            found
            if name == "indices"
            else (found[0] if name == "index" and found else found[-1] if found else None)
        )
    elif name == "recurse":
        yield from _recurse(value) if n == 0 else _recurse_f(args[0], value, env)
    elif name == "isnan":
        yield isinstance(value, float) and math.isnan(value)
    elif name in (
        "nulls",
        "booleans",
        "numbers",
        "strings",
        "arrays",
        "objects",
        "iterables",
        "scalars",
    ):
        t = type_name(value)
        ok = {
            "nulls": t == "null",
            "booleans": t == "boolean",
            "numbers": t == "number",
            "strings": t == "string",
            "arrays": t == "array",
            "objects": t == "object",
            "iterables": t in ("array", "object"),
            "scalars": t not in ("array", "object"),
        }[name]
        if ok:
            yield value
    elif name == "tostring":
        yield tostring(value)
    elif name == "now":
        import time

        yield time.time()
    elif name == "debug":
        yield value
    else:
        raise JqError(f"{name}/{n} is not defined")


def _recurse_f(f: Node, value: Json, env: Env) -> Iterator[Json]:
    yield value
    for v in run(f, value, env):
        yield from _recurse_f(f, v, env)

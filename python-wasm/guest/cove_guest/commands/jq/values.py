"""jq's view of JSON values: type names, the total order, truthiness, and
path get/set/delete."""

import json
from collections.abc import Iterator
from typing import Any

from cove_guest.commands.jq.errors import JqError

# A JSON value as json.loads gives it: None, bool, int, float, str, list or dict.
Json = Any
# A path into a value: keys and indices.
Path = list[Json]


def type_name(v: Json) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def sort_key(v: Json) -> tuple[int, Any]:
    rank = {"null": 0, "boolean": 1, "number": 2, "string": 3, "array": 4, "object": 5}[
        type_name(v)
    ]
    if isinstance(v, list):
        return (rank, [sort_key(x) for x in v])
    if isinstance(v, dict):
        return (rank, sorted((k, sort_key(x)) for k, x in v.items()))
    if isinstance(v, bool):
        return (rank, int(v))
    return (rank, v)


def truthy(v: Json) -> bool:
    return v is not None and v is not False


def canonical_number(v: Json) -> Json:
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e17:
        return int(v)
    return v


def short(v: Json) -> str:
    return json.dumps(v)[:11] + ("..." if len(json.dumps(v)) > 11 else "")


def index_value(value: Json, idx: Json) -> Json:
    if value is None:
        return None
    if isinstance(idx, str):
        if not isinstance(value, dict):
            raise JqError(f'Cannot index {type_name(value)} with "{idx}"')
        return value.get(idx)
    if isinstance(idx, (int, float)) and not isinstance(idx, bool):
        if not isinstance(value, list):
            raise JqError(f"Cannot index {type_name(value)} with number")
        k = int(idx)
        return value[k] if -len(value) <= k < len(value) else None
    raise JqError(f"Cannot index {type_name(value)} with {type_name(idx)}")


def tostring(v: Json) -> str:
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def getpath(v: Json, path: Path) -> Json:
    for p in path:
        if v is None:
            return None
        v = index_value(v, p)
    return v


def setpath(v: Json, path: Path, new: Json) -> Json:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(head, str):
        obj = dict(v) if isinstance(v, dict) else {}
        obj[head] = setpath(obj.get(head), rest, new)
        return obj
    arr = list(v) if isinstance(v, list) else []
    k = int(head)
    while len(arr) <= k:
        arr.append(None)
    arr[k] = setpath(arr[k], rest, new)
    return arr


def delpaths(v: Json, paths: list[Path]) -> Json:
    for path in sorted(
        paths, key=lambda p: [(-x if isinstance(x, int) else 0) for x in p], reverse=False
    ):
        v = _delpath(v, path)
    return v


def _delpath(v: Json, path: Path) -> Json:
    if not path:
        return None
    head, rest = path[0], path[1:]
    if isinstance(v, dict) and head in v:
        v = dict(v)
        if rest:
            v[head] = _delpath(v[head], rest)
        else:
            del v[head]
    elif isinstance(v, list) and isinstance(head, int) and -len(v) <= head < len(v):
        v = list(v)
        if rest:
            v[head] = _delpath(v[head], rest)
        else:
            del v[head]
    return v


def all_paths(v: Json, prefix: tuple[Json, ...] = ()) -> Iterator[Path]:
    yield list(prefix)
    if isinstance(v, dict):
        for k, x in v.items():
            yield from all_paths(x, (*prefix, k))
    elif isinstance(v, list):
        for k, x in enumerate(v):
            yield from all_paths(x, (*prefix, k))


def flatten(v: list[Json], depth: int) -> list[Json]:
    out: list[Json] = []
    for x in v:
        if isinstance(x, list) and depth > 0:
            out.extend(flatten(x, depth - 1))
        else:
            out.append(x)
    return out


def contains(a: Json, b: Json) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return all(k in a and contains(a[k], v) for k, v in b.items())
    if isinstance(a, list) and isinstance(b, list):
        return all(any(contains(x, y) for x in a) for y in b)
    if isinstance(a, str) and isinstance(b, str):
        return b in a
    return a == b

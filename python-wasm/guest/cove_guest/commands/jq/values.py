"""jq's view of JSON values: type names, the total order, truthiness, and
path get/set/delete."""

import json

from cove_guest.commands.jq.errors import JqError


def type_name(v):
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


def sort_key(v):
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


def truthy(v):
    return v is not None and v is not False


def canonical_number(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e17:
        return int(v)
    return v


def short(v):
    return json.dumps(v)[:11] + ("..." if len(json.dumps(v)) > 11 else "")


def index_value(value, idx):
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


def tostring(v):
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def getpath(v, path):
    for p in path:
        if v is None:
            return None
        v = index_value(v, p)
    return v


def setpath(v, path, new):
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


def delpaths(v, paths):
    for path in sorted(
        paths, key=lambda p: [(-x if isinstance(x, int) else 0) for x in p], reverse=False
    ):
        v = _delpath(v, path)
    return v


def _delpath(v, path):
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


def all_paths(v, prefix=()):
    yield list(prefix)
    if isinstance(v, dict):
        for k, x in v.items():
            yield from all_paths(x, (*prefix, k))
    elif isinstance(v, list):
        for k, x in enumerate(v):
            yield from all_paths(x, (*prefix, k))


def flatten(v, depth):
    out = []
    for x in v:
        if isinstance(x, list) and depth > 0:
            out.extend(flatten(x, depth - 1))
        else:
            out.append(x)
    return out


def contains(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return all(k in a and contains(a[k], v) for k, v in b.items())
    if isinstance(a, list) and isinstance(b, list):
        return all(any(contains(x, y) for x in a) for y in b)
    if isinstance(a, str) and isinstance(b, str):
        return b in a
    return a == b

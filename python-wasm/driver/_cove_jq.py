"""jq, the common filters: paths, iteration, pipes, commas, construction, comparisons and
arithmetic, `if`, `as $x`, string interpolation, and the builtins models use most. Options
-r -c -n -s -e -S --arg --argjson. Unsupported syntax is a clear compile error."""

import json
import math
import re


class JqError(Exception):
    pass


def _lex(src):
    toks = []
    i, n = 0, len(src)
    ops = ["|=", "+=", "-=", "//", "==", "!=", "<=", ">=", "..", "?//", "|", ",", ".", "[", "]", "(",
           ")", "{", "}", ":", ";", "+", "-", "*", "/", "%", "<", ">", "?", "$", "="]
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
            continue
        if c == "#":
            while i < n and src[i] != "\n":
                i += 1
            continue
        if c == '"':
            parts, i = _lex_string(src, i + 1)
            toks.append(("str", parts))
            continue
        if c.isdigit():
            m = re.match(r"\d+(\.\d+)?([eE][-+]?\d+)?", src[i:])
            text = m.group(0)
            toks.append(("num", float(text) if ("." in text or "e" in text.lower()) else int(text)))
            i += len(text)
            continue
        if c == "@":
            m = re.match(r"@[a-z0-9]+", src[i:])
            toks.append(("format", m.group(0)))
            i += len(m.group(0))
            continue
        if c.isalpha() or c == "_":
            m = re.match(r"[A-Za-z_][A-Za-z_0-9]*", src[i:])
            toks.append(("ident", m.group(0)))
            i += len(m.group(0))
            continue
        op = next((o for o in ops if src.startswith(o, i)), None)
        if op is None:
            raise JqError(f"syntax error, unexpected '{c}'")
        toks.append(("op", op))
        i += len(op)
    toks.append(("eof", None))
    return toks


def _lex_string(src, i):
    parts, buf = [], []
    n = len(src)
    while i < n:
        c = src[i]
        if c == '"':
            parts.append(("lit", "".join(buf)))
            return parts, i + 1
        if c == "\\":
            d = src[i + 1]
            if d == "(":
                parts.append(("lit", "".join(buf)))
                buf = []
                depth = 1
                j = i + 2
                while j < n and depth:
                    if src[j] == "(":
                        depth += 1
                    elif src[j] == ")":
                        depth -= 1
                    elif src[j] == '"':
                        _, j = _lex_string(src, j + 1)
                        continue
                    j += 1
                parts.append(("interp", src[i + 2:j - 1]))
                i = j
                continue
            if d == "u":
                buf.append(chr(int(src[i + 2:i + 6], 16)))
                i += 6
                continue
            buf.append({"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "/": "/", "\\": "\\", '"': '"'}.get(d, d))
            i += 2
            continue
        buf.append(c)
        i += 1
    raise JqError("unterminated string")


class Parser:
    def __init__(self, src):
        self.t = _lex(src)
        self.i = 0

    def peek(self):
        return self.t[self.i]

    def take(self, value=None):
        tok = self.t[self.i]
        if value is not None and tok[1] != value:
            raise JqError(f"syntax error, expected '{value}' but got '{tok[1]}'")
        self.i += 1
        return tok

    def is_op(self, *v):
        return self.peek()[0] == "op" and self.peek()[1] in v

    def is_kw(self, *v):
        return self.peek()[0] == "ident" and self.peek()[1] in v

    def parse(self):
        e = self.pipe()
        if self.peek()[0] != "eof":
            raise JqError(f"syntax error, unexpected '{self.peek()[1]}'")
        return e

    def pipe(self):
        if self.is_kw("def"):
            raise JqError("function definitions (def) are not supported")
        left = self.comma()
        if self.is_kw("as"):
            self.take()
            self.take("$")
            name = self.take()[1]
            self.take("|")
            body = self.pipe()
            return ("as", left, name, body)
        if self.is_op("|"):
            self.take()
            return ("pipe", left, self.pipe())
        return left

    def comma(self):
        left = self.alt()
        while self.is_op(","):
            self.take()
            left = ("comma", left, self.alt())
        return left

    def alt(self):
        left = self.assign()
        while self.is_op("//"):
            self.take()
            left = ("alt", left, self.assign())
        return left

    def assign(self):
        left = self.or_()
        if self.is_op("|=", "+=", "-=", "="):
            op = self.take()[1]
            return ("update", op, left, self.or_())
        return left

    def or_(self):
        left = self.and_()
        while self.is_kw("or"):
            self.take()
            left = ("or", left, self.and_())
        return left

    def and_(self):
        left = self.cmp()
        while self.is_kw("and"):
            self.take()
            left = ("and", left, self.cmp())
        return left

    def cmp(self):
        left = self.add()
        if self.is_op("==", "!=", "<", "<=", ">", ">="):
            op = self.take()[1]
            left = ("cmp", op, left, self.add())
        return left

    def add(self):
        left = self.mul()
        while self.is_op("+", "-"):
            op = self.take()[1]
            left = ("arith", op, left, self.mul())
        return left

    def mul(self):
        left = self.postfix()
        while self.is_op("*", "/", "%"):
            op = self.take()[1]
            left = ("arith", op, left, self.postfix())
        return left

    def postfix(self):
        node = self.term()
        while True:
            if self.is_op("."):
                nxt = self.t[self.i + 1]
                if nxt[0] == "ident":
                    self.take()
                    node = ("pipe", node, ("field", self.take()[1]))
                    continue
                if nxt[0] == "str":
                    self.take()
                    node = ("pipe", node, ("field", self._plain(self.take()[1])))
                    continue
                if nxt == ("op", "["):
                    self.take()
                    continue
                break
            if self.is_op("["):
                node = ("pipe", node, self.bracket())
                continue
            if self.is_op("?"):
                self.take()
                node = ("try", node)
                continue
            break
        return node

    def bracket(self):
        self.take("[")
        if self.is_op("]"):
            self.take()
            return ("iter",)
        if self.is_op(":"):
            self.take()
            hi = self.pipe()
            self.take("]")
            return ("slice", None, hi)
        idx = self.pipe()
        if self.is_op(":"):
            self.take()
            hi = None if self.is_op("]") else self.pipe()
            self.take("]")
            return ("slice", idx, hi)
        self.take("]")
        return ("index", idx)

    def _plain(self, parts):
        if any(kind == "interp" for kind, _ in parts):
            raise JqError("interpolated field names are not supported")
        return "".join(v for _, v in parts)

    def term(self):
        kind, value = self.peek()
        if kind == "op" and value == "..":
            self.take()
            return ("recurse",)
        if kind == "op" and value == ".":
            self.take()
            nxt = self.peek()
            if nxt[0] == "ident":
                self.take()
                return ("field", nxt[1])
            if nxt[0] == "str":
                self.take()
                return ("field", self._plain(nxt[1]))
            if nxt == ("op", "["):
                return self.bracket()
            return ("identity",)
        if kind == "num":
            self.take()
            return ("const", value)
        if kind == "str":
            self.take()
            return ("string", value)
        if kind == "format":
            self.take()
            if self.peek()[0] == "str":
                return ("fmtstring", value, self.take()[1])
            return ("format", value)
        if kind == "op" and value == "-":
            self.take()
            return ("neg", self.postfix())
        if kind == "op" and value == "(":
            self.take()
            e = self.pipe()
            self.take(")")
            return e
        if kind == "op" and value == "[":
            self.take()
            if self.is_op("]"):
                self.take()
                return ("array", None)
            e = self.pipe()
            self.take("]")
            return ("array", e)
        if kind == "op" and value == "{":
            return self.obj()
        if kind == "op" and value == "$":
            self.take()
            return ("var", self.take()[1])
        if kind == "ident":
            self.take()
            if value in ("true", "false", "null"):
                return ("const", {"true": True, "false": False, "null": None}[value])
            if value == "if":
                return self.if_()
            if value == "try":
                body = self.postfix()
                handler = None
                if self.is_kw("catch"):
                    self.take()
                    handler = self.postfix()
                return ("try", body) if handler is None else ("trycatch", body, handler)
            if value == "reduce":
                src = self.postfix()
                if not self.is_kw("as"):
                    raise JqError("syntax error in reduce")
                self.take()
                self.take("$")
                name = self.take()[1]
                self.take("(")
                init = self.pipe()
                self.take(";")
                update = self.pipe()
                self.take(")")
                return ("reduce", src, name, init, update)
            args = []
            if self.is_op("("):
                self.take()
                args.append(self.pipe())
                while self.is_op(";"):
                    self.take()
                    args.append(self.pipe())
                self.take(")")
            return ("call", value, args)
        raise JqError(f"syntax error, unexpected '{value}'")

    def if_(self):
        cond = self.pipe()
        if not self.is_kw("then"):
            raise JqError("syntax error: expected then")
        self.take()
        then = self.pipe()
        if self.is_kw("elif"):
            self.take()
            else_ = self.if_()
            return ("if", cond, then, else_)
        else_ = ("identity",)
        if self.is_kw("else"):
            self.take()
            else_ = self.pipe()
        if not self.is_kw("end"):
            raise JqError("syntax error: expected end")
        self.take()
        return ("if", cond, then, else_)

    def obj(self):
        self.take("{")
        entries = []
        while not self.is_op("}"):
            kind, value = self.peek()
            if kind == "ident":
                self.take()
                key = ("const", value)
                shorthand = ("field", value)
            elif kind == "str":
                self.take()
                key = ("string", value)
                shorthand = ("field", self._plain(value)) if all(k == "lit" for k, _ in value) else None
            elif kind == "op" and value == "$":
                self.take()
                name = self.take()[1]
                key = ("const", name)
                shorthand = ("var", name)
            elif kind == "op" and value == "(":
                self.take()
                key = self.pipe()
                self.take(")")
                shorthand = None
            else:
                raise JqError(f"syntax error in object construction near '{value}'")
            if self.is_op(":"):
                self.take()
                val = self.alt_no_comma()
            else:
                if shorthand is None:
                    raise JqError("syntax error: object key needs a value")
                val = shorthand
            entries.append((key, val))
            if self.is_op(","):
                self.take()
        self.take("}")
        return ("object", entries)

    def alt_no_comma(self):
        left = self.alt()
        if self.is_op("|"):
            self.take()
            return ("pipe", left, self.alt_no_comma())
        return left


def _type(v):
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


def _order(v):
    rank = {"null": 0, "boolean": 1, "number": 2, "string": 3, "array": 4, "object": 5}[_type(v)]
    if isinstance(v, list):
        return (rank, [_order(x) for x in v])
    if isinstance(v, dict):
        return (rank, sorted((k, _order(x)) for k, x in v.items()))
    if isinstance(v, bool):
        return (rank, int(v))
    return (rank, v)


def _truthy(v):
    return v is not None and v is not False


def _num(v):
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e17:
        return int(v)
    return v


class Env:
    def __init__(self, variables):
        self.vars = variables


def run(node, value, env):
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
            raise JqError(f"Cannot index {_type(value)} with \"{node[1]}\"")
    elif kind == "index":
        for idx in run(node[1], value, env):
            yield _index(value, idx)
    elif kind == "slice":
        lows = list(run(node[1], value, env)) if node[1] else [None]
        highs = list(run(node[2], value, env)) if node[2] else [None]
        for lo in lows:
            for hi in highs:
                if value is None:
                    yield None
                elif isinstance(value, (list, str)):
                    yield value[None if lo is None else int(lo):None if hi is None else int(hi)]
                else:
                    raise JqError(f"Cannot index {_type(value)} with object")
    elif kind == "iter":
        if isinstance(value, list):
            yield from value
        elif isinstance(value, dict):
            yield from value.values()
        else:
            raise JqError(f"Cannot iterate over {_type(value)}" + (f" ({_short(value)})" if value is not None else ""))
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
                if _truthy(v):
                    found = True
                    yield v
        except JqError:
            pass
        if not found:
            yield from run(node[2], value, env)
    elif kind in ("and", "or"):
        for a in run(node[1], value, env):
            if kind == "and" and not _truthy(a):
                yield False
                continue
            if kind == "or" and _truthy(a):
                yield True
                continue
            for b in run(node[2], value, env):
                yield _truthy(b)
    elif kind == "cmp":
        for b in run(node[3], value, env):
            for a in run(node[2], value, env):
                op = node[1]
                if op == "==":
                    yield a == b and _type(a) == _type(b)
                elif op == "!=":
                    yield not (a == b and _type(a) == _type(b))
                else:
                    x, y = _order(a), _order(b)
                    yield {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]
    elif kind == "arith":
        for b in run(node[3], value, env):
            for a in run(node[2], value, env):
                yield _arith(node[1], a, b)
    elif kind == "if":
        for c in run(node[1], value, env):
            yield from run(node[2] if _truthy(c) else node[3], value, env)
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


def _short(v):
    return json.dumps(v)[:11] + ("..." if len(json.dumps(v)) > 11 else "")


def _recurse(v):
    yield v
    if isinstance(v, list):
        for x in v:
            yield from _recurse(x)
    elif isinstance(v, dict):
        for x in v.values():
            yield from _recurse(x)


def _index(value, idx):
    if value is None:
        return None
    if isinstance(idx, str):
        if not isinstance(value, dict):
            raise JqError(f"Cannot index {_type(value)} with \"{idx}\"")
        return value.get(idx)
    if isinstance(idx, (int, float)) and not isinstance(idx, bool):
        if not isinstance(value, list):
            raise JqError(f"Cannot index {_type(value)} with number")
        k = int(idx)
        return value[k] if -len(value) <= k < len(value) else None
    raise JqError(f"Cannot index {_type(value)} with {_type(idx)}")


def _arith(op, a, b):
    if op == "+":
        if a is None:
            return b
        if b is None:
            return a
        if isinstance(a, dict) and isinstance(b, dict):
            return {**a, **b}
        if _type(a) != _type(b):
            raise JqError(f"{_type(a)} ({_short(a)}) and {_type(b)} ({_short(b)}) cannot be added")
        return _num(a + b) if isinstance(a, (int, float)) else a + b
    if op == "-":
        if isinstance(a, list) and isinstance(b, list):
            return [x for x in a if x not in b]
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return _num(a - b)
        raise JqError(f"{_type(a)} ({_short(a)}) and {_type(b)} ({_short(b)}) cannot be subtracted")
    if op == "*":
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            return _num(a * b)
        if isinstance(a, str) and isinstance(b, (int, float)):
            return a * int(b) if b > 0 else None
        raise JqError(f"{_type(a)} and {_type(b)} cannot be multiplied")
    if op == "/":
        if isinstance(a, str) and isinstance(b, str):
            return a.split(b)
        if b == 0:
            raise JqError(f"{_type(a)} ({_short(a)}) and {_type(b)} ({_short(b)}) cannot be divided because the divisor is zero")
        return _num(a / b)
    if op == "%":
        if b == 0:
            raise JqError("cannot be divided because the divisor is zero")
        return int(a) % int(b) if (a >= 0) == (b >= 0) else -(abs(int(a)) % abs(int(b)))
    raise JqError(op)


def _objects(entries, value, env):
    results = [{}]
    for key_node, val_node in entries:
        new = []
        for partial in results:
            for k in run(key_node, value, env):
                if not isinstance(k, str):
                    raise JqError(f"Object keys must be strings")
                for v in run(val_node, value, env):
                    new.append({**partial, k: v})
        results = new
    yield from results


def _tostring(v):
    return v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def _interpolate(parts, value, env, fmt):
    outs = [""]
    for kind, text in parts:
        if kind == "lit":
            outs = [o + text for o in outs]
            continue
        node = Parser(text).parse()
        vals = list(run(node, value, env))
        outs = [o + (_format(fmt, v) if fmt else _tostring(v)) for o in outs for v in vals]
    yield from outs


def _format(fmt, v):
    if fmt == "@text":
        return _tostring(v)
    if fmt == "@json":
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    if fmt == "@base64":
        import base64

        return base64.b64encode(_tostring(v).encode()).decode()
    if fmt == "@base64d":
        import base64

        return base64.b64decode(_tostring(v)).decode("utf-8", "replace")
    if fmt == "@uri":
        from urllib.parse import quote

        return quote(_tostring(v), safe="-_.~")
    if fmt == "@html":
        import html

        return html.escape(_tostring(v), quote=True).replace("&#x27;", "&#39;")
    if fmt in ("@csv", "@tsv"):
        if not isinstance(v, list):
            raise JqError(f"{_type(v)} ({_short(v)}) cannot be {fmt[1:]}-formatted, only an array can be")
        cells = []
        for x in v:
            if isinstance(x, str):
                cells.append('"' + x.replace('"', '""') + '"' if fmt == "@csv" else x.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n"))
            elif x is None:
                cells.append("")
            else:
                cells.append(_tostring(x))
        return ("," if fmt == "@csv" else "\t").join(cells)
    if fmt == "@sh":
        items = v if isinstance(v, list) else [v]
        return " ".join("'" + _tostring(x).replace("'", "'\\''") + "'" if isinstance(x, str) else _tostring(x) for x in items)
    raise JqError(f"{fmt} is not a valid format")


def _paths_of(node, value, env):
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
        out = []
        for p in _paths_of(node[1], value, env):
            sub = _getpath(value, p)
            out.extend(p + q for q in _paths_of(node[2], sub, env))
        return out
    if kind == "comma":
        return _paths_of(node[1], value, env) + _paths_of(node[2], value, env)
    if kind == "call" and node[1] == "select":
        return [[]] if any(_truthy(c) for c in run(node[2][0], value, env)) else []
    raise JqError("Invalid path expression")


def _getpath(v, path):
    for p in path:
        if v is None:
            return None
        v = _index(v, p)
    return v


def _setpath(v, path, new):
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(head, str):
        obj = dict(v) if isinstance(v, dict) else {}
        obj[head] = _setpath(obj.get(head), rest, new)
        return obj
    arr = list(v) if isinstance(v, list) else []
    k = int(head)
    while len(arr) <= k:
        arr.append(None)
    arr[k] = _setpath(arr[k], rest, new)
    return arr


def _delpaths(v, paths):
    for path in sorted(paths, key=lambda p: [(-x if isinstance(x, int) else 0) for x in p], reverse=False):
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


def _update(node, value, env):
    op, target, rhs = node[1], node[2], node[3]
    result = value
    for path in _paths_of(target, value, env):
        old = _getpath(value, path)
        if op == "|=":
            outs = list(run(rhs, old, env))
            new = outs[0] if outs else None
        elif op == "=":
            new = next(iter(run(rhs, value, env)), None)
        else:
            new = _arith(op[0], old, next(iter(run(rhs, value, env)), None))
        result = _setpath(result, path, new)
    return result


def _one(node, value, env):
    for v in run(node, value, env):
        return v
    raise JqError("argument produced no value")


def _call(name, args, value, env):
    n = len(args)
    if name == "empty":
        return
    if name == "not":
        yield not _truthy(value)
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
            raise JqError(f"{_type(value)} ({_short(value)}) has no keys")
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
            if _truthy(c):
                yield value
    elif name == "map":
        if not isinstance(value, (list, dict)):
            raise JqError(f"Cannot iterate over {_type(value)}")
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
            out[k if isinstance(k, str) else json.dumps(k)] = e.get("value", e.get("v", e.get("Value")))
        yield out
    elif name == "with_entries":
        entries = [{"key": k, "value": x} for k, x in value.items()]
        mapped = [r for e in entries for r in run(args[0], e, env)]
        yield {e["key"]: e.get("value") for e in mapped}
    elif name == "sort":
        yield sorted(value, key=_order)
    elif name in ("sort_by", "group_by", "unique_by", "min_by", "max_by"):
        keyed = [(list(run(args[0], x, env)), x) for x in value]
        keyed.sort(key=lambda kx: [_order(k) for k in kx[0]])
        if name == "sort_by":
            yield [x for _, x in keyed]
        elif name == "group_by":
            groups = []
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
        for x in sorted(value, key=_order):
            if not out or out[-1] != x:
                out.append(x)
        yield out
    elif name in ("min", "max"):
        yield (min(value, key=_order) if name == "min" else max(value, key=_order)) if value else None
    elif name == "add":
        acc = None
        for x in (value if isinstance(value, list) else list(value.values())):
            acc = _arith("+", acc, x)
        yield acc
    elif name == "any":
        yield any(_truthy(x) for x in value) if n == 0 else any(_truthy(r) for x in value for r in run(args[0], x, env))
    elif name == "all":
        yield all(_truthy(x) for x in value) if n == 0 else all(_truthy(r) for x in value for r in run(args[0], x, env))
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
        yield _type(value)
    elif name == "tostring":
        yield _tostring(value)
    elif name == "tonumber":
        if isinstance(value, (int, float)):
            yield value
        else:
            try:
                yield _num(float(value)) if re.search(r"[.eE]", value) else int(value)
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
        yield sep.join("" if x is None else _tostring(x) for x in value)
    elif name == "test":
        rx = _one(args[0], value, env)
        flags = _one(args[1], value, env) if n > 1 else ""
        yield re.search(rx, value, re.I if "i" in (flags or "") else 0) is not None
    elif name in ("sub", "gsub"):
        rx, rep = _one(args[0], value, env), args[1]
        flags = _one(args[2], value, env) if n > 2 else ""
        count = 0 if name == "gsub" or "g" in (flags or "") else 1

        def repl(m):
            captures = {k: v for k, v in m.groupdict().items()}
            return "".join(str(x) for x in run(rep, captures, env))

        yield re.sub(rx, repl, value, count=count, flags=re.I if "i" in (flags or "") else 0)
    elif name == "startswith":
        yield value.startswith(_one(args[0], value, env))
    elif name == "endswith":
        yield value.endswith(_one(args[0], value, env))
    elif name == "ltrimstr":
        p = _one(args[0], value, env)
        yield value[len(p):] if isinstance(value, str) and value.startswith(p) else value
    elif name == "rtrimstr":
        p = _one(args[0], value, env)
        yield value[: -len(p)] if isinstance(value, str) and p and value.endswith(p) else value
    elif name == "contains":
        yield _contains(value, _one(args[0], value, env))
    elif name == "inside":
        yield _contains(_one(args[0], value, env), value)
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
        fn = {"floor": math.floor, "ceil": math.ceil, "sqrt": math.sqrt, "fabs": abs, "round": round}[name]
        yield _num(fn(value)) if name != "sqrt" else _num(math.sqrt(value))
    elif name == "flatten":
        depth = _one(args[0], value, env) if n else 10 ** 9
        yield _flatten(value, depth)
    elif name == "tostream":
        raise JqError("tostream is not supported")
    elif name == "paths":
        yield from (p for p in _all_paths(value) if p)
    elif name == "path":
        yield from _paths_of(args[0], value, env)
    elif name == "getpath":
        yield _getpath(value, _one(args[0], value, env))
    elif name == "del":
        yield _delpaths(value, _paths_of(args[0], value, env))
    elif name == "to_number":
        yield float(value)
    elif name == "env" or name == "$ENV":
        yield {}
    elif name == "error":
        raise JqError(_tostring(_one(args[0], value, env)) if n else _tostring(value))
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
            found = [k for k in range(len(value)) if value[k:k + len(needle)] == needle] if isinstance(needle, list) else [k for k, x in enumerate(value) if x == needle]
        yield found if name == "indices" else (found[0] if name == "index" and found else found[-1] if found else None)
    elif name == "recurse":
        yield from _recurse(value) if n == 0 else _recurse_f(args[0], value, env)
    elif name == "isnan":
        yield isinstance(value, float) and math.isnan(value)
    elif name in ("nulls", "booleans", "numbers", "strings", "arrays", "objects", "iterables", "scalars"):
        t = _type(value)
        ok = {"nulls": t == "null", "booleans": t == "boolean", "numbers": t == "number", "strings": t == "string",
              "arrays": t == "array", "objects": t == "object", "iterables": t in ("array", "object"),
              "scalars": t not in ("array", "object")}[name]
        if ok:
            yield value
    elif name == "tostring":
        yield _tostring(value)
    elif name == "now":
        import time

        yield time.time()
    elif name == "debug":
        yield value
    else:
        raise JqError(f"{name}/{n} is not defined")


def _recurse_f(f, value, env):
    yield value
    for v in run(f, value, env):
        yield from _recurse_f(f, v, env)


def _all_paths(v, prefix=()):
    yield list(prefix)
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _all_paths(x, prefix + (k,))
    elif isinstance(v, list):
        for k, x in enumerate(v):
            yield from _all_paths(x, prefix + (k,))


def _flatten(v, depth):
    out = []
    for x in v:
        if isinstance(x, list) and depth > 0:
            out.extend(_flatten(x, depth - 1))
        else:
            out.append(x)
    return out


def _contains(a, b):
    if isinstance(a, dict) and isinstance(b, dict):
        return all(k in a and _contains(a[k], v) for k, v in b.items())
    if isinstance(a, list) and isinstance(b, list):
        return all(any(_contains(x, y) for x in a) for y in b)
    if isinstance(a, str) and isinstance(b, str):
        return b in a
    return a == b


def _dump(v, compact, sort_keys, raw):
    if raw and isinstance(v, str):
        return v
    if compact:
        return json.dumps(v, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)
    return json.dumps(v, ensure_ascii=False, indent=2, sort_keys=sort_keys)


def _parse_stream(text):
    dec = json.JSONDecoder()
    i, n = 0, len(text)
    out = []
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            return out
        v, i = dec.raw_decode(text, i)
        out.append(v)


def main(ctx, args):
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
            flags.add({"--raw-output": "r", "--compact-output": "c", "--null-input": "n", "--slurp": "s",
                       "--exit-status": "e", "--sort-keys": "S", "--join-output": "j", "--tab": "t"}.get(a, a))
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
    from _cove_utils import _inputs, _text

    data, status = _inputs(ctx, rest, "jq")
    if status:
        return 2
    text = "".join(_text(d) for _, d in data)
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
        return 0 if _truthy(last) else 1
    return 0

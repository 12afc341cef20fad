"""The training run of Cove's profile-guided CPython build (python-wasm/build.sh step `pgo`).

Runs in the instrumented interpreter (wasm32-wasi, under wasmtime; pgo/run.py); what it executes
is what the optimiser favours. It is the everyday Python of model-written tool calls, not the
benchmarks: loops and arithmetic, calls of every shape, generators and comprehensions,
classes, exceptions, strings and formatting, containers, the standard library modules such
code imports (json, re, collections, itertools, functools, datetime, decimal, statistics,
csv, ...), and compiling and running source text as the guest's driver does for every cell.
CPython's own PGO task (`-m test --pgo`, Lib/test/libregrtest/pgo.py) is the same idea; its
tests mostly exercise what a sandboxed interpreter cannot do (threads, processes, sockets).

Deterministic (no clock, no fresh randomness, PYTHONHASHSEED=0), so a rebuild gets the same
profile. Two seconds natively; several times that instrumented, in wasm.
"""

import bisect
import collections
import copy
import csv
import dataclasses
import datetime
import decimal
import enum
import fractions
import functools
import heapq
import io
import itertools
import json
import math
import operator
import random
import re
import statistics
import string
import struct
import textwrap
import traceback

ROUNDS = 6


def arithmetic(n):
    total, x = 0, 0.5
    for i in range(n):
        total += i * i % 7
        if i & 1:
            total -= i // 3
        x = x * 1.000001 + 0.1
    while n > 0:
        n -= 3
    return total, x, math.sqrt(abs(x)), divmod(total, 97), 2**64 // 3, abs(-total)


def calls(n):
    def f(a, b=2, *args, c=3, **kw):
        return a + b + c + len(args) + len(kw)

    def make_adder(k):
        return lambda v: v + k

    add = make_adder(5)
    part = functools.partial(f, 1, c=4)
    total = 0
    for i in range(n):
        total += f(i) + f(i, 1, 2, 3, c=1, d=2) + add(i) + part(i)
        total += max(i, 3) + min(i, 7) + len(str(i))
    return total


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


@functools.lru_cache(maxsize=None)
def fib_cached(n):
    return n if n < 2 else fib_cached(n - 1) + fib_cached(n - 2)


def iteration(n):
    squares = sum(i * i for i in range(n))
    evens = [i for i in range(n) if i % 2 == 0]
    table = {i: str(i) for i in range(n // 10)}
    unique = {i % 101 for i in range(n)}
    pairs = list(zip(range(n // 10), reversed(range(n // 10))))
    ranked = sorted(enumerate(evens[:2000]), key=lambda p: (-p[1] % 13, p[0]))
    chained = list(itertools.islice(itertools.chain(evens, unique), 500))
    groups = {k: len(list(g)) for k, g in itertools.groupby(sorted(table.values(), key=len), len)}
    mapped = list(map(operator.mul, range(1000), range(1000)))
    filtered = list(filter(None, range(-500, 500)))
    flags = any(i > n for i in evens), all(i >= 0 for i in evens)
    acc = list(itertools.accumulate(range(1000)))
    combos = sum(1 for _ in itertools.combinations(range(18), 3))
    product = sum(a * b for a, b in itertools.product(range(30), repeat=2))

    def gen(k):
        for i in range(k):
            if i % 3:
                yield i
            else:
                yield from (i, -i)

    return (
        squares,
        len(evens),
        len(table),
        len(unique),
        len(pairs),
        ranked[:3],
        chained[:3],
        groups,
        sum(mapped),
        len(filtered),
        flags,
        acc[-1],
        combos,
        product,
        sum(gen(n // 5)),
    )


class Shape:
    def __init__(self, name):
        self.name = name

    def area(self):
        raise NotImplementedError

    def __repr__(self):
        return f"{type(self).__name__}({self.name!r}, area={self.area():.2f})"

    def __lt__(self, other):
        return self.area() < other.area()


class Circle(Shape):
    def __init__(self, r):
        super().__init__("circle")
        self.r = r

    def area(self):
        return math.pi * self.r * self.r


class Rect(Shape):
    __slots__ = ("w", "h")

    def __init__(self, w, h):
        super().__init__("rect")
        self.w, self.h = w, h

    def area(self):
        return self.w * self.h

    @property
    def square(self):
        return self.w == self.h


@dataclasses.dataclass(order=True, frozen=True)
class Point:
    x: float
    y: float

    def dist(self, other):
        return math.hypot(self.x - other.x, self.y - other.y)


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3


def objects(n):
    shapes = [Circle(i % 7 + 1) if i % 2 else Rect(i % 5 + 1, i % 3 + 1) for i in range(n)]
    shapes.sort()
    points = [Point(i % 17, i % 23) for i in range(n)]
    far = max(points[i].dist(points[-i]) for i in range(1, len(points)))
    counts = collections.Counter(type(s).__name__ for s in shapes)
    squares = sum(1 for s in shapes if isinstance(s, Rect) and s.square)
    colors = [Color(i % 3 + 1).name for i in range(n)]
    tuples = collections.namedtuple("Row", "a b c")
    rows = [tuples(i, i * 2, str(i)) for i in range(n)]
    total = sum(r.b for r in rows)
    return repr(shapes[:3]), far, counts, squares, colors[:3], total, len(set(points))


def errors(n):
    caught = 0
    for i in range(n):
        try:
            if i % 3 == 0:
                raise ValueError(f"bad {i}")
            if i % 3 == 1:
                {}[i]
            int("x" if i % 5 == 0 else "7")
        except (ValueError, KeyError) as exc:
            caught += len(str(exc))
        finally:
            caught += 1
    try:
        1 / 0
    except ZeroDivisionError:
        text = traceback.format_exc()

    class Resource:
        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    for _ in range(n):
        with Resource():
            caught += 1
    return caught, len(text)


def strings(n):
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
    out = []
    for i in range(n):
        w = words[i % len(words)]
        out.append(f"{i:05d} {w.upper():>10} {i / 7:.3f} {w!r} {i:x}")
        out.append("%s-%d-%.2f" % (w, i, i / 3))
        out.append("{}:{}".format(w, i))
    text = "\n".join(out)
    lines = text.splitlines()
    fields = [line.split() for line in lines[:5000]]
    replaced = text.replace("alpha", "ALPHA").count("ALPHA")
    stripped = [s.strip().lower().title() for s in lines[:5000]]
    found = sum(1 for s in lines if s.startswith("0") and "gamma" in s)
    encoded = text.encode("utf-8")
    decoded = encoded.decode("utf-8")
    wrapped = textwrap.fill(" ".join(words * 40), width=60)
    template = string.Template("$who likes $what").substitute(who="model", what="tools")
    joined = "".join(reversed(text[:10000]))
    return (
        len(fields),
        replaced,
        len(stripped),
        found,
        len(decoded),
        len(wrapped),
        template,
        joined[:5],
        text.find("theta"),
        text.rpartition(" ")[2],
        bytes(range(256)).hex()[:8],
    )


def containers(n):
    d = {}
    for i in range(n):
        key = f"k{i % 500}"
        d[key] = d.get(key, 0) + i
        d.setdefault(f"s{i % 50}", 0)
    dd = collections.defaultdict(list)
    for i in range(n):
        dd[i % 37].append(i)
    q = collections.deque(maxlen=100)
    for i in range(n):
        q.append(i)
        if i % 3 == 0:
            q.popleft()
    heap = []
    for i in range(n):
        heapq.heappush(heap, (i * 7919) % 1000)
    smallest = [heapq.heappop(heap) for _ in range(50)]
    ordered = sorted(d.items(), key=operator.itemgetter(1), reverse=True)[:10]
    positions = [bisect.bisect_left(smallest, v) for v in range(0, 1000, 7)]
    merged = {**d, **{"extra": 1}}
    nested = copy.deepcopy({"a": [1, 2, {"b": (3, 4)}], "c": list(range(100))})
    lst = list(range(n))
    lst.reverse()
    lst.insert(0, -1)
    del lst[10:20]
    return (
        len(d),
        sum(len(v) for v in dd.values()),
        len(q),
        smallest[:5],
        ordered[:2],
        sum(positions),
        len(merged),
        nested["a"][2],
        lst[:3],
        lst.index(500),
    )


def data(n):
    docs = [
        {
            "id": i,
            "name": f"item {i}",
            "tags": ["a", "b"][: i % 3],
            "price": i / 4,
            "ok": i % 2 == 0,
            "meta": None if i % 5 else {"x": i},
        }
        for i in range(n)
    ]
    text = json.dumps(docs)
    back = json.loads(text)
    pretty = json.dumps(back[:50], indent=2, sort_keys=True)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["id", "name", "price"], extrasaction="ignore")
    writer.writeheader()
    writer.writerows(back)
    rows = list(csv.DictReader(io.StringIO(buf.getvalue())))
    prices = [float(r["price"]) for r in rows]
    stats = (statistics.mean(prices), statistics.median(prices), statistics.pstdev(prices[:2000]))
    packed = [struct.pack("<iid", i, i * 2, i / 3) for i in range(1000)]
    unpacked = sum(struct.unpack("<iid", p)[1] for p in packed)
    return len(text), len(back), len(pretty), len(rows), stats, unpacked


def regex(n):
    text = (
        "lorem ipsum 12345 dolor sit amet, mail ana@example.org now. 2024-01-05 "
        "price $19.99 (id=A-77) "
    ) * (n // 80)
    patterns = [
        re.compile(r"[\w.]+@[\w.]+"),
        re.compile(r"\d{4}-\d{2}-\d{2}"),
        re.compile(r"\$(\d+)\.(\d+)"),
        re.compile(r"\b[a-z]{5}\b"),
        re.compile(r"id=([A-Z])-(\d+)"),
    ]
    found = [len(p.findall(text)) for p in patterns]
    subbed = re.sub(r"\s+", " ", text)
    split = re.split(r"[,.]", text[:20000])
    matched = sum(1 for w in text[:20000].split() if re.match(r"^[a-z]+$", w))
    groups = [m.groupdict() for m in re.finditer(r"(?P<y>\d{4})-(?P<m>\d\d)", text[:20000])]
    return found, len(subbed), len(split), matched, len(groups)


def numbers(n):
    getcontext = decimal.getcontext()
    getcontext.prec = 30
    d = sum(decimal.Decimal(i) / decimal.Decimal(7) for i in range(n // 10))
    f = sum(fractions.Fraction(1, i) for i in range(1, 200))
    rng = random.Random(1234)
    samples = [rng.random() for _ in range(n)]
    picks = [rng.choice("abcdef") for _ in range(1000)]
    rng.shuffle(samples)
    ints = [rng.randint(0, 10**6) for _ in range(1000)]
    floats = sum(math.sin(x) * math.exp(-x) + math.log1p(x) for x in samples[:20000])
    big = math.factorial(400) % 10**9 + pow(3, 10**4, 10**9 + 7)
    fmt = [format(x, ".3e") for x in samples[:2000]] + [str(round(x, 4)) for x in samples[:2000]]
    return str(d)[:10], f.numerator % 1000, floats, big, len(fmt), sorted(ints)[:3], picks[:3]


def dates(n):
    start = datetime.datetime(2024, 1, 1, 8, 30)
    stamps = [start + datetime.timedelta(hours=i * 7, minutes=i) for i in range(n)]
    text = [s.isoformat() for s in stamps]
    parsed = [datetime.datetime.fromisoformat(t) for t in text]
    formatted = [p.strftime("%Y-%m-%d %H:%M %a") for p in parsed[:3000]]
    weekdays = collections.Counter(p.weekday() for p in parsed)
    spans = [(b - a).total_seconds() for a, b in zip(parsed, parsed[1:])]
    days = {d.date() for d in parsed}
    return formatted[:2], weekdays.most_common(2), sum(spans), len(days)


CELL = """
import math
values = [math.sqrt(i) for i in range(200)]
total = sum(values)
def helper(x, y=2):
    return x ** y
result = {k: helper(k) for k in range(50)}
class Box:
    def __init__(self, v): self.v = v
boxes = sorted((Box(i % 9) for i in range(100)), key=lambda b: b.v)
print(f"{total:.3f}", len(result), boxes[0].v)
"""


def cells(n):
    out = io.StringIO()
    namespace = {"__name__": "__main__", "print": lambda *a, **k: print(*a, **k, file=out)}
    for i in range(n):
        code = compile(CELL + f"\nstep = {i}\n", f"<cell-{i}>", "exec")
        exec(code, namespace)
        try:
            exec(compile("undefined_name + 1", "<cell-err>", "exec"), namespace)
        except NameError:
            traceback.format_exc()
    return len(out.getvalue()), namespace["step"]


def main():
    results = []
    for _ in range(ROUNDS):
        results.append(arithmetic(300_000))
        results.append(calls(40_000))
        results.append(fib(20))
        fib_cached.cache_clear()
        results.append(fib_cached(120))
        results.append(iteration(60_000))
        results.append(objects(5_000))
        results.append(errors(10_000))
        results.append(strings(8_000))
        results.append(containers(30_000))
        results.append(data(8_000))
        results.append(regex(200_000))
        results.append(numbers(20_000))
        results.append(dates(5_000))
        results.append(cells(150))
    print(len(results), "training results;", sum(len(repr(r)) for r in results), "chars")


if __name__ == "__main__":
    main()

"""awk, the common core: patterns and ranges, BEGIN/END, fields and
NR/NF/FS/OFS, arithmetic and string functions, associative arrays, printf, user functions.
Anything outside it is a clear syntax error.

Over 500 lines because the evaluator is one recursive walk over the parser's tree, with the
builtin functions it dispatches to beside it.
"""

import math
import random
import re
from collections.abc import Iterable
from typing import IO, Any, Protocol, cast

from cove_guest.commands.awk.errors import (
    AwkError,
    AwkExit,
    FunctionReturn,
    LoopBreak,
    LoopContinue,
    NextRecord,
)
from cove_guest.commands.awk.parser import Node, Parser
from cove_guest.text.patterns import ere_to_re


def _num(v: Any) -> float:
    if isinstance(v, float):
        return v
    if isinstance(v, int):
        return float(v)
    m = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", v)
    return float(m.group(0)) if m else 0.0


def _looks_numeric(s: str) -> bool:
    return bool(re.fullmatch(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*", s))


class _Writer(Protocol):
    """Where the interpreter's output goes: anything with `write(text)`."""

    def write(self, s: str, /) -> object: ...


class StrNum(str):
    """A field or input value: compares as a number when it looks like one."""


def _fmt_num(v: float, ofmt: str = "%.6g") -> str:
    if not math.isfinite(v):
        return ("-" if math.copysign(1.0, v) < 0 else "") + ("nan" if math.isnan(v) else "inf")
    if v == int(v) and abs(v) < 1e16:
        return str(int(v))
    return ofmt % v


class Interp:
    def __init__(
        self,
        items: list[Node],
        funcs: dict[str, Node],
        out: _Writer,
        err: _Writer,
        assigns: Iterable[tuple[str, str]],
    ) -> None:
        self.items, self.funcs = items, funcs
        self.out, self.err = out, err
        self.vars: dict[str, Any] = {  # awk values: str, float, and ENVIRON's dict
            "FS": " ",
            "OFS": " ",
            "ORS": "\n",
            "RS": "\n",
            "NR": 0.0,
            "NF": 0.0,
            "FNR": 0.0,
            "SUBSEP": "\x1c",
            "OFMT": "%.6g",
            "CONVFMT": "%.6g",
            "RSTART": 0.0,
            "RLENGTH": -1.0,
            "FILENAME": "",
            "ENVIRON": {},
        }
        self.arrays: dict[str, dict[str, Any]] = {}
        self.fields: list[str] = [""]
        self.ranges: dict[int, bool] = {}
        self.files: dict[str, IO[str]] = {}
        self.locals: list[dict[str, Any]] = []
        for name, value in assigns:
            self.vars[name] = StrNum(value) if _looks_numeric(value) else value

    def str_(self, v: Any) -> Any:
        if isinstance(v, float):
            return _fmt_num(v, self.vars["CONVFMT"])
        return v

    def out_str(self, v: Any) -> Any:
        if isinstance(v, float):
            return _fmt_num(v, self.vars["OFMT"])
        return v

    def set_record(self, line: str) -> None:
        self.fields = [line, *self.split_fields(line)]
        self.vars["NF"] = float(len(self.fields) - 1)

    def split_fields(self, line: str, fs: Any = None) -> list[StrNum]:
        fs = self.vars["FS"] if fs is None else fs
        fs = self.str_(fs)
        if fs == " ":
            return [StrNum(x) for x in line.split()]
        if len(fs) == 1 and fs != "\\":
            return [StrNum(x) for x in line.split(fs)] if line else []
        if fs == "\t":
            return [StrNum(x) for x in line.split("\t")] if line else []
        return [StrNum(x) for x in re.split(fs, line)] if line else []

    def get_field(self, k: Any) -> str:
        k = int(_num(k))
        if k < 0:
            raise AwkError(f"trying to access out of range field {k}")
        return self.fields[k] if k < len(self.fields) else StrNum("")

    def set_field(self, k: Any, value: Any) -> None:
        k = int(_num(k))
        value = self.str_(value)
        if k == 0:
            self.set_record(value)
            return
        while len(self.fields) <= k:
            self.fields.append(StrNum(""))
        self.fields[k] = value
        self.vars["NF"] = float(len(self.fields) - 1)
        self.fields[0] = self.str_(self.vars["OFS"]).join(self.str_(f) for f in self.fields[1:])

    def var(self, name: str) -> Any:
        for frame in reversed(self.locals):
            if name in frame:
                return frame[name]
        if name == "NF":
            return float(len(self.fields) - 1)
        return self.vars.get(name, "")

    def setvar(self, name: str, value: Any) -> None:
        for frame in reversed(self.locals):
            if name in frame:
                frame[name] = value
                return
        if name == "NF":
            n = int(_num(value))
            self.fields = (self.fields + [StrNum("")] * n)[: n + 1]
            self.fields[0] = self.str_(self.vars["OFS"]).join(self.str_(f) for f in self.fields[1:])
        self.vars[name] = value

    def array(self, name: str) -> Any:
        for frame in reversed(self.locals):
            if name in frame:
                if not isinstance(frame[name], dict):
                    frame[name] = {}
                return frame[name]
        if name == "ENVIRON":
            return self.vars["ENVIRON"]
        return self.arrays.setdefault(name, {})

    def key(self, keys: list[Node]) -> Any:
        return self.str_(self.vars["SUBSEP"]).join(self.str_(self.eval(k)) for k in keys)

    def run(self, inputs: Iterable[tuple[str, str]]) -> int:
        status = 0
        try:
            for kind, _, body in self.items:
                if kind == "BEGIN":
                    self.exec_block(body)
            if any(kind == "main" for kind, _, _ in self.items) or any(
                kind == "END" for kind, _, _ in self.items
            ):
                for name, text in inputs:
                    self.vars["FILENAME"] = name
                    self.vars["FNR"] = 0.0
                    rs = self.str_(self.vars["RS"])
                    if rs == "\n":
                        records = text.split("\n")
                        if records and records[-1] == "":
                            records.pop()
                    elif rs == "":
                        records = [r for r in re.split(r"\n\n+", text.strip("\n")) if r]
                    else:
                        records = text.split(rs)
                        if records and records[-1] in ("", "\n"):
                            records.pop()
                    for rec in records:
                        self.vars["NR"] += 1
                        self.vars["FNR"] += 1
                        self.set_record(rec)
                        try:
                            for idx, (kind, pattern, body) in enumerate(self.items):
                                if kind != "main":
                                    continue
                                if self.matches(idx, pattern):
                                    self.exec_block(body)
                        except NextRecord:
                            continue
        except AwkExit as e:
            status = e.code
        try:
            for kind, _, body in self.items:
                if kind == "END":
                    self.exec_block(body)
        except AwkExit as e:
            status = e.code
        for f in self.files.values():
            f.close()
        return status

    def matches(self, idx: int, pattern: Node | None) -> bool:
        if pattern is None:
            return True
        if pattern[0] == "range":
            active = self.ranges.get(idx, False)
            if not active:
                if self.truth(self.eval(pattern[1])):
                    if not self.truth(self.eval(pattern[2])):
                        self.ranges[idx] = True
                    return True
                return False
            if self.truth(self.eval(pattern[2])):
                self.ranges[idx] = False
            return True
        return self.truth(self.eval(pattern))

    def truth(self, v: Any) -> bool:
        if isinstance(v, float):
            return v != 0
        if isinstance(v, StrNum) and _looks_numeric(v):
            return _num(v) != 0
        return v != ""

    def exec_block(self, stmts: list[Node]) -> None:
        for s in stmts:
            self.exec(s)

    def exec(self, s: Node) -> None:
        kind = s[0]
        if kind == "expr":
            self.eval(s[1])
        elif kind in ("print", "printf"):
            args = s[1]
            if kind == "print":
                text = (
                    self.str_(self.vars["OFS"]).join(self.out_str(self.eval(a)) for a in args)
                    if args
                    else self.fields[0]
                )
                text += self.str_(self.vars["ORS"])
            else:
                if not args:
                    raise AwkError("printf: no format")
                values = [self.eval(a) for a in args]
                text = self.sprintf(self.str_(values[0]), values[1:])
            self.emit(text, s[2])
        elif kind == "block":
            self.exec_block(s[1])
        elif kind == "if":
            if self.truth(self.eval(s[1])):
                self.exec_block(s[2])
            elif s[3] is not None:
                self.exec_block(s[3])
        elif kind == "while":
            while self.truth(self.eval(s[1])):
                try:
                    self.exec_block(s[2])
                except LoopBreak:
                    break
                except LoopContinue:
                    continue
        elif kind == "do":
            while True:
                try:
                    self.exec_block(s[1])
                except LoopBreak:
                    break
                except LoopContinue:
                    pass
                if not self.truth(self.eval(s[2])):
                    break
        elif kind == "for":
            if s[1] is not None:
                self.eval(s[1])
            while s[2] is None or self.truth(self.eval(s[2])):
                try:
                    self.exec_block(s[4])
                except LoopBreak:
                    break
                except LoopContinue:
                    pass
                if s[3] is not None:
                    self.eval(s[3])
        elif kind == "forin":
            arr = self.array(s[2])
            for k in list(arr.keys()):
                self.setvar(s[1], StrNum(k) if _looks_numeric(k) else k)
                try:
                    self.exec_block(s[3])
                except LoopBreak:
                    break
                except LoopContinue:
                    continue
        elif kind == "next" or kind == "nextfile":
            raise NextRecord()
        elif kind == "exit":
            raise AwkExit(int(_num(self.eval(s[1]))) if s[1] is not None else 0)
        elif kind == "break":
            raise LoopBreak()
        elif kind == "continue":
            raise LoopContinue()
        elif kind == "return":
            raise FunctionReturn(self.eval(s[1]) if s[1] is not None else "")
        elif kind == "delete":
            arr = self.array(s[1])
            if s[2] is None:
                arr.clear()
            else:
                arr.pop(self.key(s[2]), None)
        else:
            raise AwkError(f"unsupported statement {kind}")

    def emit(self, text: str, dest: Node | None) -> None:
        if dest is None:
            self.out.write(text)
            return
        mode, target = dest
        name = self.str_(self.eval(target))
        if mode == "|":
            raise AwkError("output to a command is not supported")
        if name == "/dev/stderr":
            self.err.write(text)
            return
        if name == "/dev/stdout":
            self.out.write(text)
            return
        f = self.files.get(name)
        if f is None:
            # Kept open across records, as awk does; closed by close() or at the end of the run.
            mode = "a" if mode == ">>" else "w"
            f = open(name, mode, encoding="utf-8", errors="surrogateescape")  # noqa: SIM115
            self.files[name] = f
        f.write(text)

    def sprintf(self, fmt: str, values: Iterable[Any]) -> str:
        out = []
        i = 0
        vals = list(values)
        for m in re.finditer(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?([diouxXeEfFgGcs%])", fmt):
            out.append(fmt[i : m.start()])
            i = m.end()
            flags, width, prec, conv = m.groups()
            if conv == "%":
                out.append("%")
                continue
            if width == "*":
                width = str(int(_num(vals.pop(0) if vals else 0.0)))
            if prec == "*":
                prec = str(int(_num(vals.pop(0) if vals else 0.0)))
            v = vals.pop(0) if vals else ""
            spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
            if conv in "diouxX" and not math.isfinite(_num(v)):
                out.append((spec.replace("0", "") + "s") % _fmt_num(_num(v)))
            elif conv in "diouxX":
                out.append((spec + ("d" if conv in "diu" else conv)) % int(_num(v)))
            elif conv in "eEfFgG":
                out.append((spec + conv) % _num(v))
            elif conv == "c":
                out.append(
                    (spec + "s") % (chr(int(v)) if isinstance(v, float) else self.str_(v)[:1])
                )
            else:
                out.append(
                    (spec + "s") % self.str_(v)
                    if isinstance(v, str)
                    else (spec + "s") % self.out_str(v)
                )
        out.append(fmt[i:])
        return "".join(out).replace("\\n", "\n")

    def regex(self, node: Node) -> Any:
        if node[0] == "regex":
            return node[1]
        return self.str_(self.eval(node))

    def eval(self, e: Node) -> Any:
        kind = e[0]
        if kind == "const":
            return e[1]
        if kind == "var":
            return self.var(e[1])
        if kind == "field":
            return self.get_field(self.eval(e[1]))
        if kind == "index":
            return self.array(e[1]).get(self.key(e[2]), "")
        if kind == "group":
            return self.eval(e[1])
        if kind == "regex":
            return 1.0 if re.search(ere_to_re(e[1]), self.fields[0]) else 0.0
        if kind == "concat":
            return self.str_(self.eval(e[1])) + self.str_(self.eval(e[2]))
        if kind == "bin":
            return _arith(e[1], _num(self.eval(e[2])), _num(self.eval(e[3])))
        if kind == "neg":
            return -_num(self.eval(e[1]))
        if kind == "num":
            return _num(self.eval(e[1]))
        if kind == "not":
            return 0.0 if self.truth(self.eval(e[1])) else 1.0
        if kind == "&&":
            return 1.0 if self.truth(self.eval(e[1])) and self.truth(self.eval(e[2])) else 0.0
        if kind == "||":
            return 1.0 if self.truth(self.eval(e[1])) or self.truth(self.eval(e[2])) else 0.0
        if kind == "?:":
            return self.eval(e[2]) if self.truth(self.eval(e[1])) else self.eval(e[3])
        if kind in ("~", "!~"):
            hit = re.search(ere_to_re(self.regex(e[2])), self.str_(self.eval(e[1]))) is not None
            return 1.0 if hit == (kind == "~") else 0.0
        if kind == "in":
            key = self.key(e[1][1]) if e[1][0] == "multikey" else self.str_(self.eval(e[1]))
            return 1.0 if key in self.array(e[2]) else 0.0
        if kind == "cmp":
            a, b = self.eval(e[2]), self.eval(e[3])
            if self._numeric(a) and self._numeric(b):
                x, y = _num(a), _num(b)
            else:
                x, y = self.str_(a), self.str_(b)
            op = e[1]
            return (
                1.0
                if {"<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y, "==": x == y, "!=": x != y}[
                    op
                ]
                else 0.0
            )
        if kind == "assign":
            op, target, value = e[1], e[2], self.eval(e[3])
            if op != "=":
                cur = _num(self.eval(target))
                v = _num(value)
                value = _arith(op[:-1], cur, v)
            self.store(target, value)
            return value
        if kind in ("preinc", "postinc"):
            target = e[2]
            cur = _num(self.eval(target))
            new = cur + (1 if e[1] == "++" else -1)
            self.store(target, new)
            return new if kind == "preinc" else cur
        if kind == "call":
            return self.builtin(e[1], e[2])
        if kind == "ucall":
            return self.user_call(e[1], e[2])
        raise AwkError(f"cannot evaluate {kind}")

    def _numeric(self, v: Any) -> bool:
        return isinstance(v, float) or (isinstance(v, StrNum) and _looks_numeric(v))

    def store(self, target: Node, value: Any) -> None:
        if target[0] == "var":
            self.setvar(target[1], value)
        elif target[0] == "field":
            self.set_field(self.eval(target[1]), value)
        elif target[0] == "index":
            self.array(target[1])[self.key(target[2])] = value
        else:
            raise AwkError("assignment to a non-variable")

    def user_call(self, name: str, args: list[Node]) -> Any:
        if name not in self.funcs:
            raise AwkError(f"calling undefined function {name}")
        params, body = self.funcs[name]
        frame: dict[str, Any] = {}
        for k, p in enumerate(params):
            if k < len(args):
                a = args[k]
                if a[0] == "var" and (
                    a[1] in self.arrays or any(isinstance(f.get(a[1]), dict) for f in self.locals)
                ):
                    frame[p] = self.array(a[1])
                else:
                    frame[p] = self.eval(a)
            else:
                frame[p] = ""
        self.locals.append(frame)
        try:
            self.exec_block(body)
        except FunctionReturn as r:
            return r.value
        finally:
            self.locals.pop()
        return ""

    def builtin(self, name: str, args: list[Node]) -> Any:
        # None only for split, sub, gsub and match, which evaluate their own arguments.
        ev = cast(
            "list[Any]",
            [self.eval(a) for a in args] if name not in ("split", "sub", "gsub", "match") else None,
        )
        if name == "length":
            if not args:
                return float(len(self.fields[0]))
            if args[0][0] == "var" and (args[0][1] in self.arrays):
                return float(len(self.arrays[args[0][1]]))
            return float(len(self.str_(ev[0])))
        if name == "substr":
            s = self.str_(ev[0])
            start = _num(ev[1])
            length = _num(ev[2]) if len(ev) > 2 else float("inf")
            a = round(start)
            end = a + (round(length) if length != float("inf") else len(s) + 1)
            a = max(a, 1)
            return s[a - 1 : max(end - 1, a - 1)]
        if name == "index":
            return float(self.str_(ev[0]).find(self.str_(ev[1])) + 1)
        if name == "split":
            s = self.str_(self.eval(args[0]))
            arr = self.array(args[1][1])
            arr.clear()
            if len(args) > 2:
                sep = self.regex(args[2])
                parts = self.split_fields(s, sep)
            else:
                parts = self.split_fields(s)
            for k, p in enumerate(parts, 1):
                arr[str(k)] = p
            return float(len(parts))
        if name in ("sub", "gsub"):
            rx = ere_to_re(self.regex(args[0]))
            rep = self.str_(self.eval(args[1]))
            target = args[2] if len(args) > 2 else ("field", ("const", 0.0))
            s = self.str_(self.eval(target))
            pyrep = lambda m: rep.replace("\\&", "\0").replace("&", m.group(0)).replace("\0", "&")  # noqa: E731
            new, n = re.subn(rx, pyrep, s, count=0 if name == "gsub" else 1)
            if n:
                self.store(target, new)
            return float(n)
        if name == "match":
            s = self.str_(self.eval(args[0]))
            m = re.search(ere_to_re(self.regex(args[1])), s)
            self.vars["RSTART"] = float(m.start() + 1) if m else 0.0
            self.vars["RLENGTH"] = float(len(m.group(0))) if m else -1.0
            return self.vars["RSTART"]
        if name == "sprintf":
            return self.sprintf(self.str_(ev[0]), ev[1:])
        if name == "tolower":
            return self.str_(ev[0]).lower()
        if name == "toupper":
            return self.str_(ev[0]).upper()
        if name == "int":
            x = _num(ev[0])
            return float(math.trunc(x)) if math.isfinite(x) else x
        if name == "sqrt":
            x = _num(ev[0])
            return math.sqrt(x) if x >= 0 else -math.nan
        if name == "exp":
            x = _num(ev[0])
            return math.exp(x) if x < 709.78 else math.inf
        if name == "log":
            x = _num(ev[0])
            return math.log(x) if x > 0 else -math.inf if x == 0 else -math.nan
        if name == "sin":
            return math.sin(_num(ev[0]))
        if name == "cos":
            return math.cos(_num(ev[0]))
        if name == "atan2":
            return math.atan2(_num(ev[0]), _num(ev[1]))
        if name == "rand":
            return random.random()
        if name == "srand":
            random.seed(_num(ev[0]) if ev else None)
            return 0.0
        if name in ("close", "fflush"):
            return 0.0
        raise AwkError(f"function {name} is not supported")


def _arith(op: str, a: float, b: float) -> float:
    """One binary arithmetic operator on two awk numbers (floats); overflow gives inf, as in C."""
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    if op == "/":
        if b == 0:
            raise AwkError("division by zero")
        return a / b
    if op == "%":
        if b == 0:
            raise AwkError("division by zero in %")
        return math.fmod(a, b)
    try:
        r = a**b
        return math.nan if isinstance(r, complex) else r
    except OverflowError:
        return math.inf if a > 0 or (float(b).is_integer() and b % 2 == 0) else -math.inf
    except ZeroDivisionError:
        return math.inf


def run(
    program: str,
    inputs: Iterable[tuple[str, str]],
    out: _Writer,
    err: _Writer,
    field_sep: str | None = None,
    assigns: Iterable[tuple[str, str]] = (),
) -> int:
    """Run an awk program over [(name, text)]; returns the exit status."""
    items, funcs = Parser(program).program()
    interp = Interp(items, funcs, out, err, assigns)
    if field_sep is not None:
        interp.vars["FS"] = "\t" if field_sep == "t" else field_sep
    return interp.run(inputs)

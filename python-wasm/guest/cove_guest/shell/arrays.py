"""Bash's arrays: indexed (`a=(x y)`, sparse) and associative (`declare -A m`).

A shell variable's value is a `str` or one of these. An associative array lists its keys in
bash's own order (bash 5.2 keeps them in a hash table of FNV-1 hashes, walked bucket by bucket,
each bucket newest first), so `for k in "${!m[@]}"` prints what bash prints.
"""

from __future__ import annotations


class IndexedArray:
    """Sparse: index -> value, listed by index."""

    __slots__ = ("items",)

    def __init__(self, values: list[str] | None = None) -> None:
        self.items: dict[int, str] = dict(enumerate(values or []))

    def copy(self) -> IndexedArray:
        new = IndexedArray()
        new.items = dict(self.items)
        return new

    def keys(self) -> list[str]:
        return [str(k) for k in sorted(self.items)]

    def values(self) -> list[str]:
        return [self.items[k] for k in sorted(self.items)]

    def next_index(self) -> int:
        return max(self.items) + 1 if self.items else 0

    def resolve(self, index: int) -> int | None:
        """A subscript as bash reads it: negative counts back from past the highest index."""
        if index < 0:
            index += self.next_index()
            if index < 0:
                return None
        return index

    def get(self, index: int) -> str | None:
        at = self.resolve(index)
        return None if at is None else self.items.get(at)

    def set(self, index: int, value: str) -> bool:
        at = self.resolve(index)
        if at is None:
            return False
        self.items[at] = value
        return True

    def unset(self, index: int) -> None:
        at = self.resolve(index)
        if at is not None:
            self.items.pop(at, None)

    def append(self, values: list[str]) -> None:
        start = self.next_index()
        for k, value in enumerate(values):
            self.items[start + k] = value

    def __len__(self) -> int:
        return len(self.items)


def _fnv1(key: str) -> int:
    h = 2166136261
    for byte in key.encode("utf-8", "surrogateescape"):
        h = (h * 16777619) & 0xFFFFFFFF
        h ^= byte
    return h


class AssocArray:
    """Key -> value, listed in bash's hash-table order."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: dict[str, str] = {}  # in insertion order (a re-set key keeps its place)

    def copy(self) -> AssocArray:
        new = AssocArray()
        new.items = dict(self.items)
        return new

    def keys(self) -> list[str]:
        buckets = 1024
        while len(self.items) >= buckets * 2:  # bash's hash tables grow 4x at 2 per bucket
            buckets *= 4
        table: dict[int, list[str]] = {}
        for key in self.items:
            table.setdefault(_fnv1(key) & (buckets - 1), []).insert(0, key)
        return [key for bucket in sorted(table) for key in table[bucket]]

    def values(self) -> list[str]:
        return [self.items[k] for k in self.keys()]

    def get(self, key: str) -> str | None:
        return self.items.get(key)

    def set(self, key: str, value: str) -> None:
        self.items[key] = value

    def unset(self, key: str) -> None:
        self.items.pop(key, None)

    def __len__(self) -> int:
        return len(self.items)


Array = IndexedArray | AssocArray
Value = str | IndexedArray | AssocArray  # what a shell variable holds


class Compound(str):
    """A declaration builtin's `name=(...)` argument, unexpanded (`declare -A m=([k]=v)`): the
    builtin assigns it with `Shell.assign_compound`, which expands its words as bash does."""

    __slots__ = ()

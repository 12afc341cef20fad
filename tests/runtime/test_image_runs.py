"""Runs of pages (`cove._image`): what a fork into a spare puts back is exactly the pages the
spare changed and the source did not."""

from __future__ import annotations

import random

from cove._image import subtract_runs


def _pages(runs: list[tuple[int, int]]) -> set[int]:
    return {page for first, count in runs for page in range(first, first + count)}


def _runs(pages: set[int]) -> list[tuple[int, int]]:
    runs: list[tuple[int, int]] = []
    for page in sorted(pages):
        if runs and runs[-1][0] + runs[-1][1] == page:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((page, 1))
    return runs


def test_subtract_runs_edges() -> None:
    assert subtract_runs([], [(0, 5)]) == []
    assert subtract_runs([(0, 5)], []) == [(0, 5)]
    assert subtract_runs([(0, 10)], [(2, 3), (7, 1)]) == [(0, 2), (5, 2), (8, 2)]
    assert subtract_runs([(0, 3), (5, 3)], [(2, 4)]) == [(0, 2), (6, 2)]
    assert subtract_runs([(4, 2)], [(0, 4), (6, 4)]) == [(4, 2)]  # touching, not overlapping
    assert subtract_runs([(4, 2)], [(0, 10)]) == []


def test_subtract_runs_is_the_set_difference() -> None:
    rng = random.Random(1)
    for _ in range(5000):
        a = _runs({rng.randrange(80) for _ in range(rng.randrange(50))})
        b = _runs({rng.randrange(80) for _ in range(rng.randrange(50))})
        assert subtract_runs(a, b) == _runs(_pages(a) - _pages(b)), (a, b)

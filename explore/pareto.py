"""The Pareto front of points to minimize on every axis (here: cost,
proven error, table bytes).  A point is on the front when no other point is
at least as good on every axis and strictly better on one; equal points do
not dominate each other, so ties are all on the front."""
from __future__ import annotations

from typing import Sequence

Point = Sequence[float]


def dominates(q: Point, p: Point) -> bool:
    """q is at least as good as p everywhere and strictly better somewhere."""
    return all(a <= b for a, b in zip(q, p)) and any(a < b for a, b in zip(q, p))


def on_front(points: list[Point]) -> list[bool]:
    """For each point, whether it is on the front."""
    return [not any(dominates(q, p) for j, q in enumerate(points) if j != i) for i, p in enumerate(points)]

"""The cheap approximation-error estimate: the minimax error of a
degree-d polynomial for exp(-x) on a segment [a, b], from the generator's
own Remez (gen/fit/remez.py, real coefficients, absolute error), cached on
disk by content (explore/cache.py).  The key holds the segment ends, the
degree, the precision and the SHA-256 of gen/fit/remez.py, so a change of
the algorithm misses the cache.

In one_minus form the polynomial fits 1 - exp(-x), whose error against the
same polynomial space is the same; in head form it fits the rest after the
exact Taylor terms, with the same number of free coefficients, so the
estimate is a proxy there (the rendered kernel's proven bound decides)."""
from __future__ import annotations

import hashlib
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Iterable

import mpmath

from gen.errors import GenError
from gen.fit import remez
from . import cache

# An estimate needs a few digits, not the generator's 1e-12: the levelled
# error then lies within 1e-6 (relative) of the minimax error (de la Vallee
# Poussin).  Narrow segments at high degree have errors near 10^-45, which
# 50 digits may not resolve: those are retried at RETRY_DPS.
DPS = 50
RETRY_DPS = 100
TOLERANCE = 1e-6
MAX_ITERATIONS = 60
REMEZ_SOURCE = Path(remez.__file__)

Segment = tuple[float, float]


def remez_fingerprint() -> str:
    """SHA-256 of the Remez implementation the estimates come from."""
    return hashlib.sha256(REMEZ_SOURCE.read_bytes()).hexdigest()


def inputs(seg: Segment, degree: int) -> dict[str, Any]:
    """Everything an estimate depends on (the cache key)."""
    return {"kind": "remez_abs_error", "function": "exp(-x)", "a": repr(seg[0]), "b": repr(seg[1]),
            "degree": degree, "dps": [DPS, RETRY_DPS], "tolerance": TOLERANCE, "max_iterations": MAX_ITERATIONS,
            "remez_sha256": remez_fingerprint()}


def remez_error(seg: Segment, degree: int) -> float:
    """Minimax absolute error of degree `degree` for exp(-x) on seg."""
    try:
        return _remez_error(seg, degree, DPS)
    except GenError:
        return _remez_error(seg, degree, RETRY_DPS)


def _remez_error(seg: Segment, degree: int, dps: int) -> float:
    with mpmath.workdps(dps):
        a, b = mpmath.mpf(seg[0]), mpmath.mpf(seg[1])
        result = remez.remez(lambda v: mpmath.exp(-(a + v)), b - a, degree, False, TOLERANCE,
                             MAX_ITERATIONS, f"estimate [{seg[0]}, {seg[1]}] degree {degree}")
        return float(result.error)


def _one(job: tuple[Path, Segment, int]) -> tuple[float, bool]:
    folder, seg, degree = job
    result, hit = cache.cached(folder, inputs(seg, degree), lambda: {"error": remez_error(seg, degree)})
    return float(result["error"]), hit


def estimate_all(folder: Path, jobs: Iterable[tuple[Segment, int]], workers: int = 2
                 ) -> tuple[dict[tuple[Segment, int], float], int]:
    """The estimate of every (segment, degree), `workers` processes at a
    time; and how many came from the cache."""
    todo = sorted(set(jobs))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_one, [(folder, seg, d) for seg, d in todo]))
    return {job: err for job, (err, _) in zip(todo, results)}, sum(hit for _, hit in results)

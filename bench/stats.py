"""Order statistics for the benchmark: percentiles and P5-P95 filtering."""
from __future__ import annotations

import math
from dataclasses import dataclass


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0 <= p <= 100) by linear interpolation between
    the two nearest order statistics (the usual "type 7" definition)."""
    if not values:
        raise ValueError("percentile of an empty list")
    if not 0.0 <= p <= 100.0:
        raise ValueError(f"percentile {p} outside [0, 100]")
    s = sorted(values)
    pos = (len(s) - 1) * p / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


@dataclass(frozen=True)
class Summary:
    median: float  # median of the samples kept
    p5: float      # lower bound of the kept range
    p95: float     # upper bound of the kept range
    kept: int      # samples inside [p5, p95]
    total: int     # samples before filtering


def filtered_summary(values: list[float]) -> Summary:
    """P5-P95 filtering: drop the samples below the 5th and above the 95th
    percentile (interrupts, migrations, frequency changes land there), then
    take the median of what is left.  With very few samples (two, say) the
    interpolated P5 and P95 can leave nothing between them; the median of
    all samples is then the only honest figure."""
    p5, p95 = percentile(values, 5.0), percentile(values, 95.0)
    kept = [v for v in values if p5 <= v <= p95]
    return Summary(percentile(kept or values, 50.0), p5, p95, len(kept), len(values))

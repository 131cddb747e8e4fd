"""The real minimax fit of one segment: Remez in the segment's local
variable v (or, for explicit third-party coefficients, those coefficients),
and the inputs z near the error's extrema, which the checker samples."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Optional

import mpmath

from ..config import KernelConfig
from ..errors import GenError
from ..exact import mpf_to_fraction
from ..segments import Segment, Segmentation
from . import remez
from .target import target_function

MinimaxInfo = tuple[Optional[float], Optional[int], tuple[int, ...]]


def fit_segment(cfg: KernelConfig, seg: Segmentation, s: Segment
                 ) -> tuple[list[Fraction], MinimaxInfo]:
    """Real coefficients (powers of v) of one segment, and (minimax error,
    Remez iterations, inputs z near the error extrema)."""
    W, g = cfg.word_bits, seg.pre_shift
    v_max = Fraction(s.t_max << g, 1 << W)
    with mpmath.workdps(cfg.precision_digits):
        fn = target_function(cfg, Fraction(s.z_first, 1 << W), g)
        b = mpmath.mpf(v_max.numerator) / v_max.denominator
        if cfg.explicit is not None:
            row = cfg.explicit.values[s.index]
            coeffs = [Fraction(row[j]) / Fraction(2) ** (cfg.explicit.scales[j] + g * j)
                      for j in range(cfg.degree + 1)]
            points = remez.error_extrema(fn, [mpmath.mpf(c.numerator) / c.denominator for c in coeffs],
                                         b, 40 * (cfg.degree + 2))
            return coeffs, (None, None, to_z(seg, s, points))
        if s.t_max + 1 < cfg.degree + 2:
            raise GenError(f"segments: segment {s.index} holds {s.t_max + 1} input(s), fewer than degree + 2 "
                           f"= {cfg.degree + 2}; use fewer segments or a lower degree")
        try:
            result = remez.remez(fn, b, cfg.degree, cfg.error == "relative", cfg.remez_tolerance,
                                 cfg.remez_max_iterations, f"segment {s.index}")
        except remez.PrecisionError as exc:
            raise GenError(f"precision_digits: the degree-{cfg.degree} fit of segment {s.index} broke down at "
                           f"{cfg.precision_digits} digits ({str(exc).split(': ')[-1]}): its error is below "
                           "what they resolve; raise precision_digits or lower degree") from None
        coeffs = [mpf_to_fraction(c) for c in result.coeffs]
        absolute = result.error if cfg.error == "absolute" else \
            max(abs(fn(v) - sum(c * v**j for j, c in enumerate(result.coeffs))) for v in result.extrema)
        return coeffs, (float(absolute), result.iterations, to_z(seg, s, result.extrema))


def to_z(seg: Segmentation, s: Segment, points: Any) -> tuple[int, ...]:
    scale = 1 << (seg.word_bits - seg.pre_shift)
    out = set()
    for v in points:
        t = int(mpmath.nint(v * scale))
        out.add(min(max(s.z_first + t, s.z_first), s.z_last))
    return tuple(sorted(out))

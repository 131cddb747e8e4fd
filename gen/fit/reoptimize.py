"""Evaluation-aware re-optimization of the coefficients (the fpminimax
idea, greedily): round one coefficient at a time and refit the free ones.
The first quantization's scales in, integers that keep them out."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Optional

import mpmath

from ..config import KernelConfig
from ..errors import GenError
from ..exact import mpf_to_fraction
from ..parallel import parallel_map
from ..quantize import Quantized, round_nearest
from ..segments import Segment, Segmentation
from . import remez, trial
from .target import target_function
from .trial import Trial

REFIT_TOLERANCE = 1e-6


def _round_in_order(fn: Callable[[Any], Any], b: Any, row: list[Fraction], order: list[tuple[int, Optional[int]]],
                    scales: tuple[int, ...], relative: bool, max_iterations: int, label: str,
                    tolerance: Fraction) -> Optional[list[Fraction]]:
    """Fix coefficients in ``order`` (power, forced integer or None for
    round-to-nearest); after each rounding that moves p by ``tolerance`` or
    more, refit the still-free powers by Remez against fn minus the fixed
    part.  Returns the exact rounded coefficients, or None if a refit fails."""
    current = list(row)
    fixed: dict[int, Fraction] = {}
    b_frac = mpf_to_fraction(b)
    for j, forced in order:
        step = Fraction(1) / Fraction(2) ** scales[j]
        fixed[j] = (forced if forced is not None else round_nearest(current[j] / step)) * step
        free = sorted(set(range(len(row))) - set(fixed))
        if not free:
            break
        # A rounding that moves p by far less than its error needs no refit.
        if abs(fixed[j] - current[j]) * b_frac ** j < tolerance:
            continue
        done = [(k, mpmath.mpf(c.numerator) / c.denominator) for k, c in fixed.items()]
        rest = lambda v, dm=done: fn(v) - sum(c * v**k for k, c in dm)
        try:
            # A loosely converged refit is still a valid polynomial: its
            # error is proven afterwards like any other.
            fit = remez.remez(rest, b, max(free), relative, REFIT_TOLERANCE, max_iterations,
                              f"{label} (refit)", powers=free)
        except GenError:
            return None
        for k, c in zip(free, fit.coeffs):
            current[k] = mpf_to_fraction(c)
    return [fixed[j] for j in range(len(row))]



def _estimated_error(fn: Callable[[Any], Any], b: Any, coeffs: list[Fraction]) -> Any:
    """max |fn - p| on a 257-point grid: only to choose between candidates."""
    cs = [mpmath.mpf(c.numerator) / c.denominator for c in coeffs]
    return max(abs(fn(b * i / 256) - sum(c * (b * i / 256) ** j for j, c in enumerate(cs))) for i in range(257))



def _reoptimize_segment(cfg: KernelConfig, seg: Segmentation, s: Segment, row: list[Fraction],
                        scales: tuple[int, ...]) -> Optional[list[int]]:
    """The chosen integers (signed values at ``scales``) for one segment; see
    :func:`_reoptimize`."""
    d = cfg.degree
    W, g = cfg.word_bits, seg.pre_shift
    v_max = Fraction(s.t_max << g, 1 << W)
    top_down = [(j, None) for j in range(d, -1, -1)]
    # 40 digits: enough for the finest coefficient grid (2^-128).
    with mpmath.workdps(min(cfg.precision_digits, 40)):
        fn = target_function(cfg, Fraction(s.z_first, 1 << W), g)
        b = mpmath.mpf(v_max.numerator) / v_max.denominator
        # Also: the coarsest rounding first (largest grid step times v_max^j),
        # so that the others can absorb it.
        coarse = sorted(range(d + 1), key=lambda j: -(Fraction(1) / Fraction(2) ** scales[j]) * v_max ** j)
        orders: list[list[tuple[int, Optional[int]]]] = [top_down]
        if coarse != list(range(d, -1, -1)):
            orders.append([(j, None) for j in coarse])
        step0 = Fraction(1) / Fraction(2) ** scales[0]
        minimax = _estimated_error(fn, b, row)
        tolerance = mpf_to_fraction(minimax) / 64
        if float(step0) > float(minimax) / 4:
            base = row[0] / step0
            floor0 = base.numerator // base.denominator
            orders += [[(0, k)] + [(j, None) for j in range(d, 0, -1)] for k in (floor0, floor0 + 1)]
        best: Optional[tuple[Any, list[Fraction]]] = None
        for order in orders:
            coeffs = _round_in_order(fn, b, row, order, scales, cfg.error == "relative",
                                     cfg.remez_max_iterations, f"segment {s.index}", tolerance)
            if coeffs is None:
                continue
            err = _estimated_error(fn, b, coeffs)
            if best is None or err < best[0]:
                best = (err, coeffs)
    if best is None:
        return None
    return [round_nearest(c * Fraction(2) ** scales[j]) for j, c in enumerate(best[1])]



def reoptimize(cfg: KernelConfig, seg: Segmentation, qz: Quantized,
               real: list[list[Fraction]], offset: Fraction = Fraction(0)) -> Optional[Trial]:
    """Evaluation-aware coefficients (the fpminimax idea, greedily): round
    coefficients one at a time and re-run the Remez fit of the free ones
    against f minus the rounded part.  Two orders are tried:

    * highest power first, the constant last (its rounding error, at most
      half its grid step, then adds to the minimax error);
    * the coarsest rounding first (grid step times v_max^j), so that the
      finer coefficients absorb it;
    * when the constant's grid step is coarse compared with the minimax
      error, the constant first -- both grid neighbours of its minimax value
      -- then the others with fits constrained to keep it.

    The candidate with the smallest error on a dense grid is kept; its
    error is then proven like any other.  Returns None if a refit fails or
    the result would not pass the overflow proof at the same scales.
    ``offset`` is the root's constant (gen/fit: root_offset), on a_0's grid:
    a_0 is fitted whole and stored less it."""
    chosen = parallel_map(_reoptimize_segment, [(cfg, seg, s, row, qz.const_scales)
                                                for s, row in zip(seg.segments, real)])
    if any(c is None for c in chosen):
        return None
    step0 = offset * Fraction(2) ** qz.const_scales[0]
    assert step0.denominator == 1, "the root offset lies on a_0's grid"
    ints = [[c[0] - int(step0)] + c[1:] for c in chosen]  # type: ignore[index]
    rows = [[row[0] - offset] + row[1:] for row in real]
    try:
        return trial.make(cfg, qz.scheme, seg, rows, qz.const_scales, ints, root_offset=offset)
    except GenError:
        return None

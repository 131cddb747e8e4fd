"""Centring: move each segment's constant coefficient by the multiple of
its grid step that best centres the total error interval (the
approximation bound plus the evaluation error), since truncations err one
way.  Also the distance of each segment's target to the constant's grid,
reported as a measure of how much rounding costs."""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

import mpmath

from ..config import KernelConfig
from ..errors import GenError
from ..exact import mpf_to_fraction
from ..proof.approximation import ApproxBound
from ..proof.evaluation import eval_error
from ..proof.output import core_interval
from ..quantize import Quantized, round_nearest
from ..segments import Segment, Segmentation
from . import trial
from .target import target_function
from .trial import Trial


def centre(cfg: KernelConfig, seg: Segmentation, qz: Quantized, approx: list[ApproxBound]
           ) -> Optional[tuple[Trial, list[ApproxBound]]]:
    """Move each segment's constant coefficient a_0 by the multiple of its
    grid step that best centres the total error interval: truncations err
    one way, so the approximation should err the other.  The target is 0
    for _eval and one_minus kernels, and half a unit of 2^-63 for direct
    64-bit kernels, whose _expm_p63 truncates.  The approximation bound moves
    by exactly the change of a_0; ranges and evaluation errors are proved
    again.  Returns the moved quantization and the shifted bounds; None if
    the moved constant breaks the overflow proof (then nothing moves)."""
    s0 = qz.const_scales[0]
    target = Fraction(0)
    if cfg.form == "direct" and cfg.word_bits == 64:
        floor_unit = Fraction(1) if qz.root_scale >= 63 else Fraction(2) ** (63 - qz.root_scale)
        target = floor_unit / 2 * Fraction(2) ** (qz.root_scale - 63)
    rows = [list(qz.coefficients(i)) for i in range(len(qz.ints))]
    for i, bound in enumerate(approx):
        lo, hi = core_interval(qz, bound, eval_error(qz, i))
        step = Fraction(1) / Fraction(2) ** s0
        shift = round_nearest(((lo + hi) / 2 - target) / Fraction(2) ** qz.root_scale / step)
        rows[i][0] -= shift * step
    values = [[round_nearest(row[j] * Fraction(2) ** qz.const_scales[j]) for j in range(len(row))]
              for row in rows]
    try:
        moved = trial.make(cfg, qz.scheme, seg, rows, qz.const_scales, values)
    except GenError:
        return None
    shifted = [bound.shifted(moved.qz.coefficients(i)[0] - qz.coefficients(i)[0]) for i, bound in enumerate(approx)]
    return moved, shifted


def grid_distance(cfg: KernelConfig, seg: Segmentation, s: Segment, qz: Quantized) -> Fraction:
    """Distance from the target function at the segment's start to the grid
    of the constant coefficient (step 2^-s_0), from a 60-digit value."""
    with mpmath.workdps(60):
        value = mpf_to_fraction(target_function(cfg, Fraction(s.z_first, 1 << cfg.word_bits),
                                                seg.pre_shift)(mpmath.mpf(0)))
    scaled = value * Fraction(2) ** qz.const_scales[0]
    return abs(scaled - round_nearest(scaled)) / Fraction(2) ** qz.const_scales[0]

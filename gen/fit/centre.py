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
from ..falcon import has_mantissa_adaptor
from ..proof.truncation import loss_bound
from ..quantize import Quantized, final_product_plan, root_margin, round_nearest
from ..segments import Segment, Segmentation
from . import trial
from .target import target_function
from .trial import Trial


def centre(cfg: KernelConfig, seg: Segmentation, qz: Quantized, approx: list[ApproxBound]
           ) -> Optional[tuple[Trial, list[ApproxBound]]]:
    """Move each segment's constant coefficient a_0 by the multiple of its
    grid step that best centres the total error interval: truncations err
    one way, so the approximation should err the other.  The target:
    :func:`centre_target`.  The approximation bound moves
    by exactly the change of a_0; ranges and evaluation errors are proved
    again (a root bias counts as part of a_0).  Returns the moved
    quantization and the shifted bounds; None if the moved constant breaks
    the overflow proof (then nothing moves)."""
    s0 = qz.const_scales[0]
    target = centre_target(cfg, qz)
    rows = [list(qz.table_coefficients(i)) for i in range(len(qz.ints))]
    scale = Fraction(2) ** qz.root_scale
    # How far each segment's polynomial should move (real values, upwards).
    ups = [-((lo + hi) / 2 - target) / scale
           for lo, hi in (core_interval(qz, bound, eval_error(qz, i)) for i, bound in enumerate(approx))]
    bias, scales = qz.root_bias, list(qz.const_scales)
    if cfg.form == "direct" and cfg.wide and qz.signs[qz.root] > 0:
        # A two-word root: a_0 is one word, and for exp(-x) the first
        # segment's a_0 is about 1, so it fits the word only at scale 2^-63
        # (steps of a whole unit) and cannot move up.  The root sum adds a
        # bias instead, exact at the root's scale and the same on every
        # segment: the smallest wanted a_0, so that the table stores only
        # a_0 minus it, at the largest scale where every segment's fits a
        # word (for one segment, the whole a_0 is the bias).
        wanted = [qz.coefficients(i)[0] + up for i, up in enumerate(ups)]
        bias = (min(wanted) * scale).__floor__()
        rest = [a - Fraction(bias) / scale for a in wanted]
        s0 = qz.root_scale
        while s0 > 0 and round_nearest(max(rest) * Fraction(2) ** s0) >= 1 << cfg.word_bits:
            s0 -= 1
        scales[0] = s0
        for i, r in enumerate(rest):
            rows[i][0] = r
    else:
        step = Fraction(1) / Fraction(2) ** s0
        for i, up in enumerate(ups):
            steps_up = round_nearest(up / step)
            if cfg.centre == "adaptor" and steps_up > 0:
                steps_up = min(steps_up, _headroom(cfg, qz, i) >> (qz.root_scale - s0))
            rows[i][0] += steps_up * step
    values = [[round_nearest(row[j] * Fraction(2) ** scales[j]) for j in range(len(row))]
              for row in rows]
    try:
        moved = trial.make(cfg, qz.scheme, seg, rows, scales, values, Fraction(bias) / scale)
    except GenError:
        return None
    shifted = [bound.shifted(moved.qz.coefficients(i)[0] - qz.coefficients(i)[0]) for i, bound in enumerate(approx)]
    return moved, shifted


def _headroom(cfg: KernelConfig, qz: Quantized, i: int) -> int:
    """How far segment i's root word may rise (units of its scale) before
    its overflow proof fails: a_0 feeds only the root sum of a direct
    Horner scheme, so raising a_0 raises that sum's proven range and
    nothing else.  Near x = 0, where exp(-x) 2^64 reaches the top of the
    word, this caps the bias (the proof then states what is left)."""
    top = (1 << cfg.word_bits) - 1 - root_margin(cfg)(qz.root_scale)
    return max(0, top - qz.ranges[i][qz.root][1])


def centre_target(cfg: KernelConfig, qz: Quantized) -> Fraction:
    """Where the centre of the core interval (units of the root's scale)
    should sit.  centre = "expm": 0 for _eval, one_minus kernels and
    two-word roots (wide), half a unit of 2^-63 for the other direct 64-bit
    kernels, whose _expm_p63 truncates.
    centre = "adaptor", for kernels whose Falcon adaptors take ccs by its
    significand: that interval (gen/proof/output.py, mantissa_interval) is
    [min(0, c_lo / 2) - D - 1, max(0, c_hi / 2) + 1] in units of 2^-63 with
    [c_lo, c_hi] the core interval at scale 2^64 and D the proven loss of the
    truncated ccs product; it is balanced when the core's centre is D
    (units of 2^-64): the rounding bias that offsets the one-sided loss of
    the final product, so its bound is what the proof states."""
    if cfg.form != "direct" or cfg.word_bits != 64:
        return Fraction(0)
    if cfg.centre == "adaptor":
        plan = final_product_plan(cfg, qz)
        if has_mantissa_adaptor(cfg, qz, plan):
            return loss_bound(plan) if plan is not None else Fraction(0)
    if cfg.wide:
        return Fraction(0)      # a two-word root: _eval and _expm_p63 round to nearest
    floor_unit = Fraction(1) if qz.root_scale >= 63 else Fraction(2) ** (63 - qz.root_scale)
    return floor_unit / 2 * Fraction(2) ** (qz.root_scale - 63)


def grid_distance(cfg: KernelConfig, seg: Segmentation, s: Segment, qz: Quantized) -> Fraction:
    """Distance from the target function at the segment's start to the grid
    of the constant coefficient (step 2^-s_0), from a 60-digit value."""
    with mpmath.workdps(60):
        value = mpf_to_fraction(target_function(cfg, Fraction(s.z_first, 1 << cfg.word_bits),
                                                seg.pre_shift)(mpmath.mpf(0)))
    scaled = value * Fraction(2) ** qz.const_scales[0]
    return abs(scaled - round_nearest(scaled)) / Fraction(2) ** qz.const_scales[0]

"""From a validated config to a kernel: segmentation, Remez, quantization,
proven bounds and a self-check.  Rendering is :mod:`gen.render`'s job."""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from math import log2
from typing import Any, Callable, Optional

import mpmath

from . import bounds, expr, quantize, remez
from .config import KernelConfig
from .errors import GenError
from .exact import int_to_mpf_exact, mpf_to_fraction
from .segments import Segment, Segmentation, segment

SELF_CHECK_RANDOM = 2000


@dataclass(frozen=True)
class SegmentReport:
    index: int
    z_first: int
    z_last: int
    minimax_error: Optional[float]   # real-coefficient Remez error (absolute), None if explicit
    remez_iterations: Optional[int]
    approx_bound: Fraction           # proven sup |p_q - f|, absolute
    eval_error: tuple[Fraction, Fraction]  # interval of eps_0, units of 2^-s_0
    eval_bound_ulp: Fraction         # proven bound of _eval, units of 2^-S
    expm_bound_2p63: Optional[Fraction]  # proven bound of _expm_p63, units of 2^-63
    extrema_z: tuple[int, ...]


@dataclass(frozen=True)
class Kernel:
    cfg: KernelConfig
    seg: Segmentation
    qz: quantize.Quantized
    segments: tuple[SegmentReport, ...]

    @property
    def eval_bound_ulp(self) -> Fraction:
        return max(s.eval_bound_ulp for s in self.segments)

    @property
    def expm_bound_2p63(self) -> Optional[Fraction]:
        if self.cfg.word_bits != 64:
            return None
        return max(s.expm_bound_2p63 for s in self.segments if s.expm_bound_2p63 is not None)

    @property
    def table_bytes(self) -> int:
        return self.seg.count * (self.qz.degree + 1) * self.cfg.word_bits // 8

    @property
    def table_access(self) -> str:
        return "none" if self.seg.count == 1 else self.cfg.table_access


def _function(cfg: KernelConfig, x_first: Fraction, pre_shift: int) -> Callable[[Any], Any]:
    """v -> f(x_first + v 2^-g) in the current mp precision."""
    base = mpmath.mpf(x_first.numerator) / x_first.denominator
    step = int_to_mpf_exact(1, -pre_shift)
    return lambda v: expr.evaluate(cfg.function_tree, base + v * step, mpmath.mp)


def _check_output_range(cfg: KernelConfig, seg: Segmentation) -> None:
    """f must be positive (unsigned output) and f * 2^S must fit the word."""
    saved = mpmath.iv.dps
    mpmath.iv.dps = 30
    try:
        W = cfg.word_bits
        for s in seg.segments:
            for k in range(8):
                a = Fraction(s.z_first + (s.t_max * k) // 8, 1 << W)
                b = Fraction(s.z_first + (s.t_max * (k + 1)) // 8 + 1, 1 << W)
                x = mpmath.iv.mpf(a.numerator) / a.denominator + \
                    (mpmath.iv.mpf(b.numerator) / b.denominator - mpmath.iv.mpf(a.numerator) / a.denominator) * mpmath.iv.mpf([0, 1])
                try:
                    value = expr.evaluate(cfg.function_tree, x, mpmath.iv)
                except (ZeroDivisionError, ValueError):
                    raise GenError(f"function: {cfg.function!r} is undefined on the domain") from None
                lo, hi = value.a, value.b
                if not lo > 0:
                    raise GenError(f"function: {cfg.function!r} is not positive on the domain "
                                   "(kernels return unsigned words)")
                if hi * 2**cfg.scale_bits >= 2**W:
                    raise GenError(f"scale_bits: {cfg.function} * 2^{cfg.scale_bits} does not fit "
                                   f"a {W}-bit word (max about {mpmath.nstr(hi.b, 6)})")
    finally:
        mpmath.iv.dps = saved


def build(cfg: KernelConfig, progress: Callable[[str], None] = lambda _: None) -> Kernel:
    """Run the whole pipeline for ``cfg`` and return the checked kernel."""
    seg = segment(cfg)
    _check_output_range(cfg, seg)
    W, g = cfg.word_bits, seg.pre_shift
    v_maxes = [Fraction(s.t_max << g, 1 << W) for s in seg.segments]
    x_firsts = [Fraction(s.z_first, 1 << W) for s in seg.segments]

    real: list[list[Fraction]] = []
    remez_info: list[tuple[Optional[float], Optional[int], tuple[int, ...]]] = []
    with mpmath.workdps(cfg.precision_digits):
        for s, v_max, x_first in zip(seg.segments, v_maxes, x_firsts):
            fn = _function(cfg, x_first, g)
            b = mpmath.mpf(v_max.numerator) / v_max.denominator
            if cfg.explicit is not None:
                row = cfg.explicit.values[s.index]
                coeffs = [Fraction(row[j], 1) / Fraction(2) ** (cfg.explicit.scales[j] + g * j)
                          for j in range(cfg.degree + 1)]
                points = remez.error_extrema(fn, [mpmath.mpf(c.numerator) / c.denominator for c in coeffs],
                                             b, 40 * (cfg.degree + 2))
                remez_info.append((None, None, _to_z(seg, s, points)))
            else:
                label = f"segment {s.index}"
                if s.t_max == 0:
                    raise GenError(f"segments: segment {s.index} holds a single input; use fewer segments")
                result = remez.remez(fn, b, cfg.degree, cfg.error == "relative",
                                     cfg.remez_tolerance, cfg.remez_max_iterations, label)
                coeffs = [mpf_to_fraction(c) for c in result.coeffs]
                absolute = result.error if cfg.error == "absolute" else \
                    max(abs(fn(v) - sum(c * v**j for j, c in enumerate(result.coeffs))) for v in result.extrema)
                remez_info.append((float(absolute), result.iterations, _to_z(seg, s, result.extrema)))
            real.append(coeffs)
            progress(f"{cfg.name}: segment {s.index + 1}/{seg.count} fitted")

    if cfg.explicit is not None:
        scales = [cfg.explicit.scales[j] + g * j for j in range(cfg.degree + 1)]
        qz = quantize.quantize(seg, real, cfg.scale_bits, forced_scales=scales,
                               forced_ints=cfg.explicit.values)
    else:
        qz = quantize.quantize(seg, real, cfg.scale_bits, forced_scales=cfg.coefficient_scales)

    reports = []
    for s, v_max, x_first, (minimax, iterations, extrema) in zip(seg.segments, v_maxes, x_firsts, remez_info):
        approx = bounds.approximation_bound(cfg.function_tree, qz.coefficients(s.index), x_first, v_max, g)
        eps = bounds.evaluation_error(qz.shifts, qz.ops, v_max, W)
        eval_bound, expm_bound = _total_bounds(cfg, qz, approx.bound, eps)
        reports.append(SegmentReport(s.index, s.z_first, s.z_last, minimax, iterations, approx.bound,
                                     eps, eval_bound, expm_bound, extrema))
        progress(f"{cfg.name}: segment {s.index + 1}/{seg.count} bounded")
    kernel = Kernel(cfg, seg, qz, tuple(reports))
    _check_budget(kernel)
    _self_check(kernel)
    return kernel


def _to_z(seg: Segmentation, s: Segment, points: Any) -> tuple[int, ...]:
    scale = 1 << (seg.word_bits - seg.pre_shift)
    out = set()
    for v in points:
        t = int(mpmath.nint(v * scale))
        out.add(min(max(s.z_first + t, s.z_first), s.z_last))
    return tuple(sorted(out))


def _total_bounds(cfg: KernelConfig, qz: quantize.Quantized, approx: Fraction,
                  eps: tuple[Fraction, Fraction]) -> tuple[Fraction, Optional[Fraction]]:
    """Proven bounds of _eval (units 2^-S) and _expm_p63 (units 2^-63); docs/error-model.md."""
    s0, S, q = qz.scales[0], cfg.scale_bits, qz.final_shift
    half = Fraction(1, 2) if q > 0 else Fraction(0)
    lo = -approx * Fraction(2) ** S + eps[0] / Fraction(2) ** q - half
    hi = approx * Fraction(2) ** S + eps[1] / Fraction(2) ** q + half
    eval_bound = max(-lo, hi)
    if cfg.word_bits != 64:
        return eval_bound, None
    # _expm_p63 = mulhi(w, U_0) shifted from scale s_0 to 63; U_0's error in
    # units of 2^-s_0 is approx 2^s_0 + eps_0.  Scaled by w / 2^64 in [0, 1),
    # then one floor whose error is below 1 unit of the result's scale
    # (2^-63 if s_0 >= 63, else 2^-s_0).
    core_lo = -approx * Fraction(2) ** s0 + eps[0]
    core_hi = approx * Fraction(2) ** s0 + eps[1]
    to63 = Fraction(2) ** (63 - s0)
    floor_err = Fraction(1) if s0 >= 63 else to63
    expm_lo = min(Fraction(0), core_lo * to63) - floor_err
    expm_hi = max(Fraction(0), core_hi * to63)
    return eval_bound, max(-expm_lo, expm_hi)


def _check_budget(kernel: Kernel) -> None:
    budget = kernel.cfg.max_abs_error_log2
    if budget is None:
        return
    absolute = kernel.eval_bound_ulp / Fraction(2) ** kernel.cfg.scale_bits
    if kernel.expm_bound_2p63 is not None:
        absolute = max(absolute, kernel.expm_bound_2p63 / Fraction(2) ** 63)
    if log2(absolute) > budget:
        raise GenError(f"max_abs_error_log2: proven error 2^{log2(absolute):.2f} exceeds the budget "
                       f"2^{budget:g}; refusing to emit {kernel.cfg.name}")


def _self_check(kernel: Kernel) -> None:
    """Ryu-style: run the exact integer model on segment ends and random
    inputs, assert no overflow and an error within the proven bound."""
    cfg, seg, qz = kernel.cfg, kernel.seg, kernel.qz
    rng = random.Random(cfg.sha256)
    zs = {seg.z_lo, seg.z_max}
    for s in seg.segments:
        zs.update({s.z_first, s.z_last, (s.z_first + s.z_last) // 2})
        zs.update(s_z for s_z in kernel.segments[s.index].extrema_z)
    zs.update(rng.randint(seg.z_lo, seg.z_max) for _ in range(SELF_CHECK_RANDOM))
    bound = kernel.eval_bound_ulp
    with mpmath.workdps(40):
        for z in sorted(zs):
            quantize.evaluate_core(qz, seg, z, check=True)
            out = quantize.evaluate(qz, seg, z)
            x = int_to_mpf_exact(z, -cfg.word_bits)
            exact = expr.evaluate(cfg.function_tree, x, mpmath.mp) * mpmath.mpf(2) ** cfg.scale_bits
            if abs(out - exact) > mpmath.mpf(bound.numerator) / bound.denominator:
                raise GenError(f"self-check: {cfg.name} at z={z} errs by {mpmath.nstr(abs(out - exact), 6)} "
                               f"units, above its proven bound {float(bound):.6g}; refusing to emit")

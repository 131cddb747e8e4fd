"""From a validated config to a kernel: segmentation, Remez, quantization,
evaluation-aware re-optimization, proven bounds and a self-check.
Rendering is :mod:`gen.render`'s job.

Forms.  ``direct``: the polynomial approximates f and _eval returns its
root word rounded to scale S.  ``one_minus``: the polynomial approximates
g = 1 - f (for exp(-x) on [0, ln 2), g lies in [0, 1/2), so a word holds it
at scale 2^64 where f itself, which reaches 1, fits only at 2^63; with a
``wide`` scheme the root is a two-word value at up to 2^128); the outputs
are 2^S - round(g 2^S) and a correctly rounded ccs * (1 - g) * 2^63
computed in 128 bits.
"""

from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from dataclasses import dataclass
from fractions import Fraction
from math import log2
from typing import Any, Callable, Optional

import mpmath

from . import bounds, expr, limbs, quantize, remez, scheme
from .config import KernelConfig
from .errors import GenError
from .exact import int_to_mpf_exact, mpf_to_fraction
from .segments import Segment, Segmentation, segment

SELF_CHECK_RANDOM = 2000
REFIT_TOLERANCE = 1e-6


@dataclass(frozen=True)
class SegmentReport:
    index: int
    z_first: int
    z_last: int
    minimax_error: Optional[float]   # real-coefficient Remez error (absolute), None if explicit
    remez_iterations: Optional[int]
    approx: bounds.ApproxBound       # proven p_q - target, signed, absolute
    eval_error: tuple[Fraction, Fraction]  # eps of the root word, units of 2^-s_root
    eval_interval: tuple[Fraction, Fraction]   # _eval - f 2^S, units of 2^-S
    expm_interval: Optional[tuple[Fraction, Fraction]]  # _expm_p63 - ideal, units of 2^-63
    extrema_z: tuple[int, ...]
    grid_distance: Optional[Fraction] = None   # |target(x_first) - nearest point of a_0's grid|
    fpr_interval: Optional[tuple[Fraction, Fraction]] = None   # mantissa adaptor - ideal, units of 2^-63

    @property
    def eval_bound_ulp(self) -> Fraction:
        return max(-self.eval_interval[0], self.eval_interval[1])

    @property
    def fpr_bound_2p63(self) -> Optional[Fraction]:
        if self.fpr_interval is None:
            return None
        return max(-self.fpr_interval[0], self.fpr_interval[1])

    @property
    def expm_bound_2p63(self) -> Optional[Fraction]:
        if self.expm_interval is None:
            return None
        return max(-self.expm_interval[0], self.expm_interval[1])

    @property
    def quantization_ratio(self) -> Optional[float]:
        """Proven |p_q - f| over max(real minimax error, grid distance of the
        constant coefficient): how much the quantized polynomial loses to
        rounding, against what no choice of rounding can avoid."""
        if self.minimax_error is None or self.grid_distance is None:
            return None
        floor = max(Fraction(self.minimax_error), self.grid_distance)
        return float(self.approx.bound / floor) if floor > 0 else None


@dataclass(frozen=True)
class Kernel:
    cfg: KernelConfig
    seg: Segmentation
    qz: quantize.Quantized
    segments: tuple[SegmentReport, ...]
    reoptimized: bool
    final_plan: Optional[limbs.TruncPlan] = None   # truncated ccs product of _expm_p63 (gen/limbs.py)

    @property
    def eval_bound_ulp(self) -> Fraction:
        return max(s.eval_bound_ulp for s in self.segments)

    @property
    def expm_bound_2p63(self) -> Optional[Fraction]:
        if self.cfg.word_bits != 64:
            return None
        return max(s.expm_bound_2p63 for s in self.segments if s.expm_bound_2p63 is not None)

    @property
    def mantissa_adaptor(self) -> bool:
        """The emulated-float adaptor multiplies U by ccs's significand and
        shifts by its exponent (see :func:`model_mantissa`): kernels with a
        truncated ccs product whose root word is at scale 2^64."""
        return has_mantissa_adaptor(self.cfg, self.qz, self.final_plan)

    @property
    def fpr_bound_2p63(self) -> Optional[Fraction]:
        """Proven bound of the Falcon adaptors: that of _expm_p63, or of the
        mantissa adaptor's path where it has one."""
        if not self.mantissa_adaptor:
            return self.expm_bound_2p63
        return max(s.fpr_bound_2p63 for s in self.segments if s.fpr_bound_2p63 is not None)

    @property
    def table_rows(self) -> int:
        """Rows of the coefficient table: one per segment, or, with
        pad_table, one per value the index (the top bits of u) can take."""
        if self.cfg.pad_table:
            assert self.seg.pow2_shift is not None
            return 1 << (self.cfg.word_bits - self.seg.pow2_shift)
        return self.seg.count

    @property
    def table_bytes(self) -> int:
        return self.table_rows * (self.qz.degree + 1) * self.cfg.word_bits // 8

    @property
    def table_access(self) -> str:
        return "none" if self.seg.count == 1 else self.cfg.table_access


def has_mantissa_adaptor(cfg: KernelConfig, qz: quantize.Quantized, final_plan: Optional[limbs.TruncPlan]) -> bool:
    """Whether the Falcon adaptors take ccs by its significand (a truncated
    ccs product, direct form, root word at scale 2^64; _mantissa_interval)."""
    return final_plan is not None and cfg.form == "direct" and qz.root_scale == 64


def target_function(cfg: KernelConfig, x_first: Fraction, pre_shift: int) -> Callable[[Any], Any]:
    """v -> the function the polynomial approximates (f, or 1 - f) at x_first + v 2^-g."""
    base = mpmath.mpf(x_first.numerator) / x_first.denominator
    step = int_to_mpf_exact(1, -pre_shift)
    if cfg.form == "one_minus":
        return lambda v: 1 - expr.evaluate(cfg.function_tree, base + v * step, mpmath.mp)
    return lambda v: expr.evaluate(cfg.function_tree, base + v * step, mpmath.mp)


def target_tree(cfg: KernelConfig) -> expr.Node:
    if cfg.form == "one_minus":
        return expr.BinOp("-", expr.Num("1"), cfg.function_tree)
    return cfg.function_tree


def root_margin(cfg: KernelConfig) -> Callable[[int], int]:
    """Room the root word must leave for the rounding constants added after
    the scheme: 2^(q-1) for _eval's rounding (q = s - S) and, in one_minus
    form, 2^(s-64) for rounding to 2^-63 when ccs == 1."""
    def margin(s: int) -> int:
        out = 1 << (s - cfg.scale_bits - 1) if s > cfg.scale_bits else 0
        if cfg.form == "one_minus" and cfg.word_bits == 64 and s > 63:
            out = max(out, 1 << (s - 64))
        return out
    return margin


def _check_output_range(cfg: KernelConfig, seg: Segmentation) -> None:
    """f must be positive (unsigned output) and f * 2^S must fit the word;
    in one_minus form f must lie in (0, 1]."""
    iv = mpmath.iv
    saved = iv.dps
    iv.dps = 30
    try:
        W = cfg.word_bits
        for s in seg.segments:
            for k in range(8):
                a = Fraction(s.z_first + (s.t_max * k) // 8, 1 << W)
                b = Fraction(s.z_first + (s.t_max * (k + 1)) // 8 + 1, 1 << W)
                lo_x = iv.mpf(a.numerator) / a.denominator
                x = lo_x + (iv.mpf(b.numerator) / b.denominator - lo_x) * iv.mpf([0, 1])
                try:
                    value = expr.evaluate(cfg.function_tree, x, iv)
                except (ZeroDivisionError, ValueError):
                    raise GenError(f"function: {cfg.function!r} is undefined on the domain") from None
                if not value.a > 0:
                    raise GenError(f"function: {cfg.function!r} is not positive on the domain "
                                   "(kernels return unsigned words)")
                if value.b * 2**cfg.scale_bits > 2**W - 1 and not (cfg.form == "one_minus" and value.b <= 1
                                                                  and cfg.scale_bits < W):
                    raise GenError(f"scale_bits: {cfg.function} * 2^{cfg.scale_bits} does not fit "
                                   f"a {W}-bit word (max about {mpmath.nstr(value.b, 6)})")
                if cfg.form == "one_minus" and value.b > 1:
                    raise GenError(f"form: one_minus needs {cfg.function} <= 1 on the domain")
    finally:
        iv.dps = saved


def parallel_map(func: Callable[..., Any], args: list[tuple]) -> list[Any]:
    """func(*a) for every a, on up to FXP_GEN_JOBS processes (default: all
    cores).  Results are in order and do not depend on the number of jobs."""
    jobs = int(os.environ.get("FXP_GEN_JOBS", os.cpu_count() or 1))
    if jobs <= 1 or len(args) <= 1:
        return [func(*a) for a in args]
    with ProcessPoolExecutor(max_workers=min(jobs, len(args)), mp_context=get_context("fork")) as pool:
        return list(pool.map(func, *zip(*args)))


def _build_one(cfg: KernelConfig) -> "Kernel | GenError":
    """build(cfg) in a worker of :func:`build_many`: segments run serially
    there (the workers already use the cores), errors come back as values."""
    os.environ["FXP_GEN_JOBS"] = "1"
    try:
        return build(cfg)
    except GenError as exc:
        return exc


def build_many(cfgs: list[KernelConfig]) -> list["Kernel | GenError"]:
    """build() for several configs, one kernel per process (FXP_GEN_JOBS
    processes): the result of each config, or its error, in order."""
    return parallel_map(_build_one, [(cfg,) for cfg in cfgs])


def _fit_segment(cfg: KernelConfig, seg: Segmentation, s: Segment
                 ) -> tuple[list[Fraction], tuple[Optional[float], Optional[int], tuple[int, ...]]]:
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
            return coeffs, (None, None, _to_z(seg, s, points))
        if s.t_max == 0:
            raise GenError(f"segments: segment {s.index} holds a single input; use fewer segments")
        result = remez.remez(fn, b, cfg.degree, cfg.error == "relative", cfg.remez_tolerance,
                             cfg.remez_max_iterations, f"segment {s.index}")
        coeffs = [mpf_to_fraction(c) for c in result.coeffs]
        absolute = result.error if cfg.error == "absolute" else \
            max(abs(fn(v) - sum(c * v**j for j, c in enumerate(result.coeffs))) for v in result.extrema)
        return coeffs, (float(absolute), result.iterations, _to_z(seg, s, result.extrema))


def build(cfg: KernelConfig, progress: Callable[[str], None] = lambda _: None) -> Kernel:
    """Run the whole pipeline for ``cfg`` and return the checked kernel."""
    seg = segment(cfg)
    _check_output_range(cfg, seg)
    W, g = cfg.word_bits, seg.pre_shift
    v_maxes = [Fraction(s.t_max << g, 1 << W) for s in seg.segments]
    x_firsts = [Fraction(s.z_first, 1 << W) for s in seg.segments]
    plan = scheme.build(cfg.evaluation, cfg.degree, cfg.wide, cfg.float_tail)
    if cfg.multiplier == "truncated":
        assert cfg.truncation_budget_log2 is not None
        plan.truncation_budget = Fraction(2 ** cfg.truncation_budget_log2)

    fitted = parallel_map(_fit_segment, [(cfg, seg, s) for s in seg.segments])
    real = [coeffs for coeffs, _ in fitted]
    info = [extra for _, extra in fitted]
    progress(f"{cfg.name}: {seg.count} segment(s) fitted")

    if cfg.explicit is not None:
        scales = [cfg.explicit.scales[j] + g * j for j in range(cfg.degree + 1)]
        qz = quantize.quantize(plan, seg, real, forced_scales=scales, forced_ints=cfg.explicit.values,
                               root_margin=root_margin(cfg))
        reoptimized = False
    else:
        qz = quantize.quantize(plan, seg, real, forced_scales=cfg.coefficient_scales,
                               root_margin=root_margin(cfg))
        if cfg.multiplier == "truncated" and W == 64:
            qz = _mixed_precision(cfg, seg, qz, real)
        reoptimized = False
        if cfg.reoptimize:
            better = _reoptimize(cfg, seg, qz, real)
            if better is not None:
                qz, reoptimized = better, True

    top_scale = 128 if cfg.wide else 127
    if cfg.form == "one_minus" and W == 64 and not 64 <= qz.root_scale <= top_scale:
        raise GenError(f"form: one_minus needs the result at a scale from 2^64 to 2^{top_scale}, "
                       f"got 2^{qz.root_scale}")
    if qz.root_scale < cfg.scale_bits:
        raise GenError(f"scale_bits: {cfg.scale_bits} needs the result at scale 2^{cfg.scale_bits}, "
                       f"but the {W}-bit word holds it only at 2^{qz.root_scale}")
    approxes = parallel_map(bounds.approximation_bound,
                            [(target_tree(cfg), qz.coefficients(s.index), x_first, v_max, g)
                             for s, v_max, x_first in zip(seg.segments, v_maxes, x_firsts)])
    reports = []
    for s, approx, (minimax, iterations, extrema) in zip(seg.segments, approxes, info):
        reports.append([s, minimax, iterations, extrema, approx, quantize.eval_error(qz, s.index)])
    progress(f"{cfg.name}: {seg.count} segment(s) bounded")
    if cfg.explicit is None:
        qz, reports = _centre(cfg, seg, qz, reports)
    final_plan = _final_plan(cfg, qz)
    final = []
    for s, minimax, iterations, extrema, approx, eps in reports:
        eval_iv, expm_iv = _total_intervals(cfg, qz, approx, eps, s.index,
                                            final_plan.delta_bound() if final_plan else None)
        fpr_iv = None
        if has_mantissa_adaptor(cfg, qz, final_plan):
            assert final_plan is not None
            fpr_iv = _mantissa_interval(qz, approx, eps, final_plan.delta_bound())
        final.append(SegmentReport(s.index, s.z_first, s.z_last, minimax, iterations, approx, eps,
                                   eval_iv, expm_iv, extrema, _grid_distance(cfg, seg, s, qz), fpr_iv))
    kernel = Kernel(cfg, seg, qz, tuple(final), reoptimized, final_plan)
    _check_budget(kernel)
    _self_check(kernel)
    return kernel


def _mixed_precision(cfg: KernelConfig, seg: Segmentation, qz: quantize.Quantized,
                     real: list[list[Fraction]]) -> quantize.Quantized:
    """Mixed precision (multiplier = "truncated", Horner): the top steps
    y_j = a_j + v y_(j+1) whose 64-bit scale s leaves a 32-bit word a
    truncation of at most 2^-(s - 33) <= the truncation budget run on
    uint32_t, with their constants and products; so does the product that
    reads the last of them (v y on 32 bits).  The narrowed scheme is
    quantized and proven again like any other."""
    sch = qz.scheme
    budget = sch.truncation_budget
    assert budget is not None
    narrow: set[int] = set()
    for n, node in enumerate(sch.nodes):
        if node.kind != "add":
            continue
        if n == sch.root or Fraction(2) ** -(qz.scales[n] - 33) > budget:
            break
        narrow.add(n)
        for a in node.args:
            narrow.add(a)
            narrow.update(x for x in sch.nodes[a].args if sch.nodes[x].kind == "const")
    if not narrow:
        return qz
    for n, node in enumerate(sch.nodes):
        if node.kind == "mul" and n not in narrow and all(x in narrow or sch.nodes[x].kind == "var"
                                                        for x in node.args):
            narrow.add(n)
    try:
        return quantize.quantize(scheme.narrowed(sch, narrow, budget), seg, real,
                                 forced_scales=cfg.coefficient_scales, root_margin=root_margin(cfg))
    except GenError:
        return qz


def _final_plan(cfg: KernelConfig, qz: quantize.Quantized) -> Optional[limbs.TruncPlan]:
    """The truncated product w U of _expm_p63 (direct form, multiplier =
    "truncated"): w any 64-bit word, U the root word; budget at U's scale."""
    if cfg.multiplier != "truncated" or cfg.word_bits != 64 or qz.scheme.truncation_budget is None:
        return None
    u_hi = max(r[qz.root][1] for r in qz.ranges)
    return limbs.plan((1 << 64) - 1, u_hi, 64, qz.scheme.truncation_budget * Fraction(2) ** qz.root_scale)


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
        fixed[j] = (forced if forced is not None else quantize.round_nearest(current[j] / step)) * step
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
    return [quantize.round_nearest(c * Fraction(2) ** scales[j]) for j, c in enumerate(best[1])]


def _reoptimize(cfg: KernelConfig, seg: Segmentation, qz: quantize.Quantized,
                real: list[list[Fraction]]) -> Optional[quantize.Quantized]:
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
    the result would not pass the overflow proof at the same scales."""
    chosen = parallel_map(_reoptimize_segment, [(cfg, seg, s, row, qz.const_scales)
                                                for s, row in zip(seg.segments, real)])
    if any(c is None for c in chosen):
        return None
    try:
        return quantize.quantize(qz.scheme, seg, real, forced_scales=qz.const_scales, forced_ints=chosen,
                                 root_margin=root_margin(cfg))
    except GenError:
        return None


def _centre(cfg: KernelConfig, seg: Segmentation, qz: quantize.Quantized, reports: list):
    """Move each segment's constant coefficient a_0 by the multiple of its
    grid step that best centres the total error interval: truncations err
    one way, so the approximation should err the other.  The target is 0
    for _eval and one_minus kernels, and half a unit of 2^-63 for direct
    64-bit kernels, whose _expm_p63 truncates.  The approximation bound moves
    by exactly the change of a_0; ranges and evaluation errors are proved
    again.  If the moved constant breaks the overflow proof, nothing moves."""
    s0 = qz.const_scales[0]
    target = Fraction(0)
    if cfg.form == "direct" and cfg.word_bits == 64:
        floor_unit = Fraction(1) if qz.root_scale >= 63 else Fraction(2) ** (63 - qz.root_scale)
        target = floor_unit / 2 * Fraction(2) ** (qz.root_scale - 63)
    rows = [list(qz.coefficients(i)) for i in range(len(qz.ints))]
    for i, (s, _, _, _, approx, eps) in enumerate(reports):
        lo, hi = _core_interval(qz, approx, eps)
        step = Fraction(1) / Fraction(2) ** s0
        shift = quantize.round_nearest(((lo + hi) / 2 - target) / Fraction(2) ** qz.root_scale / step)
        rows[i][0] -= shift * step
    values = [[quantize.round_nearest(row[j] * Fraction(2) ** qz.const_scales[j]) for j in range(len(row))]
              for row in rows]
    try:
        moved = quantize.quantize(qz.scheme, seg, rows, forced_scales=qz.const_scales,
                                  forced_ints=values, root_margin=root_margin(cfg))
    except GenError:
        return qz, reports
    new_reports = []
    for i, (s, minimax, iterations, extrema, approx, _) in enumerate(reports):
        change = moved.coefficients(i)[0] - qz.coefficients(i)[0]
        new_reports.append([s, minimax, iterations, extrema, approx.shifted(change),
                            quantize.eval_error(moved, s.index)])
    return moved, new_reports


def _grid_distance(cfg: KernelConfig, seg: Segmentation, s: Segment, qz: quantize.Quantized) -> Fraction:
    """Distance from the target function at the segment's start to the grid
    of the constant coefficient (step 2^-s_0), from a 60-digit value."""
    with mpmath.workdps(60):
        value = mpf_to_fraction(target_function(cfg, Fraction(s.z_first, 1 << cfg.word_bits),
                                                seg.pre_shift)(mpmath.mpf(0)))
    scaled = value * Fraction(2) ** qz.const_scales[0]
    return abs(scaled - quantize.round_nearest(scaled)) / Fraction(2) ** qz.const_scales[0]


def _core_interval(qz: quantize.Quantized, approx: bounds.ApproxBound,
                   eps: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    """Root word minus target * 2^s_root: approximation plus evaluation, signed."""
    scale = Fraction(2) ** qz.root_scale
    return approx.lo * scale + eps[0], approx.hi * scale + eps[1]


def _to_z(seg: Segmentation, s: Segment, points: Any) -> tuple[int, ...]:
    scale = 1 << (seg.word_bits - seg.pre_shift)
    out = set()
    for v in points:
        t = int(mpmath.nint(v * scale))
        out.add(min(max(s.z_first + t, s.z_first), s.z_last))
    return tuple(sorted(out))


def _total_intervals(cfg: KernelConfig, qz: quantize.Quantized, approx: bounds.ApproxBound,
                     eps: tuple[Fraction, Fraction], seg_index: int,
                     final_delta: Optional[Fraction] = None
                     ) -> tuple[tuple[Fraction, Fraction], Optional[tuple[Fraction, Fraction]]]:
    """Proven intervals of _eval - f 2^S (units 2^-S) and _expm_p63 - ideal
    (units 2^-63); the derivations are in docs/error-model.md."""
    s_root, S = qz.root_scale, cfg.scale_bits
    q = s_root - S
    core_lo, core_hi = _core_interval(qz, approx, eps)   # units of 2^-s_root
    unit = Fraction(2) ** -q
    half = Fraction(1, 2) if q > 0 else Fraction(0)
    # Rounding (u + 2^(q-1)) >> q adds rho in [-1/2, 1/2).
    lo, hi = core_lo * unit - half, core_hi * unit + half
    eval_iv = (lo, hi) if cfg.form == "direct" else (-hi, -lo)
    if cfg.word_bits != 64:
        return eval_iv, None
    to63 = Fraction(2) ** (63 - s_root)
    if cfg.form == "direct" and final_delta is not None:
        # Truncated w U (gen/limbs.py): below w U / 2^64 by at most
        # final_delta units of 2^-s_root, then floored to 2^-63 if s_root > 63.
        loss = final_delta * to63 + (1 if s_root > 63 else 0)
        return eval_iv, (min(Fraction(0), core_lo * to63) - loss, max(Fraction(0), core_hi * to63))
    if cfg.form == "direct":
        # floor(w U / 2^64) moved to scale 2^63; w / 2^64 in [0, 1); the floor
        # loses less than one unit of the result's scale.
        floor_unit = Fraction(1) if s_root >= 63 else to63
        return eval_iv, (min(Fraction(0), core_lo * to63) - floor_unit, max(Fraction(0), core_hi * to63))
    # one_minus: N = w 2^64 - (w C >> (s - 64)), out = round(N / 2^65); the
    # shift loses phi / 2^65 with phi < 1 (nothing when s <= 64).  A wide
    # root floors w C_lo / 2^64 instead: the same phi.
    phi = Fraction(1, 1 << 65) if s_root > 64 or cfg.wide else Fraction(0)
    if qz.tail is not None:
        return eval_iv, _tail_expm_interval(qz, approx, seg_index, phi)
    return eval_iv, (-max(Fraction(0), core_hi * to63) - Fraction(1, 2),
                     -min(Fraction(0), core_lo * to63) + phi + Fraction(1, 2))


def _mantissa_interval(qz: quantize.Quantized, approx: bounds.ApproxBound, eps: tuple[Fraction, Fraction],
                       final_delta: Fraction) -> tuple[Fraction, Fraction]:
    """The mantissa adaptor minus ccs f 2^63, units of 2^-63 (root word at
    scale 2^64).  ccs = M 2^-(63 + s) with M its significand, 2^63 <= M < 2^64
    (M = 2^63, s = 0 for ccs = 1), s >= 0; the adaptor returns
    out = floor(P / 2^s), P the truncated product of M and U (below
    M U / 2^64 by Delta in [0, final_delta]).  With U = f 2^64 + e:
        out - ccs f 2^63 = ccs e / 2 - Delta / 2^s - rho,  rho in [0, 1),
    so the core error is halved and scaled by ccs <= 1, and the truncation
    costs at most final_delta (s = 0: ccs = 1) and the floor less than 1.
    Where the shift count is clamped (ccs < 2^-63, zero, subnormal) the
    result is at most 1 and the ideal below 1: within the same bound."""
    core_lo, core_hi = _core_interval(qz, approx, eps)
    half = Fraction(1, 2)
    return min(Fraction(0), core_lo * half) - final_delta - 1, max(Fraction(0), core_hi * half)


def _tail_expm_interval(qz: quantize.Quantized, approx: bounds.ApproxBound, seg_index: int,
                        phi: Fraction) -> tuple[Fraction, Fraction]:
    """_expm_p63 - ideal (units of 2^-63) of a kernel with a binary64 tail.

    With c = w / 2^64, C = U_int 2^(128 - s_i) (the integer part, exact
    shift) and U' the tail word computed with c (gen/floattail.py),
    N = w 2^64 - w C_hi - floor(w C_lo / 2^64) - U' 2^(128 - s_t) and the
    result is round(N / 2^65).  Writing U_int = p_int 2^s_i + eps_int and
    U' = c p_tail 2^s_t + eps', the result minus c f 2^63 is
        -c (p - g + eps_int 2^-s_i) 2^63 - eps' 2^(63 - s_t) + phi + rho,
    rho in [-1/2, 1/2]: the one_minus terms plus the tail's own error.
    (for a tail of sign -1, U' is added instead).  N cannot leave
    [0, 2^128): U' <= c (U_1 + 1)(1 + 2^-50) with U_1 the largest tail word
    at c = 1 (c enters the tail by one product, so a smaller c only scales
    it, up to two roundings).  Sign +1: N >= c 2^128 (1 - C / 2^128 -
    (U_1 + 1)(1 + 2^-50) / 2^s_t) > 0, checked.  Sign -1: U' = 0 below
    v = 2^-11 (proven with the tail), and above it the added tail is at
    most the subtracted c C, checked, so N <= w 2^64 < 2^128."""
    tail = qz.tail
    assert tail is not None
    root = qz.scheme.nodes[qz.root]
    integer_root = root.args[0]
    s_i, s_t = qz.scales[integer_root], tail.scale
    if s_i > 128 or s_t > 128:
        raise GenError("float_tail: both parts must have scales of at most 2^128")
    eps_int = quantize.node_errors(qz, seg_index)[integer_root]
    tail_top = Fraction(max(hi for _, hi in tail.ranges[seg_index]) + 1) * (1 + Fraction(1, 1 << 50))
    if tail.sign > 0:
        c_max = Fraction(qz.ranges[seg_index][integer_root][1] + 1) / Fraction(2) ** s_i
        if c_max + tail_top / Fraction(2) ** s_t >= 1:
            raise GenError("float_tail: the integer part and the tail may reach 1: N could wrap")
    elif tail_top * Fraction(2) ** (128 - s_t) > _integer_floor(qz, seg_index, tail.zero_below, eps_int[0]) \
            * Fraction(2) ** (128 - s_i):
        raise GenError("float_tail: the subtracted tail may exceed the integer part: N could wrap")
    to63 = Fraction(2) ** (63 - s_i)
    core_lo = approx.lo * Fraction(2) ** s_i + eps_int[0]
    core_hi = approx.hi * Fraction(2) ** s_i + eps_int[1]
    e_lo, e_hi = (tail.sign * e * Fraction(2) ** (63 - s_t) for e in tail.eps_expm[seg_index])
    e_lo, e_hi = min(e_lo, e_hi), max(e_lo, e_hi)
    return (-max(Fraction(0), core_hi * to63) - e_hi - Fraction(1, 2),
            -min(Fraction(0), core_lo * to63) - e_lo + phi + Fraction(1, 2))


def _integer_floor(qz: quantize.Quantized, seg_index: int, v_from: Fraction, eps_lo: Fraction) -> Fraction:
    """A lower bound of the integer part's word U_int for v >= v_from: on
    pieces doubling from v_from up to the segment's end, each monomial a_j v^j is monotone, so its
    smaller end bounds it; the computed word is at least that times 2^s_i
    plus eps_lo."""
    if v_from <= 0:
        return Fraction(0)
    root = qz.scheme.nodes[qz.root]
    integer_root = root.args[0]
    first = qz.tail.first if qz.tail is not None else qz.degree + 1
    coeffs = qz.coefficients(seg_index)[:first]
    var = next(n for n, node in enumerate(qz.scheme.nodes) if node.kind == "var")
    v_max = Fraction(qz.ranges[seg_index][var][1], 1 << qz.word_bits)
    bounds = []
    a = v_from
    while a < v_max:
        b = min(2 * a, v_max)
        bounds.append(sum(min(c * a ** j, c * b ** j) for j, c in enumerate(coeffs)))
        a = b
    return max(Fraction(0), min(bounds) * Fraction(2) ** qz.scales[integer_root] + eps_lo)


def _check_budget(kernel: Kernel) -> None:
    budget = kernel.cfg.max_abs_error_log2
    if budget is None:
        return
    absolute = kernel.eval_bound_ulp / Fraction(2) ** kernel.cfg.scale_bits
    for bound in (kernel.expm_bound_2p63, kernel.fpr_bound_2p63):
        if bound is not None:
            absolute = max(absolute, bound / Fraction(2) ** 63)
    if log2(absolute) > budget:
        raise GenError(f"max_abs_error_log2: proven error 2^{log2(absolute):.2f} exceeds the budget "
                       f"2^{budget:g}; refusing to emit {kernel.cfg.name}")


def model_eval(kernel: Kernel, z: int) -> int:
    """The kernel's ``_eval(z)`` on the exact integer model."""
    qz = kernel.qz
    u = quantize.evaluate_core(qz, kernel.seg, z)
    q = qz.root_scale - kernel.cfg.scale_bits
    rounded = (u + (1 << (q - 1))) >> q if q > 0 else u
    return rounded if kernel.cfg.form == "direct" else (1 << kernel.cfg.scale_bits) - rounded


def model_expm(kernel: Kernel, z: int, w: int) -> int:
    """The kernel's ``_expm_p63(z, w)`` on the exact integer model (64-bit kernels)."""
    qz = kernel.qz
    if qz.tail is not None:
        integer_root = qz.scheme.nodes[qz.root].args[0]
        c = quantize.evaluate_nodes(qz, kernel.seg, z)[integer_root] << (128 - qz.scales[integer_root])
        tail = qz.tail.model(quantize.local_word(kernel.seg, z), w)
        n = ((w << 64) - w * (c >> 64) - ((w * (c & ((1 << 64) - 1))) >> 64)
             - qz.tail.sign * (tail << (128 - qz.tail.scale)))
        return (n >> 65) + ((n >> 64) & 1)
    u = quantize.evaluate_core(kernel.qz, kernel.seg, z)
    s = kernel.qz.root_scale
    if kernel.cfg.form == "direct" and kernel.final_plan is not None:
        p = kernel.final_plan.evaluate(w, u, check=True)
        return p >> (s - 63) if s >= 63 else p << (63 - s)
    if kernel.cfg.form == "direct":
        p = (w * u) >> 64
        return p >> (s - 63) if s >= 63 else p << (63 - s)
    if kernel.cfg.wide:
        c = u << (128 - s)
        n = (w << 64) - w * (c >> 64) - ((w * (c & ((1 << 64) - 1))) >> 64)
    else:
        p = w * u
        n = (w << 64) - (p >> (s - 64) if s >= 64 else p << (64 - s))
    return (n >> 65) + ((n >> 64) & 1)


LN2_DOWN_BITS = 0x3FE62E42FEFA39EF   # the largest double below ln 2


def fpr_to_q64(bits: int) -> int:
    """2 trunc(v 2^63) for 0 <= v < 1 from v's bits, as the adaptors compute it."""
    e = (bits >> 52) & 0x7FF
    m = ((bits & ((1 << 52) - 1)) | (1 << 52)) << 11
    return (m >> min(max(1022 - e, 0), 63)) & ~1


def model_mantissa(kernel: Kernel, z: int, m: int, s: int) -> int:
    """The mantissa adaptor's result for z and ccs = m 2^-(63 + s):
    floor(P / 2^s), P the truncated product of m and U (gen/limbs.py)."""
    assert kernel.mantissa_adaptor and 0 <= m < 1 << 64 and 0 <= s <= 63
    u = quantize.evaluate_core(kernel.qz, kernel.seg, z)
    return kernel.final_plan.evaluate(m, u, check=True) >> s


def model_fpr(kernel: Kernel, x_bits: int, ccs_bits: int) -> int:
    """The mantissa adaptor ``_fpr_expm_p63(x_bits, ccs_bits)`` with the
    documented edge rules (templates/falcon.h.j2), on the exact model."""
    abs_mask, inf_bits = (1 << 63) - 1, 0x7FF << 52
    xa, ca = x_bits & abs_mask, ccs_bits & abs_mask
    if x_bits >> 63 or xa > inf_bits:
        z = 0
    else:
        z = fpr_to_q64(min(xa, LN2_DOWN_BITS))
    if ccs_bits >> 63 or ca > inf_bits:
        return 0
    if ca >= 0x3FF << 52:
        m, s = 1 << 63, 0
    else:
        m = (1 << 63) | ((ca & ((1 << 52) - 1)) << 11)
        s = min(max(1023 - (ca >> 52), 0), 63)
    return model_mantissa(kernel, z, m, s)


def _self_check(kernel: Kernel) -> None:
    """Ryu-style: run the exact integer model on segment ends, error extrema
    and random inputs; assert no overflow and errors within the proven bounds."""
    cfg, seg, qz = kernel.cfg, kernel.seg, kernel.qz
    rng = random.Random(cfg.sha256)
    zs = {seg.z_lo, seg.z_max}
    for s in seg.segments:
        zs.update({s.z_first, s.z_last, (s.z_first + s.z_last) // 2})
        zs.update(kernel.segments[s.index].extrema_z)
    zs.update(rng.randint(seg.z_lo, seg.z_max) for _ in range(SELF_CHECK_RANDOM))
    eval_bound = kernel.eval_bound_ulp
    expm_bound = kernel.expm_bound_2p63
    fpr_bound = kernel.fpr_bound_2p63
    with mpmath.workdps(40):
        for z in sorted(zs):
            quantize.evaluate_core(qz, seg, z, check=True)
            x = int_to_mpf_exact(z, -cfg.word_bits)
            f = expr.evaluate(cfg.function_tree, x, mpmath.mp)
            err = abs(model_eval(kernel, z) - f * mpmath.mpf(2) ** cfg.scale_bits)
            if err > mpmath.mpf(eval_bound.numerator) / eval_bound.denominator:
                raise GenError(f"self-check: {cfg.name} at z={z} errs by {mpmath.nstr(err, 6)} units, "
                               f"above its proven bound {float(eval_bound):.6g}; refusing to emit")
            if kernel.mantissa_adaptor:
                m, sh = rng.randint(1 << 63, (1 << 64) - (1 << 11)) & ~((1 << 11) - 1), rng.choice((0, 1, 2, 9))
                if sh == 0:
                    m = 1 << 63
                ideal = mpmath.mpf(m) / 2 ** (63 + sh) * f * 2**63
                err = abs(model_mantissa(kernel, z, m, sh) - ideal)
                if err > mpmath.mpf(fpr_bound.numerator) / fpr_bound.denominator:
                    raise GenError(f"self-check: {cfg.name}_fpr_expm_p63 at z={z}, significand {m:#x}, shift "
                                   f"{sh} errs by {mpmath.nstr(err, 6)}, above its proven bound; refusing to emit")
            if expm_bound is not None:
                w = rng.randint(1 << 63, (1 << 64) - 1)
                err = abs(model_expm(kernel, z, w) - mpmath.mpf(w) / 2**64 * f * 2**63)
                if err > mpmath.mpf(expm_bound.numerator) / expm_bound.denominator:
                    raise GenError(f"self-check: {cfg.name}_expm_p63 at z={z}, w={w} errs by "
                                   f"{mpmath.nstr(err, 6)}, above its proven bound; refusing to emit")

"""Stage 3, fit: the config and the segmentation in, a :class:`Fit` out:
the coefficients of every segment, chosen once and for all.

Every loop that quantizes again lives here, on *trial* quantizations
(:mod:`.trial`): the real minimax fit (:mod:`.minimax`, Remez), a first
rounding, mixed precision (:mod:`.mixed`, 32-bit Horner steps),
evaluation-aware re-optimization (:mod:`.reoptimize`) and centring
(:mod:`.centre`, which needs each segment's proven approximation bound and
evaluation error).  The fit hands over the arguments of its last trial, so
that the quantization stage makes the same quantization once, and the
approximation bounds of exactly those coefficients, which the proof stage
uses (:mod:`gen.proof`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Callable, Optional

from .. import scheme as schemes
from ..config import KernelConfig
from ..errors import GenError
from ..parallel import parallel_map
from ..proof.approximation import ApproxBound, approximation_bound
from ..proof.evaluation import eval_error
from ..quantize import check_root_scale
from ..segments import Segmentation
from . import trial
from .centre import centre, grid_distance
from .minimax import fit_segment
from .mixed import mixed_precision
from .reoptimize import reoptimize
from .target import check_output_range, target_tree
from .trial import Trial


@dataclass(frozen=True)
class SegmentFit:
    """What the fit knows about one segment besides its coefficients."""

    minimax_error: Optional[float]     # real-coefficient Remez error (absolute), None if explicit
    remez_iterations: Optional[int]
    extrema_z: tuple[int, ...]         # inputs near the error extrema (the checker samples them)
    grid_distance: Fraction            # |target(x_first) - nearest point of a_0's grid|


@dataclass(frozen=True)
class Fit:
    trial: Trial                        # the last trial quantization and its arguments
    approx: tuple[ApproxBound, ...]     # proven p - f of exactly those coefficients, per segment
    segments: tuple[SegmentFit, ...]
    reoptimized: bool
    wide: int                           # the two-word Horner steps the fit used (wide = "auto" resolved)


# wide = "auto": the fewest two-word steps whose proven evaluation error
# (the root's eps interval, before the final rounding) is at most this wide,
# in units of 2^-S.  One step is enough where v and the last coefficients
# are small (tables of segments); one segment of exp(-x) at 2^-63 needs two.
AUTO_EPS_WIDTH = Fraction(1, 4)


def auto_wide(cfg: KernelConfig, seg: Segmentation, real: list[list[Fraction]]) -> int:
    """wide = "auto" (cfg.wide_auto): for n = 1 .. cfg.wide, quantize the
    fitted coefficients with the last n Horner steps on two words and take
    the first n whose proven evaluation error on every segment is at most
    AUTO_EPS_WIDTH units of 2^-S wide; cfg.wide if none is."""
    for n in range(1, cfg.wide + 1):
        trial_cfg = replace(cfg, wide=n)
        offset = root_offset(trial_cfg, real)
        try:
            t = trial.make(trial_cfg, schemes.build(cfg.evaluation, cfg.degree, n, cfg.float_tail), seg,
                           [[row[0] - offset] + row[1:] for row in real], cfg.coefficient_scales,
                           root_offset=offset)
        except GenError:
            continue
        unit = Fraction(2) ** (cfg.scale_bits - t.qz.root_scale)
        widths = [(hi - lo) * unit for lo, hi in (eval_error(t.qz, i) for i in range(len(seg.segments)))]
        if max(widths) <= AUTO_EPS_WIDTH:
            return n
    return cfg.wide


def root_offset(cfg: KernelConfig, real: list[list[Fraction]]) -> Fraction:
    """The constant a two-word direct root adds on every segment
    (Quantized.root_bias): the smallest a_0 on the grid 2^-W, less one
    step, so that the table stores a_0 minus it, which fits a word at a
    finer scale than a_0 itself (for exp(-x), a_0 of the first segment is
    about 1 and fits only at 2^-63); 0 for the other kernels."""
    if cfg.form != "direct" or not cfg.wide or cfg.explicit is not None:
        return Fraction(0)
    W = cfg.word_bits
    return Fraction((min(row[0] for row in real) * (1 << W)).__floor__() - 1, 1 << W)


def _first_trial(cfg: KernelConfig, seg: Segmentation, real: list[list[Fraction]]) -> tuple[Trial, bool]:
    """The rounded coefficients before centring, and whether re-optimization
    changed them."""
    plan = schemes.build(cfg.evaluation, cfg.degree, cfg.wide, cfg.float_tail)
    if cfg.multiplier == "truncated":
        assert cfg.truncation_budget_log2 is not None
        plan.truncation_budget = Fraction(2 ** cfg.truncation_budget_log2)
        if cfg.truncation_budgets_log2 is not None:
            plan.product_budgets = tuple(Fraction(2 ** b) for b in cfg.truncation_budgets_log2[:cfg.degree])
    if cfg.explicit is not None:
        g = seg.pre_shift
        scales = [cfg.explicit.scales[j] + g * j for j in range(cfg.degree + 1)]
        return trial.make(cfg, plan, seg, real, scales, cfg.explicit.values), False
    offset = root_offset(cfg, real)
    rows = [[row[0] - offset] + row[1:] for row in real]
    current = trial.make(cfg, plan, seg, rows, cfg.coefficient_scales, root_offset=offset)
    if cfg.multiplier == "truncated" and cfg.word_bits == 64:
        current = mixed_precision(cfg, seg, current)
    if cfg.reoptimize:
        better = reoptimize(cfg, seg, current.qz, real, offset)
        if better is not None:
            return better, True
    return current, False


def fit(cfg: KernelConfig, seg: Segmentation, progress: Callable[[str], None] = lambda _: None) -> Fit:
    """Run the fit stage for ``cfg``; see the module docstring."""
    check_output_range(cfg, seg)
    W, g = cfg.word_bits, seg.pre_shift
    fitted = parallel_map(fit_segment, [(cfg, seg, s) for s in seg.segments])
    real = [coeffs for coeffs, _ in fitted]
    progress(f"{cfg.name}: {seg.count} segment(s) fitted")
    if cfg.wide_auto:
        cfg = replace(cfg, wide=auto_wide(cfg, seg, real))
    current, reoptimized = _first_trial(cfg, seg, real)
    check_root_scale(cfg, current.qz)
    tree = target_tree(cfg)
    approx = parallel_map(approximation_bound,
                          [(tree, current.qz.coefficients(s.index), Fraction(s.z_first, 1 << W),
                            Fraction(s.t_max << g, 1 << W), g) for s in seg.segments])
    progress(f"{cfg.name}: {seg.count} segment(s) bounded")
    if cfg.explicit is None:
        centred = centre(cfg, seg, current.qz, approx)
        if centred is not None:
            current, approx = centred
    segments = tuple(SegmentFit(minimax, iterations, extrema, grid_distance(cfg, seg, s, current.qz))
                     for s, (_, (minimax, iterations, extrema)) in zip(seg.segments, fitted))
    return Fit(current, tuple(approx), segments, reoptimized, cfg.wide)

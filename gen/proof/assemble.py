"""The proof stage's driver: the quantized scheme and the fit's approximation
bounds in, a :class:`KernelProof` out (per segment, the evaluation error and
the intervals of every entry point's result; per kernel, the bounds the
headers state)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import log2
from typing import Optional, Sequence

from ..config import KernelConfig
from ..errors import GenError
from ..quantize import Quantized
from ..quantize.limbs import TruncPlan
from .approximation import ApproxBound
from .evaluation import eval_error
from .output import conversion_interval, mantissa_interval, total_intervals
from .truncation import loss_bound

Interval = tuple[Fraction, Fraction]


def _magnitude(iv: Interval) -> Fraction:
    return max(-iv[0], iv[1])


@dataclass(frozen=True)
class SegmentProof:
    """What is proven on one segment."""

    approx: ApproxBound                 # p_q - f, signed, absolute
    eval_error: Interval                # eps of the root word, units of 2^-s_root
    eval_interval: Interval             # _eval - f 2^S, units of 2^-S
    expm_interval: Optional[Interval]   # _expm_p63 - ideal, units of 2^-63 (64-bit kernels)
    fpr_interval: Optional[Interval]    # Falcon adaptors - ccs f(x) 2^63 for the doubles, units of 2^-63

    @property
    def eval_bound_ulp(self) -> Fraction:
        return _magnitude(self.eval_interval)

    @property
    def expm_bound_2p63(self) -> Optional[Fraction]:
        return None if self.expm_interval is None else _magnitude(self.expm_interval)

    @property
    def fpr_bound_2p63(self) -> Optional[Fraction]:
        return None if self.fpr_interval is None else _magnitude(self.fpr_interval)


@dataclass(frozen=True)
class KernelProof:
    segments: tuple[SegmentProof, ...]
    mantissa_adaptor: bool              # the Falcon adaptors take ccs by its significand

    @property
    def eval_bound_ulp(self) -> Fraction:
        return max(s.eval_bound_ulp for s in self.segments)

    @property
    def expm_bound_2p63(self) -> Optional[Fraction]:
        bounds = [s.expm_bound_2p63 for s in self.segments if s.expm_bound_2p63 is not None]
        return max(bounds) if bounds else None

    @property
    def fpr_bound_2p63(self) -> Optional[Fraction]:
        """Proven bound of the Falcon adaptors against the doubles passed,
        conversions included (gen/proof/output.py: conversion_interval and
        mantissa_interval)."""
        bounds = [s.fpr_bound_2p63 for s in self.segments if s.fpr_bound_2p63 is not None]
        return max(bounds) if bounds else None


def prove(cfg: KernelConfig, qz: Quantized, approx: Sequence[ApproxBound],
          final_plan: Optional[TruncPlan], mantissa_adaptor: bool) -> KernelProof:
    """Every segment's intervals; ``approx`` are the fit's proven
    approximation bounds of exactly qz's coefficients."""
    final_delta = loss_bound(final_plan) if final_plan is not None else None
    segments = []
    for i, bound in enumerate(approx):
        eps = eval_error(qz, i)
        eval_iv, expm_iv = total_intervals(cfg, qz, bound, eps, i, final_delta)
        fpr_iv = None if expm_iv is None else conversion_interval(expm_iv)
        if mantissa_adaptor:
            # An exact product (multiplier = "umaal") loses nothing but the
            # floor, which mantissa_interval counts.
            fpr_iv = mantissa_interval(qz, bound, eps, final_delta or Fraction(0))
        segments.append(SegmentProof(bound, eps, eval_iv, expm_iv, fpr_iv))
    return KernelProof(tuple(segments), mantissa_adaptor)


def check_adaptor_budget(cfg: KernelConfig, bound_2p63: Fraction) -> None:
    """Refuse a kernel with the Falcon adaptors only (forms eft and fold)
    whose proven bound (units of 2^-63) does not meet ``max_abs_error_log2``."""
    if cfg.max_abs_error_log2 is not None and bound_2p63 >= Fraction(2) ** 63 * 2 ** cfg.max_abs_error_log2:
        raise GenError(f"max_abs_error_log2: the proven bound {float(bound_2p63):.6f} units of 2^-63 "
                       f"(2^{log2(bound_2p63) - 63:.3f}) does not meet the budget 2^{cfg.max_abs_error_log2:g}")


def check_budget(cfg: KernelConfig, proof: KernelProof) -> None:
    """Refuse a kernel whose proven error exceeds ``max_abs_error_log2``."""
    budget = cfg.max_abs_error_log2
    if budget is None:
        return
    absolute = proof.eval_bound_ulp / Fraction(2) ** cfg.scale_bits
    for bound in (proof.expm_bound_2p63, proof.fpr_bound_2p63):
        if bound is not None:
            absolute = max(absolute, bound / Fraction(2) ** 63)
    if log2(absolute) > budget:
        raise GenError(f"max_abs_error_log2: proven error 2^{log2(absolute):.2f} exceeds the budget "
                       f"2^{budget:g}; refusing to emit {cfg.name}")

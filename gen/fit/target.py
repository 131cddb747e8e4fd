"""What the polynomials approximate: the target function of a segment (f,
or 1 - f in one_minus form) in the segment's local variable, and the
check that the function is positive and fits the output word on the
domain."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import mpmath

from .. import expr
from ..config import KernelConfig
from ..errors import GenError
from ..exact import int_to_mpf_exact
from ..segments import Segmentation


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



def check_output_range(cfg: KernelConfig, seg: Segmentation) -> None:
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

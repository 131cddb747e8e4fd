"""The loss of a truncated limb product (:mod:`gen.quantize.limbs`): a
proven bound on how far below floor(A B / 2^D) the emitted C may land.

With S = sum over skipped partial products (i, j) of a_i b_j 2^(p_i + q_j)
and phi_g the fractional part of each right-shifted accumulator,

    A B / 2^D - result = S / 2^D + sum_g phi_g,

so 0 <= A B / 2^D - result <= S_max / 2^D + n_right, S_max bounding S by
the limbs' largest values over the operands' proven ranges and n_right the
number of right-shifted accumulators (each phi_g < 1).  Input: a plan;
output: that bound, an exact rational in units of the result.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..quantize.limbs import TruncPlan


def skipped_max(plan: "TruncPlan") -> int:
    """S_max: bound of the skipped partial products, at the product's scale."""
    return sum(plan.partial_max(i, j) << (plan.a[i].pos + plan.b[j].pos) for i, j in plan.skipped)


def right_shifts(plan: "TruncPlan") -> int:
    """The number of accumulators shifted right (each may drop a fraction)."""
    return sum(1 for g in range(len(plan.groups)) if plan.position(g) < plan.drop)


def loss_bound(plan: "TruncPlan") -> Fraction:
    """0 <= A B / 2^D - result <= this, for every A <= a_hi, B <= b_hi."""
    return Fraction(skipped_max(plan), 1 << plan.drop) + right_shifts(plan)

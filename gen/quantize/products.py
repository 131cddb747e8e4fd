"""Quantization of products computed from limbs: a product on a 32-bit
(narrow) step, or a truncated limb product (multiplier = "truncated",
:mod:`gen.quantize.limbs`): its scale, its plan (chosen from the operands'
proven maxima over every segment, the same C code for all) and its proven
range."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Optional

from ..errors import GenError
from ..proof.truncation import loss_bound
from . import limbs
from .base import Interval, operand_shift

if TYPE_CHECKING:
    from . import State


def quantize_limb_mul(st: "State", n: int) -> None:
    """Scale, plan and ranges of limb product n."""
    scheme, node = st.scheme, st.scheme.nodes[n]
    a, b = node.args
    if not node.narrow and any(scheme.nodes[x].narrow for x in node.args):
        raise GenError(f"quantize: {node.label} multiplies a 32-bit step on 64 bits (not supported)")
    drop = 32 if node.narrow else st.W
    sh = [operand_shift(scheme, n, x, st.W) for x in (a, b)]
    st.scales[n] = st.scales[a] - sh[0] + st.scales[b] - sh[1] - drop
    his = [max(hi for i in range(st.nsegs) for _, hi in st.ranges[i][x]) >> r for x, r in zip((a, b), sh)]
    plan = None
    budget = scheme.budget_for(n)
    if budget is not None:
        plan = limbs.plan(his[0], his[1], drop, budget * Fraction(2) ** st.scales[n])
    st.plans[n] = plan
    for i, rs in enumerate(limb_mul_ranges(st, n, plan)):
        st.ranges[i][n] = rs


def limb_mul_ranges(st: "State", n: int, plan: Optional[limbs.TruncPlan]) -> list[list[Interval]]:
    """Per segment and piece, the proven range of limb product n: at most the
    exact floor(A B / 2^D), at least that minus ceil(loss bound), >= 0."""
    a, b = st.scheme.nodes[n].args
    sa, sb = (operand_shift(st.scheme, n, x, st.W) for x in (a, b))
    drop = plan.drop if plan else 32
    bound = loss_bound(plan) if plan else Fraction(0)
    loss = -(-bound.numerator // bound.denominator)
    return [[(max(0, ((alo >> sa) * (blo >> sb) >> drop) - loss), ((ahi >> sa) * (bhi >> sb)) >> drop)
             for (alo, ahi), (blo, bhi) in zip(st.ranges[i][a], st.ranges[i][b])] for i in range(st.nsegs)]

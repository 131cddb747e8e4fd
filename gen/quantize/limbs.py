"""Truncated limb products: which partial products a multiply-high keeps,
what the emitted C computes, and a proven bound on what it loses.

A product node mulhi(A, B) = floor(A B / 2^D) (D = the word size) is built,
with ``multiplier = "truncated"``, from L-bit limbs (L = LIMB_BITS = 15):

* each operand is cut into limbs from the top of its *proven range*
  (bit length of its largest value) downwards, A = sum_i a_i 2^(p_i), every
  limb but the last L bits wide, the last one reaching bit 0 (or, for
  values wider than 32 bits, one of the layouts of :func:`layouts` that do
  not cross bit 32; the cheapest plan by :func:`cost` is taken);
* a partial product a_i b_j (< 2^32, checked from the limbs' maxima) is
  *kept* or *skipped*; the kept ones
  with the same position p_i + q_j are summed in a 32-bit accumulator (an
  accumulator never holds more than fits 32 bits: the maxima of its limbs,
  from the proven ranges, say so; otherwise the column is split);
* the result is sum_g shift(acc_g, pos_g - D), each right shift a floor
  (the "dropped carries"), each left shift exact.

On a Cortex-M3 a limb is one UBFX/LSR (two instructions when it straddles
the two halves of a 64-bit word), a partial product one MUL or MLA
(1 or 2 cycles whatever the operands), and no UMULL is needed.

Error.  With S = sum over skipped (i, j) of a_i b_j 2^(p_i + q_j) and
phi_g the fractional part of each right-shifted accumulator,
    A B / 2^D - result = S / 2^D + sum_g phi_g,
so 0 <= A B / 2^D - result <= S_max / 2^D + n_right, where S_max bounds S
by the limbs' maxima (maxlimb_i(A) = min(2^bits - 1, A_max >> p_i)) and
n_right is the number of right-shifted accumulators (each phi_g < 1).
:func:`gen.proof.truncation.loss_bound` proves that bound; :func:`TruncPlan.evaluate`
is the exact integer model of the C.  Which partial products are skipped is
chosen greedily, smallest bound first, while the bound stays within a budget.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..proof.truncation import loss_bound

LIMB_BITS = 15
ACC_TOP = (1 << 32) - 1


@dataclass(frozen=True)
class Limb:
    pos: int    # limb = (U >> pos) & (2^bits - 1)
    bits: int

    def of(self, value: int) -> int:
        return (value >> self.pos) & ((1 << self.bits) - 1)

    def max_for(self, hi: int) -> int:
        """Largest value of this limb for 0 <= U <= hi."""
        return min((1 << self.bits) - 1, hi >> self.pos)


def limbs_for(hi: int, limb_bits: int = LIMB_BITS, split: int = 0) -> tuple[Limb, ...]:
    """Limbs of a value in [0, hi], from the top of hi down to bit 0; with
    ``split`` (32 for a 64-bit word on a 32-bit core) no limb crosses that
    bit, so each is one shift-and-mask of one register."""
    top = max(hi.bit_length(), 1)
    out = []
    while top > 0:
        pos = max(top - limb_bits, 0)
        if split and pos < split < top:
            pos = split
        out.append(Limb(pos, top - pos))
        top = pos
    return tuple(out)


def layouts(hi: int, limb_bits: int = LIMB_BITS) -> list[tuple[Limb, ...]]:
    """Candidate limb layouts of a value in [0, hi]: uniform limbs from the
    top; for a value wider than 32 bits also the layout cut at bit 32 and
    one where no limb crosses bit 32 because the bits above it are shared
    by limbs of at most limb_bits + 2 bits (each limb one shift-and-mask;
    whether the wider partial products still fit their accumulators is
    decided by the grouping, from the proven maxima)."""
    out = [limbs_for(hi, limb_bits)]
    top = max(hi.bit_length(), 1)
    if top > 32:
        out.append(limbs_for(hi, limb_bits, 32))
        count = -(-(top - 32) // (limb_bits + 2))
        cuts = [32 + (top - 32) * k // count for k in range(count, -1, -1)]
        upper = tuple(Limb(lo, hi_ - lo) for hi_, lo in zip(cuts, cuts[1:]))
        lower = tuple(Limb(l.pos, l.bits) for l in limbs_for((1 << 32) - 1, limb_bits))
        if upper + lower not in out:
            out.append(upper + lower)
    return out


def straddles(limb: Limb, split: int = 32) -> bool:
    return limb.pos < split < limb.pos + limb.bits


@dataclass(frozen=True)
class TruncPlan:
    drop: int                                   # D
    a: tuple[Limb, ...]
    b: tuple[Limb, ...]
    a_hi: int
    b_hi: int
    groups: tuple[tuple[tuple[int, int], ...], ...]   # accumulators: (i, j) pairs of one position
    skipped: tuple[tuple[int, int], ...]

    def position(self, g: int) -> int:
        i, j = self.groups[g][0]
        return self.a[i].pos + self.b[j].pos

    def partial_max(self, i: int, j: int) -> int:
        return self.a[i].max_for(self.a_hi) * self.b[j].max_for(self.b_hi)

    @property
    def kept(self) -> int:
        return sum(len(g) for g in self.groups)

    def accumulators(self, a: int, b: int) -> list[int]:
        return [sum(self.a[i].of(a) * self.b[j].of(b) for i, j in g) for g in self.groups]

    def evaluate(self, a: int, b: int, check: bool = False) -> int:
        """Exactly what the emitted C computes (a <= a_hi, b <= b_hi)."""
        out = 0
        for g, acc in enumerate(self.accumulators(a, b)):
            if check and acc > ACC_TOP:
                raise AssertionError(f"accumulator {g} overflows 32 bits: {acc}")
            r = self.position(g) - self.drop
            out += acc << r if r >= 0 else acc >> -r
        return out


def _group(a: tuple[Limb, ...], b: tuple[Limb, ...], a_hi: int, b_hi: int,
           kept: list[tuple[int, int]]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Kept pairs by position (highest first), each column split into
    accumulators whose proven maximum fits 32 bits."""
    by_pos: dict[int, list[tuple[int, int]]] = {}
    for i, j in sorted(kept):
        by_pos.setdefault(a[i].pos + b[j].pos, []).append((i, j))
    groups = []
    for pos in sorted(by_pos, reverse=True):
        current: list[tuple[int, int]] = []
        total = 0
        for i, j in by_pos[pos]:
            m = a[i].max_for(a_hi) * b[j].max_for(b_hi)
            if m > ACC_TOP:
                raise ValueError(f"limbs: a partial product of limbs {a[i]} and {b[j]} can exceed 32 bits")
            if current and total + m > ACC_TOP:
                groups.append(tuple(current))
                current, total = [], 0
            current.append((i, j))
            total += m
        groups.append(tuple(current))
    return tuple(groups)


def cost(p: TruncPlan) -> int:
    """Estimated Cortex-M3 instructions: one MUL/MLA per kept partial
    product, one per limb used (two more when it straddles bit 32), two per
    accumulator (shift and add)."""
    used_a = {i for g in p.groups for i, _ in g}
    used_b = {j for g in p.groups for _, j in g}
    limbs_cost = sum(1 + 2 * straddles(p.a[i]) for i in used_a) + sum(1 + 2 * straddles(p.b[j]) for j in used_b)
    return p.kept + limbs_cost + 2 * len(p.groups)


def plan(a_hi: int, b_hi: int, drop: int, budget: Fraction, limb_bits: int = LIMB_BITS) -> TruncPlan:
    """The cheapest (:func:`cost`) of the plans for the limb layouts with and
    without a cut at bit 32 (for operands wider than 32 bits); see
    :func:`plan_for`."""
    best: TruncPlan | None = None
    for la in layouts(a_hi, limb_bits):
        for lb in layouts(b_hi, limb_bits):
            if max(x.max_for(a_hi) for x in la) * max(y.max_for(b_hi) for y in lb) > ACC_TOP:
                continue   # some partial product alone would not fit 32 bits
            p = plan_for(la, lb, a_hi, b_hi, drop, budget)
            if best is None or (cost(p), loss_bound(p)) < (cost(best), loss_bound(best)):
                best = p
    assert best is not None
    return best


def plan_for(a: tuple[Limb, ...], b: tuple[Limb, ...], a_hi: int, b_hi: int, drop: int,
             budget: Fraction) -> TruncPlan:
    """The plan that skips the longest run of partial products, smallest
    bound first, whose loss bound is <= budget (units of the result: one
    unit of floor(A B / 2^D)); every run length is tried, since dropping a
    whole accumulator also drops its floor.  If none fits the budget (even
    the full product loses up to one unit per right-shifted accumulator),
    the run with the smallest bound."""
    pairs = [(i, j) for i in range(len(a)) for j in range(len(b))]
    weight = {p: Fraction(a[p[0]].max_for(a_hi) * b[p[1]].max_for(b_hi) << (a[p[0]].pos + b[p[1]].pos),
                          1 << drop) for p in pairs}
    order = sorted(pairs, key=lambda p: (weight[p], p))

    def make(skip: list[tuple[int, int]]) -> TruncPlan:
        keep = sorted(set(pairs) - set(skip))
        return TruncPlan(drop, a, b, a_hi, b_hi, _group(a, b, a_hi, b_hi, keep), tuple(sorted(skip)))

    runs = [make(order[:k]) for k in range(len(order))]   # at least one partial product kept
    fitting = [p for p in runs if loss_bound(p) <= budget]
    if fitting:
        return fitting[-1]
    return min(runs, key=lambda p: (loss_bound(p), p.kept))

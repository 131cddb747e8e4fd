"""Quantization of sums: the scale of each sum node (the largest that
provably fits its width), the shifts that align its operands, the integers
of the constants it adds, and, for truncated products that feed one sum,
folding the alignment shift into the product (:func:`fold_shifts`)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from ..errors import GenError
from .base import Interval, shift
from .products import limb_mul_ranges

if TYPE_CHECKING:
    from . import State

Consts = dict[int, tuple[int, list[int]]]   # const node -> (its scale, its integer per segment)


def _candidates(st: "State", n: int, width: int, bits: int) -> tuple[Sequence[int], bool]:
    """The scales to try for sum n, best first, and whether one is forced
    (a forced constant scale of a word-wide sum fixes the sum's)."""
    scheme, node = st.scheme, st.scheme.nodes[n]
    const_args = [a for a in node.args if scheme.nodes[a].kind == "const"]
    forced = [] if node.wide else [st.forced_scale(scheme.nodes[a].power) for a in const_args
                                   if st.forced_scale(scheme.nodes[a].power) is not None]
    if forced:
        return [forced[0]], True
    sample = max((abs(sum(r[j] for j in range(len(r)))) for r in st.coeffs), default=Fraction(1))
    start = max([st.guess(sample) + bits - width]
                + [st.scales[a] for a in node.args if scheme.nodes[a].kind != "const"])
    return range(start + 2, start - 4 * width, -1), False


def _const_at(st: "State", n: int, a: int, s: int, width: int) -> tuple[int, list[int]]:
    """Scale and integers of constant a in sum n at the sum's scale s.  In a
    word-wide sum a constant is stored at the sum's scale (modulo 2^W); in a
    wide sum it is stored at the largest scale at which it fits a word (at
    most the sum's) and shifted left, exactly."""
    j = st.scheme.nodes[a].power
    assert j is not None
    if not st.scheme.nodes[n].wide:
        return s, st.integers(j, s)
    forced = st.forced_scale(j)
    if forced is not None:
        return forced, st.integers(j, forced)
    word_top = (1 << width) - 1
    sc = s
    while True:
        ks = st.integers(j, sc)
        if all(0 <= k <= word_top for k in ks) or sc < s - 4 * width:
            return sc, ks
        sc -= 1


def _trial(st: "State", n: int, consts: Consts, shifts: list[int], signs: list[int], top: int,
           room: int, bias: int = 0) -> Optional[list[list[Interval]]]:
    """The sum's ranges per segment and piece (the constant ``bias``
    added) if every shifted operand and the sum (plus ``room``) fit
    [0, top]; None if not."""
    node = st.scheme.nodes[n]
    new_ranges: list[list[Interval]] = []
    for i in range(st.nsegs):
        per_piece = []
        reference = next(a for a in node.args if a not in consts)
        for p in range(len(st.ranges[i][reference])):
            lo = hi = bias
            for a, sign, r in zip(node.args, signs, shifts):
                if a in consts:
                    tlo = thi = shift(consts[a][1][i], r)
                else:
                    alo, ahi = st.ranges[i][a][p]
                    tlo, thi = shift(alo, r), shift(ahi, r)
                    if thi > top:
                        return None
                lo, hi = (lo + tlo, hi + thi) if sign > 0 else (lo - thi, hi - tlo)
            if not (0 <= lo and hi + room <= top):
                return None
            per_piece.append((lo, hi))
        new_ranges.append(per_piece)
    return new_ranges


def choose_add(st: "State", n: int, width: int, margin: Callable[[int], int],
               offset: Fraction = Fraction(0)) -> None:
    """Pick the largest scale of sum node n that provably fits its width
    (``width`` bits, or twice that for a wide sum) and record it; ``offset``
    is a real constant the sum adds (only the root's has one), which must be
    a whole number of units of the sum's scale."""
    scheme, node = st.scheme, st.scheme.nodes[n]
    bits = 2 * width if node.wide else width
    top, word_top = (1 << bits) - 1, (1 << width) - 1
    signs = [st.signs[n] * st.signs[a] for a in node.args]
    if max(signs) < 0:
        raise GenError(f"quantize: both operands of {node.label} have the wrong sign")
    const_args = [a for a in node.args if scheme.nodes[a].kind == "const"]
    candidates, forced = _candidates(st, n, width, bits)
    for s in candidates:
        bias = offset * st.signs[n] * Fraction(2) ** s
        if bias.denominator != 1:
            continue
        consts = {a: _const_at(st, n, a, s, width) for a in const_args}
        shifts = [consts[a][0] - s if a in consts else st.scales[a] - s for a in node.args]
        if any(not -(bits - 1) <= r <= bits - 1 for r in shifts):
            continue
        if node.wide and any(not all(0 <= k <= word_top for k in ks) or sc > s for sc, ks in consts.values()):
            continue
        new_ranges = _trial(st, n, consts, shifts, signs, top, margin(s), int(bias))
        if new_ranges is None:
            continue
        st.scales[n] = s
        st.terms[n] = tuple((sign, r) for sign, r in zip(signs, shifts))  # type: ignore[assignment]
        for a, (sc, ks) in consts.items():
            j = scheme.nodes[a].power
            assert j is not None
            st.scales[a], st.const_scales[j] = sc, sc
            for i in range(st.nsegs):
                st.ints[i][j] = ks[i]
                st.ranges[i][a] = [(ks[i], ks[i])] * len(new_ranges[i])
        for i in range(st.nsegs):
            st.ranges[i][n] = new_ranges[i]
        return
    what = f"at the forced scale {candidates[0]}" if forced else "at any scale"
    raise GenError(f"coefficient_scales: {node.label} overflows a {bits}-bit word {what}")


def fold_shifts(st: "State", n: int, margin: Callable[[int], int]) -> None:
    """A truncated product that feeds only sum n, shifted by r there, is
    computed at the sum's scale instead: its accumulators are shifted by
    D + r (one floor each, counted by the loss bound) and the sum adds it
    unshifted, which saves a shift of a 64-bit word on a 32-bit core.  Kept
    only if the sum's range proof still holds with the product's new range."""
    scheme, node = st.scheme, st.scheme.nodes[n]
    top = (1 << (32 if node.narrow else st.W)) - 1
    current = st.terms[n]
    assert current is not None
    for k, a in enumerate(node.args):
        sign, r = current[k]
        plan = st.plans[a]
        if plan is None or r == 0 or len(st.users[a]) != 1:
            continue
        moved = replace(plan, drop=plan.drop + r)
        new_a = limb_mul_ranges(st, a, moved)
        if any(hi >> (32 if scheme.nodes[a].narrow else st.W) for rs in new_a for _, hi in rs):
            continue   # the product itself would not fit its word at the sum's scale
        trial_terms = tuple((sg, 0 if j == k else rr) for j, (sg, rr) in enumerate(current))
        new_n = _folded_ranges(st, n, k, new_a, trial_terms, top, margin(st.scales[n]))
        if new_n is None:
            continue
        st.plans[a] = moved
        st.scales[a] -= r
        current = trial_terms  # type: ignore[assignment]
        for i in range(st.nsegs):
            st.ranges[i][a] = new_a[i]
            st.ranges[i][n] = new_n[i]
    st.terms[n] = current


def _folded_ranges(st: "State", n: int, k: int, new_a: list[list[Interval]],
                   terms: tuple[tuple[int, int], ...], top: int, room: int) -> Optional[list[list[Interval]]]:
    """Sum n's ranges with operand k replaced by ``new_a`` and the operands
    aligned by ``terms``; None if an operand or the sum may overflow."""
    node = st.scheme.nodes[n]
    ok = True
    new_n = []
    for i in range(st.nsegs):
        per_piece = []
        for p in range(len(st.ranges[i][n])):
            lo = hi = 0
            for j, (b, (sg, rr)) in enumerate(zip(node.args, terms)):
                blo, bhi = new_a[i][p] if j == k else st.ranges[i][b][p]
                tlo, thi = shift(blo, rr), shift(bhi, rr)
                if st.scheme.nodes[b].kind != "const" and thi > top:
                    ok = False
                lo, hi = (lo + tlo, hi + thi) if sg > 0 else (lo - thi, hi - tlo)
            ok = ok and 0 <= lo and hi + room <= top
            per_piece.append((lo, hi))
        new_n.append(per_piece)
    return new_n if ok else None

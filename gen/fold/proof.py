"""The error bound of a form = "fold" kernel, in units of 2^-63, against the
exact value ccs exp(-x) 2^63 of the doubles passed (docs/error-model.md,
"Form fold"; gen/fold/design.py has the kernel's formulas).

Write x' = z / 2^64 (z = 2 trunc(x 2^63), so 0 <= x - x' < 2^-63),
C = trunc(ccs 2^63) (0 <= ccs 2^63 - C < 1) and p the quantized
polynomial (Design.polynomial).  Then

    out - ccs e^-x 2^63 = (R - C p(x'))                       [evaluation]
                        + C (p - f)(x')                        [approximation]
                        + C (e^-x' - e^-x) - (ccs 2^63 - C) e^-x   [conversions]

* Evaluation, on pieces of z (exact rational interval arithmetic): every
  word carries the range of the exact value it stands for (the same
  formula without floors, p's coefficients, at x') and the range of the
  computed word minus that.  Each floor (hi) adds (-1, 0] units of its
  word; a product carries its operands' errors (a e_b + b e_a + e_a e_b).
  F stands for C h(x'), h(y) = y^s |k_s(y)|; its error is the binary64
  program's at the v and c it reads, enclosed by gen.proof.float_tail.analyse
  (one rounding per operation, an FMA one of the exact a b + c) for c in
  [1, 2^63], plus the rounding of CVTSD2SI (1/2), plus reading c =
  max(ccs 2^63, 1) rather than C ((c - C) h, c - C in [0, 1]) and
  v = max(x 2^63, 2^40) rather than x' (C times the mean value theorem
  with an interval of h').  Every middle word K_j is proven to lie in
  [0, 2^64), so no subtraction wraps, and so is R = C - A + hi(B, K_2)
  +- F: when F is subtracted (s odd), for C <= 2^8 the program is proven
  to round to F = 0 (R = C - A + hi(B, K_2) >= 0), and for C >= 2^8 the
  exact C p(x') exceeds the evaluation error.
* Approximation: sup |p - f| on [0, ln 2] by gen.proof.approximation
  (a Taylor model in interval arithmetic), times C <= 2^63.
* Conversions: C (e^-x' - e^-x) lies in [0, C (x - x')] within [0, 1),
  and (ccs 2^63 - C) e^-x in [0, 1).

No binary64 operation sees a subnormal: v >= 2^40, c >= 1, the
coefficients are normal, and gen.proof.float_tail.check_normal bounds every
sum away from 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from ..config import KernelConfig
from ..errors import GenError
from ..proof.approximation import ApproxBound, approximation_bound
from ..proof.float_tail import analyse, check_normal
from ..falcon import LN2_DOWN
from .design import C_MIN, SCALE_V, V_MIN, WORD, Design, middle_steps

Interval = tuple[Fraction, Fraction]
ZERO: Interval = (Fraction(0), Fraction(0))
FLOOR: Interval = (Fraction(-1), Fraction(0))     # what one floor adds to its word
CVT_ROUND: Interval = (Fraction(-1, 2), Fraction(1, 2))
C_MAX = Fraction(2) ** 63
X_GAP = Fraction(1, 2 ** 63)                       # x - x' < 2^-63
X_TAIL_MIN = V_MIN / Fraction(2) ** SCALE_V        # 2^-23
SMALLEST_OCTAVE = 64                               # pieces: octaves [2^-(k+1), 2^-k] of x' down to 2^-64
OCTAVE_PIECES = 16
UPPER_PIECES = 512                                 # uniform pieces of [2^-11, ln 2]
C_RANGE: Interval = (C_MIN, C_MAX)                 # c = max(ccs 2^63, 1)
CLAIM_SLACK = Fraction(1, 16)                      # the tail's claims: its enclosure widened by 1/16 of its error


def _mul(a: Interval, b: Interval) -> Interval:
    p = [x * y for x in a for y in b]
    return min(p), max(p)


def _add(*ivs: Interval) -> Interval:
    return sum((i[0] for i in ivs), Fraction(0)), sum((i[1] for i in ivs), Fraction(0))


def _neg(a: Interval) -> Interval:
    return -a[1], -a[0]


def _scale(a: Interval, k: Fraction) -> Interval:
    return (a[0] * k, a[1] * k) if k >= 0 else (a[1] * k, a[0] * k)


def _hull(a: Interval, b: Interval) -> Interval:
    return min(a[0], b[0]), max(a[1], b[1])


@dataclass(frozen=True)
class Word:
    """A computed word: the range of the exact value it stands for, and the
    range of the computed word minus that exact value."""

    exact: Interval
    error: Interval
    nonnegative: bool = False      # a floor of a product of non-negative words

    @property
    def computed(self) -> Interval:
        lo, hi = _add(self.exact, self.error)
        return (max(lo, Fraction(0)) if self.nonnegative else lo), hi


def hi_word(a: Word, b: Word) -> Word:
    """floor(a b / 2^64): the product rule, then the floor (which keeps a
    product of non-negative words non-negative)."""
    err = _add(_mul(a.exact, b.error), _mul(b.exact, a.error), _mul(a.error, b.error))
    return Word(_scale(_mul(a.exact, b.exact), 1 / WORD), _add(_scale(err, 1 / WORD), FLOOR),
                a.computed[0] >= 0 and b.computed[0] >= 0)


def minus(w: int, b: Word) -> Word:
    """W - b for a constant W."""
    return Word(_add((Fraction(w), Fraction(w)), _neg(b.exact)), _neg(b.error))


def plus(a: Word, b: Word) -> Word:
    return Word(_add(a.exact, b.exact), _add(a.error, b.error))


def constant(w: int) -> Word:
    return Word((Fraction(w), Fraction(w)), ZERO)


def _poly_range(coeffs: Sequence[Fraction], y: Interval, first: int = 0) -> Interval:
    """sum_i coeffs[i] y^(first + i) for y >= 0: the sum of the terms' ranges."""
    out = ZERO
    for i, c in enumerate(coeffs):
        n = first + i
        out = _add(out, _scale((y[0] ** n, y[1] ** n), c))
    return out


@dataclass(frozen=True)
class Piece:
    zlo: int
    zhi: int


def piece_bounds(top: int) -> list[tuple[int, int]]:
    """Bounds [lo, hi] of pieces of t = x 2^64 (this form's z, form twin's
    t) that cover [2^0, top]: OCTAVE_PIECES per octave of x from 2^-64 to
    2^-11, then UPPER_PIECES uniform ones from 2^-11 up to top."""
    out = []
    for k in range(SMALLEST_OCTAVE, 11, -1):
        lo, hi = 1 << (64 - k), 1 << (65 - k)
        step = (hi - lo) // OCTAVE_PIECES
        out += [(lo + i * step, lo + (i + 1) * step) for i in range(OCTAVE_PIECES)] if step else [(lo, hi)]
    lo = 1 << 53
    step = -(-(top - lo) // UPPER_PIECES)
    out += [(lo + i * step, min(lo + (i + 1) * step, top)) for i in range(UPPER_PIECES)]
    return out


def pieces() -> list[Piece]:
    """The pieces of z = x' 2^64 that cover [0, LN2_DOWN 2^64]: {0}, then
    piece_bounds's."""
    return [Piece(0, 0)] + [Piece(lo, hi) for lo, hi in piece_bounds(int(LN2_DOWN * WORD) + 1)]


@dataclass(frozen=True)
class TailClaim:
    """What the proof uses of the binary64 program on one piece of v, for an
    independent re-proof (Gappa): F - F(v, c) within ``error`` and F within
    ``computed`` for exact v in [vlo, vhi] and c in [1, 2^63]."""

    vlo: Fraction
    vhi: Fraction
    error: Interval
    computed: Interval


@dataclass(frozen=True)
class FoldProof:
    approx: ApproxBound
    evaluation: Interval            # R - C p(x') over every piece and C
    conversion: Interval
    word_ranges: dict[str, Interval]   # the computed integer words over every piece
    tail_claims: tuple[TailClaim, ...]

    @property
    def interval(self) -> Interval:
        a = C_MAX * self.approx.bound
        return _add(self.evaluation, (-a, a), self.conversion)

    @property
    def total(self) -> Fraction:
        lo, hi = self.interval
        return max(-lo, hi)

    def terms(self) -> list[tuple[str, Fraction]]:
        """The bound's terms (units of 2^-63), for the header and the sidecar."""
        mag = lambda iv: max(-iv[0], iv[1])
        return [("evaluation: floors, binary64 tail, CVTSD2SI, tail read at max(x, 2^-23), max(ccs, 2^-63) (interval pieces)",
                 mag(self.evaluation)),
                ("approximation: 2^63 sup |p - exp(-x)| on [0, ln 2] (Taylor model)", C_MAX * self.approx.bound),
                ("conversions of x and ccs to words (x - x' < 2^-63, ccs 2^63 - C < 1)", mag(self.conversion))]


def _tail_slope(tail_poly: Sequence[Fraction], sign: int, first: int, y: Interval) -> Interval:
    """An interval of h'(y), h(y) = sign sum_i q_i y^(first+i) (F's value at x = y, C = 1)."""
    deriv = [sign * (first + i) * q for i, q in enumerate(tail_poly)]
    return _poly_range(deriv, y, first - 1)


def prove(cfg: KernelConfig, d: Design) -> FoldProof:
    """Every term of the bound; GenError where an assumption fails."""
    p = d.polynomial()
    s = d.first_tail
    tail_poly = p[s:]
    approx = approximation_bound(cfg.function_tree, p, Fraction(0), LN2_DOWN, 0)
    coeffs = [Fraction(c) for c in d.tail]
    sums: dict[int, Interval] = {}
    ranges: dict[str, Interval] = {}
    evaluation: Interval | None = None
    claims = []
    for pc in pieces():
        xl, xh = Fraction(pc.zlo) / WORD, Fraction(pc.zhi) / WORD
        # v = max(x 2^63, 2^40), x in [x', x' + 2^-63): exact (an exponent add).
        vlo = max(Fraction(pc.zlo, 2), V_MIN)
        vhi = max(Fraction(pc.zhi, 2) + 1, V_MIN)
        enc = analyse(d.ops, coeffs, (vlo, vhi), ZERO, C_RANGE, ZERO)
        for n, op in enumerate(d.ops):
            if op.kind == "fma":
                sums[n] = _hull(sums.get(n, enc[n].computed), enc[n].computed)
        # The claim Gappa re-proves, and what the rest of the proof uses:
        # the enclosure widened by CLAIM_SLACK of its error's magnitude
        # (Gappa's own propagation is a little looser than analyse's
        # tightened ranges, and a claim it cannot reach makes it bisect
        # without end).  Widening an enclosure keeps it sound.
        t = enc[-1]
        slack = CLAIM_SLACK * max(-t.error[0], t.error[1])
        t_error, t_computed = (t.error[0] - slack, t.error[1] + slack), (t.computed[0] - slack, t.computed[1] + slack)
        claims.append(TailClaim(vlo, vhi, t_error, t_computed))
        if t.computed[0] < 0 or t_computed[1] >= Fraction(2) ** 62:
            raise GenError("form 'fold': the tail F may leave [0, 2^62) (CVTSD2SI's range)")
        gap = max(X_GAP, X_TAIL_MIN - xl)
        slope = _tail_slope(tail_poly, d.tail_sign, s, (xl, max(xh, X_TAIL_MIN) + X_GAP))
        moved = (min(Fraction(0), slope[0] * gap), max(Fraction(0), slope[1] * gap))
        h_x = _scale(_poly_range(tail_poly, (xl, xh), s), d.tail_sign)
        h_v = _scale(_poly_range(tail_poly, (vlo / Fraction(2) ** SCALE_V, vhi / Fraction(2) ** SCALE_V), s),
                     d.tail_sign)
        c = Word((Fraction(0), C_MAX), ZERO)

        def f_error(cr: Interval, program_error: Interval) -> Interval:
            """F as computed minus C h(x'), for C in cr: the program's error,
            CVTSD2SI's rounding, (c - C) h(v / 2^63) with c - C in [0, 1], and
            C (h(v / 2^63) - h(x'))."""
            return _add(program_error, CVT_ROUND, _mul((Fraction(0), Fraction(1)), h_v), _mul(cr, moved))

        f_word = Word(_mul(c.exact, h_x), f_error(c.exact, t_error))
        z = Word((Fraction(pc.zlo), Fraction(pc.zhi)), ZERO)
        zz = hi_word(z, z)
        k = {s - 1: constant(d.words[-1])}
        for step in middle_steps(s):
            j = step.j
            if step.kind == "pair":
                k[j] = plus(minus(d.words[j - 2], hi_word(z, constant(d.words[j - 1]))), hi_word(zz, k[j + 2]))
            else:
                k[j] = minus(d.words[j - 2], hi_word(z, k[j + 1]))
        words = {"F": f_word} | {f"K{j}": w for j, w in k.items()}
        a = hi_word(c, z)
        b = hi_word(a, z)
        top = hi_word(b, k[2])
        # R = (C - A) + hi(B, K_2) + sign F, exact value C p(x').
        p_x = _poly_range(p, (xl, xh))
        chain = _add(_neg(a.error), top.error)
        r = Word(_mul(c.exact, p_x), _add(chain, _scale(f_word.error, d.tail_sign)))
        words |= {"A": a, "B": b, "hi(B, K2)": top}
        for name, w in words.items():
            lo, hi = w.computed
            if name != "F" and (lo < 0 or hi >= WORD):
                raise GenError(f"form 'fold': the word {name} may leave [0, 2^64) for x' in "
                               f"[{float(xl):.6g}, {float(xh):.6g}]")
            ranges[name] = _hull(ranges.get(name, w.computed), w.computed)
        if r.computed[1] >= WORD:
            raise GenError(f"form 'fold': the result may reach 2^64 for x' in [{float(xl):.6g}, {float(xh):.6g}]")
        if d.tail_sign < 0:
            _check_nonnegative(d, coeffs, (vlo, vhi), h_v[1], p_x[0], chain, f_error, (xl, xh))
        ranges["R"] = _hull(ranges.get("R", (Fraction(0), r.computed[1])), (Fraction(0), r.computed[1]))
        evaluation = r.error if evaluation is None else _hull(evaluation, r.error)
    check_normal(d.ops, coeffs, min(V_MIN, C_MIN), sums)
    assert evaluation is not None
    conversion = (Fraction(-1), Fraction(1))
    return FoldProof(approx, evaluation, conversion, ranges, tuple(claims))


def _check_nonnegative(d: Design, coeffs: Sequence[Fraction], v: Interval, h_v_hi: Fraction, p_lo: Fraction,
                       chain: Interval, f_error: Callable[[Interval, Interval], Interval], x: Interval) -> None:
    """R = (C - A) + hi(B, K_2) - F (s odd) never wraps below 0 on one
    piece.  C - A >= 0 (A = floor(C z / 2^64) <= C) and hi(B, K_2) >= 0, so
    it is enough that F = 0 where C is small: for C <= 2^k the program's F,
    for c in [1, 2^k + 1], stays below 1/2 and CVTSD2SI rounds it to 0.
    Above, C p(x') >= 2^k p_lo must exceed what the evaluation error takes
    away: first over C in [2^k, 2^63] at once, then, if that is too coarse,
    octave by octave (the binary64 error grows with c)."""
    k = 62
    if h_v_hi > 0:
        k = max(0, min(62, math.floor(math.log2(float(Fraction(1, 2) / h_v_hi)))))
    while analyse(d.ops, coeffs, v, ZERO, (C_MIN, Fraction(2) ** k + 1), ZERO)[-1].computed[1] >= Fraction(1, 2):
        if k == 0:
            raise GenError("form 'fold': the binary64 tail F may be nonzero for ccs below 2^-62; "
                           "a larger float_tail keeps it smaller")
        k -= 1
    where = f"x' in [{float(x[0]):.6g}, {float(x[1]):.6g}]"
    small = Fraction(2) ** k
    if small * p_lo + chain[0] - f_error((small, C_MAX), _program_error(d, coeffs, v, (small, C_MAX + 1)))[1] >= 0:
        return
    for j in range(k, 63):
        lo, hi = Fraction(2) ** j, Fraction(2) ** (j + 1)
        if lo * p_lo + chain[0] - f_error((lo, hi), _program_error(d, coeffs, v, (lo, hi + 1)))[1] < 0:
            raise GenError(f"form 'fold': the result may be negative (the subtracted binary64 tail F may exceed "
                           f"the rest) for {where} and ccs near 2^{j - 63}; a larger float_tail keeps F smaller")


def _program_error(d: Design, coeffs: Sequence[Fraction], v: Interval, c: Interval) -> Interval:
    """The binary64 program's error for v and c in the ranges given."""
    return analyse(d.ops, coeffs, v, ZERO, c, ZERO)[-1].error

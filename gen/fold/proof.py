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
  T's error is the binary64 program's, enclosed by gen.proof.float_tail.analyse
  (one rounding per operation, an FMA one of the exact a b + c), plus the
  rounding of CVTSD2SI (1/2), plus reading the tail at v = max(x 2^63, 2^52)
  rather than at x' (the mean value theorem with an interval of the
  derivative).  Every middle word K_j is proven to lie in [0, 2^64), so no
  subtraction wraps, and R = C - A + hi(B, K_2) in [0, 2^64).
* Approximation: sup |p - f| on [0, ln 2] by gen.proof.approximation
  (a Taylor model in interval arithmetic), times C <= 2^63.
* Conversions: C (e^-x' - e^-x) lies in [0, C (x - x')] within [0, 1),
  and (ccs 2^63 - C) e^-x in [0, 1).

No binary64 operation sees a subnormal: v >= 2^52, the coefficients are
normal, and gen.proof.float_tail.check_normal bounds every sum away from 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ..config import KernelConfig
from ..errors import GenError
from ..proof.approximation import ApproxBound, approximation_bound
from ..proof.float_tail import analyse, check_normal
from .design import LN2_DOWN, SCALE_V, V_MIN, WORD, Design, middle_steps

Interval = tuple[Fraction, Fraction]
ZERO: Interval = (Fraction(0), Fraction(0))
FLOOR: Interval = (Fraction(-1), Fraction(0))     # what one floor adds to its word
CVT_ROUND: Interval = (Fraction(-1, 2), Fraction(1, 2))
C_MAX = Fraction(2) ** 63
X_GAP = Fraction(1, 2 ** 63)                       # x - x' < 2^-63
X_TAIL_MIN = V_MIN / Fraction(2) ** SCALE_V        # 2^-11
SMALLEST_OCTAVE = 64                               # pieces: octaves [2^-(k+1), 2^-k] of x' down to 2^-64
OCTAVE_PIECES = 16
UPPER_PIECES = 512                                 # uniform pieces of [2^-11, ln 2]
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


def pieces() -> list[Piece]:
    """The pieces of z = x' 2^64 that cover [0, LN2_DOWN 2^64]: {0}, then
    OCTAVE_PIECES per octave of x' from 2^-64 to 2^-11, then UPPER_PIECES
    uniform ones up to ln 2."""
    out = [Piece(0, 0)]
    for k in range(SMALLEST_OCTAVE, 11, -1):
        lo, hi = 1 << (64 - k), 1 << (65 - k)
        step = (hi - lo) // OCTAVE_PIECES
        out += [Piece(lo + i * step, lo + (i + 1) * step) for i in range(OCTAVE_PIECES)] if step else [Piece(lo, hi)]
    top = int(LN2_DOWN * WORD) + 1
    lo = 1 << 53
    step = -(-(top - lo) // UPPER_PIECES)
    out += [Piece(lo + i * step, min(lo + (i + 1) * step, top)) for i in range(UPPER_PIECES)]
    return out


@dataclass(frozen=True)
class TailClaim:
    """What the proof uses of the binary64 program on one piece of v, for an
    independent re-proof (Gappa): t - T(v) within ``error`` and t within
    ``computed`` for exact v in [vlo, vhi]."""

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
        return [("evaluation: floors, binary64 tail, CVTSD2SI, tail read at max(x, 2^-11) (interval pieces)",
                 mag(self.evaluation)),
                ("approximation: 2^63 sup |p - exp(-x)| on [0, ln 2] (Taylor model)", C_MAX * self.approx.bound),
                ("conversions of x and ccs to words (x - x' < 2^-63, ccs 2^63 - C < 1)", mag(self.conversion))]


def _tail_slope(tail_poly: Sequence[Fraction], sign: int, y: Interval) -> Interval:
    """An interval of g'(y), g(y) = 2^64 sign sum_i q_i y^(i+1) (T's value at x = y)."""
    deriv = [sign * (i + 1) * q * WORD for i, q in enumerate(tail_poly)]
    return _poly_range(deriv, y)


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
        # v = max(x 2^63, 2^52), x in [x', x' + 2^-63): exact (an exponent add).
        vlo = max(Fraction(pc.zlo, 2), V_MIN)
        vhi = max(Fraction(pc.zhi, 2) + 1, V_MIN)
        enc = analyse(d.ops, coeffs, (vlo, vhi), ZERO, ZERO, ZERO)
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
        if t_computed[0] < 0 or t_computed[1] >= Fraction(2) ** 62:
            raise GenError("form 'fold': the tail t may leave [0, 2^62) (CVTSD2SI's range)")
        gap = max(X_GAP, X_TAIL_MIN - xl)
        slope = _tail_slope(tail_poly, d.tail_sign, (xl, max(xh, X_TAIL_MIN) + X_GAP))
        moved = (min(Fraction(0), slope[0] * gap), max(Fraction(0), slope[1] * gap))
        g = _scale(_poly_range(tail_poly, (xl, xh), 1), d.tail_sign * WORD)
        t_word = Word(g, _add(t_error, CVT_ROUND, moved))
        z = Word((Fraction(pc.zlo), Fraction(pc.zhi)), ZERO)
        c = Word((Fraction(0), C_MAX), ZERO)
        zz = hi_word(z, z)
        k = {s - 1: minus(d.words[-1], t_word)}
        for step in middle_steps(s):
            j = step.j
            if step.kind == "pair":
                k[j] = plus(minus(d.words[j - 2], hi_word(z, constant(d.words[j - 1]))), hi_word(zz, k[j + 2]))
            else:
                k[j] = minus(d.words[j - 2], hi_word(z, k[j + 1]))
        words = {"T": t_word} | {f"K{j}": w for j, w in k.items()}
        a = hi_word(c, z)
        b = hi_word(a, z)
        top = hi_word(b, k[2])
        # R = (C - A) + hi(B, K_2): C - A >= 0 (A = floor(C x') <= C) and
        # hi(B, K_2) >= 0, so R >= 0; its exact value is C (1 - x') + C x'^2 k(x').
        r = Word(_add(_mul(c.exact, (1 - xh, 1 - xl)), top.exact), _add(_neg(a.error), top.error),
                 top.nonnegative)
        words |= {"A": a, "B": b, "hi(B, K2)": top, "R": r}
        for name, w in words.items():
            lo, hi = w.computed
            if name != "T" and (lo < 0 or hi >= WORD):
                raise GenError(f"form 'fold': the word {name} may leave [0, 2^64) for x' in "
                               f"[{float(xl):.6g}, {float(xh):.6g}]")
            ranges[name] = _hull(ranges.get(name, w.computed), w.computed)
        evaluation = r.error if evaluation is None else _hull(evaluation, r.error)
    check_normal(d.ops, coeffs, V_MIN, sums)
    assert evaluation is not None
    conversion = (Fraction(-1), Fraction(1))
    return FoldProof(approx, evaluation, conversion, ranges, tuple(claims))

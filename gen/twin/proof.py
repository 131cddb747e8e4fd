"""The error bound of a form = "twin" kernel, in units u = 2^-63, against
the exact value ccs exp(-x) 2^63 of the doubles passed (docs/error-model.md,
"Form twin"; gen/twin/design.py has the kernel's formulas).

Write C = trunc(ccs 2^63), rc = ccs 2^63 - C (in [0, 1), nonzero only
when ccs < 2^-10, that is C < 2^53), x' = t / 2^64 with t = floor(x 2^64)
(x' = x from 2^-11 up), p = 1 - x + x^2 k(x) + t(x) the quantized
polynomial (Design.polynomial) and S the kernel's 128-bit sum, so that the
result is floor(S / 2^64).  Then S / 2^64 - ccs e^-x 2^63 = eps with

    eps = C (p - f)(x)                                  [approximation]
        + C (x'^2 k(x') - x^2 k(x))                    [t for x in the integer chain]
        + rc (t(x) + E(v) / 16 - e^-x)                  [the remainder of ccs: E ~= 16 e^-x]
        + (C x - A / 2^64)                              [A = floor(C x 2^64); 0 for x < 2^-128]
        + (floor(B_2 K_2 / 8) / 2^64 - C x'^2 k(x'))    [the integer chain's floors]
        + (G / 16 - ccs 2^63 t(x) - rc E(v) / 16)       [the binary64 part: roundings, v and c clamps]
        + bias / 16,

and the result minus the exact value lies in (eps - 1, eps]: faithful (below
one unit) when eps lies in (0, 1), which the bias centres.

* Approximation: sup |p - f| on [0, LN2_DOWN] by gen.proof.approximation
  (a Taylor model in interval arithmetic), times C in [0, 2^63].
* The integer chain, on pieces of t (exact rational interval arithmetic, as
  form fold: every word carries the range of the exact value it stands for
  and of its error; a floor adds (-1, 0], a product a e_b + b e_a + e_a e_b).
  B_2 = floor(C t^2 / 2^126) is one floor of the exact product (the kernel
  keeps t^2's low word).  T = B_2 K_2 is exact in 128 bits, T / 8 one more
  floor.  Every word is proven to stay in [0, 2^64).
* The binary64 part, per piece of v and in two cases of ccs (ccs >= 2^-10:
  rc = 0, c in [2^-10, 1]; ccs < 2^-10: C < 2^53, rc in [0, 1), c in
  [2^-63, 2^-10]): gen.proof.float_tail.analyse (one rounding per
  operation, an FMA one; g in [2^52, 2^53), where the last FMA rounds to a
  whole number of u/16), the claim Gappa re-proves.  v is x, or for
  x < 2^-23 x's pattern with its high half raised to 2^-23's (VPMAXSD), a
  value in [2^-23, 2^-23 (1 + 2^-20)); c likewise from ccs and 2^-63.  The
  lifted c adds (c - ccs) 2^63 t(v), the lifted v adds
  ccs 2^63 (t(v) - t(x)) and rc (E(v) - E(x)) / 16.  For ccs below 2^-1022
  (+-0, subnormals) the exponent add makes rc = +-2^-960 (1 + f) instead of
  ccs 2^63: less than 2^-958 more.
* x below 2^-64 (t would need a shift past 63): B_2 = 0, which drops
  C x^2 k(x) < 2^-65, and A = floor(C x 2^64) still, from the high word of
  C m shifted by 1022 - e - 64; below 2^-128, A = 0 (C x < 2^-65).

No binary64 operation sees a subnormal: the lifts are integer maxima, so
x and ccs themselves never reach one; v >= 2^-23, c >= 2^-63, rc is 0 or
at least 2^-1011 in magnitude, the coefficients are normal, and
gen.proof.float_tail.check_normal bounds every sum away from 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ..config import KernelConfig
from ..errors import GenError
from ..expr import parse
from ..falcon import LN2_DOWN
from ..fold.proof import FLOOR, ZERO, Interval, Word, _add, _hull, _mul, _neg, _poly_range, _scale, constant, \
    hi_word, minus, piece_bounds, plus
from ..proof.approximation import ApproxBound, approximation_bound
from ..proof.float_tail import Enclosure, analyse, check_normal
from .design import C_MAX, C_MIN, FIRST_TAIL, LIFT_SPREAD, TAIL_SCALE, V_MIN, WORD, Design

UNIT = Fraction(1, 1 << 64)                        # 2^-64: t's unit
C_SPLIT = Fraction(2) ** 53                        # rc != 0 only below: ccs < 2^-10
RC_SMALLEST = Fraction(1, 1 << 1011)               # rc is 0 or at least this in magnitude (below)
RC_SPURIOUS = Fraction(1, 1 << 959)                # ccs below 2^-1022 (+-0, subnormals): |rc| < this, see prove
V_TOP = V_MIN * (1 + LIFT_SPREAD)                  # a lifted v lies in [V_MIN, V_TOP)
C_TOP = C_MIN * (1 + LIFT_SPREAD)                  # a lifted c lies in [C_MIN, C_TOP)
CLAIM_SLACK = Fraction(1, 16)                      # the tail's claims: its enclosure widened by 1/16 of its error
G_LOW, G_HIGH = Fraction(2) ** 52, Fraction(2) ** 53   # g's binade: its unit is 1 (u/16)
GRAIN = Fraction(1, 1 << TAIL_SCALE)               # u/16: G's unit
DEBUG: list | None = None


@dataclass(frozen=True)
class Case:
    """One range of ccs, as the binary64 part and the integer chain see it."""

    name: str
    C: Interval          # C = trunc(ccs 2^63)
    c: Interval          # c = ccs, lifted to at least 2^-63
    rc: Interval         # ccs 2^63 - C


CASES = (Case("ccs >= 2^-10", (C_SPLIT, C_MAX), (Fraction(1, 1 << 10), Fraction(1)), ZERO),
         Case("ccs < 2^-10", (Fraction(0), C_SPLIT), (C_MIN, Fraction(1, 1 << 10)), (-RC_SPURIOUS, Fraction(1))))


@dataclass(frozen=True)
class Piece:
    tlo: int
    thi: int
    tiny: bool = False          # x < 2^-64: A = C, B_2 = 0


def pieces() -> list[Piece]:
    """Pieces of t = floor(x 2^64) covering x in [0, LN2_DOWN]: x < 2^-64,
    then form fold's (16 per octave of x from 2^-64 to 2^-11, 512 uniform
    ones up to ln 2)."""
    return [Piece(0, 0, True)] + [Piece(lo, hi) for lo, hi in piece_bounds(int(LN2_DOWN * WORD))]


@dataclass(frozen=True)
class TailClaim:
    """What the proof uses of the binary64 program on one piece of v and one
    case of ccs, for an independent re-proof (Gappa): g - g_exact within
    ``error`` and g within ``computed`` for exact v in [vlo, vhi], c in
    ``c`` and rc in ``rc`` (g_exact: the program's exact value)."""

    vlo: Fraction
    vhi: Fraction
    c: Interval
    rc: Interval
    error: Interval
    computed: Interval


@dataclass(frozen=True)
class TwinProof:
    approx: ApproxBound
    e_bound: ApproxBound                # sup |E / 16 - e^-x| on [0, ln 2]
    terms_iv: tuple[tuple[str, Interval], ...]   # each term of eps without the bias, hull over pieces and cases
    unbiased: Interval                  # eps - bias / 16 over every piece and case (hull of per-piece sums)
    bias: Fraction                      # bias / 16, units of u
    word_ranges: dict[str, Interval]
    tail_claims: tuple[TailClaim, ...]

    @property
    def eps(self) -> Interval:
        return self.unbiased[0] + self.bias, self.unbiased[1] + self.bias

    @property
    def total(self) -> Fraction:
        """The bound on |result - ccs e^-x 2^63|: the result lies in (eps - 1, eps]."""
        lo, hi = self.eps
        return max(hi, 1 - lo)

    def terms(self) -> list[tuple[str, Fraction]]:
        """The bound's terms (magnitudes, units of 2^-63), for the header and the sidecar."""
        mag = lambda iv: max(-iv[0], iv[1])
        return [(name, mag(iv)) for name, iv in self.terms_iv] + \
               [("bias (centres eps in (0, 1)) and the final floor, which takes (-1, 0]", max(self.bias, 1 - self.bias))]


def best_bias(unbiased: Interval) -> int:
    """The bias, in whole units of u/16, that centres eps = unbiased + bias/16
    in (0, 1): the one that minimises max(hi, 1 - lo)."""
    mid = (1 - unbiased[0] - unbiased[1]) / 2
    return round(mid / GRAIN)


def _exp_bound(d: Design) -> ApproxBound:
    tree = parse("exp(-x)")
    return approximation_bound(tree, [Fraction(d.e[0]) * GRAIN, Fraction(d.e[1]) * GRAIN], Fraction(0), LN2_DOWN, 0)


def _int_chain(d: Design, pc: Piece, C: Interval) -> tuple[Interval, dict[str, Word]]:
    """eT = floor(B_2 K_2 / 8) / 2^64 - C x'^2 k(x') on one piece, and the words."""
    W2, W3, W4, W5, W6 = d.words
    t = Word((Fraction(pc.tlo), Fraction(pc.thi)), ZERO)
    zz = hi_word(t, t)
    k4 = plus(minus(W4, hi_word(t, constant(W5))), hi_word(zz, constant(W6)))
    k2 = plus(minus(W2, hi_word(t, constant(W3))), hi_word(zz, k4))
    t2 = (t.exact[0] ** 2, t.exact[1] ** 2)
    b2 = Word(_scale(_mul(C, t2), Fraction(1, 1 << 126)), FLOOR, True)
    # T = B_2 K_2 exactly (128 bits): its error is the product rule's; T / 8 one more floor.
    t_err = _add(_mul(b2.exact, k2.error), _mul(k2.exact, b2.error), _mul(b2.error, k2.error))
    e_t = _add(_scale(t_err, Fraction(1, 1 << 67)), _scale(FLOOR, UNIT))
    tw = Word(_mul(b2.exact, k2.exact), t_err, True)
    return e_t, {"zz": zz, "K4": k4, "K2": k2, "B2": b2, "T": tw}


def _slope(poly: Sequence[Fraction], first: int, y: Interval) -> Interval:
    """An interval of d/dy sum poly_i y^(first+i) for y >= 0."""
    return _poly_range([(first + i) * c for i, c in enumerate(poly)], y, first - 1)


def prove(cfg: KernelConfig, d: Design) -> TwinProof:
    """Every term of eps; GenError where an assumption fails."""
    p = d.polynomial()
    approx = approximation_bound(cfg.function_tree, p, Fraction(0), LN2_DOWN, 0)
    e_bound = _exp_bound(d)
    kpoly, tpoly = d.int_polynomial(), d.tail_polynomial()
    coeffs = [Fraction(c) for c in d.coefficients()]
    sums: dict[int, Interval] = {}
    ranges: dict[str, Interval] = {}
    totals: dict[str, Interval] = {}
    unbiased: Interval | None = None
    claims = []
    approx_iv = (min(Fraction(0), C_MAX * approx.lo), max(Fraction(0), C_MAX * approx.hi))
    e_err = (e_bound.lo, e_bound.hi)

    def note(name: str, iv: Interval) -> Interval:
        totals[name] = _hull(totals.get(name, iv), iv)
        return iv

    for pc in pieces():
        # x in [xl, xh]: t = floor(x 2^64) in [tlo, thi], so x < (thi + 1) 2^-64.
        xl = Fraction(pc.tlo) * UNIT
        xh = (Fraction(pc.thi) + 1) * UNIT if not pc.tiny else UNIT
        # v = x from 2^-23 up; below, x's high half is lifted and v lies in [V_MIN, V_TOP).
        vlo, vhi = max(xl, V_MIN), (max(xh, V_TOP) if xl < V_MIN else xh)
        t_x = _poly_range(tpoly, (xl, xh), FIRST_TAIL)
        t_v = _poly_range(tpoly, (vlo, vhi), FIRST_TAIL)
        for case in CASES:
            if pc.tiny:
                # A exact for x in [2^-128, 2^-64), 0 below (C x < 2^-65).
                e_a = (Fraction(0), max(UNIT, case.C[1] * UNIT * UNIT))
                e_t = (-case.C[1] * UNIT * UNIT, Fraction(0))     # - C x^2 k(x), x < 2^-64, k < 1
                e_x = ZERO
            else:
                e_a = (Fraction(0), UNIT)
                e_t, words = _int_chain(d, pc, case.C)
                # t stands for x in the chain: x - x' in [0, 2^-64), nonzero only below 2^-11.
                gap = UNIT if pc.tlo < 1 << 53 else Fraction(0)
                phi = _slope(kpoly, 2, (xl, xh + UNIT))        # d/dy y^2 k(y)
                e_x = _mul(case.C, _mul(phi, (-gap, Fraction(0))))
                for name, w in words.items():
                    lo, hi = w.computed
                    top = WORD * WORD if name == "T" else WORD
                    if lo < 0 or hi >= top:
                        raise GenError(f"form 'twin': the word {name} may leave [0, 2^{64 if top == WORD else 128}) "
                                       f"for x in [{float(xl):.6g}, {float(xh):.6g}]")
                    ranges[name] = _hull(ranges.get(name, w.computed), w.computed)
            # The binary64 part.
            rc = Enclosure(case.rc, ZERO, case.rc)
            enc = analyse(d.ops, coeffs, (vlo, vhi), ZERO, case.c, ZERO, (rc,))
            for n, op in enumerate(d.ops):
                if op.kind == "fma":
                    sums[n] = _hull(sums.get(n, enc[n].computed), enc[n].computed)
            g = enc[-1]
            slack = CLAIM_SLACK * max(-g.error[0], g.error[1])
            g_err, g_comp = (g.error[0] - slack, g.error[1] + slack), (g.computed[0] - slack, g.computed[1] + slack)
            claims.append(TailClaim(vlo, vhi, case.c, case.rc, g_err, g_comp))
            if g_comp[0] < G_LOW or g_comp[1] >= G_HIGH:
                raise GenError("form 'twin': g may leave [2^52, 2^53), where its last bit is u/16")
            # G / 16 - ccs 2^63 t(x) - rc E(v) / 16 = the program's error / 16
            #   + (c - ccs) 2^63 t(v) + ccs 2^63 (t(v) - t(x)), c - ccs in [0, C_TOP) (lifted ccs only).
            c_clamp = _mul((Fraction(0), C_TOP * C_MAX if case.c[0] == C_MIN else Fraction(0)), t_v)
            moved = _mul(_scale(case.c, C_MAX), _add(t_v, _neg(t_x))) if xl < V_MIN else ZERO
            e_g = _add(_scale(g_err, GRAIN), c_clamp, moved)
            # rc (t(x) + E(v) / 16 - e^-x): E's fit error, t(x), and E(v) - E(x) = e_1 (v - x) / 16,
            # v - x in [0, vhi - xl], for x < 2^-23.
            e_shift = (min(Fraction(0), Fraction(d.e[1]) * GRAIN * (vhi - xl)), Fraction(0)) if xl < V_MIN else ZERO
            e_rc = _mul(case.rc, _add(e_err, t_x, e_shift))
            if case.rc[0] < 0:
                # Below 2^-1022 (+-0 and subnormal ccs) the exponent add gives cs = +-2^-960 (1 + f), not
                # ccs 2^63 < 2^-1011: C = 0 all the same, and the kernel's rc = cs is off by less than
                # RC_SPURIOUS, which adds at most RC_SPURIOUS E(v) / 16 < 2 RC_SPURIOUS.
                e_rc = _add(e_rc, (-2 * RC_SPURIOUS, 2 * RC_SPURIOUS))
            parts = {"approximation: C (p - f)(x), 2^63 sup |p - exp(-x)| on [0, ln 2] (Taylor model)": approx_iv,
                     "t = floor(x 2^64) for x in the integer chain (x < 2^-11 only)": e_x,
                     "remainder of ccs, rc (t(x) + E(v)/16 - e^-x) (E: linear fit, Taylor model)": e_rc,
                     "linear term: A = floor(C x 2^64) (A = 0 for x < 2^-128)": e_a,
                     "integer chain: every floor of K_4, K_2, B_2, T / 8": e_t,
                     "binary64 part: every rounding (an FMA one), G in u/16, v and c clamps": e_g}
            for name, iv in parts.items():
                note(name, iv)
            s = _add(*parts.values())
            if DEBUG is not None:
                DEBUG.append((pc, case.name, s, parts))
            unbiased = s if unbiased is None else _hull(unbiased, s)
    assert unbiased is not None
    check_normal(d.ops, coeffs, min(V_MIN, C_MIN), sums, {2: RC_SMALLEST})
    return TwinProof(approx, e_bound, tuple(totals.items()), unbiased, Fraction(d.bias) * GRAIN, ranges,
                     tuple(claims))


def check_sum_range(proof: TwinProof) -> None:
    """S / 2^64 = ccs e^-x 2^63 + eps must lie in [0, 2^64): no wrap of the
    128-bit sum (the exact value lies in [0, 2^63])."""
    lo, hi = proof.eps
    if lo < 0 or C_MAX + hi >= WORD:
        raise GenError(f"form 'twin': the 128-bit sum may wrap (eps in [{float(lo):.4f}, {float(hi):.4f}])")


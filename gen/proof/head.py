"""The proof of form = "head" (gen/quantize/head.py): every entry point's
result minus the exact value of its inputs, as a proven interval.

On each piece of z (x' = z / 2^64 in [zlo, zhi] / 2^64) the computed words
of the integer part are enclosed by exact interval arithmetic, each floor
(multiply-high, right shift) adding an error in (-1, 0] units of its word;
the binary64 part by gen.proof.float_tail.analyse (one rounding per
operation, an FMA one rounding of the exact a b + c).  With D the
accumulator (units of the result) and R = C + 1 - floor(D + 1 + 1/2):

    out - ideal = (R_exact - ideal) - (D_computed - D_exact) + rho,
    rho in (-1/2, 1/2],

where R_exact is what exact arithmetic on the same inputs returns:

* ``_eval(z)``: C = 2^63, so R_exact - ideal = 2^63 (p - f)(x');
* ``_expm_p63(z, w)``: C = floor(w / 2), which loses (w mod 2) f / 2 more;
* the Falcon adaptors, with C = trunc(ccs 2^63), rc = ccs 2^63 - C and
  rx = x 2^63 - trunc(x 2^63) carried in the binary64 part:

      ideal - R_exact = C (f - p)(x') + A + Dt + Ct,
      A  = C (e^-x' ... ) + ccs rx, in [0, rx (2^-63 + x)]  (x' <= x < x' + 2^-63)
      Dt = rc (f(x) - t_k(x)), bounded by p's coefficients and the
           approximation bound (t_k the exact head's polynomial),
      Ct = the tail read at v = max(x, 2^-11) instead of x'.

The rounding constant carries a centring bias beta (a multiple of 2^-f),
chosen here so that the adaptors' interval is centred; it moves every
interval by exactly -beta.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from ..config import KernelConfig
from ..errors import GenError
from ..floattail import CORRECTION_CONSTANTS, correction_program
from ..quantize import _pieces
from ..quantize.head import HeadPlan
from .approximation import ApproxBound, approximation_bound
from .float_tail import MIN_NORMAL, Enclosure, analyse, half_ulp

Interval = tuple[Fraction, Fraction]
TAIL_X_MIN = Fraction(1, 1 << 11)      # the tail reads max(x, 2^-11)
X_FLUSH = Fraction(1, 1 << 900)        # x below this is read as 0 (no subnormal anywhere)
C_FLUSH = Fraction(1, 1 << 64)         # ccs below this is read as 0 (the ideal is then below 1/2)
ZERO = (Fraction(0), Fraction(0))
FLOOR = (Fraction(-1), Fraction(0))    # what one floor adds to a word


def _mul(a: Interval, b: Interval) -> Interval:
    p = [x * y for x in a for y in b]
    return min(p), max(p)


def _add(*ivs: Interval) -> Interval:
    return sum(i[0] for i in ivs), sum(i[1] for i in ivs)


def _scale(a: Interval, k: Fraction) -> Interval:
    return (a[0] * k, a[1] * k) if k >= 0 else (a[1] * k, a[0] * k)


def _neg(a: Interval) -> Interval:
    return -a[1], -a[0]


@dataclass(frozen=True)
class Word:
    """A computed word: the exact value it stands for (times its scale) and
    the computed word minus that."""
    exact: Interval
    error: Interval


def _hi(a: Word, b: Word, shift: int = 64) -> Word:
    """floor(a b / 2^shift): the product rule of the error."""
    err = _add(_mul(a.exact, b.error), _mul(b.exact, a.error), _mul(a.error, b.error))
    k = Fraction(1, 1 << shift)
    return Word(_scale(_mul(a.exact, b.exact), k), _add(_scale(err, k), FLOOR))


def _signed(sign: int, w: Word) -> Word:
    return w if sign > 0 else Word(_neg(w.exact), _neg(w.error))


def middle(plan: HeadPlan, z: Word, zh: Word) -> Word:
    """The middle's word m = mid(x') 2^s + error, as the template computes it."""
    one = lambda n: Word((Fraction(n), Fraction(n)), ZERO)
    s = plan.mid_words
    mult = zh if plan.step == 2 else z
    pairs = []
    for p, i in enumerate(range(0, len(s), plan.step)):
        value = _signed(plan.mid_signs[i], one(s[i]))
        if plan.step == 2 and i + 1 < len(s):
            prod = _signed(plan.mid_signs[i + 1], _hi(z, one(s[i + 1])))
            value = Word(_add(value.exact, prod.exact), _add(value.error, prod.error))
        pairs.append(value)
    acc = pairs[-1]
    for p in range(len(pairs) - 2, -1, -1):
        mag = _signed(plan.acc_signs[p + 1], acc)
        prod = _signed(plan.acc_signs[p + 1], _hi(mult, mag))
        acc = Word(_add(pairs[p].exact, prod.exact), _add(pairs[p].error, prod.error))
    return acc


def integer_part(plan: HeadPlan, zlo: int, zhi: int, c: Interval) -> tuple[Interval, Interval]:
    """(exact, error) of E / 2^f (units of the result) on one piece of z,
    for C in ``c``; the head's own error is below 2^-65 and added by the caller."""
    z = Word((Fraction(zlo), Fraction(zhi)), ZERO)
    zh = Word((Fraction(zlo * zlo, 1 << 64), Fraction(zhi * zhi, 1 << 64)), FLOOR)
    m = middle(plan, z, zh)
    cw = Word(c, ZERO)
    if plan.k == 3:
        u = _hi(cw, z, 63)
        cx = _hi(u, zh, plan.cx_shift)
    else:
        cx = _hi(cw, zh, plan.cx_shift)
    e = _hi(cx, m)
    k = Fraction(2) ** -plan.units
    return _scale(e.exact, k), _scale(e.error, k)


def polynomial(plan: HeadPlan, head: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The whole quantized polynomial p (exact coefficients of x^0..x^d):
    1 - p = G + x^k mid + x^j tail."""
    mid = [-n for n in plan.mid_value()]
    return tuple(head) + tuple(mid) + tuple(-t for t in plan.tail)


def _tail_value(plan: HeadPlan, v: Interval) -> Interval:
    """x^j tail(x) for x in v (v >= 0): the sum of each term's range."""
    out = ZERO
    for i, t in enumerate(plan.tail):
        out = _add(out, _scale((v[0] ** (plan.first_tail + i), v[1] ** (plan.first_tail + i)), t))
    return out


def _tail(plan: HeadPlan, v: Interval, v_err: Interval, c: Interval, c_err: Interval,
          extra: Enclosure) -> Enclosure:
    """The binary64 part's enclosure (value: c v^j tail(v) + the extra input's)."""
    coeffs = list(plan.tail)
    return analyse(plan.program, coeffs, v, v_err, c, c_err, [extra])[-1]


def correction(plan: HeadPlan, fma: bool, x: Interval, m_const: Fraction, x_err: Interval = ZERO,
               rx: Interval = (Fraction(0), Fraction(1)), rc: Interval = (Fraction(0), Fraction(1))) -> Enclosure:
    """The extra input of the adaptors: RN(cc rx + RN(M - RN(rc t3(x)))),
    enclosed for x in ``x`` (read with an error in x_err), rx and rc in
    their ranges and ccs in [2^-64, 1)."""
    ops = correction_program(fma)
    ins = [Enclosure(rx, ZERO, rx), Enclosure(rc, ZERO, rc)]
    enc = analyse(ops, [m_const, *CORRECTION_CONSTANTS], x, x_err, (C_FLUSH, Fraction(1)), ZERO, ins)
    _check_normal(ops, [m_const, *CORRECTION_CONSTANTS], enc,
                  {0: X_FLUSH, 1: C_FLUSH, 2: Fraction(1, 1 << 837), 3: Fraction(1, 1 << 53)})
    return enc[-1]


def _check_normal(ops: Sequence, coeffs: Sequence[Fraction], enc: Sequence[Enclosure],
                  smallest_input: dict[int, Fraction]) -> None:
    """No operation's result is subnormal: inputs are 0 or at least their
    smallest nonzero magnitude (``smallest_input``, by op index: x >= 2^-900
    after the flush, ccs >= 2^-64, rx >= min(x 2^63, ulp) >= 2^-837, rc a
    multiple of ulp(ccs 2^63) >= 2^-53); a product of nonzero values is at
    least the product of their smallest magnitudes; a sum (or an FMA) must
    be exactly 0 or bounded away from 0 by its computed enclosure."""
    smallest: list[Fraction] = []
    for n, op in enumerate(ops):
        if n in smallest_input:
            smallest.append(smallest_input[n])
        elif op.kind == "coef":
            smallest.append(abs(coeffs[op.index]) if coeffs[op.index] else Fraction(1))
        elif op.kind == "mul":
            smallest.append(smallest[op.args[0]] * smallest[op.args[1]])
        else:
            lo, hi = enc[n].computed
            if lo <= 0 <= hi and (lo, hi) != ZERO:
                raise GenError(f"form head: {op.label} is not bounded away from 0 (it could be subnormal)")
            smallest.append(min(abs(lo), abs(hi)))
        if smallest[-1] < MIN_NORMAL:
            raise GenError(f"form head: {op.label} may be subnormal")


@dataclass(frozen=True)
class TailClaim:
    """What the proof uses of the binary64 part on one piece z in [zlo, zhi]
    of one entry (before the bias): the error of its result (computed
    minus the same operations done exactly, on exact inputs) and the range
    of the computed result.  certify/gappa_head.py has Gappa re-prove both
    from the operations, with IEEE-754 binary64 rounding to nearest."""

    zlo: int
    zhi: int
    error: Interval
    computed: Interval


@dataclass(frozen=True)
class HeadProof:
    approx: ApproxBound                 # p - f on the domain
    bias: Fraction                      # beta, added to D through the rounding constant
    eval_interval: Interval             # _eval(z) - f(z/2^64) 2^63
    expm_interval: Interval             # _expm_p63(z, w) - (w/2^64) f 2^63
    fpr_interval: Interval              # each Falcon adaptor - ccs f(x) 2^63, doubles in the domain
    d_range: Interval                   # D (units of the result) over every entry and input
    offset: int                         # units added to D (and to C) so that the accumulator is never negative
    tail_claims: dict[str, tuple["TailClaim", ...]]   # per entry, per piece: what Gappa re-proves

    @staticmethod
    def _mag(iv: Interval) -> Fraction:
        return max(-iv[0], iv[1])

    @property
    def eval_bound(self) -> Fraction:
        return self._mag(self.eval_interval)

    @property
    def expm_bound(self) -> Fraction:
        return self._mag(self.expm_interval)

    @property
    def fpr_bound(self) -> Fraction:
        return self._mag(self.fpr_interval)


def _hull(a: Interval, b: Interval) -> Interval:
    return min(a[0], b[0]), max(a[1], b[1])


def _with_zero(a: Interval) -> Interval:
    return _hull(a, ZERO)


class _Acc:
    """Running hulls of the entry intervals, of D and of E + T (units of
    the result, before the bias) over the pieces."""

    def __init__(self) -> None:
        self.ivs: dict[str, Interval] = {}
        self.d = ZERO
        self.et = ZERO
        self.claims: dict[str, list[TailClaim]] = {}

    def add(self, entry: str, iv: Interval, d: Interval, et: Interval, claim: TailClaim) -> None:
        self.ivs[entry] = _hull(self.ivs.get(entry, iv), iv)
        self.d = _hull(self.d, d)
        self.et = _hull(self.et, et)
        self.claims.setdefault(entry, []).append(claim)


def _one_minus_p(coeffs: Sequence[Fraction], x: Interval) -> Interval:
    """1 - p(x) for x in x (x >= 0), by Horner's scheme in interval arithmetic."""
    acc = ZERO
    for c in reversed((coeffs[0] - 1,) + tuple(coeffs[1:])):
        acc = _add(_mul(acc, x), (c, c))
    return _neg(acc)


def _g(k: int, x: Interval) -> Interval:
    """G = 1 - T_k on [0, 1): x, or x - x^2/2 (both increasing)."""
    g = (lambda t: t) if k == 2 else (lambda t: t - t * t / 2)
    return g(x[0]), g(x[1])


def _poly_range(coeffs: Sequence[Fraction], first: int, x: Interval) -> Interval:
    """sum_{i >= first} a_i x^i for x in x (x >= 0): the sum of the terms' ranges."""
    out = ZERO
    for i in range(first, len(coeffs)):
        out = _add(out, _scale((x[0] ** i, x[1] ** i), coeffs[i]))
    return out


@dataclass(frozen=True)
class _Context:
    plan: HeadPlan
    fma: bool
    remainders: bool                   # the adaptors carry the conversion remainders
    coeffs: tuple[Fraction, ...]       # p
    approx: Interval                   # p - f
    magic: Fraction                    # M = 1.5 2^(52 - f) (the bias is added later)


def _common(cx: _Context, zlo: int, zhi: int, c: Interval) -> tuple[Interval, Interval, Interval]:
    """(D_exact of the integer part, its error, E / 2^f computed) on a piece, for C in c."""
    x = (Fraction(zlo, 1 << 64), Fraction(zhi, 1 << 64))
    e_exact, e_err = integer_part(cx.plan, zlo, zhi, c)
    head_err = (Fraction(0), Fraction(1, 1 << 65)) if cx.plan.k == 3 else ZERO
    return _add(_mul(c, _g(cx.plan.k, x)), e_exact), _add(e_err, head_err), _add(e_exact, e_err)


def _fixed_entry(cx: _Context, zlo: int, zhi: int, expm: bool) -> tuple[Interval, Interval, Interval, TailClaim]:
    """(out - ideal before the bias, D) on a piece for _eval (C = 2^63) or
    _expm_p63 (C = floor(w / 2) in [0, 2^63 - 1]); the tail reads
    v = RN(z >> 1) 2^-63 and c = RN(C) (C itself for _eval).  _expm_p63
    carries the half unit of w that C drops like the adaptors carry rc
    (rc = (w mod 2) / 2, rx = 0), unless conversion_remainder is off."""
    top = Fraction(1 << 63)
    c = (Fraction(0), top - 1) if expm else (top, top)
    d_int, d_err, e = _common(cx, zlo, zhi, c)
    x = (Fraction(zlo, 1 << 64), Fraction(zhi, 1 << 64))
    r = half_ulp(x[1]) if zhi else Fraction(0)
    v_err = (-Fraction(1, 1 << 64) - r, r)
    c_err = (-half_ulp(top), half_ulp(top)) if expm else ZERO
    m = Enclosure((cx.magic, cx.magic), ZERO, (cx.magic, cx.magic))
    half = (Fraction(0), Fraction(1, 2))
    carried = expm and cx.remainders
    if carried:
        m = correction(cx.plan, cx.fma, x, cx.magic, v_err, ZERO, half)
    t = _tail(cx.plan, x, v_err, (max(c[0], Fraction(1)), c[1]) if expm else c, c_err, m)
    if expm and zhi > 1:
        _check_normal(cx.plan.program, list(cx.plan.tail), analyse(cx.plan.program, list(cx.plan.tail), x, v_err,
                                                                  (Fraction(1), c[1]), c_err, [m]),
                      {0: Fraction(1, 1 << 63), 1: Fraction(1), 2: cx.magic})
    approx = _mul(c, cx.approx)
    if carried:   # rc (f - t3): the dropped half unit times f, less what t3 carries
        loss = _neg(_with_zero(_mul(half, _add(_neg(cx.approx), _poly_range(cx.coeffs, cx.plan.k, x)))))
    else:         # (w mod 2) f / 2, not carried
        loss = (Fraction(-1, 2), Fraction(0)) if expm else ZERO
    tq = _add((t.value[0] - cx.magic, t.value[1] - cx.magic), t.error)
    _check_binade(cx, t)
    d = _add(_mul(c, _one_minus_p(cx.coeffs, x)), (m.value[0] - cx.magic, m.value[1] - cx.magic), d_err, t.error)
    return _add(approx, loss, _neg(_add(d_err, t.error))), d, _add(e, tq), TailClaim(zlo, zhi, t.error, t.computed)


def conversion_terms(cx: _Context, x: Interval) -> tuple[Interval, Interval]:
    """(A, Dt) of the Falcon adaptors on a piece: what the conversions of x
    and ccs cost once the correction input has carried what it can (see
    docs/error-model.md).  With the remainders carried, A is what is left
    of x's (nonzero only below 2^-11, where the tail reads 2^-11) and Dt
    is rc (f - t3); without, the x remainder costs C (e^-x - e^-x') in
    [-1, 0] and the ccs remainder rc f(x) in [0, 1)."""
    unit = (Fraction(0), Fraction(1))
    tiny = Fraction(1, 1 << 800)
    if cx.remainders:
        a_term = (Fraction(0), Fraction(1, 1 << 11) + Fraction(1, 1 << 63) + tiny) \
            if x[0] < TAIL_X_MIN else (Fraction(0), tiny)
        return a_term, _with_zero(_mul(unit, _add(_neg(cx.approx), _poly_range(cx.coeffs, cx.plan.k, x))))
    return ((Fraction(-1), tiny) if x[0] < TAIL_X_MIN else (Fraction(0), tiny)), unit


def _fpr_entry(cx: _Context, zlo: int, zhi: int) -> tuple[Interval, Interval, Interval, TailClaim]:
    """(out - ideal before the bias, D) on a piece for the Falcon adaptors:
    x in [z, z + 2) / 2^64, C = trunc(ccs 2^63) in [0, 2^63], c = ccs 2^63 in
    [1/2, 2^63] (smaller ccs are read as 0), the conversion remainders
    carried by the correction input."""
    top = Fraction(1 << 63)
    c = (Fraction(0), top)
    d_int, d_err, e = _common(cx, zlo, zhi, c)
    x = (Fraction(zlo, 1 << 64), Fraction(zhi + 2, 1 << 64))
    v = (max(x[0], TAIL_X_MIN), max(x[1], TAIL_X_MIN))
    if cx.remainders:
        corr = correction(cx.plan, cx.fma, x, cx.magic)
    else:
        corr = Enclosure((cx.magic, cx.magic), ZERO, (cx.magic, cx.magic))
    cs = (C_FLUSH * top, top)        # c = ccs 2^63 for ccs not flushed to 0
    t = _tail(cx.plan, v, ZERO, cs, ZERO, corr)
    encs = analyse(cx.plan.program, list(cx.plan.tail), v, ZERO, cs, ZERO, [corr])
    _check_normal(cx.plan.program, list(cx.plan.tail), encs, {0: TAIL_X_MIN, 1: cs[0], 2: cx.magic})
    f_minus_p = _neg(cx.approx)
    unit = (Fraction(0), Fraction(1))
    a_term, dt = conversion_terms(cx, x)
    if x[0] >= TAIL_X_MIN:
        ct = _with_zero(_mul(unit, _tail_value(cx.plan, x)))
    else:
        small = _tail_value(cx.plan, (Fraction(0), TAIL_X_MIN))
        m = 2 * (top + 1) * max(-small[0], small[1])
        ct = (-m, m)
    ideal_minus_exact = _add(_mul(c, f_minus_p), a_term, dt, ct)
    tq = _add((t.value[0] - cx.magic, t.value[1] - cx.magic), t.error)
    _check_binade(cx, t)
    z = (x[0], Fraction(zhi, 1 << 64))
    d = _add(_mul(c, _one_minus_p(cx.coeffs, z)), ct, (corr.value[0] - cx.magic, corr.value[1] - cx.magic),
             d_err, t.error)
    return (_neg(_add(ideal_minus_exact, d_err, t.error)), d, _add(e, tq),
            TailClaim(zlo, zhi, t.error, t.computed))


def prove(cfg: KernelConfig, plan: HeadPlan, head: Sequence[Fraction]) -> HeadProof:
    """Every entry's interval, the centring bias and the range checks."""
    assert cfg.head is not None
    coeffs = polynomial(plan, head)
    x_hi = Fraction(plan.z_max + 2, 1 << 64)
    approx = approximation_bound(cfg.function_tree, coeffs, Fraction(0), x_hi, 0)
    cx = _Context(plan, cfg.head.fma, cfg.head.conversion_remainder, coeffs, (approx.lo, approx.hi), plan.magic)
    acc = _Acc()
    for zlo, zhi in _pieces(plan.z_max):
        for entry, ranges in (("eval", _fixed_entry(cx, zlo, zhi, False)),
                              ("expm", _fixed_entry(cx, zlo, zhi, True)),
                              ("fpr", _fpr_entry(cx, zlo, zhi))):
            acc.add(entry, *ranges)
    grid = Fraction(2) ** -plan.units
    lo, hi = acc.ivs["fpr"]
    bias = round((lo + hi) / 2 / grid) * grid
    rho = (Fraction(-1, 2), Fraction(1, 2))
    shift = lambda iv: _add(iv, (-bias, -bias), rho)
    d = _add(acc.d, (bias, bias))
    offset = max(1, -((d[0].numerator) // d[0].denominator))
    _check_ranges(plan, d, _add(acc.et, (bias, bias)), offset)
    return HeadProof(approx, bias, shift(acc.ivs["eval"]), shift(acc.ivs["expm"]), shift(acc.ivs["fpr"]), d,
                     offset, {entry: tuple(claims) for entry, claims in acc.claims.items()})


def _check_binade(cx: _Context, t: Enclosure) -> None:
    """The final FMA's result stays in [2^(52-f), 2^(53-f)) (less the
    largest bias), where its ulp is 2^-f and its bits minus the constant's
    are round(T 2^f): the rounding trick's condition."""
    lo, hi = t.computed
    grid = Fraction(2) ** -cx.plan.units
    if not (cx.magic * 2 / 3 + grid * 16 <= lo and hi < cx.magic * 4 / 3 - grid * 16):
        raise GenError("float_tail: the binary64 part may leave the rounding constant's binade; "
                       "raise float_tail")


def _check_ranges(plan: HeadPlan, d: Interval, et: Interval, offset: int) -> None:
    """D + offset stays in [0, 2^63 - 1) (the accumulator, offset by that
    many units, in [0, 2^128 - 2^64) at 2^65 per unit), and E + T fits a
    signed 64-bit word in units of 2^-f."""
    if d[0] + offset < 0 or d[1] + offset >= (1 << 63) - 1:
        raise GenError(f"form head: the accumulator may leave its range ({float(d[0]):.3g}..{float(d[1]):.3g})")
    if max(-et[0], et[1]) * Fraction(2) ** plan.units >= 1 << 63:
        raise GenError("form head: the middle and the binary64 part may not fit a signed word")


def check_budget_head(cfg: KernelConfig, proof: HeadProof) -> None:
    """Refuse a kernel whose proven error exceeds ``max_abs_error_log2``
    (every entry point, the Falcon adaptors included)."""
    budget = cfg.max_abs_error_log2
    if budget is None:
        return
    worst = max(proof.eval_bound, proof.expm_bound, proof.fpr_bound) / Fraction(2) ** 63
    if worst > Fraction(2) ** Fraction(budget):
        raise GenError(f"max_abs_error_log2: proven error {float(worst):.3g} exceeds the budget "
                       f"2^{budget:g}; refusing to emit {cfg.name}")

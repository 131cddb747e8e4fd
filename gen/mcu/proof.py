"""The error bound of a form = "mcu" kernel, in units of 2^-63, against the
exact value ccs exp(-x) 2^63 of the double inputs of _domain_bits (and so
of every adaptor: their edge rules map each input to one of its inputs).

Per row j it assembles:

* A, the approximation: the range of p_j(T) - exp(-(j + T) 2^-7) over
  T in [0, 1], p_j with its coefficients exactly as the kernel reads them
  (rotated a3, a5 packed in a4's word, the bias included), by mpmath
  interval arithmetic on APPROX_PIECES pieces (the centred form: the
  value at the piece's middle plus the derivative's range times the
  half-width), exp's Taylor series to
  degree TAYLOR_TERMS - 1 around the row's start and its remainder
  bounded by twice its first term;
* L, the loss of each product (gen/mcu/design.py): the partial products
  the plan leaves out and the products with the operand's dropped low
  bits, each at its limbs' maxima, plus one unit of the receiving column
  per carry and one unit of the result per right shift.  Every term is
  >= 0: a product keeps at most the exact t y.  As each Horner step
  subtracts its product, the error of y_k is L_k - t err(y_{k+1}), so the
  bounds alternate: err(y_k) lies in [-max(hi_{k+1}, 0), L_k - min(lo_{k+1}, 0)];
* the ccs product's loss, below every result in one direction;
* the conversion of x: z = floor(x 2^64), or 1 below 2^-63, so
  |x - z 2^-64| < 2^-64 and exp(-x) moves by less than 1/2 unit; the
  final shift's floor (below one unit);
* ccs below 2^-63 (the shift count clamped to 63, zero and subnormals
  included): the result (R >> 63 <= 1) and the exact value (< 1) are
  within 2 of each other.

It also proves that nothing wraps: every computed Horner value lies in
[a_k - a_{k+1}, a_k] (a product keeps at most t y <= y and at least 0),
which must fit its word with its top limb at most the maximum the loss
bounds assume; every 32-bit column sum stays below 2^32 at its limbs'
maxima; and a0 < 1, so R = y0 M 2^63 < 2^64.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as F

from mpmath import iv

from ..errors import GenError
from ..exact import fraction_to_interval, interval_to_fractions
from .design import A0_MAX, SEGMENT_BITS, STEPS, Column, Plan, Row, Step

APPROX_PIECES = 256
TAYLOR_TERMS = 13
S63 = F(2) ** 63
CONVERSION = F(1, 2)        # exp(-x) moved by |x - z 2^-64| < 2^-64, times 2^63
FINAL_FLOOR = F(1)
SMALL_CCS = F(2)            # ccs < 2^-63


def _maxima(step: Step, top: int | None = None) -> list[int]:
    """The largest value of each of the operand's limbs the proof assumes
    (``top``: a smaller one for the top limb, e.g. the row's a5)."""
    return [step.top_max if top is None else top] + [limb.largest for limb in step.limbs[1:]]


def _x_maxima(step: Step) -> list[int]:
    return [limb.largest for limb in step.x_limbs]


def loss_bound(step: Step, cols: tuple[Column, ...], top: int | None = None) -> F:
    """The largest loss of one product (a value, not units), its operand's
    top limb at most ``top`` (default: step.top_max)."""
    xl, yl = step.x_limbs, step.limbs
    xm, ym = _x_maxima(step), _maxima(step, top)
    kept = {pair for col in cols for pair in col.pairs}
    out = F(0)
    for i in range(len(xl)):
        out += xm[i] * xl[i].weight * step.dropped
        for k in range(len(yl)):
            if (i, k) not in kept:
                out += xm[i] * xl[i].weight * ym[k] * yl[k].weight
    for col in cols:
        if col.shift is None:
            out += cols[col.j - 1].unit          # the carry's floor: one unit of the column above
        elif col.shift < 0:
            out += step.unit                     # the right shift's floor: one unit of the result
    return out


def column_maxima(step: Step, cols: tuple[Column, ...]) -> list[int]:
    """Each column's largest sum, its carry in included (it must stay below 2^32)."""
    xm, ym = _x_maxima(step), _maxima(step)
    acc: dict[int, int] = {}
    for col in reversed(cols):
        v = sum(xm[i] * ym[k] for i, k in col.pairs)
        if col.j + 1 < len(cols) and cols[col.j + 1].shift is None:
            v += acc[col.j + 1] >> 15
        acc[col.j] = v
    return [acc[c.j] for c in cols]


def approximation(j: int, a: list[F]) -> tuple[F, F]:
    """[min, max] of p_j(T) - exp(-(j + T) 2^-7) over T in [0, 1]."""
    saved = iv.prec
    iv.prec = 200
    try:
        e0 = iv.exp(-iv.mpf(j) / 2 ** SEGMENT_BITS)
        h = iv.mpf(2) ** SEGMENT_BITS
        p = [a[0], -a[1], a[2], -a[3], a[4], -a[5]]
        diff, fact = [], iv.mpf(1)
        for n in range(TAYLOR_TERMS):
            if n:
                fact *= n
            c = fraction_to_interval(p[n]) if n < len(p) else iv.mpf(0)
            diff.append(c - e0 * (-1) ** n / (h ** n * fact))
        # The series' tail for 0 <= T <= 1: below twice its first term (each term is at most 1/(2^7 14) of the last).
        rem = 2 * e0 / (h ** TAYLOR_TERMS * fact * TAYLOR_TERMS)
        # The centred form on each piece: q(m) + q'(t) (t - m), q' by Horner over the whole piece.
        # (Horner of q itself over the piece loses about |q'| times its width: the coefficients of
        # p - f are far larger than their sum, and the bound came out up to twice Sollya's.)
        deriv = [n * c for n, c in enumerate(diff)][1:]
        half = fraction_to_interval(F(1, 2 * APPROX_PIECES))
        lo = hi = None
        for i in range(APPROX_PIECES):
            t = iv.mpf([fraction_to_interval(F(i, APPROX_PIECES)).a, fraction_to_interval(F(i + 1, APPROX_PIECES)).b])
            m = fraction_to_interval(F(2 * i + 1, 2 * APPROX_PIECES))
            q, dq = iv.mpf(0), iv.mpf(0)
            for c in reversed(diff):
                q = q * m + c
            for c in reversed(deriv):
                dq = dq * t + c
            q += dq * iv.mpf([-half.b, half.b])
            qlo, qhi = interval_to_fractions(q + iv.mpf([-1, 1]) * rem)
            lo = qlo if lo is None else min(lo, qlo)
            hi = qhi if hi is None else max(hi, qhi)
    finally:
        iv.prec = saved
    return lo, hi


@dataclass(frozen=True)
class RowBound:
    approx: tuple[F, F]         # p - f
    y0_error: tuple[F, F]       # computed y0 - exact Horner value
    lo: F                       # result - exact, units of 2^-63 (ccs >= 2^-63)
    hi: F


@dataclass(frozen=True)
class McuProof:
    losses: tuple[tuple[F, ...], ...]   # per row, per step (STEPS order), values
    rows: tuple[RowBound, ...]
    column_maxima: tuple[tuple[int, ...], ...]   # per step

    @property
    def lo(self) -> F:
        return min(r.lo for r in self.rows)

    @property
    def hi(self) -> F:
        return max(r.hi for r in self.rows)

    @property
    def total(self) -> F:
        return max(-self.lo, self.hi, SMALL_CCS)

    def terms(self) -> list[tuple[str, F]]:
        """The largest of each term over the rows, units of 2^-63 (the total
        is assembled per row, so it is at most their sum)."""
        names = [f"loss of the {s.name} product" if s.name != "r" else "loss of the ccs product" for s in STEPS]
        out = [(f"approximation |p - f| (interval arithmetic, {APPROX_PIECES} pieces per row)",
                max(max(-r.approx[0], r.approx[1]) for r in self.rows) * S63)]
        out += [(n, max(row[i] for row in self.losses) * S63) for i, n in enumerate(names)]
        out += [("conversion of x (z = floor(x 2^64))", CONVERSION), ("final shift's floor", FINAL_FLOOR)]
        return out


def _ranges(j: int, a: list[F]) -> list[str]:
    """Why a computed Horner value of row j may wrap or exceed the top limb
    the loss bounds assume (none: it cannot)."""
    fails = []
    if a[0] * 2 ** 62 > A0_MAX:
        fails.append(f"row {j}: a0 >= 1, so R may wrap")
    for k, step in enumerate(STEPS[:-1]):        # y4 .. y0: a_{4-k} minus a product of at most a_{5-k}
        ak, above = a[4 - k], a[5 - k]
        lo, hi = ak - above, ak
        n = hi / step.unit
        bits = 64 if step.wide else 32
        if lo < 0 or n >= 2 ** bits:
            fails.append(f"row {j}: {step.name} may wrap")
        nxt = STEPS[k + 1]
        top = nxt.limbs[0]
        top_value = hi / top.weight
        if top_value > nxt.top_max:
            fails.append(f"row {j}: {step.name}'s top limb may exceed {nxt.top_max}")
    return fails


def columns_fit(plan: Plan) -> tuple[tuple[tuple[int, ...], ...], list[str]]:
    """Each step's column maxima, and the columns that may reach 2^32 (the
    plan alone decides: build_mcu checks it before running the model)."""
    cmax, fails = [], []
    for step, cols in zip(STEPS, plan.kept):
        m = column_maxima(step, cols)
        cmax.append(tuple(m))
        fails += [f"{step.name}: column {c.j} may reach {v} >= 2^32" for c, v in zip(cols, m) if v >> 32]
    return tuple(cmax), fails


def _refuse(fails: list[str]) -> None:
    if fails:
        raise GenError(f"form 'mcu': the proof fails: {fails[0]}" + (f" (and {len(fails) - 1} more)" if len(fails) > 1 else ""))


def check_columns(plan: Plan) -> None:
    """GenError if a 32-bit column sum of the plan may wrap."""
    _refuse(columns_fit(plan)[1])


def prove(rows: list[Row], plan: Plan) -> McuProof:
    """The bound of the kernel with table ``rows`` and ``plan``; GenError if
    a range or an accumulator check fails."""
    cmax, fails = columns_fit(plan)
    step_losses = tuple(loss_bound(step, cols) for step, cols in zip(STEPS, plan.kept))
    all_losses, bounds = [], []
    for j, row in enumerate(rows):
        a = row.values()
        fails += _ranges(j, a)
        # The y4 product's operand is the row's own a5: its loss is bounded with it.
        losses = (loss_bound(STEPS[0], plan.kept[0], row.a[5]),) + step_losses[1:]
        e = (F(0), losses[0])                       # y4's error: its own loss only
        for L in losses[1:-1]:
            e = (-max(e[1], F(0)), L - min(e[0], F(0)))
        alo, ahi = approximation(j, a)
        hi = max(F(0), (e[1] + ahi) * S63) + CONVERSION
        lo = min(F(0), (e[0] + alo) * S63) - CONVERSION - FINAL_FLOOR - losses[-1] * S63
        all_losses.append(losses)
        bounds.append(RowBound((alo, ahi), e, lo, hi))
    _refuse(fails)
    return McuProof(tuple(all_losses), tuple(bounds), cmax)

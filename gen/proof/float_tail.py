"""The proof of a binary64 tail (:mod:`gen.floattail`): its scale, the
ranges of its word and the error enclosures on both paths (c = 1 for
_eval, c from ccs for _expm_p63), and that no subnormal reaches the FPU.

Interval arithmetic over a range of v carries for every operation the exact
value's enclosure R and the error enclosure E of the computed value, with
each rounding bounded by half an ulp of the largest magnitude the operation
can produce:

    mul: E = R_a E_b + R_b E_a + E_a E_b + [-r, r]
    add: E = E_a + E_b + [-r, r]          r = 2^(floor(log2 M) - 53)

where M bounds |result| before rounding.  Assumptions, stated next to the
emitted code: binary64 arithmetic with round-to-nearest (FLT_EVAL_METHOD 0,
no x87 extended precision), no subnormal operand or result (proven here for
v >= 2^-64 and c >= 2^-64, and v = 0 or c = 0 give exact zeros), and no
reassociation.  A compiler that contracts a*b + c into one FMA stays within
the bound (one rounding instead of two, of a magnitude the bound already
covers) but may differ from the model in the last bit.  Input: the tail's
first power, the coefficients and the ranges of v; output: a
:class:`TailProof`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from ..errors import GenError
from ..floattail import MANTISSA, Op, hex_double, program, run, to_double

Interval = tuple[Fraction, Fraction]
MIN_NORMAL = Fraction(1, 1 << 1022)


def half_ulp(magnitude: Fraction) -> Fraction:
    """Largest rounding error of a binary64 round-to-nearest result of
    absolute value at most ``magnitude`` (normal range)."""
    if magnitude == 0:
        return Fraction(0)
    e = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** e > magnitude:
        e -= 1
    return Fraction(2) ** (e - MANTISSA)


def _mul(a: Interval, b: Interval) -> Interval:
    products = [x * y for x in a for y in b]
    return min(products), max(products)


def _add(a: Interval, b: Interval) -> Interval:
    return a[0] + b[0], a[1] + b[1]


@dataclass(frozen=True)
class Enclosure:
    value: Interval      # the exact value for exact inputs in the ranges given
    error: Interval      # computed value minus exact value
    computed: Interval   # the computed value (value + error, tightened by signs)


def analyse(ops: Sequence[Op], coeffs: Sequence[Fraction], v: Interval, v_error: Interval,
            c: Interval, c_error: Interval, extra: Sequence[Enclosure] = ()) -> list[Enclosure]:
    """Per operation: enclosures of its exact value and of the error of the
    computed one, for exact inputs v and c in the intervals given, read with
    input errors in v_error and c_error (``extra``: the enclosures of the
    extra inputs).  The last entry is the tail's.  An FMA is one rounding
    of the exact a b + c."""
    out: list[Enclosure] = []
    zero = Fraction(0)
    for op in ops:
        if op.kind in ("v", "c"):
            exact, error = (v, v_error) if op.kind == "v" else (c, c_error)
            # The inputs are conversions of unsigned words: never negative.
            out.append(Enclosure(exact, error, (max(zero, exact[0] + error[0]), exact[1] + error[1])))
            continue
        if op.kind == "in":
            out.append(extra[op.index])
            continue
        if op.kind == "coef":
            b = coeffs[op.index]
            out.append(Enclosure((b, b), (zero, zero), (b, b)))
            continue
        a, b = out[op.args[0]], out[op.args[1]]
        if op.kind in ("mul", "fma"):
            exact = _mul(a.value, b.value)
            before = _mul(a.computed, b.computed)
            spread = _add(_add(_mul(a.value, b.error), _mul(b.value, a.error)), _mul(a.error, b.error))
            if op.kind == "fma":
                c_in = out[op.args[2]]
                exact, before = _add(exact, c_in.value), _add(before, c_in.computed)
                spread = _add(spread, c_in.error)
        elif op.kind == "sub":
            nb = lambda iv: (-iv[1], -iv[0])
            exact = _add(a.value, nb(b.value))
            before = _add(a.computed, nb(b.computed))
            spread = _add(a.error, nb(b.error))
        else:
            exact = _add(a.value, b.value)
            before = _add(a.computed, b.computed)
            spread = _add(a.error, b.error)
        r = rounding_error(op, before)
        error = (spread[0] - r, spread[1] + r)
        # Rounding to nearest is monotone: the computed value lies within
        # the rounded ends of ``before``, and never beyond them by more than r.
        computed = (max(before[0] - r, exact[0] + error[0]), min(before[1] + r, exact[1] + error[1]))
        if before[0] >= 0:
            computed = (max(computed[0], zero), computed[1])
        out.append(Enclosure(exact, error, computed))
    return out


def rounding_error(op: Op, before: Interval) -> Fraction:
    """What rounding to nearest can add to one operation whose exact result
    lies in ``before``: half an ulp of its largest magnitude (an FMA rounds
    once, its exact a b + c)."""
    return half_ulp(max(abs(before[0]), abs(before[1])))


def check_normal(ops: Sequence[Op], coeffs: Sequence[Fraction], smallest_input: Fraction,
                 sums: dict[int, Interval], extra_smallest: Optional[dict[int, Fraction]] = None) -> None:
    """Prove that no nonzero intermediate is subnormal (subnormal operands
    take a slow, data-dependent path on many CPUs).  Inputs are 0 or at
    least ``smallest_input`` in magnitude (an extra input n: 0 or at least
    ``extra_smallest[n]``); a product of nonzero values is at least the
    product of their smallest magnitudes; a sum must be bounded away from 0
    (``sums[n]``: an enclosure of the computed sum n over every input: value
    plus error from :func:`analyse`, joined over all inputs)."""
    smallest: list[Fraction] = []
    for n, op in enumerate(ops):
        if op.kind in ("v", "c"):
            smallest.append(smallest_input)
        elif op.kind == "in" and extra_smallest is not None and n in extra_smallest:
            smallest.append(extra_smallest[n])
        elif op.kind == "coef":
            smallest.append(abs(coeffs[op.index]) if coeffs[op.index] else Fraction(1))
        elif op.kind == "mul":
            smallest.append(smallest[op.args[0]] * smallest[op.args[1]])
        else:
            lo, hi = sums.get(n, (Fraction(0), Fraction(0)))
            if lo <= 0 <= hi:
                raise GenError(f"float_tail: the sum {op.label} is not bounded away from 0")
            smallest.append(min(abs(lo), abs(hi)))
        if smallest[-1] < MIN_NORMAL:
            raise GenError(f"float_tail: {op.label} may be subnormal")


def input_error(hi: Fraction, below: Fraction, above: Fraction) -> Interval:
    """Error of a double made as RN(integer) * 2^-63 from a value of at most
    hi: [-below, above] plus the conversion's rounding."""
    r = half_ulp(hi)
    return -below - r, above + r


@dataclass(frozen=True)
class TailProof:
    """Everything the kernel needs about its tail, proven."""

    first: int                          # k: the tail holds a_k .. a_d
    ops: tuple[Op, ...]
    coeffs: tuple[Fraction, ...]        # b_i = sigma a_(k+i) 2^scale, binary64 values
    scale: int                          # s: U stands for sigma U 2^-s
    sign: int                           # sigma
    ranges: tuple[tuple[tuple[int, int], ...], ...]   # [segment][piece]: U, eval path (c = 1)
    eps_eval: tuple[Interval, ...]      # [segment]: U - t(v) 2^s, units of 2^-s, c = 1
    eps_expm: tuple[Interval, ...]      # [segment]: U - (w / 2^64) t(v) 2^s, c from w
    u_max_expm: int                     # largest U on the expm path
    zero_below: Fraction                # U = 0 on both paths whenever v < zero_below
    relative: bool                      # U <= (1 + RELATIVE) t(v) 2^s + 1 for every v (c = 1)

    def model(self, T: int, w: Optional[int] = None) -> int:
        """U exactly as the emitted C computes it: v from T (v = T / 2^64) and
        c from w (Q0.64), or c = 1."""
        c = 1.0 if w is None else to_double(w)
        return int(run(self.ops, [float(b) for b in self.coeffs], to_double(T), c))


# The tail's c reads ccs = w / 2^64 in one of two ways.  The kernel's
# _expm_p63(z, w) uses cd = RN(floor(w / 2)) 2^-63: an error in
# [-2^-64 - r, r] (r: the conversion's rounding, at most half an ulp of 1);
# w >= 2 gives cd >= 2^-63, w < 2 gives cd = 0 and an exact zero tail.  The
# Falcon adaptors use the double ccs itself (0 below 2^-63), from which
# w = 2 trunc(ccs 2^63): ccs - w / 2^64 lies in [0, 2^-63).  The enclosure
# covers both.
C_SMALLEST = Fraction(1, 1 << 63)
C_ERROR = input_error(Fraction(1), Fraction(1, 1 << 64), Fraction(1, 1 << 63))
ZERO_BELOW = Fraction(1, 1 << 11)
# A pointwise upper bound of the tail word by its exact value, for Gappa
# (whose hypotheses cannot depend on the piece): U <= (1 + 2^-35) t 2^s + 1.
RELATIVE = Fraction(1, 1 << 35)


def prove(first: int, degree: int, evaluation: str, coefficients: Sequence[Sequence[Fraction]],
          sign: int, pieces: Sequence[Sequence[tuple[int, int]]], word_bits: int) -> TailProof:
    """Scale, ranges and error enclosures of the tail.  ``coefficients[i]``
    are segment i's real a_k..a_d (binary64 values); ``pieces[i]`` the
    ranges of T (v = T / 2^W) on which the enclosures are computed.  The
    scale is the largest that keeps every computed t 2^s below 2^63 (the
    signed conversion), on both the c = 1 and the c-from-w path."""
    if len(coefficients) != 1:
        raise GenError("float_tail: needs a single segment")
    ops = tuple(program(first, degree, evaluation))
    unit = Fraction(1, 1 << word_bits)
    base = [sign * a for a in coefficients[0]]
    one = (Fraction(1), Fraction(1))
    zero = (Fraction(0), Fraction(0))
    c_range = (C_SMALLEST, Fraction(1))
    sums: dict[int, tuple[Fraction, Fraction]] = {}

    def enclose(bs: Sequence[Fraction]) -> list[tuple[Enclosure, Enclosure, tuple[int, int]]]:
        out = []
        for lo, hi in pieces[0]:
            v = (lo * unit, hi * unit)
            v_err = input_error(v[1], unit, Fraction(0)) if hi else zero
            at_one = analyse(ops, bs, v, v_err, one, zero)
            from_w = analyse(ops, bs, v, v_err, c_range, C_ERROR)
            for n, op in enumerate(ops):
                if op.kind == "add":
                    for enc in (at_one[n], from_w[n]):
                        got = enc.computed
                        old = sums.get(n, got)
                        sums[n] = (min(old[0], got[0]), max(old[1], got[1]))
            out.append((at_one[-1], from_w[-1], (lo, hi)))
        return out

    first_pass = enclose(base)
    top = max(max(e.computed[1] for e in pair[:2]) for pair in first_pass)
    if min(min(e.computed[0] for e in pair[:2]) for pair in first_pass) < 0:
        raise GenError("float_tail: the tail's sign is not provably constant")
    scale = 0
    while top * Fraction(2) ** (scale + 1) < 2 ** 63:
        scale += 1
    while top * Fraction(2) ** scale >= 2 ** 63:
        scale -= 1
    factor = Fraction(2) ** scale
    coeffs = tuple(b * factor for b in base)
    for b in coeffs:
        hex_double(b)   # refuses a coefficient that is not a binary64 value
    check_normal(ops, coeffs, C_SMALLEST, {n: (lo * factor, hi * factor) for n, (lo, hi) in sums.items()})
    ranges, e_lo, e_hi, x_lo, x_hi, u_max_w = [], [], [], [], [], 0
    zero_ok = relative = True
    for at_one, from_w, (lo, hi) in first_pass:
        # Scaling by 2^s is exact in binary64 (no overflow or underflow:
        # check_normal), so the scaled enclosures are the unscaled ones times 2^s.
        a_lo, a_hi = at_one.computed[0] * factor, at_one.computed[1] * factor
        w_hi = from_w.computed[1] * factor
        ranges.append((int(a_lo), int(a_hi)))
        u_max_w = max(u_max_w, int(w_hi))
        e_lo.append(at_one.error[0] * factor - 1)
        e_hi.append(at_one.error[1] * factor)
        # c from w: w < 2 gives U = 0 against an exact c t 2^s <= 2^-63 t 2^s.
        tiny = from_w.value[1] * factor * C_SMALLEST
        x_lo.append(min(from_w.error[0] * factor - 1, -tiny))
        x_hi.append(from_w.error[1] * factor)
        if hi * unit < ZERO_BELOW and max(a_hi, w_hi) >= 1:
            zero_ok = False
        # On a piece either U = 0 <= the exact t (never negative), or the
        # error is below RELATIVE times the smallest exact t of the piece.
        if not (a_hi < 1 and at_one.value[0] >= 0) and \
                at_one.error[1] * factor > RELATIVE * at_one.value[0] * factor + 1:
            relative = False
    return TailProof(first, ops, coeffs, scale, sign, (tuple(ranges),),
                     ((min(e_lo), max(e_hi)),), ((min(x_lo), max(x_hi)),), u_max_w,
                     ZERO_BELOW if zero_ok else Fraction(0), relative)


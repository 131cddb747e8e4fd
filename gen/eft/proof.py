"""The error bound of a form = "eft" kernel, in units of 2^-63, against the
exact value ccs exp(-x) 2^63 of the doubles passed (docs/error-model.md,
"Form eft").

The bound is assembled from fixed lemmas about the large part, each
checked here with the kernel's own numbers, and a propagation over the
operation list of the small part:

* L1-L3 (exact steps).  m = RN(16 x + 1.5 2^52) = 1.5 2^52 + round(16 x)
  because 16 x < 2^51; t = x - j/16 is exact (t = x for j = 0, Sterbenz for
  j >= 1, where x lies in [j/32, 2 j/16]); the table holds 2^63 Eh and
  2^63 El, so ccs times an entry is W Eh or W El with W = ccs 2^63.
* L4 (binade).  Each exact sum behind s1, s2, s3 lies in [2^64, 2^65), so
  the three s are there too (2^64 and 2^65 are doubles, rounding is
  monotone); doubles there are the multiples of 2^12, so z1, y and s2 - s3
  are exact and the rounding errors e1*, e2*, e3* of s1, s2, s3 are at most
  2^11; e1, e2, e3 are those errors rounded once (FMA), within 2^-42.
* The identity 2^64 + W E e^-t = s3 + e3* + e2* (1 - t e2(t)) + (y t)(t r(t))
  + (e1* + W El + W epsE) e^-t with E = exp(-j/16) = Eh + El + epsE,
  e2(t) = (e^-t - 1 + t)/t^2 = 1/2 + t r(t).  The kernel returns
  bits(s3) << 12 (= s3 - 2^64) plus the small part rounded to an integer.
* The small part is propagated operation by operation with exact rational
  intervals: each value carries the range of its ideal (the same operation
  on exact inputs, p in place of r) and a bound on |computed - ideal|
  (input errors carried through, plus u |v| + 2^-1075 per rounding, u = 2^-53,
  so the bound holds even if a value were subnormal).
* The approximation term: sup over |t| <= 1/32 of
  ((2^63 + Lmax) |t|^3 + 2^12 t^2) |p(t) - r(t)|, the weight bounding the
  factors that multiply p - r in the small part, by interval arithmetic
  (mpmath iv, 200 bits) on subintervals with the Taylor tail of r bounded.
* The table term 2^63 max |epsE| e^(1/32), the final rounding 1/2, and the
  flush of x < 2^-80 to 0 (at most 2^63 x <= 2^-17).  ccs < 2^-64 gives
  W = 0 and the result 0 exactly, an error below 1/2.
* L7 (no subnormal, which the constant-time argument needs: a subnormal
  operand or result can take a microcode assist).  Every double is an
  integer multiple of 2^-g for some g, its grain: x, flushed, is 0 or at
  least 2^-80, so a multiple of 2^-132; ccs one of 2^-116; a constant its
  own.  A product's exact value has the sum of its factors' grains, a sum
  the larger one, and rounding to nearest keeps a multiple of 2^-g (of the
  result's ulp, or the exact value itself when that is finer); a result
  whose propagated range keeps it at least L away from 0 is also a
  multiple of ulp(L).  If every grain is at most 1022, a nonzero value is
  at least 2^-1022: normal.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from typing import Any

from mpmath import iv

from ..errors import GenError
from ..exact import fraction_to_interval as _iv
from ..exact import interval_to_fractions
from ..proof.float_tail import MIN_NORMAL, half_ulp
from .design import (C64, C_FLUSH, INDEX_OPS, MAGIC52, ROWS, SEGMENTS, X_DOMAIN_END, X_FLUSH, Design, Op,
                     constants, main_ops, r_taylor)

U = Fraction(1, 2 ** 53)
TINY = Fraction(1, 2 ** 1075)          # the absolute rounding error of a subnormal result
H = Fraction(1, 2 * SEGMENTS)          # |t| <= 1/32
W_MAX = Fraction(2) ** 63
E_HALF = Fraction(2) ** 11             # half the spacing of the doubles in [2^64, 2^65)
APPROX_PIECES = 2048                   # subintervals of [-1/32, 1/32] for the approximation term
TAYLOR_TERMS = 16                      # terms of r's series kept exactly; the rest is bounded


@dataclass(frozen=True)
class Term:
    name: str
    bound: Fraction        # units of 2^-63, an upper bound


@dataclass(frozen=True)
class SmallClaim:
    """The rounding term of the small part as a claim an independent tool
    can re-prove (certify/gappa_eft.py): for inputs in their ranges, exact
    ones (``inputs``) and ones the C code gets rounded once from an ideal
    in the range (``rounded_inputs``: e1, e2, e3), the operations ``ops``
    done in binary64 stay within ``error`` of the same operations done
    exactly."""

    ops: tuple[Op, ...]
    inputs: dict[str, tuple[Fraction, Fraction]]
    rounded_inputs: dict[str, tuple[Fraction, Fraction]]
    error: Fraction


@dataclass(frozen=True)
class EftProof:
    terms: tuple[Term, ...]
    small_max: Fraction    # |small| never exceeds this
    lemmas: tuple[str, ...]
    small_claim: SmallClaim

    @property
    def total(self) -> Fraction:
        return sum((t.bound for t in self.terms), Fraction(0))


@dataclass(frozen=True)
class Iv:
    lo: Fraction
    hi: Fraction

    @property
    def mag(self) -> Fraction:
        return max(abs(self.lo), abs(self.hi))

    def widen(self, e: Fraction) -> "Iv":
        return Iv(self.lo - e, self.hi + e)


def _mul(a: Iv, b: Iv) -> Iv:
    p = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
    return Iv(min(p), max(p))


def _add(a: Iv, b: Iv) -> Iv:
    return Iv(a.lo + b.lo, a.hi + b.hi)


def _neg(a: Iv) -> Iv:
    return Iv(-a.hi, -a.lo)


def _op_range(kind: str, a: Iv, b: Iv, c: Iv | None) -> Iv:
    """The range of an operation's exact value over its operands' ranges."""
    if kind in ("fma", "fnma", "fms"):
        p = _mul(a, b)
        assert c is not None
        return _add(p, c) if kind == "fma" else _add(_neg(p), c) if kind == "fnma" else _add(p, _neg(c))
    if kind == "mul":
        return _mul(a, b)
    return _add(a, b) if kind == "add" else _add(a, _neg(b))


@dataclass(frozen=True)
class Val:
    ideal: Iv              # the range of the ideal value
    err: Fraction          # |computed - ideal| <= err


def _step(kind: str, args: list[Val]) -> Val:
    """One rounded operation: the ideal's range, and the computed value's
    distance to it (what the inputs' errors cause, plus the rounding)."""
    a, b = args[0], args[1]
    c = args[2] if len(args) > 2 else None
    ideal = _op_range(kind, a.ideal, b.ideal, c.ideal if c else None)
    if kind in ("fma", "fnma", "fms", "mul"):
        carried = a.err * (b.ideal.mag + b.err) + a.ideal.mag * b.err + (c.err if c else 0)
    else:
        carried = a.err + b.err
    computed = _op_range(kind, a.ideal.widen(a.err), b.ideal.widen(b.err),
                         c.ideal.widen(c.err) if c else None)
    return Val(ideal, carried + U * computed.mag + TINY)


def _to_fraction_up(v: Any) -> Fraction:
    """An upper bound of an mpmath interval, as an exact rational."""
    return interval_to_fractions(v)[1]


def _table_term(d: Design) -> Fraction:
    iv.prec = 200
    worst = Fraction(0)
    for j in range(ROWS):
        e = iv.exp(-iv.mpf(j) / SEGMENTS) - iv.mpf(d.eh[j]) - iv.mpf(d.el[j])
        worst = max(worst, _to_fraction_up(abs(e)))
    return W_MAX * worst * _to_fraction_up(iv.exp(iv.mpf(1) / (2 * SEGMENTS)))


def _approx_term(d: Design, l_max: Fraction) -> Fraction:
    """sup over |t| <= H of ((2^63 + l_max)|t|^3 + 2^12 t^2) |p(t) - r(t)|."""
    iv.prec = 200
    k = TAYLOR_TERMS
    diff = [r_taylor(i) - (Fraction(d.poly[i]) if i < len(d.poly) else 0) for i in range(k + 1)]
    # |sum_{i>k} r_i t^i| <= H^(k+1)/(k+4)! / (1 - H): the series' terms fall by more than H.
    tail = Fraction(1)
    for i in range(2, k + 5):
        tail *= i
    tail = H ** (k + 1) / tail / (1 - H)
    cdiff = [_iv(c) for c in diff]
    w3, w2 = _iv(W_MAX + l_max), _iv(2 * E_HALF)
    itail = iv.mpf(0) + _iv(tail) * iv.mpf([0, 1])
    worst = Fraction(0)
    h = _iv(H)
    for i in range(APPROX_PIECES):
        t = -h + 2 * h * i / APPROX_PIECES
        t = iv.mpf([t.a, (-h + 2 * h * (i + 1) / APPROX_PIECES).b])
        q = iv.mpf(0)
        for c in reversed(cdiff):
            q = q * t + c
        q = abs(q) + itail
        at = abs(t)
        worst = max(worst, _to_fraction_up((w3 * at ** 3 + w2 * at ** 2) * q))
    return worst


BIG_PART = ("s1", "z1", "e1", "s2", "y", "e2", "th", "s3", "d3", "e3")   # covered by the lemmas
BINADE_SUMS = ("s1", "s2", "s3")                                           # in [2^64, 2^65) by L4


def small_ops(d: Design) -> tuple[Op, ...]:
    """The operations of the small part: those after the large part's."""
    return tuple(op for op in main_ops(len(d.poly) - 1) if op.dest not in BIG_PART)


def _small_part(d: Design) -> tuple[Val, dict[str, Val]]:
    """The small part's operations propagated from its inputs."""
    el = [Fraction(v) for v in d.el63[:ROWS]]
    y_max = W_MAX * H + E_HALF
    vals: dict[str, Val] = {k: Val(Iv(v, v), Fraction(0)) for k, v in constants(d).items()}
    vals |= {
        "t": Val(Iv(-H, H), Fraction(0)),
        "y": Val(Iv(-y_max, y_max), Fraction(0)),
        "ccs": Val(Iv(Fraction(0), Fraction(1)), Fraction(0)),
        "El": Val(Iv(min(el), max(el)), Fraction(0)),
    }
    for e in ("e1", "e2", "e3"):
        vals[e] = Val(Iv(-E_HALF, E_HALF), U * E_HALF)
    for op in small_ops(d):
        vals[op.dest] = _step(op.kind, [vals[a] for a in op.args])
    return vals["sm3"], vals


def _lemmas(d: Design, small_max: Fraction) -> tuple[str, ...]:
    """The large part's lemmas with this kernel's numbers; GenError if one fails."""
    x_end = X_DOMAIN_END
    checks = [
        (SEGMENTS * x_end + MAGIC52 < Fraction(2) ** 53 and SEGMENTS * x_end < Fraction(2) ** 51,
         f"L1: 16 x < {SEGMENTS * x_end} < 2^51, so m = 1.5 2^52 + round(16 x) and its low 4 bits are j <= 11"),
        (all(Fraction(j, 32) <= Fraction(2 * j - 1, 32) and Fraction(2 * j + 1, 32) <= Fraction(2 * j, 16)
             for j in range(1, ROWS)),
         "L2: for j >= 1, x in [(2j - 1)/32, (2j + 1)/32] lies in [j/32, 2 j/16]: x - j/16 is exact (Sterbenz)"),
        (max(Fraction(v) for v in d.eh63) <= W_MAX,
         "L4a: ccs 2^63 Eh <= 2^63, so 2^64 + ccs 2^63 Eh lies in [2^64, 2^64 + 2^63]"),
        (C64 + W_MAX * (1 + H) + E_HALF < 2 * C64,
         "L4b: s1 - z1 t = 2^64 + z1 (1 - t) and s2 + y t/2 (y t >= 0) lie in [2^64, 2^64 + 2^63 (1 + 1/32) + 2^12]"),
        (small_max < Fraction(2) ** 51,
         f"L6: |small| <= {float(small_max):.6g} < 2^51: the magic-number add and VCVTPD2QQ give the same integer"),
    ]
    for ok, text in checks:
        if not ok:
            raise GenError(f"form 'eft': a lemma of the proof fails: {text}")
    return tuple(text for _, text in checks)


def _grain_of_constant(v: Fraction) -> int:
    """The largest g for which the dyadic v is an integer multiple of
    2^-g (v != 0)."""
    num, g = v.numerator, v.denominator.bit_length() - 1
    while num % 2 == 0:
        num //= 2
        g -= 1
    return g


def _grain_of_input(least: Fraction) -> int:
    """The grain of a double that is 0 or at least ``least`` (> 0): a
    multiple of the ulp of the doubles of least's binade, since every
    larger double is a multiple of it too."""
    return _grain_of_constant(2 * half_ulp(least))


NORMAL_GRAIN = _grain_of_constant(MIN_NORMAL)   # 1022: a nonzero multiple of 2^-1022 is normal


def _exact_grain(kind: str, g: list[int]) -> int:
    """The grain of an operation's exact value from its operands' grains."""
    if kind in ("fma", "fnma", "fms"):
        return max(g[0] + g[1], g[2])
    if kind == "mul":
        return g[0] + g[1]
    return max(g[0], g[1])


def grains(d: Design, vals: dict[str, Val], x_least: Fraction = X_FLUSH,
           c_least: Fraction = C_FLUSH) -> dict[str, int]:
    """For every input, constant and operation of the list, a g such that
    the value the kernel computes is an integer multiple of 2^-g.
    ``vals`` gives the ranges of the small part (:func:`_small_part`);
    ``x_least`` and ``c_least`` are the flush levels (x and ccs are 0 or at
    least these)."""
    grain: dict[str, int] = {k: _grain_of_constant(v) for k, v in constants(d).items() if v != 0}
    grain["x"] = _grain_of_input(x_least)
    grain["ccs"] = _grain_of_input(c_least)
    for name, rows in (("Eh", d.eh63), ("El", d.el63)):
        grain[name] = max(_grain_of_constant(Fraction(v)) for v in rows if v != 0)
    for op in INDEX_OPS + main_ops(len(d.poly) - 1):
        g = _exact_grain(op.kind, [grain[a] for a in op.args])
        least = C64 if op.dest in BINADE_SUMS else Fraction(0)
        if op.dest in vals:
            r = vals[op.dest].ideal.widen(vals[op.dest].err)
            least = r.lo if r.lo > 0 else -r.hi if r.hi < 0 else Fraction(0)
        if least > 0:
            g = min(g, _grain_of_input(least))
        grain[op.dest] = g
    return grain


def no_subnormal(grain: dict[str, int]) -> tuple[int, str]:
    """Lemma L7 from :func:`grains`: the largest grain and its name;
    GenError naming the first value (in evaluation order, so the cause)
    whose grain exceeds 1022."""
    for name, g in grain.items():
        if g > NORMAL_GRAIN:
            raise GenError(f"form 'eft': {name} may be subnormal: it is known only to be a multiple of 2^-{g}")
    worst = max(grain, key=lambda k: grain[k])
    return grain[worst], worst


def prove(d: Design) -> EftProof:
    """Every term of the bound; GenError if a lemma does not hold."""
    sm3, vals = _small_part(d)
    small_max = sm3.ideal.mag + sm3.err
    l_max = max(abs(Fraction(v)) for v in d.el63[:ROWS]) + E_HALF
    terms = (
        Term("final rounding of the small part to an integer", Fraction(1, 2)),
        Term("p - r, weighted by what multiplies it (interval arithmetic)", _approx_term(d, l_max)),
        Term("binary64 roundings of the small part, e1, e2, e3 included (propagated)", sm3.err),
        Term("table: 2^63 max |exp(-j/16) - Eh - El| e^(1/32)", _table_term(d)),
        Term("flush of x < 2^-80 to 0: 2^63 x", Fraction(2) ** 63 * X_FLUSH),
    )
    inputs = {name: (vals[name].ideal.lo, vals[name].ideal.hi) for name in ("t", "y", "ccs", "El")}
    rounded = {name: (vals[name].ideal.lo, vals[name].ideal.hi) for name in ("e1", "e2", "e3")}
    claim = SmallClaim(small_ops(d), inputs, rounded, sm3.err)
    lemmas = _lemmas(d, small_max)                # L4 first: no_subnormal uses its binade
    g, worst = no_subnormal(grains(d, vals))
    l7 = (f"L7: every value is a multiple of 2^-g with g <= {g} <= 1022 (the finest: {worst}; x is 0 or a "
          f"multiple of 2^-{_grain_of_input(X_FLUSH)}, ccs of 2^-{_grain_of_input(C_FLUSH)}): no subnormal")
    return EftProof(terms, small_max, lemmas + (l7,), claim)

"""Quantization of form = "head": the fitted coefficients in, a
:class:`HeadPlan` out (the middle's integers and common scale, the shifts of
the fixed-point products, the tail's binary64 program and the units the
parts are added in), with proven ranges: no word of the integer part can
leave [0, 2^64) and the accumulator cannot leave [0, 2^128).

The kernel returns R = C - round(D) with C = ccs 2^63 (an integer of
[0, 2^63]; 2^63 is ccs = 1) and D ~= C (1 - p(x)), p the whole polynomial:

    D = C G(x) + C x^k mid(x) + cs x^j tail(x)     (+ corrections, adaptors)

* head: G = x (k = 2) or x - x^2/2 (k = 3), exact: D_head = 2 C z -
  (C zz_hi + hi(C zz_lo)) in units of 2^-65, zz = z^2 exact (128 bits);
* middle: mid(x) = n_0 + n_1 x + ... + n_dm x^dm in fixed point, every word
  at one scale 2^s (no alignment shifts): pairs n_2i + n_2i+1 x, combined
  by Horner's scheme in x^2 (the head's zz_hi), then E = hi(cx, m) with
  cx = C x^k 2^e1 from two products: E ~= C x^k mid 2^f, f = e1 + s - 64;
* tail: powers j..d in binary64 (gen/floattail.py head_program), with the
  corrections and a rounding constant 1.5 2^(52 - f) folded in, so the
  final FMA rounds it to units of 2^-f (the "2^52 trick");
* D = D_head + (E + T) 2^(65 - f), R = C - floor(D / 2^65 + 1/2).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from ..config import KernelConfig
from ..errors import GenError
from ..floattail import Op, head_program
from ..segments import Segmentation
from . import round_nearest
from . import _pieces as pieces_of

Interval = tuple[int, int]


@dataclass(frozen=True)
class HeadPlan:
    k: int                               # exact head: T_k
    step: int                            # middle: 2 = pairs in x, Horner in x^2 (estrin); 1 = Horner in x
    first_tail: int                      # j: the first binary64 power
    mid_scale: int                       # s: every middle word stands for value 2^-s
    mid_words: tuple[int, ...]           # |n_i| 2^s, rounded
    mid_signs: tuple[int, ...]           # sign of n_i
    pair_signs: tuple[int, ...]          # sign of pair i (n_2i + n_2i+1 x)
    acc_signs: tuple[int, ...]           # sign of Horner accumulator i (acc_0 = mid)
    cx_shift: int                        # r: cx = (u zh) >> r (k = 3) or (C zh) >> r (k = 2)
    e1: int                              # cx ~= C x^k 2^e1
    units: int                           # f: E and the tail in units of 2^-f
    tail: tuple[Fraction, ...]           # t_i, binary64 values: tail(x) = sum t_i x^i
    program: tuple[Op, ...]              # the binary64 part (gen.floattail.head_program)
    z_max: int

    @property
    def magic(self) -> Fraction:
        """1.5 2^(52 - f): adding it rounds to units of 2^-f."""
        return Fraction(3, 2) * Fraction(2) ** (52 - self.units)

    def mid_value(self) -> tuple[Fraction, ...]:
        """The quantized middle's coefficients (exact)."""
        return tuple(sg * Fraction(w, 1 << self.mid_scale) for sg, w in zip(self.mid_signs, self.mid_words))


def _hi_range(a: Interval, b: Interval) -> Interval:
    return (a[0] * b[0]) >> 64, (a[1] * b[1]) >> 64


def _combine(sign_a: int, a: Interval, sign_b: int, b: Interval, sign: int) -> Optional[Interval]:
    """|sign_a a + sign_b b| as the word of a value of sign ``sign``, or
    None if it may leave [0, 2^64) or change sign."""
    lo = sign * (sign_a * (a[0] if sign_a * sign > 0 else a[1]) + sign_b * (b[0] if sign_b * sign > 0 else b[1]))
    hi = sign * (sign_a * (a[1] if sign_a * sign > 0 else a[0]) + sign_b * (b[1] if sign_b * sign > 0 else b[0]))
    return (lo, hi) if 0 <= lo and hi < 1 << 64 else None


def _signs(values: Sequence[Fraction], x_max: Fraction, what: str, step: int) -> list[int]:
    """Signs of the groups: pair values n_2i + n_2i+1 x (step 2; linear:
    their ends) or single coefficients (step 1), which must not change on
    [0, x_max]."""
    out = []
    for i in range(0, len(values), step):
        ends = [values[i] + (values[i + 1] * x if step == 2 and i + 1 < len(values) else 0)
                for x in (Fraction(0), x_max)]
        if ends[0] * ends[1] <= 0:
            raise GenError(f"float_tail: the {what} term {i}..{i + 1} changes sign on the domain; "
                           "move float_tail")
        out.append(1 if ends[0] > 0 else -1)
    return out


def _middle_ranges(words: Sequence[int], signs: Sequence[int], pair_signs: Sequence[int],
                   acc_signs: Sequence[int], pieces: Sequence[Interval], step: int) -> bool:
    """Whether every middle word fits [0, 2^64) with its sign on every piece
    of z (exact integer interval arithmetic on the computed words)."""
    for zlo, zhi in pieces:
        z, zh = (zlo, zhi), ((zlo * zlo) >> 64, (zhi * zhi) >> 64)
        mult = zh if step == 2 else z
        pairs = []
        for p, i in enumerate(range(0, len(words), step)):
            w = (words[i], words[i])
            if step == 2 and i + 1 < len(words):
                w = _combine(signs[i], w, signs[i + 1], _hi_range(z, (words[i + 1], words[i + 1])), pair_signs[p])
                if w is None:
                    return False
            pairs.append(w)
        acc = pairs[-1]
        for p in range(len(pairs) - 2, -1, -1):
            acc = _combine(pair_signs[p], pairs[p], acc_signs[p + 1], _hi_range(mult, acc), acc_signs[p])
            if acc is None:
                return False
    return True


def _acc_signs(mid: Sequence[Fraction], pair_signs: Sequence[int], x_max: Fraction, step: int) -> list[int]:
    """Signs of the Horner accumulators, from the exact polynomial at nine
    points (each a polynomial in x; they must not change sign)."""
    count = len(pair_signs)
    out = [0] * count
    for p in range(count):
        vals = [sum(mid[i] * x ** (i - step * p) for i in range(step * p, len(mid))) for x in
                (x_max * t / 8 for t in range(9))]
        if min(vals) * max(vals) <= 0 or (p == 0 and min(vals) <= 0):
            raise GenError("float_tail: the middle part changes sign (or is not positive) on the domain; "
                           "move float_tail")
        out[p] = 1 if vals[0] > 0 else -1
    return out


def _cx(k: int, x_max: Fraction, z_max: int) -> tuple[int, int]:
    """(r, e1): the shift of cx's product and cx's scale, the largest that
    keeps cx below 2^64 for C = 2^63 and z = z_max."""
    top = 1 << 63
    u = (top * z_max) >> 63 if k == 3 else top
    zh = (z_max * z_max) >> 64
    for r in range(40, 128):
        if (u * zh) >> r < 1 << 64:
            return r, (65 if k == 3 else 64) - r
    raise GenError("form: internal error, no shift keeps C x^k in a word")


def _units_max(tail: Sequence[Fraction], first: int, x_max: Fraction) -> int:
    """The largest f for which the binary64 part, at most 2^63 x^j tail(x)
    plus 2 units of corrections and bias, stays below 2^(51 - f) with a
    margin: the rounding constant 1.5 2^(52 - f) keeps it in its binade.
    tail(x) is bounded by Horner's scheme in interval arithmetic on 64
    pieces of [0, x_max]."""
    top = Fraction(0)
    for p in range(64):
        lo, hi = x_max * p / 64, x_max * (p + 1) / 64
        acc = (Fraction(0), Fraction(0))
        for t in reversed(tail):
            prods = [acc[0] * lo, acc[0] * hi, acc[1] * lo, acc[1] * hi]
            acc = (min(prods) + t, max(prods) + t)
        top = max(top, max(abs(acc[0]), abs(acc[1])) * hi ** first)
    total = top * (1 << 63) + 3
    f = 51
    while total * Fraction(2) ** f * Fraction(65, 64) >= Fraction(2) ** 51:
        f -= 1
    return f


def plan(cfg: KernelConfig, seg: Segmentation, mid: Sequence[Fraction], tail: Sequence[Fraction]) -> HeadPlan:
    """Quantize the middle at the largest common scale that fits, choose the
    shifts and the units, and prove the integer part's ranges."""
    assert cfg.head is not None and cfg.float_tail is not None
    k, j = cfg.head.exact_head, cfg.float_tail
    z_max = seg.z_max
    x_max = Fraction(z_max + 1, 1 << 64)
    r, e1 = _cx(k, x_max, z_max)
    step = 1 if cfg.evaluation == "horner" else 2
    pair_signs = _signs(mid, x_max, "middle", step)
    acc_signs = _acc_signs(mid, pair_signs, x_max, step)
    signs = tuple(1 if n > 0 else -1 for n in mid)
    f_max = _units_max(tail, j, x_max)
    pieces = pieces_of(z_max)
    top_scale = 64 - max(abs(n).numerator.bit_length() - abs(n).denominator.bit_length() for n in mid if n) + 1
    for s in range(min(top_scale, 64 + f_max - e1), 0, -1):
        words = tuple(round_nearest(abs(n) * Fraction(2) ** s) for n in mid)
        if all(w < 1 << 64 for w in words) and _middle_ranges(words, signs, pair_signs, acc_signs, pieces, step):
            break
    else:
        raise GenError("float_tail: no common scale keeps the middle part in 64-bit words")
    units = e1 + s - 64
    if not -16 <= units <= 65:
        raise GenError(f"float_tail: the middle and the tail would be added in units of 2^-{units}; "
                       "move float_tail")
    program = tuple(head_program(j, len(tail), cfg.head.fma, cfg.evaluation))
    return HeadPlan(k, step, j, s, words, signs, tuple(pair_signs), tuple(acc_signs), r, e1, units,
                    tuple(tail), program, z_max)

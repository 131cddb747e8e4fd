"""The output and conversion intervals: from the root word's error (the
approximation bound plus the evaluation error) to the error of what each
entry point returns, rounding, truncated products, the binary64 tail and
the ccs significand path included.  Inputs: the quantized scheme, a
segment's approximation bound and evaluation error; outputs: signed
intervals in units of the entry point's result.  The derivations are
written out in docs/error-model.md.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from ..config import KernelConfig
from ..errors import GenError
from ..quantize import Quantized
from .approximation import ApproxBound
from .evaluation import node_errors

Interval = tuple[Fraction, Fraction]


def core_interval(qz: Quantized, approx: ApproxBound,
                   eps: tuple[Fraction, Fraction]) -> tuple[Fraction, Fraction]:
    """Root word minus target * 2^s_root: approximation plus evaluation, signed."""
    scale = Fraction(2) ** qz.root_scale
    return approx.lo * scale + eps[0], approx.hi * scale + eps[1]



def total_intervals(cfg: KernelConfig, qz: Quantized, approx: ApproxBound,
                     eps: tuple[Fraction, Fraction], seg_index: int,
                     final_delta: Optional[Fraction] = None
                     ) -> tuple[tuple[Fraction, Fraction], Optional[tuple[Fraction, Fraction]]]:
    """Proven intervals of _eval - f 2^S (units 2^-S) and _expm_p63 - ideal
    (units 2^-63); the derivations are in docs/error-model.md."""
    s_root, S = qz.root_scale, cfg.scale_bits
    q = s_root - S
    core_lo, core_hi = core_interval(qz, approx, eps)   # units of 2^-s_root
    unit = Fraction(2) ** -q
    half = Fraction(1, 2) if q > 0 else Fraction(0)
    # Rounding (u + 2^(q-1)) >> q adds rho in [-1/2, 1/2).
    lo, hi = core_lo * unit - half, core_hi * unit + half
    eval_iv = (lo, hi) if cfg.form == "direct" else (-hi, -lo)
    if cfg.word_bits != 64:
        return eval_iv, None
    to63 = Fraction(2) ** (63 - s_root)
    if cfg.form == "direct" and final_delta is not None:
        # Truncated w U (gen/quantize/limbs.py): below w U / 2^64 by at most
        # final_delta units of 2^-s_root, then floored to 2^-63 if s_root > 63.
        loss = final_delta * to63 + (1 if s_root > 63 else 0)
        return eval_iv, (min(Fraction(0), core_lo * to63) - loss, max(Fraction(0), core_hi * to63))
    if cfg.form == "direct" and cfg.wide:
        # A two-word root U (scale 2^s, 64 <= s <= 128): N = w U_hi +
        # floor(w U_lo / 2^64) = w U / 2^64 - phi, phi in [0, 1), rounded to
        # nearest at 2^63: out = floor(N / 2^k + 1/2), k = s - 63, so
        # out - c f 2^63 = c core 2^(63-s) - phi 2^(63-s) + rho,
        # rho in (-1/2, 1/2], c = w / 2^64 in [0, 1).
        return eval_iv, (min(Fraction(0), core_lo * to63) - to63 - Fraction(1, 2),
                         max(Fraction(0), core_hi * to63) + Fraction(1, 2))
    if cfg.form == "direct":
        # floor(w U / 2^64) moved to scale 2^63; w / 2^64 in [0, 1); the floor
        # loses less than one unit of the result's scale.
        floor_unit = Fraction(1) if s_root >= 63 else to63
        return eval_iv, (min(Fraction(0), core_lo * to63) - floor_unit, max(Fraction(0), core_hi * to63))
    # one_minus: N = w 2^64 - (w C >> (s - 64)), out = round(N / 2^65); the
    # shift loses phi / 2^65 with phi < 1 (nothing when s <= 64).  A wide
    # root floors w C_lo / 2^64 instead: the same phi.
    phi = Fraction(1, 1 << 65) if s_root > 64 or cfg.wide else Fraction(0)
    if qz.tail is not None:
        return eval_iv, tail_expm_interval(qz, approx, seg_index, phi)
    return eval_iv, (-max(Fraction(0), core_hi * to63) - Fraction(1, 2),
                     -min(Fraction(0), core_lo * to63) + phi + Fraction(1, 2))



def conversion_interval(expm: Interval) -> Interval:
    """The Falcon adaptors' result minus ccs f(x) 2^63 (units of 2^-63), for
    the doubles x and ccs in the domain, from ``expm`` (the interval of
    _expm_p63(z, w) - (w / 2^64) f(z / 2^64) 2^63), when the adaptors
    convert as the reference does: z = 2 trunc(x 2^63), w = 2 trunc(ccs 2^63).
    With x' = z / 2^64 and c' = w / 2^64, 0 <= x - x' < 2^-63 and
    0 <= ccs - c' < 2^-63, and the ideal of the converted inputs minus the
    ideal of the doubles is
        2^63 (c' (f(x') - f(x)) - (ccs - c') f(x)),
    the first term in [0, c' f(x') (x - x') 2^63) within [0, 1) (f = exp(-x):
    f(x') - f(x) <= f(x') (x - x')), the second in (-1, 0] (f(x) <= 1).  The
    interval widens by one unit on each side.  (A tail that reads x or ccs
    itself is covered: the proof of _expm_p63 covers both readings.)"""
    return expm[0] - 1, expm[1] + 1


def mantissa_interval(qz: Quantized, approx: ApproxBound, eps: tuple[Fraction, Fraction],
                       final_delta: Fraction) -> tuple[Fraction, Fraction]:
    """The mantissa adaptor minus ccs f 2^63, units of 2^-63 (root word at
    scale 2^64).  ccs = M 2^-(63 + s) with M its significand, 2^63 <= M < 2^64
    (M = 2^63, s = 0 for ccs = 1), s >= 0; the adaptor returns
    out = floor(P / 2^s), P the truncated product of M and U (below
    M U / 2^64 by Delta in [0, final_delta]; final_delta = 0 for the
    exact floor of multiplier = "umaal").  With U = f 2^64 + e:
        out - ccs f 2^63 = ccs e / 2 - Delta / 2^s - rho,  rho in [0, 1),
    so the core error is halved and scaled by ccs <= 1, and the truncation
    costs at most final_delta (s = 0: ccs = 1) and the floor less than 1.
    Where the shift count is clamped (ccs < 2^-63, zero, subnormal) the
    result is at most 1 and the ideal below 1: within the same bound.
    ccs enters exactly, x by z = 2 trunc(x 2^63): with x' = z / 2^64,
    ccs (f(x') - f(x)) 2^63 lies in [0, ccs f(x') (x - x') 2^63) within
    [0, 1) (f = exp(-x), 0 <= x - x' < 2^-63), so the ideal of the doubles
    is below that of x' by less than one unit: the upper end grows by 1."""
    core_lo, core_hi = core_interval(qz, approx, eps)
    half = Fraction(1, 2)
    return min(Fraction(0), core_lo * half) - final_delta - 1, max(Fraction(0), core_hi * half) + 1



def tail_expm_interval(qz: Quantized, approx: ApproxBound, seg_index: int,
                        phi: Fraction) -> tuple[Fraction, Fraction]:
    """_expm_p63 - ideal (units of 2^-63) of a kernel with a binary64 tail.

    With c = w / 2^64, C = U_int 2^(128 - s_i) (the integer part, exact
    shift) and U' the tail word computed with c (gen/proof/float_tail.py),
    N = w 2^64 - w C_hi - floor(w C_lo / 2^64) - U' 2^(128 - s_t) and the
    result is round(N / 2^65).  Writing U_int = p_int 2^s_i + eps_int and
    U' = c p_tail 2^s_t + eps', the result minus c f 2^63 is
        -c (p - g + eps_int 2^-s_i) 2^63 - eps' 2^(63 - s_t) + phi + rho,
    rho in [-1/2, 1/2]: the one_minus terms plus the tail's own error.
    (for a tail of sign -1, U' is added instead).  N cannot leave
    [0, 2^128): U' <= c (U_1 + 1)(1 + 2^-50) with U_1 the largest tail word
    at c = 1 (c enters the tail by one product, so a smaller c only scales
    it, up to two roundings).  Sign +1: N >= c 2^128 (1 - C / 2^128 -
    (U_1 + 1)(1 + 2^-50) / 2^s_t) > 0, checked.  Sign -1: U' = 0 below
    v = 2^-11 (proven with the tail), and above it the added tail is at
    most the subtracted c C, checked, so N <= w 2^64 < 2^128."""
    tail = qz.tail
    assert tail is not None
    root = qz.scheme.nodes[qz.root]
    integer_root = root.args[0]
    s_i, s_t = qz.scales[integer_root], tail.scale
    if s_i > 128 or s_t > 128:
        raise GenError("float_tail: both parts must have scales of at most 2^128")
    eps_int = node_errors(qz, seg_index)[integer_root]
    tail_top = Fraction(max(hi for _, hi in tail.ranges[seg_index]) + 1) * (1 + Fraction(1, 1 << 50))
    if tail.sign > 0:
        c_max = Fraction(qz.ranges[seg_index][integer_root][1] + 1) / Fraction(2) ** s_i
        if c_max + tail_top / Fraction(2) ** s_t >= 1:
            raise GenError("float_tail: the integer part and the tail may reach 1: N could wrap")
    elif tail_top * Fraction(2) ** (128 - s_t) > integer_floor(qz, seg_index, tail.zero_below, eps_int[0]) \
            * Fraction(2) ** (128 - s_i):
        raise GenError("float_tail: the subtracted tail may exceed the integer part: N could wrap")
    to63 = Fraction(2) ** (63 - s_i)
    core_lo = approx.lo * Fraction(2) ** s_i + eps_int[0]
    core_hi = approx.hi * Fraction(2) ** s_i + eps_int[1]
    e_lo, e_hi = (tail.sign * e * Fraction(2) ** (63 - s_t) for e in tail.eps_expm[seg_index])
    e_lo, e_hi = min(e_lo, e_hi), max(e_lo, e_hi)
    return (-max(Fraction(0), core_hi * to63) - e_hi - Fraction(1, 2),
            -min(Fraction(0), core_lo * to63) - e_lo + phi + Fraction(1, 2))



def integer_floor(qz: Quantized, seg_index: int, v_from: Fraction, eps_lo: Fraction) -> Fraction:
    """A lower bound of the integer part's word U_int for v >= v_from: on
    pieces doubling from v_from up to the segment's end, each monomial a_j v^j is monotone, so its
    smaller end bounds it; the computed word is at least that times 2^s_i
    plus eps_lo."""
    if v_from <= 0:
        return Fraction(0)
    root = qz.scheme.nodes[qz.root]
    integer_root = root.args[0]
    first = qz.tail.first if qz.tail is not None else qz.degree + 1
    coeffs = qz.coefficients(seg_index)[:first]
    var = next(n for n, node in enumerate(qz.scheme.nodes) if node.kind == "var")
    v_max = Fraction(qz.ranges[seg_index][var][1], 1 << qz.word_bits)
    bounds = []
    a = v_from
    while a < v_max:
        b = min(2 * a, v_max)
        bounds.append(sum(min(c * a ** j, c * b ** j) for j, c in enumerate(coeffs)))
        a = b
    return max(Fraction(0), min(bounds) * Fraction(2) ** qz.scales[integer_root] + eps_lo)

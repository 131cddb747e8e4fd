"""The exact model of a form = "twin" kernel: what templates/twin.h.j2's
instructions compute, in Python integers (modulo 2^64) and binary64 floats
(Python floats round to nearest even like SSE2; an FMA is its exact rational
value rounded once; VMAXSD and VMINSD return their second source operand
when either is a NaN).  The generator's self-check (gen/twin/__init__.py)
runs it against mpmath, and tests/test_twin.py compares it bit for bit with
the rendered C under gcc and clang.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from ..exact import double_bits, double_from_bits
from ..falcon import INF_BITS, LN2_DOWN_BITS
from ..floattail import run
from .design import C_MIN, K_BASE, V_MIN, Design

M64 = (1 << 64) - 1
EXP63 = 63 << 52                      # added to ccs's bits: ccs 2^63 for ccs in [2^-1022, 1]
TOP = 1 << 63
LIM64_BITS = double_bits(2.0 ** -64)  # x below 2^-64: t would need a shift of 64 or more
LIM128_BITS = double_bits(2.0 ** -128)  # x below 2^-128: A = floor(C x 2^64) is 0
K_BITS = double_bits(float(K_BASE))   # 0x4338000000000000: g's bits are K_BITS + G


@dataclass
class Trace:
    """The integer words of one evaluation, by name, for the self-check."""

    words: dict[str, int] = field(default_factory=dict)


def lift_operand(smallest: Fraction) -> int:
    """VPMAXSD's operand that lifts a double below ``smallest`` (a power of
    two) to it: the high half of smallest's pattern, then the least int32, so
    that the low half of the lifted pattern stays what it was."""
    return (double_bits(float(smallest)) & ~0xFFFFFFFF) | 0x80000000


SUBN = lift_operand(Fraction(2) ** -1022)    # the full adaptor's ccs: subnormals, zeros, negatives -> tiny normals
V_LIFT = lift_operand(V_MIN)                 # v = x lifted to [2^-23, 2^-23 (1 + 2^-20)) when below 2^-23
C_LIFT = lift_operand(C_MIN)                 # c = ccs lifted likewise to about 2^-63


def vpmaxsd(a: float, operand: int) -> float:
    """VPMAXSD on the low 64 bits of a and operand: the signed maximum of
    each 32-bit half.  With a lift_operand it raises the high half (sign and
    exponent) of a small, zero, negative or subnormal a and keeps its low
    half, and leaves every pattern from the operand's up (+inf, NaNs without
    the sign bit included) as it is."""
    bits = double_bits(a)

    def signed(v: int) -> int:
        return v - (1 << 32) if v >> 31 else v
    halves = [max(signed((bits >> k) & 0xFFFFFFFF), signed((operand >> k) & 0xFFFFFFFF)) & 0xFFFFFFFF
              for k in (32, 0)]
    return double_from_bits((halves[0] << 32) | halves[1])


def vmax(a: float, b: float) -> float:
    """VMAXSD a, b (Intel operand order): b when either is a NaN or both are zeros."""
    return a if a > b else b


def vmin(a: float, b: float) -> float:
    """VMINSD a, b (Intel operand order): b when either is a NaN or both are zeros."""
    return a if a < b else b


def cvtt(v: float) -> int:
    """VCVTTSD2SI as an unsigned word: trunc(v) for |v| < 2^63, else the
    integer indefinite 0x8000000000000000 (also for NaN)."""
    if v != v or not -2.0 ** 63 < v < 2.0 ** 63:
        return TOP
    return math.trunc(v) & M64


def hi(a: int, b: int) -> int:
    return (a * b) >> 64


def linear(C: int, m: int, s: int) -> int:
    """A = floor(C x 2^64) = (C m) >> s for x = m 2^-(64 + s): exact."""
    return (C * m) >> s


def binary64(d: Design, x: float, ccs: float) -> tuple[int, int]:
    """(C, bits of g) from the already clamped doubles: the binary64 part."""
    v = vpmaxsd(x, V_LIFT)
    cs = double_from_bits((double_bits(ccs) + EXP63) & M64)
    C = cvtt(cs)
    rc = cs - float(math.trunc(cs)) if math.isfinite(cs) else 0.0
    c = vpmaxsd(ccs, C_LIFT)
    g = run(d.ops, d.coefficients(), v, c, (rc,))
    return C, double_bits(g)


def integer(d: Design, b: int, C: int, gb: int, trace: Trace | None = None) -> int:
    """The integer path on x's bit pattern b: t, the Estrin chain, B_2, A, the
    128-bit sum.  Below 2^-64 (b < LIM64_BITS) the shift 1022 - e is 64 or
    more: A = (C m >> 64) >> (shift - 64) and B_2 = 0; below 2^-128, A = 0."""
    W2, W3, W4, W5, W6 = d.words
    tiny, zero = b < LIM64_BITS, b < LIM128_BITS
    e = (b >> 52) & 0xFFF
    s = (62 - e) % 64
    m = ((b << 11) | TOP) & M64
    t = m >> s
    t2 = t * t
    zz, zzl = t2 >> 64, t2 & M64
    k4 = (W4 - hi(t, W5) + hi(zz, W6)) & M64
    k2 = (W2 - hi(t, W3) + hi(zz, k4)) & M64
    b2 = (((C * zz + hi(C, zzl)) & ((1 << 128) - 1)) >> 62) & M64
    a = linear(C, m, s)
    if tiny:
        a, b2 = (C * m) >> 64 >> s, 0
    if zero:
        a = 0
    lo = (-a) & M64
    top = (C - (a >> 64) - (1 if a & M64 else 0) - (K_BITS >> 4)) & M64
    s128 = (top << 64) | lo
    s128 += (gb >> 4) << 64 | ((gb << 60) & M64)
    tw = b2 * k2
    s128 = (s128 + (tw >> 3)) & ((1 << 128) - 1)
    r = s128 >> 64
    if trace is not None:
        # Below 2^-64 the chain reads a meaningless t, which B2 = 0 cancels: its words are not the proof's.
        trace.words.update({"B2": b2, "A_hi": a >> 64, "C": C, "G": gb - K_BITS, "R": r})
        if not tiny:
            trace.words.update({"t": t, "zz": zz, "K4": k4, "K2": k2, "T": tw})
    return r


def domain(d: Design, x: float, ccs: float, trace: Trace | None = None) -> int:
    """_domain(x, ccs) for x in [+0, ln 2), ccs in [+0, 1] (or -0, subnormal)."""
    C, gb = binary64(d, x, ccs)
    return integer(d, double_bits(x), C, gb, trace)


def full(d: Design, x_bits: int, ccs_bits: int) -> int:
    """_fpr_expm_p63(x_bits, ccs_bits): the full adaptor's own instructions
    (the two conditional moves on x's bits, written out as the clamp block
    does them; the lift, VMAXSD and VMINSD on ccs), then _domain's on what
    they leave.  x is clamped exactly as gen/falcon.py's clamp_bits says;
    ccs's clamp leaves a tiny normal, not +0, for +0, subnormals and
    negative patterns, which the self-check and the tests find equal to
    _domain on the clamped inputs."""
    xb = LN2_DOWN_BITS if x_bits > LN2_DOWN_BITS else x_bits
    xb = 0 if x_bits > INF_BITS else xb
    cc = vmin(vmax(vpmaxsd(double_from_bits(ccs_bits), SUBN), 0.0), 1.0)
    return domain(d, double_from_bits(xb), cc)


def rounding_boundary_ccs(d: Design) -> list[int]:
    """ccs patterns near 2^-63 (so that the remainder rc of ccs 2^63 has 52
    bits) at which corr = RN(K + rc E), E = RN(e_0 + e_1 2^-23) (v = 2^-23,
    x read as 0), lies 2^-48 or less above a half: a v a little off 2^-23
    (about 2^-40 relative, as lifting a negative x's pattern instead of +0's
    gives) moves E by 2^-40 and corr across the half.  An edge rule on x
    must give _domain's result on exactly +0 there."""
    e_v = Fraction(float(Fraction(d.e[1]) * V_MIN + Fraction(d.e[0])))
    out = []
    for n in range(math.floor(e_v)):
        rc = Fraction(math.floor((n + Fraction(1, 2)) / e_v * 2 ** 52) + 1, 2 ** 52)
        out.append(double_bits(float((1 + rc) / 2 ** 63)))
    return out

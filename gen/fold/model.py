"""The exact model of a form = "fold" kernel: what templates/fold.h.j2
computes, in Python integers (modulo 2^64) and binary64 floats (Python
floats round to nearest even like SSE2; an FMA is its exact rational value
rounded once).  The generator's self-check (gen/fold/__init__.py) runs it
against mpmath, and tests/test_fold.py compares it bit for bit with the
rendered C under gcc and clang.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from ..exact import double_bits, double_from_bits
from ..floattail import run
from ..falcon import LN2_DOWN_BITS, ONE_BITS, clamp_bits
from .design import C_MIN, V_MIN, Design, middle_steps

M64 = (1 << 64) - 1
EXP63 = 63 << 52                      # added to a double's bits: times 2^63 for x in [2^-1022, 1]


@dataclass
class Trace:
    """The integer words of one evaluation, by name, for the self-check."""

    words: dict[str, int] = field(default_factory=dict)


def times_2p63(x: float) -> float:
    """The double whose bits are bits(x) + 63 2^52: x 2^63 exactly for x in
    [2^-1022, 1]; for +0 and subnormals a normal double below 2^-959."""
    return double_from_bits((double_bits(x) + EXP63) & M64)


def cvtt(v: float) -> int:
    """CVTTSD2SI as an unsigned word: trunc(v), and 0x8000000000000000 (the
    integer indefinite) for v = 2^63, which as a word is 2^63 itself."""
    return (1 << 63) if v >= 2.0 ** 63 else math.trunc(v) & M64


def cvt_nearest(v: float) -> int:
    """CVTSD2SI under the default MXCSR: v rounded to the nearest integer,
    ties to even (|v| < 2^63, proven), as a word."""
    return round(Fraction(v)) & M64


def hi(a: int, b: int) -> int:
    return (a * b) >> 64


def tail(d: Design, xs: float, cs: float) -> int:
    """F: the binary64 program at v = max(x 2^63, 2^40) and c = max(ccs 2^63, 1),
    rounded."""
    v = xs if xs > float(V_MIN) else float(V_MIN)
    c = cs if cs > float(C_MIN) else float(C_MIN)
    return cvt_nearest(run(d.ops, list(d.tail), v, c))


def domain(d: Design, x: float, ccs: float, trace: Trace | None = None) -> int:
    """_domain(x, ccs) for x in [+0, ln 2), ccs in [+0, 1] (or -0, subnormal)."""
    xs, cs = times_2p63(x), times_2p63(ccs)
    X, C = cvtt(xs), cvtt(cs)
    z = (X + X) & M64
    F = tail(d, xs, cs)
    A = hi(C, z)
    B = hi(A, z)
    words = {"X": X, "C": C, "z": z, "F": F, "A": A, "B": B}
    zz = hi(z, z)
    k = {d.first_tail - 1: d.words[-1]}
    for step in middle_steps(d.first_tail):
        j = step.j
        if step.kind == "pair":
            k[j] = (d.words[j - 2] - hi(z, d.words[j - 1]) + hi(zz, k[j + 2])) & M64
        else:
            k[j] = (d.words[j - 2] - hi(z, k[j + 1])) & M64
    words |= {f"K{j}": v for j, v in k.items()}
    R = (C - A + hi(B, k[2]) + d.tail_sign * F) & M64
    words["R"] = R
    if trace is not None:
        trace.words.update(words)
    return R


def full(d: Design, x_bits: int, ccs_bits: int) -> int:
    """_fpr_expm_p63(x_bits, ccs_bits): the clamps, then _domain."""
    return domain(d, double_from_bits(clamp_bits(x_bits, LN2_DOWN_BITS)),
                  double_from_bits(clamp_bits(ccs_bits, ONE_BITS)))

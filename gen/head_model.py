"""The exact model of a form = "head" kernel: what templates/head.h.j2 and
templates/falcon/head.h.j2 compute, in Python integers and binary64 floats
(Python floats round to nearest even like SSE2; a fused multiply-add is
rounded once from its exact rational value).  With ``check`` every range
the proof claims is asserted."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .exact import double_bits as bits
from .exact import double_from_bits
from .falcon import LN2_DOWN_BITS
from .floattail import CORRECTION_CONSTANTS, correction_program, run
from .quantize.head import HeadPlan

if TYPE_CHECKING:
    from .head_kernel import HeadKernel

M64 = (1 << 64) - 1
M128 = (1 << 128) - 1
TAIL_X_MIN = 2.0 ** -11
X_FLUSH_BITS = 0x07B0000000000000     # 2^-900
C_FLUSH_BITS = 0x3BF0000000000000     # 2^-64
LN2_DOWN = double_from_bits(LN2_DOWN_BITS)


def from_bits(b: int) -> float:
    return double_from_bits(b & M64)


def _signed(w: int, bits_: int = 64) -> int:
    return w - (1 << bits_) if w >> (bits_ - 1) else w


def middle(plan: HeadPlan, z: int, zh: int, check: bool) -> int:
    """The middle's word h0 (see gen.cemit.head_middle)."""
    def combine(a: int, sa: int, b: int, sb: int, sign: int) -> int:
        value = sign * (sa * a + sb * b)
        if check:
            assert 0 <= value <= M64, f"middle word out of range at z={z}"
        return value & M64

    w, sg = plan.mid_words, plan.mid_signs
    mult = zh if plan.step == 2 else z
    pairs = []
    for p, i in enumerate(range(0, len(w), plan.step)):
        pairs.append(combine(w[i], sg[i], (z * w[i + 1]) >> 64, sg[i + 1], plan.pair_signs[p])
                     if plan.step == 2 and i + 1 < len(w) else w[i])
    acc = pairs[-1]
    for p in range(len(pairs) - 2, -1, -1):
        acc = combine(pairs[p], plan.pair_signs[p], (mult * acc) >> 64, plan.acc_signs[p + 1], plan.acc_signs[p])
    return acc


def kernel(k: "HeadKernel", z: int, C: int, v: float, c: float, e: float, check: bool = False) -> int:
    """``<name>_kernel(z, C, v, c, e)``."""
    plan = k.plan
    zz = z * z
    zh = zz >> 64
    cz = C * z
    if plan.k == 3:
        d = (2 * cz - (C * zh + ((C * (zz & M64)) >> 64))) & M128
    else:
        d = (2 * cz) & M128
    h0 = middle(plan, z, zh, check)
    u = (cz >> 63) & M64 if plan.k == 3 else C
    cx = (u * zh) >> plan.cx_shift
    if check:
        assert cx <= M64, f"cx out of range at z={z}"
    E = (cx * h0) >> 64
    t = run(plan.program, [float(x) for x in plan.tail], v, c, [e])
    et = (E + bits(t) - bits(float(plan.magic))) & M64
    d = (d + ((_signed(et) << (65 - plan.units)) & M128)) & M128
    off = k.proof.offset
    return (C + off - ((((d >> 64) + 2 * off + 1) & M64) >> 1)) & M64


def to_double(z: int) -> float:
    return float(z >> 1) * 2.0 ** -63


def model_eval(k: "HeadKernel", z: int, check: bool = False) -> int:
    return kernel(k, z, 1 << 63, to_double(z), 2.0 ** 63, float(k.constant), check)


def model_expm(k: "HeadKernel", z: int, w: int, check: bool = False) -> int:
    C = w >> 1
    v, e = to_double(z), float(k.constant)
    if k.cfg.head.conversion_remainder:
        consts = [e, *(float(q) for q in CORRECTION_CONSTANTS)]
        e = run(correction_program(k.cfg.head.fma), consts, v, float(C), [0.0, (w & 1) * 0.5])
    return kernel(k, z, C, v, float(C), e, check)


def flush(v: float, min_bits: int) -> float:
    b = _signed(bits(v))
    return v if b >= min_bits else 0.0


def adapt(k: "HeadKernel", x: float, ccs: float, check: bool = False) -> int:
    """``<name>_adapt``: x, ccs already flushed and in the domain (ccs <= 1)."""
    xs, cs = x * 2.0 ** 63, ccs * 2.0 ** 63
    X, C = math.trunc(xs), math.trunc(cs)
    rx, rc = xs - math.trunc(xs), cs - math.trunc(cs)
    v = x if x > TAIL_X_MIN else TAIL_X_MIN
    e = float(k.constant)
    if k.cfg.head.conversion_remainder:
        consts = [e, *(float(q) for q in CORRECTION_CONSTANTS)]
        e = run(correction_program(k.cfg.head.fma), consts, x, ccs, [rx, rc])
    return kernel(k, (X + X) & M64, C, v, cs, e, check)


def model_domain(k: "HeadKernel", x_bits: int, ccs_bits: int, check: bool = False) -> int:
    return adapt(k, flush(from_bits(x_bits), X_FLUSH_BITS), flush(from_bits(ccs_bits), C_FLUSH_BITS), check)


def model_fpr(k: "HeadKernel", x_bits: int, ccs_bits: int, check: bool = False) -> int:
    """The full adaptor, edge rules included."""
    x, c = flush(from_bits(x_bits), X_FLUSH_BITS), flush(from_bits(ccs_bits), C_FLUSH_BITS)
    x = x if x > 0.0 else 0.0
    x = x if x < LN2_DOWN else LN2_DOWN
    c = c if c > 0.0 else 0.0
    c = c if c < 1.0 else 1.0
    return adapt(k, x, c, check)

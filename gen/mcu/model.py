"""A form = "mcu" kernel run in Python integers, bit for bit as its C
(templates/mcu.h.j2) computes it, from the same layout and plan
(gen/mcu/design.py): the self-check and the bias calibration run it, and
tests/test_mcu.py holds it against the compiled C.  ``kernel`` also
returns each product's actual loss (the exact product minus what the
kernel kept of it), which the proof bounds."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction as F

from ..falcon import INF_BITS, LN2_DOWN_BITS, ONE_BITS
from .design import A5_BITS, M_LIMBS, ROWS, SEGMENT_BITS, STEPS, T_BITS, T_LIMBS, Column, Plan, Row, Step

M32, M64 = (1 << 32) - 1, (1 << 64) - 1
K_X = (1022 << 21) | ((1 << 21) - 1)     # (K - (h << 1)) >> 21 = 1022 - e for x's high word h
K_CCS = (1023 << 21) | ((1 << 21) - 1)   # 1023 - e for ccs's


def shift_count(k: int, h: int) -> int:
    """clamp((int32)(k - (h << 1)) >> 21, 0, 63): a bias minus the biased
    exponent of the double whose high word is h, its sign ignored."""
    v = (k - (h << 1)) & M32
    v = v - (1 << 32) if v >> 31 else v
    return min(max(v >> 21, 0), 63)


@dataclass
class Trace:
    """What one call computed: the row, T, every Horner value (integers in
    their units) and each product's loss (exact values)."""

    row: int = 0
    t: F = F(0)
    values: dict[str, int] = field(default_factory=dict)
    losses: dict[str, F] = field(default_factory=dict)
    accumulators: list[int] = field(default_factory=list)


def product(step: Step, cols: tuple[Column, ...], xv: list[int], src: dict[str, int]) -> int:
    """What the kernel keeps of step's product, in units of step.unit
    (floors included), from the x limbs' values and the source's words."""
    yv = [limb.py(src) for limb in step.limbs]
    acc: dict[int, int] = {}
    for col in reversed(cols):
        v = sum(xv[i] * yv[k] for i, k in col.pairs)
        if col.j + 1 < len(cols) and cols[col.j + 1].shift is None:
            v += acc[col.j + 1] >> 15
        if v >> 32:
            raise OverflowError(f"{step.name}: column {col.j} reached {v}")
        acc[col.j] = v
    kept = 0
    for col in cols:
        if col.shift is not None:
            kept += acc[col.j] << col.shift if col.shift > 0 else acc[col.j] >> -col.shift
    return kept


def z_of(x_bits: int) -> int:
    """floor(x 2^64) as the kernel computes it: x's significand (implicit
    bit always set) left-justified in 64 bits, shifted right by
    clamp(1022 - e, 0, 63)."""
    sig = ((x_bits & ((1 << 52) - 1)) | (1 << 52)) << 11
    return sig >> shift_count(K_X, x_bits >> 32)


def domain_bits(table: list[Row], plan: Plan, x_bits: int, c_bits: int, trace: Trace | None = None) -> int:
    """<name>_fpr_expm_p63_domain_bits(x_bits, c_bits)."""
    z = z_of(x_bits)
    zh, zl = z >> 32, z & M32
    j = min(zh >> (32 - SEGMENT_BITS), ROWS - 1)
    tb = z & ((1 << T_BITS) - 1)
    tv = [limb.py({"zh": zh, "zl": zl}) for limb in T_LIMBS]
    w = table[j].words
    t = F(tb, 2 ** T_BITS) if trace is not None else F(0)
    a5 = w[7] & ((1 << A5_BITS) - 1)
    sources: dict[str, dict[str, int]] = {"a5": {"a5": a5}}
    exact_src: dict[str, F] = {"a5": a5 * STEPS[0].limbs[0].weight}
    # The coefficient each step subtracts from, in the step's units.
    starts = {"y4": w[7], "y3": ((w[6] & 0x7FFF) << 32) | w[6], "y2": w[5] << 32 | w[4],
              "y1": w[3] << 32 | w[2], "y0": w[1] << 32 | w[0]}
    values: dict[str, int] = {}
    losses: dict[str, F] = {}
    for step, cols in zip(STEPS[:-1], plan.kept[:-1]):
        kept = product(step, cols, tv, sources[step.source])
        y = starts[step.name] - kept
        if y < 0 or y >> (64 if step.wide else 32):
            raise OverflowError(f"{step.name} = {y} wraps")
        values[step.name] = y
        if trace is not None:
            losses[step.name] = t * exact_src[step.source] - kept * step.unit
            exact_src[step.name] = y * step.unit
        sources[step.name] = {"y4": y} if not step.wide else {"hi": y >> 32, "lo": y & M32}
    ch, cl = c_bits >> 32, c_bits & M32
    mv = [limb.py({"ch": ch, "cl": cl}) for limb in M_LIMBS]
    r_step = STEPS[-1]
    r = product(r_step, plan.kept[-1], mv, sources["y0"])
    if r >> 64:
        raise OverflowError("R wraps")
    if trace is not None:
        m = sum(v * limb.weight for v, limb in zip(mv, M_LIMBS))
        losses["r"] = exact_src["y0"] * m - r * r_step.unit
        trace.row, trace.t, trace.values, trace.losses = j, t, values, losses
    return (r >> shift_count(K_CCS, ch)) & M64


def fpr_expm_p63(table: list[Row], plan: Plan, x_bits: int, c_bits: int, trace: Trace | None = None) -> int:
    """<name>_fpr_expm_p63: the edge rules on the bit patterns (docs/abi.md),
    then the kernel.  x above +inf's pattern (negative, -0 included, or
    NaN) counts as 0, x above LN2_DOWN as LN2_DOWN; ccs negative or NaN
    gives 0, ccs >= 1 (+inf included) counts as 1: its mantissa cleared,
    its exponent kept, which the shift count clamps to 0."""
    if x_bits > INF_BITS:
        x_bits = 0
    elif x_bits > LN2_DOWN_BITS:
        x_bits = LN2_DOWN_BITS
    if c_bits > INF_BITS:
        return 0
    if c_bits >= ONE_BITS:
        c_bits &= ~((1 << 52) - 1)
    return domain_bits(table, plan, x_bits, c_bits, trace)

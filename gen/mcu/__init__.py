"""Form "mcu": ccs exp(-x) 2^63 for 32-bit microcontrollers without a
constant-time long multiply (the Cortex-M3): 89 segments of width 2^-7,
degree 5, every product from 15-bit limbs on MUL/MLA, a 32-byte table row
(gen/mcu/design.py), the table fitted and biased by gen/mcu/fit.py, the
bound proven by gen/mcu/proof.py, and a bit-exact model
(gen/mcu/model.py) that the self-check runs; the Falcon adaptors only (no
fixed-point entry)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from mpmath import mp, mpf

from ..config import KernelConfig
from ..errors import GenError
from ..exact import double_bits, double_from_bits
from ..falcon import LN2_DOWN_BITS, ONE_BITS
from ..proof.assemble import check_adaptor_budget
from . import fit
from .design import ROW_WORDS, ROWS, SEGMENT_BITS, STEPS, Plan, Row, check_plan
from .model import Trace, domain_bits, fpr_expm_p63
from .proof import S63, McuProof, check_columns, prove

SELF_CHECK_RANDOM = 3000      # random inputs of the self-check, besides the edge ones
SELF_CHECK_SEED = 20261203


@dataclass(frozen=True)
class McuKernel:
    cfg: KernelConfig
    plan: Plan
    rows: tuple[Row, ...]
    offsets: tuple[tuple[int, ...], tuple[int, ...]]   # the bias added to a0 and a1, per row
    proof: McuProof

    @property
    def fpr_bound_2p63(self) -> Fraction:
        return self.proof.total

    @property
    def table_bytes(self) -> int:
        return ROWS * ROW_WORDS * 4


def _edge_inputs() -> list[tuple[int, int]]:
    """Bit patterns of x and ccs at the ends of the domain, around every
    row boundary j 2^-7 and at the conversions' thresholds, and the edge
    rules' cases (negative zero, infinities, NaNs, ccs above 1)."""
    xs = [0, 1, 0x8000000000000000, double_bits(2.0 ** -70), double_bits(2.0 ** -64), double_bits(2.0 ** -63),
          double_bits(2.0 ** -11), double_bits(math.nextafter(2.0 ** -11, 0)), LN2_DOWN_BITS, LN2_DOWN_BITS + 1,
          double_bits(1.0), double_bits(-1.0), 0x7FF0000000000000, 0x7FF8000000000000, 0xFFF8000000000000]
    for j in range(1, ROWS):
        b = j / 2 ** SEGMENT_BITS
        xs += [double_bits(b), double_bits(math.nextafter(b, 0))]
    cs = [double_bits(v) for v in (1.0, math.nextafter(1.0, 0), 0.5, math.nextafter(0.5, 0), 0.61, 2.0 ** -63,
                                  math.nextafter(2.0 ** -63, 0), 2.0 ** -62, 2.0 ** -30, 0.0, 2.0, -0.5)]
    cs += [1, 0x8000000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 0x3FFFFFFFFFFFFFFF]
    return [(x, c) for x in xs for c in cs]


def _random_inputs() -> list[tuple[int, int]]:
    rng = random.Random(SELF_CHECK_SEED)
    out = []
    for i in range(SELF_CHECK_RANDOM):
        x = rng.uniform(0, 0.6931471805599453) if i % 2 else 2.0 ** rng.uniform(-70, -1)
        c = rng.uniform(0.5, 1.0) if i % 3 else 2.0 ** rng.uniform(-70, 0)
        out.append((double_bits(min(x, double_from_bits(LN2_DOWN_BITS))), double_bits(c)))
    return out


def _exact(x_bits: int, c_bits: int) -> mpf:
    """ccs exp(-x) 2^63 of the inputs after the edge rules (docs/abi.md)."""
    x, c = double_from_bits(x_bits), double_from_bits(c_bits)
    if math.isnan(x) or x <= 0:
        x = 0.0
    x = min(x, double_from_bits(LN2_DOWN_BITS))
    if math.isnan(c) or c <= 0:
        return mpf(0)
    return mpf(min(c, 1.0)) * mp.exp(-mpf(x)) * mpf(2) ** 63


def self_check(k: McuKernel) -> None:
    """Run the model (gen/mcu/model.py) through the full adaptor on the
    edge inputs and SELF_CHECK_RANDOM random ones; refuse the kernel if an
    error exceeds the proven bound or a product loses more than its proven
    loss.  The domain entry must agree with the full adaptor in the domain."""
    rows, plan, bound = list(k.rows), k.plan, k.proof.total
    with mp.workdps(40):
        for x_bits, c_bits in _edge_inputs() + _random_inputs():
            trace = Trace()
            got = fpr_expm_p63(rows, plan, x_bits, c_bits, trace)
            err = abs(mpf(got) - _exact(x_bits, c_bits))
            where = f"at x = {x_bits:#018x}, ccs = {c_bits:#018x}"
            if err > mpf(bound.numerator) / bound.denominator:
                raise GenError(f"self-check: {where} the error {float(err):.4f} exceeds the proven bound "
                               f"{float(bound):.4f} (units of 2^-63)")
            for step, lost, most in zip(STEPS, (trace.losses.get(s.name) for s in STEPS), k.proof.losses[trace.row]):
                if lost is not None and not 0 <= lost <= most:
                    raise GenError(f"self-check: {where} the {step.name} product lost "
                                   f"{float(lost * S63):.4f} units, outside its proven [0, {float(most * S63):.4f}]")
            if x_bits <= LN2_DOWN_BITS and c_bits <= ONE_BITS and got != domain_bits(rows, plan, x_bits, c_bits):
                raise GenError(f"self-check: {where} _domain_bits and the full adaptor disagree")


def build_mcu(cfg: KernelConfig, report: Callable[[str], None]) -> McuKernel:
    """Fit, bias, prove and self-check a form = "mcu" kernel."""
    assert cfg.mcu is not None
    plan = Plan(cfg.mcu.columns)
    why = check_plan(plan)
    if why:
        raise GenError(f"columns: {why}")
    check_columns(plan)        # before the bias runs the model, which must not wrap
    report(f"{cfg.name}: fit of {ROWS} rows")
    rows = fit.table()
    offsets: tuple[list[int], list[int]] = ([0] * ROWS, [0] * ROWS)
    if cfg.mcu.bias_samples:
        report(f"{cfg.name}: rounding bias ({cfg.mcu.bias_samples} inputs per row)")
        offsets = fit.bias(rows, plan, cfg.mcu.bias_samples)
        rows = fit.biased(rows, offsets)
    report(f"{cfg.name}: proof")
    proof = prove(rows, plan)
    check_adaptor_budget(cfg, proof.total)
    k = McuKernel(cfg, plan, tuple(rows), (tuple(offsets[0]), tuple(offsets[1])), proof)
    report(f"{cfg.name}: self-check")
    self_check(k)
    return k

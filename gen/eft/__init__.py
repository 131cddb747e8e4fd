"""Form "eft": ccs exp(-x) 2^63 in binary64 with error-free transforms,
for the Falcon double interface and its SIMD batch forms (no fixed-point
entry).  gen/eft/design.py holds the numbers and the operation list,
gen/eft/proof.py the bound, gen/eft/model.py the list run in Python; this
module builds a kernel and refuses one that fails its self-check."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from mpmath import mp, mpf

from ..config import KernelConfig
from ..errors import GenError
from ..proof.assemble import check_adaptor_budget
from ..exact import double_from_bits
from ..falcon import LN2_DOWN
from .design import C64, ROWS, Design, make_design
from .model import Trace, kernel as model_kernel
from .proof import EftProof, prove

SELF_CHECK_RANDOM = 1500      # random inputs of the self-check, besides the edge ones
SELF_CHECK_SEED = 20261202
MIN_NORMAL = Fraction(1, 2 ** 1022)
EXACT_STEPS = ("jd", "t", "z1", "y", "th", "d3")   # the operations the proof says are exact


@dataclass(frozen=True)
class EftKernel:
    cfg: KernelConfig
    design: Design
    proof: EftProof

    @property
    def fpr_bound_2p63(self) -> Fraction:
        return self.proof.total

    @property
    def table_bytes(self) -> int:
        """The constants read whole at every call: Eh and El for the AVX-512
        permute (16 each), their AVX2 XOR rows (12 each), the scalar scan's
        (Eh, El) pairs and its keys (12 of each), 8 bytes apiece."""
        return 8 * (2 * 16 + 2 * ROWS + 2 * ROWS + 2 * ROWS)


def _edge_inputs() -> list[tuple[float, float]]:
    """x and ccs at the ends of the domain, around the flush thresholds and
    around every segment boundary (j +- 1/2)/16."""
    xs = [0.0, double_from_bits(1), 2.0 ** -81, 2.0 ** -80, math.nextafter(2.0 ** -80, 1), 2.0 ** -60, 2.0 ** -30,
          float(LN2_DOWN), math.nextafter(float(LN2_DOWN), 1), math.nextafter(23 / 32, 0)]
    for j in range(ROWS):
        b = (2 * j + 1) / 32
        xs += [b, math.nextafter(b, 0), math.nextafter(b, 1)]
    cs = [1.0, math.nextafter(1.0, 0), 0.5, 2.0 ** -64, math.nextafter(2.0 ** -64, 0), 2.0 ** -30, 0.0]
    return [(x, c) for x in xs for c in cs]


def _random_inputs() -> list[tuple[float, float]]:
    rng = random.Random(SELF_CHECK_SEED)
    out = []
    for i in range(SELF_CHECK_RANDOM):
        x = rng.uniform(0, 0.6931471805599453) if i % 2 else 2.0 ** rng.uniform(-80, -1)
        c = rng.uniform(0.5, 1.0) if i % 3 else 2.0 ** rng.uniform(-40, 0)
        out.append((x, c))
    return out


def _invariants(trace: Trace, small_max: Fraction) -> str | None:
    """What the proof assumes of one evaluation, or the first that fails."""
    for name in EXACT_STEPS:
        if Fraction(trace.values[name]) != trace.exact[name]:
            return f"{name} is not exact"
    for name in ("s1", "s2", "s3"):
        if not C64 <= Fraction(trace.values[name]) < 2 * C64:
            return f"{name} lies outside [2^64, 2^65)"
    for name in ("e1", "e2", "e3"):
        if abs(Fraction(trace.values[name])) > 2 ** 11:
            return f"|{name}| exceeds 2^11"
    if abs(Fraction(trace.values["sm3"])) > small_max:
        return "the small part exceeds its proven range"
    for name, v in trace.values.items():
        if v != 0 and abs(Fraction(v)) < MIN_NORMAL:
            return f"{name} is subnormal"
    return None


def self_check(d: Design, proof: EftProof) -> None:
    """Run the operation list (gen/eft/model.py) on the edge inputs and
    SELF_CHECK_RANDOM random ones; refuse the kernel if an error exceeds
    the proven bound or an assumption of the proof fails."""
    bound = proof.total
    with mp.workprec(200):
        for x, c in _edge_inputs() + _random_inputs():
            trace = Trace()
            got = model_kernel(d, x, c, trace)
            why = _invariants(trace, proof.small_max)
            if why:
                raise GenError(f"self-check: at x = {x.hex()}, ccs = {c.hex()}: {why}")
            want = mpf(c) * mp.exp(-mpf(x)) * mpf(2) ** 63
            err = abs(mpf(got) - want)
            if err > mpf(bound.numerator) / bound.denominator:
                raise GenError(f"self-check: at x = {x.hex()}, ccs = {c.hex()} the error {float(err):.4f} "
                               f"exceeds the proven bound {float(bound):.4f} (units of 2^-63)")


def build_eft(cfg: KernelConfig, report: Callable[[str], None]) -> EftKernel:
    """Design, prove and self-check a form = "eft" kernel."""
    report(f"{cfg.name}: table and polynomial")
    d = make_design(cfg.degree - 3)
    report(f"{cfg.name}: proof")
    proof = prove(d)
    check_adaptor_budget(cfg, proof.total)
    report(f"{cfg.name}: self-check")
    self_check(d, proof)
    return EftKernel(cfg, d, proof)

"""Form "twin": ccs exp(-x) 2^63 from the doubles x and ccs on two paths
that meet once, a 128-bit integer chain with ccs folded in and a binary64
tail with FMA (x86-64 inline assembly), faithful against the double inputs.
gen/twin/design.py holds the numbers, gen/twin/program.py the
instructions, gen/twin/proof.py the bound, gen/twin/model.py the kernel
run in Python; this module builds a kernel and refuses one that misses its
budget or fails its self-check."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from ..config import KernelConfig
from ..errors import GenError
from ..exact import double_bits, double_from_bits
from ..falcon import LN2_DOWN, LN2_DOWN_BITS, ONE_BITS, clamp_bits
from ..fold import check_runs
from ..proof.assemble import check_adaptor_budget
from .design import Design, make_design
from .model import Trace, domain as model_domain, full as model_full, rounding_boundary_ccs
from .proof import TwinProof, best_bias, check_sum_range, prove

SELF_CHECK_RANDOM = 3000
SELF_CHECK_SEED = 20261206


@dataclass(frozen=True)
class TwinKernel:
    cfg: KernelConfig
    design: Design
    proof: TwinProof
    table_bytes = 0

    @property
    def fpr_bound_2p63(self) -> Fraction:
        return self.proof.total


def _inputs() -> list[tuple[float, float]]:
    """Edge inputs (0, subnormals, powers of two and their neighbours down
    to 2^-130, the thresholds 2^-11, 2^-23, 2^-64, 2^-128 for x and 2^-10,
    2^-63 for ccs, the ends of the domain) and random ones, x uniform and
    log-uniform down to 2^-140, ccs uniform and log-uniform down to 2^-70."""
    xs = [0.0, double_from_bits(1), 2.0 ** -1030, 2.0 ** -1022, float(LN2_DOWN), math.nextafter(float(LN2_DOWN), 0)]
    for k in list(range(1, 131)) + [11, 23, 64, 128]:
        xs += [2.0 ** -k, math.nextafter(2.0 ** -k, 0), math.nextafter(2.0 ** -k, 1)]
    cs = [1.0, math.nextafter(1.0, 0), 0.5, 2.0 ** -10, math.nextafter(2.0 ** -10, 0), 2.0 ** -55, 2.0 ** -62,
          2.0 ** -63, math.nextafter(2.0 ** -63, 0), 2.0 ** -64, double_from_bits(1), 0.0]
    out = [(x, c) for x in xs for c in cs]
    rng = random.Random(SELF_CHECK_SEED)
    for i in range(SELF_CHECK_RANDOM):
        x = rng.uniform(0, float(LN2_DOWN)) if i % 2 else 2.0 ** rng.uniform(-140, -1)
        c = rng.uniform(0.5, 1.0) if i % 3 else 2.0 ** rng.uniform(-70, 0)
        out.append((x, c))
    return out


EDGE_BITS = (0x8000000000000000, 0x8000000000000001, 0xBFF0000000000000, 0xFFF0000000000000, 0x7FF0000000000000,
             0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001, ONE_BITS, LN2_DOWN_BITS + 1,
             double_bits(2.0), double_bits(1e300), double_bits(0.75))


# Patterns read as x = +0 whose low half is not zero (negative numbers, a
# negative subnormal, a NaN with the sign bit): a rule that lifted them as
# they are, instead of +0's pattern, would see a v a little off 2^-23.  Each
# of them, against the rounding-boundary ccs, catches such a rule.
NEGATIVE_LOW_BITS = (0x80000000FFFFFFFF, 0x800FFFFFFFFFFFFF, 0xBFE62E42FEFA39EF, 0xFFF80000FFFFFFFF)


def _edge_pairs(d: Design) -> list[tuple[int, int]]:
    """Bit patterns outside the domain, crossed with some inside it, and
    the patterns read as x = +0 at the ccs where corr's rounding is
    closest to changing (rounding_boundary_ccs)."""
    inside_x = [0, double_bits(2.0 ** -70), double_bits(0.3), LN2_DOWN_BITS]
    inside_c = [0, double_bits(2.0 ** -70), double_bits(0.7), ONE_BITS]
    return ([(x, c) for x in EDGE_BITS for c in inside_c + list(EDGE_BITS)]
            + [(x, c) for x in inside_x for c in EDGE_BITS]
            + [(x, c) for x in NEGATIVE_LOW_BITS for c in rounding_boundary_ccs(d)])


def self_check(d: Design, proof: TwinProof) -> None:
    """Run the model (gen/twin/model.py) on the edge and random inputs
    (form fold's check_runs: the error against mpmath within the proven
    bound, every word in its proven range, the full adaptor equal to
    _domain), then on bit patterns outside the domain: the full adaptor
    must equal _domain on the clamped inputs."""
    def run(x: float, c: float) -> tuple[int, dict[str, int]]:
        trace = Trace()
        return model_domain(d, x, c, trace), trace.words
    check_runs(_inputs(), run, lambda xb, cb: model_full(d, xb, cb), proof.total, proof.word_ranges)
    for xb, cb in _edge_pairs(d):
        want = model_domain(d, double_from_bits(clamp_bits(xb, LN2_DOWN_BITS)), double_from_bits(clamp_bits(cb, ONE_BITS)))
        if model_full(d, xb, cb) != want:
            raise GenError(f"self-check: the full adaptor at x = 0x{xb:016x}, ccs = 0x{cb:016x} differs from "
                           "_domain on the clamped inputs")


def build_twin(cfg: KernelConfig, report: Callable[[str], None]) -> TwinKernel:
    """Fit, quantize, prove, choose the bias, prove again and self-check a
    form = "twin" kernel."""
    assert cfg.float_tail is not None
    report(f"{cfg.name}: fit")
    unbiased_design = make_design(cfg.degree, cfg.float_tail, 0)
    report(f"{cfg.name}: proof")
    bias = best_bias(prove(cfg, unbiased_design).unbiased)
    d = make_design(cfg.degree, cfg.float_tail, bias)
    proof = prove(cfg, d)
    check_sum_range(proof)
    check_adaptor_budget(cfg, proof.total)
    report(f"{cfg.name}: self-check")
    self_check(d, proof)
    return TwinKernel(cfg, d, proof)


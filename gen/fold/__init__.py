"""Form "fold": ccs exp(-x) 2^63 with ccs folded into a short fixed-point
Horner chain and the high powers in binary64, for the Falcon double
interface (no fixed-point entry).  gen/fold/design.py holds the numbers,
gen/fold/proof.py the bound, gen/fold/model.py the kernel run in Python;
this module builds a kernel and refuses one that misses its budget or fails
its self-check."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Iterable

from mpmath import mp, mpf

from ..config import KernelConfig
from ..errors import GenError
from ..proof.assemble import check_adaptor_budget
from ..exact import double_bits, double_from_bits
from ..falcon import LN2_DOWN
from .design import Design, make_design
from .model import Trace, domain as model_domain, full as model_full
from .proof import FoldProof, prove

SELF_CHECK_RANDOM = 3000
SELF_CHECK_SEED = 20261202


@dataclass(frozen=True)
class FoldKernel:
    cfg: KernelConfig
    design: Design
    proof: FoldProof
    table_bytes = 0

    @property
    def fpr_bound_2p63(self) -> Fraction:
        return self.proof.total


def _inputs() -> list[tuple[float, float]]:
    """Edge inputs (0, subnormals, powers of two and their neighbours, the
    tail's thresholds 2^-23 for x and 2^-63 for ccs, the ends of the domain)
    and random ones, x uniform and log-uniform down to 2^-80, ccs down to
    2^-40."""
    xs = [0.0, double_from_bits(1), 2.0 ** -1030, 2.0 ** -1022, float(LN2_DOWN), 2.0 ** -11,
          math.nextafter(2.0 ** -11, 0), math.nextafter(2.0 ** -11, 1), math.nextafter(2.0 ** -23, 1)]
    xs += [2.0 ** -k for k in range(1, 65)] + [math.nextafter(2.0 ** -k, 0) for k in range(1, 65)]
    cs = [1.0, math.nextafter(1.0, 0), 0.5, 2.0 ** -55, 2.0 ** -62, 2.0 ** -63, math.nextafter(2.0 ** -63, 0),
          2.0 ** -64, double_from_bits(1), 0.0]
    out = [(x, c) for x in xs for c in cs]
    rng = random.Random(SELF_CHECK_SEED)
    for i in range(SELF_CHECK_RANDOM):
        x = rng.uniform(0, float(LN2_DOWN)) if i % 2 else 2.0 ** rng.uniform(-80, -1)
        c = rng.uniform(0.5, 1.0) if i % 3 else 2.0 ** rng.uniform(-40, 0)
        out.append((x, c))
    return out


def check_runs(inputs: Iterable[tuple[float, float]], run: Callable[[float, float], tuple[int, dict[str, int]]],
               full: Callable[[int, int], int], bound: Fraction, word_ranges: dict[str, tuple[int, int]]) -> None:
    """The self-check forms fold and twin share: on each input, ``run`` (the
    model's _domain: its result and its integer words by name) against
    mpmath; refuse the kernel if an error exceeds ``bound``, a word leaves
    the range the proof gives it, or ``full`` (the model's full adaptor, on
    bit patterns) differs from _domain."""
    with mp.workprec(200):
        for x, c in inputs:
            got, words = run(x, c)
            for name, (lo, hi) in word_ranges.items():
                w = words.get(name)
                if w is not None and not lo <= w <= hi:
                    raise GenError(f"self-check: at x = {x.hex()}, ccs = {c.hex()} the word {name} = {w} "
                                   "lies outside its proven range")
            if full(double_bits(x), double_bits(c)) != got:
                raise GenError(f"self-check: at x = {x.hex()}, ccs = {c.hex()} the full adaptor differs from _domain")
            err = abs(mpf(got) - mpf(c) * mp.exp(-mpf(x)) * mpf(2) ** 63)
            if err > mpf(bound.numerator) / bound.denominator:
                raise GenError(f"self-check: at x = {x.hex()}, ccs = {c.hex()} the error {float(err):.4f} "
                               f"exceeds the proven bound {float(bound):.4f} (units of 2^-63)")


def self_check(d: Design, proof: FoldProof) -> None:
    """Run the model (gen/fold/model.py) on the edge and random inputs;
    refuse the kernel as check_runs says."""
    def run(x: float, c: float) -> tuple[int, dict[str, int]]:
        trace = Trace()
        return model_domain(d, x, c, trace), trace.words
    check_runs(_inputs(), run, lambda xb, cb: model_full(d, xb, cb), proof.total, proof.word_ranges)


def build_fold(cfg: KernelConfig, report: Callable[[str], None]) -> FoldKernel:
    """Fit, quantize, prove and self-check a form = "fold" kernel."""
    assert cfg.float_tail is not None
    report(f"{cfg.name}: fit")
    d = make_design(cfg.degree, cfg.float_tail)
    report(f"{cfg.name}: proof")
    proof = prove(cfg, d)
    check_adaptor_budget(cfg, proof.total)
    report(f"{cfg.name}: self-check")
    self_check(d, proof)
    return FoldKernel(cfg, d, proof)

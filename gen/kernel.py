"""The generator's driver: from a validated config to a checked kernel.

Stages, each its own module, data flowing one way (docs/architecture.md):

    config (gen.config)            a TOML file        -> KernelConfig
    segmentation (gen.segments)    KernelConfig       -> Segmentation
    fit (gen.fit)                  config, segments   -> Fit: coefficients, approximation bounds
    quantization (gen.quantize)    Fit                -> Quantized: scales, integers, ranges
    proof (gen.proof)              Quantized, Fit     -> KernelProof: every stated bound
    self-check (gen.selfcheck)     Kernel             -> nothing, or a refusal
    render (gen.render)            Kernel             -> file contents

Forms.  ``direct``: the polynomial approximates f and _eval returns its
root word rounded to scale S.  ``one_minus``: the polynomial approximates
g = 1 - f (for exp(-x) on [0, ln 2), g lies in [0, 1/2), so a word holds it
at scale 2^64 where f itself, which reaches 1, fits only at 2^63; with a
``wide`` scheme the root is a two-word value at up to 2^128); the outputs
are 2^S - round(g 2^S) and a correctly rounded ccs * (1 - g) * 2^63
computed in 128 bits.  ``wide = n`` keeps the last n Horner steps on two
words in either form; a direct root on two words is rounded to nearest by
_eval and _expm_p63 and may add a constant bias (Quantized.root_bias).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Optional, Union

from . import falcon, progress, segments
from .config import KernelConfig
from .errors import GenError
from .fit import Fit, fit
from .parallel import parallel_map
from .proof.assemble import KernelProof, check_budget, prove
from .quantize import Quantized, check_root_scale, const_node, final_product_plan, quantize, root_margin
from .quantize.limbs import TruncPlan
from .segments import Segmentation
from .selfcheck import self_check
from .head_kernel import HeadKernel, build_head
from .eft import EftKernel, build_eft
from .fold import FoldKernel, build_fold
from .twin import TwinKernel, build_twin
from .mcu import McuKernel, build_mcu


@dataclass(frozen=True)
class Kernel:
    cfg: KernelConfig
    seg: Segmentation
    fit: Fit
    qz: Quantized
    final_plan: Optional[TruncPlan]   # truncated ccs product of _expm_p63 (gen/quantize/limbs.py)
    proof: KernelProof

    @property
    def reoptimized(self) -> bool:
        return self.fit.reoptimized

    @property
    def eval_bound_ulp(self) -> Fraction:
        return self.proof.eval_bound_ulp

    @property
    def expm_bound_2p63(self) -> Optional[Fraction]:
        return self.proof.expm_bound_2p63

    @property
    def fpr_bound_2p63(self) -> Optional[Fraction]:
        return self.proof.fpr_bound_2p63

    @property
    def mantissa_adaptor(self) -> bool:
        """The emulated-float adaptor multiplies U by ccs's significand and
        shifts by its exponent (:func:`gen.falcon.model_mantissa`)."""
        return self.proof.mantissa_adaptor

    @property
    def table_rows(self) -> int:
        """Rows of the coefficient table: one per segment, or, with
        pad_table, one per value the index (the top bits of u) can take."""
        if self.cfg.pad_table:
            assert self.seg.pow2_shift is not None
            return 1 << (self.cfg.word_bits - self.seg.pow2_shift)
        return self.seg.count

    @property
    def coefficient_bits(self) -> tuple[int, ...]:
        """Bits of K_0 .. K_d in a table row: the word size, but 32 for the
        constants of 32-bit Horner steps with table_layout = "mixed" (their
        integers fit 32 bits: the quantization proves it)."""
        qz = self.qz
        return tuple(32 if self.cfg.table_layout == "mixed" and qz.scheme.nodes[const_node(qz.scheme, j)].narrow
                     else self.cfg.word_bits for j in range(qz.degree + 1))

    @property
    def table_row_words(self) -> int:
        """Words of one table row, in units of the table's element type
        (uint32_t for the mixed layout, the word otherwise)."""
        if self.cfg.table_layout == "mixed":
            return sum(self.coefficient_bits) // 32
        return self.qz.degree + 1

    @property
    def table_bytes(self) -> int:
        return self.table_rows * sum(self.coefficient_bits) // 8

    @property
    def table_access(self) -> str:
        return "none" if self.seg.count == 1 else self.cfg.table_access


# A checked kernel of any form: what build returns and render takes.
AnyKernel = Union[Kernel, HeadKernel, EftKernel, FoldKernel, TwinKernel, McuKernel]


def build(cfg: KernelConfig) -> AnyKernel:
    """Run every stage for ``cfg`` and return the checked kernel (each stage
    is announced to :mod:`gen.progress`)."""
    if cfg.form == "eft":
        return build_eft(cfg, progress.report)
    if cfg.form == "fold":
        return build_fold(cfg, progress.report)
    if cfg.form == "twin":
        return build_twin(cfg, progress.report)
    if cfg.form == "mcu":
        return build_mcu(cfg, progress.report)
    progress.report(f"{cfg.name}: segmentation")
    seg = segments.segment(cfg)
    if cfg.form == "head":
        return build_head(cfg, seg, progress.report)
    progress.report(f"{cfg.name}: fit of {seg.count} segment(s)")
    fitted = fit(cfg, seg, progress.report)
    cfg = replace(cfg, wide=fitted.wide)   # wide = "auto": the steps the fit chose
    progress.report(f"{cfg.name}: quantization and proof")
    t = fitted.trial
    qz = quantize(t.qz.scheme, seg, t.coefficients, forced_scales=t.scales, forced_ints=t.ints,
                  root_margin=root_margin(cfg), root_offset=t.root_offset)
    check_root_scale(cfg, qz)
    final_plan = final_product_plan(cfg, qz)
    proof = prove(cfg, qz, fitted.approx, final_plan, falcon.has_mantissa_adaptor(cfg, qz, final_plan))
    kernel = Kernel(cfg, seg, fitted, qz, final_plan, proof)
    check_budget(cfg, proof)
    progress.report(f"{cfg.name}: self-check")
    self_check(kernel)
    return kernel


def _build_one(cfg: KernelConfig) -> AnyKernel | GenError:
    """build(cfg) in a worker of :func:`build_many`: segments run serially
    there (the workers already use the cores), errors come back as values."""
    os.environ["FXP_GEN_JOBS"] = "1"
    try:
        return build(cfg)
    except GenError as exc:
        return exc


def build_many(cfgs: list[KernelConfig]) -> list[AnyKernel | GenError]:
    """build() for several configs, one kernel per process (FXP_GEN_JOBS
    processes): the result of each config, or its error, in order."""
    return parallel_map(_build_one, [(cfg,) for cfg in cfgs])

"""The driver of form = "head" (gen/kernel.py hands it the config and the
segmentation): the same stages as every kernel, in their head-form
modules: fit (gen/fit/head.py), quantization (gen/quantize/head.py), proof
(gen/proof/head.py), self-check (gen/selfcheck.py)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from .config import KernelConfig
from .fit.head import HEADS, HeadFit, fit_head, middle_and_tail
from .proof.head import HeadProof, check_budget_head
from .proof.head import prove as prove_head
from .quantize.head import HeadPlan
from .quantize.head import plan as head_plan
from .segments import Segmentation
from .selfcheck import self_check_head


@dataclass(frozen=True)
class HeadKernel:
    """A form = "head" kernel: the same stages, their head-form modules
    (gen/fit/head.py, gen/quantize/head.py, gen/proof/head.py)."""

    cfg: KernelConfig
    seg: Segmentation
    fit: HeadFit
    plan: HeadPlan
    proof: HeadProof
    reoptimized = False
    table_rows = 0
    table_bytes = 0
    table_access = "none"

    @property
    def constant(self) -> Fraction:
        """The binary64 constant e of _eval and _expm_p63: the rounding
        constant plus the centring bias."""
        return self.plan.magic + self.proof.bias

    @property
    def eval_bound_ulp(self) -> Fraction:
        return self.proof.eval_bound

    @property
    def expm_bound_2p63(self) -> Fraction:
        return self.proof.expm_bound

    @property
    def fpr_bound_2p63(self) -> Fraction:
        return self.proof.fpr_bound


def build_head(cfg: KernelConfig, seg: Segmentation, progress: Callable[[str], None]) -> HeadKernel:
    """The stages for form = "head"."""
    fitted = fit_head(cfg, seg)
    progress(f"{cfg.name}: fitted")
    mid, tail = middle_and_tail(cfg, fitted)
    plan = head_plan(cfg, seg, mid, tail)
    proof = prove_head(cfg, plan, HEADS[plan.k])
    kernel = HeadKernel(cfg, seg, fitted, plan, proof)
    check_budget_head(cfg, proof)
    self_check_head(kernel)
    return kernel

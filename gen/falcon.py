"""Falcon's contract, in one place: when a kernel gets Falcon adaptors, how
they convert the caller's doubles (given as IEEE-754 bit patterns) into the
kernel's fixed-point inputs, and their exact models.

Falcon calls ``fpr_expm_p63(x, ccs)`` ~= ccs exp(-x) 2^63 with
0 <= x < ln 2 and 0 <= ccs < 1; its reference converts x and ccs with
z = 2 trunc(x 2^63) (Q0.64).  A kernel of ``exp(-x)`` on [0, ln 2) with
64-bit words serves it (:func:`compatible`); which adaptor template it gets
is :func:`variant`'s decision.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Optional

from . import expr
from .config import KernelConfig
from .exact import double_from_bits
from .model import evaluate_core
from .quantize import Quantized
from .quantize.limbs import TruncPlan
from .segments import Segmentation

if TYPE_CHECKING:
    from .kernel import Kernel

LN2_DOWN_BITS = 0x3FE62E42FEFA39EF   # the largest double below ln 2
LN2_DOWN = Fraction(double_from_bits(LN2_DOWN_BITS))   # its exact value, 0x162E42FEFA39EF / 2^53
ONE_BITS = 0x3FF0000000000000        # 1.0
INF_BITS = 0x7FF0000000000000        # +inf; the patterns above it have the sign bit set, or are NaNs


def clamp_bits(b: int, top: int) -> int:
    """The full adaptors' edge rule on a bit pattern read as an unsigned
    integer (docs/falcon.md, "Edge inputs"): above +inf's pattern (negative
    numbers, -0, NaNs of either sign) becomes +0, then anything above
    ``top`` (LN2_DOWN_BITS for x, ONE_BITS for ccs) becomes top."""
    b = 0 if b > INF_BITS else b
    return min(b, top)


_EXP_MINUS_X = expr.parse("exp(-x)")
_LN2_FORMS = (expr.parse("ln2", variable=False), expr.parse("log(2)", variable=False))


def compatible(cfg: KernelConfig, seg: Segmentation) -> bool:
    """Falcon adaptors make sense for 64-bit exp(-x) kernels on [0, ln 2):
    decided on the parsed function and domain, not on their spelling."""
    return (cfg.word_bits == 64 and cfg.function_tree == _EXP_MINUS_X and seg.z_lo == 0
            and cfg.domain_trees[1] in _LN2_FORMS)


def has_mantissa_adaptor(cfg: KernelConfig, qz: Quantized, final_plan: Optional[TruncPlan]) -> bool:
    """Whether the Falcon adaptors take ccs by its significand (direct form,
    root word at scale 2^64, and a ccs product built for a 32-bit core: a
    truncated limb product, or the exact UMULL/UMAAL product of
    multiplier = "umaal"; see :func:`gen.proof.output.mantissa_interval`)."""
    product = final_plan is not None or cfg.multiplier == "umaal"
    return product and cfg.form == "direct" and qz.root_scale == 64 and cfg.word_bits == 64


def variant(cfg: KernelConfig, qz: Quantized, final_plan: Optional[TruncPlan]) -> str:
    """Which Falcon adaptor template (``templates/falcon/<variant>.h.j2``) a
    kernel gets: ``mcu`` for kernels that take ccs by its significand (a
    truncated limb product, or a "umaal" one, at scale 2^64: 32-bit cores,
    conversions in 32-bit steps, no code for any other architecture), ``tail`` for kernels
    with a binary64 tail, ``host`` for the others (64-bit integer cores,
    SSE2 conversions on x86-64; a truncated kernel at another scale gets it
    too: its integer adaptors run on any core)."""
    if has_mantissa_adaptor(cfg, qz, final_plan):
        return "mcu"
    return "tail" if qz.tail is not None else "host"


def fpr_to_q64(bits: int) -> int:
    """2 trunc(v 2^63) for 0 <= v < 1 from v's bits, as the adaptors compute it."""
    e = (bits >> 52) & 0x7FF
    m = ((bits & ((1 << 52) - 1)) | (1 << 52)) << 11
    return (m >> min(max(1022 - e, 0), 63)) & ~1



def model_mantissa(kernel: Kernel, z: int, m: int, s: int) -> int:
    """The mantissa adaptor's result for z and ccs = m 2^-(63 + s):
    floor(P / 2^s), P the truncated product of m and U (gen/quantize/limbs.py),
    or P = floor(m U / 2^64) exactly (multiplier = "umaal")."""
    assert kernel.mantissa_adaptor and 0 <= m < 1 << 64 and 0 <= s <= 63
    u = evaluate_core(kernel.qz, kernel.seg, z)
    if kernel.final_plan is None:
        return ((m * u) >> 64) >> s
    return kernel.final_plan.evaluate(m, u, check=True) >> s



def model_fpr(kernel: Kernel, x_bits: int, ccs_bits: int) -> int:
    """The mantissa adaptor ``_fpr_expm_p63(x_bits, ccs_bits)`` with the
    documented edge rules (templates/falcon/), on the exact model."""
    abs_mask, inf_bits = (1 << 63) - 1, 0x7FF << 52
    xa, ca = x_bits & abs_mask, ccs_bits & abs_mask
    if x_bits >> 63 or xa > inf_bits:
        z = 0
    else:
        z = fpr_to_q64(min(xa, LN2_DOWN_BITS))
    if ccs_bits >> 63 or ca > inf_bits:
        return 0
    if ca >= 0x3FF << 52:
        m, s = 1 << 63, 0
    else:
        m = (1 << 63) | ((ca & ((1 << 52) - 1)) << 11)
        s = min(max(1023 - (ca >> 52), 0), 63)
    return model_mantissa(kernel, z, m, s)


"""The self-check (Ryu's idea): before a kernel is emitted, run its exact
integer model on segment ends, error extrema and random inputs, assert that
no step overflows and that every result is within its proven bound, and
refuse to emit it otherwise.  Input: a built kernel; output: nothing, or a
GenError."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import mpmath

from . import expr
from .errors import GenError
from .exact import int_to_mpf_exact
from .falcon import model_mantissa
from .model import evaluate_core, model_eval, model_expm

if TYPE_CHECKING:
    from .kernel import Kernel

SELF_CHECK_RANDOM = 2000


def self_check(kernel: Kernel) -> None:
    """Ryu-style: run the exact integer model on segment ends, error extrema
    and random inputs; assert no overflow and errors within the proven bounds."""
    cfg, seg, qz = kernel.cfg, kernel.seg, kernel.qz
    rng = random.Random(cfg.sha256)
    zs = {seg.z_lo, seg.z_max}
    for s in seg.segments:
        zs.update({s.z_first, s.z_last, (s.z_first + s.z_last) // 2})
        zs.update(kernel.fit.segments[s.index].extrema_z)
    zs.update(rng.randint(seg.z_lo, seg.z_max) for _ in range(SELF_CHECK_RANDOM))
    eval_bound = kernel.eval_bound_ulp
    expm_bound = kernel.expm_bound_2p63
    fpr_bound = kernel.fpr_bound_2p63
    with mpmath.workdps(40):
        for z in sorted(zs):
            evaluate_core(qz, seg, z, check=True)
            x = int_to_mpf_exact(z, -cfg.word_bits)
            f = expr.evaluate(cfg.function_tree, x, mpmath.mp)
            err = abs(model_eval(kernel, z) - f * mpmath.mpf(2) ** cfg.scale_bits)
            if err > mpmath.mpf(eval_bound.numerator) / eval_bound.denominator:
                raise GenError(f"self-check: {cfg.name} at z={z} errs by {mpmath.nstr(err, 6)} units, "
                               f"above its proven bound {float(eval_bound):.6g}; refusing to emit")
            if kernel.mantissa_adaptor:
                m, sh = rng.randint(1 << 63, (1 << 64) - (1 << 11)) & ~((1 << 11) - 1), rng.choice((0, 1, 2, 9))
                if sh == 0:
                    m = 1 << 63
                ideal = mpmath.mpf(m) / 2 ** (63 + sh) * f * 2**63
                err = abs(model_mantissa(kernel, z, m, sh) - ideal)
                if err > mpmath.mpf(fpr_bound.numerator) / fpr_bound.denominator:
                    raise GenError(f"self-check: {cfg.name}_fpr_expm_p63 at z={z}, significand {m:#x}, shift "
                                   f"{sh} errs by {mpmath.nstr(err, 6)}, above its proven bound; refusing to emit")
            if expm_bound is not None:
                w = rng.randint(1 << 63, (1 << 64) - 1)
                err = abs(model_expm(kernel, z, w) - mpmath.mpf(w) / 2**64 * f * 2**63)
                if err > mpmath.mpf(expm_bound.numerator) / expm_bound.denominator:
                    raise GenError(f"self-check: {cfg.name}_expm_p63 at z={z}, w={w} errs by "
                                   f"{mpmath.nstr(err, 6)}, above its proven bound; refusing to emit")

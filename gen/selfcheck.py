"""The self-check (Ryu's idea): before a kernel is emitted, run its exact
integer model on segment ends, error extrema and random inputs, assert that
no step overflows and that every result is within its proven bound, and
refuse to emit it otherwise.  Input: a built kernel; output: nothing, or a
GenError."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import mpmath

from . import expr
from .errors import GenError
from .exact import double_bits, int_to_mpf_exact
from .falcon import compatible, fpr_to_q64, model_fpr, model_mantissa
from .model import evaluate_core, model_eval, model_expm

if TYPE_CHECKING:
    from .head_kernel import HeadKernel
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
        if fpr_bound is not None and compatible(cfg, seg):
            _check_adaptors(kernel, rng)


def _check_adaptors(kernel: Kernel, rng: random.Random) -> None:
    """The Falcon adaptors' bound against the exact value of the doubles:
    the model of the conversion the adaptors make (the significand path, or
    z = 2 trunc(x 2^63) and w = 2 trunc(ccs 2^63) into _expm_p63)."""
    for x, c in _falcon_inputs(rng, 600):
        xb, cb = double_bits(x), double_bits(c)
        if kernel.mantissa_adaptor:
            got = model_fpr(kernel, xb, cb)
        else:
            got = model_expm(kernel, fpr_to_q64(xb), fpr_to_q64(cb))
        ideal = mpmath.mpf(c) * expr.evaluate(kernel.cfg.function_tree, mpmath.mpf(x), mpmath.mp) * 2**63
        _within(kernel.cfg.name, "_fpr_expm_p63_domain", f"x={x!r}, ccs={c!r}", got, ideal,
                kernel.fpr_bound_2p63)


def _falcon_inputs(rng: random.Random, count: int) -> list[tuple[float, float]]:
    """(x, ccs) in Falcon's domain the self-checks draw: uniform,
    log-uniform small x, powers of two and their neighbours, small and edge
    ccs."""
    out = []
    for i in range(count):
        kind = i % 4
        x = rng.uniform(0, 0.6931471805599453) if kind != 1 else 2.0 ** rng.uniform(-80, -8)
        if kind == 2:
            x = math.ldexp(1.0, -rng.randint(1, 64)) * rng.choice((1.0, 1.0 - 2.0 ** -53, 1.0 + 2.0 ** -52))
        c = rng.uniform(0.5, 1.0) if kind != 3 else 2.0 ** rng.uniform(-70, 0)
        out.append((min(x, 0.6931471805599452), min(c, 1.0 - 2.0 ** -53)))
    return out + [(0.0, 0.0), (0.0, 0.5), (0.6931471805599452, 1.0 - 2.0 ** -53), (2.0 ** -1074, 0.75)]


def self_check_head(kernel: "HeadKernel") -> None:
    """The head form's model on random and edge inputs of every entry point,
    against mpmath at 40 digits; refuses to emit if a proven bound fails."""
    from . import head_model as hm
    cfg = kernel.cfg
    rng = random.Random(cfg.sha256)
    z_max = kernel.plan.z_max
    zs = {0, 1, 2, 3, z_max, z_max - 1} | set(kernel.fit.info[2]) | {rng.randint(0, z_max) for _ in range(600)}
    with mpmath.workdps(40):
        for z in sorted(zs):
            f = expr.evaluate(cfg.function_tree, int_to_mpf_exact(z, -64), mpmath.mp)
            w = rng.randint(0, (1 << 64) - 1)
            for what, got, ideal, bound in (
                    ("_eval", hm.model_eval(kernel, z, True), f * 2**63, kernel.eval_bound_ulp),
                    ("_expm_p63", hm.model_expm(kernel, z, w, True), mpmath.mpf(w) / 2 * f, kernel.expm_bound_2p63)):
                _within(cfg.name, what, f"z={z:#x}", got, ideal, bound)
        for x, c in _falcon_inputs(rng, 1200):
            ideal = mpmath.mpf(c) * expr.evaluate(cfg.function_tree, mpmath.mpf(x), mpmath.mp) * 2**63
            got = hm.model_domain(kernel, hm.bits(x), hm.bits(c), True)
            _within(cfg.name, "_fpr_expm_p63_domain", f"x={x!r}, ccs={c!r}", got, ideal, kernel.fpr_bound_2p63)
            if got != hm.model_fpr(kernel, hm.bits(x), hm.bits(c), True):
                raise GenError(f"self-check: {cfg.name}: the full adaptor differs from the domain one at "
                               f"x={x!r}, ccs={c!r}; refusing to emit")


def _within(name: str, entry: str, where: str, got: int, ideal, bound) -> None:
    err = abs(got - ideal)
    if err > mpmath.mpf(bound.numerator) / bound.denominator:
        # Every ideal value is below 2^64 - 2^63; a result that far above
        # it is one that went below zero in the final modular subtraction.
        wrapped = got - ideal > 2**63
        why = (f" (it returns {got:#x}: the result went below zero and wrapped modulo 2^64, which a "
               f"bound of {float(bound):.6g} units allows near ccs = 0)") if wrapped else ""
        raise GenError(f"self-check: {name}{entry} at {where} errs by {mpmath.nstr(err, 6)}, above its "
                       f"proven bound {float(bound):.6g}{why}; refusing to emit")

"""The template context and the sidecar of a form = "head" kernel
(templates/head.h.j2, templates/falcon/head.h.j2)."""

from __future__ import annotations

import json
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from typing import Any, Sequence


from .. import cemit, falcon, fingerprint
from ..fit.head import HEADS
from ..floattail import CORRECTION_CONSTANTS, Op, correction_program
from ..head_kernel import HeadKernel
from ..head_model import LN2_DOWN, TAIL_X_MIN, bits
from ..proof.head import polynomial
from . import banner
from .sidecar import exact_text, identity
from . import batch as batch_forms

ISA_FMA = ["fma"]


def _decimal(value: Fraction, rounding: str, digits: int = 12) -> str:
    decimal = Decimal(value.numerator) / Decimal(value.denominator) if value else Decimal(0)
    return format(Context(prec=digits, rounding=rounding).plus(decimal), "e")


def _interval(iv: tuple[Fraction, Fraction]) -> list[str]:
    return [_decimal(iv[0], ROUND_FLOOR), _decimal(iv[1], ROUND_CEILING)]



def _program(ops: Sequence[Op]) -> list[dict[str, Any]]:
    return [{"kind": op.kind, "args": list(op.args), "index": op.index, "label": op.label} for op in ops]


def _certificate(k: HeadKernel) -> dict[str, Any]:
    """What certify/gappa_head.py needs to have Gappa re-prove the binary64
    part: the operations (as the C code does them), their constants, and
    per entry and piece the error and range the proof used (exact
    rationals, before the bias)."""
    plan, proof = k.plan, k.proof
    return {
        "remainders": k.cfg.head.conversion_remainder, "magic": exact_text(plan.magic),
        "tail_coefficients": [exact_text(c) for c in plan.tail],
        "tail_program": _program(plan.program),
        "correction_program": _program(correction_program(k.cfg.head.fma)),
        "correction_constants": [exact_text(c) for c in CORRECTION_CONSTANTS],
        "claims": {entry: [[str(c.zlo), str(c.zhi), *map(exact_text, c.error), *map(exact_text, c.computed)]
                           for c in claims] for entry, claims in proof.tail_claims.items()},
    }


def detail_lines(k: HeadKernel, out_dir: str) -> list[str]:
    """The annotated header's banner: the vendored banner's first lines,
    every parameter, then the computed values and proven bounds."""
    cfg, plan, proof = k.cfg, k.plan, k.proof
    lines = banner.lines(k, out_dir)[:-1]     # type: ignore[arg-type]
    if cfg.description:
        lines.append(f"Description: {banner.c_comment(cfg.description)}")
    lines += ["", "Parameters:"]
    lines += [f"  {key} = {banner.c_comment(json.dumps(value))}" for key, value in cfg.parameters().items()]
    lines += ["", "Computed:",
              f"  inputs z = 0x0 .. 0x{plan.z_max:x} (Q0.64); one polynomial of degree {cfg.degree}",
              f"  exact head 1 - x{' + x^2/2' if plan.k == 3 else ''}; middle x^{plan.k}..x^{plan.first_tail - 1} "
              f"at 2^{plan.mid_scale}; binary64 tail x^{plan.first_tail}..x^{cfg.degree}"
              f"{' with FMA' if cfg.head.fma else ''}; parts added in units of 2^-{plan.units}",
              f"  real-coefficient minimax error: {k.fit.info[0]:.4e}",
              f"  proven p - f of the quantized polynomial: [{float(proof.approx.lo):.4e}, {float(proof.approx.hi):.4e}]",
              f"  centring bias: {float(proof.bias):g} units; accumulator offset {proof.offset} units",
              f"  proven bound of _eval: {cemit.round_up(k.eval_bound_ulp)} units of 2^-63",
              f"  proven bound of _expm_p63: {cemit.round_up(k.expm_bound_2p63)} units of 2^-63",
              f"  proven bound of the Falcon adaptors (against the doubles passed): "
              f"{cemit.round_up(k.fpr_bound_2p63)} units of 2^-63",
              "  (bounds: gen/proof/head.py and docs/error-model.md of fxp-kernels; the binary64 part's",
              f"  claims, re-proven by Gappa with certify/gappa_head.py: {cfg.name}.json)"]
    return lines


def context(k: HeadKernel, out_dir: str) -> dict[str, Any]:
    cfg, plan, proof = k.cfg, k.plan, k.proof
    name = cfg.name
    fma_macro = f"{name.upper()}_FMA"
    rounded = f"{name}_rounded"
    tail = cemit.tail_lines(plan.program, plan.tail, ["e"], "t", fma_macro, rounded=rounded)
    consts = [k.constant, *CORRECTION_CONSTANTS]
    corr = cemit.tail_lines(correction_program(cfg.head.fma), consts, ["rx", "rc"], "r", fma_macro, "x", "ccs",
                             rounded=rounded)
    return {
        "generator_sha256": fingerprint.generator_sha256(), "config_path": banner.project_path(cfg.path),
        "config_sha256": cfg.sha256, "command": banner.command(cfg.path, out_dir),
        "function": cfg.function, "name": name, "NAME": name.upper(), "interface": "head_interface.j2",
        "degree": cfg.degree, "z_max_hex": f"0x{plan.z_max:x}", "k": plan.k,
        "eval_bound": cemit.round_up(k.eval_bound_ulp), "expm_bound": cemit.round_up(k.expm_bound_2p63),
        "fpr_bound": cemit.round_up(k.fpr_bound_2p63),
        "z_clamp_hex": f"0x{falcon.fpr_to_q64(falcon.LN2_DOWN_BITS):016x}",
        "magic_bits": f"0x{bits(float(plan.magic)):016X}", "magic_literal": cemit.c_double(k.constant),
        "magic_text": f"{cemit.c_double(plan.magic)}", "bias_text": f"{float(proof.bias):g}",
        "offset": proof.offset, "mid_lines": cemit.head_middle(plan), "mid_scale": plan.mid_scale,
        "cx_shift": plan.cx_shift, "e1": plan.e1, "units": plan.units, "first_tail": plan.first_tail,
        "tail_lines": tail, "tail_result": tail[-1][0], "fma": cfg.head.fma,
        "corr_lines": corr, "corr_result": corr[-1][0], "remainders": cfg.head.conversion_remainder,
        "tail_x_min": cemit.c_double(Fraction(TAIL_X_MIN)), "ln2_down": cemit.c_double(Fraction(LN2_DOWN)),
        "batch": batch_forms.context(k),
    }


def sidecar(k: HeadKernel, ctx: dict[str, Any]) -> dict[str, Any]:
    """The kernel folder's sidecar (the fields every kernel has, then the
    head form's own)."""
    cfg, plan, proof = k.cfg, k.plan, k.proof
    coeffs = polynomial(plan, HEADS[plan.k])
    return {
        **identity(cfg, ctx),
        "word_bits": 64, "scale_bits": 63, "segments": 1, "table_rows": 0, "degree": cfg.degree,
        "table_bytes": 0, "table_access": "none", "uses_float": True, "isa": ISA_FMA if cfg.head.fma else [],
        "falcon_adaptors": True, "fixed_point": True, "batch": list(cfg.batch), "form": "head", "z_lo": "0", "z_max": str(plan.z_max),
        "bound": {"eval_ulp": float(ctx["eval_bound"]), "expm_p63_2p63": float(ctx["expm_bound"]),
                  "fpr_expm_p63_2p63": float(ctx["fpr_bound"]),
                  "method": "proven: Taylor-model approximation bound + interval propagation of every "
                            "floor and binary64 rounding, conversions of the double inputs included "
                            "(gen/proof/head.py, docs/error-model.md)"},
        "polynomial": [f"{c.numerator}/{c.denominator}" for c in coeffs],
        "head": {"exact_head": plan.k, "first_tail": plan.first_tail, "mid_scale": plan.mid_scale,
                 "mid_words": [str(w) for w in plan.mid_words], "mid_signs": list(plan.mid_signs),
                 "cx_shift": plan.cx_shift, "units": plan.units, "fma": cfg.head.fma,
                 "tail": [cemit.c_double(c) for c in plan.tail],
                 "bias": str(proof.bias), "offset": proof.offset,
                 "approx_interval": _interval((proof.approx.lo, proof.approx.hi)),
                 "eval_interval": _interval(proof.eval_interval), "expm_interval": _interval(proof.expm_interval),
                 "fpr_interval": _interval(proof.fpr_interval), "binary64": _certificate(k),
                 **({"batch": list(cfg.head.batch)} if cfg.head.batch else {})},
        "segment_list": [{"index": 0, "z_first": "0", "z_last": str(plan.z_max), "t_max": str(plan.z_max),
                          "approx_bound": float(cemit.round_up(proof.approx.bound)),
                          "minimax_error": k.fit.info[0], "remez_iterations": k.fit.info[1],
                          "error_extrema_z": [str(z) for z in k.fit.info[2]]}],
    }

"""The sidecar: a kernel folder's machine-readable description (every
parameter, the scheme's graph, every proven bound and range), which the
tools read through the kernel-folder library.  The first key is
``schema_version``."""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from typing import Any, Optional

import kfolder

from .. import fingerprint
from ..cemit import round_up
from ..falcon import LN2_DOWN, compatible
from ..floattail import hex_double
from ..fit import SegmentFit
from ..kernel import Kernel
from ..proof.assemble import SegmentProof
from ..proof.truncation import loss_bound
from ..quantize import operand_shift
from ..segments import Segment


def identity(cfg: Any, ctx: dict[str, Any]) -> dict[str, Any]:
    """The keys every sidecar starts with, in this order: the schema, the
    kernel's name, where it came from and every input parameter (``ctx``:
    the template context, which holds the generator's hash and the command)."""
    return {
        "schema_version": kfolder.SCHEMA_VERSION, "name": cfg.name, "description": cfg.description,
        "generator_sha256": ctx["generator_sha256"], "config_path": ctx["config_path"], "config_sha256": cfg.sha256,
        "command": ctx["command"], "parameters": cfg.parameters(), "function": cfg.function,
    }


def exact_text(q: Fraction) -> str:
    """A rational as the sidecar writes it exactly: "numerator/denominator"."""
    return f"{q.numerator}/{q.denominator}"


def bound_text(k: Any) -> str:
    """A binary64 form's proven bound at the Falcon interface (units of
    2^-63), rounded up, as its banners and context print it."""
    return round_up(k.fpr_bound_2p63)


def whole_domain_segment(approx_bound: Fraction) -> list[dict[str, Any]]:
    """"segment_list" of a one-piece kernel over z in [0, LN2_DOWN 2^64] (z
    in units of 2^-64; exact, since the double LN2_DOWN has 53 significant
    bits and exponent -1), for Sollya's cross-check of the approximation
    bound (certify/sollya_check.py reads "polynomial" for such forms)."""
    top = LN2_DOWN * 2 ** 64
    assert top.denominator == 1
    return [{"index": 0, "z_first": "0", "z_last": str(top.numerator), "t_max": str(top.numerator),
             "approx_bound": float(round_up(approx_bound))}]


def _decimal(value: Fraction, rounding: str, digits: int = 12) -> str:
    """value rounded outward (the given direction) to a decimal string."""
    decimal = Decimal(value.numerator) / Decimal(value.denominator) if value else Decimal(0)
    return format(Context(prec=digits, rounding=rounding).plus(decimal), "e")



def _limb_fields(k: Kernel, n: int) -> dict[str, Any]:
    """Sidecar fields of a narrow node or a truncated product (none for
    other nodes, so other kernels' sidecars are unchanged): the word width,
    the operands' right shifts, the product's drop D and the proven bound
    of what it loses, floor(loss bound) units (gen/proof/truncation.py)."""
    qz = k.qz
    node = qz.scheme.nodes[n]
    plan = qz.plans[n] if qz.plans else None
    out: dict[str, Any] = {}
    if node.narrow:
        out["narrow"] = True
    if node.kind == "mul" and (node.narrow or plan is not None):
        out["operand_shifts"] = [operand_shift(qz.scheme, n, x, k.cfg.word_bits) for x in node.args]
        out["drop"] = plan.drop if plan else 32
        loss = loss_bound(plan) if plan else None
        out["truncation_loss"] = str(loss.numerator // loss.denominator) if loss is not None else None
        if plan is not None:
            out["limbs"] = {"a": [[l.pos, l.bits] for l in plan.a], "b": [[l.pos, l.bits] for l in plan.b],
                            "groups": [[list(p) for p in g] for g in plan.groups]}
    return out



def quantization_ratio(fitted: SegmentFit, proof: SegmentProof) -> Optional[float]:
    """Proven |p_q - f| over max(real minimax error, grid distance of the
    constant coefficient): how much the quantized polynomial loses to
    rounding, against what no choice of rounding can avoid."""
    if fitted.minimax_error is None:
        return None
    floor = max(Fraction(fitted.minimax_error), fitted.grid_distance)
    return float(proof.approx.bound / floor) if floor > 0 else None


def _segment(k: Kernel, s: Segment, fitted: SegmentFit, proof: SegmentProof) -> dict[str, Any]:
    """One entry of "segment_list"."""
    qz = k.qz
    return {
        "index": s.index, "z_first": str(s.z_first), "z_last": str(s.z_last),
        "t_max": str(s.z_last - s.z_first),
        "coefficients": [str(c) for c in qz.ints[s.index]],
        "eval_error_core": [_decimal(proof.eval_error[0], ROUND_FLOOR), _decimal(proof.eval_error[1], ROUND_CEILING)],
        "approx_interval": [_decimal(proof.approx.lo, ROUND_FLOOR), _decimal(proof.approx.hi, ROUND_CEILING)],
        "node_ranges": [[str(lo), str(hi)] for lo, hi in qz.ranges[s.index]],
        "minimax_error": fitted.minimax_error, "remez_iterations": fitted.remez_iterations,
        "approx_bound": float(round_up(proof.approx.bound)),
        "quantization_ratio": quantization_ratio(fitted, proof),
        "eval_bound_ulp": float(round_up(proof.eval_bound_ulp)),
        "expm_bound_2p63": float(round_up(proof.expm_bound_2p63)) if proof.expm_bound_2p63 is not None else None,
        "error_extrema_z": [str(z) for z in fitted.extrema_z],
    } | _tail_sidecar(k, s.index)


def _bounds(k: Kernel, ctx: dict[str, Any]) -> dict[str, Any]:
    """The "bound", "quantization" and "final_product" keys."""
    ratios = [quantization_ratio(f, p) for f, p in zip(k.fit.segments, k.proof.segments)]
    out: dict[str, Any] = {
        "bound": {"eval_ulp": float(ctx["eval_bound"]),
                  "expm_p63_2p63": float(ctx["expm_bound"]) if ctx["expm_bound"] else None,
                  "fpr_expm_p63_2p63": float(ctx["fpr_bound"]) if ctx["fpr_bound"] else None,
                  "method": "proven: Taylor-model approximation bound + exact interval "
                            "propagation of every truncation (docs/error-model.md)"},
        "quantization": {
            "target_ratio": 1.25,
            "max_ratio": max((r for r in ratios if r is not None), default=None),
            "meaning": "proven |p - f| / max(real minimax error, distance of f at the segment start to "
                       "the constant coefficient's grid), per segment",
        },
    }
    if k.final_plan is not None:
        out["final_product"] = {"operands": ["w", "U"], "drop": k.final_plan.drop,
                                "loss_bound": _decimal(loss_bound(k.final_plan), ROUND_CEILING),
                                "kept_partial_products": k.final_plan.kept}
    return out


def sidecar(k: Kernel, ctx: dict[str, Any]) -> dict[str, Any]:
    """The sidecar of kernel k (``ctx``: its template context)."""
    cfg, seg, qz = k.cfg, k.seg, k.qz
    return {
        "schema_version": kfolder.SCHEMA_VERSION,
        "name": cfg.name,
        "description": cfg.description,
        "generator_sha256": fingerprint.generator_sha256(),
        "config_path": ctx["config_path"],
        "config_sha256": cfg.sha256,
        "command": ctx["command"],
        "parameters": cfg.parameters(),
        "function": cfg.function,
        "word_bits": cfg.word_bits,
        "scale_bits": cfg.scale_bits,
        "segments": seg.count,
        "table_rows": k.table_rows,
        "degree": qz.degree,
        "table_bytes": k.table_bytes,
        "table_access": k.table_access,
        "uses_float": k.qz.tail is not None,
        "falcon_adaptors": compatible(k.cfg, k.seg),
        "fixed_point": True,
        "batch": [],
        "z_lo": str(seg.z_lo),
        "z_max": str(seg.z_max),
        "index": {"kind": seg.kind, "width": str(seg.width),
                  "magic": str(seg.magic) if seg.magic else None, "magic_shift": seg.magic_shift,
                  "pow2_shift": seg.pow2_shift, "pre_shift": seg.pre_shift},
        "evaluation": qz.scheme.name,
        "form": cfg.form,
        "reoptimized": k.reoptimized,
        "coefficient_scales": list(qz.const_scales),
        "nodes": [{"kind": node.kind, "args": list(node.args), "power": node.power, "label": node.label,
                   "wide": bool(node.wide),
                   "scale": qz.scales[n], "sign": qz.signs[n],
                   "terms": [list(t) for t in qz.terms[n]] if qz.terms[n] else None,
                   **_limb_fields(k, n)}
                  for n, node in enumerate(qz.scheme.nodes)],
        "final_shift": qz.root_scale - cfg.scale_bits,
        "core_scale": qz.root_scale,
        **({"root_bias": str(qz.root_bias)} if qz.root_bias else {}),
        **_bounds(k, ctx),
        "segment_list": [_segment(k, s, f, p) for s, f, p in zip(seg.segments, k.fit.segments, k.proof.segments)],
    }


def _tail_sidecar(k: Kernel, index: int) -> dict[str, Any]:
    """A tail's proven word range and error (c = 1 and c from w, units of
    2^-scale, outward-rounded), its binary64 coefficients and its program."""
    tail = k.qz.tail
    if tail is None:
        return {}
    rng = tail.ranges[index]
    return {"tail": {
        "first_power": tail.first, "scale": tail.scale, "sign": tail.sign,
        "coefficients": [hex_double(b) for b in tail.coeffs],
        "range": [str(min(lo for lo, _ in rng)), str(max(hi for _, hi in rng))],
        "error": [_decimal(tail.eps_eval[index][0], ROUND_FLOOR), _decimal(tail.eps_eval[index][1], ROUND_CEILING)],
        "error_expm": [_decimal(tail.eps_expm[index][0], ROUND_FLOOR),
                       _decimal(tail.eps_expm[index][1], ROUND_CEILING)],
        "zero_below": str(tail.zero_below),
        # Proven U <= (1 + 2^-35) t 2^s + 1 at every v (c = 1); null if not.
        "relative": "1b-35" if tail.relative else None,
        "program": [{"kind": op.kind, "args": list(op.args), "index": op.index, "label": op.label}
                    for op in tail.ops],
    }}

"""Render a built kernel into ``<out>/<name>/`` from the Jinja2 templates.

All files are rendered in memory first; only then is anything written, each
file atomically (a temporary file in the same folder, flushed, then
``os.replace``), and only if its content changed.  Output depends on the
config and the generator alone: no timestamps, no machine paths.
"""

from __future__ import annotations

import json
import os
import shlex
import struct
import tempfile
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Optional

import jinja2

from certify import gappa_script

from . import VERSION, floattail, limbs, quantize
from .kernel import LN2_DOWN_BITS, Kernel, fpr_to_q64

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
RUNTIME_HEADER = ROOT / "runtime" / "fxp.h"
# The kernel-folder format's version, the sidecar's first key: raised when a
# key is removed or changes meaning, so that tools refuse a folder they would misread.
SIDECAR_SCHEMA_VERSION = 1


def round_up(value: Fraction, digits: int = 6) -> str:
    """A decimal string >= value (with a relative margin of 2^-40, so that
    the double a C compiler makes of it is still >= value)."""
    margin = value * (1 + Fraction(1, 1 << 40))
    decimal = Decimal(margin.numerator) / Decimal(margin.denominator)
    rounded = Context(prec=digits, rounding=ROUND_CEILING).plus(decimal)
    text = format(rounded, "f") if abs(rounded) >= Decimal("1e-4") else format(rounded, "e")
    return text if any(c in text for c in ".e") else text + ".0"


def _decimal(value: Fraction, rounding: str, digits: int = 12) -> str:
    """value rounded outward (the given direction) to a decimal string."""
    decimal = Decimal(value.numerator) / Decimal(value.denominator) if value else Decimal(0)
    return format(Context(prec=digits, rounding=rounding).plus(decimal), "e")


def config_display_path(path: str) -> str:
    """The config path as the user should type it: relative to the repo root when inside it."""
    p = Path(path).resolve()
    try:
        return str(p.relative_to(ROOT))
    except ValueError:
        return p.name


def _environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                              undefined=jinja2.StrictUndefined, trim_blocks=True,
                              lstrip_blocks=True, keep_trailing_newline=True,
                              autoescape=False)


def falcon_compatible(k: Kernel) -> bool:
    """Falcon adaptors make sense for 64-bit exp(-x) kernels on [0, ln 2)."""
    return (k.cfg.word_bits == 64 and k.cfg.function.replace(" ", "") == "exp(-x)"
            and k.seg.z_lo == 0 and k.cfg.domain[1].replace(" ", "") in ("ln2", "log(2)"))


def context(k: Kernel, out_dir: str) -> dict[str, Any]:
    cfg, seg, qz = k.cfg, k.seg, k.qz
    W = cfg.word_bits
    word_t = f"uint{W}_t"
    word_c = f"UINT{W}_C"
    digits = W // 4
    config_path = config_display_path(cfg.path)
    command = f"python3 -m gen render {shlex.quote(config_path)} --out {shlex.quote(out_dir)}"

    steps, root = _steps(k, digits)
    final_steps: list[dict[str, str]] = []
    final_expr = ""
    if k.final_plan is not None:
        final_steps, final_expr = _limb_product(k.final_plan, [("w", 64, 0), ("u", 64, 0)], "p", 64, set())
    if seg.count == 1:
        index_doc = "one segment"
        index_lines = ["no index: t = u = z - z_lo."]
    elif seg.kind == "pow2":
        index_doc = f"{seg.count} segments of width 2^-{W - seg.pow2_shift}"
        index_lines = [f"idx = u >> {seg.pow2_shift}, t = u & (2^{seg.pow2_shift} - 1),",
                       "u = z - z_lo: one shift and one mask."]
    else:
        index_doc = f"{seg.count} equal segments of {seg.width} inputs (width ~ (hi - lo) / {seg.count})"
        index_lines = [f"idx = floor(u / {seg.width}) = mulhi(u, M) >> {seg.magic_shift}, exact for every",
                       f"u = z - z_lo <= {seg.z_max - seg.z_lo} (proof: gen/segments.py, _division_magic);",
                       f"t = u - idx * {seg.width}.  Cost: one multiply-high, one shift,",
                       "one multiply by a small constant and a subtraction."]

    q = qz.root_scale - cfg.scale_bits
    eval_bound = round_up(k.eval_bound_ulp)
    expm_bound = round_up(k.expm_bound_2p63) if k.expm_bound_2p63 is not None else None
    minimax = [s.minimax_error for s in k.segments if s.minimax_error is not None]
    params = cfg.parameters()
    lines = [f"kernel {cfg.name}: {cfg.description}".rstrip(": "),
             "",
             "Parameters:"]
    for key, value in params.items():
        lines.append(f"  {key} = {json.dumps(value)}")
    lines += ["",
              "Computed:",
              f"  inputs z = 0x{seg.z_lo:x} .. 0x{seg.z_max:x} (Q0.{W}); {seg.count} segment(s); pre-shift g = {seg.pre_shift}",
              f"  evaluation: {qz.scheme.name}, form {cfg.form}; coefficient scales s_j (j = 0..{qz.degree}) = "
              f"{list(qz.const_scales)}",
              f"  output: root word at 2^{qz.root_scale} -> 2^{cfg.scale_bits} (shift {q}, round to nearest)",
              f"  coefficients re-optimized after rounding (evaluation-aware): {'yes' if k.reoptimized else 'no'}",
              f"  table: {k.table_bytes} bytes, access {k.table_access}"]
    if minimax:
        lines.append(f"  real-coefficient minimax error (max over segments): {max(minimax):.4e}")
    lines.append(f"  proven |p - f| of the quantized polynomials (max over segments): "
                 f"{round_up(max(s.approx.bound for s in k.segments))}")
    lines.append(f"  proven bound of _eval: {eval_bound} units of 2^-{cfg.scale_bits}")
    if expm_bound is not None:
        lines.append(f"  proven bound of _expm_p63: {expm_bound} units of 2^-63")
    if k.mantissa_adaptor:
        lines.append(f"  proven bound of the Falcon adaptors (ccs through its significand): "
                     f"{round_up(k.fpr_bound_2p63)} units of 2^-63")
    lines.append("  (bounds: gen/bounds.py, docs/error-model.md)")

    z_clamp = fpr_to_q64(LN2_DOWN_BITS)
    rows = [{"index": s.index, "z_first": f"0x{s.z_first:0{digits}x}", "z_last": f"0x{s.z_last:0{digits}x}",
             "approx": round_up(s.approx.bound, 4),
             "words": [f"{word_c}(0x{qz.table_word(s.index, j):0{digits}x})" for j in range(qz.degree + 1)]}
            for s in k.segments]
    if k.table_rows > seg.count:
        rows.append({"pad_first": seg.count, "pad_last": k.table_rows - 1, "words": rows[-1]["words"]})
    return {
        "version": VERSION, "config_path": config_path, "config_sha256": cfg.sha256,
        "command": command, "parameter_lines": lines,
        "name": cfg.name, "NAME": cfg.name.upper(), "W": W, "S": cfg.scale_bits,
        "word_t": word_t, "word_c": word_c, "mulhi": f"fxp_mulhi{W}",
        "segments": seg.count, "table_rows": k.table_rows, "degree": qz.degree, "table_bytes": k.table_bytes,
        "table_access": k.table_access, "kind": seg.kind,
        "z_lo": f"0x{seg.z_lo:x}" if seg.z_lo else 0, "z_max_hex": f"0x{seg.z_max:x}",
        "u_max": seg.z_max - seg.z_lo, "width": seg.width, "magic": f"0x{seg.magic:x}" if seg.magic else 0,
        "magic_shift": seg.magic_shift or 0, "pow2_shift": seg.pow2_shift or 0,
        "offset_mask": f"0x{(seg.width - 1):x}", "g": seg.pre_shift,
        "index_doc": index_doc, "index_lines": index_lines,
        "steps": steps, "root": root, "s0": qz.root_scale, "q": q, "wide": cfg.wide,
        "core_t": "fxp_wide" if cfg.wide else word_t,
        "half": f"0x{(1 << (q - 1)):x}" if q else 0, "one_minus": cfg.form == "one_minus",
        "scheme_doc": {"horner": "Horner's scheme", "estrin": "Estrin's scheme"}[qz.scheme.name],
        "eval_bound": eval_bound, "expm_bound": expm_bound, "rows": rows,
        "z_clamp_hex": f"0x{z_clamp:016x}",
        "final_steps": final_steps, "final_expr": final_expr,
        "final_mulhi": mulhi_name(cfg.multiplier, 64),
        "m3_adaptor": k.final_plan is not None and qz.root_scale >= 63,
        "mantissa_adaptor": k.mantissa_adaptor,
        "fpr_bound": round_up(k.fpr_bound_2p63) if k.fpr_bound_2p63 is not None else None,
        "table_sram": cfg.table_placement == "sram",
    } | _tail_context(k, steps)


def _double_bits(value: Fraction) -> int:
    """The IEEE-754 binary64 bits of a value that is a double."""
    floattail.hex_double(value)   # refuses a value that is not a double
    return struct.unpack("<Q", struct.pack("<d", float(value)))[0]


def _tail_context(k: Kernel, steps: list[dict[str, str]]) -> dict[str, Any]:
    """Template values of a kernel with a binary64 tail (``tail`` False otherwise)."""
    qz, tail = k.qz, k.qz.tail
    if tail is None:
        return {"tail": False, "tail_from_x": False}
    integer_root = qz.scheme.nodes[qz.root].args[0]
    lines = [{"name": name, "expr": expr, "comment": comment}
             for name, expr, comment in floattail.c_lines(tail.ops, tail.coeffs)]
    lo = min(r[0] for r in tail.ranges[0])
    hi = max(max(r[1] for r in tail.ranges[0]), tail.u_max_expm)
    return {
        "tail": True, "tail_lines": lines, "tail_result": lines[-1]["name"],
        "tail_first": tail.first, "tail_scale": tail.scale, "tail_sign": tail.sign,
        "tail_range": f"[0x{lo:016x}, 0x{hi:016x}]",
        "tail_coeffs": [f"b{i} = {floattail.hex_double(b)} = sigma a{tail.first + i} 2^{tail.scale}"
                        for i, b in enumerate(tail.coeffs)],
        # The last step is the root sum (integer part + tail), the one before
        # it the integer part's root (float_tail >= 2 leaves at least a product).
        "int_root": steps[-2]["name"],
        "int_scale": qz.scales[integer_root], "root_expr": steps[-1]["expr"],
        # The smallest nonzero x and ccs the tail may see, as binary64 bits
        # (the proof's gen/floattail.py constants).
        "tail_x_min_bits": f"0x{_double_bits(floattail.ZERO_BELOW):016X}",
        "tail_c_min_bits": f"0x{_double_bits(floattail.C_SMALLEST):016X}",
        # The Falcon adaptor may feed x itself: for x >= 2^-11 it equals
        # RN(z >> 1) 2^-63 exactly, and below it the tail is proven 0 on both paths.
        "tail_from_x": tail.zero_below >= floattail.ZERO_BELOW and k.seg.pre_shift == 0 and k.seg.z_lo == 0,
    }


def mulhi_name(multiplier: str, word_bits: int) -> str:
    """The fxp.h multiply-high of a strategy (the `multiplier` key)."""
    suffix = {"umull": "_limb32", "mul16": "_mul16"}.get(multiplier, "")
    return f"fxp_mulhi{word_bits}{suffix}"


def _steps(k: Kernel, digits: int) -> tuple[list[dict[str, str]], str]:
    """One C statement per product or sum of the scheme, with its proven range."""
    qz = k.qz
    nodes = qz.scheme.nodes
    W = k.cfg.word_bits
    word_t = f"uint{W}_t"
    names: list[str] = []
    steps = []
    emitted: set[str] = set()

    def shifted(a: int, r: int, into_wide: bool, narrow: bool = False) -> str:
        text = names[a]
        if narrow and nodes[a].kind == "const":
            text = f"(uint32_t){text}"
        elif nodes[a].narrow and not narrow and not into_wide and r < 0:
            text = f"(uint64_t){text}"
        if into_wide and not nodes[a].wide:
            if r > 0:
                return f"fxp_wide_of({text} >> {r})"
            text = f"fxp_wide_of({text})"
            return f"fxp_wide_shl({text}, {-r})" if r < 0 else text
        if nodes[a].wide:
            return f"fxp_wide_shr({text}, {r})" if r > 0 else (f"fxp_wide_shl({text}, {-r})" if r < 0 else text)
        return f"({text} >> {r})" if r > 0 else (f"({text} << {-r})" if r < 0 else text)

    for n, node in enumerate(nodes):
        if node.kind == "var":
            names.append("T")
            continue
        if node.kind == "const":
            names.append(f"k[{node.power}]")
            continue
        if node.kind == "ftail":
            names.append("tail")   # a parameter of _join (see kernel.h.j2)
            continue
        lo = min(r[n][0] for r in qz.ranges)
        hi = max(r[n][1] for r in qz.ranges)
        if node.kind == "mul" and (node.narrow or (qz.plans and qz.plans[n] is not None)):
            name = f"m{n}"
            operands = []
            for x in node.args:
                word = names[x] if nodes[x].kind != "const" else f"k{nodes[x].power}"
                if nodes[x].kind == "const" and word not in emitted:
                    emitted.add(word)
                    steps.append({"name": word, "type": "uint32_t" if nodes[x].narrow else word_t,
                                  "expr": f"{'(uint32_t)' if nodes[x].narrow else ''}{names[x]}",
                                  "comment": f"K_{nodes[x].power}"})
                operands.append((word, 32 if nodes[x].narrow else W,
                                 quantize.operand_shift(qz.scheme, n, x, W)))
            pre, expr = _limb_product(qz.plans[n] if qz.plans else None, operands, name,
                                      32 if node.narrow else W, emitted)
            steps.extend(pre)
        elif node.kind == "mul":
            name = f"m{n}"
            a, b = (names[x] for x in node.args)
            expr = f"fxp_wide_mul({a}, {b})" if node.wide else f"{mulhi_name(k.cfg.multiplier, W)}({a}, {b})"
        else:
            name = node.label.replace("^", "")
            terms = qz.terms[n]
            assert terms is not None
            parts = sorted(((sign, shifted(a, r, node.wide, node.narrow)) for a, (sign, r) in zip(node.args, terms)),
                           key=lambda p: -p[0])  # the positive term first
            if node.wide:
                fn = "fxp_wide_add" if parts[1][0] > 0 else "fxp_wide_sub"
                expr = f"{fn}({parts[0][1]}, {parts[1][1]})"
            else:
                expr = parts[0][1] + "".join(f" {'+' if sg > 0 else '-'} {t}" for sg, t in parts[1:])
        sign = "-" if qz.signs[n] < 0 else "+"
        digits_here = 2 * digits if node.wide else digits
        comment = (f"{node.label}: {sign}U 2^-{qz.scales[n]}, U in [0x{lo:0{digits_here}x}, "
                   f"0x{hi:0{digits_here}x}]")
        names.append(name)
        steps.append({"name": name, "expr": expr, "comment": comment,
                      "type": "fxp_wide" if node.wide else ("uint32_t" if node.narrow else word_t)})
    return steps, names[-1]


def _limb_product(plan: Optional[limbs.TruncPlan], operands: list[tuple[str, int, int]], name: str,
                  out_bits: int, emitted: set[str]) -> tuple[list[dict[str, str]], str]:
    """C statements of a narrow and/or truncated product (gen/limbs.py):
    operands are (word, its width, right shift applied before the product);
    limbs already extracted (``emitted``) are reused."""
    if plan is None:   # a full 32-bit product of narrow operands
        (a, wa, ra), (b, wb, rb) = operands
        args = [f"(uint32_t)({x} >> {r})" if r else x for x, r in ((a, ra), (b, rb))]
        return [], f"fxp_mulhi32({args[0]}, {args[1]})"
    steps: list[dict[str, str]] = []
    limb_names: list[list[str]] = []
    used = [{p[k] for g in plan.groups for p in g} for k in (0, 1)]
    for (word, width, shift), side, use in zip(operands, (plan.a, plan.b), used):
        row = []
        for index, limb in enumerate(side):
            pos = limb.pos + shift
            lname = f"{word}_l{pos}" + (f"_{limb.bits}" if limb.bits != limbs.LIMB_BITS else "")
            row.append(lname)
            if index in use and lname not in emitted:
                emitted.add(lname)
                steps.append({"name": lname, "type": "uint32_t",
                              "expr": limbs.c_limb(word, width, limb, shift),
                              "comment": f"bits {pos}..{pos + limb.bits - 1} of {word}"})
        limb_names.append(row)
    accs = []
    for g, group in enumerate(plan.groups):
        acc = f"{name}_c{g}"
        accs.append(acc)
        expr = " + ".join(f"{limb_names[0][i]} * {limb_names[1][j]}" for i, j in group)
        steps.append({"name": acc, "type": "uint32_t", "expr": expr,
                      "comment": f"partial products at 2^{plan.position(g)}, < 2^32 (proven)"})
    return steps, limbs.c_combine(plan, accs, out_bits)


def _limb_fields(k: Kernel, n: int) -> dict[str, Any]:
    """Sidecar fields of a narrow node or a truncated product (none for
    other nodes, so other kernels' sidecars are unchanged): the word width,
    the operands' right shifts, the product's drop D and the proven bound
    of what it loses, floor(delta_bound) units (gen/limbs.py)."""
    qz = k.qz
    node = qz.scheme.nodes[n]
    plan = qz.plans[n] if qz.plans else None
    out: dict[str, Any] = {}
    if node.narrow:
        out["narrow"] = True
    if node.kind == "mul" and (node.narrow or plan is not None):
        out["operand_shifts"] = [quantize.operand_shift(qz.scheme, n, x, k.cfg.word_bits) for x in node.args]
        out["drop"] = plan.drop if plan else 32
        loss = plan.delta_bound() if plan else None
        out["truncation_loss"] = str(loss.numerator // loss.denominator) if loss is not None else None
        if plan is not None:
            out["limbs"] = {"a": [[l.pos, l.bits] for l in plan.a], "b": [[l.pos, l.bits] for l in plan.b],
                            "groups": [[list(p) for p in g] for g in plan.groups]}
    return out


def sidecar(k: Kernel, ctx: dict[str, Any]) -> str:
    cfg, seg, qz = k.cfg, k.seg, k.qz
    data = {
        "schema_version": SIDECAR_SCHEMA_VERSION,
        "name": cfg.name,
        "description": cfg.description,
        "generator_version": VERSION,
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
        "falcon_adaptors": falcon_compatible(k),
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
                   "wide": node.wide,
                   "scale": qz.scales[n], "sign": qz.signs[n],
                   "terms": [list(t) for t in qz.terms[n]] if qz.terms[n] else None,
                   **_limb_fields(k, n)}
                  for n, node in enumerate(qz.scheme.nodes)],
        "final_shift": qz.root_scale - cfg.scale_bits,
        "core_scale": qz.root_scale,
        "bound": {"eval_ulp": float(ctx["eval_bound"]),
                  "expm_p63_2p63": float(ctx["expm_bound"]) if ctx["expm_bound"] else None,
                  "fpr_expm_p63_2p63": float(ctx["fpr_bound"]) if ctx["fpr_bound"] else None,
                  "method": "proven: Taylor-model approximation bound + exact interval "
                            "propagation of every truncation (docs/error-model.md)"},
        "quantization": {
            "target_ratio": 1.25,
            "max_ratio": max((s.quantization_ratio for s in k.segments if s.quantization_ratio is not None),
                             default=None),
            "meaning": "proven |p - f| / max(real minimax error, distance of f at the segment start to "
                       "the constant coefficient's grid), per segment",
        },
        **({"final_product": {"operands": ["w", "U"], "drop": k.final_plan.drop,
                              "loss_bound": _decimal(k.final_plan.delta_bound(), ROUND_CEILING),
                              "kept_partial_products": k.final_plan.kept}}
           if k.final_plan is not None else {}),
        "segment_list": [{
            "index": s.index, "z_first": str(s.z_first), "z_last": str(s.z_last),
            "t_max": str(s.z_last - s.z_first),
            "coefficients": [str(c) for c in qz.ints[s.index]],
            "eval_error_core": [_decimal(s.eval_error[0], ROUND_FLOOR), _decimal(s.eval_error[1], ROUND_CEILING)],
            "approx_interval": [_decimal(s.approx.lo, ROUND_FLOOR), _decimal(s.approx.hi, ROUND_CEILING)],
            "node_ranges": [[str(lo), str(hi)] for lo, hi in qz.ranges[s.index]],
            "minimax_error": s.minimax_error, "remez_iterations": s.remez_iterations,
            "approx_bound": float(round_up(s.approx.bound)),
            "quantization_ratio": s.quantization_ratio,
            "eval_bound_ulp": float(round_up(s.eval_bound_ulp)),
            "expm_bound_2p63": float(round_up(s.expm_bound_2p63)) if s.expm_bound_2p63 is not None else None,
            "error_extrema_z": [str(z) for z in s.extrema_z],
        } | _tail_sidecar(k, s.index) for s in k.segments],
    }
    return json.dumps(data, indent=1, sort_keys=False) + "\n"


def _tail_sidecar(k: Kernel, index: int) -> dict[str, Any]:
    """A tail's proven word range and error (c = 1 and c from w, units of
    2^-scale, outward-rounded), its binary64 coefficients and its program."""
    tail = k.qz.tail
    if tail is None:
        return {}
    rng = tail.ranges[index]
    return {"tail": {
        "first_power": tail.first, "scale": tail.scale, "sign": tail.sign,
        "coefficients": [floattail.hex_double(b) for b in tail.coeffs],
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


def render(k: Kernel, out_dir: str) -> dict[str, str]:
    """File name -> content for kernel k (nothing written)."""
    env = _environment()
    ctx = context(k, out_dir)
    name = k.cfg.name
    files: dict[str, str] = {}
    targets = [(f"{name}.h", "kernel.h.j2"), (f"{name}_table.h", "table.h.j2")]
    if falcon_compatible(k):
        targets.append((f"{name}_falcon.h", "falcon.h.j2"))
    for filename, template in targets:
        files[filename] = env.get_template(template).render(filename=filename, **ctx)
    files["fxp.h"] = RUNTIME_HEADER.read_text()
    data = json.loads(sidecar(k, ctx))
    files[f"{name}.json"] = json.dumps(data, indent=1, sort_keys=False) + "\n"
    # The independent certificate of the evaluation error (run by `make certify`);
    # none for kernels with truncated limb products, which it does not model.
    if not gappa_script.has_limb_products(data):
        files[f"{name}.gappa"] = gappa_script.render_script(data, source=f"{name}.json")
    return files


def write_atomic(folder: Path, files: dict[str, str], prune: Optional[set[str]] = None) -> list[str]:
    """Write each file atomically if its content changed; return the names written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for filename, content in sorted(files.items()):
        target = folder / filename
        if target.exists() and target.read_text() == content:
            continue
        fd, tmp = tempfile.mkstemp(prefix=f".{filename}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w") as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        written.append(filename)
    if prune:
        for stale in sorted(prune - set(files)):
            (folder / stale).unlink(missing_ok=True)
    return written

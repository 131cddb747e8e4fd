"""The templates' context: every value a template of ``templates/`` reads,
computed from a built kernel (C expressions come from :mod:`gen.cemit`)."""

from __future__ import annotations

import re
import struct
from fractions import Fraction
from typing import Any

from .. import cemit, falcon, fingerprint
from ..floattail import hex_double
from ..kernel import Kernel
from ..proof import float_tail
from . import banner


def _index_doc(k: Kernel) -> tuple[str, list[str]]:
    """How the kernel finds an input's segment, in words, for the header."""
    seg = k.seg
    if seg.count == 1:
        return "one segment", ["no index: t = u = z - z_lo."]
    if seg.kind == "pow2":
        return (f"{seg.count} segments of width 2^-{k.cfg.word_bits - seg.pow2_shift}",
                [f"idx = u >> {seg.pow2_shift}, t = u & (2^{seg.pow2_shift} - 1),",
                 "u = z - z_lo: one shift and one mask."])
    return (f"{seg.count} equal segments of {seg.width} inputs (width ~ (hi - lo) / {seg.count})",
            [f"idx = floor(u / {seg.width}) = mulhi(u, M) >> {seg.magic_shift}, exact for every",
             f"u = z - z_lo <= {seg.z_max - seg.z_lo} (proof: gen/segments.py, _division_magic);",
             f"t = u - idx * {seg.width}.  Cost: one multiply-high, one shift,",
             "one multiply by a small constant and a subtraction."])


def _row_words(k: Kernel, i: int, digits: int) -> list[str]:
    """The C words of segment i's row.  The mixed layout (uint32_t
    elements) stores a 64-bit K_j as two words, low word first (its bytes
    in memory are those of a uint64_t on a little-endian core), and a
    32-bit one as one word."""
    qz = k.qz
    if k.cfg.table_layout != "mixed":
        word_c = f"UINT{k.cfg.word_bits}_C"
        return [f"{word_c}(0x{qz.table_word(i, j):0{digits}x})" for j in range(qz.degree + 1)]
    out = []
    for j, bits in enumerate(k.coefficient_bits):
        # A 32-bit step reads its constant as (uint32_t)K_j in the uniform
        # layout: the mixed one stores that word, K_j modulo 2^32.
        value = qz.table_word(i, j)
        out += [f"UINT32_C(0x{(value >> (32 * h)) & 0xFFFFFFFF:08x})" for h in range(bits // 32)]
    return out


def _rows(k: Kernel, digits: int) -> list[dict[str, Any]]:
    """The table's rows: one per segment, then the padding rows if any."""
    rows: list[dict[str, Any]] = [
        {"index": s.index, "z_first": f"0x{s.z_first:0{digits}x}", "z_last": f"0x{s.z_last:0{digits}x}",
         "approx": cemit.round_up(p.approx.bound, 4), "words": _row_words(k, s.index, digits)}
        for s, p in zip(k.seg.segments, k.proof.segments)]
    if k.table_rows > k.seg.count:
        rows.append({"pad_first": k.seg.count, "pad_last": k.table_rows - 1, "words": rows[-1]["words"]})
    return rows


def context(k: Kernel, out_dir: str) -> dict[str, Any]:
    """Every template value of kernel k rendered into ``out_dir``."""
    cfg, seg, qz = k.cfg, k.seg, k.qz
    W = cfg.word_bits
    word_t, word_c, digits = f"uint{W}_t", f"UINT{W}_C", W // 4
    steps, root = cemit.steps(k, digits)
    final_steps: list[dict[str, str]] = []
    final_expr = ""
    if k.final_plan is not None:
        final_steps, final_expr = cemit.limb_product(k.final_plan, [("w", 64, 0), ("u", 64, 0)], "p", 64, set())
    index_doc, index_lines = _index_doc(k)
    q = qz.root_scale - cfg.scale_bits
    return {
        "generator_sha256": fingerprint.generator_sha256(), "config_path": banner.project_path(cfg.path),
        "config_sha256": cfg.sha256, "command": banner.command(cfg.path, out_dir),
        "function": cfg.function, "uses_float": qz.tail is not None, "multiplier": cfg.multiplier,
        "name": cfg.name, "NAME": cfg.name.upper(), "interface": "interface.j2", "W": W, "S": cfg.scale_bits,
        "word_t": word_t, "word_c": word_c, "mulhi": f"fxp_mulhi{W}",
        "segments": seg.count, "table_rows": k.table_rows, "degree": qz.degree, "table_bytes": k.table_bytes,
        "table_t": "uint32_t" if cfg.table_layout == "mixed" else word_t, "row_words": k.table_row_words,
        "mixed_layout": cfg.table_layout == "mixed",
        "table_access": k.table_access, "kind": seg.kind,
        "z_lo": f"0x{seg.z_lo:x}" if seg.z_lo else 0, "z_max_hex": f"0x{seg.z_max:x}",
        "u_max": seg.z_max - seg.z_lo, "width": seg.width, "magic": f"0x{seg.magic:x}" if seg.magic else 0,
        "magic_shift": seg.magic_shift or 0, "pow2_shift": seg.pow2_shift or 0,
        "offset_mask": f"0x{(seg.width - 1):x}", "g": seg.pre_shift,
        "index_doc": index_doc, "index_lines": index_lines,
        "steps": steps, "root": root,
        # T is declared only where some statement reads it (cemit.var_source
        # reads its limbs from u).
        "uses_t": any(re.search(r"\bT\b", st["expr"]) for st in steps), "s0": qz.root_scale, "q": q, "wide": cfg.wide,
        "core_t": "fxp_wide" if cfg.wide else word_t,
        "half": f"0x{(1 << (q - 1)):x}" if q else 0, "one_minus": cfg.form == "one_minus",
        "scheme_doc": {"horner": "Horner's scheme", "estrin": "Estrin's scheme"}[qz.scheme.name],
        "eval_bound": cemit.round_up(k.eval_bound_ulp),
        "expm_bound": cemit.round_up(k.expm_bound_2p63) if k.expm_bound_2p63 is not None else None,
        "rows": _rows(k, digits),
        "z_clamp_hex": f"0x{falcon.fpr_to_q64(falcon.LN2_DOWN_BITS):016x}",
        "final_steps": final_steps, "final_expr": final_expr,
        "final_mulhi": cemit.mulhi_name(cfg.multiplier, 64),
        "fpr_bound": cemit.round_up(k.fpr_bound_2p63)
        if k.fpr_bound_2p63 is not None and falcon.compatible(cfg, seg) else None,
        "table_sram": cfg.table_placement == "sram", "index_clamp": _index_clamp(k),
    } | _tail_context(k, steps)


def _index_clamp(k: Kernel) -> int | None:
    """The last row, when some word z (outside the domain) would index past
    the table and the kernel must clamp the index; None when no z can."""
    seg, W = k.seg, k.cfg.word_bits
    if seg.count == 1 or k.table_access != "direct":
        return None                     # no index, or a scan that reads every row with masks
    top = (1 << W) - 1                  # u = z - z_lo takes every value for some z
    if seg.kind == "pow2":
        assert seg.pow2_shift is not None
        reach = top >> seg.pow2_shift
    else:
        reach = ((top * seg.magic) >> W) >> (seg.magic_shift or 0)
    last = k.table_rows - 1
    assert reach < 1 << 31, "the template clamps the index in 32-bit arithmetic"
    return last if reach > last else None


def _double_bits(value: Fraction) -> int:
    """The IEEE-754 binary64 bits of a value that is a double."""
    hex_double(value)   # refuses a value that is not a double
    return struct.unpack("<Q", struct.pack("<d", float(value)))[0]


def _tail_context(k: Kernel, steps: list[dict[str, str]]) -> dict[str, Any]:
    """Template values of a kernel with a binary64 tail (``tail`` False otherwise)."""
    qz, tail = k.qz, k.qz.tail
    if tail is None:
        return {"tail": False, "tail_from_x": False}
    integer_root = qz.scheme.nodes[qz.root].args[0]
    lines = [{"name": name, "expr": text, "comment": comment}
             for name, text, comment in cemit.tail_lines(tail.ops, tail.coeffs)]
    lo = min(r[0] for r in tail.ranges[0])
    hi = max(max(r[1] for r in tail.ranges[0]), tail.u_max_expm)
    return {
        "tail": True, "tail_lines": lines, "tail_result": lines[-1]["name"],
        "tail_first": tail.first, "tail_scale": tail.scale, "tail_sign": tail.sign,
        "tail_range": f"[0x{lo:016x}, 0x{hi:016x}]",
        "tail_coeffs": [f"b{i} = {hex_double(b)} = sigma a{tail.first + i} 2^{tail.scale}"
                        for i, b in enumerate(tail.coeffs)],
        # The last step is the root sum (integer part + tail), the one before
        # it the integer part's root (float_tail >= 2 leaves at least a product).
        "int_root": steps[-2]["name"],
        "int_scale": qz.scales[integer_root], "root_expr": steps[-1]["expr"],
        # The smallest nonzero x and ccs the tail may see, as binary64 bits
        # (the proof's gen/proof/float_tail.py constants).
        "tail_x_min_bits": f"0x{_double_bits(float_tail.ZERO_BELOW):016X}",
        "tail_c_min_bits": f"0x{_double_bits(float_tail.C_SMALLEST):016X}",
        # The Falcon adaptor may feed x itself: for x >= 2^-11 it equals
        # RN(z >> 1) 2^-63 exactly, and below it the tail is proven 0 on both paths.
        "tail_from_x": tail.zero_below >= float_tail.ZERO_BELOW and k.seg.pre_shift == 0 and k.seg.z_lo == 0,
    }

"""The template context, banners and sidecar of a form = "mcu" kernel
(templates/mcu.h.j2, templates/mcu_interface.j2).

The products are written out here from the plan (gen/mcu/design.py):
per step, the operand limbs it reads, one C sum per kept column (gcc
and clang make each a MUL and MLAs), the carry of the lowest column, and
the subtraction of the other columns from the coefficient with their
shifts (the 64-bit ones through the template's SUB64 helpers: SUBS/SBC
with a shifted operand on Thumb-2).  gen/mcu/model.py computes the same
from the same columns; tests/test_mcu.py holds the C to it bit for bit.
"""

from __future__ import annotations

from typing import Any

from .. import cemit, fingerprint
from ..mcu import McuKernel
from ..mcu.design import M_LIMBS, ROW_WORDS, ROWS, SEGMENT_BITS, STEPS, T_BITS, T_LIMBS, Column, Step, log2_exact
from ..mcu.fit import BIAS_SEED, FIT_NODES
from ..falcon import LN2_DOWN_BITS
from ..mcu.model import K_CCS, K_X
from ..mcu.proof import APPROX_PIECES, S63
from . import banner
from .sidecar import bound_text, exact_text, identity

METHOD = ("proven: mpmath interval arithmetic for the approximation of every row's coefficients as the kernel "
          "reads them, the loss of every truncated limb product at its limbs' maxima with the Horner steps' "
          "alternating signs, exact conversions of ccs and floor(x 2^64) for x, range checks that no word "
          "or 32-bit column sum wraps (gen/mcu/proof.py, docs/error-model.md)")

# How each Horner step loads the coefficient it subtracts from (the table layout of gen/mcu/design.py).
COEFFICIENT_LOADS = {
    "y3": ["lo = k[6];", "hi = k[6] & 0x7fffu;"],
    "y2": ["lo = k[4];", "hi = k[5];"],
    "y1": ["lo = k[2];", "hi = k[3];"],
    "y0": ["{N}_LOAD_PAIR(lo, hi, k);"],
}


def _x_name(step: Step, i: int) -> str:
    return f"cs{i + 1}" if step.name == "r" else f"t{i + 1}"


def _sums(step: Step, cols: tuple[Column, ...], N: str) -> list[str]:
    """The operand's limbs and the column sums of one product."""
    used = sorted({k for col in cols for _, k in col.pairs})
    out = [f"uint32_t {step.name}_s{k} = {_macros(step.limbs[k].c, N)};" for k in used]
    for col in reversed(cols):
        terms = [f"{_x_name(step, i)} * {step.name}_s{k}" for i, k in col.pairs]
        if col.j + 1 < len(cols) and cols[col.j + 1].shift is None:
            terms.append(f"({step.name}_c{col.j + 1} >> 15)")
        out.append(f"uint32_t {step.name}_c{col.j} = {' + '.join(terms)};")
    return out


def _macros(c: str, N: str) -> str:
    """A limb expression with the template's helpers prefixed."""
    for helper in ("UBFX", "BFI"):
        c = c.replace(f"{helper}(", f"{N}_{helper}(")
    return c


def step_lines(step: Step, cols: tuple[Column, ...], N: str) -> list[str]:
    """The C statements of one Horner step (y4 .. y0)."""
    out = _sums(step, cols, N)
    combined = [c for c in cols if c.shift is not None]
    if step.name == "y4":
        (c0,) = combined
        return out + [f"uint32_t y4 = w7 - (y4_c0 >> {-c0.shift});"]
    out += [line.format(N=N) for line in COEFFICIENT_LOADS[step.name]]
    for col in combined:
        op = f"{N}_SUB64_SHL(hi, lo, {step.name}_c{col.j}, {col.shift});" if col.shift > 0 else \
            f"{N}_SUB64_SHR(hi, lo, {step.name}_c{col.j}, {-col.shift});"
        out.append(op)
    return out


def product_lines(step: Step, cols: tuple[Column, ...], N: str) -> list[str]:
    """The C statements of the ccs product R = y0 M 2^63 as rh:rl."""
    out = _sums(step, cols, N)
    have_hi = have_lo = False
    for col in (c for c in cols if c.shift is not None):
        c, s = f"r_c{col.j}", col.shift
        if s > 32:
            assert not have_hi and not have_lo, "shifts decrease with the column"
            out.append(f"uint32_t rh = {c} << {s - 32};")
            have_hi = True
        elif not have_lo:
            out.append(f"uint32_t rl = {c} << {s};")
            out.append(f"{'rh += ' if have_hi else 'uint32_t rh = '}{c} >> {32 - s};")
            have_hi = have_lo = True
        else:
            out.append(f"{N}_ADD64_SHL(rh, rl, {c}, {s});")
    if not have_lo:
        out.append("uint32_t rl = 0;")
    return out


def _used_x(k: McuKernel) -> tuple[list[int], list[int]]:
    """The T limbs and M limbs some kept column reads."""
    t, m = set(), set()
    for step, cols in zip(STEPS, k.plan.kept):
        for col in cols:
            (m if step.name == "r" else t).update(i for i, _ in col.pairs)
    return sorted(t), sorted(m)



def context(k: McuKernel, out_dir: str) -> dict[str, Any]:
    cfg = k.cfg
    name, N = cfg.name, cfg.name.upper()
    t_used, m_used = _used_x(k)
    body: list[tuple[str, list[str]]] = []
    for step, cols in zip(STEPS[:-1], k.plan.kept[:-1]):
        body.append((f"{step.name} = a{step.name[1]} - T {step.source} (units 2^{log2_exact(step.unit)}; "
                     f"{len(cols)} column(s) of T's and {step.source}'s limbs)", step_lines(step, cols, N)))
    r_step = STEPS[-1]
    return {
        "generator_sha256": fingerprint.generator_sha256(), "config_path": banner.project_path(cfg.path),
        "config_sha256": cfg.sha256, "command": banner.command(cfg.path, out_dir),
        "function": cfg.function, "name": name, "NAME": N, "interface": "mcu_interface.j2",
        "degree": cfg.degree, "bound": bound_text(k), "table_bytes": k.table_bytes,
        "rows": ROWS, "row_words": ROW_WORDS, "segment_bits": SEGMENT_BITS,
        "rows_c": [{"index": j, "words": [f"0x{w:08x}u" for w in row.words],
                   "approx": cemit.round_up(max(-k.proof.rows[j].approx[0], k.proof.rows[j].approx[1]) * S63)}
                  for j, row in enumerate(k.rows)],
        "t_limbs": [(i + 1, _macros(T_LIMBS[i].c, N)) for i in t_used],
        "m_limbs": [(i + 1, _macros(M_LIMBS[i].c, N)) for i in m_used],
        "steps": body, "product": product_lines(r_step, k.plan.kept[-1], N),
        "k_x": f"0x{K_X:08X}u", "k_ccs": f"0x{K_CCS:08X}u", "ln2_down_bits": f"0x{LN2_DOWN_BITS:016X}",
        "columns": list(k.plan.columns),
        # ccs's shift count waits for the ccs product's last column (see the template's SHIFT_COUNT).
        "sc_after": f"r_c{[c.j for c in k.plan.kept[-1] if c.shift is not None][-1]}",
    }


def banner_lines(k: McuKernel, out_dir: str) -> list[str]:
    """The vendored banner (at most banner.MAX_LINES lines)."""
    return banner.adaptor_lines(k.cfg, out_dir, bound_text(k),
                                "interval arithmetic and exact limb-loss bounds, gen/mcu/proof.py")


def detail_lines(k: McuKernel, out_dir: str) -> list[str]:
    """The annotated header's banner: every parameter, the computed values
    and each term of the bound."""
    cfg, proof = k.cfg, k.proof
    out = banner_lines(k, out_dir) + banner.parameter_lines(cfg)
    out += ["", "Computed:",
            f"  {ROWS} rows of width 2^-{SEGMENT_BITS}, degree {cfg.degree}: least squares at {FIT_NODES} "
            "Chebyshev nodes, quantized top-down (gen/mcu/fit.py)",
            f"  rounding bias: {cfg.mcu.bias_samples} inputs per row (seed {BIAS_SEED}); a0 offsets "
            + " ".join(str(v) for v in k.offsets[0]),
            "    a1 offsets " + " ".join(str(v) for v in k.offsets[1]),
            f"  product plan (columns kept: y4, y3, y2, y1, y0, ccs): {', '.join(map(str, k.plan.columns))}",
            f"  table: {k.table_bytes} bytes",
            f"  result - exact in [{float(proof.lo):.4f}, {float(proof.hi):.4f}] units of 2^-63 "
            "(ccs >= 2^-63; below 2 for smaller ccs)",
            "  largest term over the rows, units of 2^-63:"]
    out += [f"    {cemit.round_up(v)}  {n}" for n, v in proof.terms()]
    out += [f"    {bound_text(k)}  total (assembled per row)"]
    return out


def sidecar(k: McuKernel, ctx: dict[str, Any]) -> dict[str, Any]:
    """The kernel folder's sidecar: the facts every kernel has, then the
    form's own (docs/abi.md, "Kernel folder")."""
    cfg, proof = k.cfg, k.proof
    return {
        **identity(cfg, ctx),
        "word_bits": 64, "scale_bits": 63, "segments": ROWS, "table_rows": ROWS, "degree": cfg.degree,
        "table_bytes": k.table_bytes, "table_access": "direct", "table_placement": "sram", "uses_float": False,
        "isa": [], "falcon_adaptors": True, "fixed_point": False, "form": "mcu", "batch": [],
        "bound": {"fpr_expm_p63_2p63": float(ctx["bound"]), "method": METHOD},
        "mcu": {"columns": list(k.plan.columns), "bias_offsets": [list(k.offsets[0]), list(k.offsets[1])],
                "interval_2p63": [float(proof.lo), float(proof.hi)],
                "approx_pieces": APPROX_PIECES,
                "terms": [{"name": n, "bound": cemit.round_up(v), "exact": f"{v.numerator}/{v.denominator}"}
                          for n, v in proof.terms()],
                "column_maxima": [list(m) for m in proof.column_maxima],
                "table": [list(row.words) for row in k.rows],
                # p_j(T) = a0 - a1 T + a2 T^2 - ... as the kernel reads the row, for certify/sollya_check.py.
                "polynomials": [[exact_text(c * (-1) ** n) for n, c in enumerate(row.values())] for row in k.rows]},
        # Row j as a segment of z = x 2^64 (T = the low 57 bits, v = T 2^7 / 2^64 = T), with its proven
        # |p - f|, which Sollya cross-checks (make certify-sollya).
        "index": {"kind": "pow2", "pow2_shift": T_BITS, "pre_shift": SEGMENT_BITS},
        "segment_list": [{"index": j, "z_first": str(j << T_BITS), "z_last": str(((j + 1) << T_BITS) - 1),
                          "t_max": str((1 << T_BITS) - 1),
                          "approx_bound": float(cemit.round_up(max(-r.approx[0], r.approx[1])))}
                         for j, r in enumerate(proof.rows)],
    }


"""The template context, banners and sidecar of a form = "fold" kernel
(templates/fold.h.j2, templates/fold_interface.j2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any


from .. import cemit, fingerprint
from ..exact import double_bits
from ..fold import FoldKernel
from ..falcon import LN2_DOWN
from ..fold.design import C_MIN, V_MIN, middle_steps
from ..fold.proof import C_RANGE
from . import banner
from .sidecar import bound_text, exact_text, identity, whole_domain_segment

METHOD = ("proven: exact rational interval arithmetic on pieces of x for every floor of the fixed-point chain, "
          "interval propagation of every binary64 rounding of the tail (an FMA rounds once), CVTSD2SI's "
          "rounding, the tail read at max(x, 2^-23) and max(ccs, 2^-63), a Taylor-model approximation bound, and the conversions "
          "of the double inputs (gen/fold/proof.py, docs/error-model.md)")




def context(k: FoldKernel, out_dir: str) -> dict[str, Any]:
    cfg, d = k.cfg, k.design
    name = cfg.name
    tail = cemit.tail_lines(d.ops, [Fraction(c) for c in d.tail], prefix="t", fma="__builtin_fma")
    return {
        "generator_sha256": fingerprint.generator_sha256(), "config_path": banner.project_path(cfg.path),
        "config_sha256": cfg.sha256, "command": banner.command(cfg.path, out_dir),
        "function": cfg.function, "name": name, "NAME": name.upper(), "interface": "fold_interface.j2",
        "degree": cfg.degree, "first_tail": d.first_tail, "bound": bound_text(k),
        "terms": [{"bound": cemit.round_up(b), "name": t} for t, b in k.proof.terms()],
        "words": [(j, f"0x{w:016X}") for j, w in zip(range(2, d.first_tail), d.words)],
        "middle_steps": [(st.kind, st.j) for st in middle_steps(d.first_tail)],
        "pair_steps": any(st.kind == "pair" for st in middle_steps(d.first_tail)),
        "ln2_down_bits": f"0x{double_bits(float(LN2_DOWN)):016X}",
        "v_min": cemit.c_double(V_MIN), "c_min": cemit.c_double(C_MIN), "tail_sign": d.tail_sign,
        "tail_lines": tail, "tail_result": tail[-1][0],
    }


def banner_lines(k: FoldKernel, out_dir: str) -> list[str]:
    """The vendored banner (at most banner.MAX_LINES lines)."""
    return banner.adaptor_lines(k.cfg, out_dir, bound_text(k), "rational interval arithmetic and a Taylor model, gen/fold/proof.py")


def detail_lines(k: FoldKernel, out_dir: str) -> list[str]:
    """The annotated header's banner: every parameter, the computed values
    and each term of the bound."""
    cfg, d, proof = k.cfg, k.design, k.proof
    out = banner_lines(k, out_dir) + banner.parameter_lines(cfg)
    out += ["", "Computed:",
            f"  e^-x ~= 1 - x + x^2 k(x), powers 2..{cfg.degree} fitted (Remez, 50 digits; levelled error "
            f"{float(d.fit_error) * 2 ** 63:.4f} units of 2^-63)",
            f"  middle words W_2..W_{d.first_tail - 1}: " + ", ".join(f"0x{w:016x}" for w in d.words),
            f"  binary64 tail in v = x 2^63 and c = ccs 2^63 (powers {d.first_tail}..{cfg.degree}): "
            + ", ".join(float(c).hex() for c in d.tail),
            f"  proven p - f of the quantized polynomial: [{float(proof.approx.lo):.4e}, {float(proof.approx.hi):.4e}]",
            "  bound, units of 2^-63:"]
    out += [f"    {cemit.round_up(b)}  {t}" for t, b in proof.terms()]
    out += [f"    {bound_text(k)}  total"]
    return out


def sidecar(k: FoldKernel, ctx: dict[str, Any]) -> dict[str, Any]:
    """The kernel folder's sidecar: the facts every kernel has, then the
    form's own (docs/abi.md, "Kernel folder")."""
    cfg, d, proof = k.cfg, k.design, k.proof
    return {
        **identity(cfg, ctx),
        "word_bits": 64, "scale_bits": 63, "segments": 1, "table_rows": 0, "degree": cfg.degree,
        "table_bytes": 0, "table_access": "none", "uses_float": True, "isa": ["fma"],
        "falcon_adaptors": True, "fixed_point": False, "form": "fold", "batch": [],
        "bound": {"fpr_expm_p63_2p63": float(ctx["bound"]), "method": METHOD},
        "polynomial": [exact_text(c) for c in d.polynomial()],
        "fold": {"first_tail": d.first_tail, "middle_words": [str(w) for w in d.words],
                 "tail": [cemit.c_double(Fraction(c)) for c in d.tail],
                 "approx_interval": [float(proof.approx.lo), float(proof.approx.hi)],
                 "evaluation_interval": [exact_text(v) for v in proof.evaluation],
                 "terms": [{"name": t, "bound": cemit.round_up(b), "exact": exact_text(b)} for t, b in proof.terms()],
                 "word_ranges": {n: [str(lo), str(hi)] for n, (lo, hi) in proof.word_ranges.items()},
                 "binary64": _certificate(k)},
        "segment_list": whole_domain_segment(proof.approx.bound),
    }



def _certificate(k: FoldKernel) -> dict[str, Any]:
    """What certify/gappa_fold.py needs to have Gappa re-prove the binary64
    tail: its operations (as the C code does them), its coefficients, and per
    piece of v the error and the range of t the proof used (exact rationals)."""
    d = k.design
    return {"tail_coefficients": [exact_text(Fraction(c)) for c in d.tail],
            "c_range": [exact_text(v) for v in C_RANGE],
            "tail_program": [{"kind": op.kind, "args": list(op.args), "index": op.index, "label": op.label}
                             for op in d.ops],
            "claims": [[exact_text(c.vlo), exact_text(c.vhi), *map(exact_text, c.error), *map(exact_text, c.computed)]
                       for c in k.proof.tail_claims]}

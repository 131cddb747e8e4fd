"""The template context, banners and sidecar of a form = "twin" kernel
(templates/twin.h.j2, templates/twin_interface.j2)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .. import cemit, fingerprint
from ..exact import double_bits
from ..falcon import INF_BITS, LN2_DOWN, LN2_DOWN_BITS
from ..twin import TwinKernel
from ..twin.model import C_LIFT, EXP63, K_BITS, LIM128_BITS, LIM64_BITS, SUBN, TOP, V_LIFT
from ..twin.program import TABLE, lines
from . import banner
from .sidecar import bound_text, exact_text, identity, whole_domain_segment

METHOD = ("proven: exact rational interval arithmetic on pieces of x for every floor of the integer chain, "
          "interval propagation of every binary64 rounding (an FMA rounds once; the last one to a whole u/16), "
          "the binary64 part read at x and ccs lifted to at least 2^-23 and 2^-63, "
          "Taylor-model bounds of the approximation and of E, "
          "the conversion of ccs carried as its remainder and that of x exact "
          "(gen/twin/proof.py, docs/error-model.md)")




def _table(k: TwinKernel) -> list[tuple[int, str, str, str]]:
    """(offset, name, bits in hex, value) per constant, in TABLE's order."""
    d = k.design
    doubles: dict[str, float] = {f"q{i}": q for i, q in enumerate(d.tail)}
    doubles |= {"e0": d.e[0], "e1": d.e[1], "K": d.k, "ln2_down": float(LN2_DOWN), "one": 1.0}
    words: dict[str, int] = {f"W{j}": w for j, w in zip(range(2, 7), d.words)}
    words |= {"exp63": EXP63, "top": TOP, "lim64": LIM64_BITS, "lim128": LIM128_BITS, "kb16": K_BITS >> 4,
              "ln2_next": LN2_DOWN_BITS + 1, "inf_next": INF_BITS + 1, "zero": 0, "subn": SUBN, "vlift": V_LIFT, "clift": C_LIFT}
    out = []
    for i, name in enumerate(TABLE):
        if name in doubles:
            out.append((8 * i, name, f"0x{double_bits(doubles[name]):016X}", doubles[name].hex()))
        else:
            out.append((8 * i, name, f"0x{words[name]:016X}", str(words[name])))
    return out


def context(k: TwinKernel, out_dir: str) -> dict[str, Any]:
    cfg, d, proof = k.cfg, k.design, k.proof
    name = cfg.name
    lo, hi = proof.eps
    return {
        "generator_sha256": fingerprint.generator_sha256(), "config_path": banner.project_path(cfg.path),
        "config_sha256": cfg.sha256, "command": banner.command(cfg.path, out_dir),
        "function": cfg.function, "name": name, "NAME": name.upper(), "interface": "twin_interface.j2",
        "degree": cfg.degree, "first_tail": cfg.float_tail, "bound": bound_text(k), "bias": d.bias,
        "eps_lo": f"{float(lo):.6f}", "eps_hi": f"{float(hi):.6f}",
        "terms": [{"bound": cemit.round_up(b), "name": t} for t, b in proof.terms()],
        "consts": _table(k), "core_lines": lines("core"), "clamp_lines": lines("clamp"),
    }


def banner_lines(k: TwinKernel, out_dir: str) -> list[str]:
    """The vendored banner (at most banner.MAX_LINES lines)."""
    return banner.adaptor_lines(k.cfg, out_dir, bound_text(k),
                                "rational interval arithmetic and a Taylor model, gen/twin/proof.py")


def detail_lines(k: TwinKernel, out_dir: str) -> list[str]:
    """The annotated header's banner: every parameter, the computed values
    and each term of the bound."""
    cfg, d, proof = k.cfg, k.design, k.proof
    out = banner_lines(k, out_dir) + banner.parameter_lines(cfg)
    out += ["", "Computed:",
            f"  e^-x ~= 1 - x + x^2 k(x) + t(x), powers 2..{cfg.degree} fitted (Remez, 50 digits; levelled error "
            f"{float(d.fit_error) * 2 ** 63:.4f} units of 2^-63)",
            "  Q0.65 words W_2..W_6: " + ", ".join(f"0x{w:016x}" for w in d.words),
            f"  binary64 tail q_0..q_6 (powers {cfg.float_tail}..{cfg.degree}, times 2^67): "
            + ", ".join(float(c).hex() for c in d.tail),
            f"  E(v) = {d.e[0].hex()} + {d.e[1].hex()} v (16 e^-v, linear fit; levelled error {float(d.e_error):.5f})",
            f"  bias {d.bias} units of u/16; eps in [{float(proof.eps[0]):.6f}, {float(proof.eps[1]):.6f}]",
            f"  proven p - f of the quantized polynomial: [{float(proof.approx.lo):.4e}, {float(proof.approx.hi):.4e}]",
            "  bound, units of 2^-63:"]
    out += [f"    {cemit.round_up(b)}  {t}" for t, b in proof.terms()]
    out += [f"    {bound_text(k)}  total (max(eps_hi, 1 - eps_lo))"]
    return out


def sidecar(k: TwinKernel, ctx: dict[str, Any]) -> dict[str, Any]:
    """The kernel folder's sidecar: the facts every kernel has, then the
    form's own (docs/abi.md, "Kernel folder")."""
    cfg, d, proof = k.cfg, k.design, k.proof
    return {
        **identity(cfg, ctx),
        "word_bits": 64, "scale_bits": 63, "segments": 1, "table_rows": 0, "degree": cfg.degree,
        "table_bytes": 0, "table_access": "none", "uses_float": True, "isa": ["fma", "bmi2"],
        "falcon_adaptors": True, "fixed_point": False, "form": "twin", "batch": [],
        "bound": {"fpr_expm_p63_2p63": float(ctx["bound"]), "method": METHOD},
        "polynomial": [exact_text(c) for c in d.polynomial()],
        "twin": {"first_tail": cfg.float_tail, "words": [str(w) for w in d.words],
                 "tail": [cemit.c_double(Fraction(c)) for c in d.tail],
                 "e": [cemit.c_double(Fraction(c)) for c in d.e], "bias": d.bias,
                 "approx_interval": [float(proof.approx.lo), float(proof.approx.hi)],
                 "eps_interval": [exact_text(v) for v in proof.eps],
                 "terms": [{"name": t, "bound": cemit.round_up(b), "exact": exact_text(b)} for t, b in proof.terms()],
                 "word_ranges": {n: [str(lo), str(hi)] for n, (lo, hi) in proof.word_ranges.items()},
                 "binary64": _certificate(k)},
        "segment_list": whole_domain_segment(proof.approx.bound),
    }



def _certificate(k: TwinKernel) -> dict[str, Any]:
    """What certify/gappa_twin.py needs to have Gappa re-prove the binary64
    part: its operations (in the kernel's order), its coefficients, and per
    piece of v and case of ccs the error and the range of g the proof used
    (exact rationals)."""
    d = k.design
    return {"coefficients": [exact_text(Fraction(c)) for c in d.coefficients()],
            "program": [{"kind": op.kind, "args": list(op.args), "index": op.index, "label": op.label}
                        for op in d.ops],
            "claims": [[exact_text(c.vlo), exact_text(c.vhi), *map(exact_text, c.c), *map(exact_text, c.rc),
                        *map(exact_text, c.error), *map(exact_text, c.computed)] for c in k.proof.tail_claims]}

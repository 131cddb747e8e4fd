"""The template context, banners and sidecar of a form = "eft" kernel
(templates/eft.h.j2, templates/eft_interface.j2).

The operation list (gen/eft/design.py) is written out once per rendering
by one function with a different syntax: scalar C with __builtin_fma, or
the packed intrinsics of an instruction set.  Each list operation becomes
one C operation that rounds once (an FMA in every rendering is one fused
operation: fnma(a, b, c) is FMA(-a, b, c) in scalar C and VFNMADD in SIMD,
both RN(c - a b)), products go through the empty-asm barrier so that no
compiler contracts them, and the order is the list's.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence


from .. import cemit, fingerprint
from ..eft import EftKernel
from ..eft.design import INDEX_OPS, ROWS, Op, constants, main_ops
from ..falcon import LN2_DOWN
from ..eft.model import C_FLUSH_BITS, MAGIC_BITS, X_FLUSH_BITS
from . import banner
from .sidecar import bound_text, exact_text, identity
from .batch import ISAS, Isa

METHOD = ("proven: exact lemmas for the large part in [2^64, 2^65), exact rational interval propagation of "
          "every binary64 rounding of the small part, interval-arithmetic bound of the polynomial, table "
          "and flush terms; against the double inputs (gen/eft/proof.py, docs/error-model.md)")


def _literal(v: float) -> str:
    """A binary64 value as an exact C and C++ literal (the shortest decimal
    that reads back as it; C++ before 17 has no hexadecimal floats)."""
    return cemit.c_double(Fraction(v))


@dataclass(frozen=True)
class Syntax:
    """How one rendering writes an operation: ``prefix`` is None for scalar C."""

    prefix: str | None
    rounded: str

    def const(self, v: float) -> str:
        return _literal(v) if self.prefix is None else f"{self.prefix}_set1_pd({_literal(v)})"

    def op(self, kind: str, a: str, b: str, c: str = "") -> str:
        p = self.prefix
        if p is None:
            return {"fma": f"__builtin_fma({a}, {b}, {c})", "fnma": f"__builtin_fma(-{a}, {b}, {c})",
                    "fms": f"__builtin_fma({a}, {b}, -{c})", "mul": f"{self.rounded}({a} * {b})",
                    "add": f"{a} + {b}", "sub": f"{a} - {b}"}[kind]
        return {"fma": f"{p}_fmadd_pd({a}, {b}, {c})", "fnma": f"{p}_fnmadd_pd({a}, {b}, {c})",
                "fms": f"{p}_fmsub_pd({a}, {b}, {c})", "mul": f"{self.rounded}({p}_mul_pd({a}, {b}))",
                "add": f"{p}_add_pd({a}, {b})", "sub": f"{p}_sub_pd({a}, {b})"}[kind]


def lines(ops: Sequence[Op], consts: dict[str, Fraction], syntax: Syntax) -> list[tuple[str, str, str]]:
    """(destination, C expression, comment) per operation of the list."""
    def arg(name: str) -> str:
        return syntax.const(float(consts[name])) if name in consts else name
    return [(op.dest, syntax.op(op.kind, *(arg(a) for a in op.args)), op.why) for op in ops]


def _isa_context(k: EftKernel, isa: Isa) -> dict[str, Any]:
    tag = f"{k.cfg.name}_x{isa.lanes}"
    syntax = Syntax(isa.prefix, f"{tag}_rounded")
    consts = constants(k.design)
    return {"isa": isa.name, "P": isa.prefix, "lanes": isa.lanes, "target": isa.target, "cpu": list(isa.cpu),
            "VI": isa.ivec, "VD": isa.dvec, "T": tag, "TT": tag.upper(),
            "index_lines": lines(INDEX_OPS, consts, syntax),
            "main_lines": lines(main_ops(k.cfg.degree - 3), consts, syntax)}



def context(k: EftKernel, out_dir: str) -> dict[str, Any]:
    cfg, d = k.cfg, k.design
    name = cfg.name
    scalar = Syntax(None, f"{name}_rounded")
    xor_eh, xor_el = d.xor_rows
    has_avx2 = "avx2" in cfg.batch
    return {
        "generator_sha256": fingerprint.generator_sha256(), "config_path": banner.project_path(cfg.path),
        "config_sha256": cfg.sha256, "command": banner.command(cfg.path, out_dir),
        "function": cfg.function, "name": name, "NAME": name.upper(), "interface": "eft_interface.j2",
        "degree": cfg.degree, "bound": bound_text(k), "table_bytes": k.table_bytes,
        "terms": [{"bound": cemit.round_up(t.bound), "name": t.name} for t in k.proof.terms],
        "eh": [_literal(v) for v in d.eh63], "el": [_literal(v) for v in d.el63],
        "pairs": [(_literal(d.eh63[j]), _literal(d.el63[j])) for j in range(ROWS)],
        "xor_eh": [f"UINT64_C(0x{v:016X})" for v in xor_eh] if has_avx2 else [],
        "xor_el": [f"UINT64_C(0x{v:016X})" for v in xor_el] if has_avx2 else [],
        "x_flush_bits": f"0x{X_FLUSH_BITS:016X}", "c_flush_bits": f"0x{C_FLUSH_BITS:016X}",
        "koff": f"0x{MAGIC_BITS:016X}", "magic": _literal(1.5 * 2.0 ** 52),
        "ln2_down": _literal(float(LN2_DOWN)),
        "index_lines": lines(INDEX_OPS, constants(k.design), scalar),
        "main_lines": lines(main_ops(cfg.degree - 3), constants(k.design), scalar),
        "batch": [_isa_context(k, ISAS[i]) for i in cfg.batch],
    }


def banner_lines(k: EftKernel, out_dir: str) -> list[str]:
    """The vendored banner (at most banner.MAX_LINES lines)."""
    return banner.adaptor_lines(k.cfg, out_dir, bound_text(k), "exact lemmas and rational interval propagation, gen/eft/proof.py")


def detail_lines(k: EftKernel, out_dir: str) -> list[str]:
    """The annotated header's banner: every parameter, the computed values
    and each term of the bound."""
    cfg, d = k.cfg, k.design
    out = banner_lines(k, out_dir) + banner.parameter_lines(cfg)
    out += ["", "Computed:",
            "  j = round(16 x) (0..11), t = x - j/16 exact, |t| <= 1/32; exp(-j/16) = Eh + El from 16 rows",
            f"  e^-t = 1 - t + t^2/2 + t^3 p(t), p of degree {cfg.degree - 3}: "
            + ", ".join(_literal(v) for v in d.poly),
            f"  constants read whole per call: {k.table_bytes} bytes",
            f"  |small part| <= {float(k.proof.small_max):.6g} (< 2^51)",
            "  bound, units of 2^-63:"]
    out += [f"    {cemit.round_up(t.bound)}  {t.name}" for t in k.proof.terms]
    out += [f"    {bound_text(k)}  total", "  lemmas:"] + [f"    {text}" for text in k.proof.lemmas]
    return out


def sidecar(k: EftKernel, ctx: dict[str, Any]) -> dict[str, Any]:
    """The kernel folder's sidecar: the facts every kernel has, then the
    form's own (docs/abi.md, "Kernel folder")."""
    cfg, d, proof = k.cfg, k.design, k.proof
    return {
        **identity(cfg, ctx),
        "word_bits": 64, "scale_bits": 63, "segments": 16, "table_rows": 16, "degree": cfg.degree,
        "table_bytes": k.table_bytes, "table_access": "ct_scan", "uses_float": True, "isa": ["fma"],
        "falcon_adaptors": True, "fixed_point": False, "form": "eft", "batch": list(cfg.batch),
        "bound": {"fpr_expm_p63_2p63": float(ctx["bound"]), "method": METHOD},
        "eft": {"table_eh": ctx["eh"], "table_el": ctx["el"], "polynomial": [_literal(v) for v in d.poly],
                "small_max": float(proof.small_max),
                "terms": [{"name": t.name, "bound": cemit.round_up(t.bound),
                           "exact": f"{t.bound.numerator}/{t.bound.denominator}"} for t in proof.terms],
                "lemmas": list(proof.lemmas),
                "small_part": _small_part_claim(k)},
    }



def _small_part_claim(k: EftKernel) -> dict[str, Any]:
    """What certify/gappa_eft.py needs to have Gappa re-prove the rounding
    term of the small part: its operations as the C code does them, their
    constants, the ranges of its inputs and the error the proof claims
    (exact rationals)."""
    claim = k.proof.small_claim
    return {"operations": [[op.dest, op.kind, list(op.args)] for op in claim.ops],
            "constants": {name: exact_text(v) for name, v in sorted(constants(k.design).items())
                          if any(name in op.args for op in claim.ops)},
            "inputs": {name: [exact_text(lo), exact_text(hi)] for name, (lo, hi) in claim.inputs.items()},
            "rounded_inputs": {name: [exact_text(lo), exact_text(hi)] for name, (lo, hi) in claim.rounded_inputs.items()},
            "result": claim.ops[-1].dest, "error": exact_text(claim.error)}

"""The batch forms of a form = "head" kernel (config key ``batch``,
templates/falcon/batch.h.j2): the template context of each SIMD
instruction set.

The SIMD code is not a second implementation.  Its binary64 programs (the
tail and the conversion corrections) and its fixed-point middle are
written by the very functions that write the scalar code
(:func:`gen.cemit.tail_lines`, :func:`gen.cemit.head_middle`), walking the
same operation lists in the same order; only the :class:`gen.cemit.Syntax`
differs, which maps each scalar operation to a SIMD helper that computes
the identical function lane by lane:

* a binary64 multiply, add, subtract or FMA to the packed instruction of
  the same operation (one IEEE-754 rounding to nearest each, as the scalar
  instruction; the FMA rounds once, like the scalar FMA), a product that
  the scalar code passes through ``<name>_rounded`` through the SIMD
  barrier ``<tag>_rounded`` (so no compiler contracts it either);
* a 64x64 -> 128-bit product to four exact 32x32 -> 64-bit products
  (VPMULUDQ) summed with explicit carries, which is the integer product
  bit for bit;
* a 64-bit word addition or subtraction to the lane-wise one (both modulo
  2^64, as in C).

The fixed parts of the kernel (the exact head, the assembly) are written
in the template line by line beside the scalar lines they mirror, with the
128-bit additions carried explicitly.  tests/test_batch.py checks the
result bit for bit against the scalar adaptor on every edge input and
10^7 random ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import cemit
from ..floattail import CORRECTION_CONSTANTS, correction_program
from ..head_kernel import HeadKernel


@dataclass(frozen=True)
class Isa:
    """One SIMD instruction set of the batch forms."""

    name: str          # the config's name: "avx512" or "avx2"
    prefix: str        # the intrinsics' prefix
    lanes: int         # 64-bit lanes per register
    target: str        # the GCC/Clang target attribute that enables it
    cpu: tuple[str, ...]   # __builtin_cpu_supports features that must all be present
    ivec: str
    dvec: str


ISAS: dict[str, Isa] = {
    "avx512": Isa("avx512", "_mm512", 8, "avx512f,avx512dq", ("avx512f", "avx512dq"), "__m512i", "__m512d"),
    "avx2": Isa("avx2", "_mm256", 4, "avx2,fma", ("avx2", "fma"), "__m256i", "__m256d"),
}


class SimdSyntax(cemit.Syntax):
    """The operations of :class:`gen.cemit.Syntax` on SIMD registers:
    ``tag`` is the prefix of the ISA's helpers in the header."""

    def __init__(self, isa: Isa, tag: str) -> None:
        self.isa, self.tag = isa, tag

    def fma(self, macro: str, a: str, b: str, c: str) -> str:
        return f"{self.isa.prefix}_fmadd_pd({a}, {b}, {c})"

    def binop(self, kind: str, a: str, b: str) -> str:
        return f"{self.isa.prefix}_{kind}_pd({a}, {b})"

    def rounded(self, function: str, text: str) -> str:
        return f"{self.tag}_rounded({text})"

    def double(self, literal: str) -> str:
        return f"{self.isa.prefix}_set1_pd({literal})"

    def word(self, value: int) -> str:
        return f"{self.tag}_word(UINT64_C(0x{value:016x}))"

    def mulhi(self, a: str, b: str) -> str:
        return f"{self.tag}_mulhi({a}, {b})"

    def words(self, kind: str, a: str, b: str) -> str:
        return f"{self.tag}_{kind}({a}, {b})"


def isa_context(k: HeadKernel, isa: Isa) -> dict[str, Any]:
    """What templates/falcon/batch.h.j2 needs for one instruction set: the
    kernel's operation lists rendered on its registers."""
    cfg, plan = k.cfg, k.plan
    tag = f"{cfg.name}_x{isa.lanes}"
    syntax = SimdSyntax(isa, tag)
    tail = cemit.tail_lines(plan.program, plan.tail, ["e"], "t", "", rounded="r", syntax=syntax)
    corr = cemit.tail_lines(correction_program(cfg.head.fma), [k.constant, *CORRECTION_CONSTANTS], ["rx", "rc"],
                            "r", "", "x", "ccs", rounded="r", syntax=syntax)
    return {"isa": isa.name, "P": isa.prefix, "lanes": isa.lanes, "target": isa.target,
            "cpu": list(isa.cpu), "VI": isa.ivec, "VD": isa.dvec, "T": tag, "TT": tag.upper(),
            "mid_lines": cemit.head_middle(plan, syntax), "tail_lines": tail, "tail_result": tail[-1][0],
            "corr_lines": corr, "corr_result": corr[-1][0]}


def context(k: HeadKernel) -> list[dict[str, Any]]:
    """One entry per instruction set the config names, in its order."""
    return [isa_context(k, ISAS[name]) for name in k.cfg.head.batch] if k.cfg.head else []

"""The instructions of a form = "twin" kernel, in issue order: the one
source of the inline assembly templates/twin.h.j2 emits (gen/render/twin.py)
and of the lists tests/test_twin.py and the constant-time scan check.  Each
line is (AT&T instruction, comment, where): where is "core", the
instructions of _domain, or "clamp", the full adaptor's edge rules, a block
of their own that clamps the inputs before the core runs on them.  Operands
name the asm blocks' registers (%[x] the double x, %[cc] ccs, %[b] x's bit
pattern, %[T] the constant table); rcx holds the shift count (SHRD takes it
in CL) and rdx the implicit operand of MULX.

Why this order: the binary64 Estrin steps and the integer chain are the two
critical paths and come first; the products that only join the sum at the
end (c v^7, the remainder of ccs, B_2, A) follow.  The CPU reorders freely,
but among ready instructions it prefers the older, so the critical ones go
first.
"""

from __future__ import annotations

from ..errors import GenError


# Table layout: name -> index (offset = 8 index).
TABLE = ("vlift", "clift", "subn", "q0", "q1", "q2", "q3", "q4", "q5", "q6", "e0", "e1", "K", "exp63", "ln2_down", "one",
         "W2", "W3", "W4", "W5", "W6", "top", "lim64", "lim128", "kb16", "ln2_next", "inf_next", "zero")


def off(name: str) -> str:
    if name not in TABLE:
        raise GenError(f"form 'twin': no constant {name}")
    return f"{8 * TABLE.index(name)}(%[T])"


def _lines() -> list[tuple[str, str, str]]:
    o = off
    return [
        # The full adaptor's rule on x, on its bit pattern b as an unsigned
        # integer: b becomes LN2_DOWN's from LN2_DOWN's + 1 up, then +0 where
        # it was above +inf's (the sign bit set, or a NaN).  Both compares
        # read the original pattern (kept in b0), so the two CMOVAEs are the
        # rule's only latency; both paths of the core then read the clamped x.
        ("mov %[b], %[b0]", "", "clamp"),
        (f"cmp {o('ln2_next')}, %[b]", "", "clamp"),
        (f"cmovae {o('ln2_down')}, %[b]", "x >= ln 2 (+inf too) -> LN2_DOWN; CMOVAE reads the carry alone (CMOVA "
         "and CMOVG, which read two flags, cost more on AMD Zen)", "clamp"),
        (f"cmp {o('inf_next')}, %[b0]", "", "clamp"),
        (f"cmovae {o('zero')}, %[b]", "the sign bit set, or a NaN -> +0", "clamp"),
        ("vmovq %[b], %[x]", "x = the clamped double", "clamp"),
        (f"vpmaxsd {o('subn')}, %[cc], %[cc]", "ccs's high half at least 2^-1022's: zeros, subnormals and "
         "patterns with the sign bit become normals below 2^-1021", "clamp"),
        (f"vmaxsd {o('zero')}, %[cc], %[cc]", "a NaN -> +0", "clamp"),
        (f"vminsd {o('one')}, %[cc], %[cc]", "ccs = min(ccs, 1)", "clamp"),
        # The binary64 part.
        (f"vpmaxsd {o('vlift')}, %[x], %[v]", "v = x, or x's high half raised to 2^-23's: v >= 2^-23 with no "
         "binary64 operation on x (an integer max of each 32-bit half)", "core"),
        (f"vpaddq {o('exp63')}, %[cc], %[cs]", "cs = ccs 2^63 (exponent add; a tiny normal for ccs = 0)", "core"),
        (f"vmovsd {o('q1')}, %[p01]", "", "core"),
        (f"vfmadd213sd {o('q0')}, %[v], %[p01]", "p01 = q0 + q1 v", "core"),
        (f"vmovsd {o('q3')}, %[p23]", "", "core"),
        (f"vfmadd213sd {o('q2')}, %[v], %[p23]", "p23 = q2 + q3 v", "core"),
        (f"vmovsd {o('q5')}, %[p45]", "", "core"),
        (f"vfmadd213sd {o('q4')}, %[v], %[p45]", "p45 = q4 + q5 v", "core"),
        ("vmulsd %[v], %[v], %[v2]", "v^2", "core"),
        (f"vpmaxsd {o('clift')}, %[cc], %[cc]", "c = ccs, or ccs's high half raised to 2^-63's (cs was "
         "made before)", "core"),
        ("vmulsd %[v], %[cc], %[cc]", "c v", "core"),
        ("vcvttsd2si %[cs], %[C]", "C = trunc(ccs 2^63) (2^63 as the integer indefinite for ccs = 1)", "core"),
        ("vroundsd $11, %[cs], %[cs], %[rc]", "trunc(cs)", "core"),
        ("vsubsd %[rc], %[cs], %[rc]", "rc = cs - C, exact", "core"),
        (f"vmovsd {o('e1')}, %[E]", "", "core"),
        (f"vfmadd213sd {o('e0')}, %[v], %[E]", "E = e0 + e1 v ~= 16 e^-v", "core"),
        (f"vmovsd {o('K')}, %[g]", "", "core"),
        ("vfmadd231sd %[rc], %[E], %[g]", "corr = K + rc E", "core"),
        ("vmulsd %[v2], %[v2], %[E]", "v^4", "core"),
        ("vfmadd231sd %[v2], %[p23], %[p01]", "r0 = p01 + p23 v^2", "core"),
        (f"vfmadd231sd {o('q6')}, %[v2], %[p45]", "r1 = p45 + q6 v^2", "core"),
        ("vmulsd %[v2], %[cc], %[cc]", "c v^3", "core"),
        ("vfmadd213sd %[p01], %[E], %[p45]", "Q = r0 + r1 v^4", "core"),
        ("vmulsd %[E], %[cc], %[cc]", "c v^7", "core"),
        ("vfmadd231sd %[p45], %[cc], %[g]", "g = corr + c v^7 Q: one rounding, to a whole u/16", "core"),
        ("vmovq %[g], %[gb]", "g's bits: K's bits + G", "core"),
        # The integer part: t = floor(x 2^64) from x's bits.
        ("rorx $52, %[b], %[u]", "x's exponent e in the low bits", "core"),
        ("mov $62, %%ecx", "", "core"),
        ("sub %[u], %%rcx", "s = 1022 - e mod 64: the shift of x's significand", "core"),
        ("mov %[b], %[m]", "", "core"),
        ("shl $11, %[m]", "", "core"),
        (f"or {o('top')}, %[m]", "m = x's significand at 2^63 (x = m 2^-(64 + 1022 - e))", "core"),
        ("shrx %%rcx, %[m], %[u]", "t = m >> s = floor(x 2^64) for x >= 2^-64", "core"),
        ("mov %[u], %%rdx", "", "core"),
        ("mulx %[u], %[zzl], %[zz]", "zz:zzl = t^2", "core"),
        (f"mulx {o('W5')}, %[h5], %[h5]", "hi(t, W5)", "core"),
        (f"mulx {o('W3')}, %[h3], %[h3]", "hi(t, W3)", "core"),
        ("neg %[h5]", "", "core"),
        (f"add {o('W4')}, %[h5]", "W4 - hi(t, W5)", "core"),
        ("neg %[h3]", "", "core"),
        (f"add {o('W2')}, %[h3]", "W2 - hi(t, W3)", "core"),
        ("mov %[zz], %%rdx", "", "core"),
        (f"mulx {o('W6')}, %[u], %[u]", "hi(zz, W6)", "core"),
        ("add %[u], %[h5]", "K4 = W4 - hi(t, W5) + hi(zz, W6)", "core"),
        ("mulx %[h5], %[u], %[u]", "hi(zz, K4)", "core"),
        ("add %[u], %[h3]", "K2 = W2 - hi(t, W3) + hi(zz, K4)", "core"),
        ("mov %[C], %%rdx", "", "core"),
        ("mulx %[zz], %[bl], %[bh]", "C zz", "core"),
        ("mulx %[zzl], %[zzl], %[zzl]", "hi(C, zzl)", "core"),
        ("add %[zzl], %[bl]", "", "core"),
        ("adc $0, %[bh]", "bh:bl = floor(C t^2 / 2^64)", "core"),
        ("shr $62, %[bl]", "", "core"),
        ("lea (%[bl],%[bh],4), %[bh]", "B2 = floor(C t^2 / 2^126): C x^2 in units of u/4 (LEA: SHLD is slow on "
         "AMD)", "core"),
        ("mulx %[m], %[m], %[u]", "u:m = C m", "core"),
        ("shrd %%cl, %[u], %[m]", "", "core"),
        ("shrx %%rcx, %[u], %[u]", "u:m = A = floor(C x 2^64), exact", "core"),
        (f"cmp {o('lim64')}, %[b]", "x < 2^-64: the shift is 64 or more", "core"),
        ("cmovb %[u], %[m]", "A = (C m >> 64) >> (shift - 64)", "core"),
        (f"cmovb {o('zero')}, %[u]", "", "core"),
        (f"cmovb {o('zero')}, %[bh]", "B2 = 0", "core"),
        (f"cmp {o('lim128')}, %[b]", "x < 2^-128", "core"),
        (f"cmovb {o('zero')}, %[m]", "A = 0", "core"),
        # The 128-bit sum S = C 2^64 - A + G 2^60 + B2 K2 / 8, in C:m.
        ("neg %[m]", "", "core"),
        ("sbb %[u], %[C]", "C 2^64 - A", "core"),
        (f"sub {o('kb16')}, %[C]", "- K's bits 2^60: what G's bits add beyond G", "core"),
        ("mov %[gb], %[u]", "", "core"),
        ("shl $60, %[u]", "", "core"),
        ("shr $4, %[gb]", "", "core"),
        ("add %[u], %[m]", "", "core"),
        ("adc %[gb], %[C]", "+ G 2^60", "core"),
        ("mov %[bh], %%rdx", "", "core"),
        ("mulx %[h3], %[u], %[bh]", "bh:u = B2 K2 (C x^2 k(x) in units of u 2^-67)", "core"),
        ("mov %[bh], %[zz]", "", "core"),
        ("shl $61, %[zz]", "", "core"),
        ("shr $3, %[u]", "", "core"),
        ("or %[zz], %[u]", "", "core"),
        ("shr $3, %[bh]", "(bh:u) / 8 in shifts and an OR: cheaper than SHRD on AMD", "core"),
        ("add %[u], %[m]", "", "core"),
        ("adc %[bh], %[C]", "+ B2 K2 / 8: the result is the high word", "core"),
    ]


def lines(block: str) -> list[tuple[str, str]]:
    """The instructions of one block: "core" (_domain's, which the full
    adaptor runs too) or "clamp" (the full adaptor's edge rules)."""
    if block not in ("core", "clamp"):
        raise GenError(f"form 'twin': no instruction block {block!r}")
    return [(text, why) for text, why, where in _lines() if where == block]

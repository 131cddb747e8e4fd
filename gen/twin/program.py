"""The instructions of a form = "twin" kernel, in issue order: the one
source of the inline assembly templates/twin.h.j2 emits (gen/render/twin.py)
and of the lists tests/test_twin.py and the constant-time scan check.  Each
line is (AT&T instruction, comment, where): where is "both", "domain" or
"full" (the full adaptor's edge rules).  Operands name the asm block's
registers (%[x] the double x, %[cc] ccs, %[b] x's bit pattern, %[T] the
constant table); rcx holds the shift count (SHRD takes it in CL) and rdx
the implicit operand of MULX.

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
         "W2", "W3", "W4", "W5", "W6", "top", "lim64", "lim128", "kb16", "ln2_next", "big_range", "tiny_range",
         "zero_range", "m_ln2", "vmin", "zero")


def off(name: str) -> str:
    if name not in TABLE:
        raise GenError(f"form 'twin': no constant {name}")
    return f"{8 * TABLE.index(name)}(%[T])"


def _lines() -> list[tuple[str, str, str]]:
    o = off
    return [
        # The binary64 part.
        (f"vpmaxsd {o('vlift')}, %[x], %[v]", "v = x, or x's high half raised to 2^-23's: v >= 2^-23 with no "
         "binary64 operation on x (an integer max of each 32-bit half)", "both"),
        (f"vmaxsd {o('vmin')}, %[v], %[v]", "a NaN (the lift kept it) -> 2^-23, as x = 0", "full"),
        (f"vminsd {o('ln2_down')}, %[v], %[v]", "v = min(v, LN2_DOWN): x > LN2_DOWN (+inf too) reads as "
         "LN2_DOWN", "full"),
        (f"vpmaxsd {o('subn')}, %[cc], %[cc]", "ccs's high half at least 2^-1022's: zeros, subnormals and "
         "patterns with the sign bit become normals below 2^-1021", "full"),
        (f"vmaxsd {o('zero')}, %[cc], %[cc]", "a NaN -> +0", "full"),
        (f"vminsd {o('one')}, %[cc], %[cc]", "ccs = min(ccs, 1)", "full"),
        (f"vpaddq {o('exp63')}, %[cc], %[cs]", "cs = ccs 2^63 (exponent add; a tiny normal for ccs = 0)", "both"),
        (f"vmovsd {o('q1')}, %[p01]", "", "both"),
        (f"vfmadd213sd {o('q0')}, %[v], %[p01]", "p01 = q0 + q1 v", "both"),
        (f"vmovsd {o('q3')}, %[p23]", "", "both"),
        (f"vfmadd213sd {o('q2')}, %[v], %[p23]", "p23 = q2 + q3 v", "both"),
        (f"vmovsd {o('q5')}, %[p45]", "", "both"),
        (f"vfmadd213sd {o('q4')}, %[v], %[p45]", "p45 = q4 + q5 v", "both"),
        ("vmulsd %[v], %[v], %[v2]", "v^2", "both"),
        (f"vpmaxsd {o('clift')}, %[cc], %[cc]", "c = ccs, or ccs's high half raised to 2^-63's (cs was "
         "made before)", "both"),
        ("vmulsd %[v], %[cc], %[cc]", "c v", "both"),
        ("vcvttsd2si %[cs], %[C]", "C = trunc(ccs 2^63) (2^63 as the integer indefinite for ccs = 1)", "both"),
        ("vroundsd $11, %[cs], %[cs], %[rc]", "trunc(cs)", "both"),
        ("vsubsd %[rc], %[cs], %[rc]", "rc = cs - C, exact", "both"),
        (f"vmovsd {o('e1')}, %[E]", "", "both"),
        (f"vfmadd213sd {o('e0')}, %[v], %[E]", "E = e0 + e1 v ~= 16 e^-v", "both"),
        (f"vmovsd {o('K')}, %[g]", "", "both"),
        ("vfmadd231sd %[rc], %[E], %[g]", "corr = K + rc E", "both"),
        ("vmulsd %[v2], %[v2], %[E]", "v^4", "both"),
        ("vfmadd231sd %[v2], %[p23], %[p01]", "r0 = p01 + p23 v^2", "both"),
        (f"vfmadd231sd {o('q6')}, %[v2], %[p45]", "r1 = p45 + q6 v^2", "both"),
        ("vmulsd %[v2], %[cc], %[cc]", "c v^3", "both"),
        ("vfmadd213sd %[p01], %[E], %[p45]", "Q = r0 + r1 v^4", "both"),
        ("vmulsd %[E], %[cc], %[cc]", "c v^7", "both"),
        ("vfmadd231sd %[p45], %[cc], %[g]", "g = corr + c v^7 Q: one rounding, to a whole u/16", "both"),
        ("vmovq %[g], %[gb]", "g's bits: K's bits + G", "both"),
        # The integer part: t = floor(x 2^64) from x's bits.
        ("rorx $52, %[b], %[u]", "x's exponent e in the low bits", "both"),
        ("mov $62, %%ecx", "", "both"),
        ("sub %[u], %%rcx", "s = 1022 - e mod 64: the shift of x's significand", "both"),
        ("mov %[b], %[m]", "", "both"),
        ("shl $11, %[m]", "", "both"),
        (f"or {o('top')}, %[m]", "m = x's significand at 2^63 (x = m 2^-(64 + 1022 - e))", "both"),
        ("mov %[b], %[bl]", "", "full"),
        (f"sub {o('ln2_next')}, %[bl]", "", "full"),
        (f"cmp {o('big_range')}, %[bl]", "x's pattern in (LN2_DOWN's, +inf's]: x > LN2_DOWN (one unsigned "
         "compare of b - LN2_DOWN's - 1; CMOVB and CMOVAE read the carry alone, where CMOVA and CMOVG, which "
         "read two flags, cost more on AMD Zen)", "full"),
        (f"cmovb {o('m_ln2')}, %[m]", "then LN2_DOWN's significand", "full"),
        (f"cmovb {o('zero')}, %%rcx", "and its shift, 0", "full"),
        ("shrx %%rcx, %[m], %[u]", "t = m >> s = floor(x 2^64) for x >= 2^-64", "both"),
        ("mov %[u], %%rdx", "", "both"),
        ("mulx %[u], %[zzl], %[zz]", "zz:zzl = t^2", "both"),
        (f"mulx {o('W5')}, %[h5], %[h5]", "hi(t, W5)", "both"),
        (f"mulx {o('W3')}, %[h3], %[h3]", "hi(t, W3)", "both"),
        ("neg %[h5]", "", "both"),
        (f"add {o('W4')}, %[h5]", "W4 - hi(t, W5)", "both"),
        ("neg %[h3]", "", "both"),
        (f"add {o('W2')}, %[h3]", "W2 - hi(t, W3)", "both"),
        ("mov %[zz], %%rdx", "", "both"),
        (f"mulx {o('W6')}, %[u], %[u]", "hi(zz, W6)", "both"),
        ("add %[u], %[h5]", "K4 = W4 - hi(t, W5) + hi(zz, W6)", "both"),
        ("mulx %[h5], %[u], %[u]", "hi(zz, K4)", "both"),
        ("add %[u], %[h3]", "K2 = W2 - hi(t, W3) + hi(zz, K4)", "both"),
        ("mov %[C], %%rdx", "", "both"),
        ("mulx %[zz], %[bl], %[bh]", "C zz", "both"),
        ("mulx %[zzl], %[zzl], %[zzl]", "hi(C, zzl)", "both"),
        ("add %[zzl], %[bl]", "", "both"),
        ("adc $0, %[bh]", "bh:bl = floor(C t^2 / 2^64)", "both"),
        ("shr $62, %[bl]", "", "both"),
        ("lea (%[bl],%[bh],4), %[bh]", "B2 = floor(C t^2 / 2^126): C x^2 in units of u/4 (LEA: SHLD is slow on "
         "AMD)", "both"),
        ("mulx %[m], %[m], %[u]", "u:m = C m", "both"),
        ("shrd %%cl, %[u], %[m]", "", "both"),
        ("shrx %%rcx, %[u], %[u]", "u:m = A = floor(C x 2^64), exact", "both"),
        (f"cmp {o('lim64')}, %[b]", "x < 2^-64: the shift is 64 or more", "domain"),
        ("cmovb %[u], %[m]", "A = (C m >> 64) >> (shift - 64)", "domain"),
        (f"cmovb {o('zero')}, %[u]", "", "domain"),
        (f"cmovb {o('zero')}, %[bh]", "B2 = 0", "domain"),
        (f"cmp {o('lim128')}, %[b]", "x < 2^-128", "domain"),
        (f"cmovb {o('zero')}, %[m]", "A = 0", "domain"),
        ("mov %[b], %[bl]", "", "full"),
        (f"sub {o('lim64')}, %[bl]", "", "full"),
        (f"cmp {o('tiny_range')}, %[bl]", "x < 2^-64, or a pattern above +inf's (the sign bit set, or a NaN): "
         "b - 2^-64's wraps past +inf's - 2^-64's", "full"),
        ("cmovae %[u], %[m]", "A = (C m >> 64) >> (shift - 64)", "full"),
        (f"cmovae {o('zero')}, %[u]", "", "full"),
        (f"cmovae {o('zero')}, %[bh]", "B2 = 0", "full"),
        ("mov %[b], %[bl]", "", "full"),
        (f"sub {o('lim128')}, %[bl]", "", "full"),
        (f"cmp {o('zero_range')}, %[bl]", "x < 2^-128, or above +inf's", "full"),
        (f"cmovae {o('zero')}, %[m]", "A = 0", "full"),
        # The 128-bit sum S = C 2^64 - A + G 2^60 + B2 K2 / 8, in C:m.
        ("neg %[m]", "", "both"),
        ("sbb %[u], %[C]", "C 2^64 - A", "both"),
        (f"sub {o('kb16')}, %[C]", "- K's bits 2^60: what G's bits add beyond G", "both"),
        ("mov %[gb], %[u]", "", "both"),
        ("shl $60, %[u]", "", "both"),
        ("shr $4, %[gb]", "", "both"),
        ("add %[u], %[m]", "", "both"),
        ("adc %[gb], %[C]", "+ G 2^60", "both"),
        ("mov %[bh], %%rdx", "", "both"),
        ("mulx %[h3], %[u], %[bh]", "bh:u = B2 K2 (C x^2 k(x) in units of u 2^-67)", "both"),
        ("mov %[bh], %[zz]", "", "both"),
        ("shl $61, %[zz]", "", "both"),
        ("shr $3, %[u]", "", "both"),
        ("or %[zz], %[u]", "", "both"),
        ("shr $3, %[bh]", "(bh:u) / 8 in shifts and an OR: cheaper than SHRD on AMD", "both"),
        ("add %[u], %[m]", "", "both"),
        ("adc %[bh], %[C]", "+ B2 K2 / 8: the result is the high word", "both"),
    ]


def lines(full: bool) -> list[tuple[str, str]]:
    """The instructions of _domain (full = False) or of the full adaptor."""
    keep = ("both", "full") if full else ("both", "domain")
    return [(text, why) for text, why, where in _lines() if where in keep]

/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_x86.toml (sha256 996a67ceffff6e649b6a1487e09abdb325da6f1c082d0bb68d50f726f2e8515d); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 13, float_tail = 7,
 *     max_abs_error_log2 = -63.0, form = "twin"
 * Proven bound (rational interval arithmetic and a Taylor model, gen/twin/proof.py; terms: provenance/),
 * f(x) = exp(-x):
 *     |falcon_x86_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 0.919501 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: x86-64 flagship: integer chain and binary64 tail side by side; faithful against the double inputs
 *
 * Parameters:
 *   name = "falcon_x86"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 64
 *   scale_bits = 63
 *   degree = 13
 *   float_tail = 7
 *   max_abs_error_log2 = -63.0
 *   form = "twin"
 *
 * Computed:
 *   e^-x ~= 1 - x + x^2 k(x) + t(x), powers 2..13 fitted (Remez, 50 digits; levelled error 0.0042 units of 2^-63)
 *   Q0.65 words W_2..W_6: 0xffffffffffffff45, 0x5555555555552772, 0x155555555550de34, 0x04444444440808d3, 0x00b60b60b4166720
 *   binary64 tail q_0..q_6 (powers 7..13, times 2^67): -0x1.a01a00f42ddc7p+54, 0x1.a019ed68ce98fp+51, -0x1.71dc91f79c2f4p+48, 0x1.27ccb15691486p+45, -0x1.ac7ba9f4b461cp+41, 0x1.1247514b18711p+38, -0x1.f7a06dc06f2e5p+33
 *   E(v) = 0x1.f4fb9d55d92a6p+3 + -0x1.71547652b82fep+3 v (16 e^-v, linear fit; levelled error 0.02152)
 *   bias 9 units of u/16; eps in [0.105889, 0.919501]
 *   proven p - f of the quantized polynomial: [-5.5718e-22, 1.6308e-21]
 *   bound, units of 2^-63:
 *     0.0150415  approximation: C (p - f)(x), 2^63 sup |p - exp(-x)| on [0, ln 2] (Taylor model)
 *     0.000244085  t = floor(x 2^64) for x in the integer chain (x < 2^-11 only)
 *     0.0215319  remainder of ccs, rc (t(x) + E(v)/16 - e^-x) (E: linear fit, Taylor model)
 *     5.42102e-20  linear term: A = floor(C x 2^64) (A = 0 for x < 2^-128)
 *     0.287335  integer chain: every floor of K_4, K_2, B_2, T / 8
 *     0.164138  binary64 part: every rounding (an FMA one), G in u/16, v and c clamps
 *     0.562501  bias (centres eps in (0, 1)) and the final floor, which takes (-1, 0]
 *     0.919501  total (max(eps_hi, 1 - eps_lo))
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FALCON_X86_CONTENT_HASH) && FALCON_X86_CONTENT_HASH != 0x32115e86505340a3u
#error "falcon_x86.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_H
#define FALCON_X86_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define FALCON_X86_CONTENT_HASH 0x32115e86505340a3u

/**
 * falcon_x86_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 (-0 included) or NaN counts as 0, x >= ln 2 (+inf included) as the double
 * below ln 2, ccs < 0 or NaN gives 0, ccs >= 1 counts as 1 (docs/falcon.md, "Edge inputs": the rules of every
 * kernel).  _domain(x, ccs), _domain_bits(x_bits,
 * ccs_bits): Falcon's contract, 0 <= x < ln 2 and 0 <= ccs < 1 (ccs = 1 works too; unspecified but
 * defined outside it).  The bound FALCON_X86_FPR_EXPM_P63_ERR_BOUND (units of 2^-63) holds against the
 * doubles passed, conversions included.  No fixed-point entry (_eval, _expm_p63).
 * Needs x86-64 with FMA and GCC or Clang: build with -mfma or -march=x86-64-v3 (a compile-time error
 * otherwise); BMI2 (MULX, RORX, SHRX) comes with x86-64-v3.  Binary64 rounding to nearest (the default
 * MXCSR).  The kernel is inline assembly, so compiler flags (-ffast-math, -ffp-contract) do not change it.
 * Constant time: no branch, no table lookup by a secret index and no division; 64x64 -> 128-bit
 * products (MULX), which take a fixed time on x86-64; binary64 operations whose operands are never
 * subnormal (proven), which take a fixed time too; the edge rules are min/max and conditional moves.
 */

#include <string.h>

#if !defined(__x86_64__) || !(defined(__GNUC__) || defined(__clang__))
#error "falcon_x86.h: form twin needs x86-64 and GCC or Clang"
#endif
#if !defined(__FMA__) || !defined(__BMI2__)
#error "falcon_x86.h: needs FMA and BMI2: build with -march=x86-64-v3 (or -mfma -mbmi2)"
#endif

/* The proven bound (gen/twin/proof.py; docs/error-model.md, "Form twin"),
 * units of 2^-63, against ccs exp(-x) 2^63 for the doubles passed:
 *   0.0150415  approximation: C (p - f)(x), 2^63 sup |p - exp(-x)| on [0, ln 2] (Taylor model)
 *   0.000244085  t = floor(x 2^64) for x in the integer chain (x < 2^-11 only)
 *   0.0215319  remainder of ccs, rc (t(x) + E(v)/16 - e^-x) (E: linear fit, Taylor model)
 *   5.42102e-20  linear term: A = floor(C x 2^64) (A = 0 for x < 2^-128)
 *   0.287335  integer chain: every floor of K_4, K_2, B_2, T / 8
 *   0.164138  binary64 part: every rounding (an FMA one), G in u/16, v and c clamps
 *   0.562501  bias (centres eps in (0, 1)) and the final floor, which takes (-1, 0]
 * The result lies in (eps - 1, eps] with eps in [0.105889, 0.919501]:
 * one of the two integers around the exact value (faithful).
 */
#define FALCON_X86_FPR_EXPM_P63_ERR_BOUND 0.919501
#define FALCON_X86_DEGREE 13
#define FALCON_X86_FLOAT_TAIL 7
#define FALCON_X86_TABLE_BYTES 0
#define FALCON_X86_INLINE static inline __attribute__((always_inline))

/* The constants the instructions read, by byte offset (binary64 values by
 * their bits).  Read at fixed offsets: no index depends on the inputs.
 *   q_i: the binary64 tail's coefficients, a_(7+i) 2^67 (units of u/16 of
 *        the result's unit u = 2^-63 once multiplied by ccs v^(7+i));
 *   e_0, e_1: E(v) = e_0 + e_1 v ~= 16 e^-v, for the remainder of ccs;
 *   K = 1.5 2^52 + 9: g lies in [2^52, 2^53), whose unit is 1 (u/16),
 *        and the bias 9/16 centres the error;
 *   W_j = round(|a_j| 2^65), j = 2..6: the integer chain's Q0.65 words. */
static const uint64_t falcon_x86_k[28] __attribute__((aligned(64))) = {
    UINT64_C(0x3E80000080000000),   /* 0: vlift = 4503599629517979648 */
    UINT64_C(0x3C00000080000000),   /* 8: clift = 4323455644423159808 */
    UINT64_C(0x0010000080000000),   /* 16: subn = 4503601774854144 */
    UINT64_C(0xC35A01A00F42DDC7),   /* 24: q0 = -0x1.a01a00f42ddc7p+54 */
    UINT64_C(0x432A019ED68CE98F),   /* 32: q1 = 0x1.a019ed68ce98fp+51 */
    UINT64_C(0xC2F71DC91F79C2F4),   /* 40: q2 = -0x1.71dc91f79c2f4p+48 */
    UINT64_C(0x42C27CCB15691486),   /* 48: q3 = 0x1.27ccb15691486p+45 */
    UINT64_C(0xC28AC7BA9F4B461C),   /* 56: q4 = -0x1.ac7ba9f4b461cp+41 */
    UINT64_C(0x4251247514B18711),   /* 64: q5 = 0x1.1247514b18711p+38 */
    UINT64_C(0xC20F7A06DC06F2E5),   /* 72: q6 = -0x1.f7a06dc06f2e5p+33 */
    UINT64_C(0x402F4FB9D55D92A6),   /* 80: e0 = 0x1.f4fb9d55d92a6p+3 */
    UINT64_C(0xC0271547652B82FE),   /* 88: e1 = -0x1.71547652b82fep+3 */
    UINT64_C(0x4338000000000009),   /* 96: K = 0x1.8000000000009p+52 */
    UINT64_C(0x03F0000000000000),   /* 104: exp63 = 283726776524341248 */
    UINT64_C(0x3FE62E42FEFA39EF),   /* 112: ln2_down = 0x1.62e42fefa39efp-1 */
    UINT64_C(0x3FF0000000000000),   /* 120: one = 0x1.0000000000000p+0 */
    UINT64_C(0xFFFFFFFFFFFFFF45),   /* 128: W2 = 18446744073709551429 */
    UINT64_C(0x5555555555552772),   /* 136: W3 = 6148914691236505458 */
    UINT64_C(0x155555555550DE34),   /* 144: W4 = 1537228672808836660 */
    UINT64_C(0x04444444440808D3),   /* 152: W5 = 307445734557878483 */
    UINT64_C(0x00B60B60B4166720),   /* 160: W6 = 51240955727472416 */
    UINT64_C(0x8000000000000000),   /* 168: top = 9223372036854775808 */
    UINT64_C(0x3BF0000000000000),   /* 176: lim64 = 4318952042648305664 */
    UINT64_C(0x37F0000000000000),   /* 184: lim128 = 4030721666496593920 */
    UINT64_C(0x0433800000000000),   /* 192: kb16 = 302726337452310528 */
    UINT64_C(0x3FE62E42FEFA39F0),   /* 200: ln2_next = 4604418534313441776 */
    UINT64_C(0x7FF0000000000001),   /* 208: inf_next = 9218868437227405313 */
    UINT64_C(0x0000000000000000),   /* 216: zero = 0 */
};

/* Falcon's own contract: 0 <= x < ln 2, 0 <= ccs <= 1 (a defined result
 * outside it), on x, its bit pattern b and ccs.  Two paths meet once: the
 * binary64 part g (the powers 7..13 with ccs folded in, and the remainder
 * of ccs's conversion) and the integer part (1 - x and x^2 k(x) with ccs
 * folded in, in 128 bits); the result is the high word of
 * S = C 2^64 - A + G 2^60 + B2 K2 / 8.  Operands: x and ccs in vector
 * registers, b in a general register (the compiler moves it, or loads it
 * where x is in memory), T the table's address and the table itself as a
 * memory input (so the compiler knows the block reads it); the others are
 * scratch.  rcx holds the shift count (SHRD takes it in CL), rdx MULX's
 * implicit operand.  The 16-byte VPMAXSD and VPADDQ memory operands also
 * read the next constant of the table, into lanes nobody uses. */
FALCON_X86_INLINE uint64_t falcon_x86_core(double x, uint64_t b, double ccs)
{
    double v, cs, p01, p23, p45, v2, rc, E, g;
    uint64_t u, m, zz, zzl, h5, h3, bl, bh, C, gb;
    __asm__(
        "vpmaxsd 0(%[T]), %[x], %[v]\n\t"   /* v = x, or x's high half raised to 2^-23's: v >= 2^-23 with no binary64 operation on x (an integer max of each 32-bit half) */
        "vpaddq 104(%[T]), %[cc], %[cs]\n\t"   /* cs = ccs 2^63 (exponent add; a tiny normal for ccs = 0) */
        "vmovsd 32(%[T]), %[p01]\n\t"
        "vfmadd213sd 24(%[T]), %[v], %[p01]\n\t"   /* p01 = q0 + q1 v */
        "vmovsd 48(%[T]), %[p23]\n\t"
        "vfmadd213sd 40(%[T]), %[v], %[p23]\n\t"   /* p23 = q2 + q3 v */
        "vmovsd 64(%[T]), %[p45]\n\t"
        "vfmadd213sd 56(%[T]), %[v], %[p45]\n\t"   /* p45 = q4 + q5 v */
        "vmulsd %[v], %[v], %[v2]\n\t"   /* v^2 */
        "vpmaxsd 8(%[T]), %[cc], %[cc]\n\t"   /* c = ccs, or ccs's high half raised to 2^-63's (cs was made before) */
        "vmulsd %[v], %[cc], %[cc]\n\t"   /* c v */
        "vcvttsd2si %[cs], %[C]\n\t"   /* C = trunc(ccs 2^63) (2^63 as the integer indefinite for ccs = 1) */
        "vroundsd $11, %[cs], %[cs], %[rc]\n\t"   /* trunc(cs) */
        "vsubsd %[rc], %[cs], %[rc]\n\t"   /* rc = cs - C, exact */
        "vmovsd 88(%[T]), %[E]\n\t"
        "vfmadd213sd 80(%[T]), %[v], %[E]\n\t"   /* E = e0 + e1 v ~= 16 e^-v */
        "vmovsd 96(%[T]), %[g]\n\t"
        "vfmadd231sd %[rc], %[E], %[g]\n\t"   /* corr = K + rc E */
        "vmulsd %[v2], %[v2], %[E]\n\t"   /* v^4 */
        "vfmadd231sd %[v2], %[p23], %[p01]\n\t"   /* r0 = p01 + p23 v^2 */
        "vfmadd231sd 72(%[T]), %[v2], %[p45]\n\t"   /* r1 = p45 + q6 v^2 */
        "vmulsd %[v2], %[cc], %[cc]\n\t"   /* c v^3 */
        "vfmadd213sd %[p01], %[E], %[p45]\n\t"   /* Q = r0 + r1 v^4 */
        "vmulsd %[E], %[cc], %[cc]\n\t"   /* c v^7 */
        "vfmadd231sd %[p45], %[cc], %[g]\n\t"   /* g = corr + c v^7 Q: one rounding, to a whole u/16 */
        "vmovq %[g], %[gb]\n\t"   /* g's bits: K's bits + G */
        "rorx $52, %[b], %[u]\n\t"   /* x's exponent e in the low bits */
        "mov $62, %%ecx\n\t"
        "sub %[u], %%rcx\n\t"   /* s = 1022 - e mod 64: the shift of x's significand */
        "mov %[b], %[m]\n\t"
        "shl $11, %[m]\n\t"
        "or 168(%[T]), %[m]\n\t"   /* m = x's significand at 2^63 (x = m 2^-(64 + 1022 - e)) */
        "shrx %%rcx, %[m], %[u]\n\t"   /* t = m >> s = floor(x 2^64) for x >= 2^-64 */
        "mov %[u], %%rdx\n\t"
        "mulx %[u], %[zzl], %[zz]\n\t"   /* zz:zzl = t^2 */
        "mulx 152(%[T]), %[h5], %[h5]\n\t"   /* hi(t, W5) */
        "mulx 136(%[T]), %[h3], %[h3]\n\t"   /* hi(t, W3) */
        "neg %[h5]\n\t"
        "add 144(%[T]), %[h5]\n\t"   /* W4 - hi(t, W5) */
        "neg %[h3]\n\t"
        "add 128(%[T]), %[h3]\n\t"   /* W2 - hi(t, W3) */
        "mov %[zz], %%rdx\n\t"
        "mulx 160(%[T]), %[u], %[u]\n\t"   /* hi(zz, W6) */
        "add %[u], %[h5]\n\t"   /* K4 = W4 - hi(t, W5) + hi(zz, W6) */
        "mulx %[h5], %[u], %[u]\n\t"   /* hi(zz, K4) */
        "add %[u], %[h3]\n\t"   /* K2 = W2 - hi(t, W3) + hi(zz, K4) */
        "mov %[C], %%rdx\n\t"
        "mulx %[zz], %[bl], %[bh]\n\t"   /* C zz */
        "mulx %[zzl], %[zzl], %[zzl]\n\t"   /* hi(C, zzl) */
        "add %[zzl], %[bl]\n\t"
        "adc $0, %[bh]\n\t"   /* bh:bl = floor(C t^2 / 2^64) */
        "shr $62, %[bl]\n\t"
        "lea (%[bl],%[bh],4), %[bh]\n\t"   /* B2 = floor(C t^2 / 2^126): C x^2 in units of u/4 (LEA: SHLD is slow on AMD) */
        "mulx %[m], %[m], %[u]\n\t"   /* u:m = C m */
        "shrd %%cl, %[u], %[m]\n\t"
        "shrx %%rcx, %[u], %[u]\n\t"   /* u:m = A = floor(C x 2^64), exact */
        "cmp 176(%[T]), %[b]\n\t"   /* x < 2^-64: the shift is 64 or more */
        "cmovb %[u], %[m]\n\t"   /* A = (C m >> 64) >> (shift - 64) */
        "cmovb 216(%[T]), %[u]\n\t"
        "cmovb 216(%[T]), %[bh]\n\t"   /* B2 = 0 */
        "cmp 184(%[T]), %[b]\n\t"   /* x < 2^-128 */
        "cmovb 216(%[T]), %[m]\n\t"   /* A = 0 */
        "neg %[m]\n\t"
        "sbb %[u], %[C]\n\t"   /* C 2^64 - A */
        "sub 192(%[T]), %[C]\n\t"   /* - K's bits 2^60: what G's bits add beyond G */
        "mov %[gb], %[u]\n\t"
        "shl $60, %[u]\n\t"
        "shr $4, %[gb]\n\t"
        "add %[u], %[m]\n\t"
        "adc %[gb], %[C]\n\t"   /* + G 2^60 */
        "mov %[bh], %%rdx\n\t"
        "mulx %[h3], %[u], %[bh]\n\t"   /* bh:u = B2 K2 (C x^2 k(x) in units of u 2^-67) */
        "mov %[bh], %[zz]\n\t"
        "shl $61, %[zz]\n\t"
        "shr $3, %[u]\n\t"
        "or %[zz], %[u]\n\t"
        "shr $3, %[bh]\n\t"   /* (bh:u) / 8 in shifts and an OR: cheaper than SHRD on AMD */
        "add %[u], %[m]\n\t"
        "adc %[bh], %[C]\n\t"   /* + B2 K2 / 8: the result is the high word */
        : [v] "=&x"(v), [cs] "=&x"(cs), [p01] "=&x"(p01), [p23] "=&x"(p23), [p45] "=&x"(p45), [v2] "=&x"(v2),
          [rc] "=&x"(rc), [E] "=&x"(E), [g] "=&x"(g), [cc] "+x"(ccs), [u] "=&r"(u), [m] "=&r"(m),
          [zz] "=&r"(zz), [zzl] "=&r"(zzl), [h5] "=&r"(h5), [h3] "=&r"(h3), [bl] "=&r"(bl), [bh] "=&r"(bh),
          [C] "=&r"(C), [gb] "=&r"(gb)
        : [x] "x"(x), [b] "r"(b), [T] "r"(falcon_x86_k), [Tm] "m"(*(const uint64_t (*)[28])falcon_x86_k)
        : "rcx", "rdx", "cc");
    return C;
}

FALCON_X86_INLINE uint64_t falcon_x86_fpr_expm_p63_domain(double x, double ccs)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return falcon_x86_core(x, b, ccs);
}

/* The same on the inputs' IEEE-754 bit patterns. */
FALCON_X86_INLINE uint64_t falcon_x86_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_fpr_expm_p63_domain(x, ccs);
}

/* Every input defined (see the interface above): the edge rules clamp the
 * inputs, then _domain's instructions run on what they leave.  x's bit
 * pattern, as an unsigned integer, becomes LN2_DOWN's above it and then +0
 * where it was above +inf's (the sign bit set, or a NaN), by two
 * conditional moves, and the double x is made from the clamped pattern, so
 * both paths read exactly the clamped x.  ccs is read as 0 when negative
 * or a NaN and as 1 above 1: VPMAXSD (an integer maximum of each 32-bit
 * half, so no binary64 instruction reads a possibly subnormal input) then
 * VMAXSD and VMINSD (a NaN gives the constant operand). */
FALCON_X86_INLINE uint64_t falcon_x86_fpr_expm_p63_native(double x, double ccs)
{
    uint64_t b, b0;
    memcpy(&b, &x, sizeof b);
    __asm__(
        "mov %[b], %[b0]\n\t"
        "cmp 200(%[T]), %[b]\n\t"
        "cmovae 112(%[T]), %[b]\n\t"   /* x >= ln 2 (+inf too) -> LN2_DOWN; CMOVAE reads the carry alone (CMOVA and CMOVG, which read two flags, cost more on AMD Zen) */
        "cmp 208(%[T]), %[b0]\n\t"
        "cmovae 216(%[T]), %[b]\n\t"   /* the sign bit set, or a NaN -> +0 */
        "vmovq %[b], %[x]\n\t"   /* x = the clamped double */
        "vpmaxsd 16(%[T]), %[cc], %[cc]\n\t"   /* ccs's high half at least 2^-1022's: zeros, subnormals and patterns with the sign bit become normals below 2^-1021 */
        "vmaxsd 216(%[T]), %[cc], %[cc]\n\t"   /* a NaN -> +0 */
        "vminsd 120(%[T]), %[cc], %[cc]\n\t"   /* ccs = min(ccs, 1) */
        : [b] "+r"(b), [b0] "=&r"(b0), [x] "=&x"(x), [cc] "+x"(ccs)
        : [T] "r"(falcon_x86_k), [Tm] "m"(*(const uint64_t (*)[28])falcon_x86_k)
        : "cc");
    return falcon_x86_core(x, b, ccs);
}

FALCON_X86_INLINE uint64_t falcon_x86_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_fpr_expm_p63_native(x, ccs);
}

#endif /* FALCON_X86_H */

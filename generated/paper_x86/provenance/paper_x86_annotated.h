/* SPDX-License-Identifier: CC0-1.0
 * paper_x86.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/paper_x86.toml (sha256 16a2044e807052de2ac1847480b1f5118ffd9d204738f939922f49ce20379ad6); regenerate in the project root with:
 *     python3 -m gen render kernels/paper_x86.toml --out generated
 * Parameters other than the defaults: scale_bits = 62, degree = 6,
 *     segments = {kind = "equal", count = 32}
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |paper_x86_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 2.58012 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: Seed paper's x86-64 kernel: 32 segments x degree 6 at 2^62
 *
 * Parameters:
 *   name = "paper_x86"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 64
 *   scale_bits = 62
 *   degree = 6
 *   segments = {"kind": "equal", "count": 32}
 *   error = "absolute"
 *   precision_digits = 50
 *   remez_tolerance = 1e-12
 *   remez_max_iterations = 60
 *   coefficient_scales = null
 *   explicit_coefficients = false
 *   max_abs_error_log2 = null
 *   table_access = "direct"
 *   evaluation = "horner"
 *   form = "direct"
 *   reoptimize = true
 *   wide = false
 *
 * Computed:
 *   inputs z = 0x0 .. 0xb17217f7d1cf79ab (Q0.64); 32 segment(s); pre-shift g = 5
 *   evaluation: horner, form direct; coefficient scales s_j (j = 0..6) = [63, 69, 75, 81, 88, 95, 103]
 *   output: root word at 2^63 -> 2^62 (shift 1, round to nearest)
 *   coefficients re-optimized after rounding (evaluation-aware): yes
 *   table: 32 row(s), 1792 bytes, access direct
 *   real-coefficient minimax error (max over segments): 5.3605e-20
 *   proven |p - f| of the quantized polynomials (max over segments): 6.17261e-20
 *   proven bound of _eval: 1.28472 units of 2^-62
 *   proven bound of _expm_p63: 1.58012 units of 2^-63
 *   proven bound of the Falcon adaptors against the doubles passed (conversions included): 2.58012 units of 2^-63
 *   (bounds: gen/proof/ and docs/error-model.md of fxp-kernels; figures per segment: paper_x86.json)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(PAPER_X86_CONTENT_HASH) && PAPER_X86_CONTENT_HASH != 0xd4076c9fe785c93eu
#error "paper_x86.h: another render of this kernel was included before this one"
#endif
#ifndef PAPER_X86_H
#define PAPER_X86_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define PAPER_X86_CONTENT_HASH 0xd4076c9fe785c93eu

/**
 * paper_x86_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1, converted as the reference does (unspecified but defined outside it).
 * paper_x86_eval(z) ~= f(z / 2^64) 2^62, paper_x86_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; a z above PAPER_X86_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time only where a load takes the same time at every address (SRAM on a Cortex-M3 or M4): the table
 * row depends on the input; no branch does.
 * Products: MUL (x86-64), UMULH (AArch64); on ARMv7-M 16x16->32 MUL/MLA, as UMULL's time depends on its
 * operands (-DFXP_ALLOW_UMULL permits it).
 * One table per program: define PAPER_X86_TABLE_EXTERN in every file that includes this one but one.
 */

/*
 * Fixed-point helpers: the part of runtime/fxp.h this kernel uses, with
 * the prefix fxp_ of every name replaced by paper_x86_fxp_ (so two
 * kernels in one program never share one), unchanged otherwise.
 */
/*
 * Multiplier strategy on the Arm Cortex-M3 (ARMv7-M).
 *
 * The Cortex-M3's long multiplies (UMULL/SMULL: 3 to 5 cycles, UMLAL/SMLAL:
 * 4 to 7) stop early when the upper bits of an operand are zero, so their
 * time depends on the data (Cortex-M3 TRM, ARM DDI 0337, instruction
 * timing).  Its MUL (32x32->32, low word only) takes 1 cycle and MLA 2
 * cycles whatever the operands.  When FXP_MUL16 is defined, every product
 * in this file is therefore built from 16x16->32 products computed with
 * MUL: a product of two numbers below 2^16 is below 2^32, so the low word
 * MUL returns is the whole, exact product.  The partial products are
 * summed with additions (ADDS/ADC), which are constant-time.  The only
 * other multiplies are 32x32->32 products whose low word is all we need
 * (the cross terms of a 64-bit product modulo 2^64): also MUL/MLA.
 * Result: no UMULL, SMULL, UMLAL or SMLAL in any helper, and every helper
 * returns exactly the same bits as the __int128 and 32-bit-limb paths.
 *
 * FXP_MUL16 is selected automatically for ARMv7-M targets (__ARM_ARCH_7M__,
 * e.g. -mcpu=cortex-m3); define FXP_ALLOW_UMULL to keep the faster but
 * data-dependent UMULL path there.  Defining FXP_MUL16 by hand selects the
 * 16-bit path on any target (the tests build it on x86-64 to compare it
 * with unsigned __int128).  ARMv7E-M cores (Cortex-M4/M7) are not
 * selected: their UMULL has a fixed latency.
 */

#if !defined(FXP_MUL16) && defined(__ARM_ARCH_7M__) && !defined(FXP_ALLOW_UMULL)
#define FXP_MUL16 1
#endif

/* The 16-bit-limb helpers are always defined (a kernel configured with
 * multiplier = "mul16" uses them on any target); FXP_MUL16 only decides
 * whether the default helpers below go through them. */
/*
 * x * y exactly, for 32-bit x and y, from four 16x16->32 products.  With
 * x = x1 2^16 + x0 and y = y1 2^16 + y0 (all four halves < 2^16):
 *   x y = p11 2^32 + (p01 + p10) 2^16 + p00,  pij = xi yj < 2^32.
 * The halves are uint32_t values below 2^16 and the products are taken in
 * uint32_t, so the compiler has no 64-bit multiply to rebuild into UMULL.
 * The two cross terms are added one at a time to the 64-bit word
 * p11 2^32 + p00; each addition is exact because the running sum never
 * exceeds the final product, which is < 2^64.
 */
static inline uint64_t paper_x86_fxp_mul16_32x32(uint32_t x, uint32_t y)
{
    uint32_t x0 = x & 0xFFFFu, x1 = x >> 16;
    uint32_t y0 = y & 0xFFFFu, y1 = y >> 16;
    uint32_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t r = ((uint64_t)p11 << 32) | p00;
    r += (uint64_t)p01 << 16;
    r += (uint64_t)p10 << 16;
    return r;
}

/*
 * The exact 128-bit product a * b as (hi, lo), from the four 32x32->64
 * products above (16 MULs).  With a = a1 2^32 + a0, b = b1 2^32 + b0 and
 * qij = ai bj < 2^64:
 *   a b = q11 2^64 + (q01 + q10) 2^32 + q00.
 * t = floor(q00 / 2^32) + q01 + (q10 mod 2^32) is at most
 * (2^32 - 1) + (2^32 - 1)^2 + (2^32 - 1) = 2^64 - 1, so it fits a word;
 * then lo = (t mod 2^32) 2^32 + (q00 mod 2^32) and
 * hi = q11 + floor(t / 2^32) + floor(q10 / 2^32), which is < 2^64
 * because the product is < 2^128.
 */
static inline void paper_x86_fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = paper_x86_fxp_mul16_32x32(a0, b0);
    uint64_t q10 = paper_x86_fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + paper_x86_fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = paper_x86_fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}

/* floor(a * b / 2^64), from four 32x32->64 partial products.  Exact: the
 * middle sum below cannot overflow because each term is < 2^64 - 2^33 + 1
 * and we add at most two 32-bit halves to it. */
static inline uint64_t paper_x86_fxp_mulhi64_portable(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* __extension__ keeps -Wpedantic quiet: unsigned __int128 is a GNU type. */
__extension__ typedef unsigned __int128 paper_x86_fxp_u128;
#endif

#if defined(FXP_MUL16)
/* floor(a * b / 2^64) from 16x16->32 products (see paper_x86_fxp_mul16_64x64); the
 * low word is computed but unused, and the compiler drops it. */
static inline uint64_t paper_x86_fxp_mulhi64(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    paper_x86_fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* floor(a * b / 2^64) with the compiler's 128-bit product (one MUL on
 * x86-64).  Bit-identical to paper_x86_fxp_mulhi64_portable. */
static inline uint64_t paper_x86_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((paper_x86_fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t paper_x86_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return paper_x86_fxp_mulhi64_portable(a, b);
}
#endif

/*
 * a * b mod 2^64.  A plain 64-bit product in C is, on ARMv7-M, one UMULL
 * (a0 b0) plus MUL/MLA for the cross terms, so the 16-bit path replaces
 * only a0 b0: with a = a1 2^32 + a0 and b = b1 2^32 + b0,
 *   a b mod 2^64 = (a0 b0 + ((a0 b1 + a1 b0) mod 2^32) 2^32) mod 2^64,
 * and the cross terms are needed modulo 2^32 only, which is what the
 * single-cycle 32x32->32 MUL/MLA return.
 */
static inline uint64_t paper_x86_fxp_mullo64(uint64_t a, uint64_t b)
{
#if defined(FXP_MUL16)
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t cross = a0 * b1 + a1 * b0;
    return paper_x86_fxp_mul16_32x32(a0, b0) + ((uint64_t)cross << 32);
#else
    return a * b;
#endif
}

/*
 * Coefficient table: one row per segment, K_0 .. K_6 (K_j multiplies
 * v^j, v = T / 2^64).  K_j = round(sigma_j * a_j * 2^s_j), stored modulo
 * 2^64; the scales s_j and signs sigma_j are the same on every row and
 * are listed in paper_x86.h.  1792 bytes.
 */
/* One definition per program: every file that includes this header but one
 * defines PAPER_X86_TABLE_EXTERN and sees only the declaration. */
extern const uint64_t paper_x86_coeffs[32][7];
#ifndef PAPER_X86_TABLE_EXTERN
const uint64_t paper_x86_coeffs[32][7] = {
    /* segment 0: z in [0x0000000000000000, 0x058b90bfbe8e7bcd], proven |p - f| <= 5.915e-20 */
    { UINT64_C(0x8000000000000000), UINT64_C(0xfffffffffffff3e4), UINT64_C(0xffffffffffab102b), UINT64_C(0xaaaaaaa9e441d0cf), UINT64_C(0xaaaaa9006f581c10), UINT64_C(0x8886b972600f3a1e), UINT64_C(0xb41bed2107c632f4) },
    /* segment 1: z in [0x058b90bfbe8e7bce, 0x0b17217f7d1cf79b], proven |p - f| <= 5.826e-20 */
    { UINT64_C(0x7d41d96db915019d), UINT64_C(0xfa83b2db7229f82e), UINT64_C(0xfa83b2db71d96052), UINT64_C(0xa702773c37cd60f0), UINT64_C(0xa702759fc8dd5232), UINT64_C(0x8599cfb9ade80429), UINT64_C(0xb040f5f87b8cd7c2) },
    /* segment 2: z in [0x0b17217f7d1cf79c, 0x10a2b23f3bab7369], proven |p - f| <= 6.173e-20 */
    { UINT64_C(0x7a92be8a92436616), UINT64_C(0xf5257d152486c563), UINT64_C(0xf5257d152444d5c7), UINT64_C(0xa36e5362c3c15234), UINT64_C(0xa36e51e4390c1a61), UINT64_C(0x82bcfc65237eb46f), UINT64_C(0xac7fc126a1b1050d) },
    /* segment 3: z in [0x10a2b23f3bab736a, 0x162e42fefa39ef37], proven |p - f| <= 5.856e-20 */
    { UINT64_C(0x77f25ccdee6d7ae5), UINT64_C(0xefe4b99bdcdaeda1), UINT64_C(0xefe4b99bdc956a4f), UINT64_C(0x9fedd111e6569d32), UINT64_C(0x9fedcf934b0a3d03), UINT64_C(0x7fefcb9b8cfcb155), UINT64_C(0xa8cb458908664ac2) },
    /* segment 4: z in [0x162e42fefa39ef38, 0x1bb9d3beb8c86b05], proven |p - f| <= 5.119e-20 */
    { UINT64_C(0x75606373ee921c96), UINT64_C(0xeac0c6e7dd242b47), UINT64_C(0xeac0c6e7dccde875), UINT64_C(0x9c808499d2cf0ba6), UINT64_C(0x9c808306afd3c153), UINT64_C(0x7d31ed07caee0c72), UINT64_C(0xa525c1451d530fb3) },
    /* segment 5: z in [0x1bb9d3beb8c86b06, 0x2145647e7756e6d3], proven |p - f| <= 5.876e-20 */
    { UINT64_C(0x72dc8373be41a453), UINT64_C(0xe5b906e77c83428e), UINT64_C(0xe5b906e77c46595d), UINT64_C(0x99260499b4f12157), UINT64_C(0x99260334b45401c9), UINT64_C(0x7a833f9e829c18ab), UINT64_C(0xa1a5ca74668ae90d) },
    /* segment 6: z in [0x2145647e7756e6d4, 0x26d0f53e35e562a1], proven |p - f| <= 5.357e-20 */
    { UINT64_C(0x70666f76154a7087), UINT64_C(0xe0ccdeec2a94d84c), UINT64_C(0xe0ccdeec2a5025dc), UINT64_C(0x95dde9f22060c1e7), UINT64_C(0x95dde885d0d9e936), UINT64_C(0x77e329fd471a8588), UINT64_C(0x9e2b09872b9d23fe) },
    /* segment 7: z in [0x26d0f53e35e562a2, 0x2c5c85fdf473de6f], proven |p - f| <= 5.488e-20 */
    { UINT64_C(0x6dfddbcbed791ba9), UINT64_C(0xdbfbb797daf2308a), UINT64_C(0xdbfbb797dab4bcb7), UINT64_C(0x92a7cfb9f670abe5), UINT64_C(0x92a7ce5ee209d7ea), UINT64_C(0x7551899a9de66467), UINT64_C(0x9ac9ed36a260eabe) },
    /* segment 8: z in [0x2c5c85fdf473de70, 0x31e816bdb3025a3d], proven |p - f| <= 4.970e-20 */
    { UINT64_C(0x6ba27e656b4eb578), UINT64_C(0xd744fccad69d60e6), UINT64_C(0xd744fccad6566ddd), UINT64_C(0x8f8353313e1fe13a), UINT64_C(0x8f8351cc28cf2fa0), UINT64_C(0x72cdf0bfafa3ce40), UINT64_C(0x97742b75e5bf8336) },
    /* segment 9: z in [0x31e816bdb3025a3e, 0x3773a77d7190d60b], proven |p - f| <= 5.297e-20 */
    { UINT64_C(0x69540ec8f895722b), UINT64_C(0xd2a81d91f12ade5f), UINT64_C(0xd2a81d91f0f1c2f1), UINT64_C(0x8c7013b60e28db26), UINT64_C(0x8c70126c959f424b), UINT64_C(0x7058388621ccff72), UINT64_C(0x943ab336b526a055) },
    /* segment 10: z in [0x3773a77d7190d60c, 0x3cff383d301f51d9], proven |p - f| <= 4.338e-20 */
    { UINT64_C(0x6712460a8fc2406f), UINT64_C(0xce248c151f8472cb), UINT64_C(0xce248c151f333b02), UINT64_C(0x896db2b80fb6bff0), UINT64_C(0x896db14dd8963c9b), UINT64_C(0x6defdb6fcedd1001), UINT64_C(0x910313e598dfa1fe) },
    /* segment 11: z in [0x3cff383d301f51da, 0x428ac8fceeadcda7], proven |p - f| <= 5.577e-20 */
    { UINT64_C(0x64dcdec3371793ce), UINT64_C(0xc9b9bd866e2f19d6), UINT64_C(0xc9b9bd866ddf9f94), UINT64_C(0x867bd3ae47edc7a8), UINT64_C(0x867bd24bd3c0c0f0), UINT64_C(0x6b94cad77e060db1), UINT64_C(0x8de79b51d7ea7389) },
    /* segment 12: z in [0x428ac8fceeadcda8, 0x481659bcad3c4975], proven |p - f| <= 5.015e-20 */
    { UINT64_C(0x62b39508aa836d6c), UINT64_C(0xc5672a115506d581), UINT64_C(0xc5672a1154d227e1), UINT64_C(0x839a1c0b05bd3bb7), UINT64_C(0x839a1ad7ae40c4e4), UINT64_C(0x6946bda1d2c3b136), UINT64_C(0x8ae79e4c7d835d90) },
    /* segment 13: z in [0x481659bcad3c4976, 0x4da1ea7c6bcac543], proven |p - f| <= 4.284e-20 */
    { UINT64_C(0x6096266533384a28), UINT64_C(0xc12c4cca66708986), UINT64_C(0xc12c4cca662b79a8), UINT64_C(0x80c83330fd8af2c8), UINT64_C(0x80c831e82fdef0c4), UINT64_C(0x67052d5f3dd73a0b), UINT64_C(0x87e62f8c8fa0ac94) },
    /* segment 14: z in [0x4da1ea7c6bcac544, 0x532d7b3c2a594111], proven |p - f| <= 4.293e-20 */
    { UINT64_C(0x5e8451cfac061b5c), UINT64_C(0xbd08a39f580c2d07), UINT64_C(0xbd08a39f57cb342f), UINT64_C(0x7e05c269a5448cc6), UINT64_C(0x7e05c12be96796c7), UINT64_C(0x64d01049a164792c), UINT64_C(0x84fdc1a014795aa4) },
    /* segment 15: z in [0x532d7b3c2a594112, 0x58b90bfbe8e7bcdf], proven |p - f| <= 4.140e-20 */
    { UINT64_C(0x5c7dd7a3b17dcf71), UINT64_C(0xb8fbaf4762fb94a4), UINT64_C(0xb8fbaf4762b9b4b5), UINT64_C(0x7b5274d9acd989ee), UINT64_C(0x7b52739f359a7a73), UINT64_C(0x62a70abd284a4eb2), UINT64_C(0x82234cb7f8be282f) },
    /* segment 16: z in [0x58b90bfbe8e7bce0, 0x5e449cbba77638ad], proven |p - f| <= 4.887e-20 */
    { UINT64_C(0x5a827999fcef323f), UINT64_C(0xb504f333f9de61b7), UINT64_C(0xb504f333f9b55fef), UINT64_C(0x78adf77788d8252e), UINT64_C(0x78adf66a3fcf561a), UINT64_C(0x6089f7bb9ab6cdb9), UINT64_C(0x7f63c19139973d9a) },
    /* segment 17: z in [0x5e449cbba77638ae, 0x63d02d7b6604b47b], proven |p - f| <= 4.030e-20 */
    { UINT64_C(0x5891fac0e95612c4), UINT64_C(0xb123f581d2ac1c91), UINT64_C(0xb123f581d26f92ef), UINT64_C(0x7617f900ab86f8d3), UINT64_C(0x7617f7d777112b4f), UINT64_C(0x5e7851ebbcd65717), UINT64_C(0x7c9fde5ba14e4196) },
    /* segment 18: z in [0x63d02d7b6604b47c, 0x695bbe3b24933049], proven |p - f| <= 3.679e-20 */
    { UINT64_C(0x56ac1f752150a55f), UINT64_C(0xad583eea42a13f51), UINT64_C(0xad583eea425e2342), UINT64_C(0x739029f0ef41ccca), UINT64_C(0x739028c21d57bf86), UINT64_C(0x5c7212964f6ec4b6), UINT64_C(0x79f11e0e5629156e) },
    /* segment 19: z in [0x695bbe3b2493304a, 0x6ee74efae321ac17], proven |p - f| <= 3.698e-20 */
    { UINT64_C(0x54d0ad5a753e0778), UINT64_C(0xa9a15ab4ea7c04cd), UINT64_C(0xa9a15ab4ea3d66a1), UINT64_C(0x71163c7810c7670b), UINT64_C(0x71163b5454056f2d), UINT64_C(0x5a76f7c83c2a82c7), UINT64_C(0x7755631c0949e0bd) },
    /* segment 20: z in [0x6ee74efae321ac18, 0x7472dfbaa1b027e5], proven |p - f| <= 3.872e-20 */
    { UINT64_C(0x52ff6b54d8a89c71), UINT64_C(0xa5fed6a9b1513181), UINT64_C(0xa5fed6a9b11b9bfb), UINT64_C(0x6ea9e470a219fa3f), UINT64_C(0x6ea9e35f0f4f586a), UINT64_C(0x5886bf085bb1eb4e), UINT64_C(0x74c9e632a93d2878) },
    /* segment 21: z in [0x7472dfbaa1b027e6, 0x79fe707a603ea3b3], proven |p - f| <= 3.609e-20 */
    { UINT64_C(0x513821818624b408), UINT64_C(0xa27043030c495f48), UINT64_C(0xa27043030c102b37), UINT64_C(0x6c4ad756db600a1b), UINT64_C(0x6c4ad643b44eb387), UINT64_C(0x56a11cfdbde2550b), UINT64_C(0x72474aa4927a792c) },
    /* segment 22: z in [0x79fe707a603ea3b4, 0x7f8a013a1ecd1f81], proven |p - f| <= 5.419e-20 */
    { UINT64_C(0x4f7a993048d088d2), UINT64_C(0x9ef5326091a106ca), UINT64_C(0x9ef5326091626622), UINT64_C(0x69f8cc3fd9661f6c), UINT64_C(0x69f8cb288b0266b6), UINT64_C(0x54c5e16f1f9dd815), UINT64_C(0x6fd1ce6102a67e9b) },
    /* segment 23: z in [0x7f8a013a1ecd1f82, 0x851591f9dd5b9b4f], proven |p - f| <= 3.726e-20 */
    { UINT64_C(0x4dc69cdceaa72a98), UINT64_C(0x9b8d39b9d54e4f03), UINT64_C(0x9b8d39b9d51e6744), UINT64_C(0x67b37bd0c50e8104), UINT64_C(0x67b37ad4168bb595), UINT64_C(0x52f4e6b5f8c7147c), UINT64_C(0x6d71d08b59b7f14b) },
    /* segment 24: z in [0x851591f9dd5b9b50, 0x8aa122b99bea171d], proven |p - f| <= 3.378e-20 */
    { UINT64_C(0x4c1bf828c6dc54b3), UINT64_C(0x9837f0518db8a0b5), UINT64_C(0x9837f0518d81a4c7), UINT64_C(0x657aa035e2c6eeca), UINT64_C(0x657a9f31edef5d31), UINT64_C(0x512dcf219fa1fc9c), UINT64_C(0x6b161bbee746cba1) },
    /* segment 25: z in [0x8aa122b99bea171e, 0x902cb3795a7892eb], proven |p - f| <= 3.414e-20 */
    { UINT64_C(0x4a7a77d47f7b84ac), UINT64_C(0x94f4efa8fef70255), UINT64_C(0x94f4efa8fec5b657), UINT64_C(0x634df51ae150a04c), UINT64_C(0x634df423760ad675), UINT64_C(0x4f70838283ccd82d), UINT64_C(0x68cc80b357f9419e) },
    /* segment 26: z in [0x902cb3795a7892ec, 0x95b8443919070eb9], proven |p - f| <= 3.857e-20 */
    { UINT64_C(0x48e1e9b9d588e196), UINT64_C(0x91c3d373ab11b938), UINT64_C(0x91c3d373aad84b36), UINT64_C(0x612d37a1f59edc0d), UINT64_C(0x612d36a1d5a3e6d2), UINT64_C(0x4dbcb6567a632dff), UINT64_C(0x6689fae101b65fd3) },
    /* segment 27: z in [0x95b8443919070eba, 0x9b43d4f8d7958a87], proven |p - f| <= 3.669e-20 */
    { UINT64_C(0x47521cc5a2e6a9db), UINT64_C(0x8ea4398b45cd4959), UINT64_C(0x8ea4398b45934d69), UINT64_C(0x5f18265c5d3ea67a), UINT64_C(0x5f18255f1b840597), UINT64_C(0x4c12466eed9eaacb), UINT64_C(0x6456d44458370031) },
    /* segment 28: z in [0x9b43d4f8d7958a88, 0xa0cf65b896240655], proven |p - f| <= 3.892e-20 */
    { UINT64_C(0x45cae0f1f545eb6f), UINT64_C(0x8b95c1e3ea8bd534), UINT64_C(0x8b95c1e3ea6ded43), UINT64_C(0x5d0e814246021208), UINT64_C(0x5d0e8075abc3e0e5), UINT64_C(0x4a7114db8ced23ab), UINT64_C(0x623bf2bf984b9f3d) },
    /* segment 29: z in [0xa0cf65b896240656, 0xa65af67854b28223], proven |p - f| <= 3.481e-20 */
    { UINT64_C(0x444c0740496d428f), UINT64_C(0x88980e8092da8158), UINT64_C(0x88980e8092b5cb73), UINT64_C(0x5b1009aaadec79bd), UINT64_C(0x5b1008d593d339e3), UINT64_C(0x48d8b27c4f339f24), UINT64_C(0x601d8913c2a8b5f0) },
    /* segment 30: z in [0xa65af67854b28224, 0xabe687381340fdf1], proven |p - f| <= 4.766e-20 */
    { UINT64_C(0x42d561b3e6243d85), UINT64_C(0x85aac367cc4871ea), UINT64_C(0x85aac367cc13c81c), UINT64_C(0x591c8244c0c1ac7d), UINT64_C(0x591c8159e2a74b67), UINT64_C(0x4749089a2a30c66d), UINT64_C(0x5e0756796b71049c) },
    /* segment 31: z in [0xabe687381340fdf2, 0xb17217f7d1cf79ab], proven |p - f| <= 4.163e-20 */
    { UINT64_C(0x4166c34c5615d0e7), UINT64_C(0x82cd8698ac2ba2be), UINT64_C(0x82cd8698ac195c29), UINT64_C(0x5733af102fd5f097), UINT64_C(0x5733ae62c26b6c68), UINT64_C(0x45c22066171779b9), UINT64_C(0x5c12f1408e6f8674) },
};
#endif

#define PAPER_X86_SCALE_BITS 62
#define PAPER_X86_SEGMENTS 32
#define PAPER_X86_DEGREE 6
#define PAPER_X86_WORD_BITS 64
#define PAPER_X86_TABLE_BYTES 1792
/* Scale of paper_x86_core's result: U = p(v) * 2^63. */
#define PAPER_X86_CORE_SCALE 63
/* Last valid input: z_max = floor(ln 2 * 2^64) for the default domain. */
#define PAPER_X86_Z_MAX UINT64_C(0xb17217f7d1cf79ab)

/*
 * Proven error bounds (upper bounds, rounded up; computed by gen/proof/ of
 * fxp-kernels with exact rational and interval arithmetic, docs/error-model.md):
 *   paper_x86_eval:      |eval(z) - f(z / 2^64) * 2^62| <= PAPER_X86_ERR_BOUND_ULP units of 2^-62
 *   paper_x86_expm_p63:  |expm(z, w) - (w / 2^64) f(z / 2^64) 2^63| <= PAPER_X86_EXPM_P63_ERR_BOUND units of 2^-63
 */
#define PAPER_X86_ERR_BOUND_ULP 1.28472
#define PAPER_X86_EXPM_P63_ERR_BOUND 1.58012

/*
 * paper_x86_core(z): the polynomial of z's segment, evaluated in fixed point.
 *
 * Input z is Q0.64 (x = z / 2^64).  Segment selection (32 equal segments of 399572145162582990 inputs (width ~ (hi - lo) / 32)):
 *   idx = floor(u / 399572145162582990) = mulhi(u, M) >> 58, exact for every
 *   u = z - z_lo <= 12786308645202655659 (proof: gen/segments.py, _division_magic);
 *   t = u - idx * 399572145162582990.  Cost: one multiply-high, one shift,
 *   one multiply by a small constant and a subtraction.
 * The local variable is T = t << 5, read as v = T / 2^64 in [0, 1).
 *
 * Horner's scheme on unsigned words, sign-magnitude: each word U
 * stands for sigma U 2^-s with a sign sigma and scale s fixed for every
 * segment, so products are truncated multiply-highs
 * mulhi(a, b) = floor(a b / 2^64) and sums are additions or subtractions,
 * aligned by constant shifts.  The ranges next to each step are proven for
 * every input of every segment by exact integer interval arithmetic: no
 * step overflows.
 * Table access: direct (the segment index, which depends on the
 * secret input, selects a table row: not constant-time on CPUs with data
 * caches; use table_access = "ct_scan" there).
 */
static inline uint64_t paper_x86_core(uint64_t z)
{
    uint64_t u = z;
    /* idx = floor(u / 399572145162582990) exactly, for every u <= 12786308645202655659. */
    uint64_t idx = paper_x86_fxp_mulhi64(u, UINT64_C(0xb8aa3b295c17f0a7)) >> 58;
    /* paper_x86_fxp_mullo64, not `*`: a 64-bit product is a UMULL on 32-bit ARM. */
    uint64_t T = (u - paper_x86_fxp_mullo64(idx, UINT64_C(399572145162582990))) << 5;
    /* idx = min(idx, 31) without a branch, so that no z, in the domain or
     * not, reads past the table (idx < 2^31: the difference's borrow is bit 31). */
    idx -= (idx - 31u) & (uint64_t)(0u - ((uint32_t)(31u - (uint32_t)idx) >> 31));
    const uint64_t *k = paper_x86_coeffs[idx];
    uint64_t mul3 = paper_x86_fxp_mulhi64(k[6], T);  /* v*y6: +U 2^-103, U in [0x0000000000000000, 0x7cd794404bf206cd] */
    uint64_t y5 = k[5] - (mul3 >> 8);  /* y5: -U 2^-95, U in [0x45824e443b30d589, 0x8886b972600f3a1e] */
    uint64_t mul6 = paper_x86_fxp_mulhi64(y5, T);  /* v*y5: -U 2^-95, U in [0x0000000000000000, 0x5e50a06d061d5478] */
    uint64_t y4 = k[4] - (mul6 >> 7);  /* y4: +U 2^-88, U in [0x56d34cf5b1227e69, 0xaaaaa9006f581c10] */
    uint64_t mul9 = paper_x86_fxp_mulhi64(y4, T);  /* v*y4: +U 2^-88, U in [0x0000000000000000, 0x75d123a796eafa3b] */
    uint64_t y3 = k[3] - (mul9 >> 7);  /* y3: -U 2^-81, U in [0x56bb497b06b0f5e7, 0xaaaaaaa9e441d0cf] */
    uint64_t mul12 = paper_x86_fxp_mulhi64(y3, T);  /* v*y3: -U 2^-81, U in [0x0000000000000000, 0x75b285698dcd7a76] */
    uint64_t y2 = k[2] - (mul12 >> 6);  /* y2: +U 2^-75, U in [0x81dcfa0253b1d07a, 0xffffffffffab102b] */
    uint64_t mul15 = paper_x86_fxp_mulhi64(y2, T);  /* v*y2: +U 2^-75, U in [0x0000000000000000, 0xb03f57c4f410b20d] */
    uint64_t y1 = k[1] - (mul15 >> 6);  /* y1: -U 2^-69, U in [0x81654ff0d5e89211, 0xfffffffffffff3e4] */
    uint64_t mul18 = paper_x86_fxp_mulhi64(y1, T);  /* v*y1: -U 2^-69, U in [0x0000000000000000, 0xafa6cbb6cf1fa376] */
    uint64_t y0 = k[0] - (mul18 >> 6);  /* y0: +U 2^-63, U in [0x3fffc46addfc566d, 0x8000000000000000] */
    return y0;
}

/* paper_x86_eval(z) ~= f(z / 2^64) * 2^62: the root word rounded to nearest from scale 2^63. */
static inline uint64_t paper_x86_eval(uint64_t z)
{
    return (paper_x86_core(z) + UINT64_C(0x1)) >> 1;
}

/* ccs * U_0, moved from scale 2^63 to 2^63 (truncated): w is Q0.64 (ccs = w / 2^64). */
static inline uint64_t paper_x86_expm_p63_core(uint64_t u, uint64_t w)
{
    return paper_x86_fxp_mulhi64(w, u);
}

/* paper_x86_expm_p63(z, w) ~= (w / 2^64) * exp(-z / 2^64) * 2^63. */
static inline uint64_t paper_x86_expm_p63(uint64_t z, uint64_t w)
{
    return paper_x86_expm_p63_core(paper_x86_core(z), w);
}


#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * Falcon-facing adaptors: drop-in replacements for fpr_expm_p63(x, ccs),
 * which Falcon calls with 0 <= x < ln 2 and ccs in about [0.61, 1).
 *
 *   paper_x86_fpr_expm_p63(x_bits, ccs_bits)  emulated-float builds: the
 *       arguments are IEEE-754 binary64 bit patterns (Falcon's fpr);
 *       integer operations only and no branch that depends on them; the
 *       table row is chosen by x (table_access = "direct": constant-time
 *       only where a load takes the same time at every address, such as
 *       SRAM on a Cortex-M3).
 *   paper_x86_fpr_expm_p63_native(x, ccs)  native-float builds.
 *   paper_x86_fpr_expm_p63_domain(x, ccs) and _domain_bits(x_bits, ccs_bits):
 *       Falcon's own contract, 0 <= x < ln 2 and 0 <= ccs < 1, without the
 *       rules below (see their comments).
 *
 * The first two return ~= ccs * exp(-x) * 2^63 and agree on every input.
 * Inputs in the domain are converted exactly as the reference does,
 * z = 2 * trunc(x * 2^63) and w = 2 * trunc(ccs * 2^63) (Q0.64), so a
 * kernel that reproduces the reference polynomial reproduces its outputs.
 * Proven bound: PAPER_X86_FPR_EXPM_P63_ERR_BOUND units of 2^-63: that of
 * paper_x86_expm_p63 plus one unit on each side for what the two
 * truncations drop (gen/proof/output.py, conversion_interval).
 *
 * Outside the domain (all defined, no undefined behaviour):
 *   - x < 0 (including -0 and -inf) is treated as x = 0;
 *   - x above the largest double below ln 2 (range reduction in double can
 *     give r slightly above ln 2), and +inf, are clamped to that double;
 *   - x NaN is treated as 0; ccs NaN or ccs <= 0 gives 0;
 *   - ccs >= 1 (including +inf) is treated as exactly 1: the result is then
 *     U_0 moved to scale 2^63, ~= exp(-x) * 2^63 (the reference returns 0
 *     for ccs == 1.0, because 2^63 overflows its signed truncation).
 */

/* Proven bound of every adaptor below: |result - ccs exp(-x) 2^63| in
 * units of 2^-63, x and ccs the doubles passed, in the domain, the
 * conversions included (gen/proof/ and docs/error-model.md of fxp-kernels). */
#define PAPER_X86_FPR_EXPM_P63_ERR_BOUND 2.58012

/* The bits of the largest double below ln 2, 0.69314718055994528623. */
#define PAPER_X86_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
/* 2 * trunc(LN2_DOWN * 2^63): the z every clamped x maps to. */
#define PAPER_X86_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
/* The bits of the largest double below 1. */
#define PAPER_X86_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

/*
 * 2 * trunc(v * 2^63) for 0 <= v < 1, from v's bits, without a branch.
 * Write v = m * 2^(e - 1085) with m the significand (implicit bit included)
 * aligned so that its top bit is bit 62; v * 2^63 = m * 2^(e - 1022), so
 * the truncation is m >> (1022 - e).  Shifts of 64 or more must give 0:
 * the shift count is reduced modulo 64 and the result masked, as the
 * reference does.  Inputs with e > 1022 (v >= 1) give 0 here; callers mask
 * them.
 */
static inline uint64_t paper_x86_fpr_to_q64(uint64_t bits)
{
    uint32_t e = (uint32_t)(bits >> 52) & 0x7FF;
    uint64_t m = ((bits << 10) | ((uint64_t)1 << 62)) & (((uint64_t)1 << 63) - 1);
    uint64_t s = (uint64_t)(uint32_t)(1022u - e);
    uint64_t keep = (uint64_t)0 - ((s - 64) >> 63);  /* all ones iff s < 64 */
    return ((m >> (s & 63)) & keep) << 1;
}

/* The result for ccs == 1: U (scale 2^63) moved to scale 2^63. */
static inline uint64_t paper_x86_core_to_p63(uint64_t u)
{
    return u;
}

/* The shared tail of both adaptors; c_one is all ones when ccs >= 1. */
static inline uint64_t paper_x86_expm_p63_sat(uint64_t z, uint64_t w, uint64_t c_one)
{
    uint64_t u = paper_x86_core(z);
    uint64_t r = paper_x86_expm_p63_core(u, w & ~c_one);
    return (r & ~c_one) | (paper_x86_core_to_p63(u) & c_one);
}

static inline uint64_t paper_x86_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    /* Each mask is all ones or zero, from the top bit of a difference of
     * 63-bit quantities (which cannot wrap past the top bit). */
    uint64_t x_nan = (uint64_t)0 - ((inf_bits - (x_bits & abs_mask)) >> 63);
    uint64_t x_neg = (uint64_t)0 - (x_bits >> 63);
    uint64_t x_big = (uint64_t)0 - ((PAPER_X86_LN2_DOWN_BITS - (x_bits & abs_mask)) >> 63);
    uint64_t c_nan = (uint64_t)0 - ((inf_bits - (ccs_bits & abs_mask)) >> 63);
    uint64_t c_neg = (uint64_t)0 - (ccs_bits >> 63);
    uint64_t c_one = (uint64_t)0 - ((PAPER_X86_ONE_DOWN_BITS - (ccs_bits & abs_mask)) >> 63);
    uint64_t z = paper_x86_fpr_to_q64(x_bits);
    uint64_t w = paper_x86_fpr_to_q64(ccs_bits);
    z = (z & ~x_big) | (PAPER_X86_Z_CLAMP & x_big);
    z &= ~(x_neg | x_nan);
    w &= ~(c_neg | c_nan);
    c_one &= ~(c_neg | c_nan);
    return paper_x86_expm_p63_sat(z, w, c_one);
}

/*
 * Native-float adaptor.  The inputs' bit patterns go through the integer
 * adaptor above, so the result is bit-identical to paper_x86_fpr_expm_p63
 * on every input, by construction.
 * Two simpler-looking alternatives are worse: a clamp written as
 * `x > 0.0 ? x : 0.0` compiles to a compare-and-jump on the secret (gcc 12
 * at -O2 does), and clamping the bits and then converting with a cast
 * through int64_t (CVTTSD2SI) puts two register moves, a multiply and the
 * conversion on the critical path, where the integer conversion needs a
 * move and a few single-cycle operations.
 */
static inline uint64_t paper_x86_fpr_expm_p63_native(double x, double ccs)
{
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return paper_x86_fpr_expm_p63(x_bits, c_bits);
}

/*
 * The Falcon-domain adaptors keep Falcon's own contract for fpr_expm_p63:
 * 0 <= x < ln 2 and 0 <= ccs < 1 (what its sampler passes), and its native
 * conversions z = 2 * trunc(x * 2^63), w = 2 * trunc(ccs * 2^63) (one
 * multiplication by 2^63, exact, and one CVTTSD2SI each, like the
 * reference).  On that domain they return exactly what
 * paper_x86_fpr_expm_p63_native returns (tested), with the same proven
 * bound, and skip the edge rules above.  Outside it the result is
 * unspecified but the call stays defined and reads only the table (the
 * kernel's core keeps every index inside it).
 * This is the conversion: on x86-64 the SSE2 intrinsic, which returns 2^63
 * for out-of-range and NaN inputs (where a C cast would be undefined), and
 * elsewhere the integer conversion of the bits.  No branch and no
 * secret-dependent address.
 */
static inline uint64_t paper_x86_domain_q64(double v)
{
#if defined(__x86_64__) && defined(__SSE2__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(v * 9223372036854775808.0)) << 1;
#else
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return paper_x86_fpr_to_q64(bits);
#endif
}

static inline uint64_t paper_x86_fpr_expm_p63_domain(double x, double ccs)
{
    /* No clamp here: paper_x86_core keeps every z inside the table. */
    return paper_x86_expm_p63(paper_x86_domain_q64(x), paper_x86_domain_q64(ccs));
}

/* The Falcon-domain adaptor for emulated-float builds: the same function on
 * the inputs' IEEE-754 bit patterns (see paper_x86_fpr_expm_p63_domain). */
static inline uint64_t paper_x86_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return paper_x86_fpr_expm_p63_domain(x, ccs);
}


#endif /* PAPER_X86_H */

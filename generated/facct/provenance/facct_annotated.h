/* SPDX-License-Identifier: CC0-1.0
 * facct.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/facct.toml (sha256 2248852b45f3b7b20344f1f156fe66c8a42fff47b5c2d880816fe93e85ba2473); regenerate in the project root with:
 *     python3 -m gen render kernels/facct.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 12, explicit_coefficients = true
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |facct_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 3565.45 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: FACCT reference polynomial (Falcon ApproxExp), explicit coefficients
 *
 * Parameters:
 *   name = "facct"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 64
 *   scale_bits = 63
 *   degree = 12
 *   segments = {"kind": "equal", "count": 1}
 *   error = "absolute"
 *   precision_digits = 50
 *   remez_tolerance = 1e-12
 *   remez_max_iterations = 60
 *   coefficient_scales = null
 *   explicit_coefficients = true
 *   max_abs_error_log2 = null
 *   table_access = "direct"
 *   evaluation = "horner"
 *   form = "direct"
 *   reoptimize = true
 *   wide = false
 *
 * Computed:
 *   inputs z = 0x0 .. 0xb17217f7d1cf79ab (Q0.64); 1 segment(s); pre-shift g = 0
 *   evaluation: horner, form direct; coefficient scales s_j (j = 0..12) = [63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63]
 *   output: root word at 2^63 -> 2^63 (shift 0, round to nearest)
 *   coefficients re-optimized after rounding (evaluation-aware): no
 *   table: 1 row(s), 104 bytes, access none (one segment: table_access has no effect)
 *   proven |p - f| of the quantized polynomials (max over segments): 3.86252e-16
 *   proven bound of _eval: 3564.45 units of 2^-63
 *   proven bound of _expm_p63: 3564.45 units of 2^-63
 *   proven bound of the Falcon adaptors against the doubles passed (conversions included): 3565.45 units of 2^-63
 *   (bounds: gen/proof/ and docs/error-model.md of fxp-kernels; figures per segment: facct.json)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FACCT_CONTENT_HASH) && FACCT_CONTENT_HASH != 0xf234c7708db77e41u
#error "facct.h: another render of this kernel was included before this one"
#endif
#ifndef FACCT_H
#define FACCT_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define FACCT_CONTENT_HASH 0xf234c7708db77e41u

/**
 * facct_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1, converted as the reference does (unspecified but defined outside it).
 * facct_eval(z) ~= f(z / 2^64) 2^63, facct_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; a z above FACCT_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time: no branch, table index or variable-latency instruction depends on an input.
 * Products: MUL (x86-64), UMULH (AArch64); on ARMv7-M 16x16->32 MUL/MLA, as UMULL's time depends on its
 * operands (-DFXP_ALLOW_UMULL permits it).
 * One table per program: define FACCT_TABLE_EXTERN in every file that includes this one but one.
 */

/*
 * Fixed-point helpers: the part of runtime/fxp.h this kernel uses, with
 * the prefix fxp_ of every name replaced by facct_fxp_ (so two
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
static inline uint64_t facct_fxp_mul16_32x32(uint32_t x, uint32_t y)
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
static inline void facct_fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = facct_fxp_mul16_32x32(a0, b0);
    uint64_t q10 = facct_fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + facct_fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = facct_fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}

/* floor(a * b / 2^64), from four 32x32->64 partial products.  Exact: the
 * middle sum below cannot overflow because each term is < 2^64 - 2^33 + 1
 * and we add at most two 32-bit halves to it. */
static inline uint64_t facct_fxp_mulhi64_portable(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* __extension__ keeps -Wpedantic quiet: unsigned __int128 is a GNU type. */
__extension__ typedef unsigned __int128 facct_fxp_u128;
#endif

#if defined(FXP_MUL16)
/* floor(a * b / 2^64) from 16x16->32 products (see facct_fxp_mul16_64x64); the
 * low word is computed but unused, and the compiler drops it. */
static inline uint64_t facct_fxp_mulhi64(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    facct_fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* floor(a * b / 2^64) with the compiler's 128-bit product (one MUL on
 * x86-64).  Bit-identical to facct_fxp_mulhi64_portable. */
static inline uint64_t facct_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((facct_fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t facct_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return facct_fxp_mulhi64_portable(a, b);
}
#endif

/*
 * Coefficient table: one row per segment, K_0 .. K_12 (K_j multiplies
 * v^j, v = T / 2^64).  K_j = round(sigma_j * a_j * 2^s_j), stored modulo
 * 2^64; the scales s_j and signs sigma_j are the same on every row and
 * are listed in facct.h.  104 bytes.
 */
/* One definition per program: every file that includes this header but one
 * defines FACCT_TABLE_EXTERN and sees only the declaration. */
extern const uint64_t facct_coeffs[1][13];
#ifndef FACCT_TABLE_EXTERN
const uint64_t facct_coeffs[1][13] = {
    /* segment 0: z in [0x0000000000000000, 0xb17217f7d1cf79ab], proven |p - f| <= 3.863e-16 */
    { UINT64_C(0x8000000000000000), UINT64_C(0x7fffffffffff4800), UINT64_C(0x400000000002b400), UINT64_C(0x155555555581ff00), UINT64_C(0x0555555555070f00), UINT64_C(0x011111110e066fd0), UINT64_C(0x002d82d8305b0fea), UINT64_C(0x000680681cf796e3), UINT64_C(0x0000d00cf58f6f84), UINT64_C(0x0000171d939de045), UINT64_C(0x0000024fdcbf140a), UINT64_C(0x00000036548cfc06), UINT64_C(0x00000004741183a3) },
};
#endif

#define FACCT_SCALE_BITS 63
#define FACCT_SEGMENTS 1
#define FACCT_DEGREE 12
#define FACCT_WORD_BITS 64
#define FACCT_TABLE_BYTES 104
/* Scale of facct_core's result: U = p(v) * 2^63. */
#define FACCT_CORE_SCALE 63
/* Last valid input: z_max = floor(ln 2 * 2^64) for the default domain. */
#define FACCT_Z_MAX UINT64_C(0xb17217f7d1cf79ab)

/*
 * Proven error bounds (upper bounds, rounded up; computed by gen/proof/ of
 * fxp-kernels with exact rational and interval arithmetic, docs/error-model.md):
 *   facct_eval:      |eval(z) - f(z / 2^64) * 2^63| <= FACCT_ERR_BOUND_ULP units of 2^-63
 *   facct_expm_p63:  |expm(z, w) - (w / 2^64) f(z / 2^64) 2^63| <= FACCT_EXPM_P63_ERR_BOUND units of 2^-63
 */
#define FACCT_ERR_BOUND_ULP 3564.45
#define FACCT_EXPM_P63_ERR_BOUND 3564.45

/*
 * facct_core(z): the polynomial of z's segment, evaluated in fixed point.
 *
 * Input z is Q0.64 (x = z / 2^64).  Segment selection (one segment):
 *   no index: t = u = z - z_lo.
 * The local variable is T = t << 0, read as v = T / 2^64 in [0, 1).
 *
 * Horner's scheme on unsigned words, sign-magnitude: each word U
 * stands for sigma U 2^-s with a sign sigma and scale s fixed for every
 * segment, so products are truncated multiply-highs
 * mulhi(a, b) = floor(a b / 2^64) and sums are additions or subtractions,
 * aligned by constant shifts.  The ranges next to each step are proven for
 * every input of every segment by exact integer interval arithmetic: no
 * step overflows.
 * Table access: none (one polynomial, no index).
 */
static inline uint64_t facct_core(uint64_t z)
{
    uint64_t u = z;
    const uint64_t *k = facct_coeffs[0];
    uint64_t T = u;
    uint64_t mul3 = facct_fxp_mulhi64(k[12], T);  /* v*y12: +U 2^-63, U in [0x0000000000000000, 0x00000003163c368d] */
    uint64_t y11 = k[11] - mul3;  /* y11: -U 2^-63, U in [0x000000333e50c579, 0x00000036548cfc06] */
    uint64_t mul6 = facct_fxp_mulhi64(y11, T);  /* v*y11: -U 2^-63, U in [0x0000000000000000, 0x00000023a59d43c1] */
    uint64_t y10 = k[10] - mul6;  /* y10: +U 2^-63, U in [0x0000022c3721d049, 0x0000024fdcbf140a] */
    uint64_t mul9 = facct_fxp_mulhi64(y10, T);  /* v*y10: +U 2^-63, U in [0x0000000000000000, 0x0000018318d526b2] */
    uint64_t y9 = k[9] - mul9;  /* y9: -U 2^-63, U in [0x0000159a7ac8b993, 0x0000171d939de045] */
    uint64_t mul12 = facct_fxp_mulhi64(y9, T);  /* v*y9: -U 2^-63, U in [0x0000000000000000, 0x00000f0a772543c3] */
    uint64_t y8 = k[8] - mul12;  /* y8: +U 2^-63, U in [0x0000c1027e6a2bc1, 0x0000d00cf58f6f84] */
    uint64_t mul15 = facct_fxp_mulhi64(y8, T);  /* v*y8: +U 2^-63, U in [0x0000000000000000, 0x0000867321c4b3ad] */
    uint64_t y7 = k[7] - mul15;  /* y7: -U 2^-63, U in [0x0005f9f4fb32e336, 0x000680681cf796e3] */
    uint64_t mul18 = facct_fxp_mulhi64(y7, T);  /* v*y7: -U 2^-63, U in [0x0000000000000000, 0x00042a7b2ce3764a] */
    uint64_t y6 = k[6] - mul18;  /* y6: +U 2^-63, U in [0x0029585d037799a0, 0x002d82d8305b0fea] */
    uint64_t mul21 = facct_fxp_mulhi64(y6, T);  /* v*y6: +U 2^-63, U in [0x0000000000000000, 0x001cd88c60316792] */
    uint64_t y5 = k[5] - mul21;  /* y5: -U 2^-63, U in [0x00f43884add5083e, 0x011111110e066fd0] */
    uint64_t mul24 = facct_fxp_mulhi64(y5, T);  /* v*y5: -U 2^-63, U in [0x0000000000000000, 0x00aa98b646008fab] */
    uint64_t y4 = k[4] - mul24;  /* y4: +U 2^-63, U in [0x04aabc9f0f067f55, 0x0555555555070f00] */
    uint64_t mul27 = facct_fxp_mulhi64(y4, T);  /* v*y4: +U 2^-63, U in [0x0000000000000000, 0x03440b12b91d99e1] */
    uint64_t y3 = k[3] - mul27;  /* y3: -U 2^-63, U in [0x12114a429c64651f, 0x155555555581ff00] */
    uint64_t mul30 = facct_fxp_mulhi64(y3, T);  /* v*y3: -U 2^-63, U in [0x0000000000000000, 0x0cadc05b9527d6ae] */
    uint64_t y2 = k[2] - mul30;  /* y2: +U 2^-63, U in [0x33523fa46adadd52, 0x400000000002b400] */
    uint64_t mul33 = facct_fxp_mulhi64(y2, T);  /* v*y2: +U 2^-63, U in [0x0000000000000000, 0x2432eab1cdbe51a9] */
    uint64_t y1 = k[1] - mul33;  /* y1: -U 2^-63, U in [0x5bcd154e3240f657, 0x7fffffffffff4800] */
    uint64_t mul36 = facct_fxp_mulhi64(y1, T);  /* v*y1: -U 2^-63, U in [0x0000000000000000, 0x418977f0d4a6287e] */
    uint64_t y0 = k[0] - mul36;  /* y0: +U 2^-63, U in [0x3e76880f2b59d782, 0x8000000000000000] */
    return y0;
}

/* facct_eval(z) ~= f(z / 2^64) * 2^63. */
static inline uint64_t facct_eval(uint64_t z)
{
    return facct_core(z);
}

/* ccs * U_0, moved from scale 2^63 to 2^63 (truncated): w is Q0.64 (ccs = w / 2^64). */
static inline uint64_t facct_expm_p63_core(uint64_t u, uint64_t w)
{
    return facct_fxp_mulhi64(w, u);
}

/* facct_expm_p63(z, w) ~= (w / 2^64) * exp(-z / 2^64) * 2^63. */
static inline uint64_t facct_expm_p63(uint64_t z, uint64_t w)
{
    return facct_expm_p63_core(facct_core(z), w);
}


#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * Falcon-facing adaptors: drop-in replacements for fpr_expm_p63(x, ccs),
 * which Falcon calls with 0 <= x < ln 2 and ccs in about [0.61, 1).
 *
 *   facct_fpr_expm_p63(x_bits, ccs_bits)  emulated-float builds: the
 *       arguments are IEEE-754 binary64 bit patterns (Falcon's fpr);
 *       integer operations only, no branch and no table index that depends
 *       on them.
 *   facct_fpr_expm_p63_native(x, ccs)  native-float builds.
 *   facct_fpr_expm_p63_domain(x, ccs) and _domain_bits(x_bits, ccs_bits):
 *       Falcon's own contract, 0 <= x < ln 2 and 0 <= ccs < 1, without the
 *       rules below (see their comments).
 *
 * The first two return ~= ccs * exp(-x) * 2^63 and agree on every input.
 * Inputs in the domain are converted exactly as the reference does,
 * z = 2 * trunc(x * 2^63) and w = 2 * trunc(ccs * 2^63) (Q0.64), so a
 * kernel that reproduces the reference polynomial reproduces its outputs.
 * Proven bound: FACCT_FPR_EXPM_P63_ERR_BOUND units of 2^-63: that of
 * facct_expm_p63 plus one unit on each side for what the two
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
#define FACCT_FPR_EXPM_P63_ERR_BOUND 3565.45

/* The bits of the largest double below ln 2, 0.69314718055994528623. */
#define FACCT_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
/* 2 * trunc(LN2_DOWN * 2^63): the z every clamped x maps to. */
#define FACCT_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
/* The bits of the largest double below 1. */
#define FACCT_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

/*
 * 2 * trunc(v * 2^63) for 0 <= v < 1, from v's bits, without a branch.
 * Write v = m * 2^(e - 1085) with m the significand (implicit bit included)
 * aligned so that its top bit is bit 62; v * 2^63 = m * 2^(e - 1022), so
 * the truncation is m >> (1022 - e).  Shifts of 64 or more must give 0:
 * the shift count is reduced modulo 64 and the result masked, as the
 * reference does.  Inputs with e > 1022 (v >= 1) give 0 here; callers mask
 * them.
 */
static inline uint64_t facct_fpr_to_q64(uint64_t bits)
{
    uint32_t e = (uint32_t)(bits >> 52) & 0x7FF;
    uint64_t m = ((bits << 10) | ((uint64_t)1 << 62)) & (((uint64_t)1 << 63) - 1);
    uint64_t s = (uint64_t)(uint32_t)(1022u - e);
    uint64_t keep = (uint64_t)0 - ((s - 64) >> 63);  /* all ones iff s < 64 */
    return ((m >> (s & 63)) & keep) << 1;
}

/* The result for ccs == 1: U (scale 2^63) moved to scale 2^63. */
static inline uint64_t facct_core_to_p63(uint64_t u)
{
    return u;
}

/* The shared tail of both adaptors; c_one is all ones when ccs >= 1. */
static inline uint64_t facct_expm_p63_sat(uint64_t z, uint64_t w, uint64_t c_one)
{
    uint64_t u = facct_core(z);
    uint64_t r = facct_expm_p63_core(u, w & ~c_one);
    return (r & ~c_one) | (facct_core_to_p63(u) & c_one);
}

static inline uint64_t facct_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    /* Each mask is all ones or zero, from the top bit of a difference of
     * 63-bit quantities (which cannot wrap past the top bit). */
    uint64_t x_nan = (uint64_t)0 - ((inf_bits - (x_bits & abs_mask)) >> 63);
    uint64_t x_neg = (uint64_t)0 - (x_bits >> 63);
    uint64_t x_big = (uint64_t)0 - ((FACCT_LN2_DOWN_BITS - (x_bits & abs_mask)) >> 63);
    uint64_t c_nan = (uint64_t)0 - ((inf_bits - (ccs_bits & abs_mask)) >> 63);
    uint64_t c_neg = (uint64_t)0 - (ccs_bits >> 63);
    uint64_t c_one = (uint64_t)0 - ((FACCT_ONE_DOWN_BITS - (ccs_bits & abs_mask)) >> 63);
    uint64_t z = facct_fpr_to_q64(x_bits);
    uint64_t w = facct_fpr_to_q64(ccs_bits);
    z = (z & ~x_big) | (FACCT_Z_CLAMP & x_big);
    z &= ~(x_neg | x_nan);
    w &= ~(c_neg | c_nan);
    c_one &= ~(c_neg | c_nan);
    return facct_expm_p63_sat(z, w, c_one);
}

/*
 * Native-float adaptor.  The inputs' bit patterns go through the integer
 * adaptor above, so the result is bit-identical to facct_fpr_expm_p63
 * on every input, by construction.
 * Two simpler-looking alternatives are worse: a clamp written as
 * `x > 0.0 ? x : 0.0` compiles to a compare-and-jump on the secret (gcc 12
 * at -O2 does), and clamping the bits and then converting with a cast
 * through int64_t (CVTTSD2SI) puts two register moves, a multiply and the
 * conversion on the critical path, where the integer conversion needs a
 * move and a few single-cycle operations.
 */
static inline uint64_t facct_fpr_expm_p63_native(double x, double ccs)
{
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return facct_fpr_expm_p63(x_bits, c_bits);
}

/*
 * The Falcon-domain adaptors keep Falcon's own contract for fpr_expm_p63:
 * 0 <= x < ln 2 and 0 <= ccs < 1 (what its sampler passes), and its native
 * conversions z = 2 * trunc(x * 2^63), w = 2 * trunc(ccs * 2^63) (one
 * multiplication by 2^63, exact, and one CVTTSD2SI each, like the
 * reference).  On that domain they return exactly what
 * facct_fpr_expm_p63_native returns (tested), with the same proven
 * bound, and skip the edge rules above.  Outside it the result is
 * unspecified but the call stays defined and reads only the table (the
 * kernel's core keeps every index inside it).
 * This is the conversion: on x86-64 the SSE2 intrinsic, which returns 2^63
 * for out-of-range and NaN inputs (where a C cast would be undefined), and
 * elsewhere the integer conversion of the bits.  No branch and no
 * secret-dependent address.
 */
static inline uint64_t facct_domain_q64(double v)
{
#if defined(__x86_64__) && defined(__SSE2__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(v * 9223372036854775808.0)) << 1;
#else
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return facct_fpr_to_q64(bits);
#endif
}

static inline uint64_t facct_fpr_expm_p63_domain(double x, double ccs)
{
    /* No clamp here: facct_core keeps every z inside the table. */
    return facct_expm_p63(facct_domain_q64(x), facct_domain_q64(ccs));
}

/* The Falcon-domain adaptor for emulated-float builds: the same function on
 * the inputs' IEEE-754 bit patterns (see facct_fpr_expm_p63_domain). */
static inline uint64_t facct_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return facct_fpr_expm_p63_domain(x, ccs);
}


#endif /* FACCT_H */

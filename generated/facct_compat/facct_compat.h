/* SPDX-License-Identifier: CC0-1.0
 * facct_compat.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/facct_compat.toml (sha256 37bfb188db49037fae30ac09dcc0a840cad3130374770ea5f796353161e54392); regenerate in the project root with:
 *     python3 -m gen render kernels/facct_compat.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 12, explicit_coefficients = true
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |facct_compat_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 3565.45 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 *     |_eval(z) - f(z/2^64) 2^63| <= 3564.45 (units of 2^-63), |_expm_p63(z, w) - (w/2^64) f(z/2^64) 2^63| <= 3564.45 (units of 2^-63)
 */
#if defined(FACCT_COMPAT_CONTENT_HASH) && FACCT_COMPAT_CONTENT_HASH != 0x6680f9394b25cb80u
#error "facct_compat.h: another render of this kernel was included before this one"
#endif
#ifndef FACCT_COMPAT_H
#define FACCT_COMPAT_H

#include <stdint.h>

#define FACCT_COMPAT_CONTENT_HASH 0x6680f9394b25cb80u

/**
 * facct_compat_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1, converted as the reference does (unspecified but defined outside it).
 * facct_compat_eval(z) ~= f(z / 2^64) 2^63, facct_compat_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; a z above FACCT_COMPAT_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time: no branch, table index or variable-latency instruction depends on an input.
 * Products: MUL (x86-64), UMULH (AArch64); on ARMv7-M 16x16->32 MUL/MLA, as UMULL's time depends on its
 * operands (-DFXP_ALLOW_UMULL permits it).
 * One table per program: define FACCT_COMPAT_TABLE_EXTERN in every file that includes this one but one.
 */

#if !defined(FXP_MUL16) && defined(__ARM_ARCH_7M__) && !defined(FXP_ALLOW_UMULL)
#define FXP_MUL16 1
#endif

static inline uint64_t facct_compat_fxp_mul16_32x32(uint32_t x, uint32_t y) {
    uint32_t x0 = x & 0xFFFFu, x1 = x >> 16;
    uint32_t y0 = y & 0xFFFFu, y1 = y >> 16;
    uint32_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t r = ((uint64_t)p11 << 32) | p00;
    r += (uint64_t)p01 << 16;
    r += (uint64_t)p10 << 16;
    return r;
}
static inline void facct_compat_fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = facct_compat_fxp_mul16_32x32(a0, b0);
    uint64_t q10 = facct_compat_fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + facct_compat_fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = facct_compat_fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}
static inline uint64_t facct_compat_fxp_mulhi64_portable(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
__extension__ typedef unsigned __int128 facct_compat_fxp_u128;
#endif

#if defined(FXP_MUL16)
static inline uint64_t facct_compat_fxp_mulhi64(uint64_t a, uint64_t b) {
    uint64_t hi, lo;
    facct_compat_fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
static inline uint64_t facct_compat_fxp_mulhi64(uint64_t a, uint64_t b) {
    return (uint64_t)(((facct_compat_fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t facct_compat_fxp_mulhi64(uint64_t a, uint64_t b) {
    return facct_compat_fxp_mulhi64_portable(a, b);
}
#endif

extern const uint64_t facct_compat_coeffs[1][13];
#ifndef FACCT_COMPAT_TABLE_EXTERN
const uint64_t facct_compat_coeffs[1][13] = {
    { UINT64_C(0x8000000000000000), UINT64_C(0x7fffffffffff4800), UINT64_C(0x400000000002b400), UINT64_C(0x155555555581ff00), UINT64_C(0x0555555555070f00), UINT64_C(0x011111110e066fd0), UINT64_C(0x002d82d8305b0fea), UINT64_C(0x000680681cf796e3), UINT64_C(0x0000d00cf58f6f84), UINT64_C(0x0000171d939de045), UINT64_C(0x0000024fdcbf140a), UINT64_C(0x00000036548cfc06), UINT64_C(0x00000004741183a3) },
};
#endif

#define FACCT_COMPAT_SCALE_BITS 63
#define FACCT_COMPAT_SEGMENTS 1
#define FACCT_COMPAT_DEGREE 12
#define FACCT_COMPAT_WORD_BITS 64
#define FACCT_COMPAT_TABLE_BYTES 104
#define FACCT_COMPAT_CORE_SCALE 63
#define FACCT_COMPAT_Z_MAX UINT64_C(0xb17217f7d1cf79ab)
#define FACCT_COMPAT_ERR_BOUND_ULP 3564.45
#define FACCT_COMPAT_EXPM_P63_ERR_BOUND 3564.45

static inline uint64_t facct_compat_core(uint64_t z) {
    uint64_t u = z;
    const uint64_t *k = facct_compat_coeffs[0];
    uint64_t T = u;
    uint64_t mul3 = facct_compat_fxp_mulhi64(k[12], T);
    uint64_t y11 = k[11] - mul3;
    uint64_t mul6 = facct_compat_fxp_mulhi64(y11, T);
    uint64_t y10 = k[10] - mul6;
    uint64_t mul9 = facct_compat_fxp_mulhi64(y10, T);
    uint64_t y9 = k[9] - mul9;
    uint64_t mul12 = facct_compat_fxp_mulhi64(y9, T);
    uint64_t y8 = k[8] - mul12;
    uint64_t mul15 = facct_compat_fxp_mulhi64(y8, T);
    uint64_t y7 = k[7] - mul15;
    uint64_t mul18 = facct_compat_fxp_mulhi64(y7, T);
    uint64_t y6 = k[6] - mul18;
    uint64_t mul21 = facct_compat_fxp_mulhi64(y6, T);
    uint64_t y5 = k[5] - mul21;
    uint64_t mul24 = facct_compat_fxp_mulhi64(y5, T);
    uint64_t y4 = k[4] - mul24;
    uint64_t mul27 = facct_compat_fxp_mulhi64(y4, T);
    uint64_t y3 = k[3] - mul27;
    uint64_t mul30 = facct_compat_fxp_mulhi64(y3, T);
    uint64_t y2 = k[2] - mul30;
    uint64_t mul33 = facct_compat_fxp_mulhi64(y2, T);
    uint64_t y1 = k[1] - mul33;
    uint64_t mul36 = facct_compat_fxp_mulhi64(y1, T);
    uint64_t y0 = k[0] - mul36;
    return y0;
}
static inline uint64_t facct_compat_eval(uint64_t z) { return facct_compat_core(z); }
static inline uint64_t facct_compat_expm_p63_core(uint64_t u, uint64_t w) { return facct_compat_fxp_mulhi64(w, u); }

static inline uint64_t facct_compat_expm_p63(uint64_t z, uint64_t w) {
    return facct_compat_expm_p63_core(facct_compat_core(z), w);
}

#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#define FACCT_COMPAT_FPR_EXPM_P63_ERR_BOUND 3565.45
#define FACCT_COMPAT_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define FACCT_COMPAT_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
#define FACCT_COMPAT_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

static inline uint64_t facct_compat_fpr_to_q64(uint64_t bits) {
    uint32_t e = (uint32_t)(bits >> 52) & 0x7FF;
    uint64_t m = ((bits << 10) | ((uint64_t)1 << 62)) & (((uint64_t)1 << 63) - 1);
    uint64_t s = (uint64_t)(uint32_t)(1022u - e);
    uint64_t keep = (uint64_t)0 - ((s - 64) >> 63);
    return ((m >> (s & 63)) & keep) << 1;
}
static inline uint64_t facct_compat_core_to_p63(uint64_t u) { return u; }

static inline uint64_t facct_compat_expm_p63_sat(uint64_t z, uint64_t w, uint64_t c_one) {
    uint64_t u = facct_compat_core(z);
    uint64_t r = facct_compat_expm_p63_core(u, w & ~c_one);
    return (r & ~c_one) | (facct_compat_core_to_p63(u) & c_one);
}
static inline uint64_t facct_compat_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits) {
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    uint64_t x_nan = (uint64_t)0 - ((inf_bits - (x_bits & abs_mask)) >> 63);
    uint64_t x_neg = (uint64_t)0 - (x_bits >> 63);
    uint64_t x_big = (uint64_t)0 - ((FACCT_COMPAT_LN2_DOWN_BITS - (x_bits & abs_mask)) >> 63);
    uint64_t c_nan = (uint64_t)0 - ((inf_bits - (ccs_bits & abs_mask)) >> 63);
    uint64_t c_neg = (uint64_t)0 - (ccs_bits >> 63);
    uint64_t c_one = (uint64_t)0 - ((FACCT_COMPAT_ONE_DOWN_BITS - (ccs_bits & abs_mask)) >> 63);
    uint64_t z = facct_compat_fpr_to_q64(x_bits);
    uint64_t w = facct_compat_fpr_to_q64(ccs_bits);
    z = (z & ~x_big) | (FACCT_COMPAT_Z_CLAMP & x_big);
    z &= ~(x_neg | x_nan);
    w &= ~(c_neg | c_nan);
    c_one &= ~(c_neg | c_nan);
    return facct_compat_expm_p63_sat(z, w, c_one);
}
static inline uint64_t facct_compat_fpr_expm_p63_native(double x, double ccs) {
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return facct_compat_fpr_expm_p63(x_bits, c_bits);
}
static inline uint64_t facct_compat_domain_q64(double v) {
#if defined(__x86_64__) && defined(__SSE2__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(v * 9223372036854775808.0)) << 1;
#else
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return facct_compat_fpr_to_q64(bits);
#endif
}
static inline uint64_t facct_compat_fpr_expm_p63_domain(double x, double ccs) {
    return facct_compat_expm_p63(facct_compat_domain_q64(x), facct_compat_domain_q64(ccs));
}
static inline uint64_t facct_compat_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return facct_compat_fpr_expm_p63_domain(x, ccs);
}
#endif

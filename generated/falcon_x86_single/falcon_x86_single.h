/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86_single.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 adbd2052deeeeeac) from
 * kernels/falcon_x86_single.toml (sha256 7c001908c373e60fde57f6eb48e788956f0b0980e79f86f2b135abeffc629da6); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86_single.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 13, max_abs_error_log2 = -60.0,
 *     form = "one_minus", wide = true
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |falcon_x86_single_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 0.893013 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 *     |_eval(z) - f(z/2^64) 2^63| <= 0.893013 (units of 2^-63), |_expm_p63(z, w) - (w/2^64) f(z/2^64) 2^63| <= 0.893013 (units of 2^-63)
 */
#if defined(FALCON_X86_SINGLE_CONTENT_HASH) && FALCON_X86_SINGLE_CONTENT_HASH != 0x0b2090a96f0866a4u
#error "falcon_x86_single.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_SINGLE_H
#define FALCON_X86_SINGLE_H

#include <stdint.h>

#define FALCON_X86_SINGLE_CONTENT_HASH 0x0b2090a96f0866a4u

/**
 * falcon_x86_single_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1, converted as the reference does (unspecified but defined outside it).
 * falcon_x86_single_eval(z) ~= f(z / 2^64) 2^63, falcon_x86_single_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; a z above FALCON_X86_SINGLE_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time: no branch, table index or variable-latency instruction depends on an input.
 * Products: MUL (x86-64), UMULH (AArch64); on ARMv7-M 16x16->32 MUL/MLA, as UMULL's time depends on its
 * operands (-DFXP_ALLOW_UMULL permits it).
 * One table per program: define FALCON_X86_SINGLE_TABLE_EXTERN in every file that includes this one but one.
 */

#if !defined(FXP_MUL16) && defined(__ARM_ARCH_7M__) && !defined(FXP_ALLOW_UMULL)
#define FXP_MUL16 1
#endif

static inline uint64_t falcon_x86_single_fxp_mul16_32x32(uint32_t x, uint32_t y) {
    uint32_t x0 = x & 0xFFFFu, x1 = x >> 16;
    uint32_t y0 = y & 0xFFFFu, y1 = y >> 16;
    uint32_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t r = ((uint64_t)p11 << 32) | p00;
    r += (uint64_t)p01 << 16;
    r += (uint64_t)p10 << 16;
    return r;
}
static inline void falcon_x86_single_fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = falcon_x86_single_fxp_mul16_32x32(a0, b0);
    uint64_t q10 = falcon_x86_single_fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + falcon_x86_single_fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = falcon_x86_single_fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}
static inline uint64_t falcon_x86_single_fxp_mulhi64_portable(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
__extension__ typedef unsigned __int128 falcon_x86_single_fxp_u128;
#endif

#if defined(FXP_MUL16)
static inline uint64_t falcon_x86_single_fxp_mulhi64(uint64_t a, uint64_t b) {
    uint64_t hi, lo;
    falcon_x86_single_fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
static inline uint64_t falcon_x86_single_fxp_mulhi64(uint64_t a, uint64_t b) {
    return (uint64_t)(((falcon_x86_single_fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t falcon_x86_single_fxp_mulhi64(uint64_t a, uint64_t b) {
    return falcon_x86_single_fxp_mulhi64_portable(a, b);
}
#endif

typedef struct { uint64_t hi, lo; } falcon_x86_single_fxp_wide;

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128) && !defined(FXP_MUL16)
static inline falcon_x86_single_fxp_u128 falcon_x86_single_fxp_wide_to_u128(falcon_x86_single_fxp_wide a) {
    return ((falcon_x86_single_fxp_u128)a.hi << 64) | a.lo;
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_from_u128(falcon_x86_single_fxp_u128 v) {
    falcon_x86_single_fxp_wide r = { (uint64_t)(v >> 64), (uint64_t)v };
    return r;
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_of(uint64_t a) {
    return falcon_x86_single_fxp_wide_from_u128(a);
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_mul(uint64_t a, uint64_t b) {
    return falcon_x86_single_fxp_wide_from_u128((falcon_x86_single_fxp_u128)a * b);
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_add(falcon_x86_single_fxp_wide a, falcon_x86_single_fxp_wide b) {
    return falcon_x86_single_fxp_wide_from_u128(falcon_x86_single_fxp_wide_to_u128(a) + falcon_x86_single_fxp_wide_to_u128(b));
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_sub(falcon_x86_single_fxp_wide a, falcon_x86_single_fxp_wide b) {
    return falcon_x86_single_fxp_wide_from_u128(falcon_x86_single_fxp_wide_to_u128(a) - falcon_x86_single_fxp_wide_to_u128(b));
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_shl(falcon_x86_single_fxp_wide a, unsigned r) {
    return falcon_x86_single_fxp_wide_from_u128(falcon_x86_single_fxp_wide_to_u128(a) << r);
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_shr(falcon_x86_single_fxp_wide a, unsigned r) {
    return falcon_x86_single_fxp_wide_from_u128(falcon_x86_single_fxp_wide_to_u128(a) >> r);
}
#else
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_of(uint64_t a) {
    falcon_x86_single_fxp_wide r = { 0, a };
    return r;
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_mul(uint64_t a, uint64_t b) {
    falcon_x86_single_fxp_wide r;
#if defined(FXP_MUL16)
    falcon_x86_single_fxp_mul16_64x64(a, b, &r.hi, &r.lo);
#else
    r.hi = falcon_x86_single_fxp_mulhi64(a, b);
    r.lo = a * b;
#endif
    return r;
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_add(falcon_x86_single_fxp_wide a, falcon_x86_single_fxp_wide b) {
    falcon_x86_single_fxp_wide r;
    r.lo = a.lo + b.lo;
    r.hi = a.hi + b.hi + (((a.lo & b.lo) | ((a.lo | b.lo) & ~r.lo)) >> 63);
    return r;
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_sub(falcon_x86_single_fxp_wide a, falcon_x86_single_fxp_wide b) {
    falcon_x86_single_fxp_wide r;
    r.lo = a.lo - b.lo;
    r.hi = a.hi - b.hi - (((~a.lo & b.lo) | ((~a.lo | b.lo) & r.lo)) >> 63);
    return r;
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_shl(falcon_x86_single_fxp_wide a, unsigned r) {
    falcon_x86_single_fxp_wide out;
    out.hi = r >= 64 ? a.lo << (r - 64) : r == 0 ? a.hi : (a.hi << r) | (a.lo >> (64 - r));
    out.lo = r >= 64 ? 0 : a.lo << r;
    return out;
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_wide_shr(falcon_x86_single_fxp_wide a, unsigned r) {
    falcon_x86_single_fxp_wide out;
    out.lo = r >= 64 ? a.hi >> (r - 64) : r == 0 ? a.lo : (a.lo >> r) | (a.hi << (64 - r));
    out.hi = r >= 64 ? 0 : a.hi >> r;
    return out;
}
#endif

static inline uint64_t falcon_x86_single_fxp_wide_round_shr(falcon_x86_single_fxp_wide a, unsigned q) {
    falcon_x86_single_fxp_wide half = falcon_x86_single_fxp_wide_shl(falcon_x86_single_fxp_wide_of(1), q - 1);
    return falcon_x86_single_fxp_wide_shr(falcon_x86_single_fxp_wide_add(a, half), q).lo;
}
static inline falcon_x86_single_fxp_wide falcon_x86_single_fxp_w_one_minus_wide(uint64_t w, falcon_x86_single_fxp_wide c, unsigned l) {
    falcon_x86_single_fxp_wide cc = falcon_x86_single_fxp_wide_shl(c, l);
    falcon_x86_single_fxp_wide n = { w, 0 };
    n = falcon_x86_single_fxp_wide_sub(n, falcon_x86_single_fxp_wide_mul(w, cc.hi));
    return falcon_x86_single_fxp_wide_sub(n, falcon_x86_single_fxp_wide_of(falcon_x86_single_fxp_mulhi64(w, cc.lo)));
}
static inline uint64_t falcon_x86_single_fxp_round_n65(falcon_x86_single_fxp_wide n) {
    return (n.hi >> 1) + (n.hi & 1);
}
static inline uint64_t falcon_x86_single_fxp_round_w_one_minus_wide(uint64_t w, falcon_x86_single_fxp_wide c, unsigned l) {
    return falcon_x86_single_fxp_round_n65(falcon_x86_single_fxp_w_one_minus_wide(w, c, l));
}

extern const uint64_t falcon_x86_single_coeffs[1][14];
#ifndef FALCON_X86_SINGLE_TABLE_EXTERN
const uint64_t falcon_x86_single_coeffs[1][14] = {
    { UINT64_C(0x01d14e9948208556), UINT64_C(0xfffffffffffffffc), UINT64_C(0xfffffffffffffd13), UINT64_C(0xaaaaaaaaaaa9d2dd), UINT64_C(0xaaaaaaaaaa69c4d3), UINT64_C(0x888888887cd6fe3a), UINT64_C(0xb60b60b35033912b), UINT64_C(0xd00d006121380bdf), UINT64_C(0xd00cf4891533a613), UINT64_C(0xb8ee27a32ea32e6d), UINT64_C(0x93e4fcd5b4e7f19a), UINT64_C(0xd62b7877bc49cc4d), UINT64_C(0x88db29ded0e47357), UINT64_C(0xf9d44a910beb425a) },
};
#endif

#define FALCON_X86_SINGLE_SCALE_BITS 63
#define FALCON_X86_SINGLE_SEGMENTS 1
#define FALCON_X86_SINGLE_DEGREE 13
#define FALCON_X86_SINGLE_WORD_BITS 64
#define FALCON_X86_SINGLE_TABLE_BYTES 112
#define FALCON_X86_SINGLE_CORE_SCALE 128
#define FALCON_X86_SINGLE_Z_MAX UINT64_C(0xb17217f7d1cf79ab)
#define FALCON_X86_SINGLE_ERR_BOUND_ULP 0.893013
#define FALCON_X86_SINGLE_EXPM_P63_ERR_BOUND 0.893013

static inline falcon_x86_single_fxp_wide falcon_x86_single_core(uint64_t z) {
    uint64_t u = z;
    const uint64_t *k = falcon_x86_single_coeffs[0];
    uint64_t T = u;
    uint64_t mul3 = falcon_x86_single_fxp_mulhi64(k[13], T);
    uint64_t y12 = k[12] - (mul3 >> 5);
    uint64_t mul6 = falcon_x86_single_fxp_mulhi64(y12, T);
    uint64_t y11 = k[11] - (mul6 >> 3);
    uint64_t mul9 = falcon_x86_single_fxp_mulhi64(y11, T);
    uint64_t y10 = k[10] - (mul9 >> 4);
    uint64_t mul12 = falcon_x86_single_fxp_mulhi64(y10, T);
    uint64_t y9 = k[9] - (mul12 >> 3);
    uint64_t mul15 = falcon_x86_single_fxp_mulhi64(y9, T);
    uint64_t y8 = k[8] - (mul15 >> 3);
    uint64_t mul18 = falcon_x86_single_fxp_mulhi64(y8, T);
    uint64_t y7 = k[7] - (mul18 >> 3);
    uint64_t mul21 = falcon_x86_single_fxp_mulhi64(y7, T);
    uint64_t y6 = k[6] - (mul21 >> 3);
    uint64_t mul24 = falcon_x86_single_fxp_mulhi64(y6, T);
    uint64_t y5 = k[5] - (mul24 >> 3);
    uint64_t mul27 = falcon_x86_single_fxp_mulhi64(y5, T);
    uint64_t y4 = k[4] - (mul27 >> 2);
    uint64_t mul30 = falcon_x86_single_fxp_mulhi64(y4, T);
    uint64_t y3 = k[3] - (mul30 >> 2);
    uint64_t mul33 = falcon_x86_single_fxp_mulhi64(y3, T);
    uint64_t y2 = k[2] - (mul33 >> 1);
    uint64_t mul36 = falcon_x86_single_fxp_mulhi64(y2, T);
    uint64_t y1 = k[1] - (mul36 >> 1);
    falcon_x86_single_fxp_wide mul39 = falcon_x86_single_fxp_wide_mul(y1, T);
    falcon_x86_single_fxp_wide y0 = falcon_x86_single_fxp_wide_add(falcon_x86_single_fxp_wide_of(k[0]), mul39);
    return y0;
}
static inline uint64_t falcon_x86_single_eval(uint64_t z) {
    return (uint64_t)(((uint64_t)1 << 63) - falcon_x86_single_fxp_wide_round_shr(falcon_x86_single_core(z), 65));
}
static inline uint64_t falcon_x86_single_expm_p63_core(falcon_x86_single_fxp_wide u, uint64_t w) {
    return falcon_x86_single_fxp_round_w_one_minus_wide(w, u, 0);
}
static inline uint64_t falcon_x86_single_expm_p63(uint64_t z, uint64_t w) {
    return falcon_x86_single_expm_p63_core(falcon_x86_single_core(z), w);
}

#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#define FALCON_X86_SINGLE_FPR_EXPM_P63_ERR_BOUND 0.893013
#define FALCON_X86_SINGLE_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define FALCON_X86_SINGLE_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
#define FALCON_X86_SINGLE_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

static inline uint64_t falcon_x86_single_fpr_to_q64(uint64_t bits) {
    uint32_t e = (uint32_t)(bits >> 52) & 0x7FF;
    uint64_t m = ((bits << 10) | ((uint64_t)1 << 62)) & (((uint64_t)1 << 63) - 1);
    uint64_t s = (uint64_t)(uint32_t)(1022u - e);
    uint64_t keep = (uint64_t)0 - ((s - 64) >> 63);
    return ((m >> (s & 63)) & keep) << 1;
}
static inline uint64_t falcon_x86_single_core_to_p63(falcon_x86_single_fxp_wide u) {
    return ((uint64_t)1 << 63) - falcon_x86_single_fxp_wide_round_shr(u, 65);
}
static inline uint64_t falcon_x86_single_expm_p63_sat(uint64_t z, uint64_t w, uint64_t c_one) {
    falcon_x86_single_fxp_wide u = falcon_x86_single_core(z);
    uint64_t r = falcon_x86_single_expm_p63_core(u, w & ~c_one);
    return (r & ~c_one) | (falcon_x86_single_core_to_p63(u) & c_one);
}
static inline uint64_t falcon_x86_single_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits) {
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    uint64_t x_nan = (uint64_t)0 - ((inf_bits - (x_bits & abs_mask)) >> 63);
    uint64_t x_neg = (uint64_t)0 - (x_bits >> 63);
    uint64_t x_big = (uint64_t)0 - ((FALCON_X86_SINGLE_LN2_DOWN_BITS - (x_bits & abs_mask)) >> 63);
    uint64_t c_nan = (uint64_t)0 - ((inf_bits - (ccs_bits & abs_mask)) >> 63);
    uint64_t c_neg = (uint64_t)0 - (ccs_bits >> 63);
    uint64_t c_one = (uint64_t)0 - ((FALCON_X86_SINGLE_ONE_DOWN_BITS - (ccs_bits & abs_mask)) >> 63);
    uint64_t z = falcon_x86_single_fpr_to_q64(x_bits);
    uint64_t w = falcon_x86_single_fpr_to_q64(ccs_bits);
    z = (z & ~x_big) | (FALCON_X86_SINGLE_Z_CLAMP & x_big);
    z &= ~(x_neg | x_nan);
    w &= ~(c_neg | c_nan);
    c_one &= ~(c_neg | c_nan);
    return falcon_x86_single_expm_p63_sat(z, w, c_one);
}
static inline uint64_t falcon_x86_single_fpr_expm_p63_native(double x, double ccs) {
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return falcon_x86_single_fpr_expm_p63(x_bits, c_bits);
}
static inline uint64_t falcon_x86_single_domain_q64(double v) {
#if defined(__x86_64__) && defined(__SSE2__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(v * 9223372036854775808.0)) << 1;
#else
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return falcon_x86_single_fpr_to_q64(bits);
#endif
}
static inline uint64_t falcon_x86_single_fpr_expm_p63_domain(double x, double ccs) {
    return falcon_x86_single_expm_p63(falcon_x86_single_domain_q64(x), falcon_x86_single_domain_q64(ccs));
}
static inline uint64_t falcon_x86_single_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_single_fpr_expm_p63_domain(x, ccs);
}
#endif

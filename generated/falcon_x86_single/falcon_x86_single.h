/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86_single.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_x86_single.toml (sha256 da36beadd388f3379315bd00e31452a9049d926e7e1aa86e3ff8096b8e87102e); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86_single.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 13, max_abs_error_log2 = -63.0,
 *     form = "head", float_tail = 7, exact_head = 3, fma = true, conversion_remainder = true
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |falcon_x86_single_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 0.857680 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 *     |_eval(z) - f(z/2^64) 2^63| <= 0.869057 (units of 2^-63), |_expm_p63(z, w) - (w/2^64) f(z/2^64) 2^63| <= 0.945995 (units of 2^-63)
 */
#if defined(FALCON_X86_SINGLE_CONTENT_HASH) && FALCON_X86_SINGLE_CONTENT_HASH != 0x25a75d2584715550u
#error "falcon_x86_single.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_SINGLE_H
#define FALCON_X86_SINGLE_H

#include <stdint.h>

#define FALCON_X86_SINGLE_CONTENT_HASH 0x25a75d2584715550u

/**
 * falcon_x86_single_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1 (unspecified but defined outside it).  The bound holds against the
 * doubles passed: what converting them to fixed point drops is carried into the result.
 * falcon_x86_single_eval(z) ~= f(z / 2^64) 2^63, falcon_x86_single_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; z must not exceed FALCON_X86_SINGLE_Z_MAX.
 * Needs a 64-bit GCC or Clang (unsigned __int128) and, on x86-64, FMA: build with -mfma or
 * -march=x86-64-v3 (a compile-time error otherwise).
 * Constant time: no branch, table or division; 64x64->128 products (MUL/MULX) and binary64 operations
 * on operands that are never subnormal (proven; inputs below 2^-900 for x, 2^-64 for ccs count as 0),
 * which take a fixed time on x86-64.  Binary64 rounding to nearest, no -ffast-math.
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

#include <string.h>

#if !defined(__SIZEOF_INT128__)
#error "falcon_x86_single: form head needs a compiler with unsigned __int128 (64-bit GCC or Clang)"
#endif
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__FMA__)
#error "falcon_x86_single: its binary64 part uses FMA: build with -mfma or -march=x86-64-v3 (or render with fma = false)"
#endif
#if defined(__GNUC__)
#define FALCON_X86_SINGLE_FMA(a, b, c) __builtin_fma((a), (b), (c))
#else
#include <math.h>
#define FALCON_X86_SINGLE_FMA(a, b, c) fma((a), (b), (c))
#endif

#if defined(__GNUC__)
#define FALCON_X86_SINGLE_INLINE static inline __attribute__((always_inline))
#else
#define FALCON_X86_SINGLE_INLINE static inline
#endif

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
FALCON_X86_SINGLE_INLINE double falcon_x86_single_rounded(double v) {
    __asm__("" : "+x"(v));
    return v;
}
#elif defined(__GNUC__) && defined(__aarch64__)
FALCON_X86_SINGLE_INLINE double falcon_x86_single_rounded(double v) {
    __asm__("" : "+w"(v));
    return v;
}
#else
#pragma STDC FP_CONTRACT OFF
FALCON_X86_SINGLE_INLINE double falcon_x86_single_rounded(double v) { return v; }
#endif

#define FALCON_X86_SINGLE_SCALE_BITS 63
#define FALCON_X86_SINGLE_SEGMENTS 1
#define FALCON_X86_SINGLE_DEGREE 13
#define FALCON_X86_SINGLE_WORD_BITS 64
#define FALCON_X86_SINGLE_TABLE_BYTES 0
#define FALCON_X86_SINGLE_Z_MAX UINT64_C(0xb17217f7d1cf79ab)
#define FALCON_X86_SINGLE_ERR_BOUND_ULP 0.869057
#define FALCON_X86_SINGLE_EXPM_P63_ERR_BOUND 0.945995
#define FALCON_X86_SINGLE_ROUND_BITS UINT64_C(0x42F8000000000000)

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_kernel(uint64_t z, uint64_t C, double v, double c, double e) {
    falcon_x86_single_fxp_u128 zz = (falcon_x86_single_fxp_u128)z * z;
    uint64_t zh = (uint64_t)(zz >> 64);
    falcon_x86_single_fxp_u128 cz = (falcon_x86_single_fxp_u128)C * z;
    falcon_x86_single_fxp_u128 d = (cz << 1) - ((falcon_x86_single_fxp_u128)C * zh + falcon_x86_single_fxp_mulhi64(C, (uint64_t)zz));
    uint64_t p0 = UINT64_C(0xaaaaaaaaaaaa941e);
    uint64_t p1 = UINT64_C(0x2aaaaaaaaaa6efbf);
    uint64_t p2 = UINT64_C(0x088888888846e1ab);
    uint64_t p3 = UINT64_C(0x016c16c169926640);
    uint64_t h2 = p2 - falcon_x86_single_fxp_mulhi64(z, p3);
    uint64_t h1 = p1 - falcon_x86_single_fxp_mulhi64(z, h2);
    uint64_t h0 = p0 - falcon_x86_single_fxp_mulhi64(z, h1);
    uint64_t u = (uint64_t)(cz >> 63);
    uint64_t cx = (uint64_t)(((falcon_x86_single_fxp_u128)u * zh) >> 63);
    uint64_t E = falcon_x86_single_fxp_mulhi64(cx, h0);
    double t5 = FALCON_X86_SINGLE_FMA(1.1550564336709781e-10, v, -2.0001420551325336e-09);
    double t7 = FALCON_X86_SINGLE_FMA(t5, v, 2.4950010584008668e-08);
    double t9 = FALCON_X86_SINGLE_FMA(t7, v, -2.754953209738658e-07);
    double t11 = FALCON_X86_SINGLE_FMA(t9, v, 2.7556915405443342e-06);
    double t13 = FALCON_X86_SINGLE_FMA(t11, v, -2.4801572878331526e-05);
    double t15 = FALCON_X86_SINGLE_FMA(t13, v, 0.0001984126948894262);
    double t16 = v * v;
    double t17 = t16 * t16;
    double t18 = c * t17;
    double t19 = t16 * v;
    double t20 = t18 * t19;
    double t21 = FALCON_X86_SINGLE_FMA(t20, t15, e);
    uint64_t tb;
    memcpy(&tb, &t21, sizeof tb);
    uint64_t et = E + (tb - FALCON_X86_SINGLE_ROUND_BITS);
    d += (falcon_x86_single_fxp_u128)(__extension__ (__int128)(int64_t)et) << 61;
    return C + 2 - (((uint64_t)(d >> 64) + 5) >> 1);
}

FALCON_X86_SINGLE_INLINE double falcon_x86_single_to_double(uint64_t z) {
    return (double)(int64_t)(z >> 1) * 1.0842021724855044e-19;
}

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_eval(uint64_t z) {
    return falcon_x86_single_kernel(z, (uint64_t)1 << 63, falcon_x86_single_to_double(z), 9223372036854775808.0, 422212465065984.1);
}

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_expm_p63(uint64_t z, uint64_t w) {
    double x = falcon_x86_single_to_double(z), ccs = (double)(int64_t)(w >> 1);
    double rx = 0.0, rc = (double)(w & 1) * 0.5;
    double r8 = FALCON_X86_SINGLE_FMA(x, 0.5, -1.0);
    double r9 = FALCON_X86_SINGLE_FMA(r8, x, 1.0);
    double r10 = falcon_x86_single_rounded(rc * r9);
    double r11 = 422212465065984.1 - r10;
    double r12 = FALCON_X86_SINGLE_FMA(ccs, rx, r11);
    return falcon_x86_single_kernel(z, w >> 1, x, ccs, r12);
}

#if defined(__x86_64__)
#include <immintrin.h>
#else
#include <math.h>
#endif

#define FALCON_X86_SINGLE_FPR_EXPM_P63_ERR_BOUND 0.857680
#define FALCON_X86_SINGLE_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define FALCON_X86_SINGLE_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
#define FALCON_X86_SINGLE_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)
#define FALCON_X86_SINGLE_X_FLUSH_BITS INT64_C(0x07B0000000000000)
#define FALCON_X86_SINGLE_C_FLUSH_BITS INT64_C(0x3BF0000000000000)

FALCON_X86_SINGLE_INLINE double falcon_x86_single_flush(double v, int64_t min_bits) {
#if defined(__x86_64__)
    __m128i b = _mm_castpd_si128(_mm_set1_pd(v));
    __m128i keep = _mm_cmpgt_epi64(b, _mm_set1_epi64x(min_bits - 1));
    return _mm_cvtsd_f64(_mm_castsi128_pd(_mm_and_si128(b, keep)));
#else
    int64_t b;
    memcpy(&b, &v, sizeof b);
    b &= -(int64_t)(b >= min_bits);
    memcpy(&v, &b, sizeof v);
    return v;
#endif
}

FALCON_X86_SINGLE_INLINE double falcon_x86_single_max(double a, double b) {
#if defined(__x86_64__) && defined(__GNUC__)
    double r;
    __asm__("vmaxsd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
#else
    return a > b ? a : b;
#endif
}

FALCON_X86_SINGLE_INLINE double falcon_x86_single_min(double a, double b) {
#if defined(__x86_64__) && defined(__GNUC__)
    double r;
    __asm__("vminsd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
#else
    return a < b ? a : b;
#endif
}

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_to_word(double v) {
#if defined(__x86_64__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(v));
#else
    return (uint64_t)v;
#endif
}

FALCON_X86_SINGLE_INLINE double falcon_x86_single_trunc(double v) {
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("" : "+x"(v));
#endif
    return __builtin_trunc(v);
}

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_adapt(double x, double ccs) {
    double xs = x * 9223372036854775808.0, cs = ccs * 9223372036854775808.0;
    uint64_t X = falcon_x86_single_to_word(xs), C = falcon_x86_single_to_word(cs);
    double v = falcon_x86_single_max(x, 0.00048828125);
    double rx = xs - falcon_x86_single_trunc(xs), rc = cs - falcon_x86_single_trunc(cs);
    double r8 = FALCON_X86_SINGLE_FMA(x, 0.5, -1.0);
    double r9 = FALCON_X86_SINGLE_FMA(r8, x, 1.0);
    double r10 = falcon_x86_single_rounded(rc * r9);
    double r11 = 422212465065984.1 - r10;
    double r12 = FALCON_X86_SINGLE_FMA(ccs, rx, r11);
    return falcon_x86_single_kernel(X + X, C, v, cs, r12);
}

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_fpr_expm_p63_domain(double x, double ccs) {
    return falcon_x86_single_adapt(falcon_x86_single_flush(x, FALCON_X86_SINGLE_X_FLUSH_BITS), falcon_x86_single_flush(ccs, FALCON_X86_SINGLE_C_FLUSH_BITS));
}

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_single_fpr_expm_p63_domain(x, ccs);
}

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_fpr_expm_p63_native(double x, double ccs) {
    double xf = falcon_x86_single_flush(x, FALCON_X86_SINGLE_X_FLUSH_BITS), cf = falcon_x86_single_flush(ccs, FALCON_X86_SINGLE_C_FLUSH_BITS);
    xf = falcon_x86_single_min(falcon_x86_single_max(xf, 0.0), 0.6931471805599453);
    cf = falcon_x86_single_min(falcon_x86_single_max(cf, 0.0), 1.0);
    return falcon_x86_single_adapt(xf, cf);
}

FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_single_fpr_expm_p63_native(x, ccs);
}
#endif

/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86_fast.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_x86_fast.toml (sha256 c33b66499c12cd8ee0d5c3195abe65cfdbe20e65547662b7df41680dea2e9089); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86_fast.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 12, float_tail = 5,
 *     max_abs_error_log2 = -58.0, form = "fold"
 * Proven bound (rational interval arithmetic and a Taylor model, gen/fold/proof.py; terms: provenance/),
 * f(x) = exp(-x):
 *     |falcon_x86_fast_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 11.3760 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 */
#if defined(FALCON_X86_FAST_CONTENT_HASH) && FALCON_X86_FAST_CONTENT_HASH != 0x6e6fa9373703dfabu
#error "falcon_x86_fast.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_FAST_H
#define FALCON_X86_FAST_H

#include <stdint.h>

#define FALCON_X86_FAST_CONTENT_HASH 0x6e6fa9373703dfabu

/**
 * falcon_x86_fast_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 (-0 included) or NaN counts as 0, x >= ln 2 (+inf included) as the double
 * below ln 2, ccs < 0 or NaN gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits,
 * ccs_bits): Falcon's contract, 0 <= x < ln 2 and 0 <= ccs < 1 (ccs = 1 works too; unspecified but
 * defined outside it).  The bound FALCON_X86_FAST_FPR_EXPM_P63_ERR_BOUND (units of 2^-63) holds against the
 * doubles passed, conversions included.  No fixed-point entry (_eval, _expm_p63).
 * Needs x86-64 with FMA and GCC or Clang: build with -mfma or -march=x86-64-v3 (a compile-time error
 * otherwise); binary64 rounding to nearest (the default MXCSR), no -ffast-math.
 * Constant time: no branch, no table and no division; the edge rules are integer compares and
 * conditional moves on the bit patterns; 64x64 -> 128-bit products (MUL), which take a fixed time on
 * x86-64; binary64 operations whose operands are never subnormal (proven), which take a fixed time too.
 */

#include <string.h>

#if !defined(__x86_64__) || !(defined(__GNUC__) || defined(__clang__))
#error "falcon_x86_fast.h: form fold needs x86-64 and GCC or Clang"
#endif
#if !defined(__FMA__)
#error "falcon_x86_fast.h: needs FMA: build with -mfma or -march=x86-64-v3"
#endif
#include <immintrin.h>

#define FALCON_X86_FAST_FPR_EXPM_P63_ERR_BOUND 11.3760
#define FALCON_X86_FAST_DEGREE 12
#define FALCON_X86_FAST_FLOAT_TAIL 5
#define FALCON_X86_FAST_TABLE_BYTES 0
#define FALCON_X86_FAST_INLINE static inline __attribute__((always_inline))
#define FALCON_X86_FAST_W2 UINT64_C(0x7FFFFFFFFFFFE9A7)
#define FALCON_X86_FAST_W3 UINT64_C(0x2AAAAAAAAAA5F302)
#define FALCON_X86_FAST_W4 UINT64_C(0x0AAAAAAAAA460DDB)
#define FALCON_X86_FAST_INF_BITS UINT64_C(0x7FF0000000000000)
#define FALCON_X86_FAST_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define FALCON_X86_FAST_ONE_BITS UINT64_C(0x3FF0000000000000)

__extension__ typedef unsigned __int128 falcon_x86_fast_u128;

FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_hi(uint64_t a, uint64_t b) {
    return (uint64_t)(((falcon_x86_fast_u128)a * b) >> 64);
}

#define FALCON_X86_FAST_EXP63 (UINT64_C(63) << 52)

FALCON_X86_FAST_INLINE __m128d falcon_x86_fast_times_2p63(double x) {
    return _mm_castsi128_pd(_mm_add_epi64(_mm_castpd_si128(_mm_set_sd(x)), _mm_set1_epi64x((long long)FALCON_X86_FAST_EXP63)));
}

FALCON_X86_FAST_INLINE __m128d falcon_x86_fast_bits_times_2p63(uint64_t b) {
    return _mm_castsi128_pd(_mm_cvtsi64_si128((long long)(b + FALCON_X86_FAST_EXP63)));
}

FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_tail(__m128d xs, __m128d cs) {
    double v = _mm_cvtsd_f64(_mm_max_sd(xs, _mm_set_sd(1099511627776.0)));
    double c = _mm_cvtsd_f64(_mm_max_sd(cs, _mm_set_sd(1.0)));
    double t4 = __builtin_fma(-2.2559482531243065e-117, v, 1.2484470273034492e-97);
    double t7 = __builtin_fma(-4.735377164337671e-157, v, 3.494146324555984e-137);
    double t10 = __builtin_fma(-6.158171631676794e-197, v, 5.7029008114884644e-177);
    double t13 = __builtin_fma(-3.9320869865588993e-237, v, 5.830072217921057e-217);
    double t14 = v * v;
    double t15 = __builtin_fma(t7, t14, t4);
    double t16 = __builtin_fma(t13, t14, t10);
    double t17 = t14 * t14;
    double t18 = __builtin_fma(t16, t17, t15);
    double t19 = t17 * v;
    double t20 = c * t19;
    double t21 = t20 * t18;
    return (uint64_t)_mm_cvtsd_si64(_mm_set_sd(t21));
}

FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_core(__m128d xs, __m128d cs) {
    uint64_t X = (uint64_t)_mm_cvttsd_si64(xs), C = (uint64_t)_mm_cvttsd_si64(cs);
    uint64_t z = X + X;
    uint64_t F = falcon_x86_fast_tail(xs, cs);
    uint64_t A = falcon_x86_fast_hi(C, z), B = falcon_x86_fast_hi(A, z);
    uint64_t zz = falcon_x86_fast_hi(z, z);
    uint64_t k4 = FALCON_X86_FAST_W4;
    uint64_t k2 = FALCON_X86_FAST_W2 - falcon_x86_fast_hi(z, FALCON_X86_FAST_W3) + falcon_x86_fast_hi(zz, k4);
    return C - A + falcon_x86_fast_hi(B, k2) - F;
}

FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_fpr_expm_p63_domain(double x, double ccs) {
    return falcon_x86_fast_core(falcon_x86_fast_times_2p63(x), falcon_x86_fast_times_2p63(ccs));
}

FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits) {
    return falcon_x86_fast_core(falcon_x86_fast_bits_times_2p63(x_bits), falcon_x86_fast_bits_times_2p63(ccs_bits));
}

FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_clamp(uint64_t b, uint64_t top) {
    uint64_t zero = 0;
    __asm__("cmp %[inf], %[b]\n\t"
            "cmova %[zero], %[b]\n\t"
            "cmp %[top], %[b]\n\t"
            "cmova %[top], %[b]"
            : [b] "+r"(b)
            : [inf] "r"(FALCON_X86_FAST_INF_BITS), [zero] "r"(zero), [top] "r"(top)
            : "cc");
    return b;
}

FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits) {
    return falcon_x86_fast_fpr_expm_p63_domain_bits(falcon_x86_fast_clamp(x_bits, FALCON_X86_FAST_LN2_DOWN_BITS),
                                               falcon_x86_fast_clamp(ccs_bits, FALCON_X86_FAST_ONE_BITS));
}

FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_fpr_expm_p63_native(double x, double ccs) {
    uint64_t xb, cb;
    memcpy(&xb, &x, sizeof xb);
    memcpy(&cb, &ccs, sizeof cb);
    return falcon_x86_fast_fpr_expm_p63(xb, cb);
}
#endif

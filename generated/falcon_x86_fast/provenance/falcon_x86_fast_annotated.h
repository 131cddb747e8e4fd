/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86_fast.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_x86_fast.toml (sha256 c33b66499c12cd8ee0d5c3195abe65cfdbe20e65547662b7df41680dea2e9089); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86_fast.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 12, float_tail = 5,
 *     max_abs_error_log2 = -58.0, form = "fold"
 * Proven bound (rational interval arithmetic and a Taylor model, gen/fold/proof.py; terms: provenance/),
 * f(x) = exp(-x):
 *     |falcon_x86_fast_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 11.3760 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: x86-64 for signers: degree 12, ccs folded into six products, binary64 FMA tail; proven below 2^-58
 *
 * Parameters:
 *   name = "falcon_x86_fast"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 64
 *   scale_bits = 63
 *   degree = 12
 *   float_tail = 5
 *   max_abs_error_log2 = -58.0
 *   form = "fold"
 *
 * Computed:
 *   e^-x ~= 1 - x + x^2 k(x), powers 2..12 fitted (Remez, 50 digits; levelled error 0.3491 units of 2^-63)
 *   middle words W_2..W_4: 0x7fffffffffffe9a7, 0x2aaaaaaaaaa5f302, 0x0aaaaaaaaa460ddb
 *   binary64 tail in v = x 2^63 and c = ccs 2^63 (powers 5..12): 0x1.1111110ecfd2ap-322, -0x1.6c16c0ed9ba3bp-388, 0x1.a019ef8ee54f5p-454, -0x1.a01844ab0cd5dp-520, 0x1.71c11a526d11bp-586, -0x1.269c691b89fe5p-652, 0x1.9b9aea0098842p-719, -0x1.99acd9e266a84p-786
 *   proven p - f of the quantized polynomial: [-3.7851e-20, 7.8707e-20]
 *   bound, units of 2^-63:
 *     9.65003  evaluation: floors, binary64 tail, CVTSD2SI, tail read at max(x, 2^-23), max(ccs, 2^-63) (interval pieces)
 *     0.725947  approximation: 2^63 sup |p - exp(-x)| on [0, ln 2] (Taylor model)
 *     1.00001  conversions of x and ccs to words (x - x' < 2^-63, ccs 2^63 - C < 1)
 *     11.3760  total
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FALCON_X86_FAST_CONTENT_HASH) && FALCON_X86_FAST_CONTENT_HASH != 0x6e6fa9373703dfabu
#error "falcon_x86_fast.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_FAST_H
#define FALCON_X86_FAST_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
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

/* The proven bound (gen/fold/proof.py; docs/error-model.md, "Form fold"),
 * units of 2^-63, against ccs exp(-x) 2^63 for the doubles passed:
 *   9.65003  evaluation: floors, binary64 tail, CVTSD2SI, tail read at max(x, 2^-23), max(ccs, 2^-63) (interval pieces)
 *   0.725947  approximation: 2^63 sup |p - exp(-x)| on [0, ln 2] (Taylor model)
 *   1.00001  conversions of x and ccs to words (x - x' < 2^-63, ccs 2^63 - C < 1)
 */
#define FALCON_X86_FAST_FPR_EXPM_P63_ERR_BOUND 11.3760
#define FALCON_X86_FAST_DEGREE 12
#define FALCON_X86_FAST_FLOAT_TAIL 5
#define FALCON_X86_FAST_TABLE_BYTES 0
#define FALCON_X86_FAST_INLINE static inline __attribute__((always_inline))

/* The middle words W_j = round(|a_j| 2^64) (Q0.64), j = 2..4: the
 * magnitudes of the fitted coefficients of x^j, whose signs alternate. */
#define FALCON_X86_FAST_W2 UINT64_C(0x7FFFFFFFFFFFE9A7)
#define FALCON_X86_FAST_W3 UINT64_C(0x2AAAAAAAAAA5F302)
#define FALCON_X86_FAST_W4 UINT64_C(0x0AAAAAAAAA460DDB)
/* Bit patterns of the full adaptor's edge rules: +inf, the double below
 * ln 2, and 1. */
#define FALCON_X86_FAST_INF_BITS UINT64_C(0x7FF0000000000000)
#define FALCON_X86_FAST_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define FALCON_X86_FAST_ONE_BITS UINT64_C(0x3FF0000000000000)

__extension__ typedef unsigned __int128 falcon_x86_fast_u128;

/* floor(a b / 2^64): one MUL (fixed latency on x86-64 whatever the operands). */
FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_hi(uint64_t a, uint64_t b)
{
    return (uint64_t)(((falcon_x86_fast_u128)a * b) >> 64);
}

/* x 2^63 for a double x in [+0, 1], by adding 63 to the exponent field of
 * its bits: exact for x in [2^-1022, 1]; for +0 and subnormals the result
 * is a normal double below 2^-959, whose truncation is 0 = trunc(x 2^63).
 * So the conversions need no multiply and no flush, and no binary64
 * operation sees a subnormal operand.  On a vector register (PADDQ) for
 * the double entries, on the bit pattern (ADD) for the others. */
#define FALCON_X86_FAST_EXP63 (UINT64_C(63) << 52)

FALCON_X86_FAST_INLINE __m128d falcon_x86_fast_times_2p63(double x)
{
    return _mm_castsi128_pd(_mm_add_epi64(_mm_castpd_si128(_mm_set_sd(x)), _mm_set1_epi64x((long long)FALCON_X86_FAST_EXP63)));
}

FALCON_X86_FAST_INLINE __m128d falcon_x86_fast_bits_times_2p63(uint64_t b)
{
    return _mm_castsi128_pd(_mm_cvtsi64_si128((long long)(b + FALCON_X86_FAST_EXP63)));
}

/* F = round(c v^5 Q(v)) ~= C x^5 |k_5(x)|, the powers 5..12 of the
 * polynomial with ccs folded in, from v = max(x 2^63, 2^40) and
 * c = max(ccs 2^63, 1): x below 2^-23 is read as 2^-23 and ccs below 2^-63
 * as 2^-63 (the proof counts both).  The coefficients are those of x
 * scaled by powers of two, so evaluating in v gives the bits evaluating in
 * x would.  Estrin's scheme, each multiply-add one FMA (one rounding to
 * nearest), every value normal (proven); CVTSD2SI rounds to the nearest
 * integer under the default MXCSR (|F| < 2^62, proven).  Nothing of the
 * fixed-point chain waits for F: it enters the result last. */
FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_tail(__m128d xs, __m128d cs)
{
    double v = _mm_cvtsd_f64(_mm_max_sd(xs, _mm_set_sd(1099511627776.0)));
    double c = _mm_cvtsd_f64(_mm_max_sd(cs, _mm_set_sd(1.0)));
    double t4 = __builtin_fma(-2.2559482531243065e-117, v, 1.2484470273034492e-97);   /* q0_1 */
    double t7 = __builtin_fma(-4.735377164337671e-157, v, 3.494146324555984e-137);   /* q2_3 */
    double t10 = __builtin_fma(-6.158171631676794e-197, v, 5.7029008114884644e-177);   /* q4_5 */
    double t13 = __builtin_fma(-3.9320869865588993e-237, v, 5.830072217921057e-217);   /* q6_7 */
    double t14 = v * v;   /* v^2 */
    double t15 = __builtin_fma(t7, t14, t4);   /* q2_0 */
    double t16 = __builtin_fma(t13, t14, t10);   /* q2_1 */
    double t17 = t14 * t14;   /* v^4 */
    double t18 = __builtin_fma(t16, t17, t15);   /* q4_0 */
    double t19 = t17 * v;   /* v^5 */
    double t20 = c * t19;   /* c*v^5 */
    double t21 = t20 * t18;   /* F */
    return (uint64_t)_mm_cvtsd_si64(_mm_set_sd(t21));
}

/* The chain, from xs = x 2^63 and cs = ccs 2^63 as doubles (see above).
 * z = 2 trunc(x 2^63) (Q0.64), C = trunc(ccs 2^63) (for ccs = 1,
 * CVTTSD2SI gives the integer indefinite 0x8000000000000000, which is
 * 2^63), then
 *     A = hi(C, z) ~= C x,  B = hi(A, z) ~= C x^2,  zz = hi(z, z) ~= x^2 2^64,
 *     K_4 = W_4,
 *     K_j = W_j - hi(z, W_(j+1)) + hi(zz, K_(j+2)),   K_j = W_j - hi(z, K_(j+1)) (the steps below),
 *     result = C - A + hi(B, K_2) - F ~= C (1 - x + x^2 k(x)).
 * Every K_j lies in [0, 2^64) and the result in [0, 2^64) (proven): no
 * addition or subtraction wraps. */
FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_core(__m128d xs, __m128d cs)
{
    uint64_t X = (uint64_t)_mm_cvttsd_si64(xs), C = (uint64_t)_mm_cvttsd_si64(cs);
    uint64_t z = X + X;
    uint64_t F = falcon_x86_fast_tail(xs, cs);
    uint64_t A = falcon_x86_fast_hi(C, z), B = falcon_x86_fast_hi(A, z);
    uint64_t zz = falcon_x86_fast_hi(z, z);
    uint64_t k4 = FALCON_X86_FAST_W4;
    uint64_t k2 = FALCON_X86_FAST_W2 - falcon_x86_fast_hi(z, FALCON_X86_FAST_W3) + falcon_x86_fast_hi(zz, k4);
    return C - A + falcon_x86_fast_hi(B, k2) - F;
}

/* Falcon's own contract: 0 <= x < ln 2, 0 <= ccs <= 1 (a defined result
 * outside it). */
FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_fpr_expm_p63_domain(double x, double ccs)
{
    return falcon_x86_fast_core(falcon_x86_fast_times_2p63(x), falcon_x86_fast_times_2p63(ccs));
}

/* The same on the inputs' IEEE-754 bit patterns (the same result for every
 * input: the same add on the same bits). */
FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    return falcon_x86_fast_core(falcon_x86_fast_bits_times_2p63(x_bits), falcon_x86_fast_bits_times_2p63(ccs_bits));
}

/* The edge rules on a bit pattern, as unsigned integers: above +inf's
 * pattern are the negative numbers (-0 included) and the NaNs, which
 * become +0; then anything above ``top`` becomes top.  Written as the
 * compares and CMOVs themselves: a compiler may turn the conditional
 * expressions into a compare-and-jump (gcc does at some optimisation
 * settings), which would be a branch on the secret. */
FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_clamp(uint64_t b, uint64_t top)
{
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

/* Every input defined (see the interface above). */
FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    return falcon_x86_fast_fpr_expm_p63_domain_bits(falcon_x86_fast_clamp(x_bits, FALCON_X86_FAST_LN2_DOWN_BITS),
                                               falcon_x86_fast_clamp(ccs_bits, FALCON_X86_FAST_ONE_BITS));
}

/* The native-float entry: the same on doubles. */
FALCON_X86_FAST_INLINE uint64_t falcon_x86_fast_fpr_expm_p63_native(double x, double ccs)
{
    uint64_t xb, cb;
    memcpy(&xb, &x, sizeof xb);
    memcpy(&cb, &ccs, sizeof cb);
    return falcon_x86_fast_fpr_expm_p63(xb, cb);
}

#endif /* FALCON_X86_FAST_H */

/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86_simd.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_x86_simd.toml (sha256 7e5459f7255370a61e03f4799d462305c165c447000bf569b854e441e76adc09); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86_simd.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 8,
 *     segments = {kind = "nearest", count = 16}, max_abs_error_log2 = -63.0, form = "eft",
 *     batch = ["avx512", "avx2"]
 * Proven bound (exact lemmas and rational interval propagation, gen/eft/proof.py; terms: provenance/),
 * f(x) = exp(-x):
 *     |falcon_x86_simd_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 0.546170 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 */
#if defined(FALCON_X86_SIMD_CONTENT_HASH) && FALCON_X86_SIMD_CONTENT_HASH != 0x098d81dff614d954u
#error "falcon_x86_simd.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_SIMD_H
#define FALCON_X86_SIMD_H

#include <stdint.h>

#define FALCON_X86_SIMD_CONTENT_HASH 0x098d81dff614d954u

/**
 * falcon_x86_simd_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1 (unspecified but defined outside it; within the same bound for
 * x < 23/32 and ccs <= 1).  The bound FALCON_X86_SIMD_FPR_EXPM_P63_ERR_BOUND (units of 2^-63) holds against
 * the doubles passed.  No fixed-point entry (_eval, _expm_p63): everything runs in binary64.
 * Needs x86-64 with FMA and GCC or Clang: build with -mfma or -march=x86-64-v3 (a compile-time error
 * otherwise).  Binary64 rounding to nearest, no -ffast-math.
 * Constant time: no branch, no table index and no division depends on x or ccs; the table is read
 * whole and selected in registers; binary64 operations on operands that are never subnormal (proven;
 * x below 2^-80 counts as 0, ccs below 2^-64 gives 0), which take a fixed time on x86-64.
 * Batch forms (avx512, avx2): falcon_x86_simd_fpr_expm_p63_batch(out, x, ccs, n) equals _native
 * element by element (run-time ISA choice, falcon_x86_simd_batch_isa() names it);
 * falcon_x86_simd_expm_p63_x8, falcon_x86_simd_expm_p63_x4 equal _domain lane by lane (see "Batch forms" below).
 */

#include <stddef.h>
#include <string.h>
#if !defined(__x86_64__) || !(defined(__GNUC__) || defined(__clang__))
#error "falcon_x86_simd.h: form eft needs x86-64 and GCC or Clang"
#endif
#if !defined(__FMA__)
#error "falcon_x86_simd.h: needs FMA: build with -mfma or -march=x86-64-v3"
#endif
#include <immintrin.h>

#define FALCON_X86_SIMD_FPR_EXPM_P63_ERR_BOUND 0.546170
#define FALCON_X86_SIMD_SEGMENTS 16
#define FALCON_X86_SIMD_DEGREE 8
#define FALCON_X86_SIMD_TABLE_BYTES 832
#define FALCON_X86_SIMD_X_FLUSH_BITS INT64_C(0x3AF0000000000000)
#define FALCON_X86_SIMD_C_FLUSH_BITS INT64_C(0x3BF0000000000000)
#define FALCON_X86_SIMD_KOFF UINT64_C(0x4338000000000000)
#define FALCON_X86_SIMD_INLINE static inline __attribute__((always_inline))

static const double falcon_x86_simd_tab_eh[16] __attribute__((aligned(64))) = {
    9.223372036854776e+18,
    8.664556174609912e+18,
    8.139597253909711e+18,
    7.646443986363478e+18,
    7.183169364861398e+18,
    6.747963133752375e+18,
    6.339124715230739e+18,
    5.955056564291511e+18,
    5.594257926288583e+18,
    5.255318972703321e+18,
    4.936915292208996e+18,
    4.637802715504738e+18,
    4.3568124536969615e+18,
    4.0928465312313574e+18,
    3.8448734955295596e+18,
    3.6119243865657784e+18,
};
static const double falcon_x86_simd_tab_el[16] __attribute__((aligned(64))) = {
    0.0,
    -198.5281987134032,
    -481.87755469614814,
    -254.60573147770822,
    -94.3723393495441,
    77.06832629896574,
    -342.07645033903725,
    -167.4326978599821,
    -6.081133743143798,
    -0.8556157346036523,
    -339.3268599070887,
    432.54720024823774,
    165.8731636106702,
    8.200681900926623,
    128.2914690563657,
    28.081099022596064,
};
static const double falcon_x86_simd_tab_pairs[24] __attribute__((aligned(16))) = {
    9.223372036854776e+18, 0.0,
    8.664556174609912e+18, -198.5281987134032,
    8.139597253909711e+18, -481.87755469614814,
    7.646443986363478e+18, -254.60573147770822,
    7.183169364861398e+18, -94.3723393495441,
    6.747963133752375e+18, 77.06832629896574,
    6.339124715230739e+18, -342.07645033903725,
    5.955056564291511e+18, -167.4326978599821,
    5.594257926288583e+18, -6.081133743143798,
    5.255318972703321e+18, -0.8556157346036523,
    4.936915292208996e+18, -339.3268599070887,
    4.637802715504738e+18, 432.54720024823774,
};
static const uint64_t falcon_x86_simd_tab_keys[24] __attribute__((aligned(16))) = {
    FALCON_X86_SIMD_KOFF + 0u, FALCON_X86_SIMD_KOFF + 0u,
    FALCON_X86_SIMD_KOFF + 1u, FALCON_X86_SIMD_KOFF + 1u,
    FALCON_X86_SIMD_KOFF + 2u, FALCON_X86_SIMD_KOFF + 2u,
    FALCON_X86_SIMD_KOFF + 3u, FALCON_X86_SIMD_KOFF + 3u,
    FALCON_X86_SIMD_KOFF + 4u, FALCON_X86_SIMD_KOFF + 4u,
    FALCON_X86_SIMD_KOFF + 5u, FALCON_X86_SIMD_KOFF + 5u,
    FALCON_X86_SIMD_KOFF + 6u, FALCON_X86_SIMD_KOFF + 6u,
    FALCON_X86_SIMD_KOFF + 7u, FALCON_X86_SIMD_KOFF + 7u,
    FALCON_X86_SIMD_KOFF + 8u, FALCON_X86_SIMD_KOFF + 8u,
    FALCON_X86_SIMD_KOFF + 9u, FALCON_X86_SIMD_KOFF + 9u,
    FALCON_X86_SIMD_KOFF + 10u, FALCON_X86_SIMD_KOFF + 10u,
    FALCON_X86_SIMD_KOFF + 11u, FALCON_X86_SIMD_KOFF + 11u,
};
static const uint64_t falcon_x86_simd_tabx_eh[12] __attribute__((aligned(32))) = {
    UINT64_C(0x43E0000000000000), UINT64_C(0x43DE0FABFBC702A4), UINT64_C(0x43DC3D6A24ED8222), UINT64_C(0x43DA876812C0877C), UINT64_C(0x0038EBEF9EAC820B), UINT64_C(0x000966CED6352DDA), UINT64_C(0x0009C32C31040CAD), UINT64_C(0x000E2E4F0BF67A75), UINT64_C(0x000B835D62C31401), UINT64_C(0x000552CC1D3379F5), UINT64_C(0x0004DE9A86A01D67), UINT64_C(0x0004BE1526EFFD29),
};
static const uint64_t falcon_x86_simd_tabx_el[12] __attribute__((aligned(32))) = {
    UINT64_C(0x0000000000000000), UINT64_C(0xC068D0E700FCFB65), UINT64_C(0xC07E1E0A76CB0685), UINT64_C(0xC06FD36226FADD44), UINT64_C(0xC05797D4686C5393), UINT64_C(0x803B94B875B81B8A), UINT64_C(0x000B7F335536986B), UINT64_C(0x000B3EBA8FD468C0), UINT64_C(0x004FC4C0D139CDF7), UINT64_C(0xFFB8256B4A86FAD4), UINT64_C(0x00005403F289ABF3), UINT64_C(0x801FE519FC229D31),
};

FALCON_X86_SIMD_INLINE uint64_t falcon_x86_simd_bits(double v) {
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

FALCON_X86_SIMD_INLINE double falcon_x86_simd_rounded(double v) {
    __asm__("" : "+x"(v));
    return v;
}

FALCON_X86_SIMD_INLINE double falcon_x86_simd_flush(double v, int64_t min_bits) {
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

FALCON_X86_SIMD_INLINE double falcon_x86_simd_max(double a, double b) {
#if defined(__x86_64__) && defined(__GNUC__)
    double r;
    __asm__("vmaxsd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
#else
    return a > b ? a : b;
#endif
}

FALCON_X86_SIMD_INLINE double falcon_x86_simd_min(double a, double b) {
#if defined(__x86_64__) && defined(__GNUC__)
    double r;
    __asm__("vminsd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
#else
    return a < b ? a : b;
#endif
}

FALCON_X86_SIMD_INLINE __m128d falcon_x86_simd_select(double m) {
    __m128i v = _mm_set1_epi64x((long long)falcon_x86_simd_bits(m));
    __m128i acc = _mm_setzero_si128();
    const uint64_t *keys = falcon_x86_simd_tab_keys;
    __asm__("" : "+r"(keys));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 0))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 0))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 2))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 2))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 4))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 4))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 6))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 6))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 8))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 8))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 10))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 10))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 12))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 12))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 14))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 14))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 16))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 16))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 18))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 18))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 20))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 20))));
    acc = _mm_or_si128(acc, _mm_and_si128(_mm_cmpeq_epi64(v, _mm_load_si128((const __m128i *)(const void *)(keys + 22))),
                                          _mm_load_si128((const __m128i *)(const void *)(falcon_x86_simd_tab_pairs + 22))));
    return _mm_castsi128_pd(acc);
}

FALCON_X86_SIMD_INLINE uint64_t falcon_x86_simd_core(double x, double ccs) {
    double m = __builtin_fma(x, 16.0, 6755399441055744.0);
    double jd = m - 6755399441055744.0;
    double t = __builtin_fma(-jd, 0.0625, x);
    __m128d e = falcon_x86_simd_select(m);
    double Eh = _mm_cvtsd_f64(e), El = _mm_cvtsd_f64(_mm_unpackhi_pd(e, e));
    double s1 = __builtin_fma(ccs, Eh, 1.8446744073709552e+19);
    double z1 = s1 - 1.8446744073709552e+19;
    double e1 = __builtin_fma(ccs, Eh, -z1);
    double s2 = __builtin_fma(-z1, t, s1);
    double y = s1 - s2;
    double e2 = __builtin_fma(-z1, t, y);
    double th = falcon_x86_simd_rounded(0.5 * t);
    double s3 = __builtin_fma(y, th, s2);
    double d3 = s2 - s3;
    double e3 = __builtin_fma(y, th, d3);
    double r4 = __builtin_fma(2.4801990976615388e-05, t, -0.00019841673516969886);
    double r3 = __builtin_fma(r4, t, 0.0013888888887410584);
    double r2 = __builtin_fma(r3, t, -0.008333333331855024);
    double r1 = __builtin_fma(r2, t, 0.04166666666666667);
    double r0 = __builtin_fma(r1, t, -0.16666666666666674);
    double tr = falcon_x86_simd_rounded(t * r0);
    double e2p = tr + 0.5;
    double g = __builtin_fma(-t, e2p, 1.0);
    double em = __builtin_fma(-t, g, 1.0);
    double L = __builtin_fma(ccs, El, e1);
    double sm1 = __builtin_fma(e2, g, e3);
    double sm2 = __builtin_fma(L, em, sm1);
    double yt = falcon_x86_simd_rounded(y * t);
    double sm3 = __builtin_fma(yt, tr, sm2);
    double mi = sm3 + 6755399441055744.0;
    return (falcon_x86_simd_bits(s3) << 12) + falcon_x86_simd_bits(mi) - FALCON_X86_SIMD_KOFF;
}

FALCON_X86_SIMD_INLINE uint64_t falcon_x86_simd_fpr_expm_p63_domain(double x, double ccs) {
    return falcon_x86_simd_core(falcon_x86_simd_flush(x, FALCON_X86_SIMD_X_FLUSH_BITS), falcon_x86_simd_flush(ccs, FALCON_X86_SIMD_C_FLUSH_BITS));
}

FALCON_X86_SIMD_INLINE uint64_t falcon_x86_simd_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_simd_fpr_expm_p63_domain(x, ccs);
}

FALCON_X86_SIMD_INLINE uint64_t falcon_x86_simd_fpr_expm_p63_native(double x, double ccs) {
    double xf = falcon_x86_simd_flush(x, FALCON_X86_SIMD_X_FLUSH_BITS), cf = falcon_x86_simd_flush(ccs, FALCON_X86_SIMD_C_FLUSH_BITS);
    xf = falcon_x86_simd_min(falcon_x86_simd_max(xf, 0.0), 0.6931471805599453);
    cf = falcon_x86_simd_min(falcon_x86_simd_max(cf, 0.0), 1.0);
    return falcon_x86_simd_core(xf, cf);
}

FALCON_X86_SIMD_INLINE uint64_t falcon_x86_simd_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_simd_fpr_expm_p63_native(x, ccs);
}

/**
 * Batch forms (config key batch; docs/abi.md, "Batch ABI").
 *
 *   falcon_x86_simd_fpr_expm_p63_batch(out, x, ccs, n): out[i] = falcon_x86_simd_fpr_expm_p63_native(x[i], ccs[i])
 *       for i < n, bit for bit, on the best instruction set this CPU has
 *       (falcon_x86_simd_batch_isa() names it), the scalar adaptor otherwise;
 *       the pointers need no alignment;
 *   falcon_x86_simd_expm_p63_x8(x, ccs): falcon_x86_simd_fpr_expm_p63_domain lane by lane (__m512d in,
 *       __m512i out), and falcon_x86_simd_fpr_expm_p63_native_x8(x, ccs) the same with every edge rule;
 *   falcon_x86_simd_expm_p63_x4(x, ccs): falcon_x86_simd_fpr_expm_p63_domain lane by lane (__m256d in,
 *       __m256i out), and falcon_x86_simd_fpr_expm_p63_native_x4(x, ccs) the same with every edge rule;
 *
 * Why the outputs are identical: every path runs the generator's one
 * operation list in the same order, each binary64 operation rounding to
 * nearest once (packed FMA as the scalar FMA; products out of contraction
 * behind an empty asm in every path); the table select yields the same
 * doubles (scalar: masked scan; AVX-512: VPERMT2PD on the low 4 bits of
 * bits(m) = KOFF + j; AVX2: VPERMD on 2 (j mod 4) and 2 (j mod 4) + 1 and an
 * XOR of rows under [j >= 4], [j >= 8]); the small part is rounded to the
 * nearest integer, ties to even, by the magic add (scalar, AVX2) or
 * VCVTPD2QQ {rn-sae} (AVX-512), the same integer for |small| < 2^51; the
 * flush and clamps are the same compare-and-mask, MAXPD and MINPD.  The
 * scalar bound therefore holds for every lane; tests/test_batch.py and
 * tests/test_eft.py compare them bit for bit.
 *
 * Each instruction set is enabled per function (target attributes); the
 * array entry checks the CPU (__builtin_cpu_supports) before it runs a SIMD
 * path.  Define FALCON_X86_SIMD_BATCH_FORCE to FALCON_X86_SIMD_BATCH_PATH_SCALAR, FALCON_X86_SIMD_BATCH_PATH_AVX512, FALCON_X86_SIMD_BATCH_PATH_AVX2
 * to pick a path without looking (tests; the CPU must have it).
 *
 * Constant time: no branch, memory index or gather depends on x or ccs (the
 * loops branch on n only); VPERMT2PD, VPERMD, compares, logic and packed
 * binary64 operations on normal operands take a fixed time on x86-64.
 */
#define FALCON_X86_SIMD_BATCH_PATH_SCALAR 0
#define FALCON_X86_SIMD_BATCH_PATH_AVX512 8
#define FALCON_X86_SIMD_BATCH_PATH_AVX2 4
#define FALCON_X86_SIMD_BATCH_SIMD 1
#define FALCON_X86_SIMD_X8_ATTR static inline __attribute__((always_inline, target("avx512f,avx512dq")))

FALCON_X86_SIMD_X8_ATTR __m512d falcon_x86_simd_x8_rounded(__m512d v) {
    __asm__("" : "+v"(v));
    return v;
}

FALCON_X86_SIMD_X8_ATTR __m512d falcon_x86_simd_x8_flush(__m512d v, int64_t min_bits) {
    __m512i bits = _mm512_castpd_si512(v);
    __mmask8 keep = _mm512_cmpgt_epi64_mask(bits, _mm512_set1_epi64(min_bits - 1));
    return _mm512_castsi512_pd(_mm512_maskz_mov_epi64(keep, bits));
}

FALCON_X86_SIMD_X8_ATTR __m512i falcon_x86_simd_x8_core(__m512d x, __m512d ccs) {
    __m512d m = _mm512_fmadd_pd(x, _mm512_set1_pd(16.0), _mm512_set1_pd(6755399441055744.0));
    __m512d jd = _mm512_sub_pd(m, _mm512_set1_pd(6755399441055744.0));
    __m512d t = _mm512_fnmadd_pd(jd, _mm512_set1_pd(0.0625), x);
    __m512i idx = _mm512_castpd_si512(m);
    __m512d Eh = _mm512_permutex2var_pd(_mm512_load_pd(falcon_x86_simd_tab_eh), idx, _mm512_load_pd(falcon_x86_simd_tab_eh + 8));
    __m512d El = _mm512_permutex2var_pd(_mm512_load_pd(falcon_x86_simd_tab_el), idx, _mm512_load_pd(falcon_x86_simd_tab_el + 8));
    __m512d s1 = _mm512_fmadd_pd(ccs, Eh, _mm512_set1_pd(1.8446744073709552e+19));
    __m512d z1 = _mm512_sub_pd(s1, _mm512_set1_pd(1.8446744073709552e+19));
    __m512d e1 = _mm512_fmsub_pd(ccs, Eh, z1);
    __m512d s2 = _mm512_fnmadd_pd(z1, t, s1);
    __m512d y = _mm512_sub_pd(s1, s2);
    __m512d e2 = _mm512_fnmadd_pd(z1, t, y);
    __m512d th = falcon_x86_simd_x8_rounded(_mm512_mul_pd(_mm512_set1_pd(0.5), t));
    __m512d s3 = _mm512_fmadd_pd(y, th, s2);
    __m512d d3 = _mm512_sub_pd(s2, s3);
    __m512d e3 = _mm512_fmadd_pd(y, th, d3);
    __m512d r4 = _mm512_fmadd_pd(_mm512_set1_pd(2.4801990976615388e-05), t, _mm512_set1_pd(-0.00019841673516969886));
    __m512d r3 = _mm512_fmadd_pd(r4, t, _mm512_set1_pd(0.0013888888887410584));
    __m512d r2 = _mm512_fmadd_pd(r3, t, _mm512_set1_pd(-0.008333333331855024));
    __m512d r1 = _mm512_fmadd_pd(r2, t, _mm512_set1_pd(0.04166666666666667));
    __m512d r0 = _mm512_fmadd_pd(r1, t, _mm512_set1_pd(-0.16666666666666674));
    __m512d tr = falcon_x86_simd_x8_rounded(_mm512_mul_pd(t, r0));
    __m512d e2p = _mm512_add_pd(tr, _mm512_set1_pd(0.5));
    __m512d g = _mm512_fnmadd_pd(t, e2p, _mm512_set1_pd(1.0));
    __m512d em = _mm512_fnmadd_pd(t, g, _mm512_set1_pd(1.0));
    __m512d L = _mm512_fmadd_pd(ccs, El, e1);
    __m512d sm1 = _mm512_fmadd_pd(e2, g, e3);
    __m512d sm2 = _mm512_fmadd_pd(L, em, sm1);
    __m512d yt = falcon_x86_simd_x8_rounded(_mm512_mul_pd(y, t));
    __m512d sm3 = _mm512_fmadd_pd(yt, tr, sm2);
    __m512i big = _mm512_slli_epi64(_mm512_castpd_si512(s3), 12);
    return _mm512_add_epi64(big, _mm512_cvt_roundpd_epi64(sm3, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

FALCON_X86_SIMD_X8_ATTR __m512i falcon_x86_simd_expm_p63_x8(__m512d x, __m512d ccs) {
    return falcon_x86_simd_x8_core(falcon_x86_simd_x8_flush(x, FALCON_X86_SIMD_X_FLUSH_BITS), falcon_x86_simd_x8_flush(ccs, FALCON_X86_SIMD_C_FLUSH_BITS));
}

FALCON_X86_SIMD_X8_ATTR __m512i falcon_x86_simd_fpr_expm_p63_native_x8(__m512d x, __m512d ccs) {
    __m512d xf = falcon_x86_simd_x8_flush(x, FALCON_X86_SIMD_X_FLUSH_BITS), cf = falcon_x86_simd_x8_flush(ccs, FALCON_X86_SIMD_C_FLUSH_BITS);
    xf = _mm512_min_pd(_mm512_max_pd(xf, _mm512_setzero_pd()), _mm512_set1_pd(0.6931471805599453));
    cf = _mm512_min_pd(_mm512_max_pd(cf, _mm512_setzero_pd()), _mm512_set1_pd(1.0));
    return falcon_x86_simd_x8_core(xf, cf);
}
static inline __attribute__((target("avx512f,avx512dq")))
void falcon_x86_simd_fpr_expm_p63_batch_avx512(uint64_t *out, const double *x, const double *ccs, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i r = falcon_x86_simd_fpr_expm_p63_native_x8(_mm512_loadu_pd(x + i), _mm512_loadu_pd(ccs + i));
        _mm512_storeu_si512((__m512i *)(void *)(out + i), r);
    }
    if (i < n) {
        __mmask8 k = (__mmask8)((1u << (n - i)) - 1u);
        __m512i r = falcon_x86_simd_fpr_expm_p63_native_x8(_mm512_maskz_loadu_pd(k, x + i), _mm512_maskz_loadu_pd(k, ccs + i));
        _mm512_mask_storeu_epi64(out + i, k, r);
    }
}

#define FALCON_X86_SIMD_X4_ATTR static inline __attribute__((always_inline, target("avx2,fma")))

FALCON_X86_SIMD_X4_ATTR __m256d falcon_x86_simd_x4_rounded(__m256d v) {
    __asm__("" : "+v"(v));
    return v;
}

FALCON_X86_SIMD_X4_ATTR __m256d falcon_x86_simd_x4_flush(__m256d v, int64_t min_bits) {
    __m256i bits = _mm256_castpd_si256(v);
    __m256i keep = _mm256_cmpgt_epi64(bits, _mm256_set1_epi64x(min_bits - 1));
    return _mm256_castsi256_pd(_mm256_and_si256(bits, keep));
}

FALCON_X86_SIMD_X4_ATTR __m256d falcon_x86_simd_x4_select(const uint64_t *rows, __m256i i32, __m256i ge4, __m256i ge8) {
    __m256i a = _mm256_permutevar8x32_epi32(_mm256_load_si256((const __m256i *)(const void *)rows), i32);
    __m256i ab = _mm256_permutevar8x32_epi32(_mm256_load_si256((const __m256i *)(const void *)(rows + 4)), i32);
    __m256i bc = _mm256_permutevar8x32_epi32(_mm256_load_si256((const __m256i *)(const void *)(rows + 8)), i32);
    return _mm256_castsi256_pd(_mm256_xor_si256(_mm256_xor_si256(a, _mm256_and_si256(ab, ge4)), _mm256_and_si256(bc, ge8)));
}

FALCON_X86_SIMD_X4_ATTR __m256i falcon_x86_simd_x4_core(__m256d x, __m256d ccs) {
    __m256d m = _mm256_fmadd_pd(x, _mm256_set1_pd(16.0), _mm256_set1_pd(6755399441055744.0));
    __m256d jd = _mm256_sub_pd(m, _mm256_set1_pd(6755399441055744.0));
    __m256d t = _mm256_fnmadd_pd(jd, _mm256_set1_pd(0.0625), x);
    __m256i v = _mm256_castpd_si256(m);
    __m256i d = _mm256_shuffle_epi32(v, 0xA0);
    __m256i i32 = _mm256_or_si256(_mm256_add_epi32(d, d), _mm256_set1_epi64x(INT64_C(1) << 32));
    __m256i ge4 = _mm256_castpd_si256(_mm256_cmp_pd(jd, _mm256_set1_pd(3.5), _CMP_GT_OQ));
    __m256i ge8 = _mm256_castpd_si256(_mm256_cmp_pd(jd, _mm256_set1_pd(7.5), _CMP_GT_OQ));
    __m256d Eh = falcon_x86_simd_x4_select(falcon_x86_simd_tabx_eh, i32, ge4, ge8);
    __m256d El = falcon_x86_simd_x4_select(falcon_x86_simd_tabx_el, i32, ge4, ge8);
    __m256d s1 = _mm256_fmadd_pd(ccs, Eh, _mm256_set1_pd(1.8446744073709552e+19));
    __m256d z1 = _mm256_sub_pd(s1, _mm256_set1_pd(1.8446744073709552e+19));
    __m256d e1 = _mm256_fmsub_pd(ccs, Eh, z1);
    __m256d s2 = _mm256_fnmadd_pd(z1, t, s1);
    __m256d y = _mm256_sub_pd(s1, s2);
    __m256d e2 = _mm256_fnmadd_pd(z1, t, y);
    __m256d th = falcon_x86_simd_x4_rounded(_mm256_mul_pd(_mm256_set1_pd(0.5), t));
    __m256d s3 = _mm256_fmadd_pd(y, th, s2);
    __m256d d3 = _mm256_sub_pd(s2, s3);
    __m256d e3 = _mm256_fmadd_pd(y, th, d3);
    __m256d r4 = _mm256_fmadd_pd(_mm256_set1_pd(2.4801990976615388e-05), t, _mm256_set1_pd(-0.00019841673516969886));
    __m256d r3 = _mm256_fmadd_pd(r4, t, _mm256_set1_pd(0.0013888888887410584));
    __m256d r2 = _mm256_fmadd_pd(r3, t, _mm256_set1_pd(-0.008333333331855024));
    __m256d r1 = _mm256_fmadd_pd(r2, t, _mm256_set1_pd(0.04166666666666667));
    __m256d r0 = _mm256_fmadd_pd(r1, t, _mm256_set1_pd(-0.16666666666666674));
    __m256d tr = falcon_x86_simd_x4_rounded(_mm256_mul_pd(t, r0));
    __m256d e2p = _mm256_add_pd(tr, _mm256_set1_pd(0.5));
    __m256d g = _mm256_fnmadd_pd(t, e2p, _mm256_set1_pd(1.0));
    __m256d em = _mm256_fnmadd_pd(t, g, _mm256_set1_pd(1.0));
    __m256d L = _mm256_fmadd_pd(ccs, El, e1);
    __m256d sm1 = _mm256_fmadd_pd(e2, g, e3);
    __m256d sm2 = _mm256_fmadd_pd(L, em, sm1);
    __m256d yt = falcon_x86_simd_x4_rounded(_mm256_mul_pd(y, t));
    __m256d sm3 = _mm256_fmadd_pd(yt, tr, sm2);
    __m256i big = _mm256_slli_epi64(_mm256_castpd_si256(s3), 12);
    __m256i mi = _mm256_castpd_si256(_mm256_add_pd(sm3, _mm256_set1_pd(6755399441055744.0)));
    return _mm256_add_epi64(big, _mm256_sub_epi64(mi, _mm256_set1_epi64x((long long)FALCON_X86_SIMD_KOFF)));
}

FALCON_X86_SIMD_X4_ATTR __m256i falcon_x86_simd_expm_p63_x4(__m256d x, __m256d ccs) {
    return falcon_x86_simd_x4_core(falcon_x86_simd_x4_flush(x, FALCON_X86_SIMD_X_FLUSH_BITS), falcon_x86_simd_x4_flush(ccs, FALCON_X86_SIMD_C_FLUSH_BITS));
}

FALCON_X86_SIMD_X4_ATTR __m256i falcon_x86_simd_fpr_expm_p63_native_x4(__m256d x, __m256d ccs) {
    __m256d xf = falcon_x86_simd_x4_flush(x, FALCON_X86_SIMD_X_FLUSH_BITS), cf = falcon_x86_simd_x4_flush(ccs, FALCON_X86_SIMD_C_FLUSH_BITS);
    xf = _mm256_min_pd(_mm256_max_pd(xf, _mm256_setzero_pd()), _mm256_set1_pd(0.6931471805599453));
    cf = _mm256_min_pd(_mm256_max_pd(cf, _mm256_setzero_pd()), _mm256_set1_pd(1.0));
    return falcon_x86_simd_x4_core(xf, cf);
}
static inline __attribute__((target("avx2,fma")))
void falcon_x86_simd_fpr_expm_p63_batch_avx2(uint64_t *out, const double *x, const double *ccs, size_t n) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i r = falcon_x86_simd_fpr_expm_p63_native_x4(_mm256_loadu_pd(x + i), _mm256_loadu_pd(ccs + i));
        _mm256_storeu_si256((__m256i *)(void *)(out + i), r);
    }
    if (i < n) {
        __m256i k = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(n - i)), _mm256_set_epi64x(3, 2, 1, 0));
        __m256i r = falcon_x86_simd_fpr_expm_p63_native_x4(_mm256_maskload_pd(x + i, k), _mm256_maskload_pd(ccs + i, k));
        _mm256_maskstore_epi64((long long *)(void *)(out + i), k, r);
    }
}
static inline void falcon_x86_simd_fpr_expm_p63_batch_scalar(uint64_t *out, const double *x, const double *ccs, size_t n) {
    size_t i;
    for (i = 0; i < n; i++) {
        out[i] = falcon_x86_simd_fpr_expm_p63_native(x[i], ccs[i]);
    }
}
static inline int falcon_x86_simd_batch_path(void) {
#if defined(FALCON_X86_SIMD_BATCH_FORCE)
    return FALCON_X86_SIMD_BATCH_FORCE;
#else
#if defined(FALCON_X86_SIMD_BATCH_SIMD)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
        return FALCON_X86_SIMD_BATCH_PATH_AVX512;
    }
#endif
#if defined(FALCON_X86_SIMD_BATCH_SIMD)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        return FALCON_X86_SIMD_BATCH_PATH_AVX2;
    }
#endif
    return FALCON_X86_SIMD_BATCH_PATH_SCALAR;
#endif
}
static inline const char *falcon_x86_simd_batch_isa(void) {
    switch (falcon_x86_simd_batch_path()) {
    case FALCON_X86_SIMD_BATCH_PATH_AVX512:
        return "avx512";
    case FALCON_X86_SIMD_BATCH_PATH_AVX2:
        return "avx2";
    default:
        return "scalar";
    }
}
static inline void falcon_x86_simd_fpr_expm_p63_batch(uint64_t *out, const double *x, const double *ccs, size_t n) {
    switch (falcon_x86_simd_batch_path()) {
#if defined(FALCON_X86_SIMD_BATCH_SIMD)
    case FALCON_X86_SIMD_BATCH_PATH_AVX512:
        falcon_x86_simd_fpr_expm_p63_batch_avx512(out, x, ccs, n);
        return;
    case FALCON_X86_SIMD_BATCH_PATH_AVX2:
        falcon_x86_simd_fpr_expm_p63_batch_avx2(out, x, ccs, n);
        return;
#endif
    default:
        falcon_x86_simd_fpr_expm_p63_batch_scalar(out, x, ccs, n);
        return;
    }
}
#endif

/* SPDX-License-Identifier: MIT */
/*
 * refs.h -- the reference implementations of fpr_expm_p63 that the
 * benchmark times next to the generated kernels.  Written from
 * ../shared/anchors/FACCT.md (the algorithm descriptions and constants),
 * not from any public source file.
 *
 * Every function here has the native-float Falcon signature
 *     uint64_t f(double x, double ccs)
 * and returns approximately ccs * exp(-x) * 2^63 for 0 <= x < ln 2 and
 * 0 <= ccs <= 1.  The input conversions are part of each function, so a
 * timing of any of them includes what a Falcon caller would pay.
 *
 * Constant-time assumptions: none of these functions branches on or indexes
 * memory with its inputs.  They rely on (1) the 64x64->128 multiply (MUL on
 * x86-64) taking a data-independent time, (2) double-precision add, multiply
 * and CVTTSD2SI taking a data-independent time on normal, non-subnormal
 * operands (x and ccs are normal or zero here; a subnormal x could be slow
 * on some CPUs, which is a property of the references and not fixed here).
 *
 * Every function is `static inline` so that the benchmark's timing loops
 * inline it exactly as they inline a generated kernel.
 */
#ifndef BENCH_REFS_H
#define BENCH_REFS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "facct_ref.h"

/* 2^63 as a double: multiplying by it only changes the exponent, so
 * v * BENCH_TWO63 is exact for every finite v that does not overflow. */
#define BENCH_TWO63 9223372036854775808.0

/* The IEEE-754 bit pattern of a double, through memcpy so that the
 * compiler sees a plain register move and no aliasing rule is broken. */
static inline uint64_t bench_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* Function names: the row "facct_portable" is bench_ref_portable, and so on;
 * the bench_ref_ prefix keeps them clear of a generated kernel named
 * "facct", whose functions are all facct_*. */

/* ---- facct_portable: the emulated-float reference ----------------------
 * runtime/facct_ref.c, reused unchanged: the emulated-float conversion of
 * both inputs from their bit patterns, then the 13-constant Horner with
 * 64-bit high products built from four 32x32->64 limb products. */
static inline uint64_t bench_ref_portable(double x, double ccs)
{
    return facct_ref_expm_p63(bench_bits(x), bench_bits(ccs));
}

/* ---- facct_int128: native double conversion + __int128 Horner -----------
 * The ApproxExp constants are runtime/facct_ref.c's facct_ref_c (unsigned
 * Q63, highest degree first); only the products differ. */

/* trunc(v * 2^63) as the native build computes it: the product is exact,
 * and the cast through int64_t compiles to one CVTTSD2SI with no branch
 * (a direct cast to uint64_t may compile to a compare-and-branch).  For
 * v == 1.0 the value 2^63 is out of int64 range: CVTTSD2SI then returns
 * the "integer indefinite" 0x8000000000000000, whose double 2 * ... is 0
 * modulo 2^64, which is what the integer reference returns.  In ISO C that
 * conversion is undefined; we rely on GCC/Clang emitting CVTTSD2SI for it
 * on x86-64, which the vector test (ccs just below 1 and the edge rows)
 * checks. */
static inline uint64_t bench_trunc_2p63_native(double v)
{
    return (uint64_t)(int64_t)(v * BENCH_TWO63);
}

/* floor(a * b / 2^64): the high half of one 64x64->128 product. */
static inline uint64_t bench_mulhi_u128(uint64_t a, uint64_t b)
{
    __extension__ typedef unsigned __int128 u128;
    return (uint64_t)(((u128)a * b) >> 64);
}

/* z = floor(x * 2^64) and w = floor(ccs * 2^64) in Q0.64 (v / 2^64),
 * obtained as 2 * trunc(v * 2^63) exactly as the reference does (so the
 * lowest bit is always 0).  Then y = C[0]; y = C[i] - hi(z, y): every y is
 * an unsigned Q63 value (y / 2^63) and hi(z, y) keeps y's scale because z
 * is Q0.64.  Finally hi(w, y) = ccs * y, still Q63. */
static inline uint64_t bench_ref_int128(double x, double ccs)
{
    uint64_t z = bench_trunc_2p63_native(x) << 1;
    uint64_t w = bench_trunc_2p63_native(ccs) << 1;
    uint64_t y = facct_ref_c[0];
    int i;
    for (i = 1; i < 13; i++) {
        y = facct_ref_c[i] - bench_mulhi_u128(z, y);
    }
    return bench_mulhi_u128(w, y);
}

/* ---- facct_double: 13-term Horner in double precision -------------------
 * |coefficient| of x^k in the approximation of exp(-x), k = 0..12; the sign
 * of the term is (-1)^k.  Values as given in FACCT.md. */
static const double bench_facct_d[13] = {
    1.0,
    0.999999999999994892974086724280,
    0.500000000000019206858326015208,
    0.166666666666984014666397229121,
    0.041666666666110491190622155955,
    0.008333333327800835146903501993,
    0.001388888894063186997887560103,
    0.000198412739277311890541063977,
    0.000024801566833585381209939524,
    0.000002755586350219122514855659,
    0.000000275607356160477811864927,
    0.000000025299506379442070029551,
    0.000000002073772366009083061987,
};

/* y(x) = sum_k (-1)^k d[k] x^k by Horner, y = d[k] - y * x from the top,
 * which produces the alternating signs without negating any coefficient.
 * Each step rounds the product and the difference separately: the build
 * uses -ffp-contract=off so that no FMA fuses them (the vectors were made
 * that way).  Then y *= ccs, and y * 2^63 (exact) is converted through
 * int64_t, one CVTTSD2SI.  For y * 2^63 >= 2^63 (x == 0 and ccs == 1) the
 * conversion yields 0x8000000000000000 = 2^63, the documented behaviour of
 * the double references. */
static inline uint64_t bench_ref_double(double x, double ccs)
{
    double y = bench_facct_d[12];
    int k;
    /* Fully unrolled: gcc -O2 otherwise keeps a 12-iteration loop whose
     * branch roughly halves batch throughput (measured: 43 -> 21 TSC ticks
     * per call), which would misrepresent a straight-line Horner. */
#pragma GCC unroll 12
    for (k = 11; k >= 0; k--) {
        y = bench_facct_d[k] - y * x;
    }
    y *= ccs;
    return (uint64_t)(int64_t)(y * BENCH_TWO63);
}

/* ---- facct_avx2: three groups of four lanes ------------------------------
 * With d = -x, y(x) = 1 + sum_{k=1..12} d[k] * d^k.  The twelve terms are
 * split into three groups of four lanes: lane j of group g holds d^(4g+j+1).
 * The lanes of group 0 are (d, d^2, d^3, d^4); groups 1 and 2 are group 0
 * times d^4 and times d^8.  Each group is multiplied by its coefficients
 * and the groups are summed lane-wise as g2 + (g1 + g0), each product
 * rounded before its addition (no FMA), then the four
 * lanes are reduced pairwise (l0 + l1) and (l2 + l3), and
 * y = (1 + (l0 + l1)) + (l2 + l3).  Tree depth: about 5 multiplies/adds
 * instead of Horner's 24 dependent operations. */
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

/* The coefficients d[1..12] as three aligned groups of four lanes. */
static const double bench_facct_avx2_c[12] __attribute__((aligned(32))) = {
    0.999999999999994892974086724280, 0.500000000000019206858326015208,
    0.166666666666984014666397229121, 0.041666666666110491190622155955,
    0.008333333327800835146903501993, 0.001388888894063186997887560103,
    0.000198412739277311890541063977, 0.000024801566833585381209939524,
    0.000002755586350219122514855659, 0.000000275607356160477811864927,
    0.000000025299506379442070029551, 0.000000002073772366009083061987,
};

/* Compiled for AVX2 whatever the build flags, so the rest of the program
 * stays generic x86-64; callers must check __builtin_cpu_supports("avx2")
 * before calling.  The "fma" target is allowed but, with
 * -ffp-contract=off, mul and add stay separate. */
__attribute__((target("avx2,fma")))
static inline uint64_t bench_ref_avx2(double x, double ccs)
{
    double d1 = -x;
    double d2 = d1 * d1;
    double d3 = d2 * d1;
    double d4 = d2 * d2;
    double d8 = d4 * d4;
    /* _mm256_set_pd lists lanes from the highest to the lowest. */
    __m256d p14 = _mm256_set_pd(d4, d3, d2, d1);
    __m256d p58 = _mm256_mul_pd(p14, _mm256_set1_pd(d4));
    __m256d p9c = _mm256_mul_pd(p14, _mm256_set1_pd(d8));
    __m256d g0 = _mm256_mul_pd(p14, _mm256_load_pd(&bench_facct_avx2_c[0]));
    __m256d g1 = _mm256_add_pd(
        _mm256_mul_pd(p58, _mm256_load_pd(&bench_facct_avx2_c[4])), g0);
    __m256d g2 = _mm256_add_pd(
        _mm256_mul_pd(p9c, _mm256_load_pd(&bench_facct_avx2_c[8])), g1);
    /* hadd gives (l0 + l1) in lane 0 and (l2 + l3) in lane 2. */
    __m256d h = _mm256_hadd_pd(g2, g2);
    double lo = _mm256_cvtsd_f64(h);
    double hi = _mm_cvtsd_f64(_mm256_extractf128_pd(h, 1));
    double y = 1.0 + lo + hi;
    y *= ccs;
    return (uint64_t)(int64_t)(y * BENCH_TWO63);
}
#endif

/* ---- facct_int128_x4: four facct_int128 calls interleaved ----------------
 * What a vectorized signer does today with the scalar reference: four
 * independent evaluations written in lockstep, so each Horner step issues
 * four independent 64x64->128 products.  Every lane is bench_ref_int128
 * bit for bit (the same operations on its own inputs). */
static inline void bench_ref_int128_x4(uint64_t *out, const double *x, const double *ccs)
{
    uint64_t z[4], w[4], y[4];
    int i, l;
    /* Unrolled, so the twelve steps of the four lanes are straight-line
     * code with every word in a register, as a hand-interleaved signer has. */
#pragma GCC unroll 4
    for (l = 0; l < 4; l++) {
        z[l] = bench_trunc_2p63_native(x[l]) << 1;
        w[l] = bench_trunc_2p63_native(ccs[l]) << 1;
        y[l] = facct_ref_c[0];
    }
#pragma GCC unroll 12
    for (i = 1; i < 13; i++) {
#pragma GCC unroll 4
        for (l = 0; l < 4; l++) {
            y[l] = facct_ref_c[i] - bench_mulhi_u128(z[l], y[l]);
        }
    }
#pragma GCC unroll 4
    for (l = 0; l < 4; l++) {
        out[l] = bench_mulhi_u128(w[l], y[l]);
    }
}

/* out[i] for i < n: groups of four, the last n mod 4 one by one. */
static inline void bench_ref_int128_x4_array(uint64_t *out, const double *x, const double *ccs, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        bench_ref_int128_x4(out + i, x + i, ccs + i);
    }
    for (; i < n; i++) {
        out[i] = bench_ref_int128(x[i], ccs[i]);
    }
}

#if defined(__x86_64__) || defined(__i386__)
/* ---- facct_avx2_x4: facct_double's Horner over four lanes ---------------
 * The 13-term binary64 Horner of facct_double, y = d[k] - y x, one lane
 * per input (mul and sub rounded separately, no FMA, as facct_double),
 * then y ccs and y 2^63 (exact), truncated to an integer.  AVX2 has no
 * double -> int64 conversion: v = m 2^(e - 1075) with m the significand
 * (implicit bit included), so trunc(v) = m << (e - 1075) or m >> (1075 -
 * e), whichever count lies in 0..63 (VPSLLVQ/VPSRLVQ give 0 for the
 * other); for 0 <= v <= 2^63 that is CVTTSD2SI's result, 2^63 included.
 * So every lane equals bench_ref_double bit for bit, and its accuracy is
 * facct_double's: 4625.6 units of 2^-63 at most (2^-50.8, FACCT.md). */
__attribute__((target("avx2,fma")))
static inline __m256i bench_avx2_trunc_u64(__m256d v)
{
    __m256i b = _mm256_castpd_si256(v);
    __m256i e = _mm256_srli_epi64(b, 52);
    __m256i m = _mm256_or_si256(_mm256_and_si256(b, _mm256_set1_epi64x(0xFFFFFFFFFFFFFll)),
                                _mm256_set1_epi64x(0x10000000000000ll));
    __m256i k = _mm256_set1_epi64x(1075);
    return _mm256_or_si256(_mm256_sllv_epi64(m, _mm256_sub_epi64(e, k)),
                           _mm256_srlv_epi64(m, _mm256_sub_epi64(k, e)));
}

__attribute__((target("avx2,fma")))
static inline void bench_ref_avx2_x4(uint64_t *out, const double *x, const double *ccs)
{
    __m256d vx = _mm256_loadu_pd(x);
    __m256d y = _mm256_set1_pd(bench_facct_d[12]);
    int k;
#pragma GCC unroll 12
    for (k = 11; k >= 0; k--) {
        y = _mm256_sub_pd(_mm256_set1_pd(bench_facct_d[k]), _mm256_mul_pd(y, vx));
    }
    y = _mm256_mul_pd(y, _mm256_loadu_pd(ccs));
    _mm256_storeu_si256((__m256i *)(void *)out,
                        bench_avx2_trunc_u64(_mm256_mul_pd(y, _mm256_set1_pd(BENCH_TWO63))));
}

__attribute__((target("avx2,fma")))
static inline void bench_ref_avx2_x4_array(uint64_t *out, const double *x, const double *ccs, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        bench_ref_avx2_x4(out + i, x + i, ccs + i);
    }
    for (; i < n; i++) {
        out[i] = bench_ref_double(x[i], ccs[i]);
    }
}
#endif

/* ---- null: the harness overhead ------------------------------------------
 * A cheap function of both inputs (one XOR of their bit patterns), so the
 * loop still depends on them: its chain and batch rows measure what the
 * timing loop itself costs per call.  Reported as its own row; nothing is
 * subtracted from the other rows. */
static inline uint64_t bench_null(double x, double ccs)
{
    return bench_bits(x) ^ bench_bits(ccs);
}

#endif /* BENCH_REFS_H */

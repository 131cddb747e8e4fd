/* SPDX-License-Identifier: MIT */
/* proto.h -- research prototype (README.md): a faithful fpr_expm_p63(x, ccs)
 * ~= ccs exp(-x) 2^63 in the shape of form fold (falcon_x86_fast), with
 * the low words that fold drops kept.  Hand-written, not generator output,
 * not shipped, its error measured (../acc_double.c), not proven.
 *
 * Units: u = 2^-63 of the result.  z = 2 trunc(x 2^63) (Q0.64, x' = z/2^64),
 * C = trunc(ccs 2^63), the middle words W_j = |a_j| 2^65 (coeffs.h).
 *
 *   Af = C z (128 bits)                 C x' exactly, in units of u 2^-64
 *   A2 = floor(Af / 2^63)               C x' in units of u/2
 *   B2 = floor(A2 z / 2^63)             C x'^2 in units of u/4 (< 2^64)
 *   K4 = W4 - hi(z, W5) + hi(zz, W6),  K2 = W2 - hi(z, W3) + hi(zz, K4)
 *                                       k(x') = a_2 - |a_3| x' + ... + a_6 x'^4 at 2^65
 *   Tf = B2 K2 (128 bits)               C x'^2 k(x') in units of u 2^-67
 *   G  = round(2^8 (c x^7 (a_7 + ... + a_13 x^6) + rc E(x) - ccs fx))
 *                                       the binary64 part, in units of u/2^8
 *   S  = C 2^64 - Af + Tf / 8 + (G + BIAS) 2^56,  result = floor(S / 2^64)
 *        (a 128-bit sum by add/adc and sub/sbb; only its high word is kept)
 *
 * rc = ccs 2^63 - C and fx = x 2^63 - X are the conversions' remainders
 * (exact in binary64; nonzero only for ccs < 2^-10 and x < 2^-11): the
 * result gains rc e^-x - ccs fx e^-x', taken as rc E(x) - ccs fx with E
 * the minimax quadratic of e^-x (error 0.0012) and e^-x' ~= 1 (x' < 2^-11).
 * So the kernel is measured against the exact value of the double inputs.
 * BIAS rounds to nearest and centres the measured error (README.md).
 *
 * The binary64 part reads v = max(x 2^63, 2^40) and c = max(ccs 2^63, 1)
 * (as form fold) and its remainder product uses c, so its operands stay
 * normal on the inputs tried; no proof of that here (README.md).
 * Constant time: no branch, no table, no division.  Needs x86-64-v3.
 */
#ifndef FF_PROTO_H
#define FF_PROTO_H

#include <stdint.h>
#include <immintrin.h>

#include "coeffs.h"
#include "../proto_common.h"

#ifndef FF_ATTR
#define FF_ATTR static inline __attribute__((always_inline))
#endif

/* 1/2 + 1/8 of a unit, in units of u/2^8: round to nearest, and centre the
 * measured error (README.md); added to G, whose unit it is. */
#ifndef FF_BIAS
#define FF_BIAS 160
#endif

FF_ATTR double ff_trunc(__m128d v)
{
    return _mm_cvtsd_f64(_mm_round_sd(v, v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC));
}

/* The binary64 part G (units of u/2^8), rounded by CVTSD2SI. */
FF_ATTR int64_t ff_tail(__m128d xs, __m128d cs)
{
    double xv = _mm_cvtsd_f64(xs), cv = _mm_cvtsd_f64(cs);
    double v = _mm_cvtsd_f64(_mm_max_sd(xs, _mm_set_sd(0x1p40)));
    double c = _mm_cvtsd_f64(_mm_max_sd(cs, _mm_set_sd(1.0)));
    const double *q = FF_Q;
    double v2 = v * v;
    double q01 = __builtin_fma(q[1], v, q[0]), q23 = __builtin_fma(q[3], v, q[2]);
    double q45 = __builtin_fma(q[5], v, q[4]);
    double v4 = v2 * v2;
    double r0 = __builtin_fma(q23, v2, q01), r1 = __builtin_fma(q[6], v2, q45);
    double Q = __builtin_fma(r1, v4, r0);
    double cv7 = c * (v4 * (v2 * v));
    /* The remainders: 2^8 (rc E(x) - ccs fx), E read at v (x below 2^-23 as 2^-23). */
    double fx = xv - ff_trunc(xs), rc = cv - ff_trunc(cs);
    double e = __builtin_fma(__builtin_fma(FF_E[2] * 0x1p-126, v, FF_E[1] * 0x1p-63), v, FF_E[0]);
    double m = (c * 0x1p-55) * fx;
#ifdef CONTROL_NO_REMAINDER
    rc = 0.0;       /* control: the conversion remainders dropped */
    m = 0.0;
#endif
    double corr = __builtin_fma(rc, e, -m);
    double g = __builtin_fma(cv7, Q, corr);
    return _mm_cvtsd_si64(_mm_set_sd(g));
}

/* Falcon's contract: 0 <= x < ln 2, 0 <= ccs <= 1. */
FF_ATTR uint64_t ff_domain(double x, double ccs)
{
    __m128d xs = proto_times_2p63(x), cs = proto_times_2p63(ccs);
    uint64_t X = (uint64_t)_mm_cvttsd_si64(xs), C = (uint64_t)_mm_cvttsd_si64(cs);
    uint64_t z = X + X;
    int64_t G = ff_tail(xs, cs);
    proto_u128 Af = (proto_u128)C * z;
    uint64_t A2 = (uint64_t)(Af >> 63);
    uint64_t B2 = (uint64_t)(((proto_u128)A2 * z) >> 63);
    uint64_t zz = proto_hi(z, z);
    uint64_t K4 = FF_W4 - proto_hi(z, FF_W5) + proto_hi(zz, FF_W6);
    uint64_t K2 = FF_W2 - proto_hi(z, FF_W3) + proto_hi(zz, K4);
    proto_u128 Tf = (proto_u128)B2 * K2;
#ifdef CONTROL_LOW_WORDS
    Af &= ~(proto_u128)UINT64_MAX;     /* control: A's low word dropped (fold's floor) */
#endif
    uint64_t t_hi = (uint64_t)(Tf >> 64), lo = (uint64_t)(Tf >> 3), hi = t_hi >> 3;
    int64_t g = G + FF_BIAS;
    unsigned long long l, h;
    unsigned char k = _addcarry_u64(0, lo, (uint64_t)g << 56, &l);
    _addcarry_u64(k, hi, C + (uint64_t)(g >> 8), &h);
    k = _subborrow_u64(0, l, (uint64_t)Af, &l);
    _subborrow_u64(k, h, (uint64_t)(Af >> 64), &h);
    return h;
}

/* The same from bit patterns, with the edge rules of ../proto_common.h. */
FF_ATTR uint64_t ff_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    return ff_domain(clamp_x_bits(x_bits), clamp_ccs_bits(ccs_bits));
}

FF_ATTR uint64_t ff_native(double x, double ccs)
{
    return ff_fpr_expm_p63(bits_of_double(x), bits_of_double(ccs));
}

#endif

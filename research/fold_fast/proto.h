/* SPDX-License-Identifier: MIT */
/* proto.h -- research prototype (README.md): fpr_expm_p63(x, ccs) ~= ccs exp(-x) 2^63
 * with ccs folded into a short fixed-point Horner chain and a binary64 tail
 * entering its innermost word.  Hand-written, not generator output, not shipped.
 *
 * Formats: z = x 2^64 (Q0.64), C = ccs 2^63 (an integer of [0, 2^63]), the
 * middle words W_i = |a_i| 2^64 (Q0.64), T = 2^64 x (-a_5 - a_6 x - ...)
 * (Q0.64, from binary64).  With hi(a, b) = floor(a b / 2^64):
 *
 *     A  = hi(C, z)                    ~= C x             (units of 2^-63)
 *     B  = hi(A, z)                    ~= C x^2
 *     K4 = W4 - T                      ~= (a_4 + x tail) 2^64
 *     K3 = W3 - hi(z, K4)              ~= (-a_3 - x k4) 2^64
 *     K  = W2 - hi(z, K3)              ~= k(x) 2^64, k = a_2 + a_3 x + ... (k in [0.40, 0.5])
 *     R  = C - A + hi(B, K)            ~= C (1 - x + x^2 k(x)) = C e^-x
 *
 * Five 64x64->128 products, no 128-bit sum, no final rounding step: every
 * floor loses less than one unit of its word, and the words are at the
 * result's scale (A, B, hi(B, K)) or multiply something below 1/2 (K).
 *
 * Conversions without a multiply: adding 63 to the exponent field of a
 * double in [2^-1022, 1] multiplies it by 2^63 exactly; for +0 or a subnormal
 * it gives a normal double below 2^-959 whose truncation is 0, which is
 * also trunc(x 2^63).  So X = trunc(x 2^63) and C = trunc(ccs 2^63) come
 * from one integer add and one CVTTSD2SI each, no flush, and no binary64
 * operation ever sees a subnormal operand (assumption: CVTTSD2SI, CVTSD2SI,
 * MAXSD, VFMADD and VMULSD take a fixed time on normal operands, and MUL r64
 * / MULX a fixed time on any operands, on x86-64).  The tail reads
 * v = max(x 2^63, 2^52) (x below 2^-11 is read as 2^-11, as form "head" does):
 * v is in [2^52, 2^63), every power of v and every scaled coefficient of
 * coeffs.h is a normal double, and the evaluation in v gives the bits the
 * same steps in x would (the scaling by powers of two is exact).
 *
 * Constant time: no branch, no table, no division.  Needs x86-64-v3 (FMA).
 */
#ifndef FOLD_PROTO_H
#define FOLD_PROTO_H

#include <stdint.h>
#include <immintrin.h>

#include "coeffs.h"
#include "../proto_common.h"

#ifndef FOLD_ATTR
#define FOLD_ATTR static inline __attribute__((always_inline))
#endif

/* The binary64 tail: round(v P(v)) with v = max(x 2^63, 2^52), Estrin's
 * scheme (pairs in v, then v^2, then v^4), every product and FMA rounded
 * once to nearest; CVTSD2SI rounds the result to an integer (|T| < 2^57). */
FOLD_ATTR int64_t fold_tail(__m128d xs)
{
    double v = _mm_cvtsd_f64(_mm_max_sd(xs, _mm_set_sd(0x1p52)));
    const double *p = FOLD_P;
    double v2 = v * v;
    double q0 = __builtin_fma(p[1], v, p[0]), q1 = __builtin_fma(p[3], v, p[2]);
    double q2 = __builtin_fma(p[5], v, p[4]), q3 = __builtin_fma(p[7], v, p[6]);
    __asm__("" : "+x"(v2));
    double v4 = v2 * v2;
    double r0 = __builtin_fma(q1, v2, q0), r1 = __builtin_fma(q3, v2, q2);
    __asm__("" : "+x"(v4));
    double s = __builtin_fma(r1, v4, r0);
    double t = v * s;
    __asm__("" : "+x"(t));
    return _mm_cvtsd_si64(_mm_set_sd(t));
}

/* Falcon's contract: 0 <= x < ln 2, 0 <= ccs < 1 (ccs = 1 also works:
 * CVTTSD2SI of 2^63 gives 0x8000000000000000, which is 2^63). */
FOLD_ATTR uint64_t fold_domain(double x, double ccs)
{
    __m128d xs = proto_times_2p63(x), cs = proto_times_2p63(ccs);
    uint64_t X = (uint64_t)_mm_cvttsd_si64(xs), C = (uint64_t)_mm_cvttsd_si64(cs);
    uint64_t z = X + X;
    uint64_t T = (uint64_t)fold_tail(xs);
#ifdef CONTROL_NO_TAIL
    T = 0;          /* control: the binary64 tail dropped */
#endif
    uint64_t w3 = FOLD_W3;
#ifdef CONTROL_W3
    w3 += 256;      /* control: one middle word off by 2^-56, about 42 units at x = ln 2 */
#endif
    uint64_t A = proto_hi(C, z), B = proto_hi(A, z);
    uint64_t K4 = FOLD_W4 - T;
    uint64_t K3 = w3 - proto_hi(z, K4);
    uint64_t K = FOLD_W2 - proto_hi(z, K3);
    return C - A + proto_hi(B, K);
}

/* The same from bit patterns, with the edge rules of ../proto_common.h. */
FOLD_ATTR uint64_t fold_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    return fold_domain(clamp_x_bits(x_bits), clamp_ccs_bits(ccs_bits));
}

FOLD_ATTR uint64_t fold_native(double x, double ccs)
{
    return fold_fpr_expm_p63(bits_of_double(x), bits_of_double(ccs));
}

#endif

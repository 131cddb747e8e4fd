/* SPDX-License-Identifier: MIT */
/* proto_common.h -- what the double-interface prototypes
 * (research/fold_fast, research/faithful_fold) share: the high word of a
 * 64x64 product, the conversion of x to x 2^63 by an exponent add, and the
 * edge rules of their full adaptors.
 *
 * The edge rules are done on the bit patterns as signed integers, which
 * for non-negative doubles is their order: x < 0, -0 or a NaN with the
 * sign set count as 0, x above the double below ln 2 (+inf, NaN) as that
 * double; ccs the same with 1.
 * On integers; gcc 12 -O2 compiles each clamp's comparison to a CMOV (read
 * in the disassembly of the bench binary, not checked by a test).  The
 * shipped kernels' adaptors differ: they send a NaN to 0.
 */
#ifndef RESEARCH_PROTO_COMMON_H
#define RESEARCH_PROTO_COMMON_H

#include <stdint.h>
#include <string.h>
#include <immintrin.h>

#define PROTO_ATTR static inline __attribute__((always_inline))

__extension__ typedef unsigned __int128 proto_u128;

/* hi(a, b) = floor(a b / 2^64). */
PROTO_ATTR uint64_t proto_hi(uint64_t a, uint64_t b)
{
    return (uint64_t)(((proto_u128)a * b) >> 64);
}

/* x 2^63 for a double x in [+0, 1], in a vector register, by adding 63 to
 * the exponent field (PADDQ): exact for x in [2^-1022, 1]; +0 and
 * subnormals give a normal double below 2^-959 (so the conversion hands
 * no subnormal on; what the prototype computes from it is its own
 * question, README.md), whose truncation is 0 as trunc(x 2^63) is. */
PROTO_ATTR __m128d proto_times_2p63(double x)
{
    return _mm_castsi128_pd(_mm_add_epi64(_mm_castpd_si128(_mm_set_sd(x)), _mm_set1_epi64x(63LL << 52)));
}

#define CLAMP_LN2_DOWN_BITS INT64_C(0x3FE62E42FEFA39EF)
#define CLAMP_ONE_BITS INT64_C(0x3FF0000000000000)

PROTO_ATTR double clamp_bits(uint64_t bits, int64_t top)
{
    int64_t b = (int64_t)bits;
    b &= ~(b >> 63);
    b = b > top ? top : b;
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* The input x of a full adaptor, from its bit pattern (then ccs below). */
PROTO_ATTR double clamp_x_bits(uint64_t bits)
{
    return clamp_bits(bits, CLAMP_LN2_DOWN_BITS);
}

PROTO_ATTR double clamp_ccs_bits(uint64_t bits)
{
    return clamp_bits(bits, CLAMP_ONE_BITS);
}

PROTO_ATTR uint64_t bits_of_double(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

#endif

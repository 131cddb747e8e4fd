/* SPDX-License-Identifier: MIT */
/*
 * ct_inputs.h -- input generation shared by the taint and timing harnesses.
 * Inputs are drawn outside any measured region.  Domain of every entry:
 * 0 <= x < ln 2 and 0.61 <= ccs < 1, the range Falcon's sampler uses.
 */
#ifndef CT_INPUTS_H
#define CT_INPUTS_H

#include <stdint.h>
#include <string.h>
#include "ct_entry.h"
#include "test_util.h"

/* Test inputs come from the shared SplitMix64 (toolkit/c/test_util.h,
 * tu_splitmix64 and tu_unit53); the state is passed explicitly so runs are
 * reproducible from a seed. */

static inline uint64_t ct_dbl_bits(double v)
{
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* Encode the real pair (x, ccs) as the arguments of an entry of the given
 * kind: Q0.64 or Q0.32 words (floor(v * 2^64), exact since v < 1), IEEE-754
 * bits, or the doubles themselves.  For CT_DBL the doubles go to *da, *db;
 * otherwise the words go to *a, *b. */
static inline void ct_encode(enum ct_kind kind, double x, double ccs,
                             uint64_t *a, uint64_t *b, double *da, double *db)
{
    *a = 0;
    *b = 0;
    *da = x;
    *db = ccs;
    switch (kind) {
    case CT_Z64:
    case CT_ZW64:
        *a = (uint64_t)(x * 0x1p64);
        *b = (uint64_t)(ccs * 0x1p64);
        break;
    case CT_BITS:
        *a = ct_dbl_bits(x);
        *b = ct_dbl_bits(ccs);
        break;
    case CT_Z32:
        *a = (uint64_t)(x * 0x1p32);
        break;
    case CT_DBL:
        break;
    }
}

/* A random (x, ccs) in the domain. */
static inline void ct_random_pair(uint64_t *s, double *x, double *ccs)
{
    *x = tu_unit53(s) * 0.69314718055994530942;
    *ccs = 0.61 + 0.39 * tu_unit53(s);
}

/* The fixed class of the t-test: a typical input from the middle of the
 * domain, so that the fixed class is not an edge case that a correct
 * kernel could legitimately treat differently (e.g. x = 0). */
#define CT_FIXED_X 0.35
#define CT_FIXED_CCS 0.8

#endif /* CT_INPUTS_H */

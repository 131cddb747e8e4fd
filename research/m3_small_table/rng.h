/* SPDX-License-Identifier: MIT */
/*
 * rng.h -- the deterministic input generator of acc.c and calibrate.c
 * (xorshift64*, independent of the C library, so every build and every
 * compiler draws the same inputs) and the double <-> bit-pattern moves.
 * Each program sets rng_state to its own seed.
 */
#ifndef M3_SMALL_TABLE_RNG_H
#define M3_SMALL_TABLE_RNG_H

#include <stdint.h>
#include <string.h>

static uint64_t rng_state;

static inline uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* A double uniform in [0, 1), 53 random bits. */
static inline double unit(void) { return (double)(rnd() >> 11) * 0x1p-53; }
static inline uint64_t bits(double d) { uint64_t b; memcpy(&b, &d, sizeof b); return b; }
static inline double dbl(uint64_t b) { double d; memcpy(&d, &b, sizeof d); return d; }

#endif

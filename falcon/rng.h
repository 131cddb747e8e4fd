/* SPDX-License-Identifier: MIT */
/*
 * rng.h -- a counter-based random generator for the falcon/ programs.
 *
 * Why counter-based: every draw i of a run gets its own stream, seeded from
 * (seed, i) alone, so a run split over threads gives the same draws as a
 * single thread, and two consumers (the reference and a kernel) can each
 * replay exactly the same stream.  The mixer is SplitMix64 (a 64-bit
 * finalizer over a Weyl sequence); statistical quality is ample for test
 * inputs and is not a security property here.
 */
#ifndef FALCON_RNG_H
#define FALCON_RNG_H

#include <stdint.h>
#include "test_util.h"

typedef struct {
    uint64_t state;
} falcon_rng;

/* The stream of draw `index` in the run seeded with `seed`. */
static inline falcon_rng falcon_rng_for(uint64_t seed, uint64_t index)
{
    falcon_rng r;
    r.state = seed ^ (index * UINT64_C(0xD1B54A32D192ED03));
    return r;
}

/* The next output of the stream: SplitMix64 from toolkit/c/test_util.h. */
static inline uint64_t falcon_rng_u64(falcon_rng *r)
{
    return tu_splitmix64(&r->state);
}

/* A double uniform in [0, 1) on the grid k / 2^53. */
static inline double falcon_rng_unit(falcon_rng *r)
{
    return tu_unit53(&r->state);
}

#endif

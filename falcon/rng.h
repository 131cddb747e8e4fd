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

static inline uint64_t falcon_rng_u64(falcon_rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A double uniform in [0, 1) on the grid k / 2^53. */
static inline double falcon_rng_unit(falcon_rng *r)
{
    return (double)(falcon_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}

#endif

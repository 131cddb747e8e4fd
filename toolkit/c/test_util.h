/* SPDX-License-Identifier: MIT */
/*
 * test_util.h -- the test utilities every C harness of the project shares:
 * the SplitMix64 generator and hex formatting of 64- and 32-bit words.
 *
 * Why one header: the same generator was written three times (ct/, verify/,
 * bench/) and falcon/ mixed its counter-based streams with a fourth copy;
 * one definition keeps their sequences provably the same.  The header is
 * freestanding (stdint.h only, everything static inline) because the m3/
 * programs are cross-compiled for a Cortex-M3 with newlib and must not
 * pull in stdio or soft-float code.
 *
 * SplitMix64 (Steele, Lea and Flood, 2014) is a Weyl sequence through a
 * 64-bit finalizer: fast, and statistically good enough for public test
 * inputs.  It is not a cryptographic generator and nothing here needs one.
 */
#ifndef TEST_UTIL_H
#define TEST_UTIL_H

#include <stdint.h>

/* The next SplitMix64 output; the state is explicit so that every run is
 * reproducible from its seed. */
static inline uint64_t tu_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* A double uniform in [0, 1) on the grid k / 2^53: the top 53 bits of one
 * output, so no rounding happens in the conversion. */
static inline double tu_unit53(uint64_t *state)
{
    return (double)(tu_splitmix64(state) >> 11) * (1.0 / 9007199254740992.0);
}

/* Write v as exactly `digits` lower-case hex digits and a NUL into out
 * (which holds digits + 1 chars).  Shifts only: no division, so the M3
 * build calls no libgcc helper. */
static inline void tu_hex(char *out, uint64_t v, int digits)
{
    static const char hex_digits[] = "0123456789abcdef";
    int i;
    for (i = digits - 1; i >= 0; i--) {
        out[i] = hex_digits[v & 15u];
        v >>= 4;
    }
    out[digits] = '\0';
}

/* 16 hex digits of a 64-bit word into out[17]. */
static inline void tu_hex64(char out[17], uint64_t v)
{
    tu_hex(out, v, 16);
}

/* 8 hex digits of a 32-bit word into out[9]. */
static inline void tu_hex32(char out[9], uint32_t v)
{
    tu_hex(out, v, 8);
}

#endif /* TEST_UTIL_H */

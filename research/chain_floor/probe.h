/* SPDX-License-Identifier: MIT */
/* probe.h -- latency probes (README.md): falcon_x86_fast's _domain kernel
 * split into its two dependency paths, each timed alone in the project's
 * bench harness.  These are not kernels: neither returns ccs exp(-x) 2^63.
 * check.c proves on every input it draws that the two paths recombine into
 * the kernel's own result, bit for bit, so each probe does all the work of
 * its path and nothing of the other.
 *
 * Include after generated/falcon_x86_fast/falcon_x86_fast.h (the bench
 * registry includes it first); the probes use its constants and helpers.
 *
 *   probe_int:  X, C by the exponent add and CVTTSD2SI, z = 2X, the six
 *               64x64 products and R_int = C - A + hi(B, K_2)  (the integer path)
 *   probe_tail: v, c by the exponent add and MAXSD, the binary64 program and
 *               CVTSD2SI: F  (the binary64 path)
 *
 * falcon_x86_fast's _domain returns R_int - F (its float_tail is odd). */
#ifndef CHAIN_FLOOR_PROBE_H
#define CHAIN_FLOOR_PROBE_H

#include <stdint.h>

static inline __attribute__((always_inline)) uint64_t probe_int(double x, double ccs)
{
    __m128d xs = falcon_x86_fast_times_2p63(x), cs = falcon_x86_fast_times_2p63(ccs);
    uint64_t X = (uint64_t)_mm_cvttsd_si64(xs), C = (uint64_t)_mm_cvttsd_si64(cs);
    uint64_t z = X + X;
    uint64_t A = falcon_x86_fast_hi(C, z), B = falcon_x86_fast_hi(A, z);
    uint64_t zz = falcon_x86_fast_hi(z, z);
#ifdef CONTROL_SHORT_INT
    /* Control: the x^4 word left out (one product fewer); check.c must catch it. */
    uint64_t k2 = FALCON_X86_FAST_W2 - falcon_x86_fast_hi(z, FALCON_X86_FAST_W3) + (zz & 0);
#else
    uint64_t k2 = FALCON_X86_FAST_W2 - falcon_x86_fast_hi(z, FALCON_X86_FAST_W3)
                  + falcon_x86_fast_hi(zz, FALCON_X86_FAST_W4);
#endif
    return C - A + falcon_x86_fast_hi(B, k2);
}

static inline __attribute__((always_inline)) uint64_t probe_tail(double x, double ccs)
{
    return falcon_x86_fast_tail(falcon_x86_fast_times_2p63(x), falcon_x86_fast_times_2p63(ccs));
}

#endif

/* SPDX-License-Identifier: MIT */
/* check.c -- each probe of probe.h is the shipped full adaptor
 * (falcon_x86_fpr_expm_p63_native) on the inputs whose rules it runs: on N
 * draws per probe from a fixed seed and on the edge values below, the probe
 * and the full adaptor must return the same bits.
 *
 *   edge_x:     x any pattern (the domain uniform and log-uniform down to
 *               2^-80, x >= ln 2 up to +inf, negatives, NaNs of both signs,
 *               random patterns), ccs in [0, 1];
 *   edge_ccs:   x in the domain, ccs any pattern (the same families);
 *   edge_least: x in [+0, +inf] (sign bit clear, not NaN), ccs in [0, 1],
 *               negative or NaN.
 *
 * Exit 0 and "ok <probe> N" lines when all agree; exit 1 and the first input
 * that differs otherwise.  Usage: check N SEED */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "falcon_x86/falcon_x86.h"
#include "probe.h"

static uint64_t state;

static uint64_t next_word(void)
{
    state = state * 6364136223846793005u + 1442695040888963407u;
    uint64_t z = state ^ (state >> 29);
    return z * 0xbf58476d1ce4e5b9u ^ (z >> 32);
}

static double uniform(void)
{
    return (double)(next_word() >> 11) * 0x1p-53;
}

static double from_bits(uint64_t w)
{
    double d;
    memcpy(&d, &w, sizeof d);
    return d;
}

/* x or ccs in [0, 1) scaled by top: uniform, or log-uniform down to 2^-low. */
static double in_range(double top, double low)
{
    return next_word() & 1 ? top * uniform() : top * exp2(-low * uniform());
}

/* A pattern outside the domain, by family k: >= 1 (up to +inf), negative
 * (-0 and -inf included), NaN (either sign), or any 64 bits. */
static double outside(unsigned k)
{
    uint64_t w = next_word();
    switch (k % 4) {
    case 0: return from_bits(UINT64_C(0x3FF0000000000000) + w % UINT64_C(0x4000000000000001));
    case 1: return from_bits(w | UINT64_C(0x8000000000000000));
    case 2: return from_bits((w & UINT64_C(0x800FFFFFFFFFFFFF)) | UINT64_C(0x7FF0000000000001));
    default: return from_bits(w);
    }
}

static int differs(const char *probe, uint64_t got, double x, double ccs)
{
    uint64_t want = falcon_x86_fpr_expm_p63_native(x, ccs);
    if (got == want)
        return 0;
    uint64_t xb, cb;
    memcpy(&xb, &x, sizeof xb);
    memcpy(&cb, &ccs, sizeof cb);
    printf("differs at %s(x = 0x%016" PRIx64 ", ccs = 0x%016" PRIx64 "): full adaptor 0x%016" PRIx64
           ", probe 0x%016" PRIx64 "\n", probe, xb, cb, want, got);
    return 1;
}

static const double LN2_DOWN = 0x1.62e42fefa39efp-1;

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check N SEED\n");
        return 2;
    }
    long n = strtol(argv[1], NULL, 10);
    state = strtoull(argv[2], NULL, 10);
    const double xe[] = {0.0, -0.0, 0x1p-1074, 0x1p-64, LN2_DOWN, 0x1.62e42fefa39fp-1, 1.0, INFINITY, -INFINITY, NAN, -NAN};
    const double ce[] = {0.0, -0.0, 0x1p-1074, 0x1p-1022, 0x1p-63, 0.5, 1.0, 2.0, INFINITY, -1.0, -INFINITY, NAN, -NAN};
    const size_t nx = sizeof xe / sizeof xe[0], nc = sizeof ce / sizeof ce[0];
    /* Edge values: x's with ccs in [0, 1] for edge_x, ccs's with x in the
     * domain for edge_ccs, the pairs edge_least covers for it. */
    for (size_t i = 0; i < nx; i++)
        for (size_t k = 0; k < nc; k++) {
            double x = xe[i], c = ce[k];
            int x_dom = !signbit(x) && x <= LN2_DOWN, c_unit = c >= 0 && c <= 1;
            if (c_unit && differs("edge_x", edge_x(x, c), x, c))
                return 1;
            if (x_dom && differs("edge_ccs", edge_ccs(x, c), x, c))
                return 1;
            if (!signbit(x) && x == x && (c_unit || c < 0 || c != c) && differs("edge_least", edge_least(x, c), x, c))
                return 1;
        }
    for (long i = 0; i < n; i++) {
        double x = i % 2 ? outside((unsigned)(i / 2)) : in_range(LN2_DOWN, 80.0), c = in_range(1.0, 40.0);
        if (differs("edge_x", edge_x(x, c), x, c))
            return 1;
    }
    printf("ok edge_x %ld\n", n);
    for (long i = 0; i < n; i++) {
        double x = in_range(LN2_DOWN, 80.0), c = i % 2 ? outside((unsigned)(i / 2)) : in_range(1.0, 40.0);
        if (differs("edge_ccs", edge_ccs(x, c), x, c))
            return 1;
    }
    printf("ok edge_ccs %ld\n", n);
    for (long i = 0; i < n; i++) {
        double x = i % 2 ? fabs(outside(0)) : in_range(LN2_DOWN, 80.0);
        double c = i % 3 == 0 ? -fabs(outside(3)) : i % 3 == 1 ? outside(2) : in_range(1.0, 40.0);
        if (differs("edge_least", edge_least(x, c), x, c))
            return 1;
    }
    printf("ok edge_least %ld\n", n);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* check.c -- the probes of probe.h are falcon_x86_fast's two paths: on N
 * inputs (x uniform in [0, ln 2) and log-uniform down to 2^-80, ccs uniform
 * in [0.5, 1) and log-uniform down to 2^-40, from a fixed seed) and on the
 * domain's ends, probe_int(x, ccs) - probe_tail(x, ccs) must equal
 * falcon_x86_fast_fpr_expm_p63_domain(x, ccs) bit for bit.  Exit 0 and
 * "ok N" when it does; exit 1 and the first input that differs otherwise.
 * Usage: check N SEED */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "falcon_x86_fast/falcon_x86_fast.h"
#include "probe.h"

static uint64_t state;

static double uniform(void)
{
    state = state * 6364136223846793005u + 1442695040888963407u;
    return (double)(state >> 11) * 0x1p-53;
}

static int differs(double x, double c)
{
    uint64_t want = falcon_x86_fast_fpr_expm_p63_domain(x, c);
    uint64_t got = probe_int(x, c) - probe_tail(x, c);
    if (got == want)
        return 0;
    printf("differs at x = %a, ccs = %a: kernel 0x%016" PRIx64 ", probes 0x%016" PRIx64 "\n", x, c, want, got);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: check N SEED\n");
        return 2;
    }
    long n = strtol(argv[1], NULL, 10);
    state = strtoull(argv[2], NULL, 10);
    const double xe[] = {0.0, 0x1p-1074, 0x1p-64, 0x1p-11, 0x1.62e42fefa39efp-1};
    const double ce[] = {0.0, 0x1p-1074, 0x1p-63, 0.5, 1.0};
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 5; k++)
            if (differs(xe[i], ce[k]))
                return 1;
    for (long i = 0; i < n; i++) {
        double x = i % 2 ? 0x1.62e42fefa39efp-1 * uniform() : exp2(-80.0 * uniform());
        double c = i % 3 ? 0.5 + 0.5 * uniform() : exp2(-40.0 * uniform());
        if (differs(x, c))
            return 1;
    }
    printf("ok %ld\n", n);
    return 0;
}

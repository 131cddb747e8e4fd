/* SPDX-License-Identifier: MIT */
/*
 * check_refs.c -- checks the benchmark's reference implementations
 * (bench/refs.h) bit for bit against the test vectors produced by the
 * public reference code (../shared/anchors/facct_vectors.tsv).
 *
 * Usage: check_refs VECTORS.tsv [--break NAME]
 *
 * For every row it compares facct_portable and facct_int128 with the
 * `facct_int` column, facct_double with `falcon_double_horner` and
 * facct_avx2 with `falcon_avx2` (skipped, with a note, if the CPU lacks
 * AVX2).  It prints one line per reference, "NAME rows mismatches", and
 * exits 1 if any reference mismatches on any row.  `--break NAME` flips the
 * lowest output bit of that reference: a deliberately broken control that
 * the test suite uses to prove the comparison can fail.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refs.h"

/* The IEEE-754 double whose bit pattern is b. */
static double from_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

enum { REF_PORTABLE, REF_INT128, REF_DOUBLE, REF_AVX2, REF_INT128_X4, REF_AVX2_X4, REF_COUNT };

static const char *const ref_names[REF_COUNT] = {
    "facct_portable", "facct_int128", "facct_double", "facct_avx2", "facct_int128_x4", "facct_avx2_x4",
};

/* The four-lane references on one row: the row's input in lane `lane`,
 * other inputs in the other lanes; the row's lane is returned. */
static uint64_t lane_int128_x4(double x, double ccs, unsigned lane)
{
    double xs[4] = {0.1, 0.2, 0.3, 0.4}, cs[4] = {0.7, 0.8, 0.9, 0.95};
    uint64_t out[4];
    xs[lane] = x;
    cs[lane] = ccs;
    bench_ref_int128_x4(out, xs, cs);
    return out[lane];
}

static uint64_t lane_avx2_x4(double x, double ccs, unsigned lane)
{
    double xs[4] = {0.1, 0.2, 0.3, 0.4}, cs[4] = {0.7, 0.8, 0.9, 0.95};
    uint64_t out[4];
    xs[lane] = x;
    cs[lane] = ccs;
    bench_ref_avx2_x4(out, xs, cs);
    return out[lane];
}

int main(int argc, char **argv)
{
    const char *broken = NULL;
    FILE *f;
    char line[512];
    unsigned long rows = 0, bad[REF_COUNT] = {0};
    int have_avx2, i, fail = 0;

    if (argc == 4 && strcmp(argv[2], "--break") == 0) {
        broken = argv[3];
    } else if (argc != 2) {
        fprintf(stderr, "usage: check_refs VECTORS.tsv [--break NAME]\n");
        return 2;
    }
    if (broken != NULL) {
        int known = 0;
        for (i = 0; i < REF_COUNT; i++) {
            known |= strcmp(broken, ref_names[i]) == 0;
        }
        if (!known) {
            fprintf(stderr, "check_refs: unknown reference '%s'\n", broken);
            return 2;
        }
    }
    f = fopen(argv[1], "r");
    if (f == NULL) {
        fprintf(stderr, "check_refs: cannot open %s\n", argv[1]);
        return 2;
    }
    have_avx2 = __builtin_cpu_supports("avx2");
    while (fgets(line, sizeof line, f) != NULL) {
        uint64_t xb, cb, want_int, want_dbl, want_avx;
        uint64_t got[REF_COUNT], want[REF_COUNT];
        double x, ccs;
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        /* Columns: x_bits ccs_bits facct_int falcon_double_horner
         * falcon_avx2 exact_2p63, all hex except the last. */
        if (sscanf(line, "%" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64
                   " %" SCNx64, &xb, &cb, &want_int, &want_dbl,
                   &want_avx) != 5) {
            fprintf(stderr, "check_refs: bad row %lu: %s", rows + 1, line);
            fclose(f);
            return 2;
        }
        x = from_bits(xb);
        ccs = from_bits(cb);
        got[REF_PORTABLE] = bench_ref_portable(x, ccs);
        got[REF_INT128] = bench_ref_int128(x, ccs);
        got[REF_DOUBLE] = bench_ref_double(x, ccs);
        got[REF_AVX2] = have_avx2 ? bench_ref_avx2(x, ccs) : want_avx;
        /* The four-lane forms equal their scalar originals lane by lane. */
        got[REF_INT128_X4] = lane_int128_x4(x, ccs, (unsigned)(rows % 4));
        got[REF_AVX2_X4] = have_avx2 ? lane_avx2_x4(x, ccs, (unsigned)(rows % 4)) : want_dbl;
        want[REF_PORTABLE] = want_int;
        want[REF_INT128] = want_int;
        want[REF_DOUBLE] = want_dbl;
        want[REF_AVX2] = want_avx;
        want[REF_INT128_X4] = want_int;
        want[REF_AVX2_X4] = want_dbl;
        for (i = 0; i < REF_COUNT; i++) {
            if (broken != NULL && strcmp(broken, ref_names[i]) == 0) {
                got[i] ^= 1;
            }
            if (got[i] != want[i]) {
                if (bad[i] < 3) {
                    fprintf(stderr, "%s: x=%016" PRIx64 " ccs=%016" PRIx64
                            " got %016" PRIx64 " want %016" PRIx64 "\n",
                            ref_names[i], xb, cb, got[i], want[i]);
                }
                bad[i]++;
            }
        }
        rows++;
    }
    fclose(f);
    if (rows == 0) {
        fprintf(stderr, "check_refs: no rows in %s\n", argv[1]);
        return 2;
    }
    for (i = 0; i < REF_COUNT; i++) {
        if (i == REF_AVX2 && !have_avx2) {
            printf("%s skipped (no AVX2 on this CPU)\n", ref_names[i]);
            continue;
        }
        printf("%s %lu %lu\n", ref_names[i], rows, bad[i]);
        fail |= bad[i] != 0;
    }
    return fail;
}

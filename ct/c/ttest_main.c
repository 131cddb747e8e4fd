/* SPDX-License-Identifier: MIT */
/*
 * ttest_main.c -- dudect-style timing leakage test (Welch's t-test on two
 * classes of inputs), written for this project.
 *
 * Usage: ct_ttest N SEED ENTRY
 * Prints one JSON object on stdout.
 *
 * Method.  Class 0 is one fixed, typical input (CT_FIXED_X, CT_FIXED_CCS);
 * class 1 is a fresh random input in the domain for every measurement.  The
 * class of each measurement is drawn at random, so slow drifts of the
 * machine (other processes, frequency changes, interrupts) hit both classes
 * alike and cannot by themselves separate their means.  Measurements are
 * taken in batches: all inputs of a batch, and the class sequence, are
 * prepared in arrays before the timed loop, so the timed region holds only
 * two array loads, the indirect call and the store of its result, all the
 * same for both classes.  Each measurement is bracketed by
 * LFENCE; RDTSC; LFENCE and RDTSCP; LFENCE so that the call can neither
 * start before the first time stamp nor retire after the second.
 *
 * Statistics.  As in dudect, one Welch test runs on all measurements and
 * one more per cropping threshold: a test with threshold c only sees
 * measurements below c.  The thresholds are percentiles of a warm-up batch
 * (not counted) at 1 - 0.5^(10 (k + 1) / CT_CROPS), which keep from about a
 * third of the fastest measurements up to nearly all of them; cropping
 * removes the long tail that interrupts and cache misses add, which
 * otherwise drowns a small difference in variance.  The reported statistic
 * is the largest |t| over all tests that have at least CT_MIN_CLASS
 * measurements in each class.  |t| > 10 is dudect's "definitely not
 * constant time" threshold.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ct_entry.h"
#include "ct_inputs.h"

#define CT_BATCH 65536u
#define CT_CROPS 24
#define CT_TESTS (CT_CROPS + 1)
#define CT_MIN_CLASS 1000u

/* Welford's running mean and sum of squared deviations, one per class. */
struct ct_welch {
    double n[2], mean[2], m2[2];
};

static void welch_push(struct ct_welch *w, int cls, double v)
{
    double d;
    w->n[cls] += 1.0;
    d = v - w->mean[cls];
    w->mean[cls] += d / w->n[cls];
    w->m2[cls] += d * (v - w->mean[cls]);
}

static double welch_t(const struct ct_welch *w)
{
    double v0 = w->m2[0] / (w->n[0] - 1.0), v1 = w->m2[1] / (w->n[1] - 1.0);
    double den = sqrt(v0 / w->n[0] + v1 / w->n[1]);
    /* Both classes constant and equal: no evidence of a difference.  Both
     * constant but different: an unbounded t; report a large finite one. */
    if (den == 0.0) {
        return w->mean[0] == w->mean[1] ? 0.0 : 1e9;
    }
    return (w->mean[0] - w->mean[1]) / den;
}

static inline uint64_t tick_start(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tick_stop(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi) : : "rcx", "memory");
    return ((uint64_t)hi << 32) | lo;
}

/* One batch: draw classes and inputs, then time every call. */
struct ct_batch {
    uint64_t a[CT_BATCH], b[CT_BATCH], out[CT_BATCH], cyc[CT_BATCH];
    double da[CT_BATCH], db[CT_BATCH];
    unsigned char cls[CT_BATCH];
};

static void run_batch(const struct ct_entry *e, struct ct_batch *bt, unsigned n, uint64_t *s)
{
    unsigned i;
    uint64_t bits = 0;
    for (i = 0; i < n; i++) {
        double x = CT_FIXED_X, ccs = CT_FIXED_CCS;
        if ((i & 63u) == 0) {
            bits = tu_splitmix64(s);
        }
        bt->cls[i] = (unsigned char)(bits & 1u);
        bits >>= 1;
        if (bt->cls[i]) {
            ct_random_pair(s, &x, &ccs);
        }
        ct_encode(e->kind, x, ccs, &bt->a[i], &bt->b[i], &bt->da[i], &bt->db[i]);
    }
    if (e->kind == CT_DBL) {
        for (i = 0; i < n; i++) {
            uint64_t t0 = tick_start();
            bt->out[i] = e->fn_dbl(bt->da[i], bt->db[i]);
            bt->cyc[i] = tick_stop() - t0;
        }
    } else {
        for (i = 0; i < n; i++) {
            uint64_t t0 = tick_start();
            bt->out[i] = e->fn_u64(bt->a[i], bt->b[i]);
            bt->cyc[i] = tick_stop() - t0;
        }
    }
}

static int cmp_u64(const void *p, const void *q)
{
    uint64_t a = *(const uint64_t *)p, b = *(const uint64_t *)q;
    return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
    static struct ct_batch bt;
    static uint64_t sorted[CT_BATCH];
    struct ct_welch tests[CT_TESTS];
    uint64_t crop[CT_TESTS];
    const struct ct_entry *e;
    unsigned long long n, done = 0, seed;
    uint64_t s, sink = 0;
    double max_t = 0.0;
    char *end;
    int k;

    if (argc != 4) {
        fprintf(stderr, "usage: ct_ttest N SEED ENTRY\n");
        return 2;
    }
    n = strtoull(argv[1], &end, 10);
    if (*end != '\0' || n < 2u * CT_MIN_CLASS) {
        fprintf(stderr, "ct_ttest: N must be an integer >= %u, got '%s'\n", 2u * CT_MIN_CLASS, argv[1]);
        return 2;
    }
    seed = strtoull(argv[2], &end, 10);
    if (*end != '\0') {
        fprintf(stderr, "ct_ttest: SEED must be an integer, got '%s'\n", argv[2]);
        return 2;
    }
    e = ct_find_entry(argv[3]);
    if (e == NULL) {
        fprintf(stderr, "ct_ttest: unknown entry '%s'\n", argv[3]);
        return 2;
    }
    s = seed;
    memset(tests, 0, sizeof tests);

    /* Warm-up batch: caches, branch predictors and the thresholds. */
    run_batch(e, &bt, CT_BATCH, &s);
    memcpy(sorted, bt.cyc, sizeof sorted);
    qsort(sorted, CT_BATCH, sizeof sorted[0], cmp_u64);
    crop[0] = UINT64_MAX;
    for (k = 1; k < CT_TESTS; k++) {
        double p = 1.0 - pow(0.5, 10.0 * (double)k / CT_CROPS);
        crop[k] = sorted[(size_t)(p * (CT_BATCH - 1))];
    }

    while (done < n) {
        unsigned m = (n - done < CT_BATCH) ? (unsigned)(n - done) : CT_BATCH, i;
        run_batch(e, &bt, m, &s);
        for (i = 0; i < m; i++) {
            for (k = 0; k < CT_TESTS; k++) {
                if (bt.cyc[i] < crop[k]) {
                    welch_push(&tests[k], bt.cls[i], (double)bt.cyc[i]);
                }
            }
            sink ^= bt.out[i];
        }
        done += m;
    }

    for (k = 0; k < CT_TESTS; k++) {
        if (tests[k].n[0] >= CT_MIN_CLASS && tests[k].n[1] >= CT_MIN_CLASS) {
            double t = fabs(welch_t(&tests[k]));
            if (t > max_t) {
                max_t = t;
            }
        }
    }
    printf("{\"entry\": \"%s\", \"measurements\": %llu, \"max_t\": %.3f, "
           "\"t_uncropped\": %.3f, \"n_fixed\": %.0f, \"n_random\": %.0f, "
           "\"mean_fixed\": %.3f, \"mean_random\": %.3f, \"crops\": %d, "
           "\"sink\": \"%016llx\"}\n",
           e->name, n, max_t, welch_t(&tests[0]), tests[0].n[0], tests[0].n[1],
           tests[0].mean[0], tests[0].mean[1], CT_CROPS, (unsigned long long)sink);
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * harness.c -- the x86-64 timing harness.  It is linked with the generated
 * registry (build/bench/registry.c), which supplies bench_variants[].
 *
 * Usage:
 *   bench_main list
 *       one line per variant: "name kind available(0|1)".
 *   bench_main time SEED ROUNDS CALLS WARMUP_MS
 *       one independent run: warm-up, then ROUNDS rounds; each round takes
 *       one calibration sample of each kind, then visits every available
 *       variant in a freshly shuffled order and takes one chain sample and
 *       one batch sample of CALLS calls each.  Prints one JSON object (samples in TSC ticks per call,
 *       calibration ratios in core cycles per TSC tick) on stdout.
 *   bench_main count NAME CALLS
 *       runs NAME's chain loop once for CALLS calls, untimed: the program
 *       bench/run.py runs under callgrind at two CALLS values so that the
 *       difference gives instructions per call.
 *
 * Timing: `lfence; rdtsc; lfence` before and `rdtscp; lfence` after each
 * sample.  The first LFENCE waits until earlier instructions have
 * completed, the one after RDTSC keeps the timed loop from starting before
 * the counter is read; RDTSCP waits until the loop's instructions have
 * executed, and the final LFENCE keeps later work from starting before the
 * counter is read.  The TSC ticks at a constant rate (constant_tsc,
 * nonstop_tsc) that need not be the core clock: see calibrate() in
 * bench/timing.h and
 * docs/bench.md for the conversion to core cycles.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "loops.h"
#include "test_util.h"
#include "timing.h"

/* Inputs and shuffles come from SplitMix64 (toolkit/c/test_util.h): their
 * quality only has to avoid visible patterns, not resist an adversary. */

/* A uniform double in [lo, hi): 53 random bits scaled to [0, 1). */
static double rng_uniform(uint64_t *s, double lo, double hi)
{
    double u = tu_unit53(s);
    return lo + u * (hi - lo);
}

static double xs[BENCH_TABLE], cs[BENCH_TABLE];

/* x uniform in [0, ln 2), ccs uniform in [0.61, 1): the ranges Falcon's
 * sampler produces (FACCT.md). */
static void fill_inputs(uint64_t seed)
{
    uint64_t s = seed;
    unsigned i;
    for (i = 0; i < BENCH_TABLE; i++) {
        xs[i] = rng_uniform(&s, 0.0, 0.69314718055994530942);
        cs[i] = rng_uniform(&s, 0.61, 1.0);
    }
}

/* Results of every loop are folded in here and printed, so no loop's
 * result is dead. */
static uint64_t sink;

static void print_series(const char *key, const double *v, unsigned n)
{
    unsigned i;
    printf("\"%s\": [", key);
    for (i = 0; i < n; i++) {
        printf("%s%.4f", i ? ", " : "", v[i]);
    }
    printf("]");
}

static int cmd_list(void)
{
    size_t i;
    for (i = 0; i < bench_variant_count; i++) {
        printf("%s %s %d\n", bench_variants[i].name, bench_variants[i].kind,
               bench_variants[i].available());
    }
    return 0;
}

static int cmd_count(const char *name, uint64_t calls)
{
    size_t i;
    fill_inputs(1);
    for (i = 0; i < bench_variant_count; i++) {
        if (strcmp(bench_variants[i].name, name) == 0) {
            if (!bench_variants[i].available()) {
                fprintf(stderr, "bench_main: %s cannot run on this CPU\n", name);
                return 1;
            }
            sink = bench_variants[i].chain(xs, cs, calls, 0);
            printf("%llu\n", (unsigned long long)sink);
            return 0;
        }
    }
    fprintf(stderr, "bench_main: unknown variant '%s'\n", name);
    return 1;
}

static int cmd_time(uint64_t seed, unsigned rounds, uint64_t calls,
                    double warmup_ms)
{
    size_t nv = bench_variant_count, i, k;
    size_t *order = malloc(nv * sizeof *order);
    double *chain = malloc(nv * rounds * sizeof *chain);
    double *batch = malloc(nv * rounds * sizeof *batch);
    double *cal_add = malloc(rounds * sizeof *cal_add);
    double *cal_imul = malloc(rounds * sizeof *cal_imul);
    uint64_t rs = seed ^ 0x5DEECE66Du;
    unsigned r;
    double t_end;

    if (order == NULL || chain == NULL || batch == NULL || cal_add == NULL
        || cal_imul == NULL) {
        fprintf(stderr, "bench_main: out of memory\n");
        return 1;
    }
    fill_inputs(seed);

    /* Warm-up: run every loop until warmup_ms have passed, so caches,
     * branch predictors and the core clock are in their steady state. */
    t_end = now_ms() + warmup_ms;
    do {
        for (i = 0; i < nv; i++) {
            if (bench_variants[i].available()) {
                sink += bench_variants[i].chain(xs, cs, calls, sink);
                sink += bench_variants[i].batch(xs, cs, calls, sink);
            }
        }
    } while (now_ms() < t_end);

    for (r = 0; r < rounds; r++) {
        cal_add[r] = calibrate(0, CALIB_ADD_ITERS);
        cal_imul[r] = calibrate(1, CALIB_IMUL_ITERS);
        /* Fisher-Yates shuffle of the visiting order, fresh every round,
         * so no variant always follows the same neighbour. */
        for (i = 0; i < nv; i++) {
            order[i] = i;
        }
        for (i = nv; i > 1; i--) {
            size_t j = (size_t)(tu_splitmix64(&rs) % i), t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        for (k = 0; k < nv; k++) {
            const struct bench_variant *v = &bench_variants[order[k]];
            uint64_t t0, t1;
            if (!v->available()) {
                continue;
            }
            t0 = tsc_begin();
            sink += v->chain(xs, cs, calls, sink);
            t1 = tsc_end();
            chain[order[k] * rounds + r] = (double)(t1 - t0) / (double)calls;
            t0 = tsc_begin();
            sink += v->batch(xs, cs, calls, sink);
            t1 = tsc_end();
            batch[order[k] * rounds + r] = (double)(t1 - t0) / (double)calls;
        }
    }

    printf("{\"seed\": %llu, \"rounds\": %u, \"calls\": %llu, \"sink\": %llu,\n",
           (unsigned long long)seed, rounds, (unsigned long long)calls,
           (unsigned long long)sink);
    printf("\"calibration\": {");
    print_series("add", cal_add, rounds);
    printf(", ");
    print_series("imul", cal_imul, rounds);
    printf("},\n\"variants\": [");
    for (i = 0; i < nv; i++) {
        const struct bench_variant *v = &bench_variants[i];
        printf("%s\n{\"name\": \"%s\", \"kind\": \"%s\", \"available\": %s",
               i ? "," : "", v->name, v->kind,
               v->available() ? "true" : "false");
        if (v->available()) {
            printf(", ");
            print_series("chain", &chain[i * rounds], rounds);
            printf(", ");
            print_series("batch", &batch[i * rounds], rounds);
        }
        printf("}");
    }
    printf("\n]}\n");
    free(order);
    free(chain);
    free(batch);
    free(cal_add);
    free(cal_imul);
    return 0;
}

/* Parses a decimal unsigned argument, or exits with a one-line error. */
static uint64_t arg_u64(const char *s, const char *what)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0' || s[0] == '-') {
        fprintf(stderr, "bench_main: %s must be a non-negative integer, got '%s'\n",
                what, s);
        exit(2);
    }
    return (uint64_t)v;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        return cmd_list();
    }
    if (argc == 4 && strcmp(argv[1], "count") == 0) {
        return cmd_count(argv[2], arg_u64(argv[3], "CALLS"));
    }
    if (argc == 6 && strcmp(argv[1], "time") == 0) {
        uint64_t rounds = arg_u64(argv[3], "ROUNDS");
        uint64_t calls = arg_u64(argv[4], "CALLS");
        if (rounds == 0 || rounds > 100000 || calls == 0) {
            fprintf(stderr, "bench_main: need 0 < ROUNDS <= 100000 and CALLS > 0\n");
            return 2;
        }
        return cmd_time(arg_u64(argv[2], "SEED"), (unsigned)rounds, calls,
                        (double)arg_u64(argv[5], "WARMUP_MS"));
    }
    fprintf(stderr, "usage: bench_main list | time SEED ROUNDS CALLS WARMUP_MS"
                    " | count NAME CALLS\n");
    return 2;
}

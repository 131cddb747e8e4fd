/* SPDX-License-Identifier: MIT */
/*
 * fastref.c -- tables for the fast exp(-x) reference (see fastref.h).
 *
 * Each table entry is computed with MPFR at 256 bits, then rounded to the
 * nearest Q1.127 (or Q1.63) word.  To keep start-up short, a thread computes
 * the first entry of its run of c with mpfr_exp and each next one by one
 * multiplication by exp(-2^-e): a run has at most 2^16 entries, so the
 * relative error before the final rounding is below 2^16 * 2 * 2^-256 =
 * 2^-239, far below the final 2^-128.
 */
#include "fastref.h"

#include <gmp.h>
#include <mpfr.h>
#include <pthread.h>
#include <stdio.h>

#if GMP_NUMB_BITS != 64
#error "fastref.c reads 64-bit GMP limbs"
#endif

u128 fastref_ta[2048], fastref_tb[2048], fastref_tc[1024];
uint64_t fastref_t16[65536], fastref_t32[65536];

/* One table: entry c is exp(-c 2^-shift), as Q1.127 (q127) or Q1.63 (q63). */
struct table {
    u128 *q127;
    uint64_t *q63;
    unsigned size;
    int shift;
};

static const struct table TABLES[] = {
    {fastref_ta, NULL, 2048, 11},   {fastref_tb, NULL, 2048, 22},
    {fastref_tc, NULL, 1024, 32},   {NULL, fastref_t16, 65536, 16},
    {NULL, fastref_t32, 65536, 32},
};
enum { N_TABLES = sizeof TABLES / sizeof TABLES[0] };

/* One thread's share: entries c in [size * part / parts, size * (part + 1)
 * / parts) of every table. */
struct fill_job {
    unsigned part, parts;
    int failed;
};

/* Rounds the non-negative MPFR value y * 2^bits to the nearest integer and
 * stores it; -1 if it does not fit (cannot happen for values in (0, 1],
 * checked anyway). */
static int store(mpfr_srcptr y, int bits, mpfr_t scaled, mpz_t tmp,
                 u128 *q127, uint64_t *q63)
{
    mpfr_mul_2si(scaled, y, bits, MPFR_RNDN); /* exact: exponent change */
    mpfr_get_z(tmp, scaled, MPFR_RNDN);
    if (mpz_sgn(tmp) < 0 || mpz_sizeinbase(tmp, 2) > (size_t)bits + 1)
        return -1;
    if (q127)
        *q127 = ((u128)mpz_getlimbn(tmp, 1) << 64) | mpz_getlimbn(tmp, 0);
    else
        *q63 = mpz_getlimbn(tmp, 0);
    return 0;
}

static void *fill(void *arg)
{
    struct fill_job *job = arg;
    mpfr_t x, y, step, scaled;
    mpz_t tmp;
    mpfr_inits2(256, x, y, step, scaled, (mpfr_ptr)0);
    mpz_init(tmp);
    for (int k = 0; k < N_TABLES; k++) {
        const struct table *t = &TABLES[k];
        unsigned first = t->size * job->part / job->parts;
        unsigned end = t->size * (job->part + 1) / job->parts;
        if (first >= end)
            continue;
        /* step = exp(-2^-shift); y = exp(-first 2^-shift); both arguments
         * are exact at 256 bits. */
        mpfr_set_si_2exp(x, -1, -t->shift, MPFR_RNDN);
        mpfr_exp(step, x, MPFR_RNDN);
        mpfr_set_ui_2exp(x, first, -t->shift, MPFR_RNDN);
        mpfr_neg(x, x, MPFR_RNDN);
        mpfr_exp(y, x, MPFR_RNDN);
        for (unsigned c = first; c < end; c++) {
            if (store(y, t->q127 ? 127 : 63, scaled, tmp,
                      t->q127 ? &t->q127[c] : NULL,
                      t->q63 ? &t->q63[c] : NULL) != 0)
                job->failed = 1;
            mpfr_mul(y, y, step, MPFR_RNDN);
        }
    }
    mpz_clear(tmp);
    mpfr_clears(x, y, step, scaled, (mpfr_ptr)0);
    mpfr_free_cache();
    return NULL;
}

int fastref_init(int threads, int corrupt)
{
    enum { MAX_THREADS = 64 };
    pthread_t tid[MAX_THREADS];
    struct fill_job jobs[MAX_THREADS];
    if (threads < 1)
        threads = 1;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    for (int t = 0; t < threads; t++) {
        jobs[t] = (struct fill_job){(unsigned)t, (unsigned)threads, 0};
        if (pthread_create(&tid[t], NULL, fill, &jobs[t]) != 0) {
            fprintf(stderr, "fastref: cannot start a thread\n");
            return -1;
        }
    }
    int failed = 0;
    for (int t = 0; t < threads; t++) {
        pthread_join(tid[t], NULL);
        failed |= jobs[t].failed;
    }
    if (failed) {
        fprintf(stderr, "fastref: a table entry does not fit its format\n");
        return -1;
    }
    if (corrupt) {
        /* The deliberately broken control: shift every entry of the last
         * table of each path, by 2^-100 in Q1.127 (2^27 units of 2^-127)
         * and by 2^-50 in Q1.63 (2^13 units of 2^-63).  Every input then
         * has a reference error far above the documented bounds. */
        for (unsigned c = 0; c < 1024; c++)
            fastref_tc[c] -= (u128)1 << 27;
        for (unsigned c = 0; c < 65536; c++)
            fastref_t32[c] -= (uint64_t)1 << 13;
    }
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * compat.c -- bit-exactness of one kernel's emulated-float Falcon adaptor
 * against the hand-written FACCT reference (runtime/facct_ref.c), far
 * beyond the 1993 test vectors.
 *
 * Usage: compat N SEED THREADS
 * Draw i (0 <= i < N) takes its inputs from its own counter-based stream
 * (rng.h), in one of four categories chosen by i mod 4:
 *   0: x uniform over the doubles in [0, ln 2) (uniform bit pattern between
 *      +0 and the largest double below ln 2), ccs uniform in [0.5, 1);
 *   1: x uniform over the reals in [0, ln 2) (a 53-bit grid times ln 2),
 *      ccs uniform in [0.5, 1);
 *   2: x and ccs both random 64-bit patterns (mostly outside the domain:
 *      negative, huge, NaN, infinite, subnormal);
 *   3: x a random 64-bit pattern, ccs uniform in [0.5, 1).
 * Inside the domain (0 <= x < ln 2, 0 <= ccs < 1) the expected output is
 * facct_ref_expm_p63 itself.  Outside it, the expected output follows the
 * adaptor's documented rules, applied here with plain branches (this is a
 * test, not constant-time code) and evaluated with the reference; see
 * expected() below.
 *
 * Output: one JSON object on stdout with the count of draws, of in-domain
 * draws and of mismatches, and the first mismatch (lowest i) if any.
 * Progress goes to stderr.  Exit status 0 even with mismatches (the caller
 * judges); 2 on bad arguments.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facct_ref.h"
#include "kname.h"
#include "rng.h"
#include KHEADER

#define ABS_MASK UINT64_C(0x7FFFFFFFFFFFFFFF)
#define INF_BITS UINT64_C(0x7FF0000000000000)
#define ONE_BITS UINT64_C(0x3FF0000000000000)
/* The largest double below ln 2 (ln 2 itself is not a double). */
#define LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define LN2_DOWN 0.69314718055994528623

static uint64_t bits_of(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* The documented behaviour of <name>_fpr_expm_p63, written independently
 * of the kernel's masks: clamp x, zero a bad ccs, and for ccs >= 1 return
 * U_0 = the reference polynomial before its final product by ccs.  The
 * reference's last step is hi(w, U_0) = floor(w U_0 / 2^64); with
 * w = 2^64 - 1 and 1 <= U_0 < 2^64 that is exactly U_0 - 1. */
static uint64_t expected(uint64_t xb, uint64_t cb, int *in_domain)
{
    uint64_t xa = xb & ABS_MASK, ca = cb & ABS_MASK;
    *in_domain = !(xb >> 63) && xb <= LN2_DOWN_BITS && !(cb >> 63) && cb < ONE_BITS;
    if (xa > INF_BITS || (xb >> 63)) {
        xb = 0;                       /* NaN, negative, -0, -inf: x = 0 */
    } else if (xb > LN2_DOWN_BITS) {
        xb = LN2_DOWN_BITS;           /* above ln 2 or +inf: clamped */
    }
    if (ca > INF_BITS || (cb >> 63) || cb == 0) {
        return 0;                     /* ccs NaN or <= 0 */
    }
    if (cb >= ONE_BITS) {             /* ccs >= 1, +inf included */
        uint64_t z = facct_ref_trunc_2p63(xb) << 1;
        return facct_ref_poly(z, UINT64_MAX) + 1;
    }
    return facct_ref_expm_p63(xb, cb);
}

static void draw(uint64_t seed, uint64_t i, uint64_t *xb, uint64_t *cb)
{
    falcon_rng r = falcon_rng_for(seed, i);
    uint64_t a = falcon_rng_u64(&r), b = falcon_rng_u64(&r);
    /* ccs in [0.5, 1): exponent of 0.5, random 52-bit fraction. */
    uint64_t ccs_half = UINT64_C(0x3FE0000000000000) | (b >> 12);
    switch (i & 3) {
    case 0: *xb = a % (LN2_DOWN_BITS + 1); *cb = ccs_half; break;
    case 1: *xb = bits_of((double)(a >> 11) * (1.0 / 9007199254740992.0) * LN2_DOWN);
            *cb = ccs_half; break;
    case 2: *xb = a; *cb = b; break;
    default: *xb = a; *cb = ccs_half; break;
    }
}

typedef struct {
    uint64_t seed, first, last, step;   /* draws first, first+step, ... < last */
    int report;                         /* this thread prints progress */
    uint64_t mismatches, in_domain, first_bad;
    uint64_t bad_x, bad_c, bad_got, bad_want;
} job;

static void *run(void *arg)
{
    job *j = arg;
    uint64_t i, done = 0;
    j->first_bad = UINT64_MAX;
    for (i = j->first; i < j->last; i += j->step) {
        uint64_t xb, cb, got, want;
        int dom;
        draw(j->seed, i, &xb, &cb);
        got = K(fpr_expm_p63)(xb, cb);
        want = expected(xb, cb, &dom);
        j->in_domain += (uint64_t)dom;
        if (got != want) {
            if (j->mismatches == 0) {
                j->first_bad = i;
                j->bad_x = xb; j->bad_c = cb; j->bad_got = got; j->bad_want = want;
            }
            j->mismatches++;
        }
        if (j->report && (++done & ((UINT64_C(1) << 26) - 1)) == 0) {
            fprintf(stderr, "compat: %.1f%%\r", 100.0 * (double)i / (double)j->last);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    char *end;
    uint64_t n, seed, t, k, mism = 0, dom = 0;
    job jobs[64];
    pthread_t tid[64];
    const job *worst = NULL;
    if (argc != 4) {
        fprintf(stderr, "usage: compat N SEED THREADS\n");
        return 2;
    }
    n = strtoull(argv[1], &end, 0);
    if (*end || n == 0) { fprintf(stderr, "compat: bad N '%s'\n", argv[1]); return 2; }
    seed = strtoull(argv[2], &end, 0);
    if (*end) { fprintf(stderr, "compat: bad SEED '%s'\n", argv[2]); return 2; }
    t = strtoull(argv[3], &end, 0);
    if (*end || t == 0 || t > 64) { fprintf(stderr, "compat: THREADS must be 1..64\n"); return 2; }
    for (k = 0; k < t; k++) {
        memset(&jobs[k], 0, sizeof jobs[k]);
        jobs[k].seed = seed; jobs[k].first = k; jobs[k].last = n; jobs[k].step = t;
        jobs[k].report = (k == 0);
        if (pthread_create(&tid[k], NULL, run, &jobs[k]) != 0) {
            fprintf(stderr, "compat: cannot start thread\n");
            return 2;
        }
    }
    for (k = 0; k < t; k++) {
        pthread_join(tid[k], NULL);
        mism += jobs[k].mismatches;
        dom += jobs[k].in_domain;
        if (jobs[k].mismatches && (worst == NULL || jobs[k].first_bad < worst->first_bad)) {
            worst = &jobs[k];
        }
    }
    fprintf(stderr, "compat: done          \n");
    printf("{\"kernel\": \"%s\", \"draws\": %" PRIu64 ", \"in_domain\": %" PRIu64
           ", \"mismatches\": %" PRIu64, FALCON_STR(KNAME), n, dom, mism);
    if (worst != NULL) {
        printf(", \"first_mismatch\": {\"draw\": %" PRIu64 ", \"x_bits\": \"%016" PRIx64
               "\", \"ccs_bits\": \"%016" PRIx64 "\", \"got\": \"%016" PRIx64
               "\", \"want\": \"%016" PRIx64 "\"}",
               worst->first_bad, worst->bad_x, worst->bad_c, worst->bad_got, worst->bad_want);
    }
    printf("}\n");
    return 0;
}

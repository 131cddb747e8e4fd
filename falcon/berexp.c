/* SPDX-License-Identifier: MIT */
/*
 * berexp.c -- does swapping Falcon's fpr_expm_p63 for a kernel change the
 * sampler's BerExp decisions?  Counts it, with the reference and every
 * kernel fed the same random bytes.
 *
 * Falcon's BerExp(x, ccs), after range reduction x = s ln 2 + r, computes
 *     z = ((fpr_expm_p63(r, ccs) << 1) - 1) >> s     (s saturated at 63)
 * and compares z with fresh random bytes, most significant first, stopping
 * at the first byte that differs; it accepts iff that random byte is the
 * smaller.  If all eight bytes tie it rejects.  With R the 64-bit number
 * the bytes would form, the decision is therefore "R < z", and the number
 * of bytes read is one more than the index of the first byte where R and z
 * differ (8 if none does).
 *
 * Each draw i gets r, ccs and s from the stream (seed, 2i) and its random
 * bytes from the stream (seed, 2i + 1) (rng.h).  The reference (the
 * hand-written FACCT code, runtime/facct_ref.c) and each kernel start a
 * fresh copy of that byte stream, so they read identical bytes; the program
 * counts the draws whose decision differs and the draws whose byte count
 * differs.
 *
 * It also sums, exactly, the probability of each event given the draw's z
 * values (integers, so no rounding):
 *   decision differs: R uniform in [0, 2^64) falls between z_ref and z_k,
 *       probability |z_ref - z_k| / 2^64;
 *   byte count differs: let j be the first byte (0 = most significant) where
 *       z_ref and z_k differ; R must match their common j bytes (2^-8j) and
 *       then hit one of the two byte values z_ref[j], z_k[j] (2/256), so
 *       that one comparison stops and the other goes on; impossible when
 *       j = 7 (both stop after the last byte).  Probability 2^-(8j + 7).
 *
 * Inputs: r uniform over the reals in [0, ln 2) (a 53-bit grid), ccs
 * uniform in [0.61, 1), s from the distribution of trunc(x / ln 2) that a
 * simulation of Falcon's sampler produces (simulate_sampler below).
 *
 * Usage: berexp N SEED THREADS SIGMA_MIN CONTROL_BITS
 *   SIGMA_MIN: Falcon's sigma_min for the s distribution (n = 512:
 *       1.2778336969128337, n = 1024: 1.2982803343442918).
 *   CONTROL_BITS: D > 0 adds the control kernel "control_trunc<D>", the
 *       reference's output with its low D bits cleared (error up to 2^D
 *       units of 2^-63), whose differences the test must see; 0 omits it.
 * Output: one JSON object on stdout; progress on stderr.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "berexp.h"
#include "facct_ref.h"
#include "rng.h"

#define MAX_KERNELS 32
#define MAX_THREADS 16
#define LN2_DOWN 0.69314718055994528623
#define ONE_DOWN 0.99999999999999988898
/* Falcon's base sampler: sigma_0 = 1.8205, and the largest leaf sigma. */
#define SIGMA0 1.8205
#define SIGMA_MAX 1.8205
#define BASE_MAX 18   /* the base sampler's support is 0..18 */

__extension__ typedef unsigned __int128 u128;

static unsigned control_bits;

/* The control kernel: the reference with its low control_bits cleared. */
static uint64_t control_expm(uint64_t x_bits, uint64_t ccs_bits)
{
    uint64_t mask = ~((UINT64_C(1) << control_bits) - 1);
    return facct_ref_expm_p63(x_bits, ccs_bits) & mask;
}

/* ------------------------------------------------------------------ */
/* The s distribution and BerExp calls per sample, from a simulation of
 * Falcon's SamplerZ(mu, sigma):
 *   r = mu - floor(mu), dss = 1 / (2 sigma^2), ccs = sigma_min / sigma;
 *   repeat: z0 from the half-Gaussian base sampler (P(z0) proportional to
 *   exp(-z0^2 / (2 sigma_0^2)), z0 = 0..18), b a random bit,
 *   z = b + (2b - 1) z0, x = (z - r)^2 dss - z0^2 / (2 sigma_0^2),
 *   until BerExp(x, ccs) accepts.
 * Assumptions (stated in docs/falcon.md): mu's fractional part uniform in
 * [0, 1) and sigma uniform in [sigma_min, sigma_max]; acceptance is drawn
 * with the exact probability ccs exp(-x). */
#define SIM_SAMPLES 1000000u

typedef struct {
    double s_prob[64];        /* P(s = k) over BerExp calls */
    double calls_per_sample;  /* mean BerExp calls per accepted sample */
    double mean_2ms;          /* E[2^-s] over BerExp calls */
    uint64_t s_cdf[64];       /* 2^64 P(s <= k), saturated; s_cdf[63] = max */
} s_model;

static void simulate_sampler(double sigma_min, s_model *m)
{
    double base_cdf[BASE_MAX + 1], total = 0.0;
    uint64_t counts[64] = {0}, calls = 0;
    falcon_rng rng = falcon_rng_for(UINT64_C(0x5A3D1E), 0);
    unsigned i, k;
    double acc = 0.0;
    for (k = 0; k <= BASE_MAX; k++) {
        total += exp(-(double)(k * k) / (2.0 * SIGMA0 * SIGMA0));
        base_cdf[k] = total;
    }
    for (i = 0; i < SIM_SAMPLES; i++) {
        double r = falcon_rng_unit(&rng);
        double sigma = sigma_min + (SIGMA_MAX - sigma_min) * falcon_rng_unit(&rng);
        double dss = 1.0 / (2.0 * sigma * sigma), ccs = sigma_min / sigma;
        for (;;) {
            double u = falcon_rng_unit(&rng) * total, x, zz;
            unsigned z0 = 0, s;
            int b = (int)(falcon_rng_u64(&rng) & 1);
            while (z0 < BASE_MAX && base_cdf[z0] <= u) {
                z0++;
            }
            zz = (double)b + (double)(2 * b - 1) * (double)z0;
            x = (zz - r) * (zz - r) * dss - (double)(z0 * z0) / (2.0 * SIGMA0 * SIGMA0);
            s = (unsigned)(x / 0.69314718055994530942);
            counts[s > 63 ? 63 : s]++;
            calls++;
            if (falcon_rng_unit(&rng) < ccs * exp(-x)) {
                break;
            }
        }
    }
    for (k = 0; k < 64; k++) {
        m->s_prob[k] = (double)counts[k] / (double)calls;
        acc += m->s_prob[k];
        m->s_cdf[k] = acc >= 1.0 ? UINT64_MAX : (uint64_t)ldexp(acc, 64);
    }
    m->s_cdf[63] = UINT64_MAX;
    m->calls_per_sample = (double)calls / (double)SIM_SAMPLES;
    m->mean_2ms = 0.0;
    for (k = 0; k < 64; k++) {
        m->mean_2ms += m->s_prob[k] * ldexp(1.0, -(int)k);
    }
}

/* ------------------------------------------------------------------ */
/* BerExp's lazy comparison of z with the random bytes of `bytes`, most
 * significant byte first.  Returns 1 to accept; *used = bytes read. */
static int berexp_compare(uint64_t z, falcon_rng bytes, unsigned *used)
{
    uint64_t word = 0;
    int i, w = 0, n = 0;
    for (i = 56; i >= 0; i -= 8) {
        if ((n & 7) == 0) {
            word = falcon_rng_u64(&bytes);  /* eight fresh bytes, top first */
        }
        w = (int)((word >> (56 - 8 * (n & 7))) & 0xFF) - (int)((z >> i) & 0xFF);
        n++;
        if (w != 0) {
            break;
        }
    }
    *used = (unsigned)n;
    return w < 0;
}

/* z = ((expm << 1) - 1) >> s, as Falcon forms it (wrapping for expm = 0). */
static uint64_t berexp_z(uint64_t expm, unsigned s)
{
    return ((expm << 1) - 1) >> s;
}

typedef struct {
    uint64_t decision_diffs, bytes_diffs, max_abs_de;
    u128 sum_abs_dz;             /* sum of |z_ref - z_k|: decisions, x 2^-64 */
    uint64_t first_byte_diff[8]; /* draws whose z differ first at byte j */
} tally;

typedef struct {
    uint64_t seed, first, last, step;
    const s_model *model;
    const berexp_kernel *kernels;
    unsigned count;
    int report;
    tally t[MAX_KERNELS];
} job;

static void draw_inputs(uint64_t seed, uint64_t i, const s_model *m,
                        uint64_t *xb, uint64_t *cb, unsigned *s)
{
    falcon_rng r = falcon_rng_for(seed, 2 * i);
    double x = falcon_rng_unit(&r) * LN2_DOWN;
    double c = 0.61 + 0.39 * falcon_rng_unit(&r);
    uint64_t u = falcon_rng_u64(&r);
    unsigned k = 0;
    if (c > ONE_DOWN) {
        c = ONE_DOWN;  /* 0.61 + 0.39 u can round up to 1.0 */
    }
    while (k < 63 && u > m->s_cdf[k]) {
        k++;
    }
    memcpy(xb, &x, sizeof x);
    memcpy(cb, &c, sizeof c);
    *s = k;
}

static void *run(void *arg)
{
    job *j = arg;
    uint64_t i, done = 0;
    unsigned k;
    for (i = j->first; i < j->last; i += j->step) {
        uint64_t xb, cb, e_ref, z_ref;
        unsigned s, used_ref;
        int acc_ref;
        falcon_rng bytes = falcon_rng_for(j->seed, 2 * i + 1);
        draw_inputs(j->seed, i, j->model, &xb, &cb, &s);
        e_ref = facct_ref_expm_p63(xb, cb);
        z_ref = berexp_z(e_ref, s);
        acc_ref = berexp_compare(z_ref, bytes, &used_ref);
        for (k = 0; k < j->count; k++) {
            tally *t = &j->t[k];
            uint64_t e = j->kernels[k].expm(xb, cb);
            uint64_t z = berexp_z(e, s);
            uint64_t de = e > e_ref ? e - e_ref : e_ref - e;
            unsigned used;
            int acc = berexp_compare(z, bytes, &used);
            t->decision_diffs += (uint64_t)(acc != acc_ref);
            t->bytes_diffs += (uint64_t)(used != used_ref);
            if (de > t->max_abs_de) {
                t->max_abs_de = de;
            }
            if (z != z_ref) {
                uint64_t diff = z ^ z_ref;
                int byte = 0;
                while (!(diff >> (56 - 8 * byte))) {
                    byte++;
                }
                t->first_byte_diff[byte]++;
                t->sum_abs_dz += z > z_ref ? z - z_ref : z_ref - z;
            }
        }
        if (j->report && (++done & ((UINT64_C(1) << 24) - 1)) == 0) {
            fprintf(stderr, "berexp: %.1f%%\r", 100.0 * (double)i / (double)j->last);
        }
    }
    return NULL;
}

/* A u128 as a decimal string (JSON numbers would lose precision). */
static const char *u128_str(u128 v, char *buf)
{
    char tmp[48];
    int n = 0, k = 0;
    do {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    while (n) {
        buf[k++] = tmp[--n];
    }
    buf[k] = 0;
    return buf;
}

int main(int argc, char **argv)
{
    static job jobs[MAX_THREADS];
    pthread_t tid[MAX_THREADS];
    berexp_kernel all[MAX_KERNELS];
    s_model model;
    char *end;
    uint64_t n, seed, th;
    double sigma_min;
    unsigned count = 0, k, q;
    long cb;
    if (argc != 6) {
        fprintf(stderr, "usage: berexp N SEED THREADS SIGMA_MIN CONTROL_BITS\n");
        return 2;
    }
    n = strtoull(argv[1], &end, 0);
    if (*end || n == 0) { fprintf(stderr, "berexp: bad N '%s'\n", argv[1]); return 2; }
    seed = strtoull(argv[2], &end, 0);
    if (*end) { fprintf(stderr, "berexp: bad SEED '%s'\n", argv[2]); return 2; }
    th = strtoull(argv[3], &end, 0);
    if (*end || th == 0 || th > MAX_THREADS) {
        fprintf(stderr, "berexp: THREADS must be 1..%d\n", MAX_THREADS);
        return 2;
    }
    sigma_min = strtod(argv[4], &end);
    if (*end || !(sigma_min > 1.0 && sigma_min < SIGMA_MAX)) {
        fprintf(stderr, "berexp: SIGMA_MIN must be in (1, %g)\n", SIGMA_MAX);
        return 2;
    }
    cb = strtol(argv[5], &end, 0);
    if (*end || cb < 0 || cb > 62) { fprintf(stderr, "berexp: CONTROL_BITS must be 0..62\n"); return 2; }
    control_bits = (unsigned)cb;
    if (berexp_kernel_count + 1 > MAX_KERNELS) { fprintf(stderr, "berexp: too many kernels\n"); return 2; }
    for (k = 0; k < berexp_kernel_count; k++) {
        all[count++] = berexp_kernels[k];
    }
    if (control_bits) {
        static char name[32];
        snprintf(name, sizeof name, "control_trunc%u", control_bits);
        all[count].name = name;
        all[count++].expm = control_expm;
    }
    simulate_sampler(sigma_min, &model);
    for (q = 0; q < th; q++) {
        job *j = &jobs[q];
        memset(j, 0, sizeof *j);
        j->seed = seed; j->first = q; j->last = n; j->step = th;
        j->model = &model; j->kernels = all; j->count = count; j->report = (q == 0);
        if (pthread_create(&tid[q], NULL, run, j) != 0) {
            fprintf(stderr, "berexp: cannot start thread\n");
            return 2;
        }
    }
    for (q = 0; q < th; q++) {
        pthread_join(tid[q], NULL);
    }
    fprintf(stderr, "berexp: done          \n");
    printf("{\"draws\": %" PRIu64 ", \"seed\": %" PRIu64 ", \"sigma_min\": %.17g,\n",
           n, seed, sigma_min);
    printf(" \"sampler\": {\"simulated_samples\": %u, \"calls_per_sample\": %.6f, "
           "\"mean_2_pow_minus_s\": %.6f, \"s_prob\": [", SIM_SAMPLES,
           model.calls_per_sample, model.mean_2ms);
    for (k = 0; k < 64; k++) {
        printf("%s%.6g", k ? ", " : "", model.s_prob[k]);
    }
    printf("]},\n \"kernels\": [");
    for (k = 0; k < count; k++) {
        tally sum;
        char buf[48];
        memset(&sum, 0, sizeof sum);
        for (q = 0; q < th; q++) {
            const tally *t = &jobs[q].t[k];
            int b;
            sum.decision_diffs += t->decision_diffs;
            sum.bytes_diffs += t->bytes_diffs;
            sum.sum_abs_dz += t->sum_abs_dz;
            if (t->max_abs_de > sum.max_abs_de) {
                sum.max_abs_de = t->max_abs_de;
            }
            for (b = 0; b < 8; b++) {
                sum.first_byte_diff[b] += t->first_byte_diff[b];
            }
        }
        printf("%s\n  {\"name\": \"%s\", \"decision_diffs\": %" PRIu64 ", \"bytes_diffs\": %" PRIu64
               ", \"max_abs_expm_diff\": %" PRIu64 ", \"sum_abs_z_diff\": \"%s\", \"first_byte_diff\": [",
               k ? "," : "", all[k].name, sum.decision_diffs, sum.bytes_diffs,
               sum.max_abs_de, u128_str(sum.sum_abs_dz, buf));
        for (q = 0; q < 8; q++) {
            printf("%s%" PRIu64, q ? ", " : "", sum.first_byte_diff[q]);
        }
        printf("]}");
    }
    printf("\n ]}\n");
    return 0;
}

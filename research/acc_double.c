/* SPDX-License-Identifier: MIT */
/* acc_double.c -- a double-interface prototype's error against the exact
 * value of its double inputs, |R - ccs exp(-x) 2^63| in units of 2^-63,
 * with MPFR at 256 bits (shared by research/fold_fast and
 * research/faithful_fold through acc.mk).  The prototype's folder supplies
 * proto.h (found by -I.) and, as -D flags from its Makefile, ACC_DOMAIN
 * (its Falcon-contract function of two doubles), ACC_FPR (its full adaptor
 * on bit patterns) and ACC_LIMIT (the error, in units of 2^-63, that fails
 * the run).
 *
 * Usage: acc N SEED.  Inputs: N each of x uniform in [0, ln 2) or
 * log-uniform in [2^-80, 2^-8], crossed with ccs uniform in [0.5, 1) or
 * log-uniform in [2^-30, 1); x at and around every power of two from 2^-64
 * to 2^-1 crossed with a fixed set of ccs; the edge inputs (+-0, subnormals,
 * the double below ln 2, ccs = 1, 2^-64, ...) through the full adaptor,
 * whose edge rules are checked against the clamped inputs.
 *
 * Exit status 1 when an error reaches ACC_LIMIT: the controls (CONTROL_*,
 * proto.h) must fail.
 * Prints a hash of every output, so two compilers can be compared.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
/* after <inttypes.h>: MPFR declares mpfr_set_uj only when intmax_t is known */
#include <mpfr.h>

#if !defined(ACC_DOMAIN) || !defined(ACC_FPR) || !defined(ACC_LIMIT)
#error "acc_double.c needs -DACC_DOMAIN=, -DACC_FPR= and -DACC_LIMIT= (research/acc.mk)"
#endif
#define LN2_DOWN 0x1.62e42fefa39efp-1

static uint64_t rng_state;

static uint64_t rng(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double uniform(double lo, double hi)
{
    return lo + (hi - lo) * ((double)(rng() >> 11) * 0x1p-53);
}

static double log_uniform(double lo_log2, double hi_log2)
{
    return exp2(uniform(lo_log2, hi_log2));
}

struct stats {
    const char *name;
    double max_err, sum_err;
    uint64_t count, worst_x, worst_c;
};

static mpfr_t m_x, m_c, m_r, m_t;
static uint64_t hash = UINT64_C(1469598103934665603);

static double error_of(double x, double ccs, uint64_t r)
{
    mpfr_set_d(m_x, x, MPFR_RNDN);
    mpfr_set_d(m_c, ccs, MPFR_RNDN);
    mpfr_neg(m_x, m_x, MPFR_RNDN);
    mpfr_exp(m_t, m_x, MPFR_RNDN);
    mpfr_mul(m_t, m_t, m_c, MPFR_RNDN);
    mpfr_mul_2ui(m_t, m_t, 63, MPFR_RNDN);
    mpfr_set_uj(m_r, r, MPFR_RNDN);
    mpfr_sub(m_r, m_r, m_t, MPFR_RNDN);
    return mpfr_get_d(m_r, MPFR_RNDN);
}

static void record(struct stats *s, double x, double ccs, uint64_t r)
{
    double e = error_of(x, ccs, r);
    hash = (hash ^ r) * UINT64_C(1099511628211);
    s->sum_err += e;
    s->count++;
    if (fabs(e) > s->max_err) {
        s->max_err = fabs(e);
        memcpy(&s->worst_x, &x, sizeof x);
        memcpy(&s->worst_c, &ccs, sizeof ccs);
    }
}

static double from_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* The edge rules: what the full adaptor must read a pattern as. */
static double clamp_like_adaptor(uint64_t b, double top)
{
    double v = from_bits(b);
    if ((int64_t)b < 0 || v != v)
        return (int64_t)b < 0 ? 0.0 : top;
    return v > top ? top : v;
}

static int edges(struct stats *s)
{
    const uint64_t xs[] = {0, UINT64_C(0x8000000000000000), 1, UINT64_C(0x000FFFFFFFFFFFFF),
                           UINT64_C(0x0010000000000000), bits_of_double(0x1p-900), bits_of_double(0x1p-80),
                           bits_of_double(0x1p-11), bits_of_double(LN2_DOWN), bits_of_double(LN2_DOWN) - 1,
                           bits_of_double(0.6931471805599453) + 1, bits_of_double(1.0), bits_of_double(INFINITY),
                           bits_of_double(-INFINITY), bits_of_double(NAN), bits_of_double(-NAN),
                           bits_of_double(-0x1p-3)};
    const uint64_t cs[] = {0, UINT64_C(0x8000000000000000), 1, bits_of_double(0x1p-64),
                           bits_of_double(0x1p-64) - 1, bits_of_double(0x1p-30), bits_of_double(0.5),
                           bits_of_double(0.5) - 1, bits_of_double(1.0) - 1, bits_of_double(1.0),
                           bits_of_double(2.0), bits_of_double(INFINITY), bits_of_double(NAN),
                           bits_of_double(-0.5)};
    int bad = 0;
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
        for (size_t j = 0; j < sizeof cs / sizeof cs[0]; j++) {
            double x = clamp_like_adaptor(xs[i], LN2_DOWN), c = clamp_like_adaptor(cs[j], 1.0);
            uint64_t r = ACC_FPR(xs[i], cs[j]);
            if (r != ACC_DOMAIN(x, c)) {
                printf("EDGE MISMATCH x=%016llx ccs=%016llx\n", (unsigned long long)xs[i], (unsigned long long)cs[j]);
                bad = 1;
            }
            record(s, x, c, r);
        }
    return bad;
}

static void powers_of_two(struct stats *s)
{
    const double cs[] = {1.0, 0x1.fffffffffffffp-1, 0.75, 0.5, 0x1p-30, 0x1p-64};
    for (int k = 1; k <= 64; k++)
        for (int d = -3; d <= 3; d++) {
            double x = from_bits(bits_of_double(ldexp(1.0, -k)) + (uint64_t)(int64_t)d);
            for (size_t j = 0; j < sizeof cs / sizeof cs[0]; j++)
                record(s, x, cs[j], ACC_DOMAIN(x, cs[j]));
        }
}

static void print(const struct stats *s)
{
    printf("%-28s %10llu inputs  max %8.4f  mean %+8.4f  worst x=%016llx ccs=%016llx\n", s->name,
           (unsigned long long)s->count, s->max_err, s->sum_err / (double)s->count,
           (unsigned long long)s->worst_x, (unsigned long long)s->worst_c);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: acc N SEED\n");
        return 2;
    }
    long n = atol(argv[1]);
    rng_state = (uint64_t)atoll(argv[2]);
    mpfr_inits2(256, m_x, m_c, m_r, m_t, (mpfr_ptr)0);
    struct stats st[6] = {{"x U[0,ln2), ccs U[0.5,1)", 0, 0, 0, 0, 0}, {"x U[0,ln2), ccs logU", 0, 0, 0, 0, 0},
                          {"x logU[2^-80,2^-8], ccs U", 0, 0, 0, 0, 0}, {"x logU, ccs logU", 0, 0, 0, 0, 0},
                          {"x = 2^-k +- 3 ulp", 0, 0, 0, 0, 0}, {"edges (full adaptor)", 0, 0, 0, 0, 0}};
    for (long i = 0; i < n; i++) {
        double xu = uniform(0.0, LN2_DOWN), xl = log_uniform(-80, -8);
        double cu = uniform(0.5, 1.0), cl = log_uniform(-30, 0);
        record(&st[0], xu, cu, ACC_DOMAIN(xu, cu));
        record(&st[1], xu, cl, ACC_DOMAIN(xu, cl));
        record(&st[2], xl, cu, ACC_DOMAIN(xl, cu));
        record(&st[3], xl, cl, ACC_DOMAIN(xl, cl));
    }
    powers_of_two(&st[4]);
    int bad = edges(&st[5]);
    double worst = 0;
    for (int i = 0; i < 6; i++) {
        print(&st[i]);
        worst = fmax(worst, st[i].max_err);
    }
    printf("max %.4f units of 2^-63 (2^%.2f); limit %g: %s\n", worst, log2(worst) - 63, (double)ACC_LIMIT,
           worst < ACC_LIMIT && !bad ? "ok" : "EXCEEDED");
    printf("HASH %016llx\n", (unsigned long long)hash);
    mpfr_clears(m_x, m_c, m_r, m_t, (mpfr_ptr)0);
    return worst < ACC_LIMIT && !bad ? 0 : 1;
}

/* SPDX-License-Identifier: MIT */
/*
 * check_fpr.c -- measures the Falcon adaptors of one kernel against the
 * exact value of the caller's double inputs.
 *
 * check.c measures _expm_p63(z, w) on the fixed-point grid; a Falcon signer
 * never calls that.  It calls fpr_expm_p63(x, ccs) with doubles, and the
 * adaptor converts them (the reference's z = 2 trunc(x 2^63) drops up to
 * 2^-63 of x).  This driver measures what the caller sees:
 *
 *   |adaptor(x, ccs) - ccs exp(-x) 2^63|  in units of 2^-63,
 *
 * x and ccs the doubles passed, 0 <= x <= LN2_DOWN (the largest double
 * below ln 2), 0 <= ccs < 1, through each of the four adaptors of
 * docs/abi.md: <name>_fpr_expm_p63(x_bits, ccs_bits), _native(x, ccs),
 * _domain(x, ccs) and _domain_bits(x_bits, ccs_bits).  On that domain they
 * must return the same integer; any input where they do not is counted
 * and reported (the audit fails on it).
 *
 * Compiled once per kernel (mk/check.mk):
 *
 *   cc -O2 $(python3 -m kfolder cflags generated/<name>) -Iverify \
 *      -Itoolkit/c -Igenerated/<name> -DKNAME=<name> -DKUNAME=<NAME> \
 *      -DKHEADER='"<name>.h"' verify/check_fpr.c verify/fastref.c \
 *      -lmpfr -lgmp -lpthread -lm
 *
 * The reference (ref_fpr below), in units of 2^-127 ("units of 2^-63 with
 * 64 fraction bits", as check.c keeps its references):
 *   x = X / 2^128 + d with X = floor(x 2^128) read from x's bits and
 *   0 <= d < 2^-128 (d = 0 unless x < 2^-76); z = floor(X / 2^64) and
 *   R = X mod 2^64, so x = z / 2^64 + R / 2^128 + d.  Then
 *   exp(-x) = exp(-z / 2^64) exp(-R / 2^128) exp(-d), with
 *     v  = fastref_exp_q127(z) ~= exp(-z / 2^64) 2^127, within 8 units
 *          (fastref.h);
 *     exp(-R / 2^128) = 1 - R / 2^128 + e2, 0 <= e2 < 2^-129: the product
 *          is taken as V = v - floor(v R / 2^128), computed with two
 *          truncations (< 2 units) and dropping e2 (< 0.25 unit, v <= 2^127);
 *     exp(-d) >= 1 - 2^-128, dropped: < 0.5 unit.
 *   So |V - exp(-x) 2^127| < 8 + 2 + 0.25 + 0.5 < 11 units.  ccs = M 2^k
 *   (M its 53-bit significand) multiplies exactly: M V is a 181-bit product
 *   held in three 64-bit words, shifted right by -k and truncated (< 1
 *   unit).  As ccs < 1, the reference is within ccs * 11 + 1 < 12 units of
 *   2^-127 = 12 * 2^-64 units of 2^-63 (< 10^-18 units) of ccs exp(-x) 2^63:
 *   the measured errors are exact to far better than 0.01 units.
 * Before every run that reference is compared with MPFR (exp at 256 bits
 * of the exact double x, times the exact ccs) on --ref-sample inputs drawn
 * like the check's own (small x, edge x, uniform x and random bit patterns
 * of the domain); a difference of 12 units or more stops the run.  Two
 * controls break the reference on purpose and the comparison must catch
 * them: --corrupt-ref (the fast exp tables, as in check.c) and
 * --drop-remainder (V = v: the reference of the truncated input z / 2^64,
 * the very mistake this driver exists to avoid).  --selftest-ref N prints
 * the comparison on N inputs as JSON instead of checking.
 *
 * Inputs (x, ccs), each through all four adaptors; defaults in parentheses:
 *   --uniform N (10^8): x uniform in [0, ln 2), t = uniform integer in
 *     [0, LN2_DOWN 2^64], x = t / 2^64 rounded to a double;
 *   --small N (10^7): x log-uniform in [2^-80, 2^-8): an exponent uniform
 *     in -80..-9 and a uniform 52-bit fraction;
 *   the edge grid: x = 0, the smallest subnormal, the largest subnormal,
 *     every power of two 2^k for k = -1022 .. -1 (2^-1022 is the smallest
 *     normal) and LN2_DOWN, each with its --edge-ulps (4) neighbours on
 *     either side (within the domain); each such x with every ccs of
 *     CCS_EDGES and --edge-ccs (48) random ccs.
 *   ccs of the random inputs, by input index i: i mod 4 = 0 or 2, uniform
 *   in [0.5, 1) (exponent -1, uniform fraction); 1, log-uniform in
 *   [2^-30, 1) (exponent uniform in -30..-1); 3, one of CCS_EDGES.
 * Work is cut into blocks of 2^16 inputs; the random numbers of a block
 * come from a generator seeded by (seed, block), and ties between equal
 * errors go to the smallest (x_bits, ccs_bits), so the result does not
 * depend on --threads (2) or on scheduling; --seed (1) picks the inputs.
 *
 * Output (--out FILE, else stdout): one JSON object: the maximum error
 * over the four adaptors and where (x_bits, ccs_bits as hex strings, the
 * result and the adaptor), the same per input family and per adaptor, the
 * inputs checked (pairs; each is four adaptor calls), how many inputs
 * exceed <NAME>_FPR_EXPM_P63_ERR_BOUND (read from the header, reported as
 * "bound_macro"), the adaptors' disagreements, and the reference
 * self-test's figure.  verify/audit.py compares it with the sidecar.
 *
 * The checker is not constant-time and need not be: it runs on public
 * inputs.  The adaptors are called exactly as a user calls them.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gmp.h>
#include <mpfr.h>

#include "test_util.h"

#define CHECK_PROG "check_fpr"
#include "check_common.h"
#include "fastref.h"

#include KHEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)

#define K_FULL CAT(KNAME, _fpr_expm_p63)
#define K_NATIVE CAT(KNAME, _fpr_expm_p63_native)
#define K_DOMAIN CAT(KNAME, _fpr_expm_p63_domain)
#define K_DOMAIN_BITS CAT(KNAME, _fpr_expm_p63_domain_bits)
#define K_BOUND CAT(KUNAME, _FPR_EXPM_P63_ERR_BOUND)

enum { BLOCK = 1 << 16, MAX_THREADS = CHECK_MAX_THREADS, MPFR_BITS = 256 };
enum { N_ADAPTORS = 4 };
static const char *const ADAPTOR_NAMES[N_ADAPTORS] = {
    "fpr_expm_p63", "fpr_expm_p63_native", "fpr_expm_p63_domain",
    "fpr_expm_p63_domain_bits"};

/* The reference's error bound in units of 2^-127 (see the top comment). */
static const double REF_BOUND_2M127 = 12.0;

static const uint64_t LN2_DOWN_BITS = UINT64_C(0x3FE62E42FEFA39EF);
/* LN2_DOWN * 2^64, an integer: the largest t of the uniform family. */
static const uint64_t LN2_DOWN_Q64 = UINT64_C(0xB17217F7D1CF7800);

/* ccs edges, all in [0, 1): the ends of the uniform and log-uniform ranges
 * and their neighbours, values Falcon's sampler passes, and the smallest
 * ones (0, the smallest subnormal, around 2^-64, where some adaptors flush
 * ccs to 0). */
static const uint64_t CCS_EDGES[] = {
    UINT64_C(0x3FEFFFFFFFFFFFFF), /* 1 - 2^-53 */
    UINT64_C(0x3FEFFFFFFFFFFFFE), /* 1 - 2^-52 */
    UINT64_C(0x3FE0000000000000), /* 0.5 */
    UINT64_C(0x3FE0000000000001), /* 0.5 + 2^-53 */
    UINT64_C(0x3FDFFFFFFFFFFFFF), /* 0.5 - 2^-54 */
    UINT64_C(0x3FE3851EB851EB85), /* 0.61 */
    UINT64_C(0x3FE8000000000000), /* 0.75 */
    UINT64_C(0x3E10000000000000), /* 2^-30 */
    UINT64_C(0x3E10000000000001), /* 2^-30 (1 + 2^-52) */
    UINT64_C(0x3E0FFFFFFFFFFFFF), /* 2^-30 (1 - 2^-53) */
    UINT64_C(0x3C30000000000000), /* 2^-60 */
    UINT64_C(0x3BF0000000000000), /* 2^-64 */
    UINT64_C(0x3BEFFFFFFFFFFFFF), /* 2^-64 (1 - 2^-53) */
    UINT64_C(0x0000000000000001), /* the smallest subnormal */
    UINT64_C(0x0000000000000000), /* 0 */
};
enum { N_CCS_EDGES = sizeof CCS_EDGES / sizeof CCS_EDGES[0] };

/* ------------------------------------------------------------- doubles */

static inline double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static inline uint64_t to_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* A non-negative finite double's bits as (m, e) with value m 2^e, m < 2^53
 * its integer significand (subnormals: the exponent of the smallest). */
static inline uint64_t split_double(uint64_t bits, int *e)
{
    uint64_t be = (bits >> 52) & 0x7FF, frac = bits & ((UINT64_C(1) << 52) - 1);
    *e = (be ? (int)be : 1) - 1075;
    return be ? frac | (UINT64_C(1) << 52) : frac;
}

/* floor(x 2^128) for a double 0 <= x < 1 given by its bits. */
static inline u128 x_q128(uint64_t bits)
{
    int e;
    uint64_t m = split_double(bits, &e);
    int sh = e + 128; /* x 2^128 = m 2^sh, sh <= 75 for x < 1 */
    if (sh >= 0)
        return (u128)m << sh;
    return -sh >= 64 ? 0 : (u128)(m >> -sh);
}

/* ----------------------------------------------------------- reference */

/* The deliberately broken reference of --drop-remainder (see the top). */
static int drop_remainder;

/* ccs exp(-x) 2^63 in units of 2^-127, truncated; within 12 units (top
 * comment).  x_bits, ccs_bits: doubles with 0 <= x < 1, 0 <= ccs < 1. */
static inline u128 ref_fpr(uint64_t x_bits, uint64_t ccs_bits)
{
    u128 xq = x_q128(x_bits);
    uint64_t z = (uint64_t)(xq >> 64), r = (uint64_t)xq;
    u128 v = fastref_exp_q127(z);
    /* v R / 2^128 = (v_hi R + v_lo R / 2^64) / 2^64, v_hi <= 2^63: no
     * overflow, two truncations. */
    u128 vr = (u128)(uint64_t)(v >> 64) * r + (((u128)(uint64_t)v * r) >> 64);
    if (!drop_remainder)
        v -= vr >> 64;
    /* ccs V = M V 2^k: M V as p1 2^64 + p0, p1 = M V_hi < 2^117. */
    int k;
    uint64_t m = split_double(ccs_bits, &k);
    u128 p0 = (u128)m * (uint64_t)v, p1 = (u128)m * (uint64_t)(v >> 64);
    p1 += p0 >> 64;
    p0 = (uint64_t)p0;
    int s = -k; /* >= 53 for ccs < 1 */
    if (s < 64)
        return (p1 << (64 - s)) | (p0 >> s);
    return s - 64 >= 128 ? 0 : p1 >> (s - 64);
}

/* The same value from MPFR at 256 bits, minus `fast`, in units of 2^-127
 * (absolute value, as a double). */
static double ref_mpfr_diff(uint64_t x_bits, uint64_t ccs_bits, u128 fast,
                            mpfr_t a, mpfr_t b)
{
    mpfr_set_d(a, -from_bits(x_bits), MPFR_RNDN); /* exact */
    mpfr_exp(a, a, MPFR_RNDN);
    mpfr_mul_d(a, a, from_bits(ccs_bits), MPFR_RNDN); /* 2^-256 relative */
    mpfr_mul_2si(a, a, 127, MPFR_RNDN);               /* exact */
    mpfr_set_uj_2exp(b, (uint64_t)(fast >> 64), 64, MPFR_RNDN);
    mpfr_add_ui(b, b, (unsigned long)(uint64_t)fast, MPFR_RNDN); /* exact */
    mpfr_sub(a, a, b, MPFR_RNDN);
    return fabs(mpfr_get_d(a, MPFR_RNDN));
}

/* ------------------------------------------------------------- inputs */

static inline uint64_t uniform(uint64_t *s, uint64_t lo, uint64_t hi)
{
    return lo + (uint64_t)(((u128)tu_splitmix64(s) * (hi - lo + 1)) >> 64);
}

/* A double 2^e (1 + f), f a uniform 52-bit fraction. */
static inline uint64_t random_in_octave(uint64_t *s, int e)
{
    return ((uint64_t)(1023 + e) << 52) | (tu_splitmix64(s) >> 12);
}

static inline uint64_t x_uniform(uint64_t *s)
{
    return to_bits((double)uniform(s, 0, LN2_DOWN_Q64) * 0x1p-64);
}

static inline uint64_t x_small(uint64_t *s)
{
    return random_in_octave(s, -80 + (int)uniform(s, 0, 71));
}

/* The ccs of random input number i (see the top comment). */
static inline uint64_t ccs_mixed(uint64_t *s, uint64_t i)
{
    switch (i & 3) {
    case 1:
        return random_in_octave(s, -30 + (int)uniform(s, 0, 29));
    case 3:
        return CCS_EDGES[uniform(s, 0, N_CCS_EDGES - 1)];
    default:
        return random_in_octave(s, -1);
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void add_around(uint64_t **v, size_t *n, uint64_t centre, uint64_t ulps)
{
    *v = xrealloc(*v, (*n + 2 * ulps + 1) * sizeof **v);
    for (uint64_t j = 0; j <= 2 * ulps; j++) {
        uint64_t b = centre - ulps + j;
        if (centre + j >= ulps && b <= LN2_DOWN_BITS) /* none below 0 */
            (*v)[(*n)++] = b;
    }
}

/* The edge x grid, sorted, without duplicates. */
static uint64_t *edge_xs(uint64_t ulps, size_t *count)
{
    uint64_t *v = NULL;
    size_t n = 0;
    add_around(&v, &n, 0, ulps);
    add_around(&v, &n, UINT64_C(0x000FFFFFFFFFFFFF), ulps);
    for (int k = -1022; k <= -1; k++)
        add_around(&v, &n, (uint64_t)(1023 + k) << 52, ulps);
    add_around(&v, &n, LN2_DOWN_BITS, ulps);
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[i] != v[m - 1])
            v[m++] = v[i];
    *count = m;
    return v;
}

/* --------------------------------------------------------------- tasks */

enum family { F_UNIFORM, F_SMALL, F_EDGE, N_FAMILIES };
static const char *const FAMILY_NAMES[N_FAMILIES] = {"uniform", "small", "edge"};

struct task {
    uint64_t count, first_block, n_blocks;
};

struct plan {
    struct task task[N_FAMILIES];
    uint64_t total_blocks, total_inputs;
    const uint64_t *edge_x;
    uint64_t per_edge_x; /* ccs per edge x: the edges, then random ones */
};

/* The input number i of a family, drawing from the block's stream s. */
static inline void input_at(const struct plan *p, enum family f, uint64_t i,
                            uint64_t *s, uint64_t *xb, uint64_t *cb)
{
    if (f == F_EDGE) {
        uint64_t j = i % p->per_edge_x;
        *xb = p->edge_x[i / p->per_edge_x];
        *cb = j < N_CCS_EDGES ? CCS_EDGES[j] : ccs_mixed(s, j);
        return;
    }
    *xb = f == F_UNIFORM ? x_uniform(s) : x_small(s);
    *cb = ccs_mixed(s, i);
}

/* ------------------------------------------------------------- results */

struct worst {
    u128 diff; /* |result - reference|, units of 2^-127 */
    uint64_t x, c, result;
    int adaptor, have;
};

/* Keeps the larger error; on a tie the smaller (x_bits, ccs_bits,
 * adaptor), so the reported input does not depend on the order in which
 * blocks ran. */
static inline void keep_worst(struct worst *w, u128 diff, uint64_t x,
                              uint64_t c, uint64_t result, int adaptor)
{
    if (w->have && (diff < w->diff ||
                    (diff == w->diff &&
                     (x > w->x || (x == w->x && (c > w->c || (c == w->c &&
                                                               adaptor >= w->adaptor)))))))
        return;
    *w = (struct worst){diff, x, c, result, adaptor, 1};
}

static void merge_worst(struct worst *into, const struct worst *from)
{
    if (from->have)
        keep_worst(into, from->diff, from->x, from->c, from->result, from->adaptor);
}

struct disagreement {
    uint64_t x, c, r[N_ADAPTORS];
    int have;
};

/* Keeps the disagreement at the smallest (x_bits, ccs_bits). */
static void keep_disagreement(struct disagreement *d, uint64_t x, uint64_t c,
                              const uint64_t r[N_ADAPTORS])
{
    if (d->have && (x > d->x || (x == d->x && c >= d->c)))
        return;
    d->x = x;
    d->c = c;
    memcpy(d->r, r, sizeof d->r);
    d->have = 1;
}

struct stats {
    struct worst family[N_FAMILIES], adaptor[N_ADAPTORS];
    uint64_t n[N_FAMILIES];
    uint64_t over_bound, disagreements;
    struct disagreement first_disagreement;
};

static void merge_stats(struct stats *into, const struct stats *from)
{
    for (int f = 0; f < N_FAMILIES; f++) {
        merge_worst(&into->family[f], &from->family[f]);
        into->n[f] += from->n[f];
    }
    for (int a = 0; a < N_ADAPTORS; a++)
        merge_worst(&into->adaptor[a], &from->adaptor[a]);
    into->over_bound += from->over_bound;
    into->disagreements += from->disagreements;
    if (from->first_disagreement.have)
        keep_disagreement(&into->first_disagreement, from->first_disagreement.x,
                          from->first_disagreement.c, from->first_disagreement.r);
}

/* One input through the four adaptors.  `limit` is the header's bound in
 * units of 2^-127. */
static inline void check_input(struct stats *st, enum family f, uint64_t xb,
                               uint64_t cb, u128 limit)
{
    double x = from_bits(xb), c = from_bits(cb);
    const uint64_t r[N_ADAPTORS] = {K_FULL(xb, cb), K_NATIVE(x, c),
                                    K_DOMAIN(x, c), K_DOMAIN_BITS(xb, cb)};
    u128 ref = ref_fpr(xb, cb), largest = 0;
    for (int a = 0; a < N_ADAPTORS; a++) {
        u128 d = absdiff((u128)r[a] << 64, ref);
        keep_worst(&st->adaptor[a], d, xb, cb, r[a], a);
        keep_worst(&st->family[f], d, xb, cb, r[a], a);
        largest = d > largest ? d : largest;
    }
    st->n[f]++;
    st->over_bound += largest > limit;
    if (r[1] != r[0] || r[2] != r[0] || r[3] != r[0]) {
        st->disagreements++;
        keep_disagreement(&st->first_disagreement, xb, cb, r);
    }
}

/* ------------------------------------------------------------- workers */

struct shared {
    const struct plan *plan;
    uint64_t seed;
    u128 limit;
    uint64_t next_block;  /* atomic */
    uint64_t inputs_done; /* atomic, for progress */
};

struct worker {
    struct shared *sh;
    struct stats st;
    double finished; /* now_s() when this worker ran out of blocks */
};

static void run_block(struct worker *wk, enum family f, uint64_t b)
{
    const struct plan *p = wk->sh->plan;
    const struct task *t = &p->task[f];
    uint64_t start = b * BLOCK;
    uint64_t n = t->count - start < BLOCK ? t->count - start : BLOCK;
    /* A per-block stream: (seed, global block index). */
    uint64_t s = wk->sh->seed ^ (t->first_block + b) * UINT64_C(0xD1B54A32D192ED03);
    tu_splitmix64(&s);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t xb, cb;
        input_at(p, f, start + i, &s, &xb, &cb);
        check_input(&wk->st, f, xb, cb, wk->sh->limit);
    }
    __atomic_fetch_add(&wk->sh->inputs_done, n, __ATOMIC_RELAXED);
}

static void *work(void *arg)
{
    struct worker *wk = arg;
    const struct plan *p = wk->sh->plan;
    for (;;) {
        uint64_t b = __atomic_fetch_add(&wk->sh->next_block, 1, __ATOMIC_RELAXED);
        if (b >= p->total_blocks)
            break;
        int f = 0;
        while (b >= p->task[f].first_block + p->task[f].n_blocks)
            f++;
        run_block(wk, (enum family)f, b - p->task[f].first_block);
    }
    wk->finished = now_s();
    return NULL;
}

/* ------------------------------------------------------ reference test */

struct ref_test {
    double worst; /* units of 2^-127 */
    uint64_t x, c, n;
};

/* Compares ref_fpr with MPFR on `count` inputs: small x, edge x, uniform x
 * and uniform bit patterns of [0, LN2_DOWN] in turn, each with a ccs of
 * the mix. */
static struct ref_test compare_ref(const struct plan *p, uint64_t n_edge,
                                   uint64_t count, uint64_t seed)
{
    struct ref_test r = {0, 0, 0, count};
    uint64_t s = seed ^ UINT64_C(0x6A09E667F3BCC909);
    mpfr_t a, b;
    mpfr_inits2(MPFR_BITS, a, b, (mpfr_ptr)0);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t xb;
        switch (i & 3) {
        case 0: xb = x_small(&s); break;
        case 1: xb = p->edge_x[uniform(&s, 0, n_edge - 1)]; break;
        case 2: xb = x_uniform(&s); break;
        default: xb = uniform(&s, 0, LN2_DOWN_BITS); break;
        }
        uint64_t cb = ccs_mixed(&s, i >> 2);
        double e = ref_mpfr_diff(xb, cb, ref_fpr(xb, cb), a, b);
        if (e > r.worst) {
            r.worst = e;
            r.x = xb;
            r.c = cb;
        }
    }
    mpfr_clears(a, b, (mpfr_ptr)0);
    mpfr_free_cache();
    return r;
}

/* ---------------------------------------------------------------- main */

struct options {
    const char *out, *timing;
    int threads, corrupt_ref;
    uint64_t seed, uniform, small, edge_ulps, edge_ccs, ref_sample, selftest;
};

static void usage_error(const char *msg)
{
    die("%s (usage: check_fpr [--out FILE] [--timing FILE] [--threads N] "
        "[--seed S] [--uniform N] [--small N] [--edge-ulps N] [--edge-ccs N] "
        "[--ref-sample N] [--corrupt-ref] [--drop-remainder] | "
        "--selftest-ref N [--corrupt-ref] [--drop-remainder])",
        msg);
}

static void parse_args(int argc, char **argv, struct options *o)
{
    *o = (struct options){NULL, NULL, 2, 0, 1, 100000000, 10000000, 4, 48, 20000, 0};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t *field = strcmp(a, "--seed") == 0         ? &o->seed
                          : strcmp(a, "--uniform") == 0    ? &o->uniform
                          : strcmp(a, "--small") == 0      ? &o->small
                          : strcmp(a, "--edge-ulps") == 0  ? &o->edge_ulps
                          : strcmp(a, "--edge-ccs") == 0   ? &o->edge_ccs
                          : strcmp(a, "--ref-sample") == 0 ? &o->ref_sample
                          : strcmp(a, "--selftest-ref") == 0 ? &o->selftest
                                                             : NULL;
        if (field != NULL || strcmp(a, "--threads") == 0 ||
            strcmp(a, "--out") == 0 || strcmp(a, "--timing") == 0) {
            if (v == NULL)
                usage_error("missing value");
            i++;
        }
        if (field != NULL) {
            *field = parse_u64(v, a);
        } else if (strcmp(a, "--threads") == 0) {
            uint64_t t = parse_u64(v, a);
            if (t < 1 || t > MAX_THREADS)
                usage_error("--threads must be in 1..64");
            o->threads = (int)t;
        } else if (strcmp(a, "--out") == 0) {
            o->out = v;
        } else if (strcmp(a, "--timing") == 0) {
            o->timing = v;
        } else if (strcmp(a, "--corrupt-ref") == 0) {
            o->corrupt_ref = 1;
        } else if (strcmp(a, "--drop-remainder") == 0) {
            drop_remainder = 1;
        } else {
            die("unknown option '%s'", a);
        }
    }
    if (o->edge_ulps > 1000)
        usage_error("--edge-ulps must be at most 1000");
    if (o->ref_sample == 0)
        usage_error("--ref-sample must be positive: the reference is always cross-checked");
}

/* The three families and their blocks; the edge grid from the options. */
static void build_plan(const struct options *o, struct plan *p, size_t *n_edge)
{
    memset(p, 0, sizeof *p);
    p->edge_x = edge_xs(o->edge_ulps, n_edge);
    p->per_edge_x = N_CCS_EDGES + o->edge_ccs;
    const uint64_t counts[N_FAMILIES] = {o->uniform, o->small,
                                         (uint64_t)*n_edge * p->per_edge_x};
    for (int f = 0; f < N_FAMILIES; f++) {
        uint64_t nb = counts[f] == 0 ? 0 : (counts[f] - 1) / BLOCK + 1;
        p->task[f] = (struct task){counts[f], p->total_blocks, nb};
        p->total_blocks += nb;
        p->total_inputs += counts[f];
    }
}

static double units_2p63(u128 diff) { return ldexp((double)diff, -64); }

/* "max_err_2p63": E, "worst_x_bits": "0x...", ... of one worst record. */
static void print_worst(FILE *f, const struct worst *w)
{
    fprintf(f, "\"max_err_2p63\": ");
    print_double(f, units_2p63(w->diff));
    fprintf(f, ", \"worst_x_bits\": \"0x%016" PRIx64 "\", \"worst_ccs_bits\": "
               "\"0x%016" PRIx64 "\", \"worst_result\": \"0x%016" PRIx64 "\", "
               "\"worst_adaptor\": \"%s\"",
            w->x, w->c, w->result, ADAPTOR_NAMES[w->adaptor]);
}

static void write_result(FILE *f, const struct options *o, const struct stats *st,
                         const struct ref_test *rt, size_t n_edge)
{
    struct worst all = {0};
    uint64_t n = 0;
    for (int k = 0; k < N_FAMILIES; k++) {
        merge_worst(&all, &st->family[k]);
        n += st->n[k];
    }
    double e = units_2p63(all.diff);
    fprintf(f, "{\n  \"kernel\": \"%s\",\n  \"bound_macro\": %.17g,\n  ", STR(KNAME),
            (double)K_BOUND);
    print_worst(f, &all);
    fprintf(f, ",\n  \"log2_abs_err\": ");
    print_double(f, e > 0 ? log2(e) - 63 : NAN);
    fprintf(f, ",\n  \"inputs_checked\": %" PRIu64 ",\n  \"adaptor_calls\": %" PRIu64
               ",\n  \"over_bound\": %" PRIu64 ",\n  \"disagreements\": %" PRIu64
               ",\n  \"first_disagreement\": ",
            n, N_ADAPTORS * n, st->over_bound, st->disagreements);
    const struct disagreement *d = &st->first_disagreement;
    if (d->have) {
        fprintf(f, "{\"x_bits\": \"0x%016" PRIx64 "\", \"ccs_bits\": \"0x%016" PRIx64
                   "\", \"results\": {", d->x, d->c);
        for (int a = 0; a < N_ADAPTORS; a++)
            fprintf(f, "%s\"%s\": \"0x%016" PRIx64 "\"", a ? ", " : "",
                    ADAPTOR_NAMES[a], d->r[a]);
        fprintf(f, "}}");
    } else {
        fprintf(f, "null");
    }
    fprintf(f, ",\n  \"families\": {");
    for (int k = 0; k < N_FAMILIES; k++) {
        fprintf(f, "%s\n    \"%s\": {\"inputs_checked\": %" PRIu64 ", ", k ? "," : "",
                FAMILY_NAMES[k], st->n[k]);
        print_worst(f, &st->family[k]);
        fputc('}', f);
    }
    fprintf(f, "\n  },\n  \"adaptors\": {");
    for (int a = 0; a < N_ADAPTORS; a++) {
        fprintf(f, "%s\n    \"%s\": {", a ? "," : "", ADAPTOR_NAMES[a]);
        print_worst(f, &st->adaptor[a]);
        fputc('}', f);
    }
    fprintf(f, "\n  },\n  \"reference\": {\"mpfr_sample\": %" PRIu64
               ", \"max_diff_2m127\": %.6g, \"bound_2m127\": %g},\n",
            rt->n, rt->worst, REF_BOUND_2M127);
    fprintf(f, "  \"coverage\": {\"seed\": %" PRIu64 ", \"uniform\": %" PRIu64
               ", \"small\": %" PRIu64 ", \"edge_x\": %zu, \"edge_ulps\": %" PRIu64
               ", \"ccs_per_edge_x\": %" PRIu64 "}\n}\n",
            o->seed, o->uniform, o->small, n_edge, o->edge_ulps,
            N_CCS_EDGES + o->edge_ccs);
}

/* --selftest-ref: the comparison as JSON on stdout; 0 when it is within
 * the reference's bound, else 1. */
static int selftest(const struct ref_test *r)
{
    int ok = r->worst < REF_BOUND_2M127;
    printf("{\"inputs\": %" PRIu64 ", \"max_diff_2m127\": %.6g, \"worst_x_bits\": "
           "\"0x%016" PRIx64 "\", \"worst_ccs_bits\": \"0x%016" PRIx64 "\", "
           "\"bound_2m127\": %g, \"ok\": %s}\n",
           r->n, r->worst, r->x, r->c, REF_BOUND_2M127, ok ? "true" : "false");
    if (!ok)
        fprintf(stderr, CHECK_PROG ": error: the double-input reference exceeds its bound\n");
    return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
    struct options o;
    struct plan p;
    size_t n_edge;
    parse_args(argc, argv, &o);
    double t0 = now_s();
    build_plan(&o, &p, &n_edge);
    if (fastref_init(o.threads, o.corrupt_ref) != 0)
        return 2;
    struct ref_test rt = compare_ref(&p, n_edge, o.selftest ? o.selftest : o.ref_sample, o.seed);
    if (o.selftest)
        return selftest(&rt);
    /* Before trusting the fast reference, it must agree with MPFR. */
    if (!(rt.worst < REF_BOUND_2M127))
        die("the double-input reference and MPFR differ by %.3g units of 2^-127 "
            "(bound %g) at x_bits=0x%016" PRIx64 " ccs_bits=0x%016" PRIx64,
            rt.worst, REF_BOUND_2M127, rt.x, rt.c);

    double t1 = now_s();
    struct shared sh = {&p, o.seed, (u128)ldexp((double)K_BOUND, 64), 0, 0};
    struct worker wk[MAX_THREADS];
    memset(wk, 0, sizeof wk);
    for (int i = 0; i < o.threads; i++)
        wk[i].sh = &sh;
    run_workers(wk, o.threads, sizeof wk[0], work, &sh.inputs_done, p.total_inputs,
                "check_fpr " STR(KNAME), t1);
    struct stats st = {0};
    double t2 = t1;
    for (int i = 0; i < o.threads; i++) {
        merge_stats(&st, &wk[i].st);
        t2 = wk[i].finished > t2 ? wk[i].finished : t2;
    }

    FILE *f = stdout;
    if (o.out && (f = fopen(o.out, "w")) == NULL)
        die("cannot write '%s': %s", o.out, strerror(errno));
    write_result(f, &o, &st, &rt, n_edge);
    if (f != stdout && fclose(f) != 0)
        die("cannot write '%s'", o.out);
    if (t2 - t0 > 3)
        fprintf(stderr, "check_fpr %s: %" PRIu64 " inputs (x4 adaptors) in %.2f s "
                        "(+%.2f s set-up), %d threads\n",
                STR(KNAME), p.total_inputs, t2 - t1, t1 - t0, o.threads);
    if (o.timing) {
        FILE *tf = fopen(o.timing, "w");
        if (tf == NULL)
            die("cannot write '%s': %s", o.timing, strerror(errno));
        fprintf(tf, "{\"setup_s\": %.4f, \"run_s\": %.4f, \"threads\": %d, "
                    "\"inputs\": %" PRIu64 "}\n",
                t1 - t0, t2 - t1, o.threads, p.total_inputs);
        fclose(tf);
    }
    free((void *)p.edge_x);
    return 0;
}

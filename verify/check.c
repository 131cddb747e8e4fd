/* SPDX-License-Identifier: MIT */
/*
 * check.c -- measures the maximum error of one generated kernel against the
 * exact function it approximates.
 *
 * The driver is compiled once per kernel (mk/check.mk does this):
 *
 *   cc -O2 -Igenerated/<name> -I<dir of ref header> \
 *      -DKNAME=<name> -DKUNAME=<NAME> \
 *      -DKHEADER='"<name>.h"' -DREF_HEADER='"<name>_ref.h"' \
 *      verify/check.c verify/fastref.c -lmpfr -lgmp -lpthread -lm
 *
 * KHEADER is the kernel (docs/abi.md).  REF_HEADER defines
 *     static void kernel_ref_f(mpfr_ptr y, mpfr_srcptr x);
 * y = f(x) rounded to nearest at y's precision: the trusted reference.  When
 * the plan says the function is exactly "exp(-x)", the much faster table
 * reference of fastref.h is used instead (kernel_ref_f then only serves the
 * --selftest-ref comparison); --force-mpfr disables that shortcut.
 *
 * What is measured (W = word bits, S = scale bits, z an integer input):
 *   eval:     |eval(z) - f(z / 2^W) * 2^S| in units of 2^-S ("ulp").
 *   expm_p63: |expm_p63(z, w) - (w / 2^64) * f(z / 2^64) * 2^63| in units of
 *             2^-63, 64-bit kernels only.
 * Both references are kept as fixed-point numbers with 64 fractional bits
 * below the unit ("Q.64 in units"), so the error is an exact 128-bit
 * difference, truncated by less than 2^-64 units on top of the reference's
 * own error (see fastref.h).
 *
 * The inputs come from a plain-text plan written by verify/plan.py (kernel
 * name, function, word and scale bits, z_max, segments and error extrema).
 * Work is cut into blocks of at most 2^16 inputs; random blocks draw from a
 * generator seeded by (seed, task, block), and ties between equal errors
 * are broken by the smallest (z, w), so the result does not depend on the
 * number of threads or on scheduling.
 *
 * Coverage (defaults in parentheses):
 *   32-bit kernels: every z of the domain (about 3 * 10^9).
 *   64-bit kernels: the first and last --edge (4096) inputs of every
 *     segment and --extremum-width (4096) inputs around every error extremum
 *     of the plan, each also through expm_p63 with w = 2^64 - 1 and with a
 *     pseudo-random w; --random (10^8) uniform z over the domain and
 *     --per-segment (10^6) uniform z in every segment; --expm-random
 *     (5 * 10^7) uniform z, each with w = floor(ccs * 2^64) for ccs uniform
 *     in [0.5, 1) and with w = 2^64 - 1 (ccs = 1 - 2^-64).
 *   --range LO HI instead checks every z in [LO, HI] (expm_p63 with the
 *     single w of --w, default 2^64 - 1), and --dump FILE then writes each
 *     input's exact error, for tests.
 * --selftest-ref N compares the fast reference with kernel_ref_f on N
 * inputs (a short version of that comparison runs before every check);
 * --corrupt-ref breaks the fast reference on purpose, as a control.
 *
 * The checker is not constant-time and need not be: it runs on public
 * inputs.  The kernel under test is called exactly as a user would call it.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

#include <gmp.h>
#include <mpfr.h>

#define CHECK_PROG "check"
#include "check_common.h"
#include "fastref.h"

#include KHEADER
#include REF_HEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define STR_(a) #a
#define STR(a) STR_(a)

#define K_EVAL CAT(KNAME, _eval)
#define K_EXPM CAT(KNAME, _expm_p63)
#define K_WORD_BITS CAT(KUNAME, _WORD_BITS)
#define K_SCALE_BITS CAT(KUNAME, _SCALE_BITS)

#if K_WORD_BITS != 32 && K_WORD_BITS != 64
#error "word bits must be 32 or 64"
#endif
/* The reference is held as (value * 2^(S + 64)) in 128 bits, and exp(-x) <= 1
 * needs S + 65 bits at most: S <= 63. */
#if K_SCALE_BITS < 1 || K_SCALE_BITS > 63
#error "scale bits must be in 1..63"
#endif

_Static_assert(sizeof(unsigned long) == 8, "mpfr_mul_ui needs 64-bit longs");

enum { BLOCK = 1 << 16, MAX_THREADS = CHECK_MAX_THREADS, MPFR_BITS = 256 };

static const uint64_t W_MAX = UINT64_MAX; /* ccs = 1 - 2^-64 */

/* ------------------------------------------------------------------ plan */

struct range {
    uint64_t lo, hi; /* inclusive */
};

struct plan {
    char name[128];
    char function[128];
    int word_bits, scale_bits;
    uint64_t z_min, z_max; /* the domain; z_min is 0 unless the plan says */
    int have_z_max;
    struct range *segments;
    size_t n_segments;
    uint64_t *extrema;
    size_t n_extrema;
};

static void read_plan(const char *path, struct plan *p)
{
    FILE *f = fopen(path, "r");
    char line[512];
    unsigned lineno = 0;
    memset(p, 0, sizeof *p);
    p->word_bits = p->scale_bits = -1;
    if (f == NULL)
        die("cannot open plan '%s': %s", path, strerror(errno));
    while (fgets(line, sizeof line, f) != NULL) {
        char key[32], a[128], b[64], c[64];
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        int n = sscanf(line, "%31s %127s %63s %63s", key, a, b, c);
        if (strcmp(key, "name") == 0 && n == 2) {
            snprintf(p->name, sizeof p->name, "%s", a);
        } else if (strcmp(key, "function") == 0 && n >= 2) {
            /* The function text may contain spaces: keep the rest of the line. */
            snprintf(p->function, sizeof p->function, "%s",
                     line + strspn(line + 8, " ") + 8);
        } else if (strcmp(key, "word_bits") == 0 && n == 2) {
            p->word_bits = (int)parse_u64(a, "plan word_bits");
        } else if (strcmp(key, "scale_bits") == 0 && n == 2) {
            p->scale_bits = (int)parse_u64(a, "plan scale_bits");
        } else if (strcmp(key, "z_min") == 0 && n == 2) {
            p->z_min = parse_u64(a, "plan z_min");
        } else if (strcmp(key, "z_max") == 0 && n == 2) {
            p->z_max = parse_u64(a, "plan z_max");
            p->have_z_max = 1;
        } else if (strcmp(key, "segment") == 0 && n == 4) {
            struct range r = {parse_u64(b, "plan segment z_first"),
                              parse_u64(c, "plan segment z_last")};
            if (r.lo > r.hi)
                die("%s:%u: segment with z_first > z_last", path, lineno);
            p->segments = xrealloc(p->segments,
                                   (p->n_segments + 1) * sizeof *p->segments);
            p->segments[p->n_segments++] = r;
        } else if (strcmp(key, "extremum") == 0 && n == 3) {
            p->extrema = xrealloc(p->extrema,
                                  (p->n_extrema + 1) * sizeof *p->extrema);
            p->extrema[p->n_extrema++] = parse_u64(b, "plan extremum z");
        } else {
            die("%s:%u: cannot parse plan line '%s'", path, lineno, line);
        }
    }
    fclose(f);
    if (p->name[0] == '\0' || p->function[0] == '\0' || p->word_bits < 0 ||
        p->scale_bits < 0 || !p->have_z_max || p->n_segments == 0)
        die("plan '%s' lacks name, function, word_bits, scale_bits, z_max or "
            "segments", path);
    if (strcmp(p->name, STR(KNAME)) != 0)
        die("plan is for kernel '%s' but the checker was built for '%s'",
            p->name, STR(KNAME));
    if (p->word_bits != K_WORD_BITS || p->scale_bits != K_SCALE_BITS)
        die("plan says W=%d S=%d but the kernel header says W=%d S=%d",
            p->word_bits, p->scale_bits, K_WORD_BITS, K_SCALE_BITS);
    if (p->z_min > p->z_max)
        die("plan has z_min > z_max");
    for (size_t i = 0; i < p->n_segments; i++)
        if (p->segments[i].lo < p->z_min || p->segments[i].hi > p->z_max)
            die("plan segment %zu lies outside [z_min, z_max]", i);
    for (size_t i = 0; i < p->n_extrema; i++)
        if (p->extrema[i] < p->z_min || p->extrema[i] > p->z_max)
            die("plan extremum %zu lies outside [z_min, z_max]", i);
}

/* ----------------------------------------------------------------- tasks */

enum task_kind {
    T_RANGE,       /* every z in [lo, hi]: eval, and expm for 64-bit kernels */
    T_RANDOM_EVAL, /* `count` uniform z in [lo, hi]: eval */
    T_RANDOM_EXPM  /* `count` uniform z in [lo, hi], two w each: expm */
};

struct task {
    enum task_kind kind;
    uint64_t lo, hi, count;
    uint64_t first_block, n_blocks;
    int hash_w; /* T_RANGE: also check expm with a pseudo-random w */
};

struct tasks {
    struct task *v;
    size_t n;
    uint64_t total_blocks, total_inputs;
};

static void add_task(struct tasks *t, enum task_kind kind, uint64_t lo,
                     uint64_t hi, uint64_t count, int hash_w)
{
    if (count == 0)
        return;
    t->v = xrealloc(t->v, (t->n + 1) * sizeof *t->v);
    struct task *k = &t->v[t->n++];
    *k = (struct task){kind, lo, hi, count, t->total_blocks,
                       (count - 1) / BLOCK + 1, hash_w};
    t->total_blocks += k->n_blocks;
}

static int cmp_range(const void *a, const void *b)
{
    const struct range *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

/* Sorts the ranges and merges overlapping or touching ones in place, so no
 * input is checked (or counted) twice.  Returns the new count. */
static size_t merge_ranges(struct range *r, size_t n)
{
    size_t m = 0;
    qsort(r, n, sizeof *r, cmp_range);
    for (size_t i = 0; i < n; i++) {
        if (m > 0 && (r[m - 1].hi == UINT64_MAX || r[i].lo <= r[m - 1].hi + 1)) {
            if (r[i].hi > r[m - 1].hi)
                r[m - 1].hi = r[i].hi;
        } else {
            r[m++] = r[i];
        }
    }
    return m;
}

/* ------------------------------------------------------------ randomness */

/* Random inputs come from tu_splitmix64 (toolkit/c/test_util.h):
 * statistical quality is all the checker needs (public test points). */

/* Uniform in [lo, hi] by a 64x64 multiply-high; the bias is below
 * span / 2^64 and irrelevant for test inputs. */
static inline uint64_t uniform(uint64_t *s, uint64_t lo, uint64_t hi)
{
    uint64_t r = tu_splitmix64(s);
    if (lo == 0 && hi == UINT64_MAX)
        return r;
    return lo + (uint64_t)(((u128)r * (hi - lo + 1)) >> 64);
}

/* w = floor(ccs * 2^64) for ccs uniform in [0.5, 1): the top bit set, the
 * other 63 bits random. */
static inline uint64_t random_w(uint64_t *s)
{
    return ((uint64_t)1 << 63) | (tu_splitmix64(s) >> 1);
}

/* ------------------------------------------------------------- reference */

struct ctx {
    int use_mpfr;
    mpfr_t x, y;
    mpz_t tmp;
};

/* floor of the positive MPFR value y as a 128-bit word; dies if it is
 * negative or does not fit. */
static u128 mpfr_to_u128(struct ctx *c)
{
    mpfr_get_z(c->tmp, c->y, MPFR_RNDD);
    if (mpz_sgn(c->tmp) < 0 || mpz_sizeinbase(c->tmp, 2) > 128)
        die("reference value out of range (negative or >= 2^%d units)",
            128 - 64);
    return ((u128)mpz_getlimbn(c->tmp, 1) << 64) | mpz_getlimbn(c->tmp, 0);
}

/* f(z / 2^W) * 2^S * 2^64 (units of 2^-S with 64 fractional bits),
 * truncated. */
static inline u128 ref_eval(struct ctx *c, uint64_t z)
{
    if (!c->use_mpfr) {
#if K_WORD_BITS == 64
        /* Q1.127 -> units of 2^-S with 64 fraction bits: times 2^(S+64-127). */
        return fastref_exp_q127(z) >> (63 - K_SCALE_BITS);
#else
        /* Q2.126 -> same: times 2^(S+64-126). */
        return fastref_exp_q126((uint32_t)z) >> (62 - K_SCALE_BITS);
#endif
    }
    mpfr_set_uj_2exp(c->x, z, -K_WORD_BITS, MPFR_RNDN); /* exact */
    kernel_ref_f(c->y, c->x);
    mpfr_mul_2si(c->y, c->y, K_SCALE_BITS + 64, MPFR_RNDN); /* exact */
    return mpfr_to_u128(c);
}

/* (w / 2^64) * f(z / 2^64) * 2^63 * 2^64 (units of 2^-63 with 64 fractional
 * bits), truncated.  `v` is exp(-z / 2^64) as Q1.127 when the fast path is
 * on (computed once by the caller for the two w it checks at z). */
static inline u128 ref_expm(struct ctx *c, uint64_t z, uint64_t w, u128 v)
{
    if (!c->use_mpfr) {
        /* w * v / 2^64: Q0.64 times Q1.127 is 2^-191 units; the target unit
         * is 2^-127, so drop 64 bits.  w * v_hi < 2^127, no overflow. */
        return (u128)w * (uint64_t)(v >> 64) +
               (((u128)w * (uint64_t)v) >> 64);
    }
    mpfr_set_uj_2exp(c->x, z, -64, MPFR_RNDN);
    kernel_ref_f(c->y, c->x);
    mpfr_mul_ui(c->y, c->y, w, MPFR_RNDN);   /* rounding: 2^-256 relative */
    mpfr_mul_2si(c->y, c->y, 63, MPFR_RNDN); /* (w/2^64) * 2^63 * 2^64 */
    return mpfr_to_u128(c);
}

/* -------------------------------------------------------------- results */

struct worst {
    u128 diff;       /* |kernel - reference|, units with 64 fraction bits */
    uint64_t z, w;   /* where */
    uint64_t n;      /* inputs checked */
    int have;
};

/* Keeps the larger error; on a tie the smaller (z, w), so the reported
 * point does not depend on the order in which blocks were processed. */
static inline void keep_worst(struct worst *b, u128 diff, uint64_t z,
                              uint64_t w)
{
    if (!b->have || diff > b->diff ||
        (diff == b->diff && (z < b->z || (z == b->z && w < b->w)))) {
        b->diff = diff;
        b->z = z;
        b->w = w;
        b->have = 1;
    }
}

static void merge_worst(struct worst *into, const struct worst *from)
{
    if (from->have)
        keep_worst(into, from->diff, from->z, from->w);
    into->n += from->n;
}

/* ------------------------------------------------------------- workers */

struct shared {
    const struct tasks *tasks;
    uint64_t seed, w_fixed;
    int use_mpfr;
    FILE *dump; /* --dump: one line per range input (single thread) */
    uint64_t next_block;  /* atomic */
    uint64_t inputs_done; /* atomic; task inputs (z values), for progress */
};

struct worker {
    struct shared *sh;
    struct worst eval, expm;
    double finished; /* now_s() when this worker ran out of blocks */
};

static const struct task *find_task(const struct tasks *t, uint64_t block)
{
    size_t lo = 0, hi = t->n - 1;
    while (lo < hi) {
        size_t mid = (lo + hi + 1) / 2;
        if (t->v[mid].first_block <= block)
            lo = mid;
        else
            hi = mid - 1;
    }
    return &t->v[lo];
}

/* Checks one input; returns the error (units with 64 fraction bits). */
static inline u128 check_eval(struct ctx *c, struct worst *r, uint64_t z)
{
    u128 got = (u128)K_EVAL(z) << 64;
    u128 diff = absdiff(got, ref_eval(c, z));
    keep_worst(r, diff, z, 0);
    r->n++;
    return diff;
}

#if K_WORD_BITS == 64
static inline u128 check_expm(struct ctx *c, struct worst *r, uint64_t z,
                              uint64_t w, u128 v)
{
    u128 got = (u128)K_EXPM(z, w) << 64;
    u128 diff = absdiff(got, ref_expm(c, z, w, v));
    keep_worst(r, diff, z, w);
    r->n++;
    return diff;
}
#endif

/* Writes a 128-bit word in decimal. */
static void print_u128(FILE *f, u128 v)
{
    char buf[40];
    int i = (int)sizeof buf - 1;
    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v != 0);
    fputs(buf + i, f);
}

/* "z eval_err expm_err": the exact errors in units of 2^-64 of the unit
 * (2^-S for eval, 2^-63 for expm with the fixed w; 0 for 32-bit kernels),
 * so a test can compare every input, not only the maximum. */
static void dump_line(FILE *f, uint64_t z, u128 e_eval, u128 e_expm)
{
    fprintf(f, "%" PRIu64 " ", z);
    print_u128(f, e_eval);
    fputc(' ', f);
    print_u128(f, e_expm);
    fputc('\n', f);
}

static void run_block(struct worker *wk, struct ctx *c, const struct task *t,
                      uint64_t b)
{
    uint64_t start = b * BLOCK; /* offset inside the task */
    uint64_t n = t->count - start < BLOCK ? t->count - start : BLOCK;
    /* A per-block stream: (seed, first block index of the task, block). */
    uint64_t s = wk->sh->seed ^ (t->first_block + b) * 0xD1B54A32D192ED03u;
    tu_splitmix64(&s);
    switch (t->kind) {
    case T_RANGE:
        for (uint64_t i = 0; i < n; i++) {
            uint64_t z = t->lo + start + i;
            u128 e_eval = check_eval(c, &wk->eval, z), e_expm = 0;
#if K_WORD_BITS == 64
            u128 v = c->use_mpfr ? 0 : fastref_exp_q127(z);
            e_expm = check_expm(c, &wk->expm, z, wk->sh->w_fixed, v);
            if (t->hash_w) {
                uint64_t hs = z ^ wk->sh->seed;
                check_expm(c, &wk->expm, z, random_w(&hs), v);
            }
#endif
            if (wk->sh->dump)
                dump_line(wk->sh->dump, z, e_eval, e_expm);
        }
        break;
    case T_RANDOM_EVAL:
        for (uint64_t i = 0; i < n; i++)
            check_eval(c, &wk->eval, uniform(&s, t->lo, t->hi));
        break;
    case T_RANDOM_EXPM:
#if K_WORD_BITS == 64
        for (uint64_t i = 0; i < n; i++) {
            uint64_t z = uniform(&s, t->lo, t->hi);
            u128 v = c->use_mpfr ? 0 : fastref_exp_q127(z);
            check_expm(c, &wk->expm, z, random_w(&s), v);
            check_expm(c, &wk->expm, z, W_MAX, v);
        }
#endif
        break;
    }
    __atomic_fetch_add(&wk->sh->inputs_done, n, __ATOMIC_RELAXED);
}

static void *work(void *arg)
{
    struct worker *wk = arg;
    struct ctx c;
    c.use_mpfr = wk->sh->use_mpfr;
    mpfr_inits2(MPFR_BITS, c.x, c.y, (mpfr_ptr)0);
    mpz_init(c.tmp);
    for (;;) {
        uint64_t b = __atomic_fetch_add(&wk->sh->next_block, 1, __ATOMIC_RELAXED);
        if (b >= wk->sh->tasks->total_blocks)
            break;
        const struct task *t = find_task(wk->sh->tasks, b);
        run_block(wk, &c, t, b - t->first_block);
    }
    wk->finished = now_s();
    mpz_clear(c.tmp);
    mpfr_clears(c.x, c.y, (mpfr_ptr)0);
    mpfr_free_cache();
    return NULL;
}

/* ------------------------------------------------------ reference test */

struct ref_test {
    double worst127, worst63; /* units of 2^-127 and of 2^-63 */
    uint64_t z127, z63;
    int ok;
};

/* Compares the fast reference with kernel_ref_f at 256 bits on `count`
 * inputs: the two ends, then uniform random ones.  Finds the largest
 * difference of each path in its own unit (2^-127 for the Q1.127 path,
 * 2^-63 for the Q1.63 path); ok is false when a documented bound
 * (fastref.h) is exceeded. */
static struct ref_test compare_ref(uint64_t count, uint64_t seed)
{
    /* Bounds from fastref.h: < 2^-124 = 8 units of 2^-127; just over 2^-63,
     * so 1.01 units of 2^-63. */
    const double bound127 = 8.0, bound63 = 1.01;
    double worst127 = 0, worst63 = 0;
    uint64_t z127 = 0, z63 = 0, s = seed;
    mpfr_t x, y, d;
    mpfr_inits2(MPFR_BITS, x, y, d, (mpfr_ptr)0);
    for (uint64_t i = 0; i < count; i++) {
        uint64_t z = i == 0 ? 0 : i == 1 ? UINT64_MAX : tu_splitmix64(&s);
        u128 v = fastref_exp_q127(z);
        mpfr_set_uj_2exp(x, z, -64, MPFR_RNDN);
        kernel_ref_f(y, x);
        /* d = v - f * 2^127, exact at 256 bits. */
        mpfr_set_uj_2exp(d, (uint64_t)(v >> 64), 64, MPFR_RNDN);
        mpfr_add_ui(d, d, (unsigned long)(uint64_t)v, MPFR_RNDN);
        mpfr_mul_2si(x, y, 127, MPFR_RNDN);
        mpfr_sub(d, d, x, MPFR_RNDN);
        double e = fabs(mpfr_get_d(d, MPFR_RNDN));
        if (e > worst127) {
            worst127 = e;
            z127 = z;
        }
        uint32_t z32 = (uint32_t)(z >> 32);
        u128 v32 = fastref_exp_q126(z32);
        mpfr_set_uj_2exp(x, z32, -32, MPFR_RNDN);
        kernel_ref_f(y, x);
        mpfr_set_uj_2exp(d, (uint64_t)(v32 >> 64), 64, MPFR_RNDN);
        mpfr_add_ui(d, d, (unsigned long)(uint64_t)v32, MPFR_RNDN);
        mpfr_mul_2si(x, y, 126, MPFR_RNDN);
        mpfr_sub(d, d, x, MPFR_RNDN);
        /* Q2.126 difference in units of 2^-63. */
        e = fabs(mpfr_get_d(d, MPFR_RNDN)) / 0x1p63;
        if (e > worst63) {
            worst63 = e;
            z63 = z32;
        }
    }
    mpfr_clears(x, y, d, (mpfr_ptr)0);
    mpfr_free_cache();
    return (struct ref_test){worst127, worst63, z127, z63,
                             worst127 <= bound127 && worst63 <= bound63};
}

/* --selftest-ref: the comparison as JSON on stdout; returns the exit
 * status. */
static int selftest_ref(uint64_t count, uint64_t seed)
{
    struct ref_test r = compare_ref(count, seed);
    printf("{\"inputs\": %" PRIu64 ", \"q127_max_err_2m127\": %.6g, "
           "\"q127_worst_z\": \"%" PRIu64 "\", \"q126_max_err_2m63\": %.6g, "
           "\"q126_worst_z\": \"%" PRIu64 "\", \"ok\": %s}\n",
           count, r.worst127, r.z127, r.worst63, r.z63, r.ok ? "true" : "false");
    if (!r.ok)
        fprintf(stderr, "check: error: fast reference exceeds its bound\n");
    return r.ok ? 0 : 1;
}

/* ---------------------------------------------------------------- main */

struct options {
    const char *plan, *out, *timing, *dump;
    int threads, force_mpfr, corrupt_ref, have_range;
    uint64_t seed, random, per_segment, expm_random, edge, ext_width;
    uint64_t range_lo, range_hi, w_fixed, selftest;
};

static void usage_error(const char *msg)
{
    die("%s (usage: check --plan FILE [--out FILE] [--threads N] [--seed S] "
        "[--random N] [--per-segment N] [--expm-random N] [--edge N] "
        "[--extremum-width N] [--range LO HI [--dump FILE]] [--w W] [--force-mpfr] "
        "[--timing FILE] | --selftest-ref N [--corrupt-ref])",
        msg);
}

static void parse_args(int argc, char **argv, struct options *o)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    *o = (struct options){0};
    o->threads = ncpu > 0 ? (int)ncpu : 1;
    o->seed = 1;
    o->random = 100000000;
    o->per_segment = 1000000;
    o->expm_random = 50000000;
    o->edge = 4096;
    o->ext_width = 4096;
    o->w_fixed = W_MAX;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define NEXT_U64(field)                                                        \
    do {                                                                       \
        if (v == NULL)                                                         \
            usage_error("missing value");                                      \
        (field) = parse_u64(v, a);                                             \
        i++;                                                                   \
    } while (0)
        if (strcmp(a, "--plan") == 0 && v) {
            o->plan = v;
            i++;
        } else if (strcmp(a, "--out") == 0 && v) {
            o->out = v;
            i++;
        } else if (strcmp(a, "--timing") == 0 && v) {
            o->timing = v;
            i++;
        } else if (strcmp(a, "--dump") == 0 && v) {
            o->dump = v;
            i++;
        } else if (strcmp(a, "--threads") == 0) {
            uint64_t t;
            NEXT_U64(t);
            if (t < 1 || t > MAX_THREADS)
                usage_error("--threads must be in 1..64");
            o->threads = (int)t;
        } else if (strcmp(a, "--seed") == 0) {
            NEXT_U64(o->seed);
        } else if (strcmp(a, "--random") == 0) {
            NEXT_U64(o->random);
        } else if (strcmp(a, "--per-segment") == 0) {
            NEXT_U64(o->per_segment);
        } else if (strcmp(a, "--expm-random") == 0) {
            NEXT_U64(o->expm_random);
        } else if (strcmp(a, "--edge") == 0) {
            NEXT_U64(o->edge);
        } else if (strcmp(a, "--extremum-width") == 0) {
            NEXT_U64(o->ext_width);
        } else if (strcmp(a, "--w") == 0) {
            NEXT_U64(o->w_fixed);
        } else if (strcmp(a, "--selftest-ref") == 0) {
            NEXT_U64(o->selftest);
            if (o->selftest == 0)
                usage_error("--selftest-ref needs a positive count");
        } else if (strcmp(a, "--range") == 0) {
            if (i + 2 >= argc)
                usage_error("--range needs LO and HI");
            o->range_lo = parse_u64(argv[i + 1], a);
            o->range_hi = parse_u64(argv[i + 2], a);
            o->have_range = 1;
            i += 2;
        } else if (strcmp(a, "--force-mpfr") == 0) {
            o->force_mpfr = 1;
        } else if (strcmp(a, "--corrupt-ref") == 0) {
            o->corrupt_ref = 1;
        } else {
            die("unknown or incomplete option '%s'", a);
        }
#undef NEXT_U64
    }
    if (o->selftest == 0 && o->plan == NULL)
        usage_error("--plan is required");
    if (o->have_range && o->range_lo > o->range_hi)
        usage_error("--range needs LO <= HI");
    if (o->dump && !o->have_range)
        usage_error("--dump needs --range");
    if (o->dump)
        o->threads = 1; /* lines in input order */
}

/* Builds the list of tasks from the plan and the options.  Sets
 * *exhaustive when every z of the domain [z_min, z_max] is checked. */
static void build_tasks(const struct plan *p, const struct options *o,
                        struct tasks *t, int *exhaustive)
{
    memset(t, 0, sizeof *t);
    *exhaustive = 0;
    if (o->have_range || K_WORD_BITS == 32) {
        struct range r = {p->z_min, p->z_max};
        if (o->have_range) {
            if (o->range_lo < p->z_min || o->range_hi > p->z_max)
                die("--range leaves the domain [%" PRIu64 ", %" PRIu64 "]",
                    p->z_min, p->z_max);
            r = (struct range){o->range_lo, o->range_hi};
        }
        /* The explicit range mode checks expm with the fixed w only, so a
         * test can compute the expected error independently. */
        add_task(t, T_RANGE, r.lo, r.hi, r.hi - r.lo + 1, 0);
        *exhaustive = r.lo == p->z_min && r.hi == p->z_max;
        return;
    }
    /* 64-bit kernels: the first and last `edge` inputs of every segment and
     * `ext_width` inputs centred on every error extremum, merged... */
    size_t cap = 2 * p->n_segments + p->n_extrema, n = 0;
    struct range *r = xrealloc(NULL, (cap ? cap : 1) * sizeof *r);
    for (size_t i = 0; i < p->n_segments && o->edge > 0; i++) {
        struct range s = p->segments[i];
        uint64_t len_1 = s.hi - s.lo; /* length - 1 */
        uint64_t e_1 = o->edge - 1 < len_1 ? o->edge - 1 : len_1;
        r[n++] = (struct range){s.lo, s.lo + e_1};
        r[n++] = (struct range){s.hi - e_1, s.hi};
    }
    for (size_t i = 0; i < p->n_extrema && o->ext_width > 0; i++) {
        uint64_t z = p->extrema[i], half = o->ext_width / 2;
        uint64_t lo = z - p->z_min > half ? z - half : p->z_min;
        uint64_t hi = o->ext_width - 1 > p->z_max - lo ? p->z_max
                                                        : lo + o->ext_width - 1;
        r[n++] = (struct range){lo, hi};
    }
    n = merge_ranges(r, n);
    for (size_t i = 0; i < n; i++)
        add_task(t, T_RANGE, r[i].lo, r[i].hi, r[i].hi - r[i].lo + 1, 1);
    free(r);
    /* ... then uniform random inputs over the whole domain, per-segment
     * random inputs so that small segments get their share, and random
     * (z, w) pairs for expm_p63. */
    add_task(t, T_RANDOM_EVAL, p->z_min, p->z_max, o->random, 0);
    for (size_t i = 0; i < p->n_segments; i++)
        add_task(t, T_RANDOM_EVAL, p->segments[i].lo, p->segments[i].hi,
                 o->per_segment, 0);
    add_task(t, T_RANDOM_EXPM, p->z_min, p->z_max, o->expm_random, 0);
}

static void write_result(FILE *f, const struct worst *ev,
                         const struct worst *ex, int exhaustive)
{
    double ulp = ldexp((double)ev->diff, -64);
    fprintf(f, "{\n  \"eval\": {\"max_err_ulp\": ");
    print_double(f, ulp);
    fprintf(f, ", \"max_err_2p63\": ");
    print_double(f, ldexp(ulp, 63 - K_SCALE_BITS));
    fprintf(f, ", \"log2_abs_err\": ");
    print_double(f, ulp > 0 ? log2(ulp) - K_SCALE_BITS : NAN);
    fprintf(f, ", \"worst_z\": \"%" PRIu64 "\", \"inputs_checked\": %" PRIu64
               ", \"exhaustive\": %s},\n",
            ev->z, ev->n, exhaustive ? "true" : "false");
    if (K_WORD_BITS == 32) {
        fprintf(f, "  \"expm_p63\": null\n}\n");
        return;
    }
    double e63 = ldexp((double)ex->diff, -64);
    fprintf(f, "  \"expm_p63\": {\"max_err_2p63\": ");
    print_double(f, e63);
    fprintf(f, ", \"log2_abs_err\": ");
    print_double(f, e63 > 0 ? log2(e63) - 63 : NAN);
    fprintf(f, ", \"worst_z\": \"%" PRIu64 "\", \"worst_w\": \"%" PRIu64
               "\", \"inputs_checked\": %" PRIu64 "}\n}\n",
            ex->z, ex->w, ex->n);
}

int main(int argc, char **argv)
{
    struct options o;
    struct plan p;
    struct tasks t;
    int exhaustive;
    parse_args(argc, argv, &o);

    double t0 = now_s();
    if (o.selftest > 0) {
        if (fastref_init(o.threads, o.corrupt_ref) != 0)
            return 2;
        return selftest_ref(o.selftest, o.seed);
    }

    read_plan(o.plan, &p);
    build_tasks(&p, &o, &t, &exhaustive);
    int use_mpfr = o.force_mpfr || strcmp(p.function, "exp(-x)") != 0;
    if (!use_mpfr) {
        if (fastref_init(o.threads, o.corrupt_ref) != 0)
            return 2;
        /* Before trusting the shortcut, cross-check it with the MPFR code
         * the generator wrote for this kernel: they must agree within the
         * fast reference's stated bounds. */
        struct ref_test r = compare_ref(2000, o.seed);
        if (!r.ok)
            die("the fast exp(-x) reference and kernel_ref_f of " REF_HEADER
                " differ by %.3g units of 2^-127 at z=%" PRIu64,
                r.worst127, r.z127);
    }
    for (size_t i = 0; i < t.n; i++)
        t.total_inputs += t.v[i].count;

    double t1 = now_s();
    struct shared sh = {&t, o.seed, o.w_fixed, use_mpfr, NULL, 0, 0};
    if (o.dump && (sh.dump = fopen(o.dump, "w")) == NULL)
        die("cannot write '%s': %s", o.dump, strerror(errno));
    struct worker wk[MAX_THREADS];
    memset(wk, 0, sizeof wk);
    for (int i = 0; i < o.threads; i++)
        wk[i].sh = &sh;
    /* Progress on stderr, only for runs longer than a few seconds. */
    char what[160];
    snprintf(what, sizeof what, "check %s", p.name);
    run_workers(wk, o.threads, sizeof wk[0], work, &sh.inputs_done, t.total_inputs, what, t1);
    /* The run ends when the last worker finishes (not when this polling
     * loop notices), so the measured rate is not rounded to the poll. */
    struct worst ev = {0}, ex = {0};
    double t2 = t1;
    for (int i = 0; i < o.threads; i++) {
        merge_worst(&ev, &wk[i].eval);
        merge_worst(&ex, &wk[i].expm);
        if (wk[i].finished > t2)
            t2 = wk[i].finished;
    }

    if (sh.dump && fclose(sh.dump) != 0)
        die("cannot write '%s'", o.dump);
    FILE *f = stdout;
    if (o.out && (f = fopen(o.out, "w")) == NULL)
        die("cannot write '%s': %s", o.out, strerror(errno));
    write_result(f, &ev, &ex, exhaustive);
    if (f != stdout && fclose(f) != 0)
        die("cannot write '%s'", o.out);

    uint64_t checked = ev.n + ex.n;
    double rate = (double)checked / (t2 - t1) / o.threads;
    if (t2 - t0 > 3)
        fprintf(stderr, "check %s: %" PRIu64 " inputs in %.2f s (+%.2f s set-up), "
                "%.3g per second per thread\n",
                p.name, checked, t2 - t1, t1 - t0, rate);
    if (o.timing) {
        FILE *tf = fopen(o.timing, "w");
        if (tf == NULL)
            die("cannot write '%s': %s", o.timing, strerror(errno));
        fprintf(tf, "{\"setup_s\": %.4f, \"run_s\": %.4f, \"threads\": %d, "
                    "\"inputs\": %" PRIu64 ", \"per_s_per_thread\": %.6g, "
                    "\"reference\": \"%s\"}\n",
                t1 - t0, t2 - t1, o.threads, checked, rate,
                use_mpfr ? "mpfr" : "fast");
        fclose(tf);
    }
    return 0;
}

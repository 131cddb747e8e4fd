/* SPDX-License-Identifier: MIT */
/*
 * sampler_main.c -- the sampler-level benchmark (make bench-sampler,
 * docs/bench.md): Falcon's SamplerZ loop (bench/sampler.h) with each
 * fpr_expm_p63 under test, and its speculative form (bench/sampler_spec.h)
 * with the batch kernel falcon_x86_simd on 4 or 8 candidates per round,
 * timed in one process with interleaved rounds.
 *
 * Usage:
 *   sampler_main list
 *       one line per variant this CPU can run: "name kind isa base", base
 *       being the variant whose samples it must reproduce from the same
 *       random bytes (the same loop shape: facct_int128 for the sequential
 *       loops, the same speculative loop with facct_int128 for the others).
 *   sampler_main time SEED ROUNDS SAMPLES WARMUP_MS
 *       one independent run: warm-up, then ROUNDS rounds; each round takes
 *       one calibration sample of each kind (bench/timing.h), then visits
 *       every timed variant (not the controls) in a freshly shuffled order
 *       and times SAMPLES accepted samples of each.  Every variant starts
 *       the round from the same generator state and the same parameters,
 *       so all do the same work unless their outputs change a decision.
 *       Prints one JSON object: TSC ticks per accepted sample, BerExp
 *       decisions, candidates computed and random bytes per sample, the
 *       calibration ratios, and per variant the rounds whose samples
 *       differ from its base's.
 *   sampler_main count NAME SAMPLES
 *       draws SAMPLES samples with NAME, untimed, and prints a checksum:
 *       run under callgrind at two sizes by bench/sampler.py.
 *   sampler_main draw NAME SAMPLES MU SIGMA SEED
 *       draws SAMPLES samples of centre MU and deviation SIGMA (in
 *       (sigma_min, sigma_0], ccs = sigma_min / SIGMA below 1) and prints
 *       "trials T" (BerExp decisions), "candidates C", "bytes B" (random
 *       bytes consumed), "outside O", then "value count" lines: the
 *       histogram the tests compare with the exact distribution.
 *   sampler_main agree SAMPLES SEED
 *       draws SAMPLES samples with every variant from the same state and
 *       prints, per variant, how many differ from its base's and the
 *       index of the first that does (-1: none), and how many differ from
 *       the sequential facct_int128's, as JSON.
 *   sampler_main table
 *       prints the base sampler's table, one 72-bit entry per line as
 *       three decimal 24-bit limbs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "refs.h"
#include "sampler.h"
#include "sampler_spec.h"
#include "test_util.h"
#include "timing.h"

/* The portable reference's constants (facct_ref_c), used by
 * bench_ref_int128; compiled in so it inlines as in the bench registry. */
#include "facct_ref.c"

#include "falcon_x86/falcon_x86.h"
#include "falcon_x86_fast/falcon_x86_fast.h"
#include "falcon_x86_v1/falcon_x86_v1.h"
#include "falcon_x86_head/falcon_x86_head.h"
#include "falcon_x86_simd/falcon_x86_simd.h"

/* ---- deliberately broken kernels: the tests' controls ------------------- */

/* A constant 2^62 (= 0.5 in Q63): BerExp then accepts with probability
 * about 2^-(t+1), a staircase in x instead of ccs e^-x. */
static inline uint64_t sampler_ctl_const(double r, double ccs)
{
    (void)r;
    (void)ccs;
    return UINT64_C(1) << 62;
}

/* ccs (1 - r) 2^63: exp(-r) replaced by its first-order Taylor polynomial,
 * which is 0.307 instead of 0.5 at r = ln 2. */
static inline uint64_t sampler_ctl_linear(double r, double ccs)
{
    return (uint64_t)(int64_t)(ccs * (1.0 - r) * BENCH_TWO63);
}

/* The kernels through the adaptor a native-float Falcon signer calls,
 * `<name>_fpr_expm_p63_native(x, ccs)`: doubles in, every input defined
 * (the same code as `<name>_fpr_expm_p63(x_bits, ccs_bits)` after its
 * memcpy of the bit patterns). */
#define AVX2_ATTR __attribute__((target("avx2,fma")))
SAMPLER_DEFINE(facct_int128, bench_ref_int128, )
SAMPLER_DEFINE(facct_avx2, bench_ref_avx2, AVX2_ATTR)
SAMPLER_DEFINE(falcon_x86_v1, falcon_x86_v1_fpr_expm_p63_native, )
SAMPLER_DEFINE(falcon_x86_head, falcon_x86_head_fpr_expm_p63_native, )
SAMPLER_DEFINE(falcon_x86, falcon_x86_fpr_expm_p63_native, )
SAMPLER_DEFINE(falcon_x86_fast, falcon_x86_fast_fpr_expm_p63_native, )
SAMPLER_DEFINE(falcon_x86_simd, falcon_x86_simd_fpr_expm_p63_native, )
/* The flagship and the fast kernel through `<name>_fpr_expm_p63_domain(x,
 * ccs)`, Falcon's own contract (0 <= x < ln 2, 0 <= ccs <= 1, which every
 * call of this loop meets) without the edge rules: what the references do,
 * so these rows are the like-for-like comparison with them. */
SAMPLER_DEFINE(falcon_x86_domain, falcon_x86_fpr_expm_p63_domain, )
SAMPLER_DEFINE(falcon_x86_fast_domain, falcon_x86_fast_fpr_expm_p63_domain, )
SAMPLER_DEFINE(ctl_const, sampler_ctl_const, )
SAMPLER_DEFINE(ctl_linear, sampler_ctl_linear, )

/* ---- speculative loops: K candidates' fpr_expm_p63 per round ------------- */

/* EVAL of a speculative loop from a scalar fpr_expm_p63 FN: k calls. */
#define SPEC_EVAL_SCALAR(NAME, FN)                                             \
    static inline void NAME(uint64_t *e, const double *rv, double ccs, unsigned k) \
    {                                                                          \
        unsigned j;                                                            \
        for (j = 0; j < k; j++) {                                              \
            e[j] = FN(rv[j], ccs);                                             \
        }                                                                      \
    }

/* The reference speculative loops: the same rounds and byte order as the
 * batch ones, each candidate through the scalar facct_int128, so a batch
 * loop must draw their samples from the same bytes (its decisions differ
 * only where the kernels' outputs flip one, as in the sequential loops). */
SPEC_EVAL_SCALAR(spec_eval_int128, bench_ref_int128)

/* falcon_x86_simd's register entries with every edge rule (the lane-wise
 * `_native`, as the sequential kernels are called): four lanes on AVX2,
 * eight on AVX-512F/DQ, the same ccs in every lane. */
static inline void spec_eval_batch_x4(uint64_t *e, const double *rv, double ccs, unsigned k)
{
    __m256i v = falcon_x86_simd_fpr_expm_p63_native_x4(_mm256_loadu_pd(rv), _mm256_set1_pd(ccs));
    (void)k;
    _mm256_storeu_si256((__m256i *)(void *)e, v);
}

#define AVX512_ATTR __attribute__((target("avx512f,avx512dq")))
AVX512_ATTR static inline void spec_eval_batch_x8(uint64_t *e, const double *rv, double ccs, unsigned k)
{
    __m512i v = falcon_x86_simd_fpr_expm_p63_native_x8(_mm512_loadu_pd(rv), _mm512_set1_pd(ccs));
    (void)k;
    _mm512_storeu_si512((void *)e, v);
}

/* Controls of the speculative loop (tests): the batch result with its
 * lanes rotated by one, so candidate j is decided with candidate j+1's
 * probability (a lane mix-up in the glue around a correct kernel); and
 * the linear expm of sampler_ctl_linear on every lane. */
static inline void spec_ctl_rotate_x4(uint64_t *e, const double *rv, double ccs, unsigned k)
{
    __m256i v = falcon_x86_simd_fpr_expm_p63_native_x4(_mm256_loadu_pd(rv), _mm256_set1_pd(ccs));
    (void)k;
    _mm256_storeu_si256((__m256i *)(void *)e, _mm256_permute4x64_epi64(v, 0x39));
}

SPEC_EVAL_SCALAR(spec_ctl_linear, sampler_ctl_linear)

SAMPLER_SPEC_DEFINE(spec4_facct_int128, 4, 0, spec_eval_int128, )
SAMPLER_SPEC_DEFINE(spec4_batch_avx2, 4, 0, spec_eval_batch_x4, )
SAMPLER_SPEC_DEFINE(spec8_facct_int128, 8, 0, spec_eval_int128, )
SAMPLER_SPEC_DEFINE(spec8_batch_avx512, 8, 0, spec_eval_batch_x8, AVX512_ATTR)
SAMPLER_SPEC_DEFINE(pool4_facct_int128, 4, 1, spec_eval_int128, )
SAMPLER_SPEC_DEFINE(pool4_batch_avx2, 4, 1, spec_eval_batch_x4, )
SAMPLER_SPEC_DEFINE(pool8_facct_int128, 8, 1, spec_eval_int128, )
SAMPLER_SPEC_DEFINE(pool8_batch_avx512, 8, 1, spec_eval_batch_x8, AVX512_ATTR)
SAMPLER_SPEC_DEFINE(spec4_ctl_rotate, 4, 0, spec_ctl_rotate_x4, )
SAMPLER_SPEC_DEFINE(spec4_ctl_linear, 4, 0, spec_ctl_linear, )
SAMPLER_SPEC_DEFINE(pool4_ctl_rotate, 4, 1, spec_ctl_rotate_x4, )

struct sampler_variant {
    const char *name;
    const char *kind;   /* "reference", "kernel", "speculative" or "control" */
    const char *isa;    /* what beyond the build's x86-64-v3 it needs: "-" or "avx512" */
    const char *base;   /* whose samples it reproduces from the same bytes */
    sampler_fn run;
};

/* facct_int128 first: the base of the sequential loops. */
static const struct sampler_variant variants[] = {
    {"facct_int128", "reference", "-", "facct_int128", sampler_run_facct_int128},
    {"facct_avx2", "reference", "-", "facct_int128", sampler_run_facct_avx2},
    {"falcon_x86_v1", "kernel", "-", "facct_int128", sampler_run_falcon_x86_v1},
    {"falcon_x86_head", "kernel", "-", "facct_int128", sampler_run_falcon_x86_head},
    {"falcon_x86", "kernel", "-", "facct_int128", sampler_run_falcon_x86},
    {"falcon_x86_fast", "kernel", "-", "facct_int128", sampler_run_falcon_x86_fast},
    {"falcon_x86_simd", "kernel", "-", "facct_int128", sampler_run_falcon_x86_simd},
    {"falcon_x86/domain", "kernel", "-", "facct_int128", sampler_run_falcon_x86_domain},
    {"falcon_x86_fast/domain", "kernel", "-", "facct_int128", sampler_run_falcon_x86_fast_domain},
    {"spec4_facct_int128", "speculative", "-", "spec4_facct_int128", sampler_run_spec4_facct_int128},
    {"spec4_batch_avx2", "speculative", "-", "spec4_facct_int128", sampler_run_spec4_batch_avx2},
    {"spec8_facct_int128", "speculative", "-", "spec8_facct_int128", sampler_run_spec8_facct_int128},
    {"spec8_batch_avx512", "speculative", "avx512", "spec8_facct_int128", sampler_run_spec8_batch_avx512},
    {"pool4_facct_int128", "speculative", "-", "pool4_facct_int128", sampler_run_pool4_facct_int128},
    {"pool4_batch_avx2", "speculative", "-", "pool4_facct_int128", sampler_run_pool4_batch_avx2},
    {"pool8_facct_int128", "speculative", "-", "pool8_facct_int128", sampler_run_pool8_facct_int128},
    {"pool8_batch_avx512", "speculative", "avx512", "pool8_facct_int128", sampler_run_pool8_batch_avx512},
    {"ctl_const", "control", "-", "facct_int128", sampler_run_ctl_const},
    {"ctl_linear", "control", "-", "facct_int128", sampler_run_ctl_linear},
    {"spec4_ctl_rotate", "control", "-", "spec4_facct_int128", sampler_run_spec4_ctl_rotate},
    {"spec4_ctl_linear", "control", "-", "spec4_facct_int128", sampler_run_spec4_ctl_linear},
    {"pool4_ctl_rotate", "control", "-", "pool4_facct_int128", sampler_run_pool4_ctl_rotate},
};
enum { NVARIANTS = sizeof variants / sizeof variants[0] };

/* Whether this CPU runs variant v (valgrind hides AVX-512 from CPUID, so
 * under it the AVX-512 loop is unavailable too). */
static int available(const struct sampler_variant *v)
{
    return strcmp(v->isa, "avx512") != 0
           || (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"));
}

/* The index of v's base (always listed before v, and needing no more
 * than the build's instruction set). */
static unsigned base_index(const struct sampler_variant *v)
{
    unsigned i;
    for (i = 0; strcmp(variants[i].name, v->base) != 0; i++) {
    }
    return i;
}

static struct sampler_param params[SAMPLER_PARAMS];

/* The representative parameters (docs/bench.md): mu uniform in [-32, 32)
 * (its integer part only shifts the output; its fractional part sets r),
 * sigma' uniform in [sigma_min, sigma_0] = [1.2778, 1.8205], the range of
 * Falcon-512's leaf deviations, isigma = 1 / sigma'.  A draw whose ccs
 * would round to 1 (sigma' within an ulp of sigma_min) is replaced by the
 * next draw: Falcon's ccs is below 1, and facct_int128 returns 0 at 1. */
static void fill_params(uint64_t seed)
{
    uint64_t s = seed ^ UINT64_C(0x9A3A3E7E5D0C1B2F);
    unsigned i = 0;
    while (i < SAMPLER_PARAMS) {
        double mu = -32.0 + 64.0 * tu_unit53(&s);
        double sigma = SAMPLER_SIGMA_MIN
                       + (SAMPLER_SIGMA_0 - SAMPLER_SIGMA_MIN) * tu_unit53(&s);
        double isigma = 1.0 / sigma;
        if (isigma * SAMPLER_SIGMA_MIN < 1.0) {
            params[i].mu = mu;
            params[i].isigma = isigma;
            i++;
        }
    }
}

/* The generator seed of round r of the run seeded with `seed`: the same
 * for every variant within a round. */
static uint64_t round_seed(uint64_t seed, unsigned r)
{
    return seed * UINT64_C(0xD1B54A32D192ED03) + (uint64_t)r + 1u;
}

static uint64_t checksum(const int32_t *out, uint64_t n)
{
    uint64_t h = UINT64_C(0xCBF29CE484222325), i;
    for (i = 0; i < n; i++) {
        h = (h ^ (uint32_t)out[i]) * UINT64_C(0x100000001B3);
    }
    return h;
}

static const struct sampler_variant *find(const char *name)
{
    unsigned i;
    for (i = 0; i < NVARIANTS; i++) {
        if (strcmp(variants[i].name, name) == 0) {
            if (!available(&variants[i])) {
                fprintf(stderr, "sampler_main: variant '%s' needs %s, which this CPU lacks\n",
                        name, variants[i].isa);
                exit(1);
            }
            return &variants[i];
        }
    }
    fprintf(stderr, "sampler_main: unknown variant '%s'\n", name);
    exit(1);
}

static int32_t *alloc_out(uint64_t n)
{
    int32_t *out = malloc((size_t)n * sizeof *out);
    if (out == NULL) {
        fprintf(stderr, "sampler_main: out of memory for %llu samples\n",
                (unsigned long long)n);
        exit(1);
    }
    return out;
}

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
    unsigned i;
    for (i = 0; i < NVARIANTS; i++) {
        if (available(&variants[i])) {
            printf("%s %s %s %s\n", variants[i].name, variants[i].kind, variants[i].isa,
                   variants[i].base);
        }
    }
    return 0;
}

static int cmd_time(uint64_t seed, unsigned rounds, uint64_t samples, double warmup_ms)
{
    unsigned timed[NVARIANTS], nt = 0, i, k, r;
    double *ticks = malloc((size_t)NVARIANTS * rounds * sizeof *ticks);
    double *cal_add = malloc(rounds * sizeof *cal_add);
    double *cal_imul = malloc(rounds * sizeof *cal_imul);
    uint64_t trials[NVARIANTS] = {0}, diverged[NVARIANTS] = {0};
    uint64_t cands[NVARIANTS] = {0}, bytes[NVARIANTS] = {0}, warm_cands = 0;
    uint64_t sums[NVARIANTS], rs = seed ^ UINT64_C(0x5DEECE66D), sink = 0;
    int32_t *out = alloc_out(samples);
    struct sampler_prng prng;
    double t_end;

    if (ticks == NULL || cal_add == NULL || cal_imul == NULL) {
        fprintf(stderr, "sampler_main: out of memory\n");
        return 1;
    }
    for (i = 0; i < NVARIANTS; i++) {
        if (strcmp(variants[i].kind, "control") != 0 && available(&variants[i])) {
            timed[nt++] = i;
        }
    }
    fill_params(seed);

    /* Warm-up: every timed loop in turn until warmup_ms have passed. */
    t_end = now_ms() + warmup_ms;
    do {
        for (k = 0; k < nt; k++) {
            sampler_seed(&prng, seed);
            sink += variants[timed[k]].run(&prng, params, samples, out, &warm_cands);
        }
    } while (now_ms() < t_end);

    for (r = 0; r < rounds; r++) {
        unsigned order[NVARIANTS];
        cal_add[r] = calibrate(0, CALIB_ADD_ITERS);
        cal_imul[r] = calibrate(1, CALIB_IMUL_ITERS);
        /* Fisher-Yates shuffle of the visiting order, fresh every round. */
        for (k = 0; k < nt; k++) {
            order[k] = timed[k];
        }
        for (k = nt; k > 1; k--) {
            unsigned j = (unsigned)(tu_splitmix64(&rs) % k), t = order[k - 1];
            order[k - 1] = order[j];
            order[j] = t;
        }
        for (k = 0; k < nt; k++) {
            unsigned v = order[k];
            uint64_t t0, t1, n;
            sampler_seed(&prng, round_seed(seed, r));
            t0 = tsc_begin();
            n = variants[v].run(&prng, params, samples, out, &cands[v]);
            t1 = tsc_end();
            ticks[v * rounds + r] = (double)(t1 - t0) / (double)samples;
            trials[v] += n;
            bytes[v] += sampler_bytes_used(&prng);
            sums[v] = checksum(out, samples);
        }
        /* Every base is timed (kind "reference" or "speculative"). */
        for (k = 0; k < nt; k++) {
            diverged[timed[k]] += sums[timed[k]] != sums[base_index(&variants[timed[k]])];
        }
    }

    printf("{\"seed\": %llu, \"rounds\": %u, \"samples\": %llu, \"sink\": %llu,\n",
           (unsigned long long)seed, rounds, (unsigned long long)samples,
           (unsigned long long)sink);
    printf("\"calibration\": {");
    print_series("add", cal_add, rounds);
    printf(", ");
    print_series("imul", cal_imul, rounds);
    printf("},\n\"variants\": [");
    for (k = 0; k < nt; k++) {
        unsigned v = timed[k];
        double per = (double)samples * rounds;
        printf("%s\n{\"name\": \"%s\", \"kind\": \"%s\", \"isa\": \"%s\", \"base\": \"%s\", "
               "\"trials_per_sample\": %.6f, \"candidates_per_sample\": %.6f, "
               "\"bytes_per_sample\": %.4f, \"rounds_differing_from_base\": %llu, ",
               k ? "," : "", variants[v].name, variants[v].kind, variants[v].isa, variants[v].base,
               (double)trials[v] / per, (double)cands[v] / per, (double)bytes[v] / per,
               (unsigned long long)diverged[v]);
        print_series("ticks_per_sample", &ticks[v * rounds], rounds);
        printf("}");
    }
    printf("\n]}\n");
    free(ticks);
    free(cal_add);
    free(cal_imul);
    free(out);
    return 0;
}

static int cmd_count(const char *name, uint64_t samples)
{
    const struct sampler_variant *v = find(name);
    int32_t *out = alloc_out(samples);
    struct sampler_prng prng;
    uint64_t cands = 0;
    fill_params(1);
    sampler_seed(&prng, 1);
    v->run(&prng, params, samples, out, &cands);
    printf("%llu\n", (unsigned long long)checksum(out, samples));
    free(out);
    return 0;
}

/* The histogram covers s + z within mu +- 64; sigma' <= 1.8205 puts the
 * chance of a sample outside below 2^-400. */
enum { HIST_HALF = 64 };

static int cmd_draw(const char *name, uint64_t samples, double mu, double sigma, uint64_t seed)
{
    const struct sampler_variant *v = find(name);
    int32_t *out = alloc_out(samples);
    static uint64_t hist[2 * HIST_HALF + 1];
    struct sampler_prng prng;
    int32_t base = (int32_t)floor(mu) - HIST_HALF;
    uint64_t trials, i, outside = 0, cands = 0;
    unsigned k;

    /* ccs = sigma_min / sigma must stay below 1, as in Falcon: at 1 the
     * integer reference returns 0 (FACCT.md), which BerExp reads as an
     * almost sure accept. */
    if (!(sigma >= SAMPLER_SIGMA_MIN && sigma <= SAMPLER_SIGMA_0)
        || !((1.0 / sigma) * SAMPLER_SIGMA_MIN < 1.0) || !(mu > -1e6 && mu < 1e6)) {
        fprintf(stderr, "sampler_main: need SIGMA in (%.17g, %.5g] with ccs < 1 and |MU| < 1e6\n",
                SAMPLER_SIGMA_MIN, SAMPLER_SIGMA_0);
        return 2;
    }
    for (k = 0; k < SAMPLER_PARAMS; k++) {
        params[k].mu = mu;
        params[k].isigma = 1.0 / sigma;
    }
    sampler_seed(&prng, seed);
    trials = v->run(&prng, params, samples, out, &cands);
    for (i = 0; i < samples; i++) {
        int64_t d = (int64_t)out[i] - base;
        if (d < 0 || d > 2 * HIST_HALF) {
            outside++;
        } else {
            hist[d]++;
        }
    }
    printf("trials %llu\ncandidates %llu\nbytes %llu\noutside %llu\n",
           (unsigned long long)trials, (unsigned long long)cands,
           (unsigned long long)sampler_bytes_used(&prng), (unsigned long long)outside);
    for (k = 0; k <= 2 * HIST_HALF; k++) {
        if (hist[k] != 0) {
            printf("%d %llu\n", base + (int)k, (unsigned long long)hist[k]);
        }
    }
    free(out);
    return 0;
}

static int cmd_agree(uint64_t samples, uint64_t seed)
{
    static int32_t *outs[NVARIANTS];
    struct sampler_prng prng;
    unsigned i, first_printed = 1;
    fill_params(seed);
    for (i = 0; i < NVARIANTS; i++) {
        uint64_t cands = 0;
        if (available(&variants[i])) {
            outs[i] = alloc_out(samples);
            sampler_seed(&prng, seed);
            variants[i].run(&prng, params, samples, outs[i], &cands);
        }
    }
    printf("{\"samples\": %llu, \"seed\": %llu, \"variants\": [",
           (unsigned long long)samples, (unsigned long long)seed);
    for (i = 0; i < NVARIANTS; i++) {
        const int32_t *ref = outs[base_index(&variants[i])];
        uint64_t j, differ = 0, differ_seq = 0;
        long long first = -1;
        if (outs[i] == NULL) {
            continue;
        }
        for (j = 0; j < samples; j++) {
            differ_seq += outs[i][j] != outs[0][j];
            if (outs[i][j] != ref[j]) {
                differ++;
                if (first < 0) {
                    first = (long long)j;
                }
            }
        }
        printf("%s\n{\"name\": \"%s\", \"kind\": \"%s\", \"base\": \"%s\", \"differing\": %llu, "
               "\"first_differing\": %lld, \"differing_from_facct_int128\": %llu}",
               first_printed ? "" : ",", variants[i].name, variants[i].kind, variants[i].base,
               (unsigned long long)differ, first, (unsigned long long)differ_seq);
        first_printed = 0;
    }
    printf("\n]}\n");
    for (i = 0; i < NVARIANTS; i++) {
        free(outs[i]);
    }
    return 0;
}

static int cmd_table(void)
{
    unsigned i;
    for (i = 0; i < 18; i++) {
        printf("%u %u %u\n", sampler_rcdt[i][0], sampler_rcdt[i][1], sampler_rcdt[i][2]);
    }
    return 0;
}

/* Parses a decimal unsigned argument, or exits with a one-line error. */
static uint64_t arg_u64(const char *s, const char *what)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s == '\0' || *end != '\0' || s[0] == '-') {
        fprintf(stderr, "sampler_main: %s must be a non-negative integer, got '%s'\n", what, s);
        exit(2);
    }
    return (uint64_t)v;
}

static double arg_double(const char *s, const char *what)
{
    char *end;
    double v = strtod(s, &end);
    if (*s == '\0' || *end != '\0') {
        fprintf(stderr, "sampler_main: %s must be a number, got '%s'\n", what, s);
        exit(2);
    }
    return v;
}

/* Sample counts are capped so that an output array stays below 4 GiB. */
static uint64_t arg_samples(const char *s)
{
    uint64_t n = arg_u64(s, "SAMPLES");
    if (n == 0 || n > (UINT64_C(1) << 30)) {
        fprintf(stderr, "sampler_main: need 0 < SAMPLES <= 2^30, got %s\n", s);
        exit(2);
    }
    return n;
}

int main(int argc, char **argv)
{
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) {
        fprintf(stderr, "sampler_main: this CPU lacks AVX2/FMA (x86-64-v3 build)\n");
        return 1;
    }
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        return cmd_list();
    }
    if (argc == 2 && strcmp(argv[1], "table") == 0) {
        return cmd_table();
    }
    if (argc == 4 && strcmp(argv[1], "count") == 0) {
        return cmd_count(argv[2], arg_samples(argv[3]));
    }
    if (argc == 4 && strcmp(argv[1], "agree") == 0) {
        return cmd_agree(arg_samples(argv[2]), arg_u64(argv[3], "SEED"));
    }
    if (argc == 7 && strcmp(argv[1], "draw") == 0) {
        return cmd_draw(argv[2], arg_samples(argv[3]), arg_double(argv[4], "MU"),
                        arg_double(argv[5], "SIGMA"), arg_u64(argv[6], "SEED"));
    }
    if (argc == 6 && strcmp(argv[1], "time") == 0) {
        uint64_t rounds = arg_u64(argv[3], "ROUNDS");
        if (rounds == 0 || rounds > 100000) {
            fprintf(stderr, "sampler_main: need 0 < ROUNDS <= 100000\n");
            return 2;
        }
        return cmd_time(arg_u64(argv[2], "SEED"), (unsigned)rounds, arg_samples(argv[4]),
                        (double)arg_u64(argv[5], "WARMUP_MS"));
    }
    fprintf(stderr, "usage: sampler_main list | table | time SEED ROUNDS SAMPLES WARMUP_MS"
                    " | count NAME SAMPLES | draw NAME SAMPLES MU SIGMA SEED | agree SAMPLES SEED\n");
    return 2;
}

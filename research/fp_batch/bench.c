/* SPDX-License-Identifier: MIT */
/* bench.c -- per-element throughput on arrays of 1024 inputs (L1-resident),
 * rdtsc, median over many rounds; all kernels timed in the same rounds in a
 * rotating order, and the per-round ratios' medians reported.
 *   ./bench_bin ROUNDS                                                    */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <x86intrin.h>
#define PROTO_SATTR __attribute__((target("fma")))
#define FACCT_DBL_ATTR __attribute__((target("fma"), always_inline))
#include "proto.h"
#include "refs.h"

void proj_avx512(uint64_t *o, const double *x, const double *c, size_t n);
void proj_avx2(uint64_t *o, const double *x, const double *c, size_t n);

#define N 1024
typedef void (*batch_fn)(uint64_t *, const double *, const double *, size_t);

static __attribute__((noinline)) void loop_int128(uint64_t *o, const double *x, const double *c, size_t n) {
    for (size_t i = 0; i < n; i++) o[i] = facct_int128(x[i], c[i]);
}
static __attribute__((noinline, target("fma"))) void loop_dbl(uint64_t *o, const double *x, const double *c, size_t n) {
    for (size_t i = 0; i < n; i++) o[i] = facct_dbl_fma(x[i], c[i]);
}
static __attribute__((noinline, target("fma"))) void loop_proto_scalar(uint64_t *o, const double *x, const double *c, size_t n) {
    for (size_t i = 0; i < n; i++) o[i] = proto_expm_scalar(x[i], c[i]);
}

static int cmp_d(const void *a, const void *b) { double u = *(const double *)a, v = *(const double *)b; return (u > v) - (u < v); }
static double median(double *v, int n) { qsort(v, n, sizeof *v, cmp_d); return v[n / 2]; }

static inline uint64_t tsc(void) { _mm_lfence(); uint64_t t = __rdtsc(); _mm_lfence(); return t; }

/* TSC ticks per core cycle: a chain of dependent 64-bit multiplies (3-cycle
 * latency on the recent x86 cores; register adds with an immediate can be
 * folded by the renamer on Golden Cove, so they do not make a clock). */
static double calibrate(void) {
    double best = 1e30;
    for (int rep = 0; rep < 21; rep++) {
        uint64_t a = 1, it = 10000;
        uint64_t t0 = tsc();
        __asm__ volatile("1:\n"
            ".rept 100\n imul %0, %0\n .endr\n"
            "dec %1\n jnz 1b\n" : "+r"(a), "+r"(it));
        uint64_t t1 = tsc();
        double r = (double)(t1 - t0) / (10000.0 * 100.0 * 3.0);
        if (r < best) best = r;
    }
    return best;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 1001;
    static double x[N], c[N];
    static uint64_t o[N];
    uint64_t s = 0x123456789ull;
    for (int i = 0; i < N; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        x[i] = (double)(s >> 11) * 0x1p-53 * 0x1.62e42fefa39efp-1;
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        c[i] = 0.61 + 0.39 * (double)(s >> 11) * 0x1p-53;
    }
    __builtin_cpu_init();
    int has512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    struct { const char *name; batch_fn f; int need512; } k[] = {
        {"proto/batch-avx512", proto_expm_avx512, 1},
        {"proto/batch-avx2", proto_expm_avx2, 0},
        {"proto/scalar", loop_proto_scalar, 0},
        {"facct_int128 (scalar, batch)", loop_int128, 0},
        {"facct_avx2 (binary64 FMA Horner, scalar, batch)", loop_dbl, 0},
        {"falcon_x86_batch/batch-avx512 (project, current)", proj_avx512, 1},
        {"falcon_x86_batch/batch-avx2 (project, current)", proj_avx2, 0},
    };
    enum { K = sizeof k / sizeof k[0] };
    double *tk[K];
    for (int i = 0; i < K; i++) tk[i] = malloc(sizeof(double) * rounds);
    for (int w = 0; w < 50; w++) for (int i = 0; i < K; i++) if (!k[i].need512 || has512) k[i].f(o, x, c, N);
    for (int r = 0; r < rounds; r++)
        for (int q = 0; q < K; q++) {
            int i = (q + r) % K;
            if (k[i].need512 && !has512) { tk[i][r] = 0; continue; }
            uint64_t t0 = tsc();
            k[i].f(o, x, c, N);
            uint64_t t1 = tsc();
            tk[i][r] = (double)(t1 - t0) / N;
        }
    double tpc = calibrate();
    double med[K];
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256], model[256] = "?"; int fam = -1, mod = -1;
    while (f && fgets(line, sizeof line, f)) {
        if (!strncmp(line, "model name", 10) && model[0] == '?') { char *p = strchr(line, ':'); if (p) { strcpy(model, p + 2); model[strcspn(model, "\n")] = 0; } }
        else if (!strncmp(line, "cpu family", 10) && fam < 0) sscanf(strchr(line, ':') + 1, "%d", &fam);
        else if (!strncmp(line, "model\t", 6) && mod < 0) sscanf(strchr(line, ':') + 1, "%d", &mod);
    }
    if (f) fclose(f);
    printf("CPU: %s (family %d, model %d); %d rounds x %d elements; TSC ticks per core cycle (imul chain) %.3f\n",
           model, fam, mod, rounds, N, tpc);
    printf("%-52s %14s %14s\n", "kernel", "ticks/elem", "~cycles/elem");
    for (int i = 0; i < K; i++) {
        double *tmp = malloc(sizeof(double) * rounds);
        memcpy(tmp, tk[i], sizeof(double) * rounds);
        med[i] = median(tmp, rounds);
        free(tmp);
        printf("%-52s %14.3f %14.3f\n", k[i].name, med[i], med[i] / tpc);
    }
    /* per-round ratio medians (each round times all kernels back to back) */
    const int A512 = 0, A2 = 1, INT = 3, DBL = 4;
    double *rr = malloc(sizeof(double) * rounds);
    struct { int a, b; const char *what; double target; } rq[] = {
        {A512, DBL, "avx512 / facct_avx2   (target <= 0.5)", 0.5},
        {A512, INT, "avx512 / facct_int128 (target <= 0.2)", 0.2},
        {A2, DBL, "avx2   / facct_avx2   (target <= 1.0)", 1.0},
        {A2, INT, "avx2   / facct_int128 (target <= 0.4)", 0.4},
        {5, A512, "project avx512 / proto avx512", 0},
        {6, A2, "project avx2 / proto avx2", 0},
    };
    printf("per-round ratio medians:\n");
    for (size_t q = 0; q < sizeof rq / sizeof rq[0]; q++) {
        if ((k[rq[q].a].need512 || k[rq[q].b].need512) && !has512) continue;
        for (int r = 0; r < rounds; r++) rr[r] = tk[rq[q].a][r] / tk[rq[q].b][r];
        double m = median(rr, rounds);
        printf("  %-40s %.3f %s\n", rq[q].what, m, rq[q].target > 0 ? (m <= rq[q].target ? "MET" : "missed") : "");
    }
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * batch_check.c -- compares the batch forms of a kernel with its scalar
 * adaptors bit for bit (tests/test_batch.py builds and runs it).
 *
 * Build with -DKNAME=<name> -DKHEADER='"<name>/<name>.h"' and the kernel
 * folder's parent on the include path; optionally -DREF_HEADER / -DREF_NAME name an
 * independently rendered scalar kernel the scalar adaptor must equal too
 * (falcon_x86 for falcon_x86_batch: the same config without batch).
 *
 *   batch_check full N SEED
 *       every array path this CPU has (scalar, avx2, avx512 when rendered),
 *       called directly: N random inputs in arrays, every pair of edge
 *       inputs, n = 0..67 at every offset 0..7 of x, ccs and out (unaligned
 *       pointers; the element after the last must stay untouched), and the
 *       register entries _x8/_x4 against _domain on in-domain inputs.
 *   batch_check dispatch N SEED
 *       the array entry as dispatched (prints its path's name first).
 *
 * Prints "paths ..." and "checked N" lines, a "mismatch" line for each of
 * the first four differences of each check, and exits 1 on any difference.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include KHEADER
#if defined(REF_HEADER)
#include REF_HEADER
#endif

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define K(s) CAT(KNAME, s)
#define R(s) CAT(REF_NAME, s)

typedef void (*array_fn)(uint64_t *, const double *, const double *, size_t);

static uint64_t rng_state;
static long mismatches, printed;

/* SplitMix64: the inputs only have to cover the cases, not resist anyone. */
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double unit(void)
{
    return (double)(rnd() >> 11) * 0x1p-53;
}

static double from_bits(uint64_t b)
{
    double v;
    memcpy(&v, &b, sizeof v);
    return v;
}

/* One random input pair: x uniform on [0, ln 2), log-uniform down to
 * 2^-1100 (subnormals included), or any bit pattern; ccs uniform on
 * [0, 1.25), log-uniform down to 2^-1100, or any bit pattern. */
static void random_pair(double *x, double *c)
{
    uint64_t k = rnd() % 8;
    if (k < 4) {
        *x = unit() * 0.6931471805599453;
    } else if (k < 7) {
        *x = ldexp(1.0 + unit(), -(int)(rnd() % 1100));
    } else {
        *x = from_bits(rnd());
    }
    k = rnd() % 8;
    if (k < 4) {
        *c = unit() * 1.25;
    } else if (k < 7) {
        *c = ldexp(1.0 + unit(), -(int)(rnd() % 1100));
    } else {
        *c = from_bits(rnd());
    }
}

static const double EDGES[] = {
    0.0, -0.0, 0x1p-1074, 0x1p-1022, 0x1.fffffffffffffp-1023, 0x1p-901, 0x1p-900, 0x1.fffffffffffffp-901,
    0x1p-899, 0x1p-65, 0x1p-64, 0x1.fffffffffffffp-65, 0x1p-63, 0x1p-12, 0x1p-11, 0x1.fffffffffffffp-12,
    0.5, 0x1.62e42fefa39efp-1, 0x1.62e42fefa39eep-1, 0x1.62e42fefa39f0p-1, 0x1.62e42fefa39f1p-1,
    0.75, 0x1.fffffffffffffp-1, 1.0, 0x1.0000000000001p+0, 2.0, 1e300, INFINITY, -INFINITY, NAN, -NAN,
    -1.0, -0x1p-1074, -0.5, 0.61, 0.999999, 0x1p+63, 0x1p+64,
};
#define N_EDGES (sizeof EDGES / sizeof EDGES[0])

static void report(const char *what, size_t i, double x, double c, uint64_t got, uint64_t want)
{
    mismatches++;
    if (printed++ < 4) {
        printf("mismatch %s i=%zu x=%a ccs=%a got=%016llx want=%016llx\n", what, i, x, c,
               (unsigned long long)got, (unsigned long long)want);
    }
}

/* out[0..n) from fn against the scalar adaptor (and the reference kernel). */
static void compare(const char *what, array_fn fn, const double *x, const double *c, size_t n, uint64_t *out)
{
    size_t i;
    fn(out, x, c, n);
    for (i = 0; i < n; i++) {
        uint64_t want = K(_fpr_expm_p63_native)(x[i], c[i]);
#if defined(REF_HEADER)
        if (want != R(_fpr_expm_p63_native)(x[i], c[i])) {
            report("scalar-vs-reference", i, x[i], c[i], want, R(_fpr_expm_p63_native)(x[i], c[i]));
        }
#endif
        if (out[i] != want) {
            report(what, i, x[i], c[i], out[i], want);
        }
    }
}

static void check_path(const char *what, array_fn fn, size_t count)
{
    enum { CHUNK = 4096 };
    static double x[CHUNK + 8], c[CHUNK + 8];
    static uint64_t out[CHUNK + 8];
    size_t done = 0, i, j, n, ox, oc, oo;
    printed = 0;
    while (done < count) {
        size_t m = count - done < CHUNK ? count - done : CHUNK;
        for (i = 0; i < m; i++) {
            random_pair(&x[i], &c[i]);
        }
        compare(what, fn, x, c, m, out);
        done += m;
    }
    /* Every pair of edge inputs, in one array. */
    n = 0;
    for (i = 0; i < N_EDGES; i++) {
        for (j = 0; j < N_EDGES; j++) {
            x[n] = EDGES[i];
            c[n] = EDGES[j];
            n++;
        }
    }
    compare(what, fn, x, c, n, out);
    /* Tails and unaligned pointers: n = 0..67 at offsets 0..7 of each
     * array; out[n] holds a canary that must survive. */
    for (n = 0; n <= 67; n++) {
        for (ox = 0; ox < 8; ox++) {
            oc = (ox * 3) % 8;
            oo = (ox * 5) % 8;
            for (i = 0; i < n; i++) {
                random_pair(&x[ox + i], &c[oc + i]);
            }
            out[oo + n] = 0xC0FFEEC0FFEEC0FFull;
            compare(what, fn, x + ox, c + oc, n, out + oo);
            if (out[oo + n] != 0xC0FFEEC0FFEEC0FFull) {
                report("canary", n, 0.0, 0.0, out[oo + n], 0xC0FFEEC0FFEEC0FFull);
            }
        }
    }
    printf("checked %s %zu\n", what, count + N_EDGES * N_EDGES);
}

/* A domain input pair: x in [0, ln 2), ccs in [0, 1), by the same mix. */
static void domain_pair(double *x, double *c)
{
    do {
        random_pair(x, c);
    } while (!(*x >= 0.0 && *x <= 0x1.62e42fefa39efp-1 && *c >= 0.0 && *c < 1.0));
}

#if defined(KNAME_HAS_X8)
__attribute__((target("avx512f,avx512dq"))) static void check_x8(size_t count)
{
    size_t i, l;
    double x[8], c[8];
    uint64_t out[8];
    printed = 0;
    for (i = 0; i < count; i += 8) {
        for (l = 0; l < 8; l++) {
            domain_pair(&x[l], &c[l]);
        }
        _mm512_storeu_si512((void *)out, K(_expm_p63_x8)(_mm512_loadu_pd(x), _mm512_loadu_pd(c)));
        for (l = 0; l < 8; l++) {
            if (out[l] != K(_fpr_expm_p63_domain)(x[l], c[l])) {
                report("x8-vs-domain", l, x[l], c[l], out[l], K(_fpr_expm_p63_domain)(x[l], c[l]));
            }
        }
    }
    printf("checked x8 %zu\n", count);
}
#endif

#if defined(KNAME_HAS_X4)
__attribute__((target("avx2,fma"))) static void check_x4(size_t count)
{
    size_t i, l;
    double x[4], c[4];
    uint64_t out[4];
    printed = 0;
    for (i = 0; i < count; i += 4) {
        for (l = 0; l < 4; l++) {
            domain_pair(&x[l], &c[l]);
        }
        _mm256_storeu_si256((__m256i *)(void *)out, K(_expm_p63_x4)(_mm256_loadu_pd(x), _mm256_loadu_pd(c)));
        for (l = 0; l < 4; l++) {
            if (out[l] != K(_fpr_expm_p63_domain)(x[l], c[l])) {
                report("x4-vs-domain", l, x[l], c[l], out[l], K(_fpr_expm_p63_domain)(x[l], c[l]));
            }
        }
    }
    printf("checked x4 %zu\n", count);
}
#endif

int main(int argc, char **argv)
{
    size_t count;
    if (argc != 4 || (strcmp(argv[1], "full") != 0 && strcmp(argv[1], "dispatch") != 0)) {
        fprintf(stderr, "usage: batch_check full|dispatch N SEED\n");
        return 2;
    }
    count = (size_t)strtoull(argv[2], NULL, 10);
    rng_state = strtoull(argv[3], NULL, 10);
    if (strcmp(argv[1], "dispatch") == 0) {
        printf("path %s\n", K(_batch_isa)());
        check_path("dispatch", K(_fpr_expm_p63_batch), count);
    } else {
        printf("paths scalar");
#if defined(KNAME_HAS_X4)
        printf("%s", __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? " avx2" : "");
#endif
#if defined(KNAME_HAS_X8)
        printf("%s", __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") ? " avx512" : "");
#endif
        printf("\n");
        check_path("scalar", K(_fpr_expm_p63_batch_scalar), count / 10);
#if defined(KNAME_HAS_X4)
        if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
            check_path("avx2", K(_fpr_expm_p63_batch_avx2), count);
            check_x4(count / 10);
        }
#endif
#if defined(KNAME_HAS_X8)
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
            check_path("avx512", K(_fpr_expm_p63_batch_avx512), count);
            check_x8(count / 10);
        }
#endif
    }
    printf("mismatches %ld\n", mismatches);
    return mismatches != 0;
}

/* SPDX-License-Identifier: MIT */
/* acc.c -- accuracy of the prototype against MPFR (256 bits) and bit identity
 * of the scalar, AVX-512 and AVX2 forms.
 *   ./acc N SEED            N random inputs per distribution + edge inputs
 * Controls (compile-time, each must make this program FAIL):
 *   -DCONTROL_LANE   the AVX2 result of lane 2 in every 4th vector is altered by 1
 *   -DCONTROL_SPLIT  the scalar form drops e3 (the exact Fast2Sum error): error >> 1
 *   -DCONTROL_NOFLUSH  tiny x is not flushed: the no-subnormal invariant must fail
 *   -DCONTROL_SCAN   the constant-time scan form compares j with 9..12 instead of
 *                    8..11 in its last row (a wrong table entry for j >= 8): the
 *                    constant-time scalar identity check must fail
 * Exit status 0 only if every error is < 1 unit and all forms agree bit for bit. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <mpfr.h>
#ifdef CONTROL_NOFLUSH
#define PROTO_XMIN_BITS 0LL   /* no flush of tiny x: subnormal x reaches the FPU */
#endif
#ifdef CONTROL_SPLIT
#define PROTO_CONTROL_DROP_E3 1   /* proto.h's scalar form then drops e3 */
#endif
#ifdef CONTROL_SCAN
#define PROTO_CONTROL_SCAN_ROW2 1   /* proto.h's scan form then picks wrong entries */
#endif
#include "proto.h"
#include "refs.h"

static uint64_t rng_s[2];
static uint64_t rng(void) {   /* xorshift128+ */
    uint64_t a = rng_s[0], b = rng_s[1];
    rng_s[0] = b; a ^= a << 23; a ^= a >> 17; a ^= b ^ (b >> 26); rng_s[1] = a;
    return a + b;
}
static double unif(void) { return (double)(rng() >> 11) * 0x1p-53; }            /* [0,1) */
static double logu(double lo2, double hi2) { return exp2(lo2 + (hi2 - lo2) * unif()); }
static double bits2d(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }

typedef struct { double maxerr; double xw, cw; uint64_t n; } stat_t;
static mpfr_t ex, tmp, res;

/* |out - ccs exp(-x) 2^63| in units, exact in 256-bit arithmetic. */
static double err_of(uint64_t out, double x, double ccs) {
    mpfr_set_d(tmp, x, MPFR_RNDN);
    mpfr_neg(tmp, tmp, MPFR_RNDN);
    mpfr_exp(ex, tmp, MPFR_RNDN);
    mpfr_mul_d(ex, ex, ccs, MPFR_RNDN);
    mpfr_mul_2si(ex, ex, 63, MPFR_RNDN);
    mpfr_set_uj(res, out, MPFR_RNDN);
    mpfr_sub(res, res, ex, MPFR_RNDN);
    return fabs(mpfr_get_d(res, MPFR_RNDN));
}

#define BLK 4096
static double bx[BLK], bc[BLK];
static uint64_t o_s[BLK], o_512[BLK], o_2[BLK];
static long mismatches;
/* The constant-time scalar forms (perm, scan, and zmm where AVX-512F runs)
 * against the memory-table scalar form, on every input. */
static long ct_mismatches;
static void check_ct(const char *form, double x, double c, uint64_t want, uint64_t got) {
    if (got == want) return;
    if (ct_mismatches++ < 5)
        fprintf(stderr, "CT MISMATCH %s x=%a ccs=%a scalar=%016llx %s=%016llx\n", form, x, c,
                (unsigned long long)want, form, (unsigned long long)got);
}
__attribute__((target("avx512f,avx2,fma"))) static uint64_t ct_zmm(double x, double c) { return proto_expm_scalar_zmm(x, c); }
__attribute__((target("avx512f,avx512vl,avx2,fma"))) static uint64_t ct_ymm(double x, double c) { return proto_expm_scalar_ymm(x, c); }
__attribute__((target("avx2,fma"))) static void check_ct_all(double x, double c, uint64_t want) {
    check_ct("perm", x, c, want, proto_expm_scalar_perm(x, c));
    check_ct("scan", x, c, want, proto_expm_scalar_scan(x, c));
}
static uint64_t out_hash = 0xcbf29ce484222325ull;   /* FNV-1a over every output: compares builds/compilers */
static int have512, have512vl;

/* The claims the error analysis rests on, checked on every input by a second
 * (instrumented) evaluation of the same steps; its output must equal the kernel's. */
static long inv_viol;
static mpfr_t ia, ib;
static int exact_sub(double a, double b, double r) {   /* r == a - b exactly? */
    mpfr_set_d(ia, a, MPFR_RNDN); mpfr_sub_d(ia, ia, b, MPFR_RNDN);
    return mpfr_cmp_d(ia, r) == 0;
}
static int exact_fms(double a, double b, double c, double r) {   /* r == c - a*b exactly? */
    mpfr_set_d(ia, a, MPFR_RNDN); mpfr_mul_d(ia, ia, b, MPFR_RNDN);
    mpfr_set_d(ib, c, MPFR_RNDN); mpfr_sub(ib, ib, ia, MPFR_RNDN);
    return mpfr_cmp_d(ib, r) == 0;
}
static void viol(const char *what, double x, double c) {
    if (inv_viol++ < 5) fprintf(stderr, "INVARIANT %s fails at x=%a ccs=%a\n", what, x, c);
}
#define NSUB(v) do { if (fpclassify(v) == FP_SUBNORMAL) viol("no subnormal: " #v, x0, c0); } while (0)
__attribute__((target("fma"))) static uint64_t checked(double x0, double c0) {
    double x = x0, ccs = c0;
    if ((int64_t)proto_bits(x) < PROTO_XMIN_BITS) x = 0.0;
    double W = ((int64_t)proto_bits(ccs) < PROTO_CMIN_BITS) ? 0.0 : ccs * PROTO_TWO63;
    NSUB(x); NSUB(W);
    double m = __builtin_fma(x, 16.0, PROTO_MAGIC52), jd = m - PROTO_MAGIC52;
    double t = __builtin_fma(-jd, 0.0625, x);
    if (!exact_fms(jd, 0.0625, x, t)) viol("t exact", x0, c0);
    if (fabs(t) > 0x1p-5) viol("|t| <= 1/32", x0, c0);
    unsigned j = (unsigned)(proto_bits(m) & 15u);
    if (j != (unsigned)jd || j > 11) viol("j", x0, c0);
    double Eh = TAB_EH[j], El = TAB_EL[j];
    double s1 = __builtin_fma(W, Eh, PROTO_C64), z1 = s1 - PROTO_C64, e1 = __builtin_fma(W, Eh, -z1);
    double s2 = __builtin_fma(-z1, t, s1), y = s1 - s2, e2 = __builtin_fma(-z1, t, y);
    double th = 0.5 * t;
    double s3 = __builtin_fma(y, th, s2), d3 = s2 - s3, e3 = __builtin_fma(y, th, d3);
    if (!exact_sub(s1, PROTO_C64, z1) || !exact_sub(s1, s2, y) || !exact_sub(s2, s3, d3)) viol("Sterbenz steps exact", x0, c0);
    if (!(s1 >= 0x1p64 && s1 < 0x1p65 && s2 >= 0x1p64 && s2 < 0x1p65 && s3 >= 0x1p64 && s3 < 0x1p65)) viol("s in [2^64,2^65)", x0, c0);
    if (fabs(e1) > 0x1p11 || fabs(e2) > 0x1p11 || fabs(e3) > 0x1p11) viol("|e| bounds", x0, c0);
    double r = R3C[5];
    NSUB(r);
    for (int k = 4; k >= 0; k--) { r = __builtin_fma(r, t, R3C[k]); NSUB(r); }
    double tr = t * r, e2p = tr + 0.5;
    double g = __builtin_fma(-t, e2p, 1.0), em = __builtin_fma(-t, g, 1.0);
    double L = __builtin_fma(W, El, e1);
    double sm1 = __builtin_fma(e2, g, e3);
    double sm2 = __builtin_fma(L, em, sm1);
    double yt = y * t;
    double sm = __builtin_fma(yt, tr, sm2);
    if (fabs(sm) >= 0x1p46) viol("|small| < 2^46", x0, c0);
    NSUB(m); NSUB(jd); NSUB(t); NSUB(s1); NSUB(z1); NSUB(e1); NSUB(s2); NSUB(y); NSUB(e2); NSUB(th);
    NSUB(s3); NSUB(d3); NSUB(e3); NSUB(tr); NSUB(e2p); NSUB(g); NSUB(em); NSUB(L); NSUB(sm1); NSUB(sm2); NSUB(yt); NSUB(sm);
    double mi = sm + PROTO_MAGIC52;
    NSUB(mi);
    return (proto_bits(s3) << 12) + proto_bits(mi) - PROTO_KOFF;
}

static void run_block(size_t n, stat_t *st, stat_t *st_int, stat_t *st_dbl) {
    for (size_t i = 0; i < n; i++) o_s[i] = proto_expm_scalar(bx[i], bc[i]);
    for (size_t i = 0; i < n; i++)
        if (checked(bx[i], bc[i]) != o_s[i]) viol("instrumented copy == kernel", bx[i], bc[i]);
    for (size_t i = 0; i < n; i++) {
        check_ct_all(bx[i], bc[i], o_s[i]);
        if (have512) check_ct("zmm", bx[i], bc[i], o_s[i], ct_zmm(bx[i], bc[i]));
        if (have512vl) check_ct("ymm", bx[i], bc[i], o_s[i], ct_ymm(bx[i], bc[i]));
    }
    if (have512) proto_expm_avx512(o_512, bx, bc, n); else memcpy(o_512, o_s, n * 8);
    proto_expm_avx2(o_2, bx, bc, n);
#ifdef CONTROL_LANE
    for (size_t i = 2; i < n; i += 16) o_2[i] ^= 1;
#endif
    for (size_t i = 0; i < n; i++) {
        if (o_s[i] != o_512[i] || o_s[i] != o_2[i]) {
            if (mismatches < 5)
                fprintf(stderr, "MISMATCH x=%a ccs=%a scalar=%016llx avx512=%016llx avx2=%016llx\n", bx[i], bc[i],
                        (unsigned long long)o_s[i], (unsigned long long)o_512[i], (unsigned long long)o_2[i]);
            mismatches++;
        }
        for (int b = 0; b < 8; b++) { out_hash ^= (o_s[i] >> (8 * b)) & 0xFF; out_hash *= 0x100000001b3ull; }
        double e = err_of(o_s[i], bx[i], bc[i]);
        if (e > st->maxerr) { st->maxerr = e; st->xw = bx[i]; st->cw = bc[i]; }
        st->n++;
        if (st_int) {
            /* references only where their domain holds: ccs < 1 for the integer one */
            if (bc[i] < 1.0) { e = err_of(facct_int128(bx[i], bc[i]), bx[i], bc[i]); st_int->n++; if (e > st_int->maxerr) { st_int->maxerr = e; st_int->xw = bx[i]; st_int->cw = bc[i]; } }
            e = err_of(facct_dbl_fma(bx[i], bc[i]), bx[i], bc[i]); st_dbl->n++; if (e > st_dbl->maxerr) { st_dbl->maxerr = e; st_dbl->xw = bx[i]; st_dbl->cw = bc[i]; }
        }
    }
}

static void report(const char *name, const stat_t *st) {
    printf("  %-40s n=%-9llu max|err| = %.6f units (2^%.2f)  at x=%a ccs=%a\n", name,
           (unsigned long long)st->n, st->maxerr, st->maxerr > 0 ? log2(st->maxerr) : -INFINITY, st->xw, st->cw);
}

int main(int argc, char **argv) {
    long N = argc > 1 ? atol(argv[1]) : 2500000;
    uint64_t seed = argc > 2 ? strtoull(argv[2], 0, 0) : 1;
    rng_s[0] = seed * 0x9E3779B97F4A7C15ull + 1; rng_s[1] = seed ^ 0xD1B54A32D192ED03ull;
    for (int i = 0; i < 20; i++) rng();
    mpfr_inits2(256, ex, tmp, res, ia, ib, (mpfr_ptr)0);
    __builtin_cpu_init();
    have512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    have512vl = have512 && __builtin_cpu_supports("avx512vl");
    if (!have512) printf("note: no AVX-512F/DQ on this CPU: AVX-512 form not checked\n");
    const double LN2 = 0x1.62e42fefa39efp-1;   /* the double just below ln 2 */
    const char *names[5] = {"x U[0,ln2), ccs U[0.5,1)", "x logU[2^-80,2^-8], ccs U[0.5,1)",
                            "x U[0,ln2), ccs logU[2^-30,1)", "x logU[2^-80,2^-8], ccs logU[2^-30,1)",
                            "x U[0,ln2), ccs logU[2^-70,2^-30) (N/4)"};
    stat_t all = {0}, refi = {0}, refd = {0};
    long total = 0;
    for (int d = 0; d < 5; d++) {
        stat_t st = {0}, si = {0}, sd = {0};
        long Nd = d == 4 ? N / 4 : N;
        total += Nd;
        for (long done = 0; done < Nd; done += BLK) {
            size_t n = (size_t)((Nd - done) < BLK ? (Nd - done) : BLK);
            for (size_t i = 0; i < n; i++) {
                double x = (d & 1) ? logu(-80, -8) : unif() * LN2;
                if (!(d & 1) && x >= LN2) x = LN2;
                double c = d == 4 ? logu(-70, -30) : (d & 2) ? logu(-30, 0) : 0.5 + 0.5 * unif();
                if (c > 1.0) c = 1.0;
                bx[i] = x; bc[i] = c;
            }
            run_block(n, &st, d == 0 ? &si : NULL, &sd);
        }
        report(names[d], &st);
        if (d == 0) { report("  (facct_int128 on the same inputs)", &si); report("  (facct binary64 Horner FMA, same)", &sd); refi = si; refd = sd; }
        if (st.maxerr > all.maxerr) all = st;
    }
    /* edge inputs: cross product of special x and ccs values */
    double xs[400]; int nx = 0;
    double cs[200]; int nc = 0;
    xs[nx++] = 0.0; xs[nx++] = -0.0; xs[nx++] = 0x1p-1074; xs[nx++] = 0x1p-1022; xs[nx++] = bits2d(0x000FFFFFFFFFFFFFull);
    xs[nx++] = 0x1p-80; xs[nx++] = nextafter(0x1p-80, 0); xs[nx++] = nextafter(0x1p-80, 1);
    for (int k = 1; k <= 100; k++) xs[nx++] = ldexp(1.0, -k);
    for (int k = 1; k <= 60; k++) xs[nx++] = nextafter(ldexp(1.0, -k), 0);
    for (int j = 1; j <= 22; j++) {           /* segment ends (j+0.5)/16 = j/32 for odd j, and j/16 */
        double b = j / 32.0;
        xs[nx++] = b; xs[nx++] = nextafter(b, 0); xs[nx++] = nextafter(b, 1);
    }
    xs[nx++] = LN2; xs[nx++] = nextafter(LN2, 0); xs[nx++] = nextafter(LN2, 1); xs[nx++] = LN2 + 2e-15;
    xs[nx++] = nextafter(23.0 / 32, 0); xs[nx++] = 0.5; xs[nx++] = 0x1.fffffffffffffp-6;
    cs[nc++] = 1.0; cs[nc++] = nextafter(1.0, 0); cs[nc++] = 0.5; cs[nc++] = nextafter(0.5, 0); cs[nc++] = nextafter(0.5, 1);
    cs[nc++] = 0.0; cs[nc++] = -0.0; cs[nc++] = 0x1p-1074; cs[nc++] = 0x1p-1022;
    cs[nc++] = 0x1p-64; cs[nc++] = nextafter(0x1p-64, 0); cs[nc++] = nextafter(0x1p-64, 1);
    for (int k = 1; k <= 64; k++) { cs[nc++] = ldexp(1.0, -k); cs[nc++] = nextafter(ldexp(1.0, -k), 1); }
    cs[nc++] = 0.61; cs[nc++] = 0.99999; cs[nc++] = 0x1.fffffffffffffp-31;
    stat_t se = {0};
    size_t n = 0;
    for (int a = 0; a < nx; a++)
        for (int b = 0; b < nc; b++) {
            bx[n] = xs[a]; bc[n] = cs[b];
            if (++n == BLK) { run_block(n, &se, NULL, NULL); n = 0; }
        }
    if (n) run_block(n, &se, NULL, NULL);
    /* also every tail length 0..67 at unaligned offsets */
    for (size_t len = 0; len <= 67; len++)
        for (size_t off = 0; off < 3; off++) {
            for (size_t i = 0; i < len; i++) { bx[i] = unif() * LN2; bc[i] = 0.5 + 0.5 * unif(); }
            static double ux[80], uc[80]; static uint64_t u5[80], u2[80];
            memcpy(ux + off, bx, len * 8); memcpy(uc + off, bc, len * 8);
            for (size_t i = 0; i < 80; i++) u5[i] = u2[i] = 0xA5A5A5A5A5A5A5A5ull;
            if (have512) proto_expm_avx512(u5 + off, ux + off, uc + off, len);
            proto_expm_avx2(u2 + off, ux + off, uc + off, len);
            for (size_t i = 0; i < 80; i++) {
                int inside = i >= off && i < off + len;
                uint64_t want = inside ? proto_expm_scalar(ux[i], uc[i]) : 0xA5A5A5A5A5A5A5A5ull;
                if ((have512 && u5[i] != want) || u2[i] != want) { mismatches++; if (mismatches < 5) fprintf(stderr, "TAIL MISMATCH len %zu off %zu i %zu\n", len, off, i); }
            }
        }
    report("edge inputs (cross product)", &se);
    if (se.maxerr > all.maxerr) all = se;
    printf("  total inputs checked: %llu (+ tails n=0..67 x 3 offsets)\n",
           (unsigned long long)((unsigned long long)total + se.n));
    printf("INVARIANTS (exact steps exact, s in [2^64,2^65), |e1|,|e2|,|e3| <= 2^11, |small| < 2^46,\n"
           "            no subnormal intermediate): %s (%ld violations)\n", inv_viol ? "VIOLATED" : "all hold", inv_viol);
    printf("MAX ERROR over all sets: %.6f units of 2^-63 (2^%.3f)\n", all.maxerr, log2(all.maxerr));
    printf("BIT IDENTITY scalar == avx512 == avx2: %s (%ld mismatches)\n", mismatches ? "NO" : "yes", mismatches);
    printf("BIT IDENTITY scalar == constant-time scalar perm == scan%s%s: %s (%ld mismatches)\n",
           have512 ? " == zmm" : " (zmm not checked: no AVX-512F)", have512vl ? " == ymm" : " (ymm not checked: no AVX-512VL)",
           ct_mismatches ? "NO" : "yes", ct_mismatches);
    printf("OUTPUT HASH (FNV-1a of all outputs, N=%ld seed=%llu): %016llx\n", N, (unsigned long long)seed, (unsigned long long)out_hash);
    (void)refi; (void)refd;
    int ok = all.maxerr < 1.0 && mismatches == 0 && ct_mismatches == 0 && inv_viol == 0;
    printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}

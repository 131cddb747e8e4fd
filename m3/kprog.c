/* SPDX-License-Identifier: MIT */
/*
 * kprog.c -- the one test program of the M3 harness, generic over the
 * kernel.  It is compiled once per kernel and per mode; the Python driver
 * (m3/build.py) passes:
 *
 *   -DM3_KERNEL=<name>      the kernel's C prefix (ABI of docs/abi.md)
 *   -DM3_HEADER="<file>"    the kernel's header, <name>.h (with the Falcon
 *                           adaptors for 64-bit kernels)
 *   -DM3_WORD_BITS=64|32    from the kernel's sidecar JSON
 *   -DM3_FIXED_POINT=0|1    the sidecar's "fixed_point": 0 for a kernel with
 *                           the Falcon adaptors only (form mcu), whose
 *                           vector lines print "-" for eval and expm
 *   -DM3_REF_HEADER="<h>", -DM3_REF_EXPM=<f>, -DM3_REF_FPR=<g>
 *                           instead of the three above: measure a
 *                           hand-written reference of runtime/ (facct_ref.c,
 *                           the "facct_portable" row; facct_m4.c, the
 *                           "facct_m4" row), its polynomial f(z, w) and its
 *                           fpr_expm_p63 g(x_bits, ccs_bits)
 *   -DM3_MODE_VEC           print the outputs for the vector set, one line
 *                           per input, for the M3-versus-host comparison
 *   -DM3_MODE_BENCH         (M3 only) time N and 2N calls of each entry
 *                           point with SysTick; also run under a trace
 *   -DM3_NRAND=<n>          number of pseudo-random inputs after the
 *                           vectors of vectors.h (a file the driver writes
 *                           from facct_vectors.tsv)
 *
 * Entry points are called through non-inlined wrappers (m3_eval, m3_expm,
 * m3_fpr, m3_fpr_domain) so that each kernel has one symbol the scan and
 * the trace can find; facct_portable's functions are already out of line
 * and are used as they are.  Each wrapper is `flatten`: what it calls from
 * the kernel's header is inlined into it, as at the single call site of a
 * Falcon build.  Without it gcc keeps one out-of-line copy of the core for
 * this program's four wrappers, and each measured call would pay a call
 * and the register saves around it, which no vendored build pays.
 */
#include <stdint.h>
#include "m3io.h"

#if defined(M3_REF_HEADER)
#include M3_REF_HEADER
#define M3_WORD_BITS 64
#define M3_FN_EXPM M3_REF_EXPM
#define M3_FN_FPR M3_REF_FPR
#else
/* The Falcon header's native-float and domain adaptors read a double's bits
 * with memcpy; -ffreestanding makes that a call to a memcpy this program
 * does not link, so it is the compiler's built-in (an 8-byte copy, inlined)
 * here.  <string.h> comes first so that its declaration is not renamed. */
#include <string.h>
#define memcpy __builtin_memcpy
#include M3_HEADER
#ifndef M3_FIXED_POINT
#define M3_FIXED_POINT 1
#endif
#define M3_CAT2(a, b) a##b
#define M3_CAT(a, b) M3_CAT2(a, b)
#define M3_K(suffix) M3_CAT(M3_KERNEL, suffix)

#if M3_WORD_BITS == 64
#if M3_FIXED_POINT
__attribute__((noinline, used, flatten)) uint64_t m3_eval(uint64_t z);
__attribute__((noinline, used, flatten)) uint64_t m3_expm(uint64_t z, uint64_t w);
uint64_t m3_eval(uint64_t z) { return M3_K(_eval)(z); }
uint64_t m3_expm(uint64_t z, uint64_t w) { return M3_K(_expm_p63)(z, w); }
#define M3_FN_EVAL m3_eval
#define M3_FN_EXPM m3_expm
#endif
__attribute__((noinline, used, flatten)) uint64_t m3_fpr(uint64_t x_bits, uint64_t ccs_bits);
uint64_t m3_fpr(uint64_t x_bits, uint64_t ccs_bits)
{
    return M3_K(_fpr_expm_p63)(x_bits, ccs_bits);
}
/* The Falcon-domain adaptor for emulated-float builds (Falcon's own
 * contract, no edge rules), on the same bits. */
__attribute__((noinline, used, flatten)) uint64_t m3_fpr_domain(uint64_t x_bits, uint64_t ccs_bits);
uint64_t m3_fpr_domain(uint64_t x_bits, uint64_t ccs_bits)
{
    return M3_K(_fpr_expm_p63_domain_bits)(x_bits, ccs_bits);
}
#define M3_FN_DOMAIN m3_fpr_domain
#define M3_FN_FPR m3_fpr
#elif M3_WORD_BITS == 32
__attribute__((noinline, used, flatten)) uint32_t m3_eval32(uint32_t z);
uint32_t m3_eval32(uint32_t z) { return M3_K(_eval)(z); }
#define M3_FN_EVAL32 m3_eval32
#else
#error "M3_WORD_BITS must be 32 or 64"
#endif
#endif

/* xorshift64 (Marsaglia): a fixed seed, so both builds and every run see the
 * same sequence; quality is irrelevant, coverage of the bit patterns is. */
static uint64_t m3_rng = 0x9E3779B97F4A7C15u;
static __attribute__((unused)) uint64_t m3_next(void)
{
    m3_rng ^= m3_rng << 13;
    m3_rng ^= m3_rng >> 7;
    m3_rng ^= m3_rng << 17;
    return m3_rng;
}

/* Random inputs inside the kernels' domain, with integer operations only
 * (the M3 has no FPU and this program must not depend on soft-float):
 *   z in Q0.64 below (1/2 + 1/8 + 1/16) * 2^64 < ln 2 * 2^64;
 *   w in Q0.64 in [1/2, 1), like ccs;
 *   x_bits: a double in [2^-32, ln 2): exponent 990..1022, and for the
 *     exponent 1022 (x in [1/2, 1)) a significand below 0.375 * 2^52 so that
 *     x < 0.6875 < ln 2;
 *   ccs_bits: a double in [1/2, 1).
 * "unused": a 32-bit kernel's vector mode needs only m3_rand_z. */
#define M3_GEN static __attribute__((unused)) uint64_t
M3_GEN m3_rand_z(uint64_t r) { return (r >> 1) + (r >> 3) + (r >> 4); }
M3_GEN m3_rand_w(uint64_t r) { return r | ((uint64_t)1 << 63); }
M3_GEN m3_rand_x(uint64_t r)
{
    uint64_t e = 1022u - (r >> 59);   /* 1022 - (0..31) */
    uint64_t m = r & (((uint64_t)1 << 52) - 1);
    if (e == 1022u) {
        m = (m >> 2) + (m >> 3);
    }
    return (e << 52) | m;
}
M3_GEN m3_rand_ccs(uint64_t r)
{
    return ((uint64_t)1022u << 52) | (r & (((uint64_t)1 << 52) - 1));
}

#if defined(M3_MODE_VEC)
#include "vectors.h"

#if M3_WORD_BITS == 64
/* One line per input: eval, expm_p63, fpr_expm_p63 and (generated kernels)
 * fpr_expm_p63_domain outputs in hex ("-" where the build has no eval). */
static void m3_line(uint64_t z, uint64_t w, uint64_t x, uint64_t c)
{
#if defined(M3_FN_EVAL)
    io_hex64(M3_FN_EVAL(z));
#else
    (void)z;
    io_puts("-");
#endif
    io_puts(" ");
#if defined(M3_FN_EXPM)
    io_hex64(M3_FN_EXPM(z, w));
#else
    (void)w;
    io_puts("-");
#endif
    io_puts(" ");
    io_hex64(M3_FN_FPR(x, c));
#if defined(M3_FN_DOMAIN)
    io_puts(" ");
    io_hex64(M3_FN_DOMAIN(x, c));
#endif
    io_puts("\n");
}
#endif

int main(void)
{
    uint32_t i;
    for (i = 0; i < M3_NVEC; i++) {
#if M3_WORD_BITS == 64
        m3_line(m3_vec_z[i], m3_vec_w[i], m3_vec_x[i], m3_vec_c[i]);
#else
        /* A 32-bit kernel takes the top half of the Q0.64 input. */
        io_hex32(M3_FN_EVAL32((uint32_t)(m3_vec_z[i] >> 32)));
        io_puts("\n");
#endif
    }
    /* M3_NRAND is 0 for the error-distribution run (m3/errdist.py). */
#if M3_NRAND > 0
    for (i = 0; i < M3_NRAND; i++) {
        uint64_t r1 = m3_next(), r2 = m3_next(), r3 = m3_next(), r4 = m3_next();
#if M3_WORD_BITS == 64
        m3_line(m3_rand_z(r1), m3_rand_w(r2), m3_rand_x(r3), m3_rand_ccs(r4));
#else
        /* r2..r4 are drawn anyway so that the z sequence is the one the
         * 64-bit kernels see. */
        (void)r2; (void)r3; (void)r4;
        io_hex32(M3_FN_EVAL32((uint32_t)(m3_rand_z(r1) >> 32)));
        io_puts("\n");
#endif
    }
#endif
    io_puts("end ");
    io_dec(M3_NVEC + M3_NRAND);
    io_puts("\n");
    return 0;
}

#elif defined(M3_MODE_BENCH)
/* SysTick registers (ARMv7-M architecture reference manual, B3.3). */
#define M3_SYST_CSR (*(volatile uint32_t *)0xE000E010u)
#define M3_SYST_RVR (*(volatile uint32_t *)0xE000E014u)
#define M3_SYST_CVR (*(volatile uint32_t *)0xE000E018u)
#define M3_SYST_MASK 0xFFFFFFu   /* SysTick is a 24-bit down-counter */

#ifndef M3_BENCH_N
#define M3_BENCH_N 1000
#endif
#define M3_NIN 256u   /* inputs cycled through by the timing loops */

/* Hand-written in known.S. */
uint32_t m3_null(uint32_t a);
uint32_t m3_known(uint32_t a);

static uint64_t m3_in_z[M3_NIN], m3_in_w[M3_NIN], m3_in_x[M3_NIN], m3_in_c[M3_NIN];

typedef uint32_t (*m3_fn32)(uint32_t);

/* The timing loops.  Each takes the function as a pointer, so the loop's own
 * code is the same whatever it calls; the driver subtracts the loop with
 * m3_null (whose body is one instruction) to cancel the per-call overhead,
 * and compares N with 2N calls to cancel the fixed overhead.  noinline: one
 * copy of each loop, shared by every function measured. */
#if M3_WORD_BITS == 64
typedef uint64_t (*m3_fn2)(uint64_t, uint64_t);
typedef uint64_t (*m3_fn1)(uint64_t);

__attribute__((noinline)) static uint64_t m3_loop2(m3_fn2 f, const uint64_t *a,
                                                   const uint64_t *b, uint32_t n)
{
    uint64_t acc = 0;
    uint32_t i;
    for (i = 0; i < n; i++) {
        acc += f(a[i % M3_NIN], b[i % M3_NIN]);
    }
    return acc;
}

__attribute__((noinline)) static uint64_t m3_loop1(m3_fn1 f, const uint64_t *a, uint32_t n)
{
    uint64_t acc = 0;
    uint32_t i;
    for (i = 0; i < n; i++) {
        acc += f(a[i % M3_NIN]);
    }
    return acc;
}
#endif

__attribute__((noinline)) static uint32_t m3_loop32(m3_fn32 f, const uint64_t *a, uint32_t n)
{
    uint32_t acc = 0;
    uint32_t i;
    for (i = 0; i < n; i++) {
        acc += f((uint32_t)(a[i % M3_NIN] >> 32));
    }
    return acc;
}

/* Print "sys <label> <calls> <ticks>": SysTick ticks elapsed over the loop.
 * The counter counts down and wraps modulo 2^24; the driver keeps every
 * measured span far below 2^24 ticks. */
static uint64_t m3_sink;
static void m3_report(const char *label, uint32_t n, uint32_t t0, uint32_t t1)
{
    io_puts("sys ");
    io_puts(label);
    io_puts(" ");
    io_dec(n);
    io_puts(" ");
    io_dec((t0 - t1) & M3_SYST_MASK);
    io_puts("\n");
}

#define M3_TIME(label, call)                          \
    do {                                              \
        uint32_t n_, t0_, t1_;                        \
        for (n_ = M3_BENCH_N; n_ <= 2u * M3_BENCH_N; n_ += M3_BENCH_N) { \
            t0_ = M3_SYST_CVR;                        \
            m3_sink += (call);                        \
            t1_ = M3_SYST_CVR;                        \
            m3_report(label, n_, t0_, t1_);           \
        }                                             \
    } while (0)

int main(void)
{
    uint32_t i;
    for (i = 0; i < M3_NIN; i++) {
        m3_in_z[i] = m3_rand_z(m3_next());
        m3_in_w[i] = m3_rand_w(m3_next());
        m3_in_x[i] = m3_rand_x(m3_next());
        m3_in_c[i] = m3_rand_ccs(m3_next());
    }
    /* Free-running SysTick on the processor clock (CLKSOURCE=1, ENABLE=1,
     * TICKINT=0: no interrupt). */
    M3_SYST_RVR = M3_SYST_MASK;
    M3_SYST_CVR = 0;
    M3_SYST_CSR = 5u;

    /* The baselines and the known-length check, for every loop shape. */
    M3_TIME("null32", m3_loop32(m3_null, m3_in_z, n_));
    M3_TIME("known32", m3_loop32(m3_known, m3_in_z, n_));
#if M3_WORD_BITS == 64
    M3_TIME("null2", m3_loop2((m3_fn2)(void (*)(void))m3_null, m3_in_z, m3_in_w, n_));
    M3_TIME("null1", m3_loop1((m3_fn1)(void (*)(void))m3_null, m3_in_z, n_));
#if defined(M3_FN_EVAL)
    M3_TIME("eval", m3_loop1(M3_FN_EVAL, m3_in_z, n_));
#endif
#if defined(M3_FN_EXPM)
    M3_TIME("expm", m3_loop2(M3_FN_EXPM, m3_in_z, m3_in_w, n_));
#endif
    M3_TIME("fpr", m3_loop2(M3_FN_FPR, m3_in_x, m3_in_c, n_));
#if defined(M3_FN_DOMAIN)
    M3_TIME("domain", m3_loop2(M3_FN_DOMAIN, m3_in_x, m3_in_c, n_));
#endif
#else
    M3_TIME("eval32", m3_loop32(M3_FN_EVAL32, m3_in_z, n_));
#endif
    io_puts("sink ");
    io_hex64(m3_sink);
    io_puts("\n");
    return 0;
}
#else
#error "define M3_MODE_VEC or M3_MODE_BENCH"
#endif

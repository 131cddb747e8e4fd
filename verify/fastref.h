/* SPDX-License-Identifier: MIT */
/*
 * fastref.h -- a fast, high-precision reference for f(x) = exp(-x).
 *
 * The checker compares every kernel output with the exact value of f.  MPFR
 * gives that value but costs microseconds per input; the checker needs
 * about 10^7 inputs per second per core.  exp(-x) has a shortcut: split the
 * fixed-point input into chunks, x = sum_k c_k * 2^(-e_k), so that
 * exp(-x) = prod_k exp(-c_k * 2^(-e_k)), and read the factors from tables
 * computed once, with MPFR, at start-up.
 *
 * Formats:
 *  - "Q1.127": a 128-bit unsigned word v standing for v / 2^127.  Every
 *    factor lies in (0, 1], and 1 = 2^127 still fits.
 *  - "Q1.63": a 64-bit word v standing for v / 2^63.
 *  - "Q2.126": a 128-bit word v standing for v / 2^126 (the exact product of
 *    two Q1.63 words).
 *
 * 64-bit inputs (z = x * 2^64): chunks of 11, 11 and 10 bits (tables of
 * 2048, 2048 and 1024 Q1.127 words, 80 KB: they stay in the L2 cache), and
 * the low 32 bits d, for which exp(-d 2^-64) = 1 - D + D^2/2 - D^3/6 with
 * D = d 2^-64 < 2^-32 (the next term is below 2^-129).
 * 32-bit inputs (z = x * 2^32): two 16-bit chunks, tables of Q1.63 words,
 * multiplied exactly.
 *
 * Accuracy (absolute, x in [0, 1)):
 *  - fastref_exp_q127: three table factors, each within 2^-128 (plus under
 *    2^-239 from the 256-bit MPFR work of fastref.c) of the truth; the
 *    series within 3.1 * 2^-127 (three truncations and the dropped term);
 *    three truncating products, each adding at most 2^-127.  All factors
 *    are <= 1, so the errors add up to at most (1.5 + 3.1 + 3) * 2^-127
 *    < 8 * 2^-127 = 2^-124, i.e. 2^-61 units of 2^-63: far below the 2^-66
 *    needed to measure 64-bit kernels to 0.01 units.
 *  - fastref_exp_q126: two Q1.63 factors, each within 2^-64 (+ 2^-239), one
 *    exact product: at most 2^-63 + 2^-128 -- plenty for 32-bit kernels,
 *    whose units are 2^-31 or so.
 * tests/test_checker.py compares both with MPFR on many inputs, and the
 * checker repeats a short comparison before every run.
 *
 * These functions are not constant-time and need not be: they only run in
 * the checker, on public inputs.
 */
#ifndef VERIFY_FASTREF_H
#define VERIFY_FASTREF_H

#include <stdint.h>

__extension__ typedef unsigned __int128 u128;

/* Tables, filled by fastref_init (Q1.127 and Q1.63 as above):
 *   fastref_ta[c] = exp(-c 2^-11),  fastref_tb[c] = exp(-c 2^-22),
 *   fastref_tc[c] = exp(-c 2^-32),
 *   fastref_t16[c] = exp(-c 2^-16), fastref_t32[c] = exp(-c 2^-32). */
extern u128 fastref_ta[2048], fastref_tb[2048], fastref_tc[1024];
extern uint64_t fastref_t16[65536], fastref_t32[65536];

/* Computes the tables with MPFR, using up to `threads` threads.  With
 * `corrupt` non-zero, the last table of each path is perturbed on purpose
 * (a control that the reference self-test must catch).  Returns 0, or -1
 * with a message on stderr. */
int fastref_init(int threads, int corrupt);

/* floor(a * b / 2^127) for Q1.127 words a, b <= 2^127: the Q1.127 product,
 * truncated.  Exact 256-bit intermediate. */
static inline u128 fastref_mul_q127(u128 a, u128 b)
{
    uint64_t a0 = (uint64_t)a, a1 = (uint64_t)(a >> 64);
    uint64_t b0 = (uint64_t)b, b1 = (uint64_t)(b >> 64);
    u128 p00 = (u128)a0 * b0, p01 = (u128)a0 * b1;
    u128 p10 = (u128)a1 * b0, p11 = (u128)a1 * b1;
    /* mid < 3 * 2^64: the carry into the high half, no overflow. */
    u128 mid = (p00 >> 64) + (uint64_t)p01 + (uint64_t)p10;
    u128 hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
    /* The product is a*b = hi * 2^128 + (mid mod 2^64) * 2^64 + (p00 mod
     * 2^64); bit 127 of the low half is bit 63 of mid. */
    return (hi << 1) | (u128)(((uint64_t)mid) >> 63);
}

/* exp(-d / 2^64) as Q1.127 for d < 2^32, from the series
 * 2^127 (1 - D + D^2/2 - D^3/6), D = d 2^-64:
 *   D 2^127       = d 2^63                 (exact),
 *   D^2/2 2^127   = d^2 / 4                (truncated: error < 1),
 *   D^3/6 2^127   = d^3 / (6 2^65)         (floor(d^2 / 2^32) d / 2^33 / 6,
 *                                           truncated: error < 2),
 * and D^4/24 2^127 < 1/48 dropped: error < 3.1 units of 2^-127. */
static inline u128 fastref_exp_low32(uint32_t d)
{
    u128 d2 = (u128)d * d;
    uint64_t d3 = (uint64_t)((((d2 >> 32)) * d) >> 33) / 6u;
    return ((u128)1 << 127) - ((u128)d << 63) + (d2 >> 2) - d3;
}

/* exp(-z / 2^64) as Q1.127, for any 64-bit z. */
static inline u128 fastref_exp_q127(uint64_t z)
{
    u128 v = fastref_mul_q127(fastref_ta[z >> 53],
                              fastref_tb[(z >> 42) & 0x7FF]);
    u128 w = fastref_mul_q127(fastref_tc[(z >> 32) & 0x3FF],
                              fastref_exp_low32((uint32_t)z));
    return fastref_mul_q127(v, w);
}

/* exp(-z / 2^32) as Q2.126, for any 32-bit z: one exact 64x64 product. */
static inline u128 fastref_exp_q126(uint32_t z)
{
    return (u128)fastref_t16[z >> 16] * fastref_t32[z & 0xFFFF];
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * calibrate.c -- the per-row rounding bias of table.h (bias.txt on stdout).
 *
 * Built against the table without bias (-DM3ST_TABLE_FILE, gen_table.py
 * with no argument).  For each of the 89 rows it draws PER inputs of its
 * own (x uniform in the segment, ccs uniform in [1/2, 1), seed 777: not the
 * inputs acc.c measures on), fits the error e = alpha + beta T (units of
 * 2^-63, MPFR 256-bit reference) by least squares and prints the integer
 * offsets that cancel it: -alpha / 1.5 for a0 (one unit of a0, 2^-62,
 * moves the result by 2 ccs, 1.5 on average) and beta 64 / 0.75 for a1
 * (one unit, 2^-69, moves it by -T ccs / 64).  Line 1: a0's offsets,
 * line 2: a1's.
 *
 * Usage: calibrate PER
 */
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>

#include "proto.h"
#include "rng.h"

int main(int argc, char **argv)
{
    if (argc != 2 || atol(argv[1]) < 2) { fprintf(stderr, "usage: calibrate PER (at least 2)\n"); return 2; }
    long per = atol(argv[1]);
    rng_state = 777;
    long b0[M3ST_ROWS], b1[M3ST_ROWS];
    mpfr_t ref, tmp;
    mpfr_init2(ref, 256);
    mpfr_init2(tmp, 256);
    for (int j = 0; j < M3ST_ROWS; j++) {
        double n = 0, st = 0, stt = 0, se = 0, set = 0;
        for (long i = 0; i < per; i++) {
            double x = ((double)j + unit()) / 128.0, c = 0.5 + 0.5 * unit();
            if (x >= 0.6931471805599453) x = 0.6931471805599452;
            uint64_t out = m3st_expm_p63_domain_bits(bits(x), bits(c));
            mpfr_set_d(ref, -x, MPFR_RNDN);
            mpfr_exp(ref, ref, MPFR_RNDN);
            mpfr_mul_d(ref, ref, c, MPFR_RNDN);
            mpfr_mul_2ui(ref, ref, 63, MPFR_RNDN);
            mpfr_set_uj(tmp, out, MPFR_RNDN);
            mpfr_sub(tmp, tmp, ref, MPFR_RNDN);
            double e = mpfr_get_d(tmp, MPFR_RNDN), t = x * 128.0 - j;
            n += 1; st += t; stt += t * t; se += e; set += e * t;
        }
        double beta = (n * set - st * se) / (n * stt - st * st), alpha = (se - beta * st) / n;
        b0[j] = lround(-alpha / 1.5);
        b1[j] = lround(beta * 64.0 / 0.75);
    }
    for (int j = 0; j < M3ST_ROWS; j++) printf("%ld%c", b0[j], j + 1 < M3ST_ROWS ? ' ' : '\n');
    for (int j = 0; j < M3ST_ROWS; j++) printf("%ld%c", b1[j], j + 1 < M3ST_ROWS ? ' ' : '\n');
    mpfr_clears(ref, tmp, (mpfr_ptr)0);
    return 0;
}

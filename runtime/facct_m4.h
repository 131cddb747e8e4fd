/* SPDX-License-Identifier: MIT */
/*
 * facct_m4.h -- a hand-written copy of the FACCT reference as its Cortex-M4
 * build computes fpr_expm_p63: the emulated-float input conversion of the
 * portable build (integer operations on the IEEE-754 bits), then the
 * 13-term Horner unrolled, each 64x64->high-64 product as UMULL, UMULL,
 * UMAAL, UMAAL.  Written from ../shared/anchors/FACCT.md, not generated: it
 * is the Cortex-M4 speed baseline (the "facct_m4" row of `make m4`) and it
 * returns the same bits as facct_ref.c (runtime/facct_ref.h).
 */
#ifndef FACCT_M4_H
#define FACCT_M4_H

#include <stdint.h>

/* The polynomial part: y = C[0]; y = C[i] - hi(z, y) for i = 1..12; then
 * hi(w, y), with z = floor(x * 2^64) and w = floor(ccs * 2^64) (Q0.64) and
 * hi(a, b) = floor(a b / 2^64). */
uint64_t facct_m4_poly(uint64_t z, uint64_t w);

/* fpr_expm_p63(x, ccs) of the reference's M4 build, from the IEEE-754 bits
 * of x and ccs (Falcon's own contract: 0 <= x < ln 2, 0 <= ccs < 1). */
uint64_t facct_m4_expm_p63(uint64_t x_bits, uint64_t ccs_bits);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * facct_ref.h -- a hand-written copy of the FACCT reference code path that
 * every Falcon implementation uses for fpr_expm_p63 on CPUs without an FPU:
 * emulated-float input conversion (integer operations on the IEEE-754 bits)
 * and a 13-term Horner whose 64x64->high-64 products are built from 32-bit
 * limbs.  Written from ../shared/anchors/FACCT.md, not generated: it is the
 * independent check of the rendered `facct` kernel and the speed baseline.
 */
#ifndef FACCT_REF_H
#define FACCT_REF_H

#include <stdint.h>

/* The specification's ApproxExp constants: unsigned Q63, highest degree
 * first (facct_ref_c[0] multiplies x^12).  Shared with the benchmark's
 * other reference variants, which differ only in how they multiply. */
extern const uint64_t facct_ref_c[13];

/* trunc(v * 2^63) for the double whose bits are v_bits, computed as the
 * emulated-float reference does.  Only meaningful for 0 <= v < 1; for
 * v == 1.0 the true value 2^63 does not fit a signed 64-bit integer and the
 * reference's truncation yields 0, which this reproduces. */
uint64_t facct_ref_trunc_2p63(uint64_t v_bits);

/* The polynomial part: y = C[0]; y = C[i] - hi(z, y) for i = 1..12; then
 * hi(w, y).  z = floor(x * 2^64) and w = floor(ccs * 2^64) as Q0.64. */
uint64_t facct_ref_poly(uint64_t z, uint64_t w);

/* fpr_expm_p63(x, ccs) of the emulated-float reference, from the IEEE-754
 * bits of x and ccs. */
uint64_t facct_ref_expm_p63(uint64_t x_bits, uint64_t ccs_bits);

#endif

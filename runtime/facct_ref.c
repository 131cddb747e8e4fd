/* SPDX-License-Identifier: MIT */
/*
 * facct_ref.c -- see facct_ref.h.  Every product below is a 32x32->64
 * multiply, as in the portable reference; do not replace it by a 128-bit
 * product, since this file is the baseline the kernels are timed against.
 */
#include "facct_ref.h"

/* The specification's ApproxExp table: unsigned Q63 constants, highest
 * degree first (C[0] multiplies x^12). */
const uint64_t facct_ref_c[13] = {
    0x00000004741183A3u, 0x00000036548CFC06u, 0x0000024FDCBF140Au,
    0x0000171D939DE045u, 0x0000D00CF58F6F84u, 0x000680681CF796E3u,
    0x002D82D8305B0FEAu, 0x011111110E066FD0u, 0x0555555555070F00u,
    0x155555555581FF00u, 0x400000000002B400u, 0x7FFFFFFFFFFF4800u,
    0x8000000000000000u,
};

/* floor(a * b / 2^64) from four 32-bit-limb products. */
static uint64_t facct_ref_mulhi(uint64_t a, uint64_t b)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t lo = (uint64_t)a0 * b0;
    uint64_t m1 = (uint64_t)a0 * b1;
    uint64_t m2 = (uint64_t)a1 * b0;
    uint64_t hi = (uint64_t)a1 * b1;
    uint64_t mid = (lo >> 32) + (uint32_t)m1 + (uint32_t)m2;
    return hi + (m1 >> 32) + (m2 >> 32) + (mid >> 32);
}

uint64_t facct_ref_trunc_2p63(uint64_t v_bits)
{
    /* Write |v| = m * 2^(e - 1023 - 62) with m the significand, implicit
     * bit included, aligned so that its top bit is bit 62 of a 63-bit field
     * (bit 63 is the sign of the int64 result).  The multiplication by 2^63
     * adds 63 to the exponent, so trunc(|v| * 2^63) = m >> (1022 - e).  As
     * in the reference, the shift amount is taken modulo 64 and the result
     * is kept only if (1022 - e) < 64 as a signed number, all without a
     * branch.  For |v| >= 1 the shift amount is negative, becomes a shift
     * by 63 or more, and the result is 0: that is why the reference returns
     * 0 for ccs == 1.0. */
    uint32_t e = (uint32_t)(v_bits >> 52) & 0x7FF;
    uint64_t m = ((v_bits << 10) | ((uint64_t)1 << 62)) & (((uint64_t)1 << 63) - 1);
    uint32_t cc = 1022u - e;
    uint64_t t = m >> (cc & 63);
    uint64_t keep = (uint64_t)0 - (uint64_t)((cc - 64u) >> 31);
    uint64_t neg = v_bits >> 63;
    t &= keep;
    /* Negative inputs give the two's complement of the magnitude. */
    return (t ^ ((uint64_t)0 - neg)) + neg;
}

uint64_t facct_ref_poly(uint64_t z, uint64_t w)
{
    uint64_t y = facct_ref_c[0];
    int i;
    for (i = 1; i < 13; i++) {
        y = facct_ref_c[i] - facct_ref_mulhi(z, y);
    }
    return facct_ref_mulhi(w, y);
}

uint64_t facct_ref_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    uint64_t z = facct_ref_trunc_2p63(x_bits) << 1;
    uint64_t w = facct_ref_trunc_2p63(ccs_bits) << 1;
    return facct_ref_poly(z, w);
}

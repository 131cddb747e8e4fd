/* SPDX-License-Identifier: MIT */
/*
 * facct_m4.c -- see facct_m4.h.
 *
 * Constant time: on a Cortex-M4, UMULL and UMAAL take one cycle whatever
 * their operands (ARM Cortex-M4 Technical Reference Manual, r0p1, Table 3-1,
 * "Cortex-M4 instruction set summary": UMULL, UMLAL, UMAAL, SMULL, SMLAL
 * 1 cycle), so the products below are constant-time there.  They are NOT on
 * a Cortex-M3, whose UMULL/UMLAL terminate early on small operands.  The
 * conversions use shifts, masks and additions only; nothing branches.
 */
#include "facct_m4.h"

/* The specification's ApproxExp table: unsigned Q63 constants, C[0] is the
 * coefficient applied first (x^12) and C[12] = 2^63 the last. */
#define FACCT_M4_C0  UINT64_C(0x00000004741183A3)
#define FACCT_M4_C1  UINT64_C(0x00000036548CFC06)
#define FACCT_M4_C2  UINT64_C(0x0000024FDCBF140A)
#define FACCT_M4_C3  UINT64_C(0x0000171D939DE045)
#define FACCT_M4_C4  UINT64_C(0x0000D00CF58F6F84)
#define FACCT_M4_C5  UINT64_C(0x000680681CF796E3)
#define FACCT_M4_C6  UINT64_C(0x002D82D8305B0FEA)
#define FACCT_M4_C7  UINT64_C(0x011111110E066FD0)
#define FACCT_M4_C8  UINT64_C(0x0555555555070F00)
#define FACCT_M4_C9  UINT64_C(0x155555555581FF00)
#define FACCT_M4_C10 UINT64_C(0x400000000002B400)
#define FACCT_M4_C11 UINT64_C(0x7FFFFFFFFFFF4800)
#define FACCT_M4_C12 UINT64_C(0x8000000000000000)

/*
 * floor(a * b / 2^64).  With a = a1 2^32 + a0 and b = b1 2^32 + b0:
 *   UMULL  l0, l1 = a0 b0              (words 0 and 1 of the product)
 *   UMULL  h0, h1 = a0 b1              (at weight 2^32)
 *   UMAAL  l1, h0 = a1 b0 + l1 + h0    (word 1 final; h0 carries to word 2)
 *   UMAAL  h0, h1 = a1 b1 + h0 + h1    (words 2 and 3 final)
 * UMAAL computes a 32x32 product plus two 32-bit addends, which is at most
 * (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1, so nothing is lost: h1:h0 is the
 * exact high word.  Elsewhere (the host build of the comparison) the same
 * value from four 32x32->64 products.
 */
static inline uint64_t facct_m4_mulhi(uint64_t a, uint64_t b)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
#if defined(__ARM_ARCH_7EM__)
    uint32_t l0, l1, h0, h1;
    __asm__("umull %0, %1, %4, %6\n\t"
            "umull %2, %3, %4, %7\n\t"
            "umaal %1, %2, %5, %6\n\t"
            "umaal %2, %3, %5, %7"
            : "=&r"(l0), "=&r"(l1), "=&r"(h0), "=&r"(h1)
            : "r"(a0), "r"(a1), "r"(b0), "r"(b1));
    (void)l0;
    (void)l1;
    return ((uint64_t)h1 << 32) | h0;
#else
    uint64_t p00 = (uint64_t)a0 * b0, p01 = (uint64_t)a0 * b1;
    uint64_t p10 = (uint64_t)a1 * b0, p11 = (uint64_t)a1 * b1;
    uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

/*
 * 2 trunc(v * 2^63) for the double with bits v_bits, as the emulated-float
 * reference converts (see facct_ref_trunc_2p63 in facct_ref.c): the
 * significand m, implicit bit at bit 62, shifted right by 1022 - e; the
 * count is taken modulo 64 and the result kept only when it is below 64,
 * so v >= 1 gives 0 (the reference's result for ccs == 1.0).  Negative
 * inputs are outside Falcon's contract; they give the two's complement as
 * in the reference.
 */
static inline uint64_t facct_m4_to_q64(uint64_t v_bits)
{
    uint32_t e = (uint32_t)(v_bits >> 52) & 0x7FF;
    uint64_t m = ((v_bits << 10) | ((uint64_t)1 << 62)) & (((uint64_t)1 << 63) - 1);
    uint32_t cc = 1022u - e;
    uint64_t t = m >> (cc & 63);
    uint64_t keep = (uint64_t)0 - (uint64_t)((cc - 64u) >> 31);
    uint64_t neg = v_bits >> 63;
    t &= keep;
    return ((t ^ ((uint64_t)0 - neg)) + neg) << 1;
}

/* The Horner loop of the reference, unrolled as its M4 build has it. */
static inline uint64_t facct_m4_horner(uint64_t z, uint64_t w)
{
    uint64_t y = FACCT_M4_C0;
    y = FACCT_M4_C1 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C2 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C3 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C4 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C5 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C6 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C7 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C8 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C9 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C10 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C11 - facct_m4_mulhi(z, y);
    y = FACCT_M4_C12 - facct_m4_mulhi(z, y);
    return facct_m4_mulhi(w, y);
}

uint64_t facct_m4_poly(uint64_t z, uint64_t w)
{
    return facct_m4_horner(z, w);
}

uint64_t facct_m4_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    return facct_m4_horner(facct_m4_to_q64(x_bits), facct_m4_to_q64(ccs_bits));
}

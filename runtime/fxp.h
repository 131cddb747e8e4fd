/* SPDX-License-Identifier: MIT OR CC0-1.0 */
/*
 * fxp.h -- fixed-point helpers shared by every generated kernel.
 *
 * The generator puts the part of this file a kernel uses into that kernel's
 * header, with every fxp_ name renamed <name>_fxp_ (gen/render/runtime.py),
 * so that a vendored kernel needs nothing but the C standard headers and
 * two kernels in one program never share or shadow a helper.
 *
 * Formats: every helper works on unsigned words.  "Q0.64" means a word v
 * that stands for the real number v / 2^64; a product of a Q0.64 value and
 * an integer keeps the integer's scale.
 *
 * Constant-time assumptions (stated once here, relied on by every kernel):
 *  - A 64x64->128 multiply takes a time independent of its operands on
 *    x86-64 (MUL/MULX on every current core) and on AArch64 (UMULH).
 *  - The portable path builds the same product from four 32x32->64
 *    products.  On CPUs whose 32x32->64 multiply exits early on small
 *    operands (ARM Cortex-M3 UMULL), that path is NOT constant-time.
 *  - On ARMv7-M (Cortex-M3) every product is therefore built from
 *    16x16->32 products with the single-cycle MUL instead (FXP_MUL16,
 *    below): no UMULL/SMULL/UMLAL/SMLAL is emitted.
 *  - Shifts by a constant amount and additions are constant-time everywhere.
 */
#ifndef FXP_H
#define FXP_H

#include <stdint.h>

/*
 * Multiplier strategy on the Arm Cortex-M3 (ARMv7-M).
 *
 * The Cortex-M3's long multiplies (UMULL/SMULL: 3 to 5 cycles, UMLAL/SMLAL:
 * 4 to 7) stop early when the upper bits of an operand are zero, so their
 * time depends on the data (Cortex-M3 TRM, ARM DDI 0337, instruction
 * timing).  Its MUL (32x32->32, low word only) takes 1 cycle and MLA 2
 * cycles whatever the operands.  When FXP_MUL16 is defined, every product
 * in this file is therefore built from 16x16->32 products computed with
 * MUL: a product of two numbers below 2^16 is below 2^32, so the low word
 * MUL returns is the whole, exact product.  The partial products are
 * summed with additions (ADDS/ADC), which are constant-time.  The only
 * other multiplies are 32x32->32 products whose low word is all we need
 * (the cross terms of a 64-bit product modulo 2^64): also MUL/MLA.
 * Result: no UMULL, SMULL, UMLAL or SMLAL in any helper, and every helper
 * returns exactly the same bits as the __int128 and 32-bit-limb paths.
 *
 * FXP_MUL16 is selected automatically for ARMv7-M targets (__ARM_ARCH_7M__,
 * e.g. -mcpu=cortex-m3); define FXP_ALLOW_UMULL to keep the faster but
 * data-dependent UMULL path there.  Defining FXP_MUL16 by hand selects the
 * 16-bit path on any target (the tests build it on x86-64 to compare it
 * with unsigned __int128).  ARMv7E-M cores (Cortex-M4/M7) are not
 * selected: their UMULL has a fixed latency.
 */
#if !defined(FXP_MUL16) && defined(__ARM_ARCH_7M__) && !defined(FXP_ALLOW_UMULL)
#define FXP_MUL16 1
#endif

/* The 16-bit-limb helpers are always defined (a kernel configured with
 * multiplier = "mul16" uses them on any target); FXP_MUL16 only decides
 * whether the default helpers below go through them. */
/*
 * x * y exactly, for 32-bit x and y, from four 16x16->32 products.  With
 * x = x1 2^16 + x0 and y = y1 2^16 + y0 (all four halves < 2^16):
 *   x y = p11 2^32 + (p01 + p10) 2^16 + p00,  pij = xi yj < 2^32.
 * The halves are uint32_t values below 2^16 and the products are taken in
 * uint32_t, so the compiler has no 64-bit multiply to rebuild into UMULL.
 * The two cross terms are added one at a time to the 64-bit word
 * p11 2^32 + p00; each addition is exact because the running sum never
 * exceeds the final product, which is < 2^64.
 */
static inline uint64_t fxp_mul16_32x32(uint32_t x, uint32_t y)
{
    uint32_t x0 = x & 0xFFFFu, x1 = x >> 16;
    uint32_t y0 = y & 0xFFFFu, y1 = y >> 16;
    uint32_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t r = ((uint64_t)p11 << 32) | p00;
    r += (uint64_t)p01 << 16;
    r += (uint64_t)p10 << 16;
    return r;
}

/*
 * The exact 128-bit product a * b as (hi, lo), from the four 32x32->64
 * products above (16 MULs).  With a = a1 2^32 + a0, b = b1 2^32 + b0 and
 * qij = ai bj < 2^64:
 *   a b = q11 2^64 + (q01 + q10) 2^32 + q00.
 * t = floor(q00 / 2^32) + q01 + (q10 mod 2^32) is at most
 * (2^32 - 1) + (2^32 - 1)^2 + (2^32 - 1) = 2^64 - 1, so it fits a word;
 * then lo = (t mod 2^32) 2^32 + (q00 mod 2^32) and
 * hi = q11 + floor(t / 2^32) + floor(q10 / 2^32), which is < 2^64
 * because the product is < 2^128.
 */
static inline void fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = fxp_mul16_32x32(a0, b0);
    uint64_t q10 = fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}

/* floor(a * b / 2^64), from four 32x32->64 partial products.  Exact: the
 * middle sum below cannot overflow because each term is < 2^64 - 2^33 + 1
 * and we add at most two 32-bit halves to it. */
static inline uint64_t fxp_mulhi64_portable(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* __extension__ keeps -Wpedantic quiet: unsigned __int128 is a GNU type. */
__extension__ typedef unsigned __int128 fxp_u128;
#endif

#if defined(FXP_MUL16)
/* floor(a * b / 2^64) from 16x16->32 products (see fxp_mul16_64x64); the
 * low word is computed but unused, and the compiler drops it. */
static inline uint64_t fxp_mulhi64(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* floor(a * b / 2^64) with the compiler's 128-bit product (one MUL on
 * x86-64).  Bit-identical to fxp_mulhi64_portable. */
static inline uint64_t fxp_mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t fxp_mulhi64(uint64_t a, uint64_t b)
{
    return fxp_mulhi64_portable(a, b);
}
#endif

/* floor(a * b / 2^32) for 32-bit words: one 32x32->64 product, which is a
 * UMULL on ARMv7-M unless FXP_MUL16 builds it from four MULs. */
static inline uint32_t fxp_mulhi32(uint32_t a, uint32_t b)
{
#if defined(FXP_MUL16)
    /* Four MULs instead of one UMULL; exact (fxp_mul16_32x32). */
    return (uint32_t)(fxp_mul16_32x32(a, b) >> 32);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

/*
 * a * b mod 2^64.  A plain 64-bit product in C is, on ARMv7-M, one UMULL
 * (a0 b0) plus MUL/MLA for the cross terms, so the 16-bit path replaces
 * only a0 b0: with a = a1 2^32 + a0 and b = b1 2^32 + b0,
 *   a b mod 2^64 = (a0 b0 + ((a0 b1 + a1 b0) mod 2^32) 2^32) mod 2^64,
 * and the cross terms are needed modulo 2^32 only, which is what the
 * single-cycle 32x32->32 MUL/MLA return.
 */
static inline uint64_t fxp_mullo64(uint64_t a, uint64_t b)
{
#if defined(FXP_MUL16)
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t cross = a0 * b1 + a1 * b0;
    return fxp_mul16_32x32(a0, b0) + ((uint64_t)cross << 32);
#else
    return a * b;
#endif
}

/*
 * Per-kernel product strategies (the `multiplier` config key, docs/config.md):
 * a kernel rendered with multiplier = "umull", "mul16" or "umaal" calls
 * these instead of fxp_mulhi64/fxp_mulhi32, whatever FXP_MUL16 says; "auto" (the default)
 * calls the helpers above; "truncated" kernels carry their own generated
 * limb products (gen/quantize/limbs.py).  All return floor(a b / 2^W) exactly.
 *   _limb32: 32-bit limbs (UMULL on ARMv7-M), or unsigned __int128 where
 *            the compiler has it (one MUL on x86-64);
 *   _mul16:  16-bit limbs, MUL/MLA only (constant-time on a Cortex-M3);
 *   _umaal:  UMULL/UMAAL on ARMv7E-M (constant-time on a Cortex-M4), below;
 *            its 32-bit products are _limb32's (one UMULL).
 */
static inline uint64_t fxp_mulhi64_limb32(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
    return (uint64_t)(((fxp_u128)a * b) >> 64);
#else
    return fxp_mulhi64_portable(a, b);
#endif
}

static inline uint64_t fxp_mulhi64_mul16(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}

static inline uint32_t fxp_mulhi32_limb32(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a * b) >> 32);
}

/*
 * floor(a * b / 2^64) for multiplier = "umaal": the Cortex-M4 (ARMv7E-M)
 * sequence UMULL, UMULL, UMAAL, UMAAL.  With a = a1 2^32 + a0 and
 * b = b1 2^32 + b0 (32-bit halves):
 *   UMULL  l0, l1 = a0 b0              (words 0 and 1 of the product)
 *   UMULL  h0, h1 = a0 b1              (at weight 2^32)
 *   UMAAL  l1, h0 = a1 b0 + l1 + h0    (word 1 final; h0 carries to word 2)
 *   UMAAL  h0, h1 = a1 b1 + h0 + h1    (words 2 and 3 final)
 * UMAAL adds two 32-bit words to a 32x32 product, at most
 * (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1, so nothing overflows and h1:h0
 * is the exact high word (words 0 and 1 are dropped): the same floor as every other strategy (the
 * proof's model of mulhi is exact for it too).  Elsewhere (the host, a
 * Cortex-M3) the same bits from fxp_mulhi64_limb32.
 *
 * Constant time on the Cortex-M4 only: there UMULL, UMLAL, UMAAL, SMULL and
 * SMLAL take one cycle whatever the operands (ARM Cortex-M4 Technical
 * Reference Manual, r0p1, Table 3-1).  Not on a Cortex-M3, which has no
 * UMAAL and whose UMULL/UMLAL terminate early on small operands (there the
 * fallback's UMULLs are data-dependent: use "mul16" or "truncated").
 */
static inline uint64_t fxp_mulhi64_umaal(uint64_t a, uint64_t b)
{
#if defined(__ARM_ARCH_7EM__)
    /* Six registers: word 0 of a0 b0 is dropped into h1 (written again by
     * the second UMULL), and a0, dead after the second UMULL, receives
     * h0; so a0 is an input-output operand and l1, h1 are early-clobber
     * (written before a1, b0, b1 are last read).  a is the operand that
     * changes at every Horner step (b, the segment offset, is reused), so
     * giving up a0's register costs nothing. */
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t l1, h1;
    __asm__("umull %[h1], %[l1], %[a0], %[b0]\n\t"
            "umull %[a0], %[h1], %[a0], %[b1]\n\t"
            "umaal %[l1], %[a0], %[a1], %[b0]\n\t"
            "umaal %[a0], %[h1], %[a1], %[b1]"
            : [a0] "+&r"(a0), [l1] "=&r"(l1), [h1] "=&r"(h1)
            : [a1] "r"(a1), [b0] "r"(b0), [b1] "r"(b1));
    (void)l1;
    return ((uint64_t)h1 << 32) | a0;
#else
    return fxp_mulhi64_limb32(a, b);
#endif
}

/*
 * c - floor(a * b / 2^64) (mod 2^64): a Horner step of a "umaal" kernel,
 * K_j - v y.  The same four multiplies as fxp_mulhi64_umaal, then SUBS/SBC
 * inside the same asm statement: c enters as one 64-bit operand, so gcc
 * loads the table coefficient with one LDRD instead of two LDRs (gcc
 * splits a 64-bit subtraction written in C into 32-bit halves before
 * register allocation, and its Cortex-M4 tuning does not merge the two
 * loads again).  Bit-identical to c - fxp_mulhi64_umaal(a, b), the
 * fallback elsewhere.  Constant time on the Cortex-M4 as above.
 */
static inline uint64_t fxp_submulhi64_umaal(uint64_t c, uint64_t a, uint64_t b)
{
#if defined(__ARM_ARCH_7EM__)
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t l1, h1;
    __asm__("umull %[h1], %[l1], %[a0], %[b0]\n\t"
            "umull %[a0], %[h1], %[a0], %[b1]\n\t"
            "umaal %[l1], %[a0], %[a1], %[b0]\n\t"
            "umaal %[a0], %[h1], %[a1], %[b1]\n\t"
            "subs %[a0], %Q[c], %[a0]\n\t"
            "sbc %[h1], %R[c], %[h1]"
            : [a0] "+&r"(a0), [l1] "=&r"(l1), [h1] "=&r"(h1)
            : [a1] "r"(a1), [b0] "r"(b0), [b1] "r"(b1), [c] "r"(c)
            : "cc");
    (void)l1;
    return ((uint64_t)h1 << 32) | a0;
#else
    return c - fxp_mulhi64_umaal(a, b);
#endif
}

/*
 * y - c 2^r and y + c 2^r (mod 2^64) for a 64-bit word y and a 32-bit
 * column accumulator c of a limb product ("truncated" kernels): the column
 * sums and the Horner step K_j - v y are written as a chain of these
 * (gen/cemit.py), one per column.  The shift is a constant, passed as a
 * literal: fxp_sub64_shl for 1 <= r <= 31, fxp_sub64_shl_hi for
 * 32 <= r <= 63, fxp_sub64_shr(y, c, d) for y - floor(c / 2^d),
 * 1 <= d <= 31, fxp_sub64 for r = 0; the fxp_add64 ones likewise.
 *
 * On Thumb-2 (ARMv7-M and ARMv7E-M) each is SUBS/SBC (ADDS/ADC) whose
 * second operand is c shifted by the constant: two instructions per
 * column.  gcc writes a 64-bit sum of shifted 32-bit words in C as a
 * shift, SUBS and SBC per column, so the asm saves one instruction per
 * column.  The outputs are registers of their own (the low one early-
 * clobber, written before the high inputs are read), not tied to the
 * inputs: tied operands made gcc copy a table word before each chain.
 * Elsewhere the macro is the C expression: the same bits, since both
 * compute modulo 2^64 (tests/test_fxp_columns.py runs both against exact
 * values).  Data-processing instructions take one cycle whatever the
 * operands on these cores: constant time.
 */
#if defined(__GNUC__) && defined(__thumb2__) && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define fxp_col64_asm(y, c, text, r) __extension__({ \
    uint64_t fxp_col_y = (y); \
    uint32_t fxp_col_lo, fxp_col_hi; \
    __asm__(text : "=&r"(fxp_col_lo), "=r"(fxp_col_hi) \
            : "r"((uint32_t)fxp_col_y), "r"((uint32_t)(fxp_col_y >> 32)), "r"((uint32_t)(c)), \
              "i"((r) & 31), "i"((32 - (r)) & 31) : "cc"); \
    ((uint64_t)fxp_col_hi << 32) | fxp_col_lo; })
#define fxp_sub64_shl(y, c, r) fxp_col64_asm(y, c, "subs %0, %2, %4, lsl %5\n\tsbc %1, %3, %4, lsr %6", r)
#define fxp_add64_shl(y, c, r) fxp_col64_asm(y, c, "adds %0, %2, %4, lsl %5\n\tadc %1, %3, %4, lsr %6", r)
#define fxp_sub64_shr(y, c, d) fxp_col64_asm(y, c, "subs %0, %2, %4, lsr %5\n\tsbc %1, %3, #0", d)
#define fxp_add64_shr(y, c, d) fxp_col64_asm(y, c, "adds %0, %2, %4, lsr %5\n\tadc %1, %3, #0", d)
#define fxp_sub64(y, c) fxp_col64_asm(y, c, "subs %0, %2, %4\n\tsbc %1, %3, #0", 0)
#define fxp_add64(y, c) fxp_col64_asm(y, c, "adds %0, %2, %4\n\tadc %1, %3, #0", 0)
#else
#define fxp_sub64_shl(y, c, r) ((uint64_t)(y) - ((uint64_t)(uint32_t)(c) << (r)))
#define fxp_add64_shl(y, c, r) ((uint64_t)(y) + ((uint64_t)(uint32_t)(c) << (r)))
#define fxp_sub64_shr(y, c, d) ((uint64_t)(y) - (uint64_t)((uint32_t)(c) >> (d)))
#define fxp_add64_shr(y, c, d) ((uint64_t)(y) + (uint64_t)((uint32_t)(c) >> (d)))
#define fxp_sub64(y, c) ((uint64_t)(y) - (uint64_t)(uint32_t)(c))
#define fxp_add64(y, c) ((uint64_t)(y) + (uint64_t)(uint32_t)(c))
#endif
/* Only the high word changes: gcc already writes one SUB (ADD) with a
 * shifted operand. */
#define fxp_sub64_shl_hi(y, c, r) ((uint64_t)(y) - ((uint64_t)(uint32_t)(c) << (r)))
#define fxp_add64_shl_hi(y, c, r) ((uint64_t)(y) + ((uint64_t)(uint32_t)(c) << (r)))

static inline uint32_t fxp_mulhi32_mul16(uint32_t a, uint32_t b)
{
    return (uint32_t)(fxp_mul16_32x32(a, b) >> 32);
}

/*
 * round((w / 2^64) * (1 - c / 2^s) * 2^63) for the "one_minus" form, where
 * c = U / 2^s approximates 1 - f and w is Q0.64.  With P = w * c (128
 * bits), the exact value is (w * 2^64 - P / 2^(s-64)) / 2^65, so we form
 * N = w * 2^64 - floor(P / 2^r), r = s - 64 (0 <= r <= 63), in two words
 * and round N / 2^65 to nearest: (N_hi >> 1) + (N_hi & 1).  N_lo = -Q_lo
 * borrows exactly when Q_lo != 0.  N_hi < 2^64 because P >= 0, and
 * N >= 0 because floor(P / 2^r) <= w * 2^64 when c < 2^s.
 */
static inline uint64_t fxp_round_w_one_minus(uint64_t w, uint64_t c, unsigned r)
{
    uint64_t p_hi = fxp_mulhi64(w, c);
    uint64_t p_lo = fxp_mullo64(w, c);
    /* Two-word right shift by r without a shift by 64 when r == 0. */
    uint64_t q_hi = p_hi >> r;
    uint64_t q_lo = (p_lo >> r) | ((p_hi << 1) << (63 - r));
    uint64_t borrow = (q_lo | ((uint64_t)0 - q_lo)) >> 63;
    uint64_t n_hi = w - q_hi - borrow;
    return (n_hi >> 1) + (n_hi & 1);
}

/*
 * Two-word values for the "wide" parts of a scheme: exact 128-bit products
 * and sums that must not truncate.  fxp_wide holds hi * 2^64 + lo.  With
 * unsigned __int128 the helpers go through it (one MUL, ADD/ADC); the
 * portable versions compute the same bits with carries written as
 * arithmetic, never as branches.  Shift counts are compile-time constants
 * in every generated kernel (the choices on r in the portable shifts are
 * on those constants and vanish after inlining).
 */
typedef struct { uint64_t hi, lo; } fxp_wide;

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128) && !defined(FXP_MUL16)
/* With a native 128-bit type every helper is one or two instructions; the
 * struct is only the interface and disappears after inlining. */
static inline fxp_u128 fxp_wide_to_u128(fxp_wide a)
{
    return ((fxp_u128)a.hi << 64) | a.lo;
}

static inline fxp_wide fxp_wide_from_u128(fxp_u128 v)
{
    fxp_wide r = { (uint64_t)(v >> 64), (uint64_t)v };
    return r;
}

static inline fxp_wide fxp_wide_of(uint64_t a)
{
    return fxp_wide_from_u128(a);
}

/* The exact product a * b. */
static inline fxp_wide fxp_wide_mul(uint64_t a, uint64_t b)
{
    return fxp_wide_from_u128((fxp_u128)a * b);
}

static inline fxp_wide fxp_wide_add(fxp_wide a, fxp_wide b)
{
    return fxp_wide_from_u128(fxp_wide_to_u128(a) + fxp_wide_to_u128(b));
}

static inline fxp_wide fxp_wide_sub(fxp_wide a, fxp_wide b)
{
    return fxp_wide_from_u128(fxp_wide_to_u128(a) - fxp_wide_to_u128(b));
}

/* a << r and floor(a / 2^r) for 0 <= r < 128. */
static inline fxp_wide fxp_wide_shl(fxp_wide a, unsigned r)
{
    return fxp_wide_from_u128(fxp_wide_to_u128(a) << r);
}

static inline fxp_wide fxp_wide_shr(fxp_wide a, unsigned r)
{
    return fxp_wide_from_u128(fxp_wide_to_u128(a) >> r);
}
#else
static inline fxp_wide fxp_wide_of(uint64_t a)
{
    fxp_wide r = { 0, a };
    return r;
}

/* The exact product a * b. */
static inline fxp_wide fxp_wide_mul(uint64_t a, uint64_t b)
{
    fxp_wide r;
#if defined(FXP_MUL16)
    fxp_mul16_64x64(a, b, &r.hi, &r.lo);
#else
    r.hi = fxp_mulhi64(a, b);
    r.lo = a * b;
#endif
    return r;
}

static inline fxp_wide fxp_wide_add(fxp_wide a, fxp_wide b)
{
    fxp_wide r;
    r.lo = a.lo + b.lo;
    /* Carry out of the low word, from the top bits of the operands and
     * of the sum (no comparison, so no flag-to-branch risk). */
    r.hi = a.hi + b.hi + (((a.lo & b.lo) | ((a.lo | b.lo) & ~r.lo)) >> 63);
    return r;
}

static inline fxp_wide fxp_wide_sub(fxp_wide a, fxp_wide b)
{
    fxp_wide r;
    r.lo = a.lo - b.lo;
    /* Borrow out of the low word. */
    r.hi = a.hi - b.hi - (((~a.lo & b.lo) | ((~a.lo | b.lo) & r.lo)) >> 63);
    return r;
}

/* a << r for 0 <= r < 128 (bits shifted out are lost).  Only the chosen
 * operand of ?: is evaluated, so no shift by 64 or more happens; r is a
 * constant after inlining, so the choices are not branches at run time. */
static inline fxp_wide fxp_wide_shl(fxp_wide a, unsigned r)
{
    fxp_wide out;
    out.hi = r >= 64 ? a.lo << (r - 64) : r == 0 ? a.hi : (a.hi << r) | (a.lo >> (64 - r));
    out.lo = r >= 64 ? 0 : a.lo << r;
    return out;
}

/* floor(a / 2^r) for 0 <= r < 128 (as fxp_wide_shl). */
static inline fxp_wide fxp_wide_shr(fxp_wide a, unsigned r)
{
    fxp_wide out;
    out.lo = r >= 64 ? a.hi >> (r - 64) : r == 0 ? a.lo : (a.lo >> r) | (a.hi << (64 - r));
    out.hi = r >= 64 ? 0 : a.hi >> r;
    return out;
}
#endif

/* The two-word value hi * 2^64 + lo (a constant of a generated kernel). */
static inline fxp_wide fxp_wide_make(uint64_t hi, uint64_t lo)
{
    fxp_wide r = { hi, lo };
    return r;
}

/* floor(a / 2^q + 1/2) as a word, 1 <= q < 128; the caller guarantees
 * that the result fits 64 bits and that a + 2^(q-1) does not overflow. */
static inline uint64_t fxp_wide_round_shr(fxp_wide a, unsigned q)
{
    fxp_wide half = fxp_wide_shl(fxp_wide_of(1), q - 1);
    return fxp_wide_shr(fxp_wide_add(a, half), q).lo;
}

/*
 * N = w 2^64 - w C_hi - floor(w C_lo / 2^64) for a two-word c (0 <= c < 2^s,
 * c / 2^s < 1/2), l = 128 - s >= 0 and C = c << l (scale 2^128, exact):
 * N / 2^65 is (w / 2^64) * (1 - c / 2^s) * 2^63, exact but for the last
 * floor, which makes N larger by less than 1 (bounded in the proof).
 */
static inline fxp_wide fxp_w_one_minus_wide(uint64_t w, fxp_wide c, unsigned l)
{
    fxp_wide cc = fxp_wide_shl(c, l);
    fxp_wide n = { w, 0 };
    n = fxp_wide_sub(n, fxp_wide_mul(w, cc.hi));
    return fxp_wide_sub(n, fxp_wide_of(fxp_mulhi64(w, cc.lo)));
}

/* round(N / 2^65), ties up, for N < 2^128 - 2^64, as in fxp_round_w_one_minus. */
static inline uint64_t fxp_round_n65(fxp_wide n)
{
    return (n.hi >> 1) + (n.hi & 1);
}

/* round((w / 2^64) * (1 - c / 2^s) * 2^63) for a two-word c; see above. */
static inline uint64_t fxp_round_w_one_minus_wide(uint64_t w, fxp_wide c, unsigned l)
{
    return fxp_round_n65(fxp_w_one_minus_wide(w, c, l));
}

/* floor(a b / 2^64) for a two-word a and a word b: a_hi b + floor(a_lo b / 2^64),
 * the top two words of the three-word product (the caller guarantees that
 * it fits two words). */
static inline fxp_wide fxp_wide_mulhi(fxp_wide a, uint64_t b)
{
    return fxp_wide_add(fxp_wide_mul(a.hi, b), fxp_wide_of(fxp_mulhi64(a.lo, b)));
}

/*
 * round((w / 2^64) * U / 2^k) for a two-word U (the direct form with a wide
 * root, U ~= f 2^s, k = s - 63, 1 <= k <= 65) and w Q0.64: N = w U_hi +
 * floor(w U_lo / 2^64) is w U / 2^64 less a fraction phi in [0, 1), and the
 * result is floor(N / 2^k + 1/2).  N <= U because w < 2^64, and the caller
 * guarantees U + 2^(k-1) < 2^128 (the root's proven range leaves that room),
 * so nothing wraps; the result fits a word because f <= 1.
 */
static inline uint64_t fxp_round_w_wide(uint64_t w, fxp_wide u, unsigned k)
{
    return fxp_wide_round_shr(fxp_wide_mulhi(u, w), k);
}

#endif /* FXP_H */

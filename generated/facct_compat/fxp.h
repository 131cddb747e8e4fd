/*
 * fxp.h -- fixed-point helpers shared by every generated kernel.
 *
 * The generator copies this file, unchanged, into each kernel folder under
 * generated/, so that a vendored kernel folder needs nothing but the C
 * standard headers.  Two kernels vendored into one program include the same
 * file; the include guard makes that harmless.
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
 *    operands (ARM Cortex-M3 UMULL), that path is NOT constant-time; the
 *    32-bit kernels say which multiplier strategy they use.
 *  - Shifts by a constant amount and additions are constant-time everywhere.
 */
#ifndef FXP_H
#define FXP_H

#include <stdint.h>

/* floor(a * b / 2^64), from four 32x32->64 partial products.  Exact: the
 * middle sum below cannot overflow because each term is < 2^64 - 2^33 + 1
 * and we add at most two 32-bit halves to it. */
static inline uint64_t fxp_mulhi64_portable(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0;
    uint64_t p01 = a0 * b1;
    uint64_t p10 = a1 * b0;
    uint64_t p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* __extension__ keeps -Wpedantic quiet: unsigned __int128 is a GNU type. */
__extension__ typedef unsigned __int128 fxp_u128;

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

/* floor(a * b / 2^32) for 32-bit words: one 32x32->64 product (UMULL on
 * ARMv7-M, whose timing depends on the operands on a Cortex-M3). */
static inline uint32_t fxp_mulhi32(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a * b) >> 32);
}

#endif /* FXP_H */

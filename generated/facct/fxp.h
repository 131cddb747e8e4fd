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
    uint64_t p_lo = w * c;
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
 * in every generated kernel.
 */
typedef struct {
    uint64_t hi, lo;
} fxp_wide;

static inline fxp_wide fxp_wide_of(uint64_t a)
{
    fxp_wide r;
    r.hi = 0;
    r.lo = a;
    return r;
}

/* The exact product a * b. */
static inline fxp_wide fxp_wide_mul(uint64_t a, uint64_t b)
{
    fxp_wide r;
    r.hi = fxp_mulhi64(a, b);
    r.lo = a * b;
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

/* a << r for 0 <= r < 128 (bits shifted out are lost). */
static inline fxp_wide fxp_wide_shl(fxp_wide a, unsigned r)
{
    fxp_wide out;
    if (r >= 64) {
        out.hi = a.lo << (r - 64);
        out.lo = 0;
    } else if (r == 0) {
        out = a;
    } else {
        out.hi = (a.hi << r) | (a.lo >> (64 - r));
        out.lo = a.lo << r;
    }
    return out;
}

/* floor(a / 2^r) for 0 <= r < 128. */
static inline fxp_wide fxp_wide_shr(fxp_wide a, unsigned r)
{
    fxp_wide out;
    if (r >= 64) {
        out.lo = a.hi >> (r - 64);
        out.hi = 0;
    } else if (r == 0) {
        out = a;
    } else {
        out.lo = (a.lo >> r) | (a.hi << (64 - r));
        out.hi = a.hi >> r;
    }
    return out;
}

/* floor(a / 2^q + 1/2) as a word, 1 <= q < 128; the caller guarantees
 * that the result fits 64 bits and that a + 2^(q-1) does not overflow. */
static inline uint64_t fxp_wide_round_shr(fxp_wide a, unsigned q)
{
    fxp_wide half = fxp_wide_shl(fxp_wide_of(1), q - 1);
    return fxp_wide_shr(fxp_wide_add(a, half), q).lo;
}

/*
 * round((w / 2^64) * (1 - c / 2^s) * 2^63) for a two-word c (0 <= c < 2^s,
 * c / 2^s < 1/2), l = 128 - s >= 0.  With C = c << l (scale 2^128, exact),
 * the value is (w 2^64 - w C / 2^64) / 2^65.  We form
 * N = w 2^64 - w C_hi - floor(w C_lo / 2^64): exact but for the last
 * floor, which makes N larger by less than 1 (bounded in the proof), and
 * round N / 2^65 as in fxp_round_w_one_minus.
 */
static inline uint64_t fxp_round_w_one_minus_wide(uint64_t w, fxp_wide c, unsigned l)
{
    fxp_wide cc = fxp_wide_shl(c, l);
    fxp_wide n;
    n.hi = w;
    n.lo = 0;
    n = fxp_wide_sub(n, fxp_wide_mul(w, cc.hi));
    n = fxp_wide_sub(n, fxp_wide_of(fxp_mulhi64(w, cc.lo)));
    return (n.hi >> 1) + (n.hi & 1);
}

#endif /* FXP_H */

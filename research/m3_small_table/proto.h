/* SPDX-License-Identifier: MIT */
/*
 * research/m3_small_table/proto.h -- a hand-written Cortex-M3 prototype of
 * Falcon's fpr_expm_p63 under Falcon's contract (_domain_bits: the bit
 * patterns of 0 <= x < ln 2 and 0 <= ccs <= 1), for issue 15's small-table
 * kernel.  NOT generator output, NOT shipped, and its error is MEASURED,
 * not proven (README.md).
 *
 * Design: 89 segments of width 2^-7 cover [0, ln 2) (the index is the top
 * 7 bits of z = x 2^64 below bit 64, so 128 would cover [0, 1)); per
 * segment a degree-5 polynomial in T = (x - j/128) 2^7, T in [0, 1),
 *     p(T) = a0 - T (a1 - T (a2 - T (a3 - T (a4 - T a5)))),
 * every a_i >= 0 (exp(-x)'s Taylor signs alternate), evaluated by Horner
 * with products of 15-bit limbs on MUL/MLA (32-bit results, no long
 * multiply), the partial products below the rounding level skipped.  The
 * table (table.h) has 8 words per row, 2848 bytes:
 *     a0 Q2.62 (64 bits), a1 units 2^-69 (64), a2 units 2^-62 (64),
 *     a3 units 2^-55 stored rotated right by 17 (32), a4 units 2^-64 with
 *     a5 (units 2^-52, 11 bits) in its low 11 bits (32).
 * The rotation and the packing are part of the coefficients' values: the
 * fit (gen_table.py) chooses a3 and a4 knowing which bits the kernel reads.
 *
 * Conversions: z = floor(x 2^64) from x's significand shifted right by
 * s = clamp(1022 - e, 0, 63), exact from x >= 2^-11 and within 2^-64 of
 * x 2^64 below (x < 2^-63 gives z = 1: the implicit bit is always set);
 * ccs = M 2^(e - 1023) with the significand M in [1, 2) read as 15-bit
 * limbs, exactly; the product R = p M 2^63 (< 2^64) is shifted right by
 * s = clamp(1023 - e, 0, 63), so ccs = 1 (e = 1023) needs no special
 * path.  The shift counts come from the bit pattern's high word h with
 * the sign dropped: (K - (h << 1)) >> 21 (arithmetic),
 * K = (bias << 21) | (2^21 - 1), clamped by one USAT, so -0.0 behaves as
 * +0.0.  bound.py bounds every loss of this file's arithmetic.
 *
 * Constant time on a Cortex-M3 (the assumptions): MUL and MLA take one and
 * two cycles whatever their operands (ARM DDI 0337, "Instruction timing";
 * UMULL/UMLAL terminate early, so they are not used); no conditional
 * branch; the table is indexed by the secret segment and must sit in SRAM
 * (no cache on the M3, so a load takes the same time at any address;
 * TABLE_ATTR puts it in .data, copied to SRAM at start-up).
 *
 * On ARM the 64-bit column sums and the variable shifts are inline asm
 * (Thumb-2: SUBS/SBC with a shifted operand; LSR/LSL by a register give 0
 * for counts of 32..255); elsewhere the C fallbacks compute the same bits
 * (m3prog.c checks host == M3 output).
 *
 * CONTROL_NO_EXPONENT: reads only ccs's significand, as earlier scratch
 * prototypes did; acc.c must reject it (wrong for ccs < 1/2).
 * CONTROL_NO_C3: drops the last column of the last Horner product; acc.c
 * must reject it.  CONTROL_RULE_CCS_ONE: the full adaptor's ccs >= 1 rule
 * clears ccs's exponent with its mantissa (ccs = 1 then gives 0); acc.c's
 * edge-rule check must reject it.
 */
#ifndef M3_SMALL_TABLE_PROTO_H
#define M3_SMALL_TABLE_PROTO_H

#include <stdint.h>

#if defined(__arm__)
#define TABLE_ATTR __attribute__((section(".data.m3_small_table")))
#else
#define TABLE_ATTR
#endif
#ifdef M3ST_TABLE_FILE
#include M3ST_TABLE_FILE        /* calibrate.c: the table before its bias */
#else
#include "table.h"
#endif

#if defined(__arm__)
#define LSRV(v, s) __extension__({ uint32_t _r; __asm__("lsr %0, %1, %2" : "=r"(_r) : "r"((uint32_t)(v)), "r"((uint32_t)(s))); _r; })
#define LSLV(v, s) __extension__({ uint32_t _r; __asm__("lsl %0, %1, %2" : "=r"(_r) : "r"((uint32_t)(v)), "r"((uint32_t)(s))); _r; })
/* clamp(((int32_t)(k - (h << 1))) >> 21, 0, 63); "after" is an operand the
 * asm does not read, only waits for: it keeps gcc from computing the count
 * (and holding its constant in a register) long before it is used. */
#define SHIFT_COUNT(k, h) __extension__({ uint32_t _r; __asm__("sub %0, %1, %2, lsl #1\n\tusat %0, #6, %0, asr #21" : "=r"(_r) : "r"((uint32_t)(k)), "r"((uint32_t)(h))); _r; })
#define SHIFT_COUNT_AFTER(k, h, after) __extension__({ uint32_t _r; __asm__("sub %0, %1, %2, lsl #1\n\tusat %0, #6, %0, asr #21" : "=r"(_r) : "r"((uint32_t)(k)), "r"((uint32_t)(h)), "r"(after)); _r; })
/* (hi:lo) -= c << r, (hi:lo) -= c >> d, (hi:lo) += c << r, 0 < r < 32 */
#define SUB64_SHL(hi, lo, c, r) do { uint32_t _l, _h; __asm__("subs %0, %2, %4, lsl %5\n\tsbc %1, %3, %4, lsr %6" : "=&r"(_l), "=r"(_h) : "r"(lo), "r"(hi), "r"((uint32_t)(c)), "i"(r), "i"(32 - (r)) : "cc"); lo = _l; hi = _h; } while (0)
#define SUB64_SHR(hi, lo, c, d) do { uint32_t _l, _h; __asm__("subs %0, %2, %4, lsr %5\n\tsbc %1, %3, #0" : "=&r"(_l), "=r"(_h) : "r"(lo), "r"(hi), "r"((uint32_t)(c)), "i"(d) : "cc"); lo = _l; hi = _h; } while (0)
#define ADD64_SHL(hi, lo, c, r) do { uint32_t _l, _h; __asm__("adds %0, %2, %4, lsl %5\n\tadc %1, %3, %4, lsr %6" : "=&r"(_l), "=r"(_h) : "r"(lo), "r"(hi), "r"((uint32_t)(c)), "i"(r), "i"(32 - (r)) : "cc"); lo = _l; hi = _h; } while (0)
/* lo = p[0], hi = p[1] in one LDRD (gcc otherwise recomputed the row
 * address for the first word: one instruction more) */
#define LOAD_PAIR(lo, hi, p) __asm__("ldrd %0, %1, [%2]" : "=r"(lo), "=r"(hi) : "r"(p), "m"(*(const uint32_t (*)[2])(p)))
/* d with bits lsb..lsb+w-1 replaced by the low w bits of v */
#define BFI(d, v, lsb, w) __extension__({ uint32_t _d = (d); __asm__("bfi %0, %1, %2, %3" : "+r"(_d) : "r"((uint32_t)(v)), "i"(lsb), "i"(w)); _d; })
#else
static inline uint32_t LSRV(uint32_t v, uint32_t s) { s &= 255; return s >= 32 ? 0 : v >> s; }
static inline uint32_t LSLV(uint32_t v, uint32_t s) { s &= 255; return s >= 32 ? 0 : v << s; }
#define SHIFT_COUNT_AFTER(k, h, after) ((void)(after), SHIFT_COUNT(k, h))
static inline uint32_t SHIFT_COUNT(uint32_t k, uint32_t h)
{
    int32_t t = (int32_t)(k - (h << 1)) >> 21;   /* arithmetic shift: gcc and clang on every target we build */
    return t < 0 ? 0 : t > 63 ? 63 : (uint32_t)t;
}
#define SUB64_SHL(hi, lo, c, r) do { uint64_t _v = ((uint64_t)(hi) << 32 | (lo)) - ((uint64_t)(uint32_t)(c) << (r)); hi = (uint32_t)(_v >> 32); lo = (uint32_t)_v; } while (0)
#define SUB64_SHR(hi, lo, c, d) do { uint64_t _v = ((uint64_t)(hi) << 32 | (lo)) - (uint64_t)((uint32_t)(c) >> (d)); hi = (uint32_t)(_v >> 32); lo = (uint32_t)_v; } while (0)
#define ADD64_SHL(hi, lo, c, r) do { uint64_t _v = ((uint64_t)(hi) << 32 | (lo)) + ((uint64_t)(uint32_t)(c) << (r)); hi = (uint32_t)(_v >> 32); lo = (uint32_t)_v; } while (0)
#define LOAD_PAIR(lo, hi, p) do { lo = (p)[0]; hi = (p)[1]; } while (0)
#define BFI(d, v, lsb, w) (((uint32_t)(d) & ~(((1u << (w)) - 1u) << (lsb))) | (((uint32_t)(v) & ((1u << (w)) - 1u)) << (lsb)))
#endif

/* Inlined at every call site, as the generated kernels are (one call site
 * in a Falcon build): an out-of-line copy would add a call and its
 * register saves. */
#define M3ST_INLINE static inline __attribute__((always_inline))

#define UBFX(v, lsb, w) (((uint32_t)(v) >> (lsb)) & ((1u << (w)) - 1u))

#define K_X 0x7FDFFFFFu     /* (1022 << 21) | (2^21 - 1): s = clamp(1022 - e(x), 0, 63) */
#define K_CCS 0x7FFFFFFFu   /* (1023 << 21) | (2^21 - 1): s = clamp(1023 - e(ccs), 0, 63) */

M3ST_INLINE uint64_t m3st_expm_p63_domain_bits(uint64_t x_bits, uint64_t c_bits)
{
    uint32_t xl = (uint32_t)x_bits, xh = (uint32_t)(x_bits >> 32);
    uint32_t cl = (uint32_t)c_bits, ch = (uint32_t)(c_bits >> 32);
    /* z = floor(x 2^64): the significand left-justified in 64 bits, shifted. */
    uint32_t sx = SHIFT_COUNT(K_X, xh);
    uint32_t mh = (xh << 11) | (xl >> 21) | 0x80000000u, ml = xl << 11;
    uint32_t zl = LSRV(ml, sx) | LSLV(mh, 32 - sx) | LSRV(mh, sx - 32);
    uint32_t zh = LSRV(mh, sx);
    const uint32_t *k = m3st_table[zh >> 25];
    /* T's limbs (T = bits 56..0 of z, Q0.57): T1 = bits 56..42, T2 = 41..27,
     * T3 = 26..12, T4 = 11..0 shifted to a 15-bit limb. */
    uint32_t T1 = UBFX(zh, 10, 15);
    uint32_t T2 = BFI(zl >> 27, zh, 5, 10);
    uint32_t T3 = UBFX(zl, 12, 15);
    uint32_t T4 = (zl << 20) >> 17;
    /* y4 = a4 - T a5 (units 2^-64); a5 is the low 11 bits of the word. */
    uint32_t w7 = k[7];
    uint32_t y4 = w7 - ((T1 * (w7 & 0x7ffu)) >> 3);
    /* y3 = a3 - T y4 (64-bit, units 2^-70); a3's word is ROR(A3, 17). */
    uint32_t Y4h = y4 >> 16, Y4l = UBFX(y4, 1, 15);
    uint32_t c1 = T1 * Y4l + T2 * Y4h;
    uint32_t c0 = T1 * Y4h + (c1 >> 15);            /* units 2^-63 */
    uint32_t lo = k[6], hi = k[6] & 0x7fffu;
    SUB64_SHL(hi, lo, c0, 7);
    /* y2 = a2 - T y3 (units 2^-62) */
    uint32_t Ya = hi, Yb = lo >> 17, Yc = UBFX(lo, 2, 15);
    uint32_t c2 = T1 * Yc + T2 * Yb + T3 * Ya;
    c1 = T1 * Yb + T2 * Ya + (c2 >> 15);
    c0 = T1 * Ya;
    lo = k[4]; hi = k[5];
    SUB64_SHL(hi, lo, c0, 9);
    SUB64_SHR(hi, lo, c1, 6);
    /* y1 = a1 - T y2 (units 2^-69) */
    Ya = hi; Yb = lo >> 17; Yc = UBFX(lo, 2, 15);
    c2 = T1 * Yc + T2 * Yb + T3 * Ya;
    c1 = T1 * Yb + T2 * Ya + (c2 >> 15);
    c0 = T1 * Ya;
    lo = k[2]; hi = k[3];
    SUB64_SHL(hi, lo, c0, 24);
    SUB64_SHL(hi, lo, c1, 9);
    /* y0 = a0 - T y1 (units 2^-62) */
    Ya = hi >> 15; Yb = hi & 0x7fffu; Yc = lo >> 17;
    uint32_t Yd = UBFX(lo, 2, 15);
#ifdef CONTROL_NO_C3
    uint32_t c3 = 0;
    (void)Yd; (void)T4;
#else
    uint32_t c3 = T1 * Yd + T2 * Yc + T3 * Yb + T4 * Ya;
#endif
    c2 = T1 * Yc + T2 * Yb + T3 * Ya + (c3 >> 15);
    c1 = T1 * Yb + T2 * Ya;
    c0 = T1 * Ya;
    LOAD_PAIR(lo, hi, k);
    SUB64_SHL(hi, lo, c0, 25);
    SUB64_SHL(hi, lo, c1, 10);
    SUB64_SHR(hi, lo, c2, 5);
    /* R = y0 M 2^63 (units 2^-63 for ccs = M in [1, 2)): y0's limbs times
     * M's (W1 = the implicit bit and mantissa bits 51..38, ...). */
    uint32_t P1 = hi >> 15, P2 = hi & 0x7fffu, P3 = lo >> 17, P4 = UBFX(lo, 2, 15);
    uint32_t W1 = UBFX(ch, 6, 14) | 0x4000u;
    uint32_t W2 = BFI(cl >> 23, ch, 9, 6);
    uint32_t W3 = UBFX(cl, 8, 15);
    uint32_t W4 = (cl << 24) >> 17;
    c3 = W1 * P4 + W2 * P3 + W3 * P2 + W4 * P1;
    c2 = W1 * P3 + W2 * P2 + W3 * P1 + (c3 >> 15);
    c1 = W1 * P2 + W2 * P1;
    c0 = W1 * P1;
    lo = c1 << 19; hi = (c0 << 2) + (c1 >> 13);
    ADD64_SHL(hi, lo, c2, 4);
    /* ccs = M 2^-s: R >> s, s in 0..63 */
#ifdef CONTROL_NO_EXPONENT
    uint32_t sc = 1;
#else
    uint32_t sc = SHIFT_COUNT_AFTER(K_CCS, ch, c2);
#endif
    uint32_t rl = LSRV(lo, sc) | LSLV(hi, 32 - sc) | LSRV(hi, sc - 32);
    uint32_t rh = LSRV(hi, sc);
    return (uint64_t)rh << 32 | rl;
}

/*
 * The full adaptor: the edge rules of every generated kernel's
 * <name>_fpr_expm_p63 (docs/abi.md) on the bit patterns, then the kernel
 * above.  x negative (-0 included) or NaN counts as 0, x above the double
 * below ln 2 (+inf included) as that double; ccs negative or NaN gives 0,
 * ccs >= 1 (+inf included) counts as 1.  Branch-free: 64-bit compares of
 * the patterns as integers, masks from their borrows.
 */
#define LN2_DOWN_BITS 0x3FE62E42FEFA39EFull
#define INF_BITS 0x7FF0000000000000ull

/* All ones if the pattern, as an unsigned integer, is above +inf's: a
 * negative number (-0 included, the sign bit set) or a NaN.  On ARM the
 * borrow of +inf - bits (RSBS, SBCS) spread by SBC: gcc's own 64-bit
 * compare used IT blocks and more instructions. */
#if defined(__arm__)
M3ST_INLINE uint32_t m3st_zero_mask(uint64_t bits)
{
    uint32_t m, t;
    __asm__("rsbs %1, %2, #0\n\tsbcs %1, %3, %4\n\tsbc %0, %0, %0"
            : "=r"(m), "=&r"(t) : "r"((uint32_t)bits), "r"((uint32_t)(INF_BITS >> 32)), "r"((uint32_t)(bits >> 32))
            : "cc");
    return m;
}
#else
M3ST_INLINE uint32_t m3st_zero_mask(uint64_t bits)
{
    return (uint32_t)0 - (uint32_t)(bits > INF_BITS);
}
#endif

M3ST_INLINE uint64_t m3st_fpr_expm_p63(uint64_t x_bits, uint64_t c_bits)
{
    uint32_t ch = (uint32_t)(c_bits >> 32), cl = (uint32_t)c_bits;
    uint32_t x_zero = m3st_zero_mask(x_bits);
    /* x above LN2_DOWN as signed integers (negative ones are zeroed next): LN2_DOWN.
     * Masks are applied word by word: gcc turns (m << 32 | m) into a UMULL. */
    uint64_t d = LN2_DOWN_BITS - x_bits;
    uint32_t big_x = (uint32_t)((int32_t)(d >> 32) >> 31);
    uint64_t x = x_bits + (((uint64_t)((uint32_t)(d >> 32) & big_x) << 32) | ((uint32_t)d & big_x));
    x = ((uint64_t)((uint32_t)(x >> 32) & ~x_zero) << 32) | ((uint32_t)x & ~x_zero);
    /* ccs >= 1: clear the mantissa (the shift count is 0 from e = 1023 up) */
    uint32_t big = (uint32_t)((int32_t)(K_X - (ch << 1)) >> 31);
    uint32_t c_zero = m3st_zero_mask(c_bits);
#ifdef CONTROL_RULE_CCS_ONE
    uint64_t c = ((uint64_t)(ch & ~big) << 32) | (cl & ~big);            /* clears the exponent too: ccs = 1 gives 0 */
#else
    uint64_t c = ((uint64_t)(ch & ~(big >> 12)) << 32) | (cl & ~big);   /* big >> 12: the high word's mantissa bits */
#endif
    uint64_t r = m3st_expm_p63_domain_bits(x, c);
    return ((uint64_t)((uint32_t)(r >> 32) & ~c_zero) << 32) | ((uint32_t)r & ~c_zero);
}

#endif

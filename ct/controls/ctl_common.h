/*
 * ctl_common.h -- helpers shared by the three control kernels of the
 * constant-time checks (ct/controls/).  The controls follow the kernel ABI of
 * docs/abi.md so that they travel through exactly the same wrapper, build and
 * measurement path as the generated kernels; they are not approximations to
 * be used by anyone.
 *
 * Constant-time assumptions: the 64x64->128 multiply (one MUL on x86-64)
 * takes a time independent of its operands; shifts by a variable amount
 * (SHR with the count in CL) are constant-time on x86-64.
 */
#ifndef CTL_COMMON_H
#define CTL_COMMON_H

#include <stdint.h>

/* floor(a * b / 2^64): the high word of the 128-bit product.  With Q0.64
 * operands (v / 2^64) the result is their product in Q0.64. */
static inline uint64_t ctl_mulhi(uint64_t a, uint64_t b)
{
    __extension__ typedef unsigned __int128 ctl_u128;
    return (uint64_t)(((ctl_u128)a * b) >> 64);
}

/* floor(v * 2^64) as a Q0.64 word, for the double v whose IEEE-754 bits are
 * v_bits, using integer operations only and no branch.  Domain 0 <= v < 1;
 * zero and subnormals give 0.  Write the significand with its implicit bit
 * at bit 63: M = (mantissa | 2^52) << 11, so v = M * 2^(e - 1086) with e the
 * biased exponent, and v * 2^64 = M >> (1022 - e).  A shift of 64 or more
 * must give 0; the mask below is all ones exactly when the shift is < 64,
 * computed from the sign bit of (shift - 64) instead of a comparison so that
 * the compiler has no reason to emit a branch. */
static inline uint64_t ctl_bits_to_q64(uint64_t v_bits)
{
    uint32_t e = (uint32_t)(v_bits >> 52) & 0x7FFu;
    uint64_t m = ((v_bits << 11) | ((uint64_t)1 << 63));
    uint32_t s = 1022u - e;
    uint64_t keep = (uint64_t)0 - (uint64_t)((s - 64u) >> 31);
    return (m >> (s & 63u)) & keep;
}

/* The same conversion for the native-float build: the product by 2^63 is
 * exact, and the truncation goes through int64_t (one CVTTSD2SI on x86-64)
 * because a conversion straight to uint64_t may compile to a compare and a
 * branch.  The doubling loses the last bit, as FACCT's 2 * trunc(v * 2^63)
 * does.  Domain 0 <= v < 1. */
static inline uint64_t ctl_double_to_q64(double v)
{
    return (uint64_t)(int64_t)(v * 9223372036854775808.0) << 1;
}

#endif /* CTL_COMMON_H */

/*
 * ctl_direct.h -- LEAKY CONTROL for the checks in ct/: a 16-segment,
 * degree-3 piecewise polynomial whose coefficient row is loaded with the
 * secret segment index (table_access "direct").  On a CPU with a data cache
 * the address of that load, and so the cache line touched, depends on the
 * secret; memcheck must report "uninitialised value used in an address" and
 * the binary scan must find an indexed memory operand.  A timing test will
 * usually NOT see it (the 512-byte table stays in L1), which is exactly why
 * the timing test alone proves nothing about table lookups.
 *
 * Formats: z = floor(x * 2^64), Q0.64.  Segment k covers x in
 * [k/16, (k+1)/16), k = z >> 60.  u = z mod 2^60 is the offset t = x - k/16
 * in Q0.64.  Row k holds exp(-k/16) * {1, 1, 1/2, 1/6} in Q63 (c / 2^63):
 * the Taylor terms of exp(-x) at k/16, so the result is exp(-x) in Q63 to
 * about 2^-20 (accuracy is irrelevant for a control).
 */
#ifndef CTL_DIRECT_H
#define CTL_DIRECT_H

#include <stdint.h>
#include "../ctl_common.h"

#define CTL_DIRECT_SCALE_BITS 63
#define CTL_DIRECT_SEGMENTS 16
#define CTL_DIRECT_DEGREE 3
#define CTL_DIRECT_WORD_BITS 64
#define CTL_DIRECT_TABLE_BYTES 512

static const uint64_t ctl_direct_table[16][4] = {
    {0x8000000000000000U, 0x8000000000000000U, 0x4000000000000000U, 0x1555555555555555U},
    {0x783EAFEF1C0A8F39U, 0x783EAFEF1C0A8F39U, 0x3C1F57F78E05479CU, 0x140A72A7DA01C289U},
    {0x70F5A893B608861EU, 0x70F5A893B608861EU, 0x387AD449DB04430FU, 0x12D39C189E56C105U},
    {0x6A1DA04B021DEF01U, 0x6A1DA04B021DEF01U, 0x350ED025810EF780U, 0x11AF9AB72B04FD2AU},
    {0x63AFBE7AB2082BA1U, 0x63AFBE7AB2082BA1U, 0x31D7DF3D590415D0U, 0x109D4A69C856B1F0U},
    {0x5DA594B7C8BDF84DU, 0x5DA594B7C8BDF84DU, 0x2ED2CA5BE45EFC26U, 0x0F9B98C94C1FA962U},
    {0x57F91857A63A3AA9U, 0x57F91857A63A3AA9U, 0x2BFC8C2BD31D1D54U, 0x0EA9840E9BB45F1CU},
    {0x52A49C64DBF42358U, 0x52A49C64DBF42358U, 0x29524E326DFA11ACU, 0x0DC61A10CF535B39U},
    {0x4DA2CBF1BE5827F9U, 0x4DA2CBF1BE5827F9U, 0x26D165F8DF2C13FCU, 0x0CF07752F50EB154U},
    {0x48EEA4C3055A2BFFU, 0x48EEA4C3055A2BFFU, 0x2477526182AD15FFU, 0x0C27C62080E45CAAU},
    {0x4483724D264F9EACU, 0x4483724D264F9EACU, 0x2241B9269327CF56U, 0x0B6B3DB786629A72U},
    {0x405CC8FF640081B0U, 0x405CC8FF640081B0U, 0x202E647FB20040D8U, 0x0ABA217FE600159DU},
    {0x3C7681D7DF9AFCA5U, 0x3C7681D7DF9AFCA5U, 0x1E3B40EBEFCD7E52U, 0x0A13C04EA5447F70U},
    {0x38CCB63C3E3C1A08U, 0x38CCB63C3E3C1A08U, 0x1C665B1E1F1E0D04U, 0x097773B4B50A0456U},
    {0x355BBC12BB5A9680U, 0x355BBC12BB5A9680U, 0x1AADDE095DAD4B40U, 0x08E49F58748F1915U},
    {0x32202217C0D2EC1CU, 0x32202217C0D2EC1CU, 0x1910110BE069760EU, 0x085AB0594ACDD204U},
};

/* The load ctl_direct_table[k] with a secret k is the deliberate leak. */
static inline uint64_t ctl_direct_eval(uint64_t z)
{
    const uint64_t *c = ctl_direct_table[z >> 60];
    uint64_t u = z & (((uint64_t)1 << 60) - 1);
    uint64_t y = c[3];
    y = c[2] - ctl_mulhi(u, y);
    y = c[1] - ctl_mulhi(u, y);
    y = c[0] - ctl_mulhi(u, y);
    return y;
}

/* ccs * exp(-x) * 2^63 with w = floor(ccs * 2^64) in Q0.64. */
static inline uint64_t ctl_direct_expm_p63(uint64_t z, uint64_t w)
{
    return ctl_mulhi(w, ctl_direct_eval(z));
}

#endif /* CTL_DIRECT_H */

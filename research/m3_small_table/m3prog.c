/* SPDX-License-Identifier: MIT */
/*
 * m3prog.c -- the prototype on the Cortex-M3 (QEMU mps2-an385) and on the
 * host, from the same source (m3/ of the repository: start-up code,
 * semihosting, m3io).  Inputs are bit patterns built with integer
 * operations only (no soft-float code in the program), so both builds see
 * the same inputs and must print the same bytes.
 *
 *   default:      one line per input, the output in hex (NVEC inputs)
 *   -DM3ST_TRACE: NTRACE calls of each counted entry point on inputs of
 *                 every kind (run under QEMU -singlestep), the reference
 *                 facct_ref_expm_p63 (runtime/facct_ref.c, Falcon's
 *                 emulated fpr_expm_p63: facct_portable of `make m3`)
 *                 included, so the ratio comes from one run
 */
#include <stdint.h>

#include "facct_ref.h"
#include "m3io.h"
#include "proto.h"

#define NVEC 3000
#define NTRACE 96
#define LN2_DOWN 0x3FE62E42FEFA39EFull
#define ONE_BITS 0x3FF0000000000000ull

/* The counted entry points: everything from the entry to the return is
 * one call.  m3st_call: Falcon's contract (_domain_bits); m3st_call_full:
 * with the edge rules (_fpr_expm_p63). */
__attribute__((noinline)) uint64_t m3st_call(uint64_t x_bits, uint64_t ccs_bits)
{
    return m3st_expm_p63_domain_bits(x_bits, ccs_bits);
}
__attribute__((noinline)) uint64_t m3st_call_full(uint64_t x_bits, uint64_t ccs_bits)
{
    return m3st_fpr_expm_p63(x_bits, ccs_bits);
}

static uint64_t rng_state = 0x0123456789ABCDEFull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

/* Input i: a mix of x in [2^-64, ln 2) and of tiny and edge x, ccs in
 * [2^-66, 1] with edge values, as bit patterns. */
static void input(uint32_t i, uint64_t *x, uint64_t *c)
{
    /* edge values: +-0, subnormals, 2^-7, the ends of the domain, and for
     * the full adaptor's rules -1, +-inf, NaNs, 1, 2^1000, 1.5 */
    static const uint64_t xe[] = {0, 1ull << 63, 1, 0x000FFFFFFFFFFFFFull, LN2_DOWN, 0x3F80000000000000ull,
                                  0xBFF0000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
                                  0x7FF8000000000000ull, 0xFFF8000000000001ull, 0x3FF0000000000000ull,
                                  0x7E70000000000000ull, LN2_DOWN + 1};
    static const uint64_t ce[] = {0, 1ull << 63, 1, ONE_BITS, ONE_BITS - 1, 0x3FE0000000000000ull,
                                  0xBFE0000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
                                  0x7FF8000000000000ull, 0x3FF8000000000000ull, 0x7E70000000000000ull,
                                  ONE_BITS + 1, 0x3BA0000000000000ull};
    uint64_t r = rnd(), m = r & 0x000FFFFFFFFFFFFFull;
    uint64_t ex = (i % 7 == 0) ? 1 + (r >> 53) % 958 : 959 + (r >> 53) % 64;
    uint64_t ec = (i % 5 == 0) ? 957 + (r >> 58) % 66 : 1022;
    *x = ex << 52 | m;
    if (*x > LN2_DOWN) *x = LN2_DOWN;
    *c = ec << 52 | (rnd() & 0x000FFFFFFFFFFFFFull);
    if (i % 11 == 0) *x = xe[(i / 11) % 14];
    if (i % 13 == 0) *c = ce[(i / 13) % 14];
}

volatile uint64_t m3st_sink;

int main(void)
{
    uint64_t x, c;
#ifdef M3ST_TRACE
    for (uint32_t i = 0; i < NTRACE; i++) {
        input(i, &x, &c);
        m3st_sink = m3st_call(x, c);
        m3st_sink = m3st_call_full(x, c);
        m3st_sink = facct_ref_expm_p63(x, c);
    }
#else
    for (uint32_t i = 0; i < NVEC; i++) {
        input(i, &x, &c);
        io_hex64(m3st_call(x, c));
        io_puts(" ");
        io_hex64(m3st_call_full(x, c));
        io_puts("\n");
    }
#endif
    return 0;
}

/* SPDX-License-Identifier: CC0-1.0
 * paper_m3.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/paper_m3.toml (sha256 0de6be455aceddb3ec6155c0849732fdfb1258a2f7f56e8994fe1a028ac8fd0c); regenerate in the project root with:
 *     python3 -m gen render kernels/paper_m3.toml --out generated
 * Parameters other than the defaults: word_bits = 32, scale_bits = 31, degree = 3,
 *     segments = {kind = "equal", count = 16}
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |_eval(z) - f(z/2^32) 2^31| <= 3.40188 (units of 2^-31)
 */
#if defined(PAPER_M3_CONTENT_HASH) && PAPER_M3_CONTENT_HASH != 0xe4eef7fcec7d8f3du
#error "paper_m3.h: another render of this kernel was included before this one"
#endif
#ifndef PAPER_M3_H
#define PAPER_M3_H

#include <stdint.h>

#define PAPER_M3_CONTENT_HASH 0xe4eef7fcec7d8f3du

/**
 * paper_m3_eval(z) ~= f(z / 2^32) 2^31
 * with f(x) = exp(-x) and Q0.32 words; a z above PAPER_M3_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time only where a load takes the same time at every address (SRAM on a Cortex-M3 or M4): the table
 * row depends on the input; no branch does.
 * Products: MUL (x86-64), UMULH (AArch64); on ARMv7-M 16x16->32 MUL/MLA, as UMULL's time depends on its
 * operands (-DFXP_ALLOW_UMULL permits it).
 * One table per program: define PAPER_M3_TABLE_EXTERN in every file that includes this one but one.
 */

#if !defined(FXP_MUL16) && defined(__ARM_ARCH_7M__) && !defined(FXP_ALLOW_UMULL)
#define FXP_MUL16 1
#endif

static inline uint64_t paper_m3_fxp_mul16_32x32(uint32_t x, uint32_t y) {
    uint32_t x0 = x & 0xFFFFu, x1 = x >> 16;
    uint32_t y0 = y & 0xFFFFu, y1 = y >> 16;
    uint32_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t r = ((uint64_t)p11 << 32) | p00;
    r += (uint64_t)p01 << 16;
    r += (uint64_t)p10 << 16;
    return r;
}
static inline uint32_t paper_m3_fxp_mulhi32(uint32_t a, uint32_t b) {
#if defined(FXP_MUL16)
    return (uint32_t)(paper_m3_fxp_mul16_32x32(a, b) >> 32);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

extern const uint32_t paper_m3_coeffs[16][4];
#ifndef PAPER_M3_TABLE_EXTERN
const uint32_t paper_m3_coeffs[16][4] = {
    { UINT32_C(0xfffffffb), UINT32_C(0xfffff1ef), UINT32_C(0xfff35aec), UINT32_C(0xa702bb1b) },
    { UINT32_C(0xf5257d10), UINT32_C(0xf5256fbd), UINT32_C(0xf5196cc4), UINT32_C(0x9fef41e7) },
    { UINT32_C(0xeac0c6e3), UINT32_C(0xeac0ba7b), UINT32_C(0xeab55aae), UINT32_C(0x992ad222) },
    { UINT32_C(0xe0ccdee7), UINT32_C(0xe0ccd2fb), UINT32_C(0xe0c1eaa0), UINT32_C(0x92abfdfa) },
    { UINT32_C(0xd744fcc5), UINT32_C(0xd744f111), UINT32_C(0xd73a64db), UINT32_C(0x8c715797) },
    { UINT32_C(0xce248c10), UINT32_C(0xce248173), UINT32_C(0xce1a9e71), UINT32_C(0x8682c1a5) },
    { UINT32_C(0xc5672a0c), UINT32_C(0xc5671fdc), UINT32_C(0xc55da5fa), UINT32_C(0x80ce9b7f) },
    { UINT32_C(0xbd08a39a), UINT32_C(0xbd0899f3), UINT32_C(0xbcff9076), UINT32_C(0x7b5997ab) },
    { UINT32_C(0xb504f32e), UINT32_C(0xb504e993), UINT32_C(0xb4fc207d), UINT32_C(0x761b480b) },
    { UINT32_C(0xad583ee4), UINT32_C(0xad58358e), UINT32_C(0xad4fbf12), UINT32_C(0x711812c6) },
    { UINT32_C(0xa5fed6a4), UINT32_C(0xa5fece29), UINT32_C(0xa5f6de41), UINT32_C(0x6c511186) },
    { UINT32_C(0x9ef5325a), UINT32_C(0x9ef529a6), UINT32_C(0x9eed5a39), UINT32_C(0x67b3d6c9) },
    { UINT32_C(0x9837f04b), UINT32_C(0x9837e805), UINT32_C(0x983072ae), UINT32_C(0x634eda1d) },
    { UINT32_C(0x91c3d36d), UINT32_C(0x91c3cb67), UINT32_C(0x91bc9dd5), UINT32_C(0x5f180cdc) },
    { UINT32_C(0x8b95c1de), UINT32_C(0x8b95baba), UINT32_C(0x8b8f0d22), UINT32_C(0x5b152c28) },
    { UINT32_C(0x85aac362), UINT32_C(0x85aabca5), UINT32_C(0x85a460c6), UINT32_C(0x57399200) },
};
#endif

#define PAPER_M3_SCALE_BITS 31
#define PAPER_M3_SEGMENTS 16
#define PAPER_M3_DEGREE 3
#define PAPER_M3_WORD_BITS 32
#define PAPER_M3_TABLE_BYTES 256
#define PAPER_M3_CORE_SCALE 32
#define PAPER_M3_Z_MAX UINT32_C(0xb17217f7)
#define PAPER_M3_ERR_BOUND_ULP 3.40188

static inline uint32_t paper_m3_core(uint32_t z) {
    uint32_t u = z;
    uint32_t idx = paper_m3_fxp_mulhi32(u, UINT32_C(0xb8aa3b21)) >> 27;
    uint32_t T = (u - idx * UINT32_C(186065280)) << 4;
    idx -= (idx - 15u) & (uint32_t)(0u - ((uint32_t)(15u - (uint32_t)idx) >> 31));
    const uint32_t *k = paper_m3_coeffs[idx];
    uint32_t mul3 = paper_m3_fxp_mulhi32(k[3], T);
    uint32_t y2 = k[2] - (mul3 >> 5);
    uint32_t mul6 = paper_m3_fxp_mulhi32(y2, T);
    uint32_t y1 = k[1] - (mul6 >> 5);
    uint32_t mul9 = paper_m3_fxp_mulhi32(y1, T);
    uint32_t y0 = k[0] - (mul9 >> 4);
    return y0;
}
static inline uint32_t paper_m3_eval(uint32_t z) { return (paper_m3_core(z) + UINT32_C(0x1)) >> 1; }
#endif

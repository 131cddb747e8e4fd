/* SPDX-License-Identifier: CC0-1.0
 * paper_m3.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/paper_m3.toml (sha256 0de6be455aceddb3ec6155c0849732fdfb1258a2f7f56e8994fe1a028ac8fd0c); regenerate in the project root with:
 *     python3 -m gen render kernels/paper_m3.toml --out generated
 * Parameters other than the defaults: word_bits = 32, scale_bits = 31, degree = 3,
 *     segments = {kind = "equal", count = 16}
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 * Description: Seed paper's Cortex-M3 kernel: 16 segments x degree 3 at 2^31
 *
 * Parameters:
 *   name = "paper_m3"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 32
 *   scale_bits = 31
 *   degree = 3
 *   segments = {"kind": "equal", "count": 16}
 *   error = "absolute"
 *   precision_digits = 50
 *   remez_tolerance = 1e-12
 *   remez_max_iterations = 60
 *   coefficient_scales = null
 *   explicit_coefficients = false
 *   max_abs_error_log2 = null
 *   table_access = "direct"
 *   evaluation = "horner"
 *   form = "direct"
 *   reoptimize = true
 *   wide = false
 *
 * Computed:
 *   inputs z = 0x0 .. 0xb17217f7 (Q0.32); 16 segment(s); pre-shift g = 4
 *   evaluation: horner, form direct; coefficient scales s_j (j = 0..3) = [32, 36, 41, 46]
 *   output: root word at 2^32 -> 2^31 (shift 1, round to nearest)
 *   coefficients re-optimized after rounding (evaluation-aware): yes
 *   table: 16 row(s), 256 bytes, access direct
 *   real-coefficient minimax error (max over segments): 1.1220e-09
 *   proven |p - f| of the quantized polynomials (max over segments): 1.16416e-9
 *   proven bound of _eval: 3.40188 units of 2^-31
 *   (bounds: gen/proof/ and docs/error-model.md of fxp-kernels; figures per segment: paper_m3.json)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(PAPER_M3_CONTENT_HASH) && PAPER_M3_CONTENT_HASH != 0xe4eef7fcec7d8f3du
#error "paper_m3.h: another render of this kernel was included before this one"
#endif
#ifndef PAPER_M3_H
#define PAPER_M3_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
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

/*
 * Fixed-point helpers: the part of runtime/fxp.h this kernel uses, with
 * the prefix fxp_ of every name replaced by paper_m3_fxp_ (so two
 * kernels in one program never share one), unchanged otherwise.
 */
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
static inline uint64_t paper_m3_fxp_mul16_32x32(uint32_t x, uint32_t y)
{
    uint32_t x0 = x & 0xFFFFu, x1 = x >> 16;
    uint32_t y0 = y & 0xFFFFu, y1 = y >> 16;
    uint32_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t r = ((uint64_t)p11 << 32) | p00;
    r += (uint64_t)p01 << 16;
    r += (uint64_t)p10 << 16;
    return r;
}

/* floor(a * b / 2^32) for 32-bit words: one 32x32->64 product, which is a
 * UMULL on ARMv7-M unless FXP_MUL16 builds it from four MULs. */
static inline uint32_t paper_m3_fxp_mulhi32(uint32_t a, uint32_t b)
{
#if defined(FXP_MUL16)
    /* Four MULs instead of one UMULL; exact (paper_m3_fxp_mul16_32x32). */
    return (uint32_t)(paper_m3_fxp_mul16_32x32(a, b) >> 32);
#else
    return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

/*
 * Coefficient table: one row per segment, K_0 .. K_3 (K_j multiplies
 * v^j, v = T / 2^32).  K_j = round(sigma_j * a_j * 2^s_j), stored modulo
 * 2^32; the scales s_j and signs sigma_j are the same on every row and
 * are listed in paper_m3.h.  256 bytes.
 */
/* One definition per program: every file that includes this header but one
 * defines PAPER_M3_TABLE_EXTERN and sees only the declaration. */
extern const uint32_t paper_m3_coeffs[16][4];
#ifndef PAPER_M3_TABLE_EXTERN
const uint32_t paper_m3_coeffs[16][4] = {
    /* segment 0: z in [0x00000000, 0x0b17217f], proven |p - f| <= 1.165e-9 */
    { UINT32_C(0xfffffffb), UINT32_C(0xfffff1ef), UINT32_C(0xfff35aec), UINT32_C(0xa702bb1b) },
    /* segment 1: z in [0x0b172180, 0x162e42ff], proven |p - f| <= 1.089e-9 */
    { UINT32_C(0xf5257d10), UINT32_C(0xf5256fbd), UINT32_C(0xf5196cc4), UINT32_C(0x9fef41e7) },
    /* segment 2: z in [0x162e4300, 0x2145647f], proven |p - f| <= 1.049e-9 */
    { UINT32_C(0xeac0c6e3), UINT32_C(0xeac0ba7b), UINT32_C(0xeab55aae), UINT32_C(0x992ad222) },
    /* segment 3: z in [0x21456480, 0x2c5c85ff], proven |p - f| <= 1.002e-9 */
    { UINT32_C(0xe0ccdee7), UINT32_C(0xe0ccd2fb), UINT32_C(0xe0c1eaa0), UINT32_C(0x92abfdfa) },
    /* segment 4: z in [0x2c5c8600, 0x3773a77f], proven |p - f| <= 9.590e-10 */
    { UINT32_C(0xd744fcc5), UINT32_C(0xd744f111), UINT32_C(0xd73a64db), UINT32_C(0x8c715797) },
    /* segment 5: z in [0x3773a780, 0x428ac8ff], proven |p - f| <= 9.321e-10 */
    { UINT32_C(0xce248c10), UINT32_C(0xce248173), UINT32_C(0xce1a9e71), UINT32_C(0x8682c1a5) },
    /* segment 6: z in [0x428ac900, 0x4da1ea7f], proven |p - f| <= 8.926e-10 */
    { UINT32_C(0xc5672a0c), UINT32_C(0xc5671fdc), UINT32_C(0xc55da5fa), UINT32_C(0x80ce9b7f) },
    /* segment 7: z in [0x4da1ea80, 0x58b90bff], proven |p - f| <= 8.589e-10 */
    { UINT32_C(0xbd08a39a), UINT32_C(0xbd0899f3), UINT32_C(0xbcff9076), UINT32_C(0x7b5997ab) },
    /* segment 8: z in [0x58b90c00, 0x63d02d7f], proven |p - f| <= 8.075e-10 */
    { UINT32_C(0xb504f32e), UINT32_C(0xb504e993), UINT32_C(0xb4fc207d), UINT32_C(0x761b480b) },
    /* segment 9: z in [0x63d02d80, 0x6ee74eff], proven |p - f| <= 7.684e-10 */
    { UINT32_C(0xad583ee4), UINT32_C(0xad58358e), UINT32_C(0xad4fbf12), UINT32_C(0x711812c6) },
    /* segment 10: z in [0x6ee74f00, 0x79fe707f], proven |p - f| <= 7.551e-10 */
    { UINT32_C(0xa5fed6a4), UINT32_C(0xa5fece29), UINT32_C(0xa5f6de41), UINT32_C(0x6c511186) },
    /* segment 11: z in [0x79fe7080, 0x851591ff], proven |p - f| <= 7.164e-10 */
    { UINT32_C(0x9ef5325a), UINT32_C(0x9ef529a6), UINT32_C(0x9eed5a39), UINT32_C(0x67b3d6c9) },
    /* segment 12: z in [0x85159200, 0x902cb37f], proven |p - f| <= 6.794e-10 */
    { UINT32_C(0x9837f04b), UINT32_C(0x9837e805), UINT32_C(0x983072ae), UINT32_C(0x634eda1d) },
    /* segment 13: z in [0x902cb380, 0x9b43d4ff], proven |p - f| <= 6.715e-10 */
    { UINT32_C(0x91c3d36d), UINT32_C(0x91c3cb67), UINT32_C(0x91bc9dd5), UINT32_C(0x5f180cdc) },
    /* segment 14: z in [0x9b43d500, 0xa65af67f], proven |p - f| <= 6.342e-10 */
    { UINT32_C(0x8b95c1de), UINT32_C(0x8b95baba), UINT32_C(0x8b8f0d22), UINT32_C(0x5b152c28) },
    /* segment 15: z in [0xa65af680, 0xb17217f7], proven |p - f| <= 6.128e-10 */
    { UINT32_C(0x85aac362), UINT32_C(0x85aabca5), UINT32_C(0x85a460c6), UINT32_C(0x57399200) },
};
#endif

#define PAPER_M3_SCALE_BITS 31
#define PAPER_M3_SEGMENTS 16
#define PAPER_M3_DEGREE 3
#define PAPER_M3_WORD_BITS 32
#define PAPER_M3_TABLE_BYTES 256
/* Scale of paper_m3_core's result: U = p(v) * 2^32. */
#define PAPER_M3_CORE_SCALE 32
/* Last valid input: z_max = floor(ln 2 * 2^32) for the default domain. */
#define PAPER_M3_Z_MAX UINT32_C(0xb17217f7)

/*
 * Proven error bounds (upper bounds, rounded up; computed by gen/proof/ of
 * fxp-kernels with exact rational and interval arithmetic, docs/error-model.md):
 *   paper_m3_eval:      |eval(z) - f(z / 2^32) * 2^31| <= PAPER_M3_ERR_BOUND_ULP units of 2^-31
 */
#define PAPER_M3_ERR_BOUND_ULP 3.40188

/*
 * paper_m3_core(z): the polynomial of z's segment, evaluated in fixed point.
 *
 * Input z is Q0.32 (x = z / 2^32).  Segment selection (16 equal segments of 186065280 inputs (width ~ (hi - lo) / 16)):
 *   idx = floor(u / 186065280) = mulhi(u, M) >> 27, exact for every
 *   u = z - z_lo <= 2977044471 (proof: gen/segments.py, _division_magic);
 *   t = u - idx * 186065280.  Cost: one multiply-high, one shift,
 *   one multiply by a small constant and a subtraction.
 * The local variable is T = t << 4, read as v = T / 2^32 in [0, 1).
 *
 * Horner's scheme on unsigned words, sign-magnitude: each word U
 * stands for sigma U 2^-s with a sign sigma and scale s fixed for every
 * segment, so products are truncated multiply-highs
 * mulhi(a, b) = floor(a b / 2^32) and sums are additions or subtractions,
 * aligned by constant shifts.  The ranges next to each step are proven for
 * every input of every segment by exact integer interval arithmetic: no
 * step overflows.
 * Table access: direct (the segment index, which depends on the
 * secret input, selects a table row: not constant-time on CPUs with data
 * caches; use table_access = "ct_scan" there).
 */
static inline uint32_t paper_m3_core(uint32_t z)
{
    uint32_t u = z;
    /* idx = floor(u / 186065280) exactly, for every u <= 2977044471. */
    uint32_t idx = paper_m3_fxp_mulhi32(u, UINT32_C(0xb8aa3b21)) >> 27;
    uint32_t T = (u - idx * UINT32_C(186065280)) << 4;
    /* idx = min(idx, 15) without a branch, so that no z, in the domain or
     * not, reads past the table (idx < 2^31: the difference's borrow is bit 31). */
    idx -= (idx - 15u) & (uint32_t)(0u - ((uint32_t)(15u - (uint32_t)idx) >> 31));
    const uint32_t *k = paper_m3_coeffs[idx];
    uint32_t mul3 = paper_m3_fxp_mulhi32(k[3], T);  /* v*y3: -U 2^-46, U in [0x00000000, 0x73c35232] */
    uint32_t y2 = k[2] - (mul3 >> 5);  /* y2: +U 2^-41, U in [0x83c0b35a, 0xfff35aec] */
    uint32_t mul6 = paper_m3_fxp_mulhi32(y2, T);  /* v*y2: +U 2^-41, U in [0x00000000, 0xaf0db6d2] */
    uint32_t y1 = k[1] - (mul6 >> 5);  /* y1: -U 2^-36, U in [0x82cf84f4, 0xfffff1ef] */
    uint32_t mul9 = paper_m3_fxp_mulhi32(y1, T);  /* v*y1: -U 2^-36, U in [0x00000000, 0xade210fd] */
    uint32_t y0 = k[0] - (mul9 >> 4);  /* y0: +U 2^-32, U in [0x7ffe1c6b, 0xfffffffb] */
    return y0;
}

/* paper_m3_eval(z) ~= f(z / 2^32) * 2^31: the root word rounded to nearest from scale 2^32. */
static inline uint32_t paper_m3_eval(uint32_t z)
{
    return (paper_m3_core(z) + UINT32_C(0x1)) >> 1;
}

#endif /* PAPER_M3_H */

/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 adbd2052deeeeeac) from
 * kernels/falcon_x86.toml (sha256 4e1af7a63decb2e5839fcd4aceab826a2713c08a6a9e1162b7fce0604e349c9e); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 13, max_abs_error_log2 = -60.0,
 *     evaluation = "estrin", form = "one_minus", wide = true
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |falcon_x86_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 0.801803 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: x86-64 flagship: one degree-13 polynomial, Estrin, one_minus form, faithful and table-free
 *
 * Parameters:
 *   name = "falcon_x86"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 64
 *   scale_bits = 63
 *   degree = 13
 *   segments = {"kind": "equal", "count": 1}
 *   error = "absolute"
 *   precision_digits = 50
 *   remez_tolerance = 1e-12
 *   remez_max_iterations = 60
 *   coefficient_scales = null
 *   explicit_coefficients = false
 *   max_abs_error_log2 = -60.0
 *   table_access = "direct"
 *   evaluation = "estrin"
 *   form = "one_minus"
 *   reoptimize = true
 *   wide = true
 *
 * Computed:
 *   inputs z = 0x0 .. 0xb17217f7d1cf79ab (Q0.64); 1 segment(s); pre-shift g = 0
 *   evaluation: estrin, form one_minus; coefficient scales s_j (j = 0..13) = [128, 64, 65, 66, 68, 70, 73, 76, 79, 82, 85, 89, 92, 97]
 *   output: root word at 2^128 -> 2^63 (shift 65, round to nearest)
 *   coefficients re-optimized after rounding (evaluation-aware): yes
 *   table: 1 row(s), 112 bytes, access none (one segment: table_access has no effect)
 *   real-coefficient minimax error (max over segments): 3.5789e-22
 *   proven |p - f| of the quantized polynomials (max over segments): 3.88262e-22
 *   proven bound of _eval: 0.801803 units of 2^-63
 *   proven bound of _expm_p63: 0.801803 units of 2^-63
 *   (bounds: gen/proof/ and docs/error-model.md of fxp-kernels; figures per segment: falcon_x86.json)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FALCON_X86_CONTENT_HASH) && FALCON_X86_CONTENT_HASH != 0x5e98c8cbedd436a2u
#error "falcon_x86.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_H
#define FALCON_X86_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define FALCON_X86_CONTENT_HASH 0x5e98c8cbedd436a2u

/**
 * falcon_x86_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1, converted as the reference does (unspecified but defined outside it).
 * falcon_x86_eval(z) ~= f(z / 2^64) 2^63, falcon_x86_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; a z above FALCON_X86_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time: no branch, table index or variable-latency instruction depends on an input.
 * Products: MUL (x86-64), UMULH (AArch64); on ARMv7-M 16x16->32 MUL/MLA, as UMULL's time depends on its
 * operands (-DFXP_ALLOW_UMULL permits it).
 * One table per program: define FALCON_X86_TABLE_EXTERN in every file that includes this one but one.
 */

/*
 * Fixed-point helpers: the part of runtime/fxp.h this kernel uses, with
 * the prefix fxp_ of every name replaced by falcon_x86_fxp_ (so two
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
static inline uint64_t falcon_x86_fxp_mul16_32x32(uint32_t x, uint32_t y)
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
static inline void falcon_x86_fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = falcon_x86_fxp_mul16_32x32(a0, b0);
    uint64_t q10 = falcon_x86_fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + falcon_x86_fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = falcon_x86_fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}

/* floor(a * b / 2^64), from four 32x32->64 partial products.  Exact: the
 * middle sum below cannot overflow because each term is < 2^64 - 2^33 + 1
 * and we add at most two 32-bit halves to it. */
static inline uint64_t falcon_x86_fxp_mulhi64_portable(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* __extension__ keeps -Wpedantic quiet: unsigned __int128 is a GNU type. */
__extension__ typedef unsigned __int128 falcon_x86_fxp_u128;
#endif

#if defined(FXP_MUL16)
/* floor(a * b / 2^64) from 16x16->32 products (see falcon_x86_fxp_mul16_64x64); the
 * low word is computed but unused, and the compiler drops it. */
static inline uint64_t falcon_x86_fxp_mulhi64(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    falcon_x86_fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* floor(a * b / 2^64) with the compiler's 128-bit product (one MUL on
 * x86-64).  Bit-identical to falcon_x86_fxp_mulhi64_portable. */
static inline uint64_t falcon_x86_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((falcon_x86_fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t falcon_x86_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return falcon_x86_fxp_mulhi64_portable(a, b);
}
#endif

/*
 * Two-word values for the "wide" parts of a scheme: exact 128-bit products
 * and sums that must not truncate.  falcon_x86_fxp_wide holds hi * 2^64 + lo.  With
 * unsigned __int128 the helpers go through it (one MUL, ADD/ADC); the
 * portable versions compute the same bits with carries written as
 * arithmetic, never as branches.  Shift counts are compile-time constants
 * in every generated kernel (the choices on r in the portable shifts are
 * on those constants and vanish after inlining).
 */
typedef struct { uint64_t hi, lo; } falcon_x86_fxp_wide;

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128) && !defined(FXP_MUL16)
/* With a native 128-bit type every helper is one or two instructions; the
 * struct is only the interface and disappears after inlining. */
static inline falcon_x86_fxp_u128 falcon_x86_fxp_wide_to_u128(falcon_x86_fxp_wide a)
{
    return ((falcon_x86_fxp_u128)a.hi << 64) | a.lo;
}

static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_from_u128(falcon_x86_fxp_u128 v)
{
    falcon_x86_fxp_wide r = { (uint64_t)(v >> 64), (uint64_t)v };
    return r;
}

static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_of(uint64_t a)
{
    return falcon_x86_fxp_wide_from_u128(a);
}

/* The exact product a * b. */
static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_mul(uint64_t a, uint64_t b)
{
    return falcon_x86_fxp_wide_from_u128((falcon_x86_fxp_u128)a * b);
}

static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_add(falcon_x86_fxp_wide a, falcon_x86_fxp_wide b)
{
    return falcon_x86_fxp_wide_from_u128(falcon_x86_fxp_wide_to_u128(a) + falcon_x86_fxp_wide_to_u128(b));
}

static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_sub(falcon_x86_fxp_wide a, falcon_x86_fxp_wide b)
{
    return falcon_x86_fxp_wide_from_u128(falcon_x86_fxp_wide_to_u128(a) - falcon_x86_fxp_wide_to_u128(b));
}

/* a << r and floor(a / 2^r) for 0 <= r < 128. */
static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_shl(falcon_x86_fxp_wide a, unsigned r)
{
    return falcon_x86_fxp_wide_from_u128(falcon_x86_fxp_wide_to_u128(a) << r);
}

static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_shr(falcon_x86_fxp_wide a, unsigned r)
{
    return falcon_x86_fxp_wide_from_u128(falcon_x86_fxp_wide_to_u128(a) >> r);
}
#else
static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_of(uint64_t a)
{
    falcon_x86_fxp_wide r = { 0, a };
    return r;
}

/* The exact product a * b. */
static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_mul(uint64_t a, uint64_t b)
{
    falcon_x86_fxp_wide r;
#if defined(FXP_MUL16)
    falcon_x86_fxp_mul16_64x64(a, b, &r.hi, &r.lo);
#else
    r.hi = falcon_x86_fxp_mulhi64(a, b);
    r.lo = a * b;
#endif
    return r;
}

static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_add(falcon_x86_fxp_wide a, falcon_x86_fxp_wide b)
{
    falcon_x86_fxp_wide r;
    r.lo = a.lo + b.lo;
    /* Carry out of the low word, from the top bits of the operands and
     * of the sum (no comparison, so no flag-to-branch risk). */
    r.hi = a.hi + b.hi + (((a.lo & b.lo) | ((a.lo | b.lo) & ~r.lo)) >> 63);
    return r;
}

static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_sub(falcon_x86_fxp_wide a, falcon_x86_fxp_wide b)
{
    falcon_x86_fxp_wide r;
    r.lo = a.lo - b.lo;
    /* Borrow out of the low word. */
    r.hi = a.hi - b.hi - (((~a.lo & b.lo) | ((~a.lo | b.lo) & r.lo)) >> 63);
    return r;
}

/* a << r for 0 <= r < 128 (bits shifted out are lost).  Only the chosen
 * operand of ?: is evaluated, so no shift by 64 or more happens; r is a
 * constant after inlining, so the choices are not branches at run time. */
static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_shl(falcon_x86_fxp_wide a, unsigned r)
{
    falcon_x86_fxp_wide out;
    out.hi = r >= 64 ? a.lo << (r - 64) : r == 0 ? a.hi : (a.hi << r) | (a.lo >> (64 - r));
    out.lo = r >= 64 ? 0 : a.lo << r;
    return out;
}

/* floor(a / 2^r) for 0 <= r < 128 (as falcon_x86_fxp_wide_shl). */
static inline falcon_x86_fxp_wide falcon_x86_fxp_wide_shr(falcon_x86_fxp_wide a, unsigned r)
{
    falcon_x86_fxp_wide out;
    out.lo = r >= 64 ? a.hi >> (r - 64) : r == 0 ? a.lo : (a.lo >> r) | (a.hi << (64 - r));
    out.hi = r >= 64 ? 0 : a.hi >> r;
    return out;
}
#endif

/* floor(a / 2^q + 1/2) as a word, 1 <= q < 128; the caller guarantees
 * that the result fits 64 bits and that a + 2^(q-1) does not overflow. */
static inline uint64_t falcon_x86_fxp_wide_round_shr(falcon_x86_fxp_wide a, unsigned q)
{
    falcon_x86_fxp_wide half = falcon_x86_fxp_wide_shl(falcon_x86_fxp_wide_of(1), q - 1);
    return falcon_x86_fxp_wide_shr(falcon_x86_fxp_wide_add(a, half), q).lo;
}

/*
 * N = w 2^64 - w C_hi - floor(w C_lo / 2^64) for a two-word c (0 <= c < 2^s,
 * c / 2^s < 1/2), l = 128 - s >= 0 and C = c << l (scale 2^128, exact):
 * N / 2^65 is (w / 2^64) * (1 - c / 2^s) * 2^63, exact but for the last
 * floor, which makes N larger by less than 1 (bounded in the proof).
 */
static inline falcon_x86_fxp_wide falcon_x86_fxp_w_one_minus_wide(uint64_t w, falcon_x86_fxp_wide c, unsigned l)
{
    falcon_x86_fxp_wide cc = falcon_x86_fxp_wide_shl(c, l);
    falcon_x86_fxp_wide n = { w, 0 };
    n = falcon_x86_fxp_wide_sub(n, falcon_x86_fxp_wide_mul(w, cc.hi));
    return falcon_x86_fxp_wide_sub(n, falcon_x86_fxp_wide_of(falcon_x86_fxp_mulhi64(w, cc.lo)));
}

/* round(N / 2^65), ties up, for N < 2^128 - 2^64, as in falcon_x86_fxp_round_w_one_minus. */
static inline uint64_t falcon_x86_fxp_round_n65(falcon_x86_fxp_wide n)
{
    return (n.hi >> 1) + (n.hi & 1);
}

/* round((w / 2^64) * (1 - c / 2^s) * 2^63) for a two-word c; see above. */
static inline uint64_t falcon_x86_fxp_round_w_one_minus_wide(uint64_t w, falcon_x86_fxp_wide c, unsigned l)
{
    return falcon_x86_fxp_round_n65(falcon_x86_fxp_w_one_minus_wide(w, c, l));
}

/*
 * Coefficient table: one row per segment, K_0 .. K_13 (K_j multiplies
 * v^j, v = T / 2^64).  K_j = round(sigma_j * a_j * 2^s_j), stored modulo
 * 2^64; the scales s_j and signs sigma_j are the same on every row and
 * are listed in falcon_x86.h.  112 bytes.
 */
/* One definition per program: every file that includes this header but one
 * defines FALCON_X86_TABLE_EXTERN and sees only the declaration. */
extern const uint64_t falcon_x86_coeffs[1][14];
#ifndef FALCON_X86_TABLE_EXTERN
const uint64_t falcon_x86_coeffs[1][14] = {
    /* segment 0: z in [0x0000000000000000, 0xb17217f7d1cf79ab], proven |p - f| <= 3.883e-22 */
    { UINT64_C(0x01d14e9948208556), UINT64_C(0xfffffffffffffffc), UINT64_C(0xfffffffffffffd13), UINT64_C(0xaaaaaaaaaaa9d2dd), UINT64_C(0xaaaaaaaaaa69c4d3), UINT64_C(0x888888887cd6fe3a), UINT64_C(0xb60b60b35033912b), UINT64_C(0xd00d006121380bdf), UINT64_C(0xd00cf4891533a613), UINT64_C(0xb8ee27a32ea32e6d), UINT64_C(0x93e4fcd5b4e7f19a), UINT64_C(0xd62b7877bc49cc4d), UINT64_C(0x88db29ded0e47357), UINT64_C(0xf9d44a910beb425a) },
};
#endif

#define FALCON_X86_SCALE_BITS 63
#define FALCON_X86_SEGMENTS 1
#define FALCON_X86_DEGREE 13
#define FALCON_X86_WORD_BITS 64
#define FALCON_X86_TABLE_BYTES 112
/* Scale of falcon_x86_core's result: U = p(v) * 2^128, p ~= 1 - f. */
#define FALCON_X86_CORE_SCALE 128
/* Last valid input: z_max = floor(ln 2 * 2^64) for the default domain. */
#define FALCON_X86_Z_MAX UINT64_C(0xb17217f7d1cf79ab)

/*
 * Proven error bounds (upper bounds, rounded up; computed by gen/proof/ of
 * fxp-kernels with exact rational and interval arithmetic, docs/error-model.md):
 *   falcon_x86_eval:      |eval(z) - f(z / 2^64) * 2^63| <= FALCON_X86_ERR_BOUND_ULP units of 2^-63
 *   falcon_x86_expm_p63:  |expm(z, w) - (w / 2^64) f(z / 2^64) 2^63| <= FALCON_X86_EXPM_P63_ERR_BOUND units of 2^-63
 */
#define FALCON_X86_ERR_BOUND_ULP 0.801803
#define FALCON_X86_EXPM_P63_ERR_BOUND 0.801803

/*
 * falcon_x86_core(z): the polynomial of z's segment, evaluated in fixed point.
 *
 * Input z is Q0.64 (x = z / 2^64).  Segment selection (one segment):
 *   no index: t = u = z - z_lo.
 * The local variable is T = t << 0, read as v = T / 2^64 in [0, 1).
 *
 * Estrin's scheme on unsigned words, sign-magnitude: each word U
 * stands for sigma U 2^-s with a sign sigma and scale s fixed for every
 * segment, so products are truncated multiply-highs
 * mulhi(a, b) = floor(a b / 2^64) and sums are additions or subtractions,
 * aligned by constant shifts.  The ranges next to each step are proven for
 * every input of every segment by exact integer interval arithmetic: no
 * step overflows.  The polynomial approximates 1 - f (form one_minus):
 * for exp(-x) on [0, ln 2) that is below 1/2, so it keeps two more bits than
 * f itself, which reaches 1.
 * Table access: none (one polynomial, no index).
 */
static inline falcon_x86_fxp_wide falcon_x86_core(uint64_t z)
{
    uint64_t u = z;
    const uint64_t *k = falcon_x86_coeffs[0];
    uint64_t T = u;
    falcon_x86_fxp_wide mul3 = falcon_x86_fxp_wide_mul(k[1], T);  /* a1*v: +U 2^-128, U in [0x00000000000000000000000000000000, 0xb17217f7d1cf79a83a37a020b8c21954] */
    falcon_x86_fxp_wide p0_1 = falcon_x86_fxp_wide_add(falcon_x86_fxp_wide_of(k[0]), mul3);  /* p0_1: +U 2^-128, U in [0x000000000000000001d14e9948208556, 0xb17217f7d1cf79a83c08eeba00e29eaa] */
    uint64_t mul7 = falcon_x86_fxp_mulhi64(k[3], T);  /* a3*v: +U 2^-66, U in [0x0000000000000000, 0x764c0ffa8bdf10dc] */
    uint64_t p2_3 = k[2] - (mul7 >> 1);  /* p2_3: -U 2^-65, U in [0xc4d9f802ba1074a5, 0xfffffffffffffd13] */
    uint64_t mul11 = falcon_x86_fxp_mulhi64(k[5], T);  /* a5*v: +U 2^-70, U in [0x0000000000000000, 0x5ea33ffb9afe5b2c] */
    uint64_t p4_5 = k[4] - (mul11 >> 2);  /* p4_5: -U 2^-68, U in [0x9301daabc3aa2e08, 0xaaaaaaaaaa69c4d3] */
    uint64_t mul15 = falcon_x86_fxp_mulhi64(k[7], T);  /* a7*v: +U 2^-76, U in [0x0000000000000000, 0x9035b687e54fdd91] */
    uint64_t p6_7 = k[6] - (mul15 >> 3);  /* p6_7: -U 2^-73, U in [0xa404a9e253899579, 0xb60b60b35033912b] */
    uint64_t mul19 = falcon_x86_fxp_mulhi64(k[9], T);  /* a9*v: +U 2^-82, U in [0x0000000000000000, 0x802f14c5e4d1ce39] */
    uint64_t p8_9 = k[8] - (mul19 >> 3);  /* p8_9: -U 2^-79, U in [0xc00711f058996c4c, 0xd00cf4891533a613] */
    uint64_t mul23 = falcon_x86_fxp_mulhi64(k[11], T);  /* a11*v: +U 2^-89, U in [0x0000000000000000, 0x947381b3a9cbecd9] */
    uint64_t p10_11 = k[10] - (mul23 >> 4);  /* p10_11: -U 2^-85, U in [0x8a9dc4ba7a4b32cd, 0x93e4fcd5b4e7f19a] */
    uint64_t mul27 = falcon_x86_fxp_mulhi64(k[13], T);  /* a13*v: +U 2^-97, U in [0x0000000000000000, 0xad2b1f7b691cbbed] */
    uint64_t p12_13 = k[12] - (mul27 >> 5);  /* p12_13: -U 2^-92, U in [0x8371d0e2f59b8d78, 0x88db29ded0e47357] */
    uint64_t mul29 = falcon_x86_fxp_mulhi64(T, T);  /* v^2: +U 2^-64, U in [0x0000000000000000, 0x7afef7fe0b163aa0] */
    falcon_x86_fxp_wide mul30 = falcon_x86_fxp_wide_mul(p2_3, mul29);  /* v^2*q: -U 2^-129, U in [0x00000000000000000000000000000000, 0x60461fe0771323bbd2705a6187d12860] */
    falcon_x86_fxp_wide q2_0 = falcon_x86_fxp_wide_sub(p0_1, falcon_x86_fxp_wide_shr(mul30, 1));  /* q2_0: +U 2^-128, U in [0x000000000000000001d14e9948208556, 0x87a2071f6fffd4c316d390763cc58171] */
    uint64_t mul32 = falcon_x86_fxp_mulhi64(p6_7, mul29);  /* v^2*q: -U 2^-73, U in [0x0000000000000000, 0x4f51e79719a1a3c8] */
    uint64_t q2_1 = p4_5 + (mul32 >> 5);  /* q2_1: -U 2^-68, U in [0x952f461a323df201, 0xaaaaaaaaaa69c4d3] */
    uint64_t mul34 = falcon_x86_fxp_mulhi64(p10_11, mul29);  /* v^2*q: -U 2^-85, U in [0x0000000000000000, 0x42dd5a47dfa0f3c5] */
    uint64_t q2_2 = p8_9 + (mul34 >> 6);  /* q2_2: -U 2^-79, U in [0xc0f29d892908291e, 0xd00cf4891533a613] */
    uint64_t mul36 = falcon_x86_fxp_mulhi64(mul29, mul29);  /* v^4: +U 2^-64, U in [0x0000000000000000, 0x3b18024f2eeb657b] */
    falcon_x86_fxp_wide mul37 = falcon_x86_fxp_wide_mul(q2_1, mul36);  /* v^4*q: -U 2^-132, U in [0x00000000000000000000000000000000, 0x22d522e2a649dc92ec3eb401e59f7801] */
    falcon_x86_fxp_wide q4_0 = falcon_x86_fxp_wide_sub(q2_0, falcon_x86_fxp_wide_shr(mul37, 4));  /* q4_0: +U 2^-128, U in [0x000000000000000001d14e9948208556, 0x85f3423a13d80ac738dd969341d757b9] */
    uint64_t mul39 = falcon_x86_fxp_mulhi64(p12_13, mul36);  /* v^4*q: -U 2^-92, U in [0x0000000000000000, 0x1e6aa4e8f0828f6b] */
    uint64_t q4_1 = q2_2 + (mul39 >> 13);  /* q4_1: -U 2^-79, U in [0xc0f35b4ee714a1ab, 0xd00cf4891533a613] */
    uint64_t mul41 = falcon_x86_fxp_mulhi64(mul36, mul36);  /* v^8: +U 2^-64, U in [0x0000000000000000, 0x0da41350ee7ea223] */
    falcon_x86_fxp_wide mul42 = falcon_x86_fxp_wide_mul(q4_1, mul41);  /* v^8*q: -U 2^-143, U in [0x00000000000000000000000000000000, 0x0a56c7b4d039e6aa24b628f1a9d10deb] */
    falcon_x86_fxp_wide q8_0 = falcon_x86_fxp_wide_sub(q4_0, falcon_x86_fxp_wide_shr(mul42, 15));  /* q8_0: +U 2^-128, U in [0x000000000000000001d14e9948208556, 0x85f335a896eb54acae28145fae155cfd] */
    return q8_0;
}

/* falcon_x86_eval(z) ~= f(z / 2^64) * 2^63 = 2^63 - round(U / 2^65). */
static inline uint64_t falcon_x86_eval(uint64_t z)
{
    return (uint64_t)(((uint64_t)1 << 63) - falcon_x86_fxp_wide_round_shr(falcon_x86_core(z), 65));
}

/* ccs * (1 - U / 2^128) * 2^63 rounded to nearest, U a two-word value
 * (see falcon_x86_fxp_round_w_one_minus_wide): w is Q0.64 (ccs = w / 2^64). */
static inline uint64_t falcon_x86_expm_p63_core(falcon_x86_fxp_wide u, uint64_t w)
{
    return falcon_x86_fxp_round_w_one_minus_wide(w, u, 0);
}

/* falcon_x86_expm_p63(z, w) ~= (w / 2^64) * exp(-z / 2^64) * 2^63. */
static inline uint64_t falcon_x86_expm_p63(uint64_t z, uint64_t w)
{
    return falcon_x86_expm_p63_core(falcon_x86_core(z), w);
}


#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

/*
 * Falcon-facing adaptors: drop-in replacements for fpr_expm_p63(x, ccs),
 * which Falcon calls with 0 <= x < ln 2 and ccs in about [0.61, 1).
 *
 *   falcon_x86_fpr_expm_p63(x_bits, ccs_bits)  emulated-float builds: the
 *       arguments are IEEE-754 binary64 bit patterns (Falcon's fpr);
 *       integer operations only, no branch and no table index that depends
 *       on them.
 *   falcon_x86_fpr_expm_p63_native(x, ccs)  native-float builds.
 *   falcon_x86_fpr_expm_p63_domain(x, ccs) and _domain_bits(x_bits, ccs_bits):
 *       Falcon's own contract, 0 <= x < ln 2 and 0 <= ccs < 1, without the
 *       rules below (see their comments).
 *
 * The first two return ~= ccs * exp(-x) * 2^63 and agree on every input.
 * Inputs in the domain are converted exactly as the reference does,
 * z = 2 * trunc(x * 2^63) and w = 2 * trunc(ccs * 2^63) (Q0.64), so a
 * kernel that reproduces the reference polynomial reproduces its outputs.
 * Proven bound: FALCON_X86_FPR_EXPM_P63_ERR_BOUND units of 2^-63 (that of
 * falcon_x86_expm_p63).
 *
 * Outside the domain (all defined, no undefined behaviour):
 *   - x < 0 (including -0 and -inf) is treated as x = 0;
 *   - x above the largest double below ln 2 (range reduction in double can
 *     give r slightly above ln 2), and +inf, are clamped to that double;
 *   - x NaN is treated as 0; ccs NaN or ccs <= 0 gives 0;
 *   - ccs >= 1 (including +inf) is treated as exactly 1: the result is then
 *     U_0 moved to scale 2^63, ~= exp(-x) * 2^63 (the reference returns 0
 *     for ccs == 1.0, because 2^63 overflows its signed truncation).
 */

/* Proven bound of every adaptor below: |result - ccs exp(-x) 2^63| in
 * units of 2^-63, for x and ccs in the domain (gen/proof/ and
 * docs/error-model.md of fxp-kernels). */
#define FALCON_X86_FPR_EXPM_P63_ERR_BOUND 0.801803

/* The bits of the largest double below ln 2, 0.69314718055994528623. */
#define FALCON_X86_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
/* 2 * trunc(LN2_DOWN * 2^63): the z every clamped x maps to. */
#define FALCON_X86_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
/* The bits of the largest double below 1. */
#define FALCON_X86_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

/*
 * 2 * trunc(v * 2^63) for 0 <= v < 1, from v's bits, without a branch.
 * Write v = m * 2^(e - 1085) with m the significand (implicit bit included)
 * aligned so that its top bit is bit 62; v * 2^63 = m * 2^(e - 1022), so
 * the truncation is m >> (1022 - e).  Shifts of 64 or more must give 0:
 * the shift count is reduced modulo 64 and the result masked, as the
 * reference does.  Inputs with e > 1022 (v >= 1) give 0 here; callers mask
 * them.
 */
static inline uint64_t falcon_x86_fpr_to_q64(uint64_t bits)
{
    uint32_t e = (uint32_t)(bits >> 52) & 0x7FF;
    uint64_t m = ((bits << 10) | ((uint64_t)1 << 62)) & (((uint64_t)1 << 63) - 1);
    uint64_t s = (uint64_t)(uint32_t)(1022u - e);
    uint64_t keep = (uint64_t)0 - ((s - 64) >> 63);  /* all ones iff s < 64 */
    return ((m >> (s & 63)) & keep) << 1;
}

/* The result for ccs == 1: 2^63 - round(U / 2^65) (U ~= (1 - f) 2^128). */
static inline uint64_t falcon_x86_core_to_p63(falcon_x86_fxp_wide u)
{
    return ((uint64_t)1 << 63) - falcon_x86_fxp_wide_round_shr(u, 65);
}

/* The shared tail of both adaptors; c_one is all ones when ccs >= 1. */
static inline uint64_t falcon_x86_expm_p63_sat(uint64_t z, uint64_t w, uint64_t c_one)
{
    falcon_x86_fxp_wide u = falcon_x86_core(z);
    uint64_t r = falcon_x86_expm_p63_core(u, w & ~c_one);
    return (r & ~c_one) | (falcon_x86_core_to_p63(u) & c_one);
}

static inline uint64_t falcon_x86_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    /* Each mask is all ones or zero, from the top bit of a difference of
     * 63-bit quantities (which cannot wrap past the top bit). */
    uint64_t x_nan = (uint64_t)0 - ((inf_bits - (x_bits & abs_mask)) >> 63);
    uint64_t x_neg = (uint64_t)0 - (x_bits >> 63);
    uint64_t x_big = (uint64_t)0 - ((FALCON_X86_LN2_DOWN_BITS - (x_bits & abs_mask)) >> 63);
    uint64_t c_nan = (uint64_t)0 - ((inf_bits - (ccs_bits & abs_mask)) >> 63);
    uint64_t c_neg = (uint64_t)0 - (ccs_bits >> 63);
    uint64_t c_one = (uint64_t)0 - ((FALCON_X86_ONE_DOWN_BITS - (ccs_bits & abs_mask)) >> 63);
    uint64_t z = falcon_x86_fpr_to_q64(x_bits);
    uint64_t w = falcon_x86_fpr_to_q64(ccs_bits);
    z = (z & ~x_big) | (FALCON_X86_Z_CLAMP & x_big);
    z &= ~(x_neg | x_nan);
    w &= ~(c_neg | c_nan);
    c_one &= ~(c_neg | c_nan);
    return falcon_x86_expm_p63_sat(z, w, c_one);
}

/*
 * Native-float adaptor.  The inputs' bit patterns go through the integer
 * adaptor above, so the result is bit-identical to falcon_x86_fpr_expm_p63
 * on every input, by construction.
 * Two simpler-looking alternatives are worse: a clamp written as
 * `x > 0.0 ? x : 0.0` compiles to a compare-and-jump on the secret (gcc 12
 * at -O2 does), and clamping the bits and then converting with a cast
 * through int64_t (CVTTSD2SI) puts two register moves, a multiply and the
 * conversion on the critical path, where the integer conversion needs a
 * move and a few single-cycle operations.
 */
static inline uint64_t falcon_x86_fpr_expm_p63_native(double x, double ccs)
{
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return falcon_x86_fpr_expm_p63(x_bits, c_bits);
}

/*
 * The Falcon-domain adaptors keep Falcon's own contract for fpr_expm_p63:
 * 0 <= x < ln 2 and 0 <= ccs < 1 (what its sampler passes), and its native
 * conversions z = 2 * trunc(x * 2^63), w = 2 * trunc(ccs * 2^63) (one
 * multiplication by 2^63, exact, and one CVTTSD2SI each, like the
 * reference).  On that domain they return exactly what
 * falcon_x86_fpr_expm_p63_native returns (tested), with the same proven
 * bound, and skip the edge rules above.  Outside it the result is
 * unspecified but the call stays defined and reads only the table (the
 * kernel's core keeps every index inside it).
 * This is the conversion: on x86-64 the SSE2 intrinsic, which returns 2^63
 * for out-of-range and NaN inputs (where a C cast would be undefined), and
 * elsewhere the integer conversion of the bits.  No branch and no
 * secret-dependent address.
 */
static inline uint64_t falcon_x86_domain_q64(double v)
{
#if defined(__x86_64__) && defined(__SSE2__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(v * 9223372036854775808.0)) << 1;
#else
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return falcon_x86_fpr_to_q64(bits);
#endif
}

static inline uint64_t falcon_x86_fpr_expm_p63_domain(double x, double ccs)
{
    /* No clamp here: falcon_x86_core keeps every z inside the table. */
    return falcon_x86_expm_p63(falcon_x86_domain_q64(x), falcon_x86_domain_q64(ccs));
}

/* The Falcon-domain adaptor for emulated-float builds: the same function on
 * the inputs' IEEE-754 bit patterns (see falcon_x86_fpr_expm_p63_domain). */
static inline uint64_t falcon_x86_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_fpr_expm_p63_domain(x, ccs);
}


#endif /* FALCON_X86_H */

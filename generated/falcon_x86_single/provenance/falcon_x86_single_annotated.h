/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86_single.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_x86_single.toml (sha256 da36beadd388f3379315bd00e31452a9049d926e7e1aa86e3ff8096b8e87102e); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86_single.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 13, max_abs_error_log2 = -63.0,
 *     form = "head", float_tail = 7, exact_head = 3, fma = true, conversion_remainder = true
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |falcon_x86_single_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 0.857680 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: One degree-13 polynomial, Horner, form head: faithful like-for-like FACCT replacement
 *
 * Parameters:
 *   name = "falcon_x86_single"
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
 *   max_abs_error_log2 = -63.0
 *   table_access = "direct"
 *   evaluation = "horner"
 *   form = "head"
 *   reoptimize = true
 *   wide = false
 *   float_tail = 7
 *   exact_head = 3
 *   fma = true
 *   conversion_remainder = true
 *
 * Computed:
 *   inputs z = 0x0 .. 0xb17217f7d1cf79ab (Q0.64); one polynomial of degree 13
 *   exact head 1 - x + x^2/2; middle x^3..x^6 at 2^66; binary64 tail x^7..x^13 with FMA; parts added in units of 2^-4
 *   real-coefficient minimax error: 6.5557e-22
 *   proven p - f of the quantized polynomial: [-6.5190e-22, 3.1627e-21]
 *   centring bias: 0.125 units; accumulator offset 2 units
 *   proven bound of _eval: 0.869057 units of 2^-63
 *   proven bound of _expm_p63: 0.945995 units of 2^-63
 *   proven bound of the Falcon adaptors (against the doubles passed): 0.857680 units of 2^-63
 *   (bounds: gen/proof/head.py and docs/error-model.md of fxp-kernels; the binary64 part's
 *   claims, re-proven by Gappa with certify/gappa_head.py: falcon_x86_single.json)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FALCON_X86_SINGLE_CONTENT_HASH) && FALCON_X86_SINGLE_CONTENT_HASH != 0x25a75d2584715550u
#error "falcon_x86_single.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_SINGLE_H
#define FALCON_X86_SINGLE_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define FALCON_X86_SINGLE_CONTENT_HASH 0x25a75d2584715550u

/**
 * falcon_x86_single_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1 (unspecified but defined outside it).  The bound holds against the
 * doubles passed: what converting them to fixed point drops is carried into the result.
 * falcon_x86_single_eval(z) ~= f(z / 2^64) 2^63, falcon_x86_single_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; z must not exceed FALCON_X86_SINGLE_Z_MAX.
 * Needs a 64-bit GCC or Clang (unsigned __int128) and, on x86-64, FMA: build with -mfma or
 * -march=x86-64-v3 (a compile-time error otherwise).
 * Constant time: no branch, table or division; 64x64->128 products (MUL/MULX) and binary64 operations
 * on operands that are never subnormal (proven; inputs below 2^-900 for x, 2^-64 for ccs count as 0),
 * which take a fixed time on x86-64.  Binary64 rounding to nearest, no -ffast-math.
 */

/*
 * Fixed-point helpers: the part of runtime/fxp.h this kernel uses, with
 * the prefix fxp_ of every name replaced by falcon_x86_single_fxp_ (so two
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
static inline uint64_t falcon_x86_single_fxp_mul16_32x32(uint32_t x, uint32_t y)
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
static inline void falcon_x86_single_fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = falcon_x86_single_fxp_mul16_32x32(a0, b0);
    uint64_t q10 = falcon_x86_single_fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + falcon_x86_single_fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = falcon_x86_single_fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}

/* floor(a * b / 2^64), from four 32x32->64 partial products.  Exact: the
 * middle sum below cannot overflow because each term is < 2^64 - 2^33 + 1
 * and we add at most two 32-bit halves to it. */
static inline uint64_t falcon_x86_single_fxp_mulhi64_portable(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* __extension__ keeps -Wpedantic quiet: unsigned __int128 is a GNU type. */
__extension__ typedef unsigned __int128 falcon_x86_single_fxp_u128;
#endif

#if defined(FXP_MUL16)
/* floor(a * b / 2^64) from 16x16->32 products (see falcon_x86_single_fxp_mul16_64x64); the
 * low word is computed but unused, and the compiler drops it. */
static inline uint64_t falcon_x86_single_fxp_mulhi64(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    falcon_x86_single_fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* floor(a * b / 2^64) with the compiler's 128-bit product (one MUL on
 * x86-64).  Bit-identical to falcon_x86_single_fxp_mulhi64_portable. */
static inline uint64_t falcon_x86_single_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((falcon_x86_single_fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t falcon_x86_single_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return falcon_x86_single_fxp_mulhi64_portable(a, b);
}
#endif


#include <string.h>

#if !defined(__SIZEOF_INT128__)
#error "falcon_x86_single: form head needs a compiler with unsigned __int128 (64-bit GCC or Clang)"
#endif
/*
 * The binary64 part fuses its multiply-adds (one rounding each, as the
 * proof assumes).  On x86-64 that needs the FMA instructions of
 * x86-64-v3: build with -mfma or -march=x86-64-v3.  Without them this is a
 * compile-time error, never a silently different result; render the
 * config with fma = false for a (proven) kernel without FMA.
 */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__FMA__)
#error "falcon_x86_single: its binary64 part uses FMA: build with -mfma or -march=x86-64-v3 (or render with fma = false)"
#endif
#if defined(__GNUC__)
#define FALCON_X86_SINGLE_FMA(a, b, c) __builtin_fma((a), (b), (c))
#else
#include <math.h>
#define FALCON_X86_SINGLE_FMA(a, b, c) fma((a), (b), (c))
#endif

/* Every function below is inlined into its caller (one call site in a
 * sampler): a call and its argument moves would cost more than the kernel's
 * own dependent chain saves. */
#if defined(__GNUC__)
#define FALCON_X86_SINGLE_INLINE static inline __attribute__((always_inline))
#else
#define FALCON_X86_SINGLE_INLINE static inline
#endif

/* falcon_x86_single_rounded(v) returns v, the product just computed, through an empty
 * asm statement: the compiler must then round the product on its own and
 * cannot contract it with the addition that reads it into one FMA (gcc
 * does so across statements by default once FMA is enabled), which would
 * change the last bit and leave the proof's model.  It emits no
 * instruction.  Other compilers are asked not to contract by the pragma. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
FALCON_X86_SINGLE_INLINE double falcon_x86_single_rounded(double v)
{
    __asm__("" : "+x"(v));
    return v;
}
#elif defined(__GNUC__) && defined(__aarch64__)
FALCON_X86_SINGLE_INLINE double falcon_x86_single_rounded(double v)
{
    __asm__("" : "+w"(v));
    return v;
}
#else
#pragma STDC FP_CONTRACT OFF
FALCON_X86_SINGLE_INLINE double falcon_x86_single_rounded(double v)
{
    return v;
}
#endif

#define FALCON_X86_SINGLE_SCALE_BITS 63
#define FALCON_X86_SINGLE_SEGMENTS 1
#define FALCON_X86_SINGLE_DEGREE 13
#define FALCON_X86_SINGLE_WORD_BITS 64
#define FALCON_X86_SINGLE_TABLE_BYTES 0
/* Last valid input: z_max = floor(x_max * 2^64). */
#define FALCON_X86_SINGLE_Z_MAX UINT64_C(0xb17217f7d1cf79ab)

/*
 * Proven error bounds (upper bounds, rounded up; gen/proof/head.py, the
 * derivation in docs/error-model.md):
 *   falcon_x86_single_eval:      |eval(z) - f(z / 2^64) 2^63| <= FALCON_X86_SINGLE_ERR_BOUND_ULP units of 2^-63
 *   falcon_x86_single_expm_p63:  |expm(z, w) - (w / 2^64) f(z / 2^64) 2^63| <= FALCON_X86_SINGLE_EXPM_P63_ERR_BOUND units of 2^-63
 */
#define FALCON_X86_SINGLE_ERR_BOUND_ULP 0.869057
#define FALCON_X86_SINGLE_EXPM_P63_ERR_BOUND 0.945995

/* The rounding constant 1.5 2^48 of the binary64 part (its bits): added to a
 * value below 2^47 in magnitude, it leaves that value rounded to units of
 * 2^-4 in the low bits of the sum, which the integer part then reads. */
#define FALCON_X86_SINGLE_ROUND_BITS UINT64_C(0x42F8000000000000)

/*
 * falcon_x86_single_kernel(z, C, v, c, e): C + 2 - floor(D + 2 + 1/2), with
 * D ~= C (1 - p(z / 2^64)) the accumulator, in units of the result:
 *
 *   z  the input x as Q0.64 (x' = z / 2^64);
 *   C  ccs 2^63 as an integer of [0, 2^63] (2^63 is ccs = 1);
 *   v  x as a binary64 value (read by the tail only);
 *   c  ccs 2^63 as a binary64 value (read by the tail only);
 *   e  422212465065984.0 plus the conversion corrections of the Falcon
 *      adaptors (the rounding constant and the centring bias 0.125).
 *
 * head:   D_head = C (x - x^2/2) 2^65 exactly, from z^2 (two words), 2 C z
 *         and C z^2 / 2^64;
 * middle: mid(x) = n_0 + n_1 x + ... at scale 2^66, every word the same
 *         scale (pairs in x, Horner's scheme in x^2 = zh), then
 *         E = C x^3 mid(x) 2^4 from cx = C x^3 2^2;
 * tail:   c v^7 tail(v) + e in binary64, its last operation rounding to
 *         units of 2^-4;
 * then D = D_head + (E + T) 2^61 in two words (units of 2^-65).
 * Every word's range is proven for every input of the domain and every C
 * (no step overflows; the accumulator offset by 2 units is never
 * negative).  Constant time: no branch, no table, no division; the 64x64
 * products (MUL/MULX), binary64 additions, multiplications and FMAs on
 * normal operands (proven: no subnormal operand or result) take a time
 * independent of their operands on x86-64.
 */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_kernel(uint64_t z, uint64_t C, double v, double c, double e)
{
    falcon_x86_single_fxp_u128 zz = (falcon_x86_single_fxp_u128)z * z;
    uint64_t zh = (uint64_t)(zz >> 64);                       /* x^2 2^64 */
    falcon_x86_single_fxp_u128 cz = (falcon_x86_single_fxp_u128)C * z;                             /* C x 2^64 */
    falcon_x86_single_fxp_u128 d = (cz << 1) - ((falcon_x86_single_fxp_u128)C * zh + falcon_x86_single_fxp_mulhi64(C, (uint64_t)zz));   /* C (x - x^2/2) 2^65 */
    uint64_t p0 = UINT64_C(0xaaaaaaaaaaaa941e);  /* |n0| 2^66 */
    uint64_t p1 = UINT64_C(0x2aaaaaaaaaa6efbf);  /* |n1| 2^66 */
    uint64_t p2 = UINT64_C(0x088888888846e1ab);  /* |n2| 2^66 */
    uint64_t p3 = UINT64_C(0x016c16c169926640);  /* |n3| 2^66 */
    uint64_t h2 = p2 - falcon_x86_single_fxp_mulhi64(z, p3);  /* accumulator 2 (Horner in x), 2^66 */
    uint64_t h1 = p1 - falcon_x86_single_fxp_mulhi64(z, h2);  /* accumulator 1 (Horner in x), 2^66 */
    uint64_t h0 = p0 - falcon_x86_single_fxp_mulhi64(z, h1);  /* accumulator 0 (Horner in x), 2^66 */
    uint64_t u = (uint64_t)(cz >> 63);                         /* C x 2 */
    uint64_t cx = (uint64_t)(((falcon_x86_single_fxp_u128)u * zh) >> 63);       /* C x^3 2^2 */
    uint64_t E = falcon_x86_single_fxp_mulhi64(cx, h0);                          /* C x^3 mid(x) 2^4 */
    double t5 = FALCON_X86_SINGLE_FMA(1.1550564336709781e-10, v, -2.0001420551325336e-09);  /* q5 */
    double t7 = FALCON_X86_SINGLE_FMA(t5, v, 2.4950010584008668e-08);  /* q4 */
    double t9 = FALCON_X86_SINGLE_FMA(t7, v, -2.754953209738658e-07);  /* q3 */
    double t11 = FALCON_X86_SINGLE_FMA(t9, v, 2.7556915405443342e-06);  /* q2 */
    double t13 = FALCON_X86_SINGLE_FMA(t11, v, -2.4801572878331526e-05);  /* q1 */
    double t15 = FALCON_X86_SINGLE_FMA(t13, v, 0.0001984126948894262);  /* q0 */
    double t16 = v * v;  /* v^2 */
    double t17 = t16 * t16;  /* v^4 */
    double t18 = c * t17;  /* c*v^4 */
    double t19 = t16 * v;  /* v^3 */
    double t20 = t18 * t19;  /* c*v^7 */
    double t21 = FALCON_X86_SINGLE_FMA(t20, t15, e);  /* t */
    uint64_t tb;
    memcpy(&tb, &t21, sizeof tb);
    uint64_t et = E + (tb - FALCON_X86_SINGLE_ROUND_BITS);              /* E + T, units of 2^-4, signed */
    d += (falcon_x86_single_fxp_u128)(__extension__ (__int128)(int64_t)et) << 61;
    return C + 2 - (((uint64_t)(d >> 64) + 5) >> 1);
}

/* x as a binary64 value from z: RN(z >> 1) 2^-63 (the signed conversion,
 * no branch); the tail reads it, and the proof counts its error. */
FALCON_X86_SINGLE_INLINE double falcon_x86_single_to_double(uint64_t z)
{
    return (double)(int64_t)(z >> 1) * 1.0842021724855044e-19;  /* 2^-63, exact */
}

/* falcon_x86_single_eval(z) ~= f(z / 2^64) 2^63: C = 2^63 (ccs = 1). */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_eval(uint64_t z)
{
    return falcon_x86_single_kernel(z, (uint64_t)1 << 63, falcon_x86_single_to_double(z), 9223372036854775808.0, 422212465065984.1);
}

/* falcon_x86_single_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63: C = floor(w / 2),
 * and the half unit of w it drops, rc = (w mod 2) / 2, carried into the
 * binary64 part as the Falcon adaptors carry ccs's remainder. */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_expm_p63(uint64_t z, uint64_t w)
{
    double x = falcon_x86_single_to_double(z), ccs = (double)(int64_t)(w >> 1);
    double rx = 0.0, rc = (double)(w & 1) * 0.5;
    double r8 = FALCON_X86_SINGLE_FMA(x, 0.5, -1.0);  /* x/2 - 1 */
    double r9 = FALCON_X86_SINGLE_FMA(r8, x, 1.0);  /* t3 */
    double r10 = falcon_x86_single_rounded(rc * r9);  /* rc*t3 */
    double r11 = 422212465065984.1 - r10;  /* M - rc*t3 */
    double r12 = FALCON_X86_SINGLE_FMA(ccs, rx, r11);  /* e */
    return falcon_x86_single_kernel(z, w >> 1, x, ccs, r12);
}

#if defined(__x86_64__)
#include <immintrin.h>
#else
#include <math.h>
#endif

/*
 * Falcon-facing adaptors: drop-in replacements for fpr_expm_p63(x, ccs),
 * which Falcon calls with 0 <= x < ln 2 and ccs in about [0.61, 1).
 *
 *   falcon_x86_single_fpr_expm_p63_domain(x, ccs) and _domain_bits(x_bits, ccs_bits):
 *       Falcon's own contract, 0 <= x < ln 2 and 0 <= ccs < 1;
 *   falcon_x86_single_fpr_expm_p63_native(x, ccs) and _fpr_expm_p63(x_bits, ccs_bits):
 *       every input defined, with the rules below;
 *
 * all ~= ccs * exp(-x) * 2^63, and all the same result on the domain.
 * Proven bound: FALCON_X86_SINGLE_FPR_EXPM_P63_ERR_BOUND units of 2^-63 for
 * |result - ccs exp(-x) 2^63|, x and ccs the doubles passed, conversions
 * included: x and ccs are converted as the reference does,
 * z = 2 trunc(x 2^63) and C = trunc(ccs 2^63), and what the truncations
 * drop (rx = x 2^63 - trunc(x 2^63), rc = ccs 2^63 - trunc(ccs 2^63)) is
 * carried into the binary64 part: e = RN(ccs rx + RN(M - rc t3(x))), with
 * t3(x) = 1 - x + x^2/2.
 * Below 2^-900 x is read as 0 and below 2^-64 ccs
 * (the ideal result is then below 1/2), by a mask on their bits, so that no
 * subnormal value reaches a floating-point operation (proven for every
 * operation of the kernel: gen/proof/head.py); the tail reads max(x, 2^-11).
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
 * units of 2^-63, x and ccs the doubles passed, in the domain, the
 * conversions included (gen/proof/ and docs/error-model.md of fxp-kernels). */
#define FALCON_X86_SINGLE_FPR_EXPM_P63_ERR_BOUND 0.857680

/* The bits of the largest double below ln 2, 0.69314718055994528623. */
#define FALCON_X86_SINGLE_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
/* 2 * trunc(LN2_DOWN * 2^63): the z every clamped x maps to. */
#define FALCON_X86_SINGLE_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
/* The bits of the largest double below 1. */
#define FALCON_X86_SINGLE_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

/* The bits of 2^-900 and 2^-64: below them x and ccs are read as 0. */
#define FALCON_X86_SINGLE_X_FLUSH_BITS INT64_C(0x07B0000000000000)
#define FALCON_X86_SINGLE_C_FLUSH_BITS INT64_C(0x3BF0000000000000)

/* v if its bits are at least min_bits as signed integers, else +0: so
 * negative values (sign bit set) and values below min become +0.  On x86-64
 * one integer compare and one AND on the vector register (no
 * floating-point operation sees v). */
FALCON_X86_SINGLE_INLINE double falcon_x86_single_flush(double v, int64_t min_bits)
{
#if defined(__x86_64__)
    __m128i b = _mm_castpd_si128(_mm_set1_pd(v));
    __m128i keep = _mm_cmpgt_epi64(b, _mm_set1_epi64x(min_bits - 1));
    return _mm_cvtsd_f64(_mm_castsi128_pd(_mm_and_si128(b, keep)));
#else
    int64_t b;
    memcpy(&b, &v, sizeof b);
    b &= -(int64_t)(b >= min_bits);
    memcpy(&v, &b, sizeof v);
    return v;
#endif
}

/* a > b ? a : b, and b when either is NaN (MAXSD); min likewise (MINSD).
 * On x86-64 they are written as the instructions themselves: GCC 12 turns
 * the conditional expression into a compare-and-jump when one side is a
 * constant it can specialise on, which would be a branch on the secret. */
FALCON_X86_SINGLE_INLINE double falcon_x86_single_max(double a, double b)
{
#if defined(__x86_64__) && defined(__GNUC__)
    double r;
    __asm__("vmaxsd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
#else
    return a > b ? a : b;
#endif
}

FALCON_X86_SINGLE_INLINE double falcon_x86_single_min(double a, double b)
{
#if defined(__x86_64__) && defined(__GNUC__)
    double r;
    __asm__("vminsd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
#else
    return a < b ? a : b;
#endif
}

/* trunc(v) for 0 <= v <= 2^63 as an integer (the truncating conversion;
 * 2^63 itself gives 2^63 on x86-64, where CVTTSD2SI returns 2^63 for every
 * out-of-range input). */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_to_word(double v)
{
#if defined(__x86_64__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(v));
#else
    return (uint64_t)v;
#endif
}

/* trunc(v) in binary64 (ROUNDSD on x86-64).  The empty asm hides v's
 * range from GCC 12, which otherwise calls the library's trunc for a value
 * it knows lies in [0, 2^63] (a call, and not constant-time). */
FALCON_X86_SINGLE_INLINE double falcon_x86_single_trunc(double v)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("" : "+x"(v));
#endif
    return __builtin_trunc(v);
}

/* The shared body: x and ccs flushed, in [0, ln 2) and [0, 1]. */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_adapt(double x, double ccs)
{
    double xs = x * 9223372036854775808.0, cs = ccs * 9223372036854775808.0;   /* exact */
    uint64_t X = falcon_x86_single_to_word(xs), C = falcon_x86_single_to_word(cs);
    double v = falcon_x86_single_max(x, 0.00048828125);
    double rx = xs - falcon_x86_single_trunc(xs), rc = cs - falcon_x86_single_trunc(cs);     /* exact */
    double r8 = FALCON_X86_SINGLE_FMA(x, 0.5, -1.0);  /* x/2 - 1 */
    double r9 = FALCON_X86_SINGLE_FMA(r8, x, 1.0);  /* t3 */
    double r10 = falcon_x86_single_rounded(rc * r9);  /* rc*t3 */
    double r11 = 422212465065984.1 - r10;  /* M - rc*t3 */
    double r12 = FALCON_X86_SINGLE_FMA(ccs, rx, r11);  /* e */
    return falcon_x86_single_kernel(X + X, C, v, cs, r12);
}

/* Falcon's own contract: 0 <= x < ln 2 and 0 <= ccs < 1 (what its sampler
 * passes); outside it the result is unspecified, the call still defined. */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_fpr_expm_p63_domain(double x, double ccs)
{
    return falcon_x86_single_adapt(falcon_x86_single_flush(x, FALCON_X86_SINGLE_X_FLUSH_BITS), falcon_x86_single_flush(ccs, FALCON_X86_SINGLE_C_FLUSH_BITS));
}

/* The same on the inputs' IEEE-754 bit patterns. */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_single_fpr_expm_p63_domain(x, ccs);
}

/* Every input defined: after the flush (negative values, -0 and tiny
 * values become +0), MAXSD and MINSD return their second operand for a
 * NaN: so NaN becomes 0, x is clamped to LN2_DOWN and ccs to 1. */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_fpr_expm_p63_native(double x, double ccs)
{
    double xf = falcon_x86_single_flush(x, FALCON_X86_SINGLE_X_FLUSH_BITS), cf = falcon_x86_single_flush(ccs, FALCON_X86_SINGLE_C_FLUSH_BITS);
    xf = falcon_x86_single_min(falcon_x86_single_max(xf, 0.0), 0.6931471805599453);
    cf = falcon_x86_single_min(falcon_x86_single_max(cf, 0.0), 1.0);
    return falcon_x86_single_adapt(xf, cf);
}

/* The emulated-float entry: the same on bit patterns. */
FALCON_X86_SINGLE_INLINE uint64_t falcon_x86_single_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_single_fpr_expm_p63_native(x, ccs);
}

#endif /* FALCON_X86_SINGLE_H */

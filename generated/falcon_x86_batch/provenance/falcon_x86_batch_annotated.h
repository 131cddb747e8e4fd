/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86_batch.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_x86_batch.toml (sha256 3e273d2df328bffd0507fc837630952f2b65331934ce3aad2641bc05d4fcdf80); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86_batch.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 13, max_abs_error_log2 = -63.0,
 *     evaluation = "estrin", form = "head", float_tail = 7, exact_head = 3, fma = true,
 *     conversion_remainder = true, batch = ["avx512", "avx2"]
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |falcon_x86_batch_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 0.876136 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: falcon_x86 plus its AVX-512 and AVX2 batch forms, bit-identical to the scalar adaptor
 *
 * Parameters:
 *   name = "falcon_x86_batch"
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
 *   evaluation = "estrin"
 *   form = "head"
 *   reoptimize = true
 *   wide = false
 *   float_tail = 7
 *   exact_head = 3
 *   fma = true
 *   conversion_remainder = true
 *   batch = ["avx512", "avx2"]
 *
 * Computed:
 *   inputs z = 0x0 .. 0xb17217f7d1cf79ab (Q0.64); one polynomial of degree 13
 *   exact head 1 - x + x^2/2; middle x^3..x^6 at 2^66; binary64 tail x^7..x^13 with FMA; parts added in units of 2^-4
 *   real-coefficient minimax error: 6.5557e-22
 *   proven p - f of the quantized polynomial: [-6.5190e-22, 3.1627e-21]
 *   centring bias: 0.125 units; accumulator offset 2 units
 *   proven bound of _eval: 0.887680 units of 2^-63
 *   proven bound of _expm_p63: 0.964624 units of 2^-63
 *   proven bound of the Falcon adaptors (against the doubles passed): 0.876136 units of 2^-63
 *   (bounds: gen/proof/head.py and docs/error-model.md of fxp-kernels; the binary64 part's
 *   claims, re-proven by Gappa with certify/gappa_head.py: falcon_x86_batch.json)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FALCON_X86_BATCH_CONTENT_HASH) && FALCON_X86_BATCH_CONTENT_HASH != 0xed1a35be4cb9344du
#error "falcon_x86_batch.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_BATCH_H
#define FALCON_X86_BATCH_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define FALCON_X86_BATCH_CONTENT_HASH 0xed1a35be4cb9344du

/**
 * falcon_x86_batch_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1 (unspecified but defined outside it).  The bound holds against the
 * doubles passed: what converting them to fixed point drops is carried into the result.
 * falcon_x86_batch_eval(z) ~= f(z / 2^64) 2^63, falcon_x86_batch_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; z must not exceed FALCON_X86_BATCH_Z_MAX.
 * Needs a 64-bit GCC or Clang (unsigned __int128) and, on x86-64, FMA: build with -mfma or
 * -march=x86-64-v3 (a compile-time error otherwise).
 * Constant time: no branch, table or division; 64x64->128 products (MUL/MULX) and binary64 operations
 * on operands that are never subnormal (proven; inputs below 2^-900 for x, 2^-64 for ccs count as 0),
 * which take a fixed time on x86-64.  Binary64 rounding to nearest, no -ffast-math.
 * Batch forms (avx512, avx2): falcon_x86_batch_fpr_expm_p63_batch(out, x, ccs, n) equals _native
 * element by element (run-time ISA choice, falcon_x86_batch_batch_isa() names it);
 * falcon_x86_batch_expm_p63_x8, falcon_x86_batch_expm_p63_x4 equal _domain lane by lane (see "Batch forms" below).
 */

/*
 * Fixed-point helpers: the part of runtime/fxp.h this kernel uses, with
 * the prefix fxp_ of every name replaced by falcon_x86_batch_fxp_ (so two
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
static inline uint64_t falcon_x86_batch_fxp_mul16_32x32(uint32_t x, uint32_t y)
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
static inline void falcon_x86_batch_fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = falcon_x86_batch_fxp_mul16_32x32(a0, b0);
    uint64_t q10 = falcon_x86_batch_fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + falcon_x86_batch_fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = falcon_x86_batch_fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}

/* floor(a * b / 2^64), from four 32x32->64 partial products.  Exact: the
 * middle sum below cannot overflow because each term is < 2^64 - 2^33 + 1
 * and we add at most two 32-bit halves to it. */
static inline uint64_t falcon_x86_batch_fxp_mulhi64_portable(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* __extension__ keeps -Wpedantic quiet: unsigned __int128 is a GNU type. */
__extension__ typedef unsigned __int128 falcon_x86_batch_fxp_u128;
#endif

#if defined(FXP_MUL16)
/* floor(a * b / 2^64) from 16x16->32 products (see falcon_x86_batch_fxp_mul16_64x64); the
 * low word is computed but unused, and the compiler drops it. */
static inline uint64_t falcon_x86_batch_fxp_mulhi64(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    falcon_x86_batch_fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* floor(a * b / 2^64) with the compiler's 128-bit product (one MUL on
 * x86-64).  Bit-identical to falcon_x86_batch_fxp_mulhi64_portable. */
static inline uint64_t falcon_x86_batch_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return (uint64_t)(((falcon_x86_batch_fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t falcon_x86_batch_fxp_mulhi64(uint64_t a, uint64_t b)
{
    return falcon_x86_batch_fxp_mulhi64_portable(a, b);
}
#endif


#include <string.h>

#if !defined(__SIZEOF_INT128__)
#error "falcon_x86_batch: form head needs a compiler with unsigned __int128 (64-bit GCC or Clang)"
#endif
/*
 * The binary64 part fuses its multiply-adds (one rounding each, as the
 * proof assumes).  On x86-64 that needs the FMA instructions of
 * x86-64-v3: build with -mfma or -march=x86-64-v3.  Without them this is a
 * compile-time error, never a silently different result; render the
 * config with fma = false for a (proven) kernel without FMA.
 */
#if (defined(__x86_64__) || defined(__i386__)) && !defined(__FMA__)
#error "falcon_x86_batch: its binary64 part uses FMA: build with -mfma or -march=x86-64-v3 (or render with fma = false)"
#endif
#if defined(__GNUC__)
#define FALCON_X86_BATCH_FMA(a, b, c) __builtin_fma((a), (b), (c))
#else
#include <math.h>
#define FALCON_X86_BATCH_FMA(a, b, c) fma((a), (b), (c))
#endif

/* Every function below is inlined into its caller (one call site in a
 * sampler): a call and its argument moves would cost more than the kernel's
 * own dependent chain saves. */
#if defined(__GNUC__)
#define FALCON_X86_BATCH_INLINE static inline __attribute__((always_inline))
#else
#define FALCON_X86_BATCH_INLINE static inline
#endif

/* falcon_x86_batch_rounded(v) returns v, the product just computed, through an empty
 * asm statement: the compiler must then round the product on its own and
 * cannot contract it with the addition that reads it into one FMA (gcc
 * does so across statements by default once FMA is enabled), which would
 * change the last bit and leave the proof's model.  It emits no
 * instruction.  Other compilers are asked not to contract by the pragma. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
FALCON_X86_BATCH_INLINE double falcon_x86_batch_rounded(double v)
{
    __asm__("" : "+x"(v));
    return v;
}
#elif defined(__GNUC__) && defined(__aarch64__)
FALCON_X86_BATCH_INLINE double falcon_x86_batch_rounded(double v)
{
    __asm__("" : "+w"(v));
    return v;
}
#else
#pragma STDC FP_CONTRACT OFF
FALCON_X86_BATCH_INLINE double falcon_x86_batch_rounded(double v)
{
    return v;
}
#endif

#define FALCON_X86_BATCH_SCALE_BITS 63
#define FALCON_X86_BATCH_SEGMENTS 1
#define FALCON_X86_BATCH_DEGREE 13
#define FALCON_X86_BATCH_WORD_BITS 64
#define FALCON_X86_BATCH_TABLE_BYTES 0
/* Last valid input: z_max = floor(x_max * 2^64). */
#define FALCON_X86_BATCH_Z_MAX UINT64_C(0xb17217f7d1cf79ab)

/*
 * Proven error bounds (upper bounds, rounded up; gen/proof/head.py, the
 * derivation in docs/error-model.md):
 *   falcon_x86_batch_eval:      |eval(z) - f(z / 2^64) 2^63| <= FALCON_X86_BATCH_ERR_BOUND_ULP units of 2^-63
 *   falcon_x86_batch_expm_p63:  |expm(z, w) - (w / 2^64) f(z / 2^64) 2^63| <= FALCON_X86_BATCH_EXPM_P63_ERR_BOUND units of 2^-63
 */
#define FALCON_X86_BATCH_ERR_BOUND_ULP 0.887680
#define FALCON_X86_BATCH_EXPM_P63_ERR_BOUND 0.964624

/* The rounding constant 1.5 2^48 of the binary64 part (its bits): added to a
 * value below 2^47 in magnitude, it leaves that value rounded to units of
 * 2^-4 in the low bits of the sum, which the integer part then reads. */
#define FALCON_X86_BATCH_ROUND_BITS UINT64_C(0x42F8000000000000)

/*
 * falcon_x86_batch_kernel(z, C, v, c, e): C + 2 - floor(D + 2 + 1/2), with
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
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_kernel(uint64_t z, uint64_t C, double v, double c, double e)
{
    falcon_x86_batch_fxp_u128 zz = (falcon_x86_batch_fxp_u128)z * z;
    uint64_t zh = (uint64_t)(zz >> 64);                       /* x^2 2^64 */
    falcon_x86_batch_fxp_u128 cz = (falcon_x86_batch_fxp_u128)C * z;                             /* C x 2^64 */
    falcon_x86_batch_fxp_u128 d = (cz << 1) - ((falcon_x86_batch_fxp_u128)C * zh + falcon_x86_batch_fxp_mulhi64(C, (uint64_t)zz));   /* C (x - x^2/2) 2^65 */
    uint64_t p0 = UINT64_C(0xaaaaaaaaaaaa941e) - falcon_x86_batch_fxp_mulhi64(z, UINT64_C(0x2aaaaaaaaaa6efbf));  /* |n0 + n1 x| 2^66 */
    uint64_t p1 = UINT64_C(0x088888888846e1ab) - falcon_x86_batch_fxp_mulhi64(z, UINT64_C(0x016c16c169926640));  /* |n2 + n3 x| 2^66 */
    uint64_t h0 = p0 + falcon_x86_batch_fxp_mulhi64(zh, p1);  /* accumulator 0 (Horner in x^2), 2^66 */
    uint64_t u = (uint64_t)(cz >> 63);                         /* C x 2 */
    uint64_t cx = (uint64_t)(((falcon_x86_batch_fxp_u128)u * zh) >> 63);       /* C x^3 2^2 */
    uint64_t E = falcon_x86_batch_fxp_mulhi64(cx, h0);                          /* C x^3 mid(x) 2^4 */
    double t5 = FALCON_X86_BATCH_FMA(-2.4801572878331526e-05, v, 0.0001984126948894262);  /* q0_1 */
    double t8 = FALCON_X86_BATCH_FMA(-2.754953209738658e-07, v, 2.7556915405443342e-06);  /* q2_3 */
    double t11 = FALCON_X86_BATCH_FMA(-2.0001420551325336e-09, v, 2.4950010584008668e-08);  /* q4_5 */
    double t13 = v * v;  /* v^2 */
    double t14 = FALCON_X86_BATCH_FMA(t8, t13, t5);  /* q2_0 */
    double t15 = FALCON_X86_BATCH_FMA(1.1550564336709781e-10, t13, t11);  /* q2_1 */
    double t16 = t13 * t13;  /* v^4 */
    double t17 = FALCON_X86_BATCH_FMA(t15, t16, t14);  /* q4_0 */
    double t18 = c * t16;  /* c*v^4 */
    double t19 = t13 * v;  /* v^3 */
    double t20 = t18 * t19;  /* c*v^7 */
    double t21 = FALCON_X86_BATCH_FMA(t20, t17, e);  /* t */
    uint64_t tb;
    memcpy(&tb, &t21, sizeof tb);
    uint64_t et = E + (tb - FALCON_X86_BATCH_ROUND_BITS);              /* E + T, units of 2^-4, signed */
    d += (falcon_x86_batch_fxp_u128)(__extension__ (__int128)(int64_t)et) << 61;
    return C + 2 - (((uint64_t)(d >> 64) + 5) >> 1);
}

/* x as a binary64 value from z: RN(z >> 1) 2^-63 (the signed conversion,
 * no branch); the tail reads it, and the proof counts its error. */
FALCON_X86_BATCH_INLINE double falcon_x86_batch_to_double(uint64_t z)
{
    return (double)(int64_t)(z >> 1) * 1.0842021724855044e-19;  /* 2^-63, exact */
}

/* falcon_x86_batch_eval(z) ~= f(z / 2^64) 2^63: C = 2^63 (ccs = 1). */
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_eval(uint64_t z)
{
    return falcon_x86_batch_kernel(z, (uint64_t)1 << 63, falcon_x86_batch_to_double(z), 9223372036854775808.0, 422212465065984.1);
}

/* falcon_x86_batch_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63: C = floor(w / 2),
 * and the half unit of w it drops, rc = (w mod 2) / 2, carried into the
 * binary64 part as the Falcon adaptors carry ccs's remainder. */
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_expm_p63(uint64_t z, uint64_t w)
{
    double x = falcon_x86_batch_to_double(z), ccs = (double)(int64_t)(w >> 1);
    double rx = 0.0, rc = (double)(w & 1) * 0.5;
    double r8 = FALCON_X86_BATCH_FMA(x, 0.5, -1.0);  /* x/2 - 1 */
    double r9 = FALCON_X86_BATCH_FMA(r8, x, 1.0);  /* t3 */
    double r10 = falcon_x86_batch_rounded(rc * r9);  /* rc*t3 */
    double r11 = 422212465065984.1 - r10;  /* M - rc*t3 */
    double r12 = FALCON_X86_BATCH_FMA(ccs, rx, r11);  /* e */
    return falcon_x86_batch_kernel(z, w >> 1, x, ccs, r12);
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
 *   falcon_x86_batch_fpr_expm_p63_domain(x, ccs) and _domain_bits(x_bits, ccs_bits):
 *       Falcon's own contract, 0 <= x < ln 2 and 0 <= ccs < 1;
 *   falcon_x86_batch_fpr_expm_p63_native(x, ccs) and _fpr_expm_p63(x_bits, ccs_bits):
 *       every input defined, with the rules below;
 *
 * all ~= ccs * exp(-x) * 2^63, and all the same result on the domain.
 * Proven bound: FALCON_X86_BATCH_FPR_EXPM_P63_ERR_BOUND units of 2^-63 for
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
#define FALCON_X86_BATCH_FPR_EXPM_P63_ERR_BOUND 0.876136

/* The bits of the largest double below ln 2, 0.69314718055994528623. */
#define FALCON_X86_BATCH_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
/* 2 * trunc(LN2_DOWN * 2^63): the z every clamped x maps to. */
#define FALCON_X86_BATCH_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
/* The bits of the largest double below 1. */
#define FALCON_X86_BATCH_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

/* The bits of 2^-900 and 2^-64: below them x and ccs are read as 0. */
#define FALCON_X86_BATCH_X_FLUSH_BITS INT64_C(0x07B0000000000000)
#define FALCON_X86_BATCH_C_FLUSH_BITS INT64_C(0x3BF0000000000000)

/* v if its bits are at least min_bits as signed integers, else +0: so
 * negative values (sign bit set) and values below min become +0.  On x86-64
 * one integer compare and one AND on the vector register (no
 * floating-point operation sees v). */
FALCON_X86_BATCH_INLINE double falcon_x86_batch_flush(double v, int64_t min_bits)
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
FALCON_X86_BATCH_INLINE double falcon_x86_batch_max(double a, double b)
{
#if defined(__x86_64__) && defined(__GNUC__)
    double r;
    __asm__("vmaxsd %2, %1, %0" : "=x"(r) : "x"(a), "x"(b));
    return r;
#else
    return a > b ? a : b;
#endif
}

FALCON_X86_BATCH_INLINE double falcon_x86_batch_min(double a, double b)
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
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_to_word(double v)
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
FALCON_X86_BATCH_INLINE double falcon_x86_batch_trunc(double v)
{
#if defined(__x86_64__) && defined(__GNUC__)
    __asm__("" : "+x"(v));
#endif
    return __builtin_trunc(v);
}

/* The shared body: x and ccs flushed, in [0, ln 2) and [0, 1]. */
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_adapt(double x, double ccs)
{
    double xs = x * 9223372036854775808.0, cs = ccs * 9223372036854775808.0;   /* exact */
    uint64_t X = falcon_x86_batch_to_word(xs), C = falcon_x86_batch_to_word(cs);
    double v = falcon_x86_batch_max(x, 0.00048828125);
    double rx = xs - falcon_x86_batch_trunc(xs), rc = cs - falcon_x86_batch_trunc(cs);     /* exact */
    double r8 = FALCON_X86_BATCH_FMA(x, 0.5, -1.0);  /* x/2 - 1 */
    double r9 = FALCON_X86_BATCH_FMA(r8, x, 1.0);  /* t3 */
    double r10 = falcon_x86_batch_rounded(rc * r9);  /* rc*t3 */
    double r11 = 422212465065984.1 - r10;  /* M - rc*t3 */
    double r12 = FALCON_X86_BATCH_FMA(ccs, rx, r11);  /* e */
    return falcon_x86_batch_kernel(X + X, C, v, cs, r12);
}

/* Falcon's own contract: 0 <= x < ln 2 and 0 <= ccs < 1 (what its sampler
 * passes); outside it the result is unspecified, the call still defined. */
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_fpr_expm_p63_domain(double x, double ccs)
{
    return falcon_x86_batch_adapt(falcon_x86_batch_flush(x, FALCON_X86_BATCH_X_FLUSH_BITS), falcon_x86_batch_flush(ccs, FALCON_X86_BATCH_C_FLUSH_BITS));
}

/* The same on the inputs' IEEE-754 bit patterns. */
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_batch_fpr_expm_p63_domain(x, ccs);
}

/* Every input defined: after the flush (negative values, -0 and tiny
 * values become +0), MAXSD and MINSD return their second operand for a
 * NaN: so NaN becomes 0, x is clamped to LN2_DOWN and ccs to 1. */
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_fpr_expm_p63_native(double x, double ccs)
{
    double xf = falcon_x86_batch_flush(x, FALCON_X86_BATCH_X_FLUSH_BITS), cf = falcon_x86_batch_flush(ccs, FALCON_X86_BATCH_C_FLUSH_BITS);
    xf = falcon_x86_batch_min(falcon_x86_batch_max(xf, 0.0), 0.6931471805599453);
    cf = falcon_x86_batch_min(falcon_x86_batch_max(cf, 0.0), 1.0);
    return falcon_x86_batch_adapt(xf, cf);
}

/* The emulated-float entry: the same on bit patterns. */
FALCON_X86_BATCH_INLINE uint64_t falcon_x86_batch_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_batch_fpr_expm_p63_native(x, ccs);
}

#include <stddef.h>
/**
 * Batch forms (config key batch; docs/abi.md, "Batch ABI").
 *
 *   falcon_x86_batch_fpr_expm_p63_batch(out, x, ccs, n): out[i] = falcon_x86_batch_fpr_expm_p63_native(x[i], ccs[i])
 *       for i < n, bit for bit, on the best instruction set this CPU has
 *       (falcon_x86_batch_batch_isa() names it), the scalar adaptor otherwise;
 *       the pointers need no alignment;
 *   falcon_x86_batch_expm_p63_x8(x, ccs): falcon_x86_batch_fpr_expm_p63_domain lane by lane (__m512d in,
 *       __m512i out; Falcon's contract, 0 <= x < ln 2 and 0 <= ccs < 1), and
 *       falcon_x86_batch_fpr_expm_p63_native_x8(x, ccs) the same with every edge rule;
 *   falcon_x86_batch_expm_p63_x4(x, ccs): falcon_x86_batch_fpr_expm_p63_domain lane by lane (__m256d in,
 *       __m256i out; Falcon's contract, 0 <= x < ln 2 and 0 <= ccs < 1), and
 *       falcon_x86_batch_fpr_expm_p63_native_x4(x, ccs) the same with every edge rule;
 *
 * Why the outputs are identical: the SIMD code is the scalar code with each
 * operation replaced by one computing the same function lane by lane.  Its
 * binary64 operations are the scalar ones in the same order, written from
 * the same operation lists by the generator (packed multiply, add,
 * subtract and FMA round to nearest once each, exactly as the scalar
 * instructions; the products the scalar code keeps out of FMA contraction
 * pass through an empty asm here too).  Its 64x64 -> 128-bit products are
 * four exact 32x32 -> 64-bit products (VPMULUDQ) summed with explicit
 * carries: the integer product bit for bit.  Its 128-bit additions carry
 * explicitly; its conversions truncate as CVTTSD2SI does on [0, 2^63]
 * (2^63 included: it gives 2^63 in both); its flush, clamps and NaN rules
 * are the same compare-and-mask, MAXPD and MINPD (which return the second
 * operand on NaN, as MAXSD and MINSD do).  The proven bound of the scalar
 * adaptors therefore holds for every lane.  tests/test_batch.py compares
 * the two bit for bit.
 *
 * Each instruction set is enabled per function (target attributes), so the
 * including file needs no -mavx512f: the array entry checks the CPU
 * (__builtin_cpu_supports) before it runs a SIMD path.  Define
 * FALCON_X86_BATCH_BATCH_FORCE to FALCON_X86_BATCH_BATCH_PATH_SCALAR, FALCON_X86_BATCH_BATCH_PATH_AVX512, FALCON_X86_BATCH_BATCH_PATH_AVX2
 * to pick a path without looking (tests; the CPU must have it).
 *
 * Constant time: no branch, memory index or gather depends on x or ccs
 * (the loops branch on n only); VPMULUDQ and the packed binary64
 * operations on normal operands take a time independent of their operands
 * on x86-64 (the same argument as the scalar kernel; docs/constant-time.md).
 */
#define FALCON_X86_BATCH_BATCH_PATH_SCALAR 0
#define FALCON_X86_BATCH_BATCH_PATH_AVX512 8
#define FALCON_X86_BATCH_BATCH_PATH_AVX2 4

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define FALCON_X86_BATCH_BATCH_SIMD 1

/* ---- avx512: 8 lanes of 64 bits ---- */

#define FALCON_X86_BATCH_X8_ATTR static inline __attribute__((always_inline, target("avx512f,avx512dq")))

FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_word(uint64_t w)
{
    return _mm512_set1_epi64((long long)w);
}

FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_add(__m512i a, __m512i b)
{
    return _mm512_add_epi64(a, b);
}

FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_sub(__m512i a, __m512i b)
{
    return _mm512_sub_epi64(a, b);
}

/* x + 1 in the lanes where a < b as unsigned words (the carry out of an
 * addition s = a' + b is s < b), x elsewhere; _sub_below: x - 1 there (a
 * borrow of a - b). */
FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_add_below(__m512i x, __m512i a, __m512i b)
{
    return _mm512_mask_sub_epi64(x, _mm512_cmplt_epu64_mask(a, b), x, _mm512_set1_epi64(-1));
}

FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_sub_below(__m512i x, __m512i a, __m512i b)
{
    return _mm512_mask_add_epi64(x, _mm512_cmplt_epu64_mask(a, b), x, _mm512_set1_epi64(-1));
}

/* The high 32 bits of each lane moved to its low half, for VPMULUDQ (which
 * reads only the low half): a shuffle, so the shift units stay free. */
FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_high32(__m512i a)
{
    return _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0xB1);
}

/* The full product a b = hi 2^64 + lo of 64-bit lanes, as the scalar
 * (unsigned __int128) product: from the four 32x32 -> 64-bit products
 * (VPMULUDQ reads the low 32 bits of each lane), each exact.
 *   t = a1 b0 + (a0 b0 >> 32)         < 2^64 (at most (2^32-1)^2 + 2^32-1)
 *   u = a0 b1 + (t mod 2^32)          < 2^64 likewise
 *   a b = (a1 b1 + (t >> 32) + (u >> 32)) 2^64 + (u mod 2^32) 2^32 + (a0 b0 mod 2^32). */
FALCON_X86_BATCH_X8_ATTR void falcon_x86_batch_x8_mul(__m512i a, __m512i b, __m512i *hi, __m512i *lo)
{
    __m512i low32 = falcon_x86_batch_x8_word(UINT64_C(0xFFFFFFFF));
    __m512i a1 = falcon_x86_batch_x8_high32(a), b1 = falcon_x86_batch_x8_high32(b);
    __m512i ll = _mm512_mul_epu32(a, b), hl = _mm512_mul_epu32(a1, b);
    __m512i lh = _mm512_mul_epu32(a, b1), hh = _mm512_mul_epu32(a1, b1);
    __m512i t = _mm512_add_epi64(hl, _mm512_srli_epi64(ll, 32));
    __m512i u = _mm512_add_epi64(lh, _mm512_and_si512(t, low32));
    *hi = _mm512_add_epi64(_mm512_add_epi64(hh, _mm512_srli_epi64(t, 32)), _mm512_srli_epi64(u, 32));
    *lo = _mm512_mullo_epi64(a, b);     /* VPMULLQ: a b mod 2^64 */
}

/* floor(a b / 2^64): falcon_x86_batch_fxp_mulhi64 lane by lane. */
FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_mulhi(__m512i a, __m512i b)
{
    __m512i low32 = falcon_x86_batch_x8_word(UINT64_C(0xFFFFFFFF));
    __m512i a1 = falcon_x86_batch_x8_high32(a), b1 = falcon_x86_batch_x8_high32(b);
    __m512i ll = _mm512_mul_epu32(a, b), hl = _mm512_mul_epu32(a1, b);
    __m512i lh = _mm512_mul_epu32(a, b1), hh = _mm512_mul_epu32(a1, b1);
    __m512i t = _mm512_add_epi64(hl, _mm512_srli_epi64(ll, 32));
    __m512i u = _mm512_add_epi64(lh, _mm512_and_si512(t, low32));
    return _mm512_add_epi64(_mm512_add_epi64(hh, _mm512_srli_epi64(t, 32)), _mm512_srli_epi64(u, 32));
}

/* falcon_x86_batch_rounded on a register: an empty asm, so that no compiler
 * contracts the product with the addition that reads it (GCC's packed
 * intrinsics are plain vector arithmetic, which it contracts like scalars). */
FALCON_X86_BATCH_X8_ATTR __m512d falcon_x86_batch_x8_rounded(__m512d v)
{
    __asm__("" : "+v"(v));
    return v;
}

/* falcon_x86_batch_kernel lane by lane (its comment has the formats and the
 * proof); D is kept as two words (dh, dl) with explicit carries. */
FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_kernel(__m512i z, __m512i C, __m512d v, __m512d c, __m512d e)
{
    __m512i zh, zl, czh, czl, ph, pl, qh, ql;
    falcon_x86_batch_x8_mul(z, z, &zh, &zl);                                /* zz = z^2: x^2 2^64 in zh */
    falcon_x86_batch_x8_mul(C, z, &czh, &czl);                              /* cz = C x 2^64 */
    falcon_x86_batch_x8_mul(C, zh, &ph, &pl);                               /* C zh */
    __m512i m = falcon_x86_batch_x8_mulhi(C, zl);                             /* falcon_x86_batch_fxp_mulhi64(C, (uint64_t)zz) */
    __m512i sl = falcon_x86_batch_x8_add(pl, m), sh = falcon_x86_batch_x8_add_below(ph, sl, m);
    __m512i c2h = _mm512_or_si512(_mm512_slli_epi64(czh, 1), _mm512_srli_epi64(czl, 63));   /* cz << 1 */
    __m512i c2l = _mm512_slli_epi64(czl, 1);
    __m512i dl = falcon_x86_batch_x8_sub(c2l, sl);                                /* d = (cz << 1) - (C zh + mulhi(C, zz)) */
    __m512i dh = falcon_x86_batch_x8_sub_below(falcon_x86_batch_x8_sub(c2h, sh), c2l, sl);
    __m512i p0 = falcon_x86_batch_x8_sub(falcon_x86_batch_x8_word(UINT64_C(0xaaaaaaaaaaaa941e)), falcon_x86_batch_x8_mulhi(z, falcon_x86_batch_x8_word(UINT64_C(0x2aaaaaaaaaa6efbf))));  /* |n0 + n1 x| 2^66 */
    __m512i p1 = falcon_x86_batch_x8_sub(falcon_x86_batch_x8_word(UINT64_C(0x088888888846e1ab)), falcon_x86_batch_x8_mulhi(z, falcon_x86_batch_x8_word(UINT64_C(0x016c16c169926640))));  /* |n2 + n3 x| 2^66 */
    __m512i h0 = falcon_x86_batch_x8_add(p0, falcon_x86_batch_x8_mulhi(zh, p1));  /* accumulator 0 (Horner in x^2), 2^66 */
    __m512i u = c2h;                                            /* (uint64_t)(cz >> 63) */
    falcon_x86_batch_x8_mul(u, zh, &qh, &ql);
    __m512i cx = _mm512_or_si512(_mm512_slli_epi64(qh, 1), _mm512_srli_epi64(ql, 63));   /* (u zh) >> 63 */
    __m512i E = falcon_x86_batch_x8_mulhi(cx, h0);
    __m512d t5 = _mm512_fmadd_pd(_mm512_set1_pd(-2.4801572878331526e-05), v, _mm512_set1_pd(0.0001984126948894262));  /* q0_1 */
    __m512d t8 = _mm512_fmadd_pd(_mm512_set1_pd(-2.754953209738658e-07), v, _mm512_set1_pd(2.7556915405443342e-06));  /* q2_3 */
    __m512d t11 = _mm512_fmadd_pd(_mm512_set1_pd(-2.0001420551325336e-09), v, _mm512_set1_pd(2.4950010584008668e-08));  /* q4_5 */
    __m512d t13 = _mm512_mul_pd(v, v);  /* v^2 */
    __m512d t14 = _mm512_fmadd_pd(t8, t13, t5);  /* q2_0 */
    __m512d t15 = _mm512_fmadd_pd(_mm512_set1_pd(1.1550564336709781e-10), t13, t11);  /* q2_1 */
    __m512d t16 = _mm512_mul_pd(t13, t13);  /* v^4 */
    __m512d t17 = _mm512_fmadd_pd(t15, t16, t14);  /* q4_0 */
    __m512d t18 = _mm512_mul_pd(c, t16);  /* c*v^4 */
    __m512d t19 = _mm512_mul_pd(t13, v);  /* v^3 */
    __m512d t20 = _mm512_mul_pd(t18, t19);  /* c*v^7 */
    __m512d t21 = _mm512_fmadd_pd(t20, t17, e);  /* t */
    __m512i tb = _mm512_castpd_si512(t21);
    __m512i et = falcon_x86_batch_x8_add(E, falcon_x86_batch_x8_sub(tb, falcon_x86_batch_x8_word(FALCON_X86_BATCH_ROUND_BITS)));
    /* d += (int128)(int64)et << 61: the low word gets et << 61, the high
     * word et >> 3 arithmetic, plus the carry. */
    __m512i al = _mm512_slli_epi64(et, 61);
    __m512i ah = _mm512_srai_epi64(et, 3);
    dl = falcon_x86_batch_x8_add(dl, al);
    dh = falcon_x86_batch_x8_add_below(falcon_x86_batch_x8_add(dh, ah), dl, al);
    __m512i r = _mm512_srli_epi64(falcon_x86_batch_x8_add(dh, falcon_x86_batch_x8_word(5)), 1);
    return falcon_x86_batch_x8_sub(falcon_x86_batch_x8_add(C, falcon_x86_batch_x8_word(2)), r);
}

/* falcon_x86_batch_flush lane by lane: the bits compared as signed words. */
FALCON_X86_BATCH_X8_ATTR __m512d falcon_x86_batch_x8_flush(__m512d v, int64_t min_bits)
{
    __m512i bits = _mm512_castpd_si512(v);
    __mmask8 keep = _mm512_cmpgt_epi64_mask(bits, _mm512_set1_epi64(min_bits - 1));
    return _mm512_castsi512_pd(_mm512_maskz_mov_epi64(keep, bits));
}

/* falcon_x86_batch_to_word lane by lane: trunc(v) for 0 <= v <= 2^63 (2^63
 * itself gives 2^63, as CVTTSD2SI). */
FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_to_word(__m512d v)
{
    return _mm512_cvttpd_epi64(v);      /* VCVTTPD2QQ: 2^63 gives 2^63 (the "indefinite" value) */
}

FALCON_X86_BATCH_X8_ATTR __m512d falcon_x86_batch_x8_trunc(__m512d v)
{
    return _mm512_roundscale_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
}

/* falcon_x86_batch_adapt lane by lane. */
FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_x8_adapt(__m512d x, __m512d ccs)
{
    __m512d p63 = _mm512_set1_pd(9223372036854775808.0);
    __m512d xs = _mm512_mul_pd(x, p63), cs = _mm512_mul_pd(ccs, p63);     /* exact */
    __m512i X = falcon_x86_batch_x8_to_word(xs), C = falcon_x86_batch_x8_to_word(cs);
    __m512d v = _mm512_max_pd(x, _mm512_set1_pd(0.00048828125));
    __m512d rx = _mm512_sub_pd(xs, falcon_x86_batch_x8_trunc(xs)), rc = _mm512_sub_pd(cs, falcon_x86_batch_x8_trunc(cs));  /* exact */
    __m512d r8 = _mm512_fmadd_pd(x, _mm512_set1_pd(0.5), _mm512_set1_pd(-1.0));  /* x/2 - 1 */
    __m512d r9 = _mm512_fmadd_pd(r8, x, _mm512_set1_pd(1.0));  /* t3 */
    __m512d r10 = falcon_x86_batch_x8_rounded(_mm512_mul_pd(rc, r9));  /* rc*t3 */
    __m512d r11 = _mm512_sub_pd(_mm512_set1_pd(422212465065984.1), r10);  /* M - rc*t3 */
    __m512d r12 = _mm512_fmadd_pd(ccs, rx, r11);  /* e */
    return falcon_x86_batch_x8_kernel(falcon_x86_batch_x8_add(X, X), C, v, cs, r12);
}

/* falcon_x86_batch_fpr_expm_p63_domain lane by lane: Falcon's contract. */
FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_expm_p63_x8(__m512d x, __m512d ccs)
{
    return falcon_x86_batch_x8_adapt(falcon_x86_batch_x8_flush(x, FALCON_X86_BATCH_X_FLUSH_BITS), falcon_x86_batch_x8_flush(ccs, FALCON_X86_BATCH_C_FLUSH_BITS));
}

/* falcon_x86_batch_fpr_expm_p63_native lane by lane: every input defined, by the
 * same flush, MAXPD and MINPD (NaN becomes 0; x clamped to LN2_DOWN, ccs to 1). */
FALCON_X86_BATCH_X8_ATTR __m512i falcon_x86_batch_fpr_expm_p63_native_x8(__m512d x, __m512d ccs)
{
    __m512d xf = falcon_x86_batch_x8_flush(x, FALCON_X86_BATCH_X_FLUSH_BITS), cf = falcon_x86_batch_x8_flush(ccs, FALCON_X86_BATCH_C_FLUSH_BITS);
    xf = _mm512_min_pd(_mm512_max_pd(xf, _mm512_setzero_pd()), _mm512_set1_pd(0.6931471805599453));
    cf = _mm512_min_pd(_mm512_max_pd(cf, _mm512_setzero_pd()), _mm512_set1_pd(1.0));
    return falcon_x86_batch_x8_adapt(xf, cf);
}

/* The array loop on avx512: whole registers, then the last n mod 8
 * elements by masked loads and stores (the masked-off lanes compute on
 * 0 and are not stored). */
static inline __attribute__((target("avx512f,avx512dq")))
void falcon_x86_batch_fpr_expm_p63_batch_avx512(uint64_t *out, const double *x, const double *ccs, size_t n)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i r = falcon_x86_batch_fpr_expm_p63_native_x8(_mm512_loadu_pd(x + i), _mm512_loadu_pd(ccs + i));
        _mm512_storeu_si512((__m512i *)(void *)(out + i), r);
    }
    if (i < n) {
        __mmask8 k = (__mmask8)((1u << (n - i)) - 1u);
        __m512i r = falcon_x86_batch_fpr_expm_p63_native_x8(_mm512_maskz_loadu_pd(k, x + i), _mm512_maskz_loadu_pd(k, ccs + i));
        _mm512_mask_storeu_epi64(out + i, k, r);
    }
}

/* ---- avx2: 4 lanes of 64 bits ---- */

#define FALCON_X86_BATCH_X4_ATTR static inline __attribute__((always_inline, target("avx2,fma")))

FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_word(uint64_t w)
{
    return _mm256_set1_epi64x((long long)w);
}

FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_add(__m256i a, __m256i b)
{
    return _mm256_add_epi64(a, b);
}

FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_sub(__m256i a, __m256i b)
{
    return _mm256_sub_epi64(a, b);
}

/* x + 1 in the lanes where a < b as unsigned words (the carry out of an
 * addition s = a' + b is s < b), x elsewhere; _sub_below: x - 1 there (a
 * borrow of a - b). */
FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_add_below(__m256i x, __m256i a, __m256i b)
{
    /* AVX2 compares signed words only: flipping both sign bits turns the
     * unsigned order into the signed one; the compare gives -1 where true. */
    __m256i s = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    return _mm256_sub_epi64(x, _mm256_cmpgt_epi64(_mm256_xor_si256(b, s), _mm256_xor_si256(a, s)));
}

FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_sub_below(__m256i x, __m256i a, __m256i b)
{
    __m256i s = _mm256_set1_epi64x((long long)0x8000000000000000ull);
    return _mm256_add_epi64(x, _mm256_cmpgt_epi64(_mm256_xor_si256(b, s), _mm256_xor_si256(a, s)));
}

/* The high 32 bits of each lane moved to its low half, for VPMULUDQ (which
 * reads only the low half): a shuffle, so the shift units stay free. */
FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_high32(__m256i a)
{
    return _mm256_shuffle_epi32(a, 0xB1);
}

/* The full product a b = hi 2^64 + lo of 64-bit lanes, as the scalar
 * (unsigned __int128) product: from the four 32x32 -> 64-bit products
 * (VPMULUDQ reads the low 32 bits of each lane), each exact.
 *   t = a1 b0 + (a0 b0 >> 32)         < 2^64 (at most (2^32-1)^2 + 2^32-1)
 *   u = a0 b1 + (t mod 2^32)          < 2^64 likewise
 *   a b = (a1 b1 + (t >> 32) + (u >> 32)) 2^64 + (u mod 2^32) 2^32 + (a0 b0 mod 2^32). */
FALCON_X86_BATCH_X4_ATTR void falcon_x86_batch_x4_mul(__m256i a, __m256i b, __m256i *hi, __m256i *lo)
{
    __m256i low32 = falcon_x86_batch_x4_word(UINT64_C(0xFFFFFFFF));
    __m256i a1 = falcon_x86_batch_x4_high32(a), b1 = falcon_x86_batch_x4_high32(b);
    __m256i ll = _mm256_mul_epu32(a, b), hl = _mm256_mul_epu32(a1, b);
    __m256i lh = _mm256_mul_epu32(a, b1), hh = _mm256_mul_epu32(a1, b1);
    __m256i t = _mm256_add_epi64(hl, _mm256_srli_epi64(ll, 32));
    __m256i u = _mm256_add_epi64(lh, _mm256_and_si256(t, low32));
    *hi = _mm256_add_epi64(_mm256_add_epi64(hh, _mm256_srli_epi64(t, 32)), _mm256_srli_epi64(u, 32));
    *lo = _mm256_or_si256(_mm256_slli_epi64(u, 32), _mm256_and_si256(ll, low32));
}

/* floor(a b / 2^64): falcon_x86_batch_fxp_mulhi64 lane by lane. */
FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_mulhi(__m256i a, __m256i b)
{
    __m256i low32 = falcon_x86_batch_x4_word(UINT64_C(0xFFFFFFFF));
    __m256i a1 = falcon_x86_batch_x4_high32(a), b1 = falcon_x86_batch_x4_high32(b);
    __m256i ll = _mm256_mul_epu32(a, b), hl = _mm256_mul_epu32(a1, b);
    __m256i lh = _mm256_mul_epu32(a, b1), hh = _mm256_mul_epu32(a1, b1);
    __m256i t = _mm256_add_epi64(hl, _mm256_srli_epi64(ll, 32));
    __m256i u = _mm256_add_epi64(lh, _mm256_and_si256(t, low32));
    return _mm256_add_epi64(_mm256_add_epi64(hh, _mm256_srli_epi64(t, 32)), _mm256_srli_epi64(u, 32));
}

/* falcon_x86_batch_rounded on a register: an empty asm, so that no compiler
 * contracts the product with the addition that reads it (GCC's packed
 * intrinsics are plain vector arithmetic, which it contracts like scalars). */
FALCON_X86_BATCH_X4_ATTR __m256d falcon_x86_batch_x4_rounded(__m256d v)
{
    __asm__("" : "+v"(v));
    return v;
}

/* falcon_x86_batch_kernel lane by lane (its comment has the formats and the
 * proof); D is kept as two words (dh, dl) with explicit carries. */
FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_kernel(__m256i z, __m256i C, __m256d v, __m256d c, __m256d e)
{
    __m256i zh, zl, czh, czl, ph, pl, qh, ql;
    falcon_x86_batch_x4_mul(z, z, &zh, &zl);                                /* zz = z^2: x^2 2^64 in zh */
    falcon_x86_batch_x4_mul(C, z, &czh, &czl);                              /* cz = C x 2^64 */
    falcon_x86_batch_x4_mul(C, zh, &ph, &pl);                               /* C zh */
    __m256i m = falcon_x86_batch_x4_mulhi(C, zl);                             /* falcon_x86_batch_fxp_mulhi64(C, (uint64_t)zz) */
    __m256i sl = falcon_x86_batch_x4_add(pl, m), sh = falcon_x86_batch_x4_add_below(ph, sl, m);
    __m256i c2h = _mm256_or_si256(_mm256_slli_epi64(czh, 1), _mm256_srli_epi64(czl, 63));   /* cz << 1 */
    __m256i c2l = _mm256_slli_epi64(czl, 1);
    __m256i dl = falcon_x86_batch_x4_sub(c2l, sl);                                /* d = (cz << 1) - (C zh + mulhi(C, zz)) */
    __m256i dh = falcon_x86_batch_x4_sub_below(falcon_x86_batch_x4_sub(c2h, sh), c2l, sl);
    __m256i p0 = falcon_x86_batch_x4_sub(falcon_x86_batch_x4_word(UINT64_C(0xaaaaaaaaaaaa941e)), falcon_x86_batch_x4_mulhi(z, falcon_x86_batch_x4_word(UINT64_C(0x2aaaaaaaaaa6efbf))));  /* |n0 + n1 x| 2^66 */
    __m256i p1 = falcon_x86_batch_x4_sub(falcon_x86_batch_x4_word(UINT64_C(0x088888888846e1ab)), falcon_x86_batch_x4_mulhi(z, falcon_x86_batch_x4_word(UINT64_C(0x016c16c169926640))));  /* |n2 + n3 x| 2^66 */
    __m256i h0 = falcon_x86_batch_x4_add(p0, falcon_x86_batch_x4_mulhi(zh, p1));  /* accumulator 0 (Horner in x^2), 2^66 */
    __m256i u = c2h;                                            /* (uint64_t)(cz >> 63) */
    falcon_x86_batch_x4_mul(u, zh, &qh, &ql);
    __m256i cx = _mm256_or_si256(_mm256_slli_epi64(qh, 1), _mm256_srli_epi64(ql, 63));   /* (u zh) >> 63 */
    __m256i E = falcon_x86_batch_x4_mulhi(cx, h0);
    __m256d t5 = _mm256_fmadd_pd(_mm256_set1_pd(-2.4801572878331526e-05), v, _mm256_set1_pd(0.0001984126948894262));  /* q0_1 */
    __m256d t8 = _mm256_fmadd_pd(_mm256_set1_pd(-2.754953209738658e-07), v, _mm256_set1_pd(2.7556915405443342e-06));  /* q2_3 */
    __m256d t11 = _mm256_fmadd_pd(_mm256_set1_pd(-2.0001420551325336e-09), v, _mm256_set1_pd(2.4950010584008668e-08));  /* q4_5 */
    __m256d t13 = _mm256_mul_pd(v, v);  /* v^2 */
    __m256d t14 = _mm256_fmadd_pd(t8, t13, t5);  /* q2_0 */
    __m256d t15 = _mm256_fmadd_pd(_mm256_set1_pd(1.1550564336709781e-10), t13, t11);  /* q2_1 */
    __m256d t16 = _mm256_mul_pd(t13, t13);  /* v^4 */
    __m256d t17 = _mm256_fmadd_pd(t15, t16, t14);  /* q4_0 */
    __m256d t18 = _mm256_mul_pd(c, t16);  /* c*v^4 */
    __m256d t19 = _mm256_mul_pd(t13, v);  /* v^3 */
    __m256d t20 = _mm256_mul_pd(t18, t19);  /* c*v^7 */
    __m256d t21 = _mm256_fmadd_pd(t20, t17, e);  /* t */
    __m256i tb = _mm256_castpd_si256(t21);
    __m256i et = falcon_x86_batch_x4_add(E, falcon_x86_batch_x4_sub(tb, falcon_x86_batch_x4_word(FALCON_X86_BATCH_ROUND_BITS)));
    /* d += (int128)(int64)et << 61: the low word gets et << 61, the high
     * word et >> 3 arithmetic, plus the carry. */
    __m256i al = _mm256_slli_epi64(et, 61);
    /* AVX2 has no 64-bit arithmetic shift: the sign mask shifted in. */
    __m256i ah = _mm256_or_si256(_mm256_srli_epi64(et, 3),
                                  _mm256_slli_epi64(_mm256_cmpgt_epi64(_mm256_setzero_si256(), et), 61));
    dl = falcon_x86_batch_x4_add(dl, al);
    dh = falcon_x86_batch_x4_add_below(falcon_x86_batch_x4_add(dh, ah), dl, al);
    __m256i r = _mm256_srli_epi64(falcon_x86_batch_x4_add(dh, falcon_x86_batch_x4_word(5)), 1);
    return falcon_x86_batch_x4_sub(falcon_x86_batch_x4_add(C, falcon_x86_batch_x4_word(2)), r);
}

/* falcon_x86_batch_flush lane by lane: the bits compared as signed words. */
FALCON_X86_BATCH_X4_ATTR __m256d falcon_x86_batch_x4_flush(__m256d v, int64_t min_bits)
{
    __m256i bits = _mm256_castpd_si256(v);
    __m256i keep = _mm256_cmpgt_epi64(bits, _mm256_set1_epi64x(min_bits - 1));
    return _mm256_castsi256_pd(_mm256_and_si256(bits, keep));
}

/* falcon_x86_batch_to_word lane by lane: trunc(v) for 0 <= v <= 2^63 (2^63
 * itself gives 2^63, as CVTTSD2SI). */
FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_to_word(__m256d v)
{
    /* AVX2 has no double -> int64 conversion: v = m 2^(ex - 1075), m the
     * significand with its implicit bit, so trunc(v) = m << (ex - 1075) or
     * m >> (1075 - ex), whichever count is in 0..63 (VPSLLVQ and VPSRLVQ
     * give 0 for the other, and both for v = 0); v is never subnormal. */
    __m256i bits = _mm256_castpd_si256(v);
    __m256i ex = _mm256_srli_epi64(bits, 52);
    __m256i m = _mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0xFFFFFFFFFFFFFll)),
                                _mm256_set1_epi64x(0x10000000000000ll));
    __m256i k = _mm256_set1_epi64x(1075);
    return _mm256_or_si256(_mm256_sllv_epi64(m, _mm256_sub_epi64(ex, k)), _mm256_srlv_epi64(m, _mm256_sub_epi64(k, ex)));
}

FALCON_X86_BATCH_X4_ATTR __m256d falcon_x86_batch_x4_trunc(__m256d v)
{
    return _mm256_round_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
}

/* falcon_x86_batch_adapt lane by lane. */
FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_x4_adapt(__m256d x, __m256d ccs)
{
    __m256d p63 = _mm256_set1_pd(9223372036854775808.0);
    __m256d xs = _mm256_mul_pd(x, p63), cs = _mm256_mul_pd(ccs, p63);     /* exact */
    __m256i X = falcon_x86_batch_x4_to_word(xs), C = falcon_x86_batch_x4_to_word(cs);
    __m256d v = _mm256_max_pd(x, _mm256_set1_pd(0.00048828125));
    __m256d rx = _mm256_sub_pd(xs, falcon_x86_batch_x4_trunc(xs)), rc = _mm256_sub_pd(cs, falcon_x86_batch_x4_trunc(cs));  /* exact */
    __m256d r8 = _mm256_fmadd_pd(x, _mm256_set1_pd(0.5), _mm256_set1_pd(-1.0));  /* x/2 - 1 */
    __m256d r9 = _mm256_fmadd_pd(r8, x, _mm256_set1_pd(1.0));  /* t3 */
    __m256d r10 = falcon_x86_batch_x4_rounded(_mm256_mul_pd(rc, r9));  /* rc*t3 */
    __m256d r11 = _mm256_sub_pd(_mm256_set1_pd(422212465065984.1), r10);  /* M - rc*t3 */
    __m256d r12 = _mm256_fmadd_pd(ccs, rx, r11);  /* e */
    return falcon_x86_batch_x4_kernel(falcon_x86_batch_x4_add(X, X), C, v, cs, r12);
}

/* falcon_x86_batch_fpr_expm_p63_domain lane by lane: Falcon's contract. */
FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_expm_p63_x4(__m256d x, __m256d ccs)
{
    return falcon_x86_batch_x4_adapt(falcon_x86_batch_x4_flush(x, FALCON_X86_BATCH_X_FLUSH_BITS), falcon_x86_batch_x4_flush(ccs, FALCON_X86_BATCH_C_FLUSH_BITS));
}

/* falcon_x86_batch_fpr_expm_p63_native lane by lane: every input defined, by the
 * same flush, MAXPD and MINPD (NaN becomes 0; x clamped to LN2_DOWN, ccs to 1). */
FALCON_X86_BATCH_X4_ATTR __m256i falcon_x86_batch_fpr_expm_p63_native_x4(__m256d x, __m256d ccs)
{
    __m256d xf = falcon_x86_batch_x4_flush(x, FALCON_X86_BATCH_X_FLUSH_BITS), cf = falcon_x86_batch_x4_flush(ccs, FALCON_X86_BATCH_C_FLUSH_BITS);
    xf = _mm256_min_pd(_mm256_max_pd(xf, _mm256_setzero_pd()), _mm256_set1_pd(0.6931471805599453));
    cf = _mm256_min_pd(_mm256_max_pd(cf, _mm256_setzero_pd()), _mm256_set1_pd(1.0));
    return falcon_x86_batch_x4_adapt(xf, cf);
}

/* The array loop on avx2: whole registers, then the last n mod 4
 * elements by masked loads and stores (the masked-off lanes compute on
 * 0 and are not stored). */
static inline __attribute__((target("avx2,fma")))
void falcon_x86_batch_fpr_expm_p63_batch_avx2(uint64_t *out, const double *x, const double *ccs, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i r = falcon_x86_batch_fpr_expm_p63_native_x4(_mm256_loadu_pd(x + i), _mm256_loadu_pd(ccs + i));
        _mm256_storeu_si256((__m256i *)(void *)(out + i), r);
    }
    if (i < n) {
        __m256i k = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(n - i)), _mm256_set_epi64x(3, 2, 1, 0));
        __m256i r = falcon_x86_batch_fpr_expm_p63_native_x4(_mm256_maskload_pd(x + i, k), _mm256_maskload_pd(ccs + i, k));
        _mm256_maskstore_epi64((long long *)(void *)(out + i), k, r);
    }
}
#endif

/* The scalar loop: the fallback, and the reference of the tests. */
static inline void falcon_x86_batch_fpr_expm_p63_batch_scalar(uint64_t *out, const double *x, const double *ccs, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        out[i] = falcon_x86_batch_fpr_expm_p63_native(x[i], ccs[i]);
    }
}

/* The path the array entry takes on this CPU: the widest instruction set
 * it has of those rendered, or FALCON_X86_BATCH_BATCH_FORCE when defined. */
static inline int falcon_x86_batch_batch_path(void)
{
#if defined(FALCON_X86_BATCH_BATCH_FORCE)
    return FALCON_X86_BATCH_BATCH_FORCE;
#else
#if defined(FALCON_X86_BATCH_BATCH_SIMD)
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) {
        return FALCON_X86_BATCH_BATCH_PATH_AVX512;
    }
#endif
#if defined(FALCON_X86_BATCH_BATCH_SIMD)
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        return FALCON_X86_BATCH_BATCH_PATH_AVX2;
    }
#endif
    return FALCON_X86_BATCH_BATCH_PATH_SCALAR;
#endif
}

/* The name of the path falcon_x86_batch_fpr_expm_p63_batch takes. */
static inline const char *falcon_x86_batch_batch_isa(void)
{
    switch (falcon_x86_batch_batch_path()) {
    case FALCON_X86_BATCH_BATCH_PATH_AVX512:
        return "avx512";
    case FALCON_X86_BATCH_BATCH_PATH_AVX2:
        return "avx2";
    default:
        return "scalar";
    }
}

/* out[i] = falcon_x86_batch_fpr_expm_p63_native(x[i], ccs[i]) for i < n. */
static inline void falcon_x86_batch_fpr_expm_p63_batch(uint64_t *out, const double *x, const double *ccs, size_t n)
{
    switch (falcon_x86_batch_batch_path()) {
#if defined(FALCON_X86_BATCH_BATCH_SIMD)
    case FALCON_X86_BATCH_BATCH_PATH_AVX512:
        falcon_x86_batch_fpr_expm_p63_batch_avx512(out, x, ccs, n);
        return;
    case FALCON_X86_BATCH_BATCH_PATH_AVX2:
        falcon_x86_batch_fpr_expm_p63_batch_avx2(out, x, ccs, n);
        return;
#endif
    default:
        falcon_x86_batch_fpr_expm_p63_batch_scalar(out, x, ccs, n);
        return;
    }
}

#endif /* FALCON_X86_BATCH_H */

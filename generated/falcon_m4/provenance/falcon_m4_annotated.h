/* SPDX-License-Identifier: CC0-1.0
 * falcon_m4.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_m4.toml (sha256 0eae053ae6cbb5b1418c02cc67cbdbd98b79175576cb7eba73fa2c17b3ec49b4); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_m4.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 6,
 *     segments = {kind = "pow2", bits = 5}, coefficient_scales = [64, 64, 64, 64, 64, 64, 64],
 *     max_abs_error_log2 = -59.0, multiplier = "umaal", table_placement = "sram", pad_table = true
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |falcon_m4_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 9.32809 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: Cortex-M4 kernel: 2^-5 segments x degree 6, 64-bit Horner, UMULL/UMAAL products
 *
 * Parameters:
 *   name = "falcon_m4"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 64
 *   scale_bits = 63
 *   degree = 6
 *   segments = {"kind": "pow2", "bits": 5}
 *   error = "absolute"
 *   precision_digits = 50
 *   remez_tolerance = 1e-12
 *   remez_max_iterations = 60
 *   coefficient_scales = [64, 64, 64, 64, 64, 64, 64]
 *   explicit_coefficients = false
 *   max_abs_error_log2 = -59.0
 *   table_access = "direct"
 *   evaluation = "horner"
 *   form = "direct"
 *   reoptimize = true
 *   wide = false
 *   multiplier = "umaal"
 *   table_placement = "sram"
 *   pad_table = true
 *
 * Computed:
 *   inputs z = 0x0 .. 0xb17217f7d1cf79ab (Q0.64); 23 segment(s); pre-shift g = 5
 *   evaluation: horner, form direct; coefficient scales s_j (j = 0..6) = [64, 64, 64, 64, 64, 64, 64]
 *   output: root word at 2^64 -> 2^63 (shift 1, round to nearest)
 *   coefficients re-optimized after rounding (evaluation-aware): yes
 *   table: 32 row(s), 1792 bytes, access direct
 *   real-coefficient minimax error (max over segments): 6.9398e-19
 *   proven |p - f| of the quantized polynomials (max over segments): 7.40303e-19
 *   proven bound of _eval: 8.82809 units of 2^-63
 *   proven bound of _expm_p63: 8.52738 units of 2^-63
 *   proven bound of the Falcon adaptors against the doubles passed (ccs through its significand): 9.32809 units of 2^-63
 *   (bounds: gen/proof/ and docs/error-model.md of fxp-kernels; figures per segment: falcon_m4.json)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FALCON_M4_CONTENT_HASH) && FALCON_M4_CONTENT_HASH != 0x02724d5c98689fc0u
#error "falcon_m4.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_M4_H
#define FALCON_M4_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define FALCON_M4_CONTENT_HASH 0x02724d5c98689fc0u

/**
 * falcon_m4_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1, converted as the reference does (unspecified but defined outside it).
 * falcon_m4_eval(z) ~= f(z / 2^64) 2^63, falcon_m4_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; a z above FALCON_M4_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time only where a load takes the same time at every address (SRAM on a Cortex-M3 or M4): the table
 * row depends on the input; no branch does.
 * Products: UMULL, UMULL, UMAAL, UMAAL on ARMv7E-M (single-cycle on a Cortex-M4: constant time there, not on
 * a Cortex-M3), otherwise unsigned __int128 or 32-bit limbs; the same bits everywhere.
 * One table per program: define FALCON_M4_TABLE_EXTERN in every file that includes this one but one.
 */

/*
 * Fixed-point helpers: the part of runtime/fxp.h this kernel uses, with
 * the prefix fxp_ of every name replaced by falcon_m4_fxp_ (so two
 * kernels in one program never share one), unchanged otherwise.
 */
/* floor(a * b / 2^64), from four 32x32->64 partial products.  Exact: the
 * middle sum below cannot overflow because each term is < 2^64 - 2^33 + 1
 * and we add at most two 32-bit halves to it. */
static inline uint64_t falcon_m4_fxp_mulhi64_portable(uint64_t a, uint64_t b)
{
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
/* __extension__ keeps -Wpedantic quiet: unsigned __int128 is a GNU type. */
__extension__ typedef unsigned __int128 falcon_m4_fxp_u128;
#endif

/*
 * Per-kernel product strategies (the `multiplier` config key, docs/config.md):
 * a kernel rendered with multiplier = "umull", "mul16" or "umaal" calls
 * these instead of falcon_m4_fxp_mulhi64/falcon_m4_fxp_mulhi32, whatever FXP_MUL16 says; "auto" (the default)
 * calls the helpers above; "truncated" kernels carry their own generated
 * limb products (gen/quantize/limbs.py).  All return floor(a b / 2^W) exactly.
 *   _limb32: 32-bit limbs (UMULL on ARMv7-M), or unsigned __int128 where
 *            the compiler has it (one MUL on x86-64);
 *   _mul16:  16-bit limbs, MUL/MLA only (constant-time on a Cortex-M3);
 *   _umaal:  UMULL/UMAAL on ARMv7E-M (constant-time on a Cortex-M4), below;
 *            its 32-bit products are _limb32's (one UMULL).
 */
static inline uint64_t falcon_m4_fxp_mulhi64_limb32(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
    return (uint64_t)(((falcon_m4_fxp_u128)a * b) >> 64);
#else
    return falcon_m4_fxp_mulhi64_portable(a, b);
#endif
}

/*
 * floor(a * b / 2^64) for multiplier = "umaal": the Cortex-M4 (ARMv7E-M)
 * sequence UMULL, UMULL, UMAAL, UMAAL.  With a = a1 2^32 + a0 and
 * b = b1 2^32 + b0 (32-bit halves):
 *   UMULL  l0, l1 = a0 b0              (words 0 and 1 of the product)
 *   UMULL  h0, h1 = a0 b1              (at weight 2^32)
 *   UMAAL  l1, h0 = a1 b0 + l1 + h0    (word 1 final; h0 carries to word 2)
 *   UMAAL  h0, h1 = a1 b1 + h0 + h1    (words 2 and 3 final)
 * UMAAL adds two 32-bit words to a 32x32 product, at most
 * (2^32 - 1)^2 + 2 (2^32 - 1) = 2^64 - 1, so nothing overflows and h1:h0
 * is the exact high word (words 0 and 1 are dropped): the same floor as every other strategy (the
 * proof's model of mulhi is exact for it too).  Elsewhere (the host, a
 * Cortex-M3) the same bits from falcon_m4_fxp_mulhi64_limb32.
 *
 * Constant time on the Cortex-M4 only: there UMULL, UMLAL, UMAAL, SMULL and
 * SMLAL take one cycle whatever the operands (ARM Cortex-M4 Technical
 * Reference Manual, r0p1, Table 3-1).  Not on a Cortex-M3, which has no
 * UMAAL and whose UMULL/UMLAL terminate early on small operands (there the
 * fallback's UMULLs are data-dependent: use "mul16" or "truncated").
 */
static inline uint64_t falcon_m4_fxp_mulhi64_umaal(uint64_t a, uint64_t b)
{
#if defined(__ARM_ARCH_7EM__)
    /* Six registers: word 0 of a0 b0 is dropped into h1 (written again by
     * the second UMULL), and a0, dead after the second UMULL, receives
     * h0; so a0 is an input-output operand and l1, h1 are early-clobber
     * (written before a1, b0, b1 are last read).  a is the operand that
     * changes at every Horner step (b, the segment offset, is reused), so
     * giving up a0's register costs nothing. */
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t l1, h1;
    __asm__("umull %[h1], %[l1], %[a0], %[b0]\n\t"
            "umull %[a0], %[h1], %[a0], %[b1]\n\t"
            "umaal %[l1], %[a0], %[a1], %[b0]\n\t"
            "umaal %[a0], %[h1], %[a1], %[b1]"
            : [a0] "+&r"(a0), [l1] "=&r"(l1), [h1] "=&r"(h1)
            : [a1] "r"(a1), [b0] "r"(b0), [b1] "r"(b1));
    (void)l1;
    return ((uint64_t)h1 << 32) | a0;
#else
    return falcon_m4_fxp_mulhi64_limb32(a, b);
#endif
}

/*
 * c - floor(a * b / 2^64) (mod 2^64): a Horner step of a "umaal" kernel,
 * K_j - v y.  The same four multiplies as falcon_m4_fxp_mulhi64_umaal, then SUBS/SBC
 * inside the same asm statement: c enters as one 64-bit operand, so gcc
 * loads the table coefficient with one LDRD instead of two LDRs (gcc
 * splits a 64-bit subtraction written in C into 32-bit halves before
 * register allocation, and its Cortex-M4 tuning does not merge the two
 * loads again).  Bit-identical to c - falcon_m4_fxp_mulhi64_umaal(a, b), the
 * fallback elsewhere.  Constant time on the Cortex-M4 as above.
 */
static inline uint64_t falcon_m4_fxp_submulhi64_umaal(uint64_t c, uint64_t a, uint64_t b)
{
#if defined(__ARM_ARCH_7EM__)
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t l1, h1;
    __asm__("umull %[h1], %[l1], %[a0], %[b0]\n\t"
            "umull %[a0], %[h1], %[a0], %[b1]\n\t"
            "umaal %[l1], %[a0], %[a1], %[b0]\n\t"
            "umaal %[a0], %[h1], %[a1], %[b1]\n\t"
            "subs %[a0], %Q[c], %[a0]\n\t"
            "sbc %[h1], %R[c], %[h1]"
            : [a0] "+&r"(a0), [l1] "=&r"(l1), [h1] "=&r"(h1)
            : [a1] "r"(a1), [b0] "r"(b0), [b1] "r"(b1), [c] "r"(c)
            : "cc");
    (void)l1;
    return ((uint64_t)h1 << 32) | a0;
#else
    return c - falcon_m4_fxp_mulhi64_umaal(a, b);
#endif
}

/*
 * Coefficient table: one row per segment, K_0 .. K_6 (K_j multiplies
 * v^j, v = T / 2^64).  K_j = round(sigma_j * a_j * 2^s_j), stored modulo
 * 2^64; the scales s_j and signs sigma_j are the same on every row and
 * are listed in falcon_m4.h.  1792 bytes.
 *
 * pad_table: 32 rows for 23 segments.  Rows 23..31 repeat
 * the last segment's row: no input of the domain reads them, but every
 * index the top bits of u can take now names a row, so an adaptor that
 * keeps Falcon's contract needs no clamp to stay inside the table.
 */
/*
 * table_placement = "sram": on ARMv7-M and ARMv7E-M (Cortex-M3, Cortex-M4)
 * with GCC or Clang the table goes to a .data section, which start-up code
 * copies to SRAM: the M3 and the M4 have no data cache, so a load from SRAM
 * takes the same time whatever its address, and the direct (secret) index
 * is constant-time there.  In flash, wait states and a prefetch buffer
 * would not guarantee that; nor does SRAM on a Cortex-M7 (ARMv7E-M too),
 * whose data cache needs the table in DTCM instead.  Elsewhere the
 * attribute is empty (a direct index is NOT constant-time on CPUs with
 * data caches).
 */
#if defined(__GNUC__) && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define FALCON_M4_TABLE_SECTION __attribute__((section(".data.falcon_m4_coeffs")))
#else
#define FALCON_M4_TABLE_SECTION
#endif
/* One definition per program: every file that includes this header but one
 * defines FALCON_M4_TABLE_EXTERN and sees only the declaration. */
extern const uint64_t falcon_m4_coeffs[32][7];
#ifndef FALCON_M4_TABLE_EXTERN
const uint64_t falcon_m4_coeffs[32][7] FALCON_M4_TABLE_SECTION = {
    /* segment 0: z in [0x0000000000000000, 0x07ffffffffffffff], proven |p - f| <= 7.404e-19 */
    { UINT64_C(0xfffffffffffffff4), UINT64_C(0x07fffffffffffb19), UINT64_C(0x001fffffffffb180), UINT64_C(0x0000555555537dfe), UINT64_C(0x000000aaaaa566b0), UINT64_C(0x0000000111095513), UINT64_C(0x000000000166729e) },
    /* segment 1: z in [0x0800000000000000, 0x0fffffffffffffff], proven |p - f| <= 7.295e-19 */
    { UINT64_C(0xf81fab5445aebc7f), UINT64_C(0x07c0fd5aa22d7124), UINT64_C(0x001f03f56a8869c1), UINT64_C(0x000052b5391a4e62), UINT64_C(0x000000a56a6d1dac), UINT64_C(0x0000000108a2d147), UINT64_C(0x00000000015b6b61) },
    /* segment 2: z in [0x1000000000000000, 0x17ffffffffffffff], proven |p - f| <= 7.245e-19 */
    { UINT64_C(0xf07d5fde38151e68), UINT64_C(0x0783eafef1c0a458), UINT64_C(0x001e0fabfbc6b8e5), UINT64_C(0x00005029ca9dad3f), UINT64_C(0x000000a053904c83), UINT64_C(0x00000001007e7792), UINT64_C(0x000000000150bb01) },
    /* segment 3: z in [0x1800000000000000, 0x1fffffffffffffff], proven |p - f| <= 6.915e-19 */
    { UINT64_C(0xe9173500cbe01590), UINT64_C(0x0748b9a8065efc36), UINT64_C(0x001d22e6a0193489), UINT64_C(0x00004db266fe96cd), UINT64_C(0x0000009b64c93532), UINT64_C(0x00000000f89a3ed2), UINT64_C(0x0000000001465ed3) },
    /* segment 4: z in [0x2000000000000000, 0x27ffffffffffffff], proven |p - f| <= 6.845e-19 */
    { UINT64_C(0xe1eb51276c110c32), UINT64_C(0x070f5a893b60840e), UINT64_C(0x001c3d6a24ed3cdb), UINT64_C(0x00004b4e7060d96f), UINT64_C(0x000000969cdc1f76), UINT64_C(0x00000000f0f42e00), UINT64_C(0x00000000013c5444) },
    /* segment 5: z in [0x2800000000000000, 0x2fffffffffffffff], proven |p - f| <= 6.796e-19 */
    { UINT64_C(0xdaf7e94f92613134), UINT64_C(0x06d7bf4a7c930558), UINT64_C(0x001b5efd29f20900), UINT64_C(0x000048fd4dc39da2), UINT64_C(0x00000091fa970965), UINT64_C(0x00000000e98a5b4a), UINT64_C(0x00000000013298ba) },
    /* segment 6: z in [0x3000000000000000, 0x37ffffffffffffff], proven |p - f| <= 6.234e-19 */
    { UINT64_C(0xd43b4096043bddf9), UINT64_C(0x06a1da04b021dae0), UINT64_C(0x001a876812c04669), UINT64_C(0x000046be6adb2555), UINT64_C(0x0000008d7cd15bd7), UINT64_C(0x00000000e25aec7e), UINT64_C(0x00000000012929e2) },
    /* segment 7: z in [0x3800000000000000, 0x3fffffffffffffff], proven |p - f| <= 6.009e-19 */
    { UINT64_C(0xcdb3a7c7979ebd53), UINT64_C(0x066d9d3e3cbcf1fa), UINT64_C(0x0019b674f8f2b4c3), UINT64_C(0x0000449137ebb7cf), UINT64_C(0x00000089226b9f45), UINT64_C(0x00000000db64159a), UINT64_C(0x0000000001200556) },
    /* segment 8: z in [0x4000000000000000, 0x47ffffffffffffff], proven |p - f| <= 5.781e-19 */
    { UINT64_C(0xc75f7cf56410573a), UINT64_C(0x063afbe7ab207ee9), UINT64_C(0x0018ebef9eac44e9), UINT64_C(0x0000427529a5b248), UINT64_C(0x00000084ea4f3477), UINT64_C(0x00000000d4a418e1), UINT64_C(0x00000000011728cd) },
    /* segment 9: z in [0x4800000000000000, 0x4fffffffffffffff], proven |p - f| <= 5.914e-19 */
    { UINT64_C(0xc13d2b0c44b8af42), UINT64_C(0x0609e9586225c1c7), UINT64_C(0x001827a561885bd4), UINT64_C(0x00004069b902b31e), UINT64_C(0x00000080d36e0eac), UINT64_C(0x00000000ce194647), UINT64_C(0x00000000010e920f) },
    /* segment 10: z in [0x5000000000000000, 0x57ffffffffffffff], proven |p - f| <= 5.638e-19 */
    { UINT64_C(0xbb4b296f917bf092), UINT64_C(0x05da594b7c8bdbf5), UINT64_C(0x001769652df1f643), UINT64_C(0x00003e6e6323d859), UINT64_C(0x0000007cdcc2715f), UINT64_C(0x00000000c7c1fc17), UINT64_C(0x0000000001063f4e) },
    /* segment 11: z in [0x5800000000000000, 0x5fffffffffffffff], proven |p - f| <= 5.720e-19 */
    { UINT64_C(0xb587fb96f5c4e70b), UINT64_C(0x05ac3fdcb7ae23be), UINT64_C(0x0016b0ff72de80f1), UINT64_C(0x00003c82a93103b1), UINT64_C(0x00000079054ea8c9), UINT64_C(0x00000000c19ca169), UINT64_C(0x0000000000fe2d71) },
    /* segment 12: z in [0x6000000000000000, 0x67ffffffffffffff], proven |p - f| <= 5.284e-19 */
    { UINT64_C(0xaff230af4c74754c), UINT64_C(0x057f91857a63a04c), UINT64_C(0x0015fe4615e9589b), UINT64_C(0x00003aa610392ae1), UINT64_C(0x000000754c1cd66d), UINT64_C(0x00000000bba7afe9), UINT64_C(0x0000000000f65b77) },
    /* segment 13: z in [0x6800000000000000, 0x6fffffffffffffff], proven |p - f| <= 5.349e-19 */
    { UINT64_C(0xaa88633e692c84a4), UINT64_C(0x05544319f34960e1), UINT64_C(0x0015510c67ccf146), UINT64_C(0x000038d8211393bf), UINT64_C(0x00000071b03ea7aa), UINT64_C(0x00000000b5e1a94e), UINT64_C(0x0000000000eec715) },
    /* segment 14: z in [0x7000000000000000, 0x77ffffffffffffff], proven |p - f| <= 5.096e-19 */
    { UINT64_C(0xa54938c9b7e846aa), UINT64_C(0x052a49c64dbf3f0b), UINT64_C(0x0014a9271936ca59), UINT64_C(0x0000371868420cfb), UINT64_C(0x0000006e30cd2029), UINT64_C(0x00000000b0491c10), UINT64_C(0x0000000000e76e66) },
    /* segment 15: z in [0x7800000000000000, 0x7fffffffffffffff], proven |p - f| <= 5.047e-19 */
    { UINT64_C(0xa033617f9c89376c), UINT64_C(0x05019b0bfce446aa), UINT64_C(0x0014066c2ff36007), UINT64_C(0x0000356675d40d39), UINT64_C(0x0000006acce85edd), UINT64_C(0x00000000aadca204), UINT64_C(0x0000000000e04f94) },
    /* segment 16: z in [0x8000000000000000, 0x87ffffffffffffff], proven |p - f| <= 4.796e-19 */
    { UINT64_C(0x9b4597e37cb04fed), UINT64_C(0x04da2cbf1be57f86), UINT64_C(0x001368b2fc6f6679), UINT64_C(0x000033c1dd4ab6a2), UINT64_C(0x0000006783b766af), UINT64_C(0x00000000a59ae098), UINT64_C(0x0000000000d96909) },
    /* segment 17: z in [0x8800000000000000, 0x8fffffffffffffff], proven |p - f| <= 4.723e-19 */
    { UINT64_C(0x967ea07c5ee56f4f), UINT64_C(0x04b3f503e2f728a3), UINT64_C(0x0012cfd40f8baed9), UINT64_C(0x0000322a357db64a), UINT64_C(0x000000645467e6f1), UINT64_C(0x00000000a0828710), UINT64_C(0x0000000000d2b8eb) },
    /* segment 18: z in [0x9000000000000000, 0x97ffffffffffffff], proven |p - f| <= 4.658e-19 */
    { UINT64_C(0x91dd49860ab457f8), UINT64_C(0x048eea4c30559ff5), UINT64_C(0x00123ba930c129d4), UINT64_C(0x0000309f1880f711), UINT64_C(0x000000613e2e0416), UINT64_C(0x000000009b924cc1), UINT64_C(0x0000000000cc3ccb) },
    /* segment 19: z in [0x9800000000000000, 0x9fffffffffffffff], proven |p - f| <= 4.184e-19 */
    { UINT64_C(0x8d606aa49606ded7), UINT64_C(0x046b035524b03442), UINT64_C(0x0011ac0d54929582), UINT64_C(0x00002f20238b2db7), UINT64_C(0x0000005e40442ffa), UINT64_C(0x0000000096c8f91b), UINT64_C(0x0000000000c5f422) },
    /* segment 20: z in [0xa000000000000000, 0xa7ffffffffffffff], proven |p - f| <= 4.042e-19 */
    { UINT64_C(0x8906e49a4c9f3d53), UINT64_C(0x04483724d264f74b), UINT64_C(0x001120dc934969e4), UINT64_C(0x00002dacf6dd1d42), UINT64_C(0x0000005b59eaeab0), UINT64_C(0x0000000092255892), UINT64_C(0x0000000000bfdcfe) },
    /* segment 21: z in [0xa800000000000000, 0xafffffffffffffff], proven |p - f| <= 4.164e-19 */
    { UINT64_C(0x84cfa0ffdf2c01b9), UINT64_C(0x04267d07fef95d83), UINT64_C(0x001099f41ffbbcbb), UINT64_C(0x00002c4535a9aadc), UINT64_C(0x000000588a68990e), UINT64_C(0x000000008da6412d), UINT64_C(0x0000000000b9f572) },
    /* segment 22: z in [0xb000000000000000, 0xb17217f7d1cf79ab], proven |p - f| <= 5.942e-20 */
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    /* rows 23..31: padding, a copy of segment 22's row (outside the domain) */
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
};
#endif

#define FALCON_M4_SCALE_BITS 63
#define FALCON_M4_SEGMENTS 23
/* Rows of the table: one per index value (pad_table; see falcon_m4_table.h). */
#define FALCON_M4_TABLE_ROWS 32
#define FALCON_M4_DEGREE 6
#define FALCON_M4_WORD_BITS 64
#define FALCON_M4_TABLE_BYTES 1792
/* Scale of falcon_m4_core's result: U = p(v) * 2^64. */
#define FALCON_M4_CORE_SCALE 64
/* Last valid input: z_max = floor(ln 2 * 2^64) for the default domain. */
#define FALCON_M4_Z_MAX UINT64_C(0xb17217f7d1cf79ab)

/*
 * Proven error bounds (upper bounds, rounded up; computed by gen/proof/ of
 * fxp-kernels with exact rational and interval arithmetic, docs/error-model.md):
 *   falcon_m4_eval:      |eval(z) - f(z / 2^64) * 2^63| <= FALCON_M4_ERR_BOUND_ULP units of 2^-63
 *   falcon_m4_expm_p63:  |expm(z, w) - (w / 2^64) f(z / 2^64) 2^63| <= FALCON_M4_EXPM_P63_ERR_BOUND units of 2^-63
 */
#define FALCON_M4_ERR_BOUND_ULP 8.82809
#define FALCON_M4_EXPM_P63_ERR_BOUND 8.52738

/*
 * falcon_m4_core(z): the polynomial of z's segment, evaluated in fixed point.
 *
 * Input z is Q0.64 (x = z / 2^64).  Segment selection (23 segments of width 2^-5):
 *   idx = u >> 59, t = u & (2^59 - 1),
 *   u = z - z_lo: one shift and one mask.
 * The local variable is T = t << 5, read as v = T / 2^64 in [0, 1).
 *
 * Horner's scheme on unsigned words, sign-magnitude: each word U
 * stands for sigma U 2^-s with a sign sigma and scale s fixed for every
 * segment, so products are truncated multiply-highs
 * mulhi(a, b) = floor(a b / 2^64) and sums are additions or subtractions,
 * aligned by constant shifts.  The ranges next to each step are proven for
 * every input of every segment by exact integer interval arithmetic: no
 * step overflows.
 * Table access: direct (the segment index, which depends on the
 * secret input, selects a table row: not constant-time on CPUs with data
 * caches; use table_access = "ct_scan" there).
 */
static inline uint64_t falcon_m4_core(uint64_t z)
{
    uint64_t u = z;
    uint64_t idx = u >> 59;
    uint64_t T = (u & UINT64_C(0x7ffffffffffffff)) << 5;
    const uint64_t *k = falcon_m4_coeffs[idx];
    uint64_t y5 = falcon_m4_fxp_submulhi64_umaal(k[5], k[6], T);  /* y5: -U 2^-64, U in [0x00000000890e4bf8, 0x0000000111095513] */
    uint64_t y4 = falcon_m4_fxp_submulhi64_umaal(k[4], y5, T);  /* y4: +U 2^-64, U in [0x00000055b83de2c5, 0x000000aaaaa566b0] */
    uint64_t y3 = falcon_m4_fxp_submulhi64_umaal(k[3], y4, T);  /* y3: -U 2^-64, U in [0x00002ad9083028c7, 0x0000555555537dfe] */
    uint64_t y2 = falcon_m4_fxp_submulhi64_umaal(k[2], y3, T);  /* y2: +U 2^-64, U in [0x00100f73ded87f99, 0x001fffffffffb180] */
    uint64_t y1 = falcon_m4_fxp_submulhi64_umaal(k[1], y2, T);  /* y1: -U 2^-64, U in [0x0402e57fb60c8cdd, 0x07fffffffffffb19] */
    uint64_t y0 = falcon_m4_fxp_submulhi64_umaal(k[0], y1, T);  /* y0: +U 2^-64, U in [0x7ffff7f8a5db6a8d, 0xfffffffffffffff4] */
    return y0;
}

/* falcon_m4_eval(z) ~= f(z / 2^64) * 2^63: the root word rounded to nearest from scale 2^64. */
static inline uint64_t falcon_m4_eval(uint64_t z)
{
    return (falcon_m4_core(z) + UINT64_C(0x1)) >> 1;
}

/* ccs * U_0, moved from scale 2^64 to 2^63 (truncated): w is Q0.64 (ccs = w / 2^64). */
static inline uint64_t falcon_m4_expm_p63_core(uint64_t u, uint64_t w)
{
    return falcon_m4_fxp_mulhi64_umaal(w, u) >> 1;
}

/* falcon_m4_expm_p63(z, w) ~= (w / 2^64) * exp(-z / 2^64) * 2^63. */
static inline uint64_t falcon_m4_expm_p63(uint64_t z, uint64_t w)
{
    return falcon_m4_expm_p63_core(falcon_m4_core(z), w);
}


#include <string.h>

/*
 * Falcon-facing adaptors for 32-bit cores: drop-in replacements for
 * fpr_expm_p63(x, ccs), which Falcon calls with 0 <= x < ln 2 and ccs in
 * about [0.61, 1).  Integer operations only, no branch that depends on the
 * inputs; the table row is chosen by x (constant-time only where a load
 * takes the same time at every address, such as SRAM on a Cortex-M3 or M4: see
 * falcon_m4_table.h).
 *
 *   falcon_m4_fpr_expm_p63(x_bits, ccs_bits)  emulated-float builds: the
 *       arguments are IEEE-754 binary64 bit patterns (Falcon's fpr).
 *   falcon_m4_fpr_expm_p63_native(x, ccs)  the same on doubles.
 *   falcon_m4_fpr_expm_p63_domain_bits(x_bits, ccs_bits) and _domain(x, ccs):
 *       Falcon's own contract, 0 <= x < ln 2 and 0 <= ccs < 1, without the
 *       rules below (see their comments).
 *
 * The first two return ~= ccs * exp(-x) * 2^63 and agree on every input.
 * In the domain, x is converted exactly as the reference does,
 * z = 2 * trunc(x * 2^63) (Q0.64); ccs is not converted: U is multiplied
 * by its significand and shifted by its exponent
 * (falcon_m4_expm_p63_mantissa).  Proven bound:
 * FALCON_M4_FPR_EXPM_P63_ERR_BOUND units of 2^-63, with ccs taken exactly
 * and what x's truncation drops included (gen/proof/output.py,
 * mantissa_interval).
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
#define FALCON_M4_FPR_EXPM_P63_ERR_BOUND 9.32809

/* The bits of the largest double below ln 2, 0.69314718055994528623. */
#define FALCON_M4_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
/* 2 * trunc(LN2_DOWN * 2^63): the z every clamped x maps to. */
#define FALCON_M4_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
/* The bits of the largest double below 1. */
#define FALCON_M4_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

/* The significand of a double's bits hi:lo (the sign and exponent
 * ignored), implicit bit at bit 63. */
static inline uint64_t falcon_m4_significand(uint32_t hi, uint32_t lo)
{
    return ((uint64_t)(UINT32_C(0x80000000) | (hi << 11) | (lo >> 21)) << 32) | (uint32_t)(lo << 11);
}

/* bias - e from a double's high word (e its biased exponent), clamped to
 * [0, 63]: one USAT on ARMv7-M, not a branch. */
static inline uint32_t falcon_m4_exponent_shift(uint32_t hi, int32_t bias)
{
    int32_t s = bias - (int32_t)((hi >> 20) & 0x7FFu);
    s = s < 0 ? 0 : s;
    s = s > 63 ? 63 : s;
    return (uint32_t)s;
}

/*
 * 2 * trunc(v * 2^63) for 0 <= v < 1, from v's bits, without a branch, in
 * 32-bit steps.  M = the significand with its implicit bit at bit 63
 * (v = M 2^(e - 1086)), so v * 2^64 = M / 2^s with s = 1022 - e, and the
 * result is M >> s with bit 0 cleared.  Every s >= 63 (v < 2^-63, zero and
 * subnormals included) gives 0: M >> 63 is 1, cleared.  So s is clamped to
 * [0, 63] and the shift is always valid.  For v >= 1 (s < 0) the result is
 * meaningless and the caller masks it.
 */
static inline uint64_t falcon_m4_fpr_to_q64(uint64_t bits)
{
    uint32_t hi = (uint32_t)(bits >> 32), lo = (uint32_t)bits;
    return (falcon_m4_significand(hi, lo) >> falcon_m4_exponent_shift(hi, 1022)) & ~(uint64_t)1;
}

/*
 * ccs * U moved to scale 2^63, from ccs's significand and exponent instead
 * of a Q0.64 ccs: with M the significand, implicit bit at bit 63, and
 * s = 1023 - e, ccs = M 2^-(63 + s), and the result is floor(P / 2^s), P
 * = floor(M U / 2^64), exact (UMULL, UMULL, UMAAL, UMAAL on a Cortex-M4),
 * at scale 2^(63 + s).
 * ccs = 1 is M = 2^63, s = 0: no special path.  The
 * caller clamps s to [0, 63] (one USAT on ARMv7-M); below 2^-63 (zero and
 * subnormals included) the result is then at most 1, within the bound.
 * Against converting ccs to Q0.64 this saves a 64-bit shift of ccs, the
 * limbs that straddle its two words and the ccs >= 1 path, for one 64-bit
 * shift of P.  Bound: gen/proof/output.py, mantissa_interval.
 */
static inline uint64_t falcon_m4_expm_p63_mantissa(uint64_t u, uint64_t m, uint32_t s)
{
    return falcon_m4_fxp_mulhi64_umaal(m, u) >> s;
}

/* The edge rules on 32-bit cores: each condition is a bit (the top bit of
 * a difference of 63-bit quantities, or of a 32-bit one when the low word
 * cannot matter) made into a mask by negation.  This helper gives z for x. */
static inline uint64_t falcon_m4_fpr_rules_z(uint64_t x_bits)
{
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    uint64_t xa = x_bits & abs_mask;
    uint64_t dx = FALCON_M4_LN2_DOWN_BITS - xa;
    uint32_t x_big = (uint32_t)(dx >> 63);
    uint32_t x_zero = (uint32_t)(x_bits >> 63) | (uint32_t)((inf_bits - xa) >> 63);
    xa += dx & ((uint64_t)0 - x_big);   /* x -> LN2_DOWN when above it */
    return falcon_m4_fpr_to_q64(xa) & ((uint64_t)x_zero - 1);
}

/* 1 when ccs is negative or NaN. */
static inline uint32_t falcon_m4_fpr_c_zero(uint64_t ccs_bits)
{
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    return (uint32_t)(ccs_bits >> 63) | (uint32_t)((inf_bits - (ccs_bits & (((uint64_t)1 << 63) - 1))) >> 63);
}

/* ccs >= 1 becomes exactly 1 by clearing the significand's fraction (its
 * exponent already clamps s to 0); a negative or NaN ccs clears the whole
 * significand, so the product is 0. */
static inline uint64_t falcon_m4_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    uint32_t ch = (uint32_t)(ccs_bits >> 32) & UINT32_C(0x7FFFFFFF), cl = (uint32_t)ccs_bits;
    uint32_t fraction = (uint32_t)0 - ((UINT32_C(0x3FEFFFFF) - ch) >> 31);   /* all ones iff ccs >= 1 */
    uint64_t keep = (uint64_t)falcon_m4_fpr_c_zero(ccs_bits) - 1;
    uint64_t m = falcon_m4_significand(ch & ~fraction, cl & ~fraction) & keep;
    return falcon_m4_expm_p63_mantissa(falcon_m4_core(falcon_m4_fpr_rules_z(x_bits)), m, falcon_m4_exponent_shift(ch, 1023));
}

/*
 * Native-float adaptor.  The inputs' bit patterns go through the integer
 * adaptor above, so the result is bit-identical to falcon_m4_fpr_expm_p63
 * on every input, by construction.
 */
static inline uint64_t falcon_m4_fpr_expm_p63_native(double x, double ccs)
{
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return falcon_m4_fpr_expm_p63(x_bits, c_bits);
}

/*
 * The Falcon-domain adaptor for emulated-float builds (the arguments are
 * IEEE-754 binary64 bit patterns, as Falcon's fpr type on FPU-less cores):
 * Falcon's own contract for fpr_expm_p63, 0 <= x < ln 2 and 0 <= ccs < 1,
 * and on that domain exactly what falcon_m4_fpr_expm_p63 returns (tested),
 * with the same proven bound; no edge rules outside it (unspecified
 * result, still defined, never reads outside the table).  Integer
 * operations only, ccs through its significand as in
 * falcon_m4_fpr_expm_p63.
 */
static inline uint64_t falcon_m4_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    /* No clamp here: falcon_m4_core keeps every z inside the table. */
    return falcon_m4_expm_p63_mantissa(falcon_m4_core(falcon_m4_fpr_to_q64(x_bits)),
                                        falcon_m4_significand((uint32_t)(ccs_bits >> 32), (uint32_t)ccs_bits),
                                        falcon_m4_exponent_shift((uint32_t)(ccs_bits >> 32), 1023));
}

/* The same on a double's bits, for native-float builds. */
static inline uint64_t falcon_m4_fpr_expm_p63_domain(double x, double ccs)
{
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return falcon_m4_fpr_expm_p63_domain_bits(x_bits, c_bits);
}

#endif /* FALCON_M4_H */

/* SPDX-License-Identifier: CC0-1.0
 * falcon_m3_v1.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_m3_v1.toml (sha256 32a4719d7a50d00c42b01fe1a52aa46bb8e85ade44d8268937a50b8f75f17016); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_m3_v1.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 4,
 *     segments = {kind = "pow2", bits = 8}, max_abs_error_log2 = -53.0, reoptimize = false,
 *     multiplier = "truncated", truncation_budget_log2 = -56.0, table_placement = "sram",
 *     pad_table = true, centre = "adaptor"
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |falcon_m3_v1_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 275.065 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: first Cortex-M3 kernel: 2^-8 segments x degree 4, truncated 15-bit-limb MUL products, mixed 32/64-bit Horner
 *
 * Parameters:
 *   name = "falcon_m3_v1"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 64
 *   scale_bits = 63
 *   degree = 4
 *   segments = {"kind": "pow2", "bits": 8}
 *   error = "absolute"
 *   precision_digits = 50
 *   remez_tolerance = 1e-12
 *   remez_max_iterations = 60
 *   coefficient_scales = null
 *   explicit_coefficients = false
 *   max_abs_error_log2 = -53.0
 *   table_access = "direct"
 *   evaluation = "horner"
 *   form = "direct"
 *   reoptimize = false
 *   wide = false
 *   multiplier = "truncated"
 *   truncation_budget_log2 = -56.0
 *   table_placement = "sram"
 *   pad_table = true
 *   centre = "adaptor"
 *
 * Computed:
 *   inputs z = 0x0 .. 0xb17217f7d1cf79ab (Q0.64); 178 segment(s); pre-shift g = 8
 *   evaluation: horner, form direct; coefficient scales s_j (j = 0..4) = [64, 70, 68, 58, 68]
 *   output: root word at 2^64 -> 2^63 (shift 1, round to nearest)
 *   coefficients re-optimized after rounding (evaluation-aware): no
 *   table: 256 row(s), 10240 bytes, access direct
 *   real-coefficient minimax error (max over segments): 1.4774e-17
 *   proven |p - f| of the quantized polynomials (max over segments): 1.68791e-17
 *   proven bound of _eval: 274.247 units of 2^-63
 *   proven bound of _expm_p63: 273.747 units of 2^-63
 *   proven bound of the Falcon adaptors against the doubles passed (ccs through its significand): 275.065 units of 2^-63
 *   (bounds: gen/proof/ and docs/error-model.md of fxp-kernels; figures per segment: falcon_m3_v1.json)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FALCON_M3_V1_CONTENT_HASH) && FALCON_M3_V1_CONTENT_HASH != 0xfe63433126abecf0u
#error "falcon_m3_v1.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_M3_V1_H
#define FALCON_M3_V1_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define FALCON_M3_V1_CONTENT_HASH 0xfe63433126abecf0u

/**
 * falcon_m3_v1_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1, converted as the reference does (unspecified but defined outside it).
 * falcon_m3_v1_eval(z) ~= f(z / 2^64) 2^63, falcon_m3_v1_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; a z above FALCON_M3_V1_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time only where a load takes the same time at every address (SRAM on a Cortex-M3 or M4): the table
 * row depends on the input; no branch does.
 * Products: 32-bit MUL/MLA of 15-bit limbs on every target (no long multiply).
 * One table per program: define FALCON_M3_V1_TABLE_EXTERN in every file that includes this one but one.
 */

/*
 * Fixed-point helpers: the part of runtime/fxp.h this kernel uses, with
 * the prefix fxp_ of every name replaced by falcon_m3_v1_fxp_ (so two
 * kernels in one program never share one), unchanged otherwise.
 */
/*
 * y - c 2^r and y + c 2^r (mod 2^64) for a 64-bit word y and a 32-bit
 * column accumulator c of a limb product ("truncated" kernels): the column
 * sums and the Horner step K_j - v y are written as a chain of these
 * (gen/cemit.py), one per column.  The shift is a constant, passed as a
 * literal: falcon_m3_v1_fxp_sub64_shl for 1 <= r <= 31, falcon_m3_v1_fxp_sub64_shl_hi for
 * 32 <= r <= 63, falcon_m3_v1_fxp_sub64_shr(y, c, d) for y - floor(c / 2^d),
 * 1 <= d <= 31, falcon_m3_v1_fxp_sub64 for r = 0; the falcon_m3_v1_fxp_add64 ones likewise.
 *
 * On Thumb-2 (ARMv7-M and ARMv7E-M) each is SUBS/SBC (ADDS/ADC) whose
 * second operand is c shifted by the constant: two instructions per
 * column.  gcc writes a 64-bit sum of shifted 32-bit words in C as a
 * shift, SUBS and SBC per column, so the asm saves one instruction per
 * column.  The outputs are registers of their own (the low one early-
 * clobber, written before the high inputs are read), not tied to the
 * inputs: tied operands made gcc copy a table word before each chain.
 * Elsewhere the macro is the C expression: the same bits, since both
 * compute modulo 2^64 (tests/test_fxp_columns.py runs both against exact
 * values).  Data-processing instructions take one cycle whatever the
 * operands on these cores: constant time.
 */

#if defined(__GNUC__) && defined(__thumb2__) && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define falcon_m3_v1_fxp_col64_asm(y, c, text, r) __extension__({ \
    uint64_t falcon_m3_v1_fxp_col_y = (y); \
    uint32_t falcon_m3_v1_fxp_col_lo, falcon_m3_v1_fxp_col_hi; \
    __asm__(text : "=&r"(falcon_m3_v1_fxp_col_lo), "=r"(falcon_m3_v1_fxp_col_hi) \
            : "r"((uint32_t)falcon_m3_v1_fxp_col_y), "r"((uint32_t)(falcon_m3_v1_fxp_col_y >> 32)), "r"((uint32_t)(c)), \
              "i"((r) & 31), "i"((32 - (r)) & 31) : "cc"); \
    ((uint64_t)falcon_m3_v1_fxp_col_hi << 32) | falcon_m3_v1_fxp_col_lo; })
#define falcon_m3_v1_fxp_sub64_shl(y, c, r) falcon_m3_v1_fxp_col64_asm(y, c, "subs %0, %2, %4, lsl %5\n\tsbc %1, %3, %4, lsr %6", r)
#define falcon_m3_v1_fxp_add64_shl(y, c, r) falcon_m3_v1_fxp_col64_asm(y, c, "adds %0, %2, %4, lsl %5\n\tadc %1, %3, %4, lsr %6", r)
#define falcon_m3_v1_fxp_sub64_shr(y, c, d) falcon_m3_v1_fxp_col64_asm(y, c, "subs %0, %2, %4, lsr %5\n\tsbc %1, %3, #0", d)
#define falcon_m3_v1_fxp_add64_shr(y, c, d) falcon_m3_v1_fxp_col64_asm(y, c, "adds %0, %2, %4, lsr %5\n\tadc %1, %3, #0", d)
#define falcon_m3_v1_fxp_sub64(y, c) falcon_m3_v1_fxp_col64_asm(y, c, "subs %0, %2, %4\n\tsbc %1, %3, #0", 0)
#define falcon_m3_v1_fxp_add64(y, c) falcon_m3_v1_fxp_col64_asm(y, c, "adds %0, %2, %4\n\tadc %1, %3, #0", 0)
#else
#define falcon_m3_v1_fxp_sub64_shl(y, c, r) ((uint64_t)(y) - ((uint64_t)(uint32_t)(c) << (r)))
#define falcon_m3_v1_fxp_add64_shl(y, c, r) ((uint64_t)(y) + ((uint64_t)(uint32_t)(c) << (r)))
#define falcon_m3_v1_fxp_sub64_shr(y, c, d) ((uint64_t)(y) - (uint64_t)((uint32_t)(c) >> (d)))
#define falcon_m3_v1_fxp_add64_shr(y, c, d) ((uint64_t)(y) + (uint64_t)((uint32_t)(c) >> (d)))
#define falcon_m3_v1_fxp_sub64(y, c) ((uint64_t)(y) - (uint64_t)(uint32_t)(c))
#define falcon_m3_v1_fxp_add64(y, c) ((uint64_t)(y) + (uint64_t)(uint32_t)(c))
#endif

/*
 * Coefficient table: one row per segment, K_0 .. K_4 (K_j multiplies
 * v^j, v = T / 2^64).  K_j = round(sigma_j * a_j * 2^s_j), stored modulo
 * 2^64; the scales s_j and signs sigma_j are the same on every row and
 * are listed in falcon_m3_v1.h.  10240 bytes.
 *
 * pad_table: 256 rows for 178 segments.  Rows 178..255 repeat
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
#define FALCON_M3_V1_TABLE_SECTION __attribute__((section(".data.falcon_m3_v1_coeffs")))
#else
#define FALCON_M3_V1_TABLE_SECTION
#endif
/* One definition per program: every file that includes this header but one
 * defines FALCON_M3_V1_TABLE_EXTERN and sees only the declaration. */
extern const uint64_t falcon_m3_v1_coeffs[256][5];
#ifndef FALCON_M3_V1_TABLE_EXTERN
const uint64_t falcon_m3_v1_coeffs[256][5] FALCON_M3_V1_TABLE_SECTION = {
    /* segment 0: z in [0x0000000000000000, 0x00ffffffffffffff], proven |p - f| <= 1.660e-17 */
    { UINT64_C(0xffffffffffffff10), UINT64_C(0x3ffffffffff2b0e2), UINT64_C(0x0007ffffffe560c4), UINT64_C(0x00000000aaaa9807), UINT64_C(0x00000000aa556d23) },
    /* segment 1: z in [0x0100000000000000, 0x01ffffffffffffff], proven |p - f| <= 1.666e-17 */
    { UINT64_C(0xff007fd55ffddd4d), UINT64_C(0x3fc01ff557f235b9), UINT64_C(0x0007f803fe907b45), UINT64_C(0x00000000aa0042a8), UINT64_C(0x00000000a9ab6cc4) },
    /* segment 2: z in [0x0200000000000000, 0x02ffffffffffffff], proven |p - f| <= 1.650e-17 */
    { UINT64_C(0xfe01feab551126dd), UINT64_C(0x3f807faad5371559), UINT64_C(0x0007f00ff5403e57), UINT64_C(0x00000000a9569749), UINT64_C(0x00000000a9021611) },
    /* segment 3: z in [0x0300000000000000, 0x03ffffffffffffff], proven |p - f| <= 1.659e-17 */
    { UINT64_C(0xfd047b835dfa9b75), UINT64_C(0x3f411ee0d7717fab), UINT64_C(0x0007e823dc00a000), UINT64_C(0x00000000a8ad9541), UINT64_C(0x00000000a8596860) },
    /* segment 4: z in [0x0400000000000000, 0x04ffffffffffffff], proven |p - f| <= 1.687e-17 */
    { UINT64_C(0xfc07f55ff77d239f), UINT64_C(0x3f01fd57fdd22ed9), UINT64_C(0x0007e03faae58656), UINT64_C(0x00000000a8053be6), UINT64_C(0x00000000a7b16308) },
    /* segment 5: z in [0x0500000000000000, 0x05ffffffffffffff], proven |p - f| <= 1.638e-17 */
    { UINT64_C(0xfb0c6b449b604dd7), UINT64_C(0x3ec31ad126cb0679), UINT64_C(0x0007d8635a0abf98), UINT64_C(0x00000000a75d8a91), UINT64_C(0x00000000a70a0562) },
    /* segment 6: z in [0x0600000000000000, 0x06ffffffffffffff], proven |p - f| <= 1.688e-17 */
    { UINT64_C(0xfa11dc35bf73c7a9), UINT64_C(0x3e84770d6fcff1f7), UINT64_C(0x0007d08ee193fa42), UINT64_C(0x00000000a6b68099), UINT64_C(0x00000000a6634ec6) },
    /* segment 7: z in [0x0700000000000000, 0x07ffffffffffffff], proven |p - f| <= 1.669e-17 */
    { UINT64_C(0xf9184738d493d40a), UINT64_C(0x3e4611ce35180207), UINT64_C(0x0007c8c239acbd37), UINT64_C(0x00000000a6101d58), UINT64_C(0x00000000a5bd3e8d) },
    /* segment 8: z in [0x0800000000000000, 0x08ffffffffffffff], proven |p - f| <= 1.674e-17 */
    { UINT64_C(0xf81fab5445aebb99), UINT64_C(0x3e07ead5115ec8d8), UINT64_C(0x0007c0fd5a885fe9), UINT64_C(0x00000000a56a6027), UINT64_C(0x00000000a517d411) },
    /* segment 9: z in [0x0900000000000000, 0x09ffffffffffffff], proven |p - f| <= 1.631e-17 */
    { UINT64_C(0xf728078f76cb37df), UINT64_C(0x3dca01e3dda5f4c5), UINT64_C(0x0007b9403c62028d), UINT64_C(0x00000000a4c54861), UINT64_C(0x00000000a4730eae) },
    /* segment 10: z in [0x0a00000000000000, 0x0affffffffffffff], proven |p - f| <= 1.645e-17 */
    { UINT64_C(0xf6315af2c40fd6e1), UINT64_C(0x3d8c56bcb0f72958), UINT64_C(0x0007b18ad77c8659), UINT64_C(0x00000000a420d560), UINT64_C(0x00000000a3ceedbd) },
    /* segment 11: z in [0x0b00000000000000, 0x0bffffffffffffff], proven |p - f| <= 1.663e-17 */
    { UINT64_C(0xf53ba48780cb5774), UINT64_C(0x3d4ee921e0261647), UINT64_C(0x0007a9dd242285c3), UINT64_C(0x00000000a37d067f), UINT64_C(0x00000000a32b709c) },
    /* segment 12: z in [0x0c00000000000000, 0x0cffffffffffffff], proven |p - f| <= 1.625e-17 */
    { UINT64_C(0xf446e357f67dfca7), UINT64_C(0x3d11b8d5fd92cc4b), UINT64_C(0x0007a2371aa64ccc), UINT64_C(0x00000000a2d9db1c), UINT64_C(0x00000000a28896a6) },
    /* segment 13: z in [0x0d00000000000000, 0x0dffffffffffffff], proven |p - f| <= 1.605e-17 */
    { UINT64_C(0xf353166f63e3d6a3), UINT64_C(0x3cd4c59bd8ec4f75), UINT64_C(0x00079a98b361d155), UINT64_C(0x00000000a2375293), UINT64_C(0x00000000a1e65f38) },
    /* segment 14: z in [0x0e00000000000000, 0x0effffffffffffff], proven |p - f| <= 1.592e-17 */
    { UINT64_C(0xf2603cd9fc0001b0), UINT64_C(0x3c980f367ef366d8), UINT64_C(0x00079301e6b6ab78), UINT64_C(0x00000000a1956c41), UINT64_C(0x00000000a144c9b1) },
    /* segment 15: z in [0x0f00000000000000, 0x0fffffffffffffff], proven |p - f| <= 1.644e-17 */
    { UINT64_C(0xf16e55a4e528d932), UINT64_C(0x3c5b9569393da949), UINT64_C(0x00078b72ad0e0de6), UINT64_C(0x00000000a0f42785), UINT64_C(0x00000000a0a3d56f) },
    /* segment 16: z in [0x1000000000000000, 0x10ffffffffffffff], proven |p - f| <= 1.621e-17 */
    { UINT64_C(0xf07d5fde38151d8d), UINT64_C(0x3c1f57f78df8c6ec), UINT64_C(0x000783eafed8be57), UINT64_C(0x00000000a05383bc), UINT64_C(0x00000000a00381d1) },
    /* segment 17: z in [0x1100000000000000, 0x11ffffffffffffff], proven |p - f| <= 1.622e-17 */
    { UINT64_C(0xef8d5a94feea0d76), UINT64_C(0x3be356a53fae0f5c), UINT64_C(0x00077c6ad48f0df5), UINT64_C(0x000000009fb38048), UINT64_C(0x000000009f63ce36) },
    /* segment 18: z in [0x1200000000000000, 0x12ffffffffffffff], proven |p - f| <= 1.646e-17 */
    { UINT64_C(0xee9e44d9344a6f00), UINT64_C(0x3ba791364d063432), UINT64_C(0x000774f226b0d1d5), UINT64_C(0x000000009f141c86), UINT64_C(0x000000009ec4b9ff) },
    /* segment 19: z in [0x1300000000000000, 0x13ffffffffffffff], proven |p - f| <= 1.623e-17 */
    { UINT64_C(0xedb01dbbc2668b6e), UINT64_C(0x3b6c076ef08d47a8), UINT64_C(0x00076d80edc55b7a), UINT64_C(0x000000009e7557da), UINT64_C(0x000000009e26448d) },
    /* segment 20: z in [0x1400000000000000, 0x14ffffffffffffff], proven |p - f| <= 1.558e-17 */
    { UINT64_C(0xecc2e44e820d17eb), UINT64_C(0x3b30b913a076f71f), UINT64_C(0x00076617225b7159), UINT64_C(0x000000009dd731a2), UINT64_C(0x000000009d886d41) },
    /* segment 21: z in [0x1500000000000000, 0x15ffffffffffffff], proven |p - f| <= 1.595e-17 */
    { UINT64_C(0xebd697a439bd0f8c), UINT64_C(0x3af5a5e90e63014e), UINT64_C(0x00075eb4bd09476c), UINT64_C(0x000000009d39a942), UINT64_C(0x000000009ceb337e) },
    /* segment 22: z in [0x1600000000000000, 0x16ffffffffffffff], proven |p - f| <= 1.546e-17 */
    { UINT64_C(0xeaeb36d09cb878ce), UINT64_C(0x3abacdb42721e7de), UINT64_C(0x00075759b66c77c1), UINT64_C(0x000000009c9cbe1b), UINT64_C(0x000000009c4e96a6) },
    /* segment 23: z in [0x1700000000000000, 0x17ffffffffffffff], proven |p - f| <= 1.575e-17 */
    { UINT64_C(0xea00c0e84a18195a), UINT64_C(0x3a80303a1279dc32), UINT64_C(0x000750060729fb20), UINT64_C(0x000000009c006f91), UINT64_C(0x000000009bb2961d) },
    /* segment 24: z in [0x1800000000000000, 0x18ffffffffffffff], proven |p - f| <= 1.549e-17 */
    { UINT64_C(0xe9173500cbe014c8), UINT64_C(0x3a45cd4032ebe72f), UINT64_C(0x000748b9a7ee21aa), UINT64_C(0x000000009b64bd08), UINT64_C(0x000000009b173146) },
    /* segment 25: z in [0x1900000000000000, 0x19ffffffffffffff], proven |p - f| <= 1.594e-17 */
    { UINT64_C(0xe82e923096157664), UINT64_C(0x3a0ba48c25794bb2), UINT64_C(0x00074174916c8b86), UINT64_C(0x000000009ac9a5e3), UINT64_C(0x000000009a7c6786) },
    /* segment 26: z in [0x1a00000000000000, 0x1affffffffffffff], proven |p - f| <= 1.586e-17 */
    { UINT64_C(0xe746d78f05d4a5b8), UINT64_C(0x39d1b5e3c169238d), UINT64_C(0x00073a36bc602198), UINT64_C(0x000000009a2f2989), UINT64_C(0x0000000099e23843) },
    /* segment 27: z in [0x1b00000000000000, 0x1bffffffffffffff], proven |p - f| <= 1.533e-17 */
    { UINT64_C(0xe66004346068c2b2), UINT64_C(0x3998010d180e36ce), UINT64_C(0x00073300218b0e3a), UINT64_C(0x000000009995475d), UINT64_C(0x000000009948a2e3) },
    /* segment 28: z in [0x1c00000000000000, 0x1cffffffffffffff], proven |p - f| <= 1.568e-17 */
    { UINT64_C(0xe57a1739d263ebcd), UINT64_C(0x395e85ce748d0d06), UINT64_C(0x00072bd0b9b6b5fd), UINT64_C(0x0000000098fbfec7), UINT64_C(0x0000000098afa6ca) },
    /* segment 29: z in [0x1d00000000000000, 0x1dffffffffffffff], proven |p - f| <= 1.569e-17 */
    { UINT64_C(0xe4950fb96eb869c2), UINT64_C(0x392543ee5ba23871), UINT64_C(0x000724a87db3b072), UINT64_C(0x0000000098634f2c), UINT64_C(0x0000000098174362) },
    /* segment 30: z in [0x1e00000000000000, 0x1effffffffffffff], proven |p - f| <= 1.583e-17 */
    { UINT64_C(0xe3b0ecce2dd2c31e), UINT64_C(0x38ec3b338b68daa5), UINT64_C(0x00071d876659c0fe), UINT64_C(0x0000000097cb37f5), UINT64_C(0x00000000977f7811) },
    /* segment 31: z in [0x1f00000000000000, 0x1fffffffffffffff], proven |p - f| <= 1.522e-17 */
    { UINT64_C(0xe2cdad93ecb4b416), UINT64_C(0x38b36b64fb2162ae), UINT64_C(0x0007166d6c87cfaf), UINT64_C(0x000000009733b88a), UINT64_C(0x0000000096e8443f) },
    /* segment 32: z in [0x2000000000000000, 0x20ffffffffffffff], proven |p - f| <= 1.496e-17 */
    { UINT64_C(0xe1eb51276c110b6f), UINT64_C(0x387ad449daf8844a), UINT64_C(0x00070f5a8923e21c), UINT64_C(0x00000000969cd052), UINT64_C(0x000000009651a756) },
    /* segment 33: z in [0x2100000000000000, 0x21ffffffffffffff], proven |p - f| <= 1.490e-17 */
    { UINT64_C(0xe109d6a64f686b96), UINT64_C(0x384275a993ce680c), UINT64_C(0x0007084eb51b144a), UINT64_C(0x0000000096067eb7), UINT64_C(0x0000000095bba0bf) },
    /* segment 34: z in [0x2200000000000000, 0x22ffffffffffffff], proven |p - f| <= 1.546e-17 */
    { UINT64_C(0xe0293d2f1c26edb4), UINT64_C(0x380a4f4bc6fe143e), UINT64_C(0x00070149e9619199), UINT64_C(0x000000009570c323), UINT64_C(0x0000000095262fe3) },
    /* segment 35: z in [0x2300000000000000, 0x23ffffffffffffff], proven |p - f| <= 1.494e-17 */
    { UINT64_C(0xdf4983e138c2a6f3), UINT64_C(0x37d260f84e250e31), UINT64_C(0x0006fa4c1ef28dbb), UINT64_C(0x0000000094db9cff), UINT64_C(0x000000009491542d) },
    /* segment 36: z in [0x2400000000000000, 0x24ffffffffffffff], proven |p - f| <= 1.488e-17 */
    { UINT64_C(0xde6aa9dcebdb0f44), UINT64_C(0x379aaa773aeb33db), UINT64_C(0x0006f3554ed03dab), UINT64_C(0x0000000094470bb7), UINT64_C(0x0000000093fd0d09) },
    /* segment 37: z in [0x2500000000000000, 0x25ffffffffffffff], proven |p - f| <= 1.481e-17 */
    { UINT64_C(0xdd8cae435b594788), UINT64_C(0x37632b90d6cacd77), UINT64_C(0x0006ec657203d0b3), UINT64_C(0x0000000093b30eb6), UINT64_C(0x00000000936959e2) },
    /* segment 38: z in [0x2600000000000000, 0x26ffffffffffffff], proven |p - f| <= 1.514e-17 */
    { UINT64_C(0xdcaf90368b913f9a), UINT64_C(0x372be40da2d8d6fc), UINT64_C(0x0006e57c819d6971), UINT64_C(0x00000000931fa568), UINT64_C(0x0000000092d63a24) },
    /* segment 39: z in [0x2700000000000000, 0x27ffffffffffffff], proven |p - f| <= 1.499e-17 */
    { UINT64_C(0xdbd34ed95e63ba94), UINT64_C(0x36f4d3b6578d812d), UINT64_C(0x0006de9a76b416ec), UINT64_C(0x00000000928ccf3a), UINT64_C(0x000000009243ad3d) },
    /* segment 40: z in [0x2800000000000000, 0x28ffffffffffffff], proven |p - f| <= 1.464e-17 */
    { UINT64_C(0xdaf7e94f92613079), UINT64_C(0x36bdfa53e48cea0c), UINT64_C(0x0006d7bf4a65cda9), UINT64_C(0x0000000091fa8b99), UINT64_C(0x0000000091b1b299) },
    /* segment 41: z in [0x2900000000000000, 0x29ffffffffffffff], proven |p - f| <= 1.515e-17 */
    { UINT64_C(0xda1d5ebdc1ed8cba), UINT64_C(0x368757af70700c7c), UINT64_C(0x0006d0eaf5d760c6), UINT64_C(0x000000009168d9f2), UINT64_C(0x00000000912049a7) },
    /* segment 42: z in [0x2a00000000000000, 0x2affffffffffffff], proven |p - f| <= 1.498e-17 */
    { UINT64_C(0xd943ae496264c8dd), UINT64_C(0x3650eb92588de6d1), UINT64_C(0x0006ca1d72347b23), UINT64_C(0x0000000090d7b9b5), UINT64_C(0x00000000908f71d5) },
    /* segment 43: z in [0x2b00000000000000, 0x2bffffffffffffff], proven |p - f| <= 1.490e-17 */
    { UINT64_C(0xd86ad718c340611c), UINT64_C(0x361ab5c630c4d826), UINT64_C(0x0006c356b8af988c), UINT64_C(0x0000000090472a4f), UINT64_C(0x000000008fff2a93) },
    /* segment 44: z in [0x2c00000000000000, 0x2cffffffffffffff], proven |p - f| <= 1.453e-17 */
    { UINT64_C(0xd792d8530d3da472), UINT64_C(0x35e4b614c3443438), UINT64_C(0x0006bc96c281feed), UINT64_C(0x000000008fb72b30), UINT64_C(0x000000008f6f7350) },
    /* segment 45: z in [0x2d00000000000000, 0x2dffffffffffffff], proven |p - f| <= 1.499e-17 */
    { UINT64_C(0xd6bbb1204184dcf3), UINT64_C(0x35aeec4810560d8b), UINT64_C(0x0006b5dd88ebb786), UINT64_C(0x000000008f27bbc8), UINT64_C(0x000000008ee04b7d) },
    /* segment 46: z in [0x2e00000000000000, 0x2effffffffffffff], proven |p - f| <= 1.480e-17 */
    { UINT64_C(0xd5e560a938d15122), UINT64_C(0x3579582a4e2935b5), UINT64_C(0x0006af2b05338833), UINT64_C(0x000000008e98db89), UINT64_C(0x000000008e51b289) },
    /* segment 47: z in [0x2f00000000000000, 0x2fffffffffffffff], proven |p - f| <= 1.460e-17 */
    { UINT64_C(0xd50fe617a29a1c06), UINT64_C(0x3543f985e89b7388), UINT64_C(0x0006a87f30a6ecad), UINT64_C(0x000000008e0a89e2), UINT64_C(0x000000008dc3a7e8) },
    /* segment 48: z in [0x3000000000000000, 0x30ffffffffffffff], proven |p - f| <= 1.487e-17 */
    { UINT64_C(0xd43b4096043bdd51), UINT64_C(0x350ed0258103eee7), UINT64_C(0x0006a1da049a0fd8), UINT64_C(0x000000008d7cc646), UINT64_C(0x000000008d362b0a) },
    /* segment 49: z in [0x3100000000000000, 0x31ffffffffffffff], proven |p - f| <= 1.428e-17 */
    { UINT64_C(0xd3676f4fb8233e12), UINT64_C(0x34d9dbd3edfdd21e), UINT64_C(0x00069b3b7a67c51a), UINT64_C(0x000000008cef9026), UINT64_C(0x000000008ca93b63) },
    /* segment 50: z in [0x3200000000000000, 0x32ffffffffffffff], proven |p - f| <= 1.454e-17 */
    { UINT64_C(0xd2947170ecf84b87), UINT64_C(0x34a51c5c3b332074), UINT64_C(0x000694a38b7181b4), UINT64_C(0x000000008c62e6f6), UINT64_C(0x000000008c1cd865) },
    /* segment 51: z in [0x3300000000000000, 0x33ffffffffffffff], proven |p - f| <= 1.470e-17 */
    { UINT64_C(0xd1c24626a4caa555), UINT64_C(0x34709189a927c1d6), UINT64_C(0x00068e12311f5621), UINT64_C(0x000000008bd6ca29), UINT64_C(0x000000008b910183) },
    /* segment 52: z in [0x3400000000000000, 0x34ffffffffffffff], proven |p - f| <= 1.458e-17 */
    { UINT64_C(0xd0f0ec9eb43e7fb6), UINT64_C(0x343c3b27ad04c34f), UINT64_C(0x0006878764dfe786), UINT64_C(0x000000008b4b3933), UINT64_C(0x000000008b05b633) },
    /* segment 53: z in [0x3500000000000000, 0x35ffffffffffffff], proven |p - f| <= 1.463e-17 */
    { UINT64_C(0xd0206407c1ba780a), UINT64_C(0x34081901f063cc36), UINT64_C(0x0006810320286915), UINT64_C(0x000000008ac03389), UINT64_C(0x000000008a7af5e9) },
    /* segment 54: z in [0x3600000000000000, 0x36ffffffffffffff], proven |p - f| <= 1.399e-17 */
    { UINT64_C(0xcf50ab9144963ae3), UINT64_C(0x33d42ae4511ac7bc), UINT64_C(0x00067a855c74958d), UINT64_C(0x000000008a35b89e), UINT64_C(0x0000000089f0c019) },
    /* segment 55: z in [0x3700000000000000, 0x37ffffffffffffff], proven |p - f| <= 1.427e-17 */
    { UINT64_C(0xce81c26b8449fbe0), UINT64_C(0x33a0709ae107c2be), UINT64_C(0x0006740e1346a8af), UINT64_C(0x0000000089abc7e9), UINT64_C(0x000000008967143a) },
    /* segment 56: z in [0x3800000000000000, 0x38ffffffffffffff], proven |p - f| <= 1.434e-17 */
    { UINT64_C(0xcdb3a7c7979ebc9e), UINT64_C(0x336ce9f1e5dcfda5), UINT64_C(0x00066d9d3e2758c4), UINT64_C(0x00000000892260e0), UINT64_C(0x0000000088ddf1c3) },
    /* segment 57: z in [0x3900000000000000, 0x39ffffffffffffff], proven |p - f| <= 1.415e-17 */
    { UINT64_C(0xcce65ad763df6398), UINT64_C(0x333996b5d8ed320c), UINT64_C(0x00066732d6a5d023), UINT64_C(0x00000000889982fa), UINT64_C(0x0000000088555829) },
    /* segment 58: z in [0x3a00000000000000, 0x3affffffffffffff], proven |p - f| <= 1.408e-17 */
    { UINT64_C(0xcc19dacd9c0aa131), UINT64_C(0x330676b366f80c14), UINT64_C(0x000660ced657a6c1), UINT64_C(0x0000000088112dad), UINT64_C(0x0000000087cd46e5) },
    /* segment 59: z in [0x3b00000000000000, 0x3bffffffffffffff], proven |p - f| <= 1.382e-17 */
    { UINT64_C(0xcb4e26ddc005a2f1), UINT64_C(0x32d389b76ff6d71c), UINT64_C(0x00065a7136d8dbc8), UINT64_C(0x0000000087896071), UINT64_C(0x000000008745bd6e) },
    /* segment 60: z in [0x3c00000000000000, 0x3cffffffffffffff], proven |p - f| <= 1.406e-17 */
    { UINT64_C(0xca833e3c1bcf933d), UINT64_C(0x32a0cf8f06e95dba), UINT64_C(0x00065419f1cbcf32), UINT64_C(0x0000000087021abf), UINT64_C(0x0000000086bebb3d) },
    /* segment 61: z in [0x3d00000000000000, 0x3dffffffffffffff], proven |p - f| <= 1.425e-17 */
    { UINT64_C(0xc9b9201dc6b5e515), UINT64_C(0x326e480771a2fcb1), UINT64_C(0x00064dc900d93b69), UINT64_C(0x00000000867b5c0f), UINT64_C(0x0000000086383fcb) },
    /* segment 62: z in [0x3e00000000000000, 0x3effffffffffffff], proven |p - f| <= 1.389e-17 */
    { UINT64_C(0xc8efcbb8a2896b80), UINT64_C(0x323bf2ee2897e8c4), UINT64_C(0x0006477e5db02ef5), UINT64_C(0x0000000085f523da), UINT64_C(0x0000000085b24a91) },
    /* segment 63: z in [0x3f00000000000000, 0x3fffffffffffffff], proven |p - f| <= 1.394e-17 */
    { UINT64_C(0xc82740435ad43b4e), UINT64_C(0x3209d010d6aaa727), UINT64_C(0x0006413a02060626), UINT64_C(0x00000000856f719a), UINT64_C(0x00000000852cdb09) },
    /* segment 64: z in [0x4000000000000000, 0x40ffffffffffffff], proven |p - f| <= 1.368e-17 */
    { UINT64_C(0xc75f7cf564105691), UINT64_C(0x31d7df3d58f9b85a), UINT64_C(0x00063afbe79664cd), UINT64_C(0x0000000084ea44ca), UINT64_C(0x0000000084a7f0ae) },
    /* segment 65: z in [0x4100000000000000, 0x41ffffffffffffff], proven |p - f| <= 1.403e-17 */
    { UINT64_C(0xc6988106fadf20d3), UINT64_C(0x31a62041bead7544), UINT64_C(0x000634c408232ff5), UINT64_C(0x0000000084659ce4), UINT64_C(0x0000000084238afc) },
    /* segment 66: z in [0x4200000000000000, 0x42ffffffffffffff], proven |p - f| <= 1.379e-17 */
    { UINT64_C(0xc5d24bb123419bf8), UINT64_C(0x317492ec48c61e5a), UINT64_C(0x00062e925d7487a5), UINT64_C(0x0000000083e17964), UINT64_C(0x00000000839fa96c) },
    /* segment 67: z in [0x4300000000000000, 0x43ffffffffffffff], proven |p - f| <= 1.400e-17 */
    { UINT64_C(0xc50cdc2da7d16bf0), UINT64_C(0x3143370b69ea1c97), UINT64_C(0x00062866e158c0ac), UINT64_C(0x00000000835dd9c6), UINT64_C(0x00000000831c4b7d) },
    /* segment 68: z in [0x4400000000000000, 0x44ffffffffffffff], proven |p - f| <= 1.357e-17 */
    { UINT64_C(0xc44831b718faa132), UINT64_C(0x31120c6dc6347423), UINT64_C(0x000622418da45e69), UINT64_C(0x0000000082dabd85), UINT64_C(0x00000000829970aa) },
    /* segment 69: z in [0x4500000000000000, 0x45ffffffffffffff], proven |p - f| <= 1.345e-17 */
    { UINT64_C(0xc3844b88cc36497a), UINT64_C(0x30e112e233036864), UINT64_C(0x00061c225c320ca6), UINT64_C(0x000000008258241f), UINT64_C(0x0000000082171870) },
    /* segment 70: z in [0x4600000000000000, 0x46ffffffffffffff], proven |p - f| <= 1.357e-17 */
    { UINT64_C(0xc2c128dedb45c4c9), UINT64_C(0x30b04a37b6c7515e), UINT64_C(0x0006160946e2996d), UINT64_C(0x0000000081d60d11), UINT64_C(0x000000008195424d) },
    /* segment 71: z in [0x4700000000000000, 0x47ffffffffffffff], proven |p - f| <= 1.409e-17 */
    { UINT64_C(0xc1fec8f6236edf4c), UINT64_C(0x307fb23d88d1a21d), UINT64_C(0x00060ff6479ceeec), UINT64_C(0x00000000815477d9), UINT64_C(0x000000008113edc0) },
    /* segment 72: z in [0x4800000000000000, 0x48ffffffffffffff], proven |p - f| <= 1.385e-17 */
    { UINT64_C(0xc13d2b0c44b8ae98), UINT64_C(0x304f4ac311241fff), UINT64_C(0x000609e9584e0d5d), UINT64_C(0x0000000080d363f6), UINT64_C(0x0000000080931a47) },
    /* segment 73: z in [0x4900000000000000, 0x49ffffffffffffff], proven |p - f| <= 1.366e-17 */
    { UINT64_C(0xc07c4e5fa1293175), UINT64_C(0x301f1397e8404ab8), UINT64_C(0x000603e272e904f0), UINT64_C(0x000000008052d0e7), UINT64_C(0x000000008012c761) },
    /* segment 74: z in [0x4a00000000000000, 0x4affffffffffffff], proven |p - f| <= 1.342e-17 */
    { UINT64_C(0xbfbc322f5c03b1ca), UINT64_C(0x2fef0c8bd6f6f4cb), UINT64_C(0x0005fde19166efbe), UINT64_C(0x000000007fd2be2a), UINT64_C(0x000000007f92f48d) },
    /* segment 75: z in [0x4b00000000000000, 0x4bffffffffffffff], proven |p - f| <= 1.350e-17 */
    { UINT64_C(0xbefcd5bb5907e835), UINT64_C(0x2fbf356ed6380c57), UINT64_C(0x0005f7e6adc6ebc6), UINT64_C(0x000000007f532b40), UINT64_C(0x000000007f13a14d) },
    /* segment 76: z in [0x4c00000000000000, 0x4cffffffffffffff], proven |p - f| <= 1.327e-17 */
    { UINT64_C(0xbe3e38443bb1df4f), UINT64_C(0x2f8f8e110ee29407), UINT64_C(0x0005f1f1c20e14e8), UINT64_C(0x000000007ed417a9), UINT64_C(0x000000007e94cd21) },
    /* segment 77: z in [0x4d00000000000000, 0x4dffffffffffffff], proven |p - f| <= 1.321e-17 */
    { UINT64_C(0xbd80590b667a974f), UINT64_C(0x2f601642d994cbe8), UINT64_C(0x0005ec02c8477eed), UINT64_C(0x000000007e5582e6), UINT64_C(0x000000007e167789) },
    /* segment 78: z in [0x4e00000000000000, 0x4effffffffffffff], proven |p - f| <= 1.306e-17 */
    { UINT64_C(0xbcc33752fa196872), UINT64_C(0x2f30cdd4be7c8a05), UINT64_C(0x0005e619ba842f8e), UINT64_C(0x000000007dd76c79), UINT64_C(0x000000007d98a007) },
    /* segment 79: z in [0x4f00000000000000, 0x4fffffffffffffff], proven |p - f| <= 1.330e-17 */
    { UINT64_C(0xbc06d25dd4c6236f), UINT64_C(0x2f01b4977527c291), UINT64_C(0x0005e03692db188c), UINT64_C(0x000000007d59d3e3), UINT64_C(0x000000007d1b461f) },
    /* segment 80: z in [0x5000000000000000, 0x50ffffffffffffff], proven |p - f| <= 1.356e-17 */
    { UINT64_C(0xbb4b296f917befee), UINT64_C(0x2ed2ca5be4553f73), UINT64_C(0x0005da594b6911be), UINT64_C(0x000000007cdcb8a7), UINT64_C(0x000000007c9e6951) },
    /* segment 81: z in [0x5100000000000000, 0x51ffffffffffffff], proven |p - f| <= 1.335e-17 */
    { UINT64_C(0xba903bcc873ce73e), UINT64_C(0x2ea40ef321c586fe), UINT64_C(0x0005d481de50d336), UINT64_C(0x000000007c601a48), UINT64_C(0x000000007c220923) },
    /* segment 82: z in [0x5200000000000000, 0x52ffffffffffffff], proven |p - f| <= 1.340e-17 */
    { UINT64_C(0xb9d608b9c8566b47), UINT64_C(0x2e75822e720bf1af), UINT64_C(0x0005ceb045baef5f), UINT64_C(0x000000007be3f849), UINT64_C(0x000000007ba62516) },
    /* segment 83: z in [0x5300000000000000, 0x53ffffffffffffff], proven |p - f| <= 1.350e-17 */
    { UINT64_C(0xb91c8f7d21a638e5), UINT64_C(0x2e4723df485feebb), UINT64_C(0x0005c8e47bd5cd27), UINT64_C(0x000000007b68522e), UINT64_C(0x000000007b2abcaf) },
    /* segment 84: z in [0x5400000000000000, 0x54ffffffffffffff], proven |p - f| <= 1.297e-17 */
    { UINT64_C(0xb863cf5d19e034b5), UINT64_C(0x2e18f3d7466e7746), UINT64_C(0x0005c31e7ad5a22e), UINT64_C(0x000000007aed277c), UINT64_C(0x000000007aafcf73) },
    /* segment 85: z in [0x5500000000000000, 0x55ffffffffffffff], proven |p - f| <= 1.351e-17 */
    { UINT64_C(0xb7abc7a0f0d4f161), UINT64_C(0x2deaf1e83c2bb007), UINT64_C(0x0005bd5e3cf46cf7), UINT64_C(0x000000007a7277b6), UINT64_C(0x000000007a355ce7) },
    /* segment 86: z in [0x5600000000000000, 0x56ffffffffffffff], proven |p - f| <= 1.317e-17 */
    { UINT64_C(0xb6f477909eb8f033), UINT64_C(0x2dbd1de427a4b93c), UINT64_C(0x0005b7a3bc71ef27), UINT64_C(0x0000000079f84264), UINT64_C(0x0000000079bb6491) },
    /* segment 87: z in [0x5700000000000000, 0x57ffffffffffffff], proven |p - f| <= 1.269e-17 */
    { UINT64_C(0xb63dde74d36c9814), UINT64_C(0x2d8f779d34d1acb5), UINT64_C(0x0005b1eef393a7c1), UINT64_C(0x00000000797e8709), UINT64_C(0x000000007941e5f6) },
    /* segment 88: z in [0x5800000000000000, 0x58ffffffffffffff], proven |p - f| <= 1.264e-17 */
    { UINT64_C(0xb587fb96f5c4e677), UINT64_C(0x2d61fee5bd67c9c3), UINT64_C(0x0005ac3fdca4cd6e), UINT64_C(0x000000007905452d), UINT64_C(0x0000000078c8e09d) },
    /* segment 89: z in [0x5900000000000000, 0x59ffffffffffffff], proven |p - f| <= 1.314e-17 */
    { UINT64_C(0xb4d2ce4122d4d563), UINT64_C(0x2d34b39048abceeb), UINT64_C(0x0005a69671f648c5), UINT64_C(0x00000000788c7c56), UINT64_C(0x000000007850540c) },
    /* segment 90: z in [0x5a00000000000000, 0x5affffffffffffff], proven |p - f| <= 1.283e-17 */
    { UINT64_C(0xb41e55be2d3778e4), UINT64_C(0x2d07956f8b44812c), UINT64_C(0x0005a0f2addeae9e), UINT64_C(0x0000000078142c0c), UINT64_C(0x0000000077d83fcc) },
    /* segment 91: z in [0x5b00000000000000, 0x5bffffffffffffff], proven |p - f| <= 1.284e-17 */
    { UINT64_C(0xb36a91599c5ad13a), UINT64_C(0x2cdaa456670d609a), UINT64_C(0x00059b548aba3a6b), UINT64_C(0x00000000779c53d6), UINT64_C(0x000000007760a365) },
    /* segment 92: z in [0x5c00000000000000, 0x5cffffffffffffff], proven |p - f| <= 1.295e-17 */
    { UINT64_C(0xb2b7805fabcb529a), UINT64_C(0x2cade017eae98a3d), UINT64_C(0x000595bc02eac88e), UINT64_C(0x000000007724f33d), UINT64_C(0x0000000076e97e5e) },
    /* segment 93: z in [0x5d00000000000000, 0x5dffffffffffffff], proven |p - f| <= 1.244e-17 */
    { UINT64_C(0xb205221d4a802031), UINT64_C(0x2c8148875296c6eb), UINT64_C(0x0005902910d7d0c1), UINT64_C(0x0000000076ae09c8), UINT64_C(0x000000007672d040) },
    /* segment 94: z in [0x5e00000000000000, 0x5effffffffffffff], proven |p - f| <= 1.300e-17 */
    { UINT64_C(0xb15375e01a27fbb6), UINT64_C(0x2c54dd780680c705), UINT64_C(0x00058a9baeee607a), UINT64_C(0x0000000076379702), UINT64_C(0x0000000075fc9896) },
    /* segment 95: z in [0x5f00000000000000, 0x5fffffffffffffff], proven |p - f| <= 1.282e-17 */
    { UINT64_C(0xb0a27af66e76e64f), UINT64_C(0x2c289ebd9b948ae0), UINT64_C(0x00058513d7a11559), UINT64_C(0x0000000075c19a73), UINT64_C(0x000000007586d6e8) },
    /* segment 96: z in [0x6000000000000000, 0x60ffffffffffffff], proven |p - f| <= 1.290e-17 */
    { UINT64_C(0xaff230af4c7474b4), UINT64_C(0x2bfc8c2bd313f7a8), UINT64_C(0x00057f918568179a), UINT64_C(0x00000000754c13a5), UINT64_C(0x0000000075118ac1) },
    /* segment 97: z in [0x6100000000000000, 0x61ffffffffffffff], proven |p - f| <= 1.265e-17 */
    { UINT64_C(0xaf42965a69cad433), UINT64_C(0x2bd0a5969a6998a8), UINT64_C(0x00057a14b2c11490), UINT64_C(0x0000000074d70224), UINT64_C(0x00000000749cb3ab) },
    /* segment 98: z in [0x6200000000000000, 0x62ffffffffffffff], proven |p - f| <= 1.244e-17 */
    { UINT64_C(0xae93ab482c167fd4), UINT64_C(0x2ba4ead20afc8ca7), UINT64_C(0x0005749d5a2f391e), UINT64_C(0x000000007462657a), UINT64_C(0x0000000074285133) },
    /* segment 99: z in [0x6300000000000000, 0x63ffffffffffffff], proven |p - f| <= 1.299e-17 */
    { UINT64_C(0xade56ec9a836a640), UINT64_C(0x2b795bb26a049f53), UINT64_C(0x00056f2b763b2c3e), UINT64_C(0x0000000073ee3d32), UINT64_C(0x0000000073b462e2) },
    /* segment 100: z in [0x6400000000000000, 0x64ffffffffffffff], proven |p - f| <= 1.229e-17 */
    { UINT64_C(0xad37e030a19e3eb1), UINT64_C(0x2b4df80c285e8e72), UINT64_C(0x000569bf01730987), UINT64_C(0x00000000737a88d9), UINT64_C(0x000000007340e846) },
    /* segment 101: z in [0x6500000000000000, 0x65ffffffffffffff], proven |p - f| <= 1.259e-17 */
    { UINT64_C(0xac8afecf89a5cbd8), UINT64_C(0x2b22bfb3e2607aba), UINT64_C(0x00056457f66a5bbe), UINT64_C(0x00000000730747fa), UINT64_C(0x0000000072cde0eb) },
    /* segment 102: z in [0x6600000000000000, 0x66ffffffffffffff], proven |p - f| <= 1.234e-17 */
    { UINT64_C(0xabdec9f97eddcdc5), UINT64_C(0x2af7b27e5fae8426), UINT64_C(0x00055ef64fba1766), UINT64_C(0x0000000072947a23), UINT64_C(0x00000000725b4c5e) },
    /* segment 103: z in [0x6700000000000000, 0x67ffffffffffffff], proven |p - f| <= 1.227e-17 */
    { UINT64_C(0xab3341024c61dfd0), UINT64_C(0x2accd040930f9193), UINT64_C(0x0005599a0800955e), UINT64_C(0x0000000072221ee0), UINT64_C(0x0000000071e92a2c) },
    /* segment 104: z in [0x6800000000000000, 0x68ffffffffffffff], proven |p - f| <= 1.202e-17 */
    { UINT64_C(0xaa88633e692c841e), UINT64_C(0x2aa218cf9a42438a), UINT64_C(0x0005544319e18d78), UINT64_C(0x0000000071b035bf), UINT64_C(0x00000000717779e4) },
    /* segment 105: z in [0x6900000000000000, 0x69ffffffffffffff], proven |p - f| <= 1.271e-17 */
    { UINT64_C(0xa9de3002f76b9a4d), UINT64_C(0x2a778c00bdd211f2), UINT64_C(0x00054ef180061123), UINT64_C(0x00000000713ebe4e), UINT64_C(0x0000000071063b13) },
    /* segment 106: z in [0x6a00000000000000, 0x6affffffffffffff], proven |p - f| <= 1.243e-17 */
    { UINT64_C(0xa934a6a5c3d581db), UINT64_C(0x2a4d29a970ec94a0), UINT64_C(0x000549a5351c8614), UINT64_C(0x0000000070cdb81d), UINT64_C(0x0000000070956d48) },
    /* segment 107: z in [0x6b00000000000000, 0x6bffffffffffffff], proven |p - f| <= 1.241e-17 */
    { UINT64_C(0xa88bc67d44fee62e), UINT64_C(0x2a22f19f5136f67c), UINT64_C(0x0005445e33d8a0ef), UINT64_C(0x00000000705d22b9), UINT64_C(0x0000000070251013) },
    /* segment 108: z in [0x6c00000000000000, 0x6cffffffffffffff], proven |p - f| <= 1.220e-17 */
    { UINT64_C(0xa7e38ee09ab135d4), UINT64_C(0x29f8e3b826a39325), UINT64_C(0x00053f1c76f36000), UINT64_C(0x000000006fecfdb2), UINT64_C(0x000000006fb52302) },
    /* segment 109: z in [0x6d00000000000000, 0x6dffffffffffffff], proven |p - f| <= 1.194e-17 */
    { UINT64_C(0xa73bff278d41c1df), UINT64_C(0x29ceffc9e347bedf), UINT64_C(0x000539dff92b05f1), UINT64_C(0x000000006f7d4898), UINT64_C(0x000000006f45a5a7) },
    /* segment 110: z in [0x6e00000000000000, 0x6effffffffffffff], proven |p - f| <= 1.248e-17 */
    { UINT64_C(0xa69516aa8ce98631), UINT64_C(0x29a545aaa331b8a4), UINT64_C(0x000534a8b543148a), UINT64_C(0x000000006f0e02fb), UINT64_C(0x000000006ed69792) },
    /* segment 111: z in [0x6f00000000000000, 0x6fffffffffffffff], proven |p - f| <= 1.184e-17 */
    { UINT64_C(0xa5eed4c2b11d99e3), UINT64_C(0x297bb530ac3ec632), UINT64_C(0x00052f76a6044775), UINT64_C(0x000000006e9f2c6d), UINT64_C(0x000000006e67f853) },
    /* segment 112: z in [0x7000000000000000, 0x70ffffffffffffff], proven |p - f| <= 1.214e-17 */
    { UINT64_C(0xa54938c9b7e84631), UINT64_C(0x29524e326df179df), UINT64_C(0x00052a49c63c8f03), UINT64_C(0x000000006e30c47e), UINT64_C(0x000000006df9c77d) },
    /* segment 113: z in [0x7100000000000000, 0x71ffffffffffffff], proven |p - f| <= 1.207e-17 */
    { UINT64_C(0xa4a4421a0542c4d9), UINT64_C(0x2929108681482220), UINT64_C(0x0005252210bf0aff), UINT64_C(0x000000006dc2cabf), UINT64_C(0x000000006d8c04a0) },
    /* segment 114: z in [0x7200000000000000, 0x72ffffffffffffff], proven |p - f| <= 1.222e-17 */
    { UINT64_C(0xa3fff00ea26fa430), UINT64_C(0x28fffc03a893627d), UINT64_C(0x00051fff8064057d), UINT64_C(0x000000006d553ec4), UINT64_C(0x000000006d1eaf4f) },
    /* segment 115: z in [0x7300000000000000, 0x73ffffffffffffff], proven |p - f| <= 1.207e-17 */
    { UINT64_C(0xa35c42033d55cf9f), UINT64_C(0x28d71080cf4cf5df), UINT64_C(0x00051ae21008edb3), UINT64_C(0x000000006ce8201d), UINT64_C(0x000000006cb1c71d) },
    /* segment 116: z in [0x7400000000000000, 0x74ffffffffffffff], proven |p - f| <= 1.167e-17 */
    { UINT64_C(0xa2b9375427dc3e6f), UINT64_C(0x28ae4dd509ee9a0b), UINT64_C(0x000515c9ba9052db), UINT64_C(0x000000006c7b6e5f), UINT64_C(0x000000006c454b9c) },
    /* segment 117: z in [0x7500000000000000, 0x75ffffffffffffff], proven |p - f| <= 1.213e-17 */
    { UINT64_C(0xa216cf5e574644c8), UINT64_C(0x2885b3d795c92415), UINT64_C(0x000510b67ae1df0f), UINT64_C(0x000000006c0f291c), UINT64_C(0x000000006bd93c61) },
    /* segment 118: z in [0x7600000000000000, 0x76ffffffffffffff], proven |p - f| <= 1.176e-17 */
    { UINT64_C(0xa175097f63908990), UINT64_C(0x285d425fd8dbbdac), UINT64_C(0x00050ba84bea5234), UINT64_C(0x000000006ba34fe9), UINT64_C(0x000000006b6d9900) },
    /* segment 119: z in [0x7700000000000000, 0x77ffffffffffffff], proven |p - f| <= 1.193e-17 */
    { UINT64_C(0xa0d3e51586ce9dc5), UINT64_C(0x2834f94561ab4b19), UINT64_C(0x0005069f289b7ce7), UINT64_C(0x000000006b37e259), UINT64_C(0x000000006b02610c) },
    /* segment 120: z in [0x7800000000000000, 0x78ffffffffffffff], proven |p - f| <= 1.215e-17 */
    { UINT64_C(0xa033617f9c8936e5), UINT64_C(0x280cd85fe719f9be), UINT64_C(0x0005019b0bec3b6d), UINT64_C(0x000000006acce000), UINT64_C(0x000000006a97941a) },
    /* segment 121: z in [0x7900000000000000, 0x79ffffffffffffff], proven |p - f| <= 1.149e-17 */
    { UINT64_C(0x9f937e1d211d0a94), UINT64_C(0x27e4df87483ef6f7), UINT64_C(0x0004fc9bf0d870ac), UINT64_C(0x000000006a624875), UINT64_C(0x000000006a2d31c0) },
    /* segment 122: z in [0x7a00000000000000, 0x7affffffffffffff], proven |p - f| <= 1.139e-17 */
    { UINT64_C(0x9ef43a4e311a4a4a), UINT64_C(0x27bd0e938c3e4f2c), UINT64_C(0x0004f7a1d2610126), UINT64_C(0x0000000069f81b4c), UINT64_C(0x0000000069c33993) },
    /* segment 123: z in [0x7b00000000000000, 0x7bffffffffffffff], proven |p - f| <= 1.155e-17 */
    { UINT64_C(0x9e55957388a4c063), UINT64_C(0x2795655ce220f4f2), UINT64_C(0x0004f2acab8bcdf9), UINT64_C(0x00000000698e581b), UINT64_C(0x000000006959ab29) },
    /* segment 124: z in [0x7c00000000000000, 0x7cffffffffffffff], proven |p - f| <= 1.185e-17 */
    { UINT64_C(0x9db78eee82d48c17), UINT64_C(0x276de3bba0acf013), UINT64_C(0x0004edbc7763afe6), UINT64_C(0x000000006924fe79), UINT64_C(0x0000000068f0861a) },
    /* segment 125: z in [0x7d00000000000000, 0x7dffffffffffffff], proven |p - f| <= 1.154e-17 */
    { UINT64_C(0x9d1a262119177c33), UINT64_C(0x27468988463db44c), UINT64_C(0x0004e8d130f8725c), UINT64_C(0x0000000068bc0dfb), UINT64_C(0x000000006887c9fa) },
    /* segment 126: z in [0x7e00000000000000, 0x7effffffffffffff], proven |p - f| <= 1.160e-17 */
    { UINT64_C(0x9c7d5a6de293091b), UINT64_C(0x271f569b789c9faa), UINT64_C(0x0004e3ead35ece87), UINT64_C(0x000000006853863a), UINT64_C(0x00000000681f7663) },
    /* segment 127: z in [0x7f00000000000000, 0x7fffffffffffffff], proven |p - f| <= 1.134e-17 */
    { UINT64_C(0x9be12b381386eb2b), UINT64_C(0x26f84ace04d9a04d), UINT64_C(0x0004df0959b06664), UINT64_C(0x0000000067eb66cc), UINT64_C(0x0000000067b78aeb) },
    /* segment 128: z in [0x8000000000000000, 0x80ffffffffffffff], proven |p - f| <= 1.181e-17 */
    { UINT64_C(0x9b4597e37cb04f83), UINT64_C(0x26d165f8df240178), UINT64_C(0x0004da2cbf0bbfdd), UINT64_C(0x000000006783af4a), UINT64_C(0x000000006750072a) },
    /* segment 129: z in [0x8100000000000000, 0x81ffffffffffffff], proven |p - f| <= 1.138e-17 */
    { UINT64_C(0x9aaa9fd48aada83c), UINT64_C(0x26aaa7f522a35fb6), UINT64_C(0x0004d554fe943fe5), UINT64_C(0x00000000671c5f4b), UINT64_C(0x0000000066e8eaba) },
    /* segment 130: z in [0x8200000000000000, 0x82ffffffffffffff], proven |p - f| <= 1.169e-17 */
    { UINT64_C(0x9a10427045631970), UINT64_C(0x2684109c1150c408), UINT64_C(0x0004d0821372259e), UINT64_C(0x0000000066b57669), UINT64_C(0x0000000066823533) },
    /* segment 131: z in [0x8300000000000000, 0x83ffffffffffffff], proven |p - f| <= 1.137e-17 */
    { UINT64_C(0x99767f1c4f5f809d), UINT64_C(0x265d9fc713cfe5d2), UINT64_C(0x0004cbb3f8d2857f), UINT64_C(0x00000000664ef43c), UINT64_C(0x00000000661be62d) },
    /* segment 132: z in [0x8400000000000000, 0x84ffffffffffffff], proven |p - f| <= 1.107e-17 */
    { UINT64_C(0x98dd553ee5421784), UINT64_C(0x2637554fb9489384), UINT64_C(0x0004c6eaa9e74481), UINT64_C(0x0000000065e8d85e), UINT64_C(0x0000000065b5fd44) },
    /* segment 133: z in [0x8500000000000000, 0x85ffffffffffffff], proven |p - f| <= 1.118e-17 */
    { UINT64_C(0x9844c43edd20b08d), UINT64_C(0x2611310fb74041b5), UINT64_C(0x0004c22621e71353), UINT64_C(0x0000000065832269), UINT64_C(0x0000000065507a11) },
    /* segment 134: z in [0x8600000000000000, 0x86ffffffffffffff], proven |p - f| <= 1.157e-17 */
    { UINT64_C(0x97accb83a5ee8ccc), UINT64_C(0x25eb32e0e973c0ad), UINT64_C(0x0004bd665c0d6990), UINT64_C(0x00000000651dd1f7), UINT64_C(0x0000000064eb5c2e) },
    /* segment 135: z in [0x8700000000000000, 0x87ffffffffffffff], proven |p - f| <= 1.173e-17 */
    { UINT64_C(0x97156a7546e3cb0b), UINT64_C(0x25c55a9d51b1181c), UINT64_C(0x0004b8ab539a80f8), UINT64_C(0x0000000064b8e6a3), UINT64_C(0x000000006486a337) },
    /* segment 136: z in [0x8800000000000000, 0x88ffffffffffffff], proven |p - f| <= 1.174e-17 */
    { UINT64_C(0x967ea07c5ee56ecf), UINT64_C(0x259fa81f17b188e4), UINT64_C(0x0004b3f503d350b3), UINT64_C(0x0000000064546008), UINT64_C(0x0000000064224ec6) },
    /* segment 137: z in [0x8900000000000000, 0x89ffffffffffffff], proven |p - f| <= 1.099e-17 */
    { UINT64_C(0x95e86d0223edff56), UINT64_C(0x257a1b4088f3b4d1), UINT64_C(0x0004af4368018897), UINT64_C(0x0000000063f03dc2), UINT64_C(0x0000000063be5e78) },
    /* segment 138: z in [0x8a00000000000000, 0x8affffffffffffff], proven |p - f| <= 1.133e-17 */
    { UINT64_C(0x9552cf706276bd41), UINT64_C(0x2554b3dc1895ec11), UINT64_C(0x0004aa967b738c6c), UINT64_C(0x00000000638c7f6c), UINT64_C(0x00000000635ad1e8) },
    /* segment 139: z in [0x8b00000000000000, 0x8bffffffffffffff], proven |p - f| <= 1.100e-17 */
    { UINT64_C(0x94bdc7317ce16f4a), UINT64_C(0x252f71cc5f30a054), UINT64_C(0x0004a5ee397c6f41), UINT64_C(0x00000000632924a2), UINT64_C(0x0000000062f7a8b3) },
    /* segment 140: z in [0x8c00000000000000, 0x8cffffffffffffff], proven |p - f| <= 1.136e-17 */
    { UINT64_C(0x942953b06ae2c485), UINT64_C(0x250a54ec1ab0fd5e), UINT64_C(0x0004a14a9d73eebb), UINT64_C(0x0000000062c62d01), UINT64_C(0x000000006294e276) },
    /* segment 141: z in [0x8d00000000000000, 0x8dffffffffffffff], proven |p - f| <= 1.086e-17 */
    { UINT64_C(0x93957458b8ed4c1f), UINT64_C(0x24e55d162e33a6f1), UINT64_C(0x00049caba2b66e70), UINT64_C(0x0000000062639827), UINT64_C(0x0000000062327ecd) },
    /* segment 142: z in [0x8e00000000000000, 0x8effffffffffffff], proven |p - f| <= 1.117e-17 */
    { UINT64_C(0x93022896879d0158), UINT64_C(0x24c08a25a1df9be9), UINT64_C(0x0004981144a4f33f), UINT64_C(0x00000000620165b0), UINT64_C(0x0000000061d07d57) },
    /* segment 143: z in [0x8f00000000000000, 0x8fffffffffffffff], proven |p - f| <= 1.085e-17 */
    { UINT64_C(0x926f6fd68b236cb4), UINT64_C(0x249bdbf5a2c13e5f), UINT64_C(0x0004937b7ea51eb5), UINT64_C(0x00000000619f953b), UINT64_C(0x00000000616eddb2) },
    /* segment 144: z in [0x9000000000000000, 0x90ffffffffffffff], proven |p - f| <= 1.110e-17 */
    { UINT64_C(0x91dd49860ab45786), UINT64_C(0x2477526182a580ae), UINT64_C(0x00048eea4c212a6f), UINT64_C(0x00000000613e2665), UINT64_C(0x00000000610d9f7c) },
    /* segment 145: z in [0x9100000000000000, 0x91ffffffffffffff], proven |p - f| <= 1.107e-17 */
    { UINT64_C(0x914bb512dff313ac), UINT64_C(0x2452ed44b7f53746), UINT64_C(0x00048a5da887e388), UINT64_C(0x0000000060dd18ce), UINT64_C(0x0000000060acc253) },
    /* segment 146: z in [0x9200000000000000, 0x92ffffffffffffff], proven |p - f| <= 1.123e-17 */
    { UINT64_C(0x90bab1eb76605479), UINT64_C(0x242eac7add908f07), UINT64_C(0x000485d58f4ca607), UINT64_C(0x00000000607c6c13), UINT64_C(0x00000000604c45d7) },
    /* segment 147: z in [0x9300000000000000, 0x93ffffffffffffff], proven |p - f| <= 1.133e-17 */
    { UINT64_C(0x902a3f7ecac89af0), UINT64_C(0x240a8fdfb2aaa828), UINT64_C(0x00048151fbe7584f), UINT64_C(0x00000000601c1fd5), UINT64_C(0x000000005fec29a7) },
    /* segment 148: z in [0x9400000000000000, 0x94ffffffffffffff], proven |p - f| <= 1.106e-17 */
    { UINT64_C(0x8f9a5d3c6ab331f8), UINT64_C(0x23e6974f1aa5555f), UINT64_C(0x00047cd2e9d4669a), UINT64_C(0x000000005fbc33b4), UINT64_C(0x000000005f8c6d63) },
    /* segment 149: z in [0x9500000000000000, 0x95ffffffffffffff], proven |p - f| <= 1.070e-17 */
    { UINT64_C(0x8f0b0a9473d1bbbe), UINT64_C(0x23c2c2a51cecff47), UINT64_C(0x000478585494be76), UINT64_C(0x000000005f5ca74e), UINT64_C(0x000000005f2d10ac) },
    /* segment 150: z in [0x9600000000000000, 0x96ffffffffffffff], proven |p - f| <= 1.091e-17 */
    { UINT64_C(0x8e7c46f793704ff9), UINT64_C(0x239f11bde4d4abc3), UINT64_C(0x000473e237adca43), UINT64_C(0x000000005efd7a45), UINT64_C(0x000000005ece1322) },
    /* segment 151: z in [0x9700000000000000, 0x97ffffffffffffff], proven |p - f| <= 1.064e-17 */
    { UINT64_C(0x8dee11d705e628ad), UINT64_C(0x237b8475c1722952), UINT64_C(0x00046f708ea96cbc), UINT64_C(0x000000005e9eac3a), UINT64_C(0x000000005e6f7466) },
    /* segment 152: z in [0x9800000000000000, 0x98ffffffffffffff], proven |p - f| <= 1.088e-17 */
    { UINT64_C(0x8d606aa49606de6a), UINT64_C(0x23581aa9257a5e21), UINT64_C(0x00046b035515fc7c), UINT64_C(0x000000005e403ccd), UINT64_C(0x000000005e11341a) },
    /* segment 153: z in [0x9900000000000000, 0x99ffffffffffffff], proven |p - f| <= 1.061e-17 */
    { UINT64_C(0x8cd350d29c94338a), UINT64_C(0x2334d434a71dbabc), UINT64_C(0x0004669a86863f93), UINT64_C(0x000000005de22ba1), UINT64_C(0x000000005db351df) },
    /* segment 154: z in [0x9a00000000000000, 0x9affffffffffffff], proven |p - f| <= 1.080e-17 */
    { UINT64_C(0x8c46c3d3ffb06c58), UINT64_C(0x2311b0f4ffe4d03d), UINT64_C(0x000462361e916713), UINT64_C(0x000000005d847857), UINT64_C(0x000000005d55cd57) },
    /* segment 155: z in [0x9b00000000000000, 0x9bffffffffffffff], proven |p - f| <= 1.037e-17 */
    { UINT64_C(0x8bbac31c32513580), UINT64_C(0x22eeb0c70c8d09d0), UINT64_C(0x00045dd618d30aa8), UINT64_C(0x000000005d272291), UINT64_C(0x000000005cf8a625) },
    /* segment 156: z in [0x9c00000000000000, 0x9cffffffffffffff], proven |p - f| <= 1.122e-17 */
    { UINT64_C(0x8b2f4e1f33b316ed), UINT64_C(0x22cbd387cce5896f), UINT64_C(0x0004597a70eb2438), UINT64_C(0x000000005cca29f2), UINT64_C(0x000000005c9bdbec) },
    /* segment 157: z in [0x9d00000000000000, 0x9dffffffffffffff], proven |p - f| <= 1.065e-17 */
    { UINT64_C(0x8aa464518ecd730c), UINT64_C(0x22a9191463ac27ad), UINT64_C(0x00045523227e0b7d), UINT64_C(0x000000005c6d8e1e), UINT64_C(0x000000005c3f6e4e) },
    /* segment 158: z in [0x9e00000000000000, 0x9effffffffffffff], proven |p - f| <= 1.109e-17 */
    { UINT64_C(0x8a1a052859c7114f), UINT64_C(0x2286814a166a9671), UINT64_C(0x000450d0293471ae), UINT64_C(0x000000005c114eb7), UINT64_C(0x000000005be35cf0) },
    /* segment 159: z in [0x9f00000000000000, 0x9fffffffffffffff], proven |p - f| <= 1.038e-17 */
    { UINT64_C(0x89903019356b34e9), UINT64_C(0x22640c064d53a67f), UINT64_C(0x00044c8180bb5d24), UINT64_C(0x000000005bb56b62), UINT64_C(0x000000005b87a776) },
    /* segment 160: z in [0xa000000000000000, 0xa0ffffffffffffff], proven |p - f| <= 1.041e-17 */
    { UINT64_C(0x8906e49a4c9f3cee), UINT64_C(0x2241b9269320afa4), UINT64_C(0x0004483724c4250b), UINT64_C(0x000000005b59e3c2), UINT64_C(0x000000005b2c4d83) },
    /* segment 161: z in [0xa100000000000000, 0xa1ffffffffffffff], proven |p - f| <= 1.038e-17 */
    { UINT64_C(0x887e222253d8cfaf), UINT64_C(0x221f888894ef1b6f), UINT64_C(0x000443f111046d11), UINT64_C(0x000000005afeb77c), UINT64_C(0x000000005ad14ebd) },
    /* segment 162: z in [0xa200000000000000, 0xa2ffffffffffffff], proven |p - f| <= 1.040e-17 */
    { UINT64_C(0x87f5e82888948edd), UINT64_C(0x21fd7a0a221e124e), UINT64_C(0x00043faf41362119), UINT64_C(0x000000005aa3e635), UINT64_C(0x000000005a76aac7) },
    /* segment 163: z in [0xa300000000000000, 0xa3ffffffffffffff], proven |p - f| <= 1.094e-17 */
    { UINT64_C(0x876e3624b0cd54e9), UINT64_C(0x21db8d892c2c4ae4), UINT64_C(0x00043b71b11770fc), UINT64_C(0x000000005a496f91), UINT64_C(0x000000005a1c6149) },
    /* segment 164: z in [0xa400000000000000, 0xa4ffffffffffffff], proven |p - f| <= 1.064e-17 */
    { UINT64_C(0x86e70b8f1a73fb7d), UINT64_C(0x21b9c2e3c695fb89), UINT64_C(0x000437385c6acc40), UINT64_C(0x0000000059ef5338), UINT64_C(0x0000000059c271e7) },
    /* segment 165: z in [0xa500000000000000, 0xa5ffffffffffffff], proven |p - f| <= 1.020e-17 */
    { UINT64_C(0x866067e09ae7a862), UINT64_C(0x219819f826b2edc5), UINT64_C(0x000433033ef6ddde), UINT64_C(0x00000000599590cd), UINT64_C(0x000000005968dc47) },
    /* segment 166: z in [0xa600000000000000, 0xa6ffffffffffffff], proven |p - f| <= 1.029e-17 */
    { UINT64_C(0x85da4a928e6ea3ea), UINT64_C(0x217692a4a394b3a0), UINT64_C(0x00042ed254868808), UINT64_C(0x00000000593c27f8), UINT64_C(0x00000000590fa010) },
    /* segment 167: z in [0xa700000000000000, 0xa7ffffffffffffff], proven |p - f| <= 1.066e-17 */
    { UINT64_C(0x8554b31ed7afb470), UINT64_C(0x21552cc7b5e4feb6), UINT64_C(0x00042aa598e8dff5), UINT64_C(0x0000000058e3185f), UINT64_C(0x0000000058b6bce9) },
    /* segment 168: z in [0xa800000000000000, 0xa8ffffffffffffff], proven |p - f| <= 1.032e-17 */
    { UINT64_C(0x84cfa0ffdf2c0162), UINT64_C(0x2133e83ff7c418d9), UINT64_C(0x0004267d07f129ae), UINT64_C(0x00000000588a61aa), UINT64_C(0x00000000585e3279) },
    /* segment 169: z in [0xa900000000000000, 0xa9ffffffffffffff], proven |p - f| <= 1.056e-17 */
    { UINT64_C(0x844b13b092b97b3c), UINT64_C(0x2112c4ec24a77e32), UINT64_C(0x000422589d76d3e2), UINT64_C(0x000000005832037f), UINT64_C(0x0000000058060067) },
    /* segment 170: z in [0xaa00000000000000, 0xaaffffffffffffff], proven |p - f| <= 1.056e-17 */
    { UINT64_C(0x83c70aac64fdc9b6), UINT64_C(0x20f1c2ab193898b3), UINT64_C(0x00041e38555573c0), UINT64_C(0x0000000057d9fd85), UINT64_C(0x0000000057ae265b) },
    /* segment 171: z in [0xab00000000000000, 0xabffffffffffffff], proven |p - f| <= 1.029e-17 */
    { UINT64_C(0x8343856f4ce9be8b), UINT64_C(0x20d0e15bd3339cbd), UINT64_C(0x00041a1c2b6cc0cd), UINT64_C(0x0000000057824f66), UINT64_C(0x000000005756a3fd) },
    /* segment 172: z in [0xac00000000000000, 0xacffffffffffffff], proven |p - f| <= 1.055e-17 */
    { UINT64_C(0x82c08375c5354bba), UINT64_C(0x20b020dd714686da), UINT64_C(0x000416041ba090c9), UINT64_C(0x00000000572af8c9), UINT64_C(0x0000000056ff78f6) },
    /* segment 173: z in [0xad00000000000000, 0xadffffffffffffff], proven |p - f| <= 1.043e-17 */
    { UINT64_C(0x823e043ccbdbfee3), UINT64_C(0x208f810f32f03a67), UINT64_C(0x000411f021d8d391), UINT64_C(0x0000000056d3f958), UINT64_C(0x0000000056a8a4ee) },
    /* segment 174: z in [0xae00000000000000, 0xaeffffffffffffff], proven |p - f| <= 1.016e-17 */
    { UINT64_C(0x81bc0741e199fe83), UINT64_C(0x206f01d0785fc112), UINT64_C(0x00040de03a018f05), UINT64_C(0x00000000567d50ba), UINT64_C(0x000000005652278f) },
    /* segment 175: z in [0xaf00000000000000, 0xafffffffffffffff], proven |p - f| <= 1.033e-17 */
    { UINT64_C(0x813a8c0309698b54), UINT64_C(0x204ea300c253ab06), UINT64_C(0x000409d4600adaf9), UINT64_C(0x000000005626fe99), UINT64_C(0x0000000055fc0082) },
    /* segment 176: z in [0xb000000000000000, 0xb0ffffffffffffff], proven |p - f| <= 9.976e-18 */
    { UINT64_C(0x80b991fec8010307), UINT64_C(0x202e647fb1f98fa3), UINT64_C(0x000405cc8fe8dd1e), UINT64_C(0x0000000055d102a0), UINT64_C(0x0000000055a62f71) },
    /* segment 177: z in [0xb100000000000000, 0xb17217f7d1cf79ab], proven |p - f| <= 3.776e-18 */
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    /* rows 178..255: padding, a copy of segment 177's row (outside the domain) */
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
    { UINT64_C(0x803918b423516522), UINT64_C(0x200e462d08d415d3), UINT64_C(0x000401c8c59fec14), UINT64_C(0x00000000557b63f2), UINT64_C(0x0000000055685bb2) },
};
#endif

#define FALCON_M3_V1_SCALE_BITS 63
#define FALCON_M3_V1_SEGMENTS 178
/* Rows of the table: one per index value (pad_table; see falcon_m3_v1_table.h). */
#define FALCON_M3_V1_TABLE_ROWS 256
#define FALCON_M3_V1_DEGREE 4
#define FALCON_M3_V1_WORD_BITS 64
#define FALCON_M3_V1_TABLE_BYTES 10240
/* Scale of falcon_m3_v1_core's result: U = p(v) * 2^64. */
#define FALCON_M3_V1_CORE_SCALE 64
/* Last valid input: z_max = floor(ln 2 * 2^64) for the default domain. */
#define FALCON_M3_V1_Z_MAX UINT64_C(0xb17217f7d1cf79ab)

/*
 * Proven error bounds (upper bounds, rounded up; computed by gen/proof/ of
 * fxp-kernels with exact rational and interval arithmetic, docs/error-model.md):
 *   falcon_m3_v1_eval:      |eval(z) - f(z / 2^64) * 2^63| <= FALCON_M3_V1_ERR_BOUND_ULP units of 2^-63
 *   falcon_m3_v1_expm_p63:  |expm(z, w) - (w / 2^64) f(z / 2^64) 2^63| <= FALCON_M3_V1_EXPM_P63_ERR_BOUND units of 2^-63
 */
#define FALCON_M3_V1_ERR_BOUND_ULP 274.247
#define FALCON_M3_V1_EXPM_P63_ERR_BOUND 273.747

/*
 * falcon_m3_v1_core(z): the polynomial of z's segment, evaluated in fixed point.
 *
 * Input z is Q0.64 (x = z / 2^64).  Segment selection (178 segments of width 2^-8):
 *   idx = u >> 56, t = u & (2^56 - 1),
 *   u = z - z_lo: one shift and one mask.
 * The local variable is T = t << 8, read as v = T / 2^64 in [0, 1).
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
static inline uint64_t falcon_m3_v1_core(uint64_t z)
{
    uint64_t u = z;
    uint64_t idx = u >> 56;
    /* T = (u & UINT64_C(0xffffffffffffff)) << 8: its limbs are read from u below. */
    const uint64_t *k = falcon_m3_v1_coeffs[idx];
    uint32_t k4 = (uint32_t)k[4];  /* K_4 */
    uint32_t k4_l17 = (k4 >> 17);  /* bits 17..31 of k4 */
    uint32_t k4_l2 = (k4 >> 2) & 0x7fffu;  /* bits 2..16 of k4 */
    uint32_t T_l49 = (uint32_t)(u >> 41) & 0x7fffu;  /* bits 49..63 of T */
    uint32_t T_l34 = (uint32_t)(u >> 26) & 0x7fffu;  /* bits 34..48 of T */
    uint32_t mul3_c0 = k4_l17 * T_l49;  /* partial products at 2^34, < 2^32 (proven) */
    uint32_t mul3_c1 = k4_l17 * T_l34 + k4_l2 * T_l49;  /* partial products at 2^19, < 2^32 (proven) */
    uint32_t mul3 = (mul3_c0 >> 8) + (mul3_c1 >> 23);  /* v*y4: +U 2^-58, U in [0x0000000000000000, 0x00000000002a955b] */
    uint32_t y3 = (uint32_t)k[3] - mul3;  /* y3: -U 2^-58, U in [0x000000005571dfd5, 0x00000000aaaa9807] */
    uint32_t y3_l17 = (y3 >> 17);  /* bits 17..31 of y3 */
    uint32_t y3_l2 = (y3 >> 2) & 0x7fffu;  /* bits 2..16 of y3 */
    uint32_t y3_l0_2 = y3 & 0x3u;  /* bits 0..1 of y3 */
    uint32_t T_l32_2 = (uint32_t)(u >> 24) & 0x3u;  /* bits 32..33 of T */
    uint32_t mul6_c0 = y3_l17 * T_l49;  /* partial products at 2^34, < 2^32 (proven) */
    uint32_t mul6_c1 = y3_l17 * T_l34 + y3_l2 * T_l49;  /* partial products at 2^19, < 2^32 (proven) */
    uint32_t mul6_c2 = y3_l17 * T_l32_2 + y3_l0_2 * T_l49;  /* partial products at 2^17, < 2^32 (proven) */
    uint32_t mul6_c3 = y3_l2 * T_l34;  /* partial products at 2^4, < 2^32 (proven) */
    uint32_t mul6 = (mul6_c0 << 2) + (mul6_c1 >> 13) + (mul6_c2 >> 15) + (mul6_c3 >> 28);  /* v*y3: -U 2^-58, U in [0x0000000000000000, 0x00000000aa8296b9] */
    uint64_t y2 = falcon_m3_v1_fxp_sub64_shl(k[2], mul6, 10);  /* y2: +U 2^-68, U in [0x0004013071c38414, 0x0007ffffffe560c4] */
    uint32_t y2_l36 = (uint32_t)(y2 >> 36) & 0x7fffu;  /* bits 36..50 of y2 */
    uint32_t y2_l21 = (uint32_t)(y2 >> 21) & 0x7fffu;  /* bits 21..35 of y2 */
    uint32_t y2_l6 = (uint32_t)(y2 >> 6) & 0x7fffu;  /* bits 6..20 of y2 */
    uint32_t T_l19 = (uint32_t)(u >> 11) & 0x7fffu;  /* bits 19..33 of T */
    uint32_t mul9_c0 = y2_l36 * T_l49;  /* partial products at 2^85, < 2^32 (proven) */
    uint32_t mul9_c1 = y2_l36 * T_l34 + y2_l21 * T_l49;  /* partial products at 2^70, < 2^32 (proven) */
    uint32_t mul9_c2 = y2_l36 * T_l19 + y2_l21 * T_l34 + y2_l6 * T_l49;  /* partial products at 2^55, < 2^32 (proven) */
    uint64_t y1 = falcon_m3_v1_fxp_sub64_shr(falcon_m3_v1_fxp_sub64_shl(falcon_m3_v1_fxp_sub64_shl(k[1], mul9_c0, 23), mul9_c1, 8), mul9_c2, 7);  /* y1: -U 2^-70, U in [0x2007227e6cc5457c, 0x3ffffffffff2b0e2] */
    uint32_t y1_l47 = (uint32_t)(y1 >> 47) & 0x7fffu;  /* bits 47..61 of y1 */
    uint32_t y1_l32 = (uint32_t)(y1 >> 32) & 0x7fffu;  /* bits 32..46 of y1 */
    uint32_t y1_l17 = (uint32_t)(y1 >> 17) & 0x7fffu;  /* bits 17..31 of y1 */
    uint32_t y1_l2 = (uint32_t)(y1 >> 2) & 0x7fffu;  /* bits 2..16 of y1 */
    uint32_t T_l4 = ((uint32_t)u << 4) & 0x7fffu;  /* bits 4..18 of T */
    uint32_t mul12_c0 = y1_l47 * T_l49;  /* partial products at 2^96, < 2^32 (proven) */
    uint32_t mul12_c1 = y1_l47 * T_l34 + y1_l32 * T_l49;  /* partial products at 2^81, < 2^32 (proven) */
    uint32_t mul12_c2 = y1_l47 * T_l19 + y1_l32 * T_l34 + y1_l17 * T_l49;  /* partial products at 2^66, < 2^32 (proven) */
    uint32_t mul12_c3 = y1_l47 * T_l4 + y1_l32 * T_l19 + y1_l17 * T_l34 + y1_l2 * T_l49;  /* partial products at 2^51, < 2^32 (proven) */
    uint64_t y0 = falcon_m3_v1_fxp_sub64_shr(falcon_m3_v1_fxp_sub64_shr(falcon_m3_v1_fxp_sub64_shl(falcon_m3_v1_fxp_sub64_shl(k[0], mul12_c0, 26), mul12_c1, 11), mul12_c2, 4), mul12_c3, 19);  /* y0: +U 2^-64, U in [0x7fffff3b81b66f7a, 0xffffffffffffff10] */
    return y0;
}

/* falcon_m3_v1_eval(z) ~= f(z / 2^64) * 2^63: the root word rounded to nearest from scale 2^64. */
static inline uint64_t falcon_m3_v1_eval(uint64_t z)
{
    return (falcon_m3_v1_core(z) + UINT64_C(0x1)) >> 1;
}

/* ccs * U_0, moved from scale 2^64 to 2^63 (truncated): w is Q0.64 (ccs = w / 2^64). */
/* w U / 2^64 as a truncated limb product (gen/quantize/limbs.py): below the exact
 * value by at most the loss counted in the proven bound. */
static inline uint64_t falcon_m3_v1_ccs_product(uint64_t u, uint64_t w)
{
    uint32_t w_l49 = (uint32_t)(w >> 49);  /* bits 49..63 of w */
    uint32_t w_l34 = (uint32_t)(w >> 34) & 0x7fffu;  /* bits 34..48 of w */
    uint32_t w_l19 = (uint32_t)(w >> 19) & 0x7fffu;  /* bits 19..33 of w */
    uint32_t w_l4 = (uint32_t)(w >> 4) & 0x7fffu;  /* bits 4..18 of w */
    uint32_t u_l49 = (uint32_t)(u >> 49);  /* bits 49..63 of u */
    uint32_t u_l34 = (uint32_t)(u >> 34) & 0x7fffu;  /* bits 34..48 of u */
    uint32_t u_l19 = (uint32_t)(u >> 19) & 0x7fffu;  /* bits 19..33 of u */
    uint32_t u_l4 = (uint32_t)(u >> 4) & 0x7fffu;  /* bits 4..18 of u */
    uint32_t p_c0 = w_l49 * u_l49;  /* partial products at 2^98, < 2^32 (proven) */
    uint32_t p_c1 = w_l49 * u_l34 + w_l34 * u_l49;  /* partial products at 2^83, < 2^32 (proven) */
    uint32_t p_c2 = w_l49 * u_l19 + w_l34 * u_l34 + w_l19 * u_l49;  /* partial products at 2^68, < 2^32 (proven) */
    uint32_t p_c3 = w_l49 * u_l4 + w_l34 * u_l19 + w_l19 * u_l34 + w_l4 * u_l49;  /* partial products at 2^53, < 2^32 (proven) */
    return falcon_m3_v1_fxp_add64_shr(falcon_m3_v1_fxp_add64_shl((((uint64_t)p_c0 << 34) + ((uint64_t)p_c1 << 19)), p_c2, 4), p_c3, 11);
}

static inline uint64_t falcon_m3_v1_expm_p63_core(uint64_t u, uint64_t w)
{
    uint64_t p = falcon_m3_v1_ccs_product(u, w);
    return p >> 1;
}

/* falcon_m3_v1_expm_p63(z, w) ~= (w / 2^64) * exp(-z / 2^64) * 2^63. */
static inline uint64_t falcon_m3_v1_expm_p63(uint64_t z, uint64_t w)
{
    return falcon_m3_v1_expm_p63_core(falcon_m3_v1_core(z), w);
}


#include <string.h>

/*
 * Falcon-facing adaptors for 32-bit cores: drop-in replacements for
 * fpr_expm_p63(x, ccs), which Falcon calls with 0 <= x < ln 2 and ccs in
 * about [0.61, 1).  Integer operations only, no branch that depends on the
 * inputs; the table row is chosen by x (constant-time only where a load
 * takes the same time at every address, such as SRAM on a Cortex-M3 or M4: see
 * falcon_m3_v1_table.h).
 *
 *   falcon_m3_v1_fpr_expm_p63(x_bits, ccs_bits)  emulated-float builds: the
 *       arguments are IEEE-754 binary64 bit patterns (Falcon's fpr).
 *   falcon_m3_v1_fpr_expm_p63_native(x, ccs)  the same on doubles.
 *   falcon_m3_v1_fpr_expm_p63_domain_bits(x_bits, ccs_bits) and _domain(x, ccs):
 *       Falcon's own contract, 0 <= x < ln 2 and 0 <= ccs < 1, without the
 *       rules below (see their comments).
 *
 * The first two return ~= ccs * exp(-x) * 2^63 and agree on every input.
 * In the domain, x is converted exactly as the reference does,
 * z = 2 * trunc(x * 2^63) (Q0.64); ccs is not converted: U is multiplied
 * by its significand and shifted by its exponent
 * (falcon_m3_v1_expm_p63_mantissa).  Proven bound:
 * FALCON_M3_V1_FPR_EXPM_P63_ERR_BOUND units of 2^-63, with ccs taken exactly
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
#define FALCON_M3_V1_FPR_EXPM_P63_ERR_BOUND 275.065

/* The bits of the largest double below ln 2, 0.69314718055994528623. */
#define FALCON_M3_V1_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
/* 2 * trunc(LN2_DOWN * 2^63): the z every clamped x maps to. */
#define FALCON_M3_V1_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
/* The bits of the largest double below 1. */
#define FALCON_M3_V1_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

/* The significand of a double's bits hi:lo (the sign and exponent
 * ignored), implicit bit at bit 63. */
static inline uint64_t falcon_m3_v1_significand(uint32_t hi, uint32_t lo)
{
    return ((uint64_t)(UINT32_C(0x80000000) | (hi << 11) | (lo >> 21)) << 32) | (uint32_t)(lo << 11);
}

/* bias - e from a double's high word (e its biased exponent), clamped to
 * [0, 63]: one USAT on ARMv7-M, not a branch. */
static inline uint32_t falcon_m3_v1_exponent_shift(uint32_t hi, int32_t bias)
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
static inline uint64_t falcon_m3_v1_fpr_to_q64(uint64_t bits)
{
    uint32_t hi = (uint32_t)(bits >> 32), lo = (uint32_t)bits;
    return (falcon_m3_v1_significand(hi, lo) >> falcon_m3_v1_exponent_shift(hi, 1022)) & ~(uint64_t)1;
}

/*
 * ccs * U moved to scale 2^63, from ccs's significand and exponent instead
 * of a Q0.64 ccs: with M the significand, implicit bit at bit 63, and
 * s = 1023 - e, ccs = M 2^-(63 + s), and the result is floor(P / 2^s), P
 * the truncated product of M and U (falcon_m3_v1_ccs_product: P ~= M U / 2^64,
 * at scale 2^(63 + s)).
 * ccs = 1 is M = 2^63, s = 0: no special path.  The
 * caller clamps s to [0, 63] (one USAT on ARMv7-M); below 2^-63 (zero and
 * subnormals included) the result is then at most 1, within the bound.
 * Against converting ccs to Q0.64 this saves a 64-bit shift of ccs, the
 * limbs that straddle its two words and the ccs >= 1 path, for one 64-bit
 * shift of P.  Bound: gen/proof/output.py, mantissa_interval.
 */
static inline uint64_t falcon_m3_v1_expm_p63_mantissa(uint64_t u, uint64_t m, uint32_t s)
{
    return falcon_m3_v1_ccs_product(u, m) >> s;
}

/* The edge rules on 32-bit cores: each condition is a bit (the top bit of
 * a difference of 63-bit quantities, or of a 32-bit one when the low word
 * cannot matter) made into a mask by negation.  This helper gives z for x. */
static inline uint64_t falcon_m3_v1_fpr_rules_z(uint64_t x_bits)
{
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    uint64_t xa = x_bits & abs_mask;
    uint64_t dx = FALCON_M3_V1_LN2_DOWN_BITS - xa;
    uint32_t x_big = (uint32_t)(dx >> 63);
    uint32_t x_zero = (uint32_t)(x_bits >> 63) | (uint32_t)((inf_bits - xa) >> 63);
    xa += dx & ((uint64_t)0 - x_big);   /* x -> LN2_DOWN when above it */
    return falcon_m3_v1_fpr_to_q64(xa) & ((uint64_t)x_zero - 1);
}

/* 1 when ccs is negative or NaN. */
static inline uint32_t falcon_m3_v1_fpr_c_zero(uint64_t ccs_bits)
{
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    return (uint32_t)(ccs_bits >> 63) | (uint32_t)((inf_bits - (ccs_bits & (((uint64_t)1 << 63) - 1))) >> 63);
}

/* ccs >= 1 becomes exactly 1 by clearing the significand's fraction (its
 * exponent already clamps s to 0); a negative or NaN ccs clears the whole
 * significand, so the product is 0. */
static inline uint64_t falcon_m3_v1_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    uint32_t ch = (uint32_t)(ccs_bits >> 32) & UINT32_C(0x7FFFFFFF), cl = (uint32_t)ccs_bits;
    uint32_t fraction = (uint32_t)0 - ((UINT32_C(0x3FEFFFFF) - ch) >> 31);   /* all ones iff ccs >= 1 */
    uint64_t keep = (uint64_t)falcon_m3_v1_fpr_c_zero(ccs_bits) - 1;
    uint64_t m = falcon_m3_v1_significand(ch & ~fraction, cl & ~fraction) & keep;
    return falcon_m3_v1_expm_p63_mantissa(falcon_m3_v1_core(falcon_m3_v1_fpr_rules_z(x_bits)), m, falcon_m3_v1_exponent_shift(ch, 1023));
}

/*
 * Native-float adaptor.  The inputs' bit patterns go through the integer
 * adaptor above, so the result is bit-identical to falcon_m3_v1_fpr_expm_p63
 * on every input, by construction.
 */
static inline uint64_t falcon_m3_v1_fpr_expm_p63_native(double x, double ccs)
{
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return falcon_m3_v1_fpr_expm_p63(x_bits, c_bits);
}

/*
 * The Falcon-domain adaptor for emulated-float builds (the arguments are
 * IEEE-754 binary64 bit patterns, as Falcon's fpr type on FPU-less cores):
 * Falcon's own contract for fpr_expm_p63, 0 <= x < ln 2 and 0 <= ccs < 1,
 * and on that domain exactly what falcon_m3_v1_fpr_expm_p63 returns (tested),
 * with the same proven bound; no edge rules outside it (unspecified
 * result, still defined, never reads outside the table).  Integer
 * operations only, ccs through its significand as in
 * falcon_m3_v1_fpr_expm_p63.
 */
static inline uint64_t falcon_m3_v1_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    /* No clamp here: falcon_m3_v1_core keeps every z inside the table. */
    return falcon_m3_v1_expm_p63_mantissa(falcon_m3_v1_core(falcon_m3_v1_fpr_to_q64(x_bits)),
                                        falcon_m3_v1_significand((uint32_t)(ccs_bits >> 32), (uint32_t)ccs_bits),
                                        falcon_m3_v1_exponent_shift((uint32_t)(ccs_bits >> 32), 1023));
}

/* The same on a double's bits, for native-float builds. */
static inline uint64_t falcon_m3_v1_fpr_expm_p63_domain(double x, double ccs)
{
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return falcon_m3_v1_fpr_expm_p63_domain_bits(x_bits, c_bits);
}

#endif /* FALCON_M3_V1_H */

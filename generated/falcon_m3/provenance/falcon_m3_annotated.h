/* SPDX-License-Identifier: CC0-1.0
 * falcon_m3.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_m3.toml (sha256 da51aff2c07f713b4b844ad01ab294b2bdc6a05d377a019ab2b63423e9c0bab4); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_m3.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 5,
 *     segments = {kind = "pow2", bits = 7}, max_abs_error_log2 = -55.0, form = "mcu",
 *     columns = [1, 2, 3, 3, 4, 4], bias_samples = 1000
 * Proven bound (interval arithmetic and exact limb-loss bounds, gen/mcu/proof.py; terms: provenance/),
 * f(x) = exp(-x):
 *     |falcon_m3_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 156.081 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 * Description: Cortex-M3 kernel: 89 segments x degree 5, 15-bit-limb MUL/MLA products, 2848-byte table
 *
 * Parameters:
 *   name = "falcon_m3"
 *   function = "exp(-x)"
 *   domain = ["0", "ln2"]
 *   word_bits = 64
 *   scale_bits = 63
 *   degree = 5
 *   segments = {"kind": "pow2", "bits": 7}
 *   max_abs_error_log2 = -55.0
 *   form = "mcu"
 *   columns = [1, 2, 3, 3, 4, 4]
 *   bias_samples = 1000
 *
 * Computed:
 *   89 rows of width 2^-7, degree 5: least squares at 48 Chebyshev nodes, quantized top-down (gen/mcu/fit.py)
 *   rounding bias: 1000 inputs per row (seed 777); a0 offsets 14 10 10 10 11 11 10 11 10 12 10 10 9 10 10 10 10 10 9 8 10 11 10 9 9 11 11 9 9 10 11 10 11 12 9 9 10 11 11 9 9 11 11 9 9 11 11 11 10 9 9 9 9 10 9 10 11 9 10 9 8 8 8 11 10 10 11 10 9 8 9 9 10 9 9 9 8 10 9 9 9 8 8 8 8 10 9 9 8
 *     a1 offsets 1174 496 679 675 752 923 610 644 426 933 521 605 316 644 675 683 679 437 312 132 638 952 404 224 310 710 512 299 215 365 828 645 817 731 85 241 513 620 636 289 298 562 679 246 348 633 687 657 461 312 195 122 184 334 313 361 540 49 447 202 -1 -83 0 414 485 384 519 371 180 -130 125 270 349 240 164 76 32 321 171 221 3 -131 -231 4 -208 249 -84 224 261
 *   product plan (columns kept: y4, y3, y2, y1, y0, ccs): 1, 2, 3, 3, 4, 4
 *   table: 2848 bytes
 *   result - exact in [-156.0806, 97.9226] units of 2^-63 (ccs >= 2^-63; below 2 for smaller ccs)
 *   largest term over the rows, units of 2^-63:
 *     28.7758  approximation |p - f| (interval arithmetic, 256 pieces per row)
 *     68.5001  loss of the y4 product
 *     4.49994  loss of the y3 product
 *     2.14843  loss of the y2 product
 *     45.9957  loss of the y1 product
 *     2.29686  loss of the y0 product
 *     75.9361  loss of the ccs product
 *     0.500001  conversion of x (z = floor(x 2^64))
 *     1.00001  final shift's floor
 *     156.081  total (assembled per row)
 */
/* Two different renders of this kernel in one translation unit (another
 * copy of the header earlier on the include path) stop the build here:
 * the include guard alone would silently keep the first. */
#if defined(FALCON_M3_CONTENT_HASH) && FALCON_M3_CONTENT_HASH != 0x5c19a3cad3ac7741u
#error "falcon_m3.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_M3_H
#define FALCON_M3_H

#include <stdint.h>

/* Names the render that wrote this header (the sidecar in provenance/ carries the same). */
#define FALCON_M3_CONTENT_HASH 0x5c19a3cad3ac7741u

/**
 * falcon_m3_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns (Falcon's fpr),
 * _native(x, ccs) the same from doubles; x < 0 (-0 included) or NaN counts as 0, x >= ln 2 (+inf
 * included) as the double below ln 2, ccs < 0 or NaN gives 0, ccs >= 1 counts as 1.  _domain(x, ccs),
 * _domain_bits(x_bits, ccs_bits): Falcon's contract, 0 <= x < ln 2 and 0 <= ccs <= 1, without those
 * rules (outside it: unspecified but defined; the row index is clamped to the table).  The bound
 * FALCON_M3_FPR_EXPM_P63_ERR_BOUND (units of 2^-63) holds against the doubles passed, conversions
 * included, for every ccs in [0, 1].  No fixed-point entry (_eval, _expm_p63).
 * For 32-bit cores: integer operations only, products of 15-bit limbs as 32-bit MUL/MLA (no long
 * multiply), no division, no float; on ARMv7-M (Thumb-2) a few helpers are inline asm, elsewhere C
 * computes the same bits.
 * Constant time on a Cortex-M3 or M4: no branch depends on x or ccs; MUL and MLA take a fixed time
 * (ARM DDI 0337, "Instruction timing"); the row is indexed by x, which is constant-time only where a
 * load takes the same time at every address: the table goes to .data (SRAM) on ARMv7-M.  NOT
 * constant-time on CPUs with data caches.
 * One table per program: define FALCON_M3_TABLE_EXTERN in every file that includes this one but one.
 */

#include <string.h>

#define FALCON_M3_FPR_EXPM_P63_ERR_BOUND 156.081
#define FALCON_M3_SEGMENTS 89
#define FALCON_M3_DEGREE 5
#define FALCON_M3_TABLE_BYTES 2848
#define FALCON_M3_INLINE static inline __attribute__((always_inline))

/*
 * The table: 89 rows of 8 words (row j at words 8 j ..), one per segment of width 2^-7 (row j:
 * x in [j 2^-7, (j + 1) 2^-7), T = 2^7 x - j in [0, 1)), the polynomial
 *     p(T) = a0 - T (a1 - T (a2 - T (a3 - T (a4 - T a5)))),  every a_i >= 0:
 *     words 0, 1: a0 (lo, hi), units 2^-62 (a0 < 1);  words 2, 3: a1, units 2^-69;
 *     words 4, 5: a2, units 2^-62;  word 6: a3 (units 2^-55) rotated right by 17, read as the
 *     64-bit value (w & 0x7fff) 2^32 + w in units of 2^-70;  word 7: a4 (units 2^-64) with a5
 *     (units 2^-52) in its low 11 bits.
 * The rotation and the packing are part of the coefficients' values (gen/mcu/fit.py fits them
 * knowing which bits the kernel reads), and so is a per-row rounding bias.  Each row states its
 * proven approximation |p - f| (units of 2^-63).
 *
 * The row is indexed by x: the table must sit where a load takes the same time at every
 * address.  On ARMv7-M (Cortex-M3, M4) the section attribute puts it in .data, which the
 * start-up code copies to SRAM (no cache on the M3; on the M4 without a vendor flash cache in
 * the path).  Elsewhere the attribute is empty.
 */
#if defined(__GNUC__) && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define FALCON_M3_TABLE_SECTION __attribute__((section(".data.falcon_m3_coeffs")))
#else
#define FALCON_M3_TABLE_SECTION
#endif
/* One definition per program: every file that includes this header but one
 * defines FALCON_M3_TABLE_EXTERN and sees only the declaration. */
extern const uint32_t falcon_m3_coeffs[89 * 8];
#ifndef FALCON_M3_TABLE_EXTERN
const uint32_t falcon_m3_coeffs[89 * 8] FALCON_M3_TABLE_SECTION = {
    /* row 0: proven |p - f| <= 28.1491 */
    0xffffffffu, 0x3fffffffu, 0xffffefd1u, 0x3fffffffu, 0xfffffd8bu, 0x00007fffu, 0x554ad555u, 0xaaaa5c40u,
    /* row 1: proven |p - f| <= 23.3479 */
    0xd54449fau, 0x3f807faau, 0xd5441ebdu, 0x3f807faau, 0xff55a833u, 0x00007f00u, 0x54dbd4abu, 0xa9566c38u,
    /* row 2: proven |p - f| <= 21.5056 */
    0xfddf492cu, 0x3f01fd57u, 0xfddf1946u, 0x3f01fd57u, 0xfaaff87bu, 0x00007e03u, 0xa7145402u, 0xa804fc2fu,
    /* row 3: proven |p - f| <= 23.8329 */
    0x6fdcf22fu, 0x3e84770du, 0x6fdcc051u, 0x3e84770du, 0xee1adcc1u, 0x00007d08u, 0x495d535bu, 0xa6b64c27u,
    /* row 4: proven |p - f| <= 24.8299 */
    0x116baf2fu, 0x3e07ead5u, 0x116bbe25u, 0x3e07ead5u, 0xd5aa228cu, 0x00007c0fu, 0x391752b5u, 0xa56a3c1fu,
    /* row 5: proven |p - f| <= 27.1024 */
    0xb103f5fdu, 0x3d8c56bcu, 0xb103fbb9u, 0x3d8c56bcu, 0xad79602fu, 0x00007b18u, 0x739bd210u, 0xa4209416u,
    /* row 6: proven |p - f| <= 22.0814 */
    0xfd9f7f6cu, 0x3d11b8d5u, 0xfd9f5873u, 0x3d11b8d5u, 0x71abf83cu, 0x00007a23u, 0xf667516cu, 0xa2d99c0eu,
    /* row 7: proven |p - f| <= 21.6316 */
    0x7f0000aeu, 0x3c980f36u, 0x7efff396u, 0x3c980f36u, 0x1e6cfc2du, 0x00007930u, 0xbeea50cau, 0xa1953406u,
    /* row 8: proven |p - f| <= 20.4107 */
    0x8e0547a6u, 0x3c1f57f7u, 0x8e053633u, 0x3c1f57f7u, 0xafef1a1au, 0x0000783eu, 0xca965029u, 0xa0534bfeu,
    /* row 9: proven |p - f| <= 28.7758 */
    0x4d129c09u, 0x3ba79136u, 0x4d12a99du, 0x3ba79136u, 0x226c98d1u, 0x0000774fu, 0x16ea4f8au, 0x9f13e3f6u,
    /* row 10: proven |p - f| <= 20.9998 */
    0xa0834639u, 0x3b30b913u, 0xa08322d7u, 0x3b30b913u, 0x72273e52u, 0x00007661u, 0xa164ceebu, 0x9dd6f3eeu,
    /* row 11: proven |p - f| <= 20.1225 */
    0x272e1e73u, 0x3abacdb4u, 0x272e0a71u, 0x3abacdb4u, 0x9b684be5u, 0x00007575u, 0x678fce4eu, 0x9c9c7be6u,
    /* row 12: proven |p - f| <= 22.0645 */
    0x32f8056du, 0x3a45cd40u, 0x32f7dc93u, 0x3a45cd40u, 0x9a8063c8u, 0x0000748bu, 0x66f8cdb2u, 0x9b6493dfu,
    /* row 13: proven |p - f| <= 23.8931 */
    0xc17529a8u, 0x39d1b5e3u, 0xc174f8f7u, 0x39d1b5e3u, 0x6bc77fc9u, 0x000073a3u, 0x9d254d17u, 0x9a2ef3d7u,
    /* row 14: proven |p - f| <= 24.5725 */
    0x7498fb2du, 0x395e85ceu, 0x7498c03bu, 0x395e85ceu, 0x0b9ce52eu, 0x000072bdu, 0x07b0cc7eu, 0x98fbbbcfu,
    /* row 15: proven |p - f| <= 25.9256 */
    0x8b74b10cu, 0x38ec3b33u, 0x8b74cffbu, 0x38ec3b33u, 0x76671701u, 0x000071d8u, 0xa4404be5u, 0x97cb13c8u,
    /* row 16: proven |p - f| <= 22.7739 */
    0xdb044316u, 0x387ad449u, 0xdb040c37u, 0x387ad449u, 0xa893b27eu, 0x000070f5u, 0x7056cb4eu, 0x969c93c0u,
    /* row 17: proven |p - f| <= 20.6833 */
    0xc709bba6u, 0x380a4f4bu, 0xc709a7f8u, 0x380a4f4bu, 0x9e978c8fu, 0x00007014u, 0x69b3cab8u, 0x95709bb9u,
    /* row 18: proven |p - f| <= 23.2126 */
    0x3af6c408u, 0x379aaa77u, 0x3af67f54u, 0x379aaa77u, 0x54ee71f6u, 0x00006f35u, 0x8de7ca23u, 0x9446cbb1u,
    /* row 19: proven |p - f| <= 21.4736 */
    0xa2e4501fu, 0x372be40du, 0xa2e4165du, 0x372be40du, 0xc81b42c3u, 0x00006e57u, 0xdab3498fu, 0x931f73aau,
    /* row 20: proven |p - f| <= 23.3129 */
    0xe4984c5bu, 0x36bdfa53u, 0xe4986183u, 0x36bdfa53u, 0xf4a7c933u, 0x00006d7bu, 0x4dc148fdu, 0x91fa6ba3u,
    /* row 21: proven |p - f| <= 26.2803 */
    0x58993273u, 0x3650eb92u, 0x589931e8u, 0x3650eb92u, 0xd724af22u, 0x00006ca1u, 0xe4b8c86bu, 0x90d77b9bu,
    /* row 22: proven |p - f| <= 20.2707 */
    0xc34f6954u, 0x35e4b614u, 0xc34f4779u, 0x35e4b614u, 0x6c29841cu, 0x00006bc9u, 0x9d6747dbu, 0x8fb6f394u,
    /* row 23: proven |p - f| <= 20.6785 */
    0x4e34547fu, 0x3579582au, 0x4e344c73u, 0x3579582au, 0xb0549b08u, 0x00006af2u, 0x7586474cu, 0x8e98ab8du,
    /* row 24: proven |p - f| <= 23.0635 */
    0x810ef786u, 0x350ed025u, 0x810ebbfcu, 0x350ed025u, 0xa04afef0u, 0x00006a1du, 0x6ad2c6beu, 0x8d7c9386u,
    /* row 25: proven |p - f| <= 24.9530 */
    0x3b3e131fu, 0x34a51c5cu, 0x3b3e1bdeu, 0x34a51c5cu, 0x38b875a4u, 0x0000694au, 0x7b1f4631u, 0x8c62bb7fu,
    /* row 26: proven |p - f| <= 23.5506 */
    0xad0fa02au, 0x343c3b27u, 0xad0fa3d9u, 0x343c3b27u, 0x764f58f2u, 0x00006878u, 0xa42dc5a5u, 0x8b4b0b78u,
    /* row 27: proven |p - f| <= 23.3849 */
    0x51258eecu, 0x33d42ae4u, 0x512551dau, 0x33d42ae4u, 0x55c89effu, 0x000067a8u, 0xe3d0c51au, 0x8a358371u,
    /* row 28: proven |p - f| <= 20.9732 */
    0xe5e7af5fu, 0x336ce9f1u, 0xe5e796c6u, 0x336ce9f1u, 0xd3e3c9bbu, 0x000066d9u, 0x37e44491u, 0x89222b6au,
    /* row 29: proven |p - f| <= 24.9665 */
    0x6702a87du, 0x330676b3u, 0x67025a80u, 0x330676b3u, 0xed66c9a5u, 0x0000660cu, 0x9e374408u, 0x8810eb63u,
    /* row 30: proven |p - f| <= 27.4860 */
    0x06f3e508u, 0x32a0cf8fu, 0x06f4029fu, 0x32a0cf8fu, 0x9f1e0df7u, 0x00006541u, 0x14bac381u, 0x8701fb5du,
    /* row 31: proven |p - f| <= 22.4293 */
    0x28a25b14u, 0x323bf2eeu, 0x28a23921u, 0x323bf2eeu, 0xe5dc4e9eu, 0x00006477u, 0x993442fau, 0x85f4f356u,
    /* row 32: proven |p - f| <= 24.7416 */
    0x590415ddu, 0x31d7df3du, 0x59040c3fu, 0x31d7df3du, 0xbe7aafd9u, 0x000063afu, 0x299d4275u, 0x84ea0b4fu,
    /* row 33: proven |p - f| <= 24.2836 */
    0x48d06736u, 0x317492ecu, 0x48d056c7u, 0x317492ecu, 0x25d88fdfu, 0x000062e9u, 0xc3dec1f0u, 0x83e15349u,
    /* row 34: proven |p - f| <= 22.9480 */
    0xc63ea87eu, 0x31120c6du, 0xc63e8d67u, 0x31120c6du, 0x18db8a77u, 0x00006224u, 0x65df416du, 0x82da8b42u,
    /* row 35: proven |p - f| <= 21.4696 */
    0xb6d17165u, 0x30b04a37u, 0xb6d153f4u, 0x30b04a37u, 0x946f6c0fu, 0x00006160u, 0x0d99c0ebu, 0x81d5eb3cu,
    /* row 36: proven |p - f| <= 22.1061 */
    0x112e2bdbu, 0x304f4ac3u, 0x112e031bu, 0x304f4ac3u, 0x95861f3du, 0x0000609eu, 0xb8f94069u, 0x80d32b35u,
    /* row 37: proven |p - f| <= 24.5556 */
    0xd700eca7u, 0x2fef0c8bu, 0xd70100b6u, 0x2fef0c8bu, 0x1917add1u, 0x00005fdeu, 0x660b3fe9u, 0x7fd29b2fu,
    /* row 38: proven |p - f| <= 22.3196 */
    0x0eec7806u, 0x2f8f8e11u, 0x0eec67b9u, 0x2f8f8e11u, 0x1c221c85u, 0x00005f1fu, 0x12bc3f6au, 0x7ed3fb29u,
    /* row 39: proven |p - f| <= 20.6751 */
    0xbe865a4eu, 0x2f30cdd4u, 0xbe8650f9u, 0x2f30cdd4u, 0x9ba97b7au, 0x00005e61u, 0xbd13beebu, 0x7dd73b22u,
    /* row 40: proven |p - f| <= 21.6427 */
    0xe45efc2cu, 0x2ed2ca5bu, 0xe45ec73fu, 0x2ed2ca5bu, 0x94b7c5dcu, 0x00005da5u, 0x631c3e6eu, 0x7cdc8b1cu,
    /* row 41: proven |p - f| <= 22.4766 */
    0x72159b06u, 0x2e75822eu, 0x721582b3u, 0x2e75822eu, 0x045ce24fu, 0x00005cebu, 0x02e1bdf2u, 0x7be3d316u,
    /* row 42: proven |p - f| <= 24.7178 */
    0x46780d60u, 0x2e18f3d7u, 0x467817e5u, 0x2e18f3d7u, 0xe7ae8c7eu, 0x00005c31u, 0x9a703d76u, 0x7aed0b10u,
    /* row 43: proven |p - f| <= 21.2758 */
    0x27ae3c3au, 0x2dbd1de4u, 0x27ae390bu, 0x2dbd1de4u, 0x3bc84effu, 0x00005b7au, 0x27d7bcfcu, 0x79f82b0au,
    /* row 44: proven |p - f| <= 22.6887 */
    0xbd7139d0u, 0x2d61fee5u, 0xbd715a4eu, 0x2d61fee5u, 0xfdcb7bc8u, 0x00005ac3u, 0xa9313c82u, 0x79053304u,
    /* row 45: proven |p - f| <= 22.0603 */
    0x8b4dde6bu, 0x2d07956fu, 0x8b4dd327u, 0x2d07956fu, 0x2adf1583u, 0x00005a0fu, 0x1c903c0au, 0x781412feu,
    /* row 46: proven |p - f| <= 24.1008 */
    0xeaf2d4d6u, 0x2cade017u, 0xeaf2dd75u, 0x2cade017u, 0xc02fd574u, 0x0000595bu, 0x801c3b92u, 0x7724daf8u,
    /* row 47: proven |p - f| <= 24.0233 */
    0x0689ff1cu, 0x2c54dd78u, 0x068a0054u, 0x2c54dd78u, 0xbaf00c3au, 0x000058a9u, 0xd1f0bb1bu, 0x76377af2u,
    /* row 48: proven |p - f| <= 21.4259 */
    0xd31d1d5fu, 0x2bfc8c2bu, 0xd31d0fa9u, 0x2bfc8c2bu, 0x1857a4dfu, 0x000057f9u, 0x1034baa6u, 0x754bf2ecu,
    /* row 49: proven |p - f| <= 20.8667 */
    0x0b05a025u, 0x2ba4ead2u, 0x0b05a839u, 0x2ba4ead2u, 0xd5a41586u, 0x00005749u, 0x39133a31u, 0x746242e6u,
    /* row 50: proven |p - f| <= 19.7430 */
    0x28678fd9u, 0x2b4df80cu, 0x28677247u, 0x2b4df80cu, 0xf0184eaau, 0x0000569bu, 0x4ab2b9bdu, 0x737a5ae0u,
    /* row 51: proven |p - f| <= 22.6871 */
    0x5fb7739bu, 0x2af7b27eu, 0x5fb74c08u, 0x2af7b27eu, 0x64fcbcb6u, 0x000055efu, 0x4349394au, 0x729442dau,
    /* row 52: proven |p - f| <= 21.3174 */
    0x9a4b2133u, 0x2aa218cfu, 0x9a4b1fbbu, 0x2aa218cfu, 0x319f3431u, 0x00005544u, 0x211138d8u, 0x71b01ad5u,
    /* row 53: proven |p - f| <= 21.1165 */
    0x70f560a0u, 0x2a4d29a9u, 0x70f540efu, 0x2a4d29a9u, 0x5352df82u, 0x0000549au, 0xe22eb866u, 0x70cd8acfu,
    /* row 54: proven |p - f| <= 19.3601 */
    0x26ac4d9fu, 0x29f8e3b8u, 0x26ac5145u, 0x29f8e3b8u, 0xc7704d41u, 0x000053f1u, 0x84f337f6u, 0x6feceacau,
    /* row 55: proven |p - f| <= 22.4546 */
    0xa33a61b9u, 0x29a545aau, 0xa33a3693u, 0x29a545aau, 0x8b5543ecu, 0x0000534au, 0x07863787u, 0x6f0ddac4u,
    /* row 56: proven |p - f| <= 24.5320 */
    0x6dfa11b7u, 0x29524e32u, 0x6df9f201u, 0x29524e32u, 0x9c64d8e4u, 0x000052a4u, 0x68383718u, 0x6e308abeu,
    /* row 57: proven |p - f| <= 20.9130 */
    0xa89be932u, 0x28fffc03u, 0xa89bd25au, 0x28fffc03u, 0xf8074fc3u, 0x000051ffu, 0xa55436aau, 0x6d551ab9u,
    /* row 58: proven |p - f| <= 23.0047 */
    0x09f70fc9u, 0x28ae4dd5u, 0x09f720aeu, 0x28ae4dd5u, 0x9baa140au, 0x0000515cu, 0xbd19b63du, 0x6c7b5ab4u,
    /* row 59: proven |p - f| <= 19.9568 */
    0xd8e4228bu, 0x285d425fu, 0xd8e3ff56u, 0x285d425fu, 0x84bfaf62u, 0x000050bau, 0xadccb5d1u, 0x6ba322aeu,
    /* row 60: proven |p - f| <= 19.3152 */
    0xe7224de4u, 0x280cd85fu, 0xe72243edu, 0x280cd85fu, 0xb0bfcd6bu, 0x00005019u, 0x75d0b566u, 0x6accc2a9u,
    /* row 61: proven |p - f| <= 21.5231 */
    0x8c4692bau, 0x27bd0e93u, 0x8c4694f9u, 0x27bd0e93u, 0x1d2718a9u, 0x00004f7au, 0x136db4fcu, 0x69f80aa4u,
    /* row 62: proven |p - f| <= 24.1908 */
    0xa0b5232bu, 0x276de3bbu, 0xa0b51727u, 0x276de3bbu, 0xc7774001u, 0x00004edbu, 0x84f33492u, 0x6924d29eu,
    /* row 63: proven |p - f| <= 24.7906 */
    0x78a4c271u, 0x271f569bu, 0x78a4d1a7u, 0x271f569bu, 0xad36f0c5u, 0x00004e3eu, 0xc8ca3429u, 0x68536299u,
    /* row 64: proven |p - f| <= 26.0813 */
    0xdf2c140au, 0x26d165f8u, 0xdf2c2e8bu, 0x26d165f8u, 0xcbf1be60u, 0x00004da2u, 0xdd4833c1u, 0x67839294u,
    /* row 65: proven |p - f| <= 20.8232 */
    0x1158c682u, 0x2684109cu, 0x1158bb52u, 0x2684109cu, 0x21382188u, 0x00004d08u, 0xc0cb335au, 0x66b55a8fu,
    /* row 66: proven |p - f| <= 25.3141 */
    0xb950860cu, 0x2637554fu, 0xb950977fu, 0x2637554fu, 0xaa9f728bu, 0x00004c6eu, 0x71bcb2f4u, 0x65e8c28au,
    /* row 67: proven |p - f| <= 26.8651 */
    0xe97ba361u, 0x25eb32e0u, 0xe97bd1e1u, 0x25eb32e0u, 0x65c1d430u, 0x00004bd6u, 0xee80b28eu, 0x651dc285u,
    /* row 68: proven |p - f| <= 20.6613 */
    0x17b95bdcu, 0x259fa81fu, 0x17b93fe8u, 0x259fa81fu, 0x503e2e27u, 0x00004b3fu, 0x357ab22au, 0x64544a80u,
    /* row 69: proven |p - f| <= 21.3222 */
    0x189daf71u, 0x2554b3dcu, 0x189d918cu, 0x2554b3dcu, 0x67b8300fu, 0x00004aa9u, 0x4521b1c6u, 0x638c6a7bu,
    /* row 70: proven |p - f| <= 20.9765 */
    0x1ab8b14bu, 0x250a54ecu, 0x1ab8c37du, 0x250a54ecu, 0xa9d835cdu, 0x00004a14u, 0x1be3b163u, 0x62c61a76u,
    /* row 71: proven |p - f| <= 19.8447 */
    0xa1e7407du, 0x24c08a25u, 0xa1e72e65u, 0x24c08a25u, 0x144b4279u, 0x00004981u, 0xb82d3100u, 0x62014a71u,
    /* row 72: proven |p - f| <= 22.8571 */
    0x82ad160bu, 0x24775261u, 0x82ad25fau, 0x24775261u, 0xa4c3051au, 0x000048eeu, 0x187e309fu, 0x613e0a6cu,
    /* row 73: proven |p - f| <= 22.4713 */
    0xdd981548u, 0x242eac7au, 0xdd98235eu, 0x242eac7au, 0x58f5bab5u, 0x0000485du, 0x3b49b03eu, 0x607c4a67u,
    /* row 74: proven |p - f| <= 21.5254 */
    0x1aaccca1u, 0x23e6974fu, 0x1aacca70u, 0x23e6974fu, 0x2e9e3431u, 0x000047cdu, 0x1f0dafdeu, 0x5fbc0a62u,
    /* row 75: proven |p - f| <= 20.1200 */
    0xe4dc1423u, 0x239f11bdu, 0xe4dc0aa2u, 0x239f11bdu, 0x237bc949u, 0x0000473eu, 0xc2502f7eu, 0x5efd6a5eu,
    /* row 76: proven |p - f| <= 19.0559 */
    0x2581b7beu, 0x23581aa9u, 0x2581a242u, 0x23581aa9u, 0x355249d7u, 0x000046b0u, 0x2387af20u, 0x5e402259u,
    /* row 77: proven |p - f| <= 20.8039 */
    0xffec1b39u, 0x2311b0f4u, 0xffec112bu, 0x2311b0f4u, 0x61e9fe64u, 0x00004623u, 0x41402ec2u, 0x5d845254u,
    /* row 78: proven |p - f| <= 19.7955 */
    0xccecc5e1u, 0x22cbd387u, 0xccecb54eu, 0x22cbd387u, 0xa70f991bu, 0x00004597u, 0x1a07ae65u, 0x5cca1a50u,
    /* row 79: proven |p - f| <= 19.3836 */
    0x1671c47bu, 0x2286814au, 0x1671c039u, 0x2286814au, 0x02942bfeu, 0x0000450du, 0xac5e2e08u, 0x5c11324bu,
    /* row 80: proven |p - f| <= 23.1165 */
    0x9327cf5cu, 0x2241b926u, 0x93278fc9u, 0x2241b926u, 0x724d22b7u, 0x00004483u, 0xf6d3adacu, 0x5b59b246u,
    /* row 81: proven |p - f| <= 22.1860 */
    0x222523d5u, 0x21fd7a0au, 0x2224f613u, 0x21fd7a0au, 0xf4144232u, 0x000043fau, 0xf807ad51u, 0x5aa3ca42u,
    /* row 82: proven |p - f| <= 28.0108 */
    0xc69cfefdu, 0x21b9c2e3u, 0xc69ce809u, 0x21b9c2e3u, 0x85c78b93u, 0x00004373u, 0xae7e2cf7u, 0x59ef2a3du,
    /* row 83: proven |p - f| <= 21.4507 */
    0xa39ba91eu, 0x217692a4u, 0xa39bbaddu, 0x217692a4u, 0x25494770u, 0x000042edu, 0x18d92c9eu, 0x593c1239u,
    /* row 84: proven |p - f| <= 23.6173 */
    0xf7cb0075u, 0x2133e83fu, 0xf7cad422u, 0x2133e83fu, 0xd07fece7u, 0x00004267u, 0x35a1ac45u, 0x588a3234u,
    /* row 85: proven |p - f| <= 22.1416 */
    0x193f7291u, 0x20f1c2abu, 0x193f4f73u, 0x20f1c2abu, 0x8556303du, 0x000041e3u, 0x0387abedu, 0x57d9da30u,
    /* row 86: proven |p - f| <= 22.4298 */
    0x714d5313u, 0x20b020ddu, 0x714d62bdu, 0x20b020ddu, 0x41bae315u, 0x00004160u, 0x81262b95u, 0x572aea2cu,
    /* row 87: proven |p - f| <= 21.6517 */
    0x78667fbfu, 0x206f01d0u, 0x7866579eu, 0x206f01d0u, 0x03a0edf0u, 0x000040deu, 0xad0cab3eu, 0x567d2227u,
    /* row 88: proven |p - f| <= 18.1348 */
    0xb20040deu, 0x202e647fu, 0xb2002143u, 0x202e647fu, 0xc8ff6241u, 0x0000405cu, 0x85f9aae8u, 0x55d0e223u,
};
#endif

/*
 * Helpers.  On Thumb-2 (ARMv7-M) they are inline asm, because the C forms
 * cost more instructions there: variable shifts that give 0 for counts of
 * 32..255 (LSR/LSL by a register), the 64-bit subtractions and additions
 * of a shifted 32-bit value (SUBS/SBC, ADDS/ADC with a shifted operand),
 * the 2-instruction shift count (SUB with a shifted operand, USAT with
 * ASR), one LDRD for a row's first two words and the row clamp (RSB,
 * USAT).  Elsewhere C computes the same bits, without a branch
 * (tests/test_m3.py checks the two builds bit-identical on the emulator,
 * tests/test_mcu.py the C against the generator's model).  The 64-bit
 * column steps are runtime/fxp.h's falcon_m3_fxp_sub64_shl / _shr / falcon_m3_fxp_add64_shl
 * on a hi:lo pair of words instead of a uint64_t: with fxp.h's own
 * (uint64_t in, uint64_t out) gcc 12 no longer merged the row loads into
 * LDRD and spilled, 132 to 134 instructions instead of 130 through
 * _domain_bits (measured when this form was written).
 */
#define FALCON_M3_UBFX(v, lsb, w) (((uint32_t)(v) >> (lsb)) & ((1u << (w)) - 1u))
#if defined(__GNUC__) && defined(__thumb2__)
#define FALCON_M3_LSRV(v, s) __extension__({ uint32_t _r; __asm__("lsr %0, %1, %2" : "=r"(_r) : "r"((uint32_t)(v)), "r"((uint32_t)(s))); _r; })
#define FALCON_M3_LSLV(v, s) __extension__({ uint32_t _r; __asm__("lsl %0, %1, %2" : "=r"(_r) : "r"((uint32_t)(v)), "r"((uint32_t)(s))); _r; })
/* clamp((int32_t)(k - (h << 1)) >> 21, 0, 63).  "after" is an operand the asm does not read, only
 * waits for: it keeps the compiler from computing the count (and holding its constant in a
 * register) long before it is used. */
#define FALCON_M3_SHIFT_COUNT(k, h, after) __extension__({ uint32_t _r; __asm__("sub %0, %1, %2, lsl #1\n\tusat %0, #6, %0, asr #21" : "=r"(_r) : "r"((uint32_t)(k)), "r"((uint32_t)(h)), "r"(after)); _r; })
/* (hi:lo) -= c << r, (hi:lo) -= c >> d, (hi:lo) += c << r, for 0 < r, d < 32 */
#define FALCON_M3_SUB64_SHL(hi, lo, c, r) do { uint32_t _l, _h; __asm__("subs %0, %2, %4, lsl %5\n\tsbc %1, %3, %4, lsr %6" : "=&r"(_l), "=r"(_h) : "r"(lo), "r"(hi), "r"((uint32_t)(c)), "i"(r), "i"(32 - (r)) : "cc"); lo = _l; hi = _h; } while (0)
#define FALCON_M3_SUB64_SHR(hi, lo, c, d) do { uint32_t _l, _h; __asm__("subs %0, %2, %4, lsr %5\n\tsbc %1, %3, #0" : "=&r"(_l), "=r"(_h) : "r"(lo), "r"(hi), "r"((uint32_t)(c)), "i"(d) : "cc"); lo = _l; hi = _h; } while (0)
#define FALCON_M3_ADD64_SHL(hi, lo, c, r) do { uint32_t _l, _h; __asm__("adds %0, %2, %4, lsl %5\n\tadc %1, %3, %4, lsr %6" : "=&r"(_l), "=r"(_h) : "r"(lo), "r"(hi), "r"((uint32_t)(c)), "i"(r), "i"(32 - (r)) : "cc"); lo = _l; hi = _h; } while (0)
/* lo = p[0], hi = p[1] in one LDRD (the compiler otherwise recomputes the row's address). */
#define FALCON_M3_LOAD_PAIR(lo, hi, p) __asm__("ldrd %0, %1, [%2]" : "=r"(lo), "=r"(hi) : "r"(p), "m"(*(const uint32_t (*)[2])(p)))
/* d with bits lsb..lsb+w-1 replaced by the low w bits of v */
#define FALCON_M3_BFI(d, v, lsb, w) __extension__({ uint32_t _d = (d); __asm__("bfi %0, %1, %2, %3" : "+r"(_d) : "r"((uint32_t)(v)), "i"(lsb), "i"(w)); _d; })
/* 88 - min(zh >> 25, 88): how far below the last row x's row is */
#define FALCON_M3_ROW_BACK(zh) __extension__({ uint32_t _r; __asm__("lsr %0, %1, #25\n\trsb %0, %0, #88\n\tusat %0, #7, %0" : "=&r"(_r) : "r"((uint32_t)(zh))); _r; })
#else
/* The same bits in C, without a branch (the shift counts and the row depend on x and ccs). */
FALCON_M3_INLINE uint32_t falcon_m3_lsrv(uint32_t v, uint32_t s) { s &= 255; return (v >> (s & 31)) & ((uint32_t)0 - ((s - 32) >> 31)); }
FALCON_M3_INLINE uint32_t falcon_m3_lslv(uint32_t v, uint32_t s) { s &= 255; return (v << (s & 31)) & ((uint32_t)0 - ((s - 32) >> 31)); }
#define FALCON_M3_LSRV(v, s) falcon_m3_lsrv((v), (s))
#define FALCON_M3_LSLV(v, s) falcon_m3_lslv((v), (s))
FALCON_M3_INLINE uint32_t falcon_m3_shift_count(uint32_t k, uint32_t h)
{
    uint32_t d = k - (h << 1);
    uint32_t t = (d >> 21) & ((d >> 31) - 1u);   /* (int32_t)d >> 21, or 0 where that is negative */
    return t ^ ((t ^ 63u) & ((uint32_t)0 - ((63u - t) >> 31)));   /* min(t, 63) */
}
#define FALCON_M3_SHIFT_COUNT(k, h, after) ((void)(after), falcon_m3_shift_count((k), (h)))
#define FALCON_M3_SUB64_SHL(hi, lo, c, r) do { uint64_t _v = ((uint64_t)(hi) << 32 | (lo)) - ((uint64_t)(uint32_t)(c) << (r)); hi = (uint32_t)(_v >> 32); lo = (uint32_t)_v; } while (0)
#define FALCON_M3_SUB64_SHR(hi, lo, c, d) do { uint64_t _v = ((uint64_t)(hi) << 32 | (lo)) - (uint64_t)((uint32_t)(c) >> (d)); hi = (uint32_t)(_v >> 32); lo = (uint32_t)_v; } while (0)
#define FALCON_M3_ADD64_SHL(hi, lo, c, r) do { uint64_t _v = ((uint64_t)(hi) << 32 | (lo)) + ((uint64_t)(uint32_t)(c) << (r)); hi = (uint32_t)(_v >> 32); lo = (uint32_t)_v; } while (0)
#define FALCON_M3_LOAD_PAIR(lo, hi, p) do { lo = (p)[0]; hi = (p)[1]; } while (0)
#define FALCON_M3_BFI(d, v, lsb, w) (((uint32_t)(d) & ~(((1u << (w)) - 1u) << (lsb))) | (((uint32_t)(v) & ((1u << (w)) - 1u)) << (lsb)))
FALCON_M3_INLINE uint32_t falcon_m3_row_back(uint32_t zh) { uint32_t d = 88u - (zh >> 25); return d & ((d >> 31) - 1u); }
#define FALCON_M3_ROW_BACK(zh) falcon_m3_row_back(zh)
#endif

#define FALCON_M3_K_X 0x7FDFFFFFu       /* (1022 << 21) | (2^21 - 1): x's shift count is clamp(1022 - e, 0, 63) */
#define FALCON_M3_K_CCS 0x7FFFFFFFu     /* (1023 << 21) | (2^21 - 1): ccs's is clamp(1023 - e, 0, 63) */

/*
 * Falcon's own contract: 0 <= x < ln 2, 0 <= ccs <= 1, on the bit patterns.
 *
 * x: z = floor(x 2^64) (Q0.64) is x's significand (the implicit bit always set), left-justified
 * in 64 bits and shifted right by s = clamp(1022 - e, 0, 63): exact from x >= 2^-11, within
 * 2^-64 of x 2^64 below (x < 2^-63, zero included, gives z = 1).  The shift count drops the sign
 * bit, so -0.0 behaves as +0.0.  The row is j = z >> 57 clamped to the table; T = bits 56..0 of z
 * as four 15-bit limbs t1..t4 (t4: bits 11..0 << 3).
 *
 * ccs = M 2^(e - 1023) with M in [1, 2) read exactly as four limbs cs1..cs4; R = y0 M 2^63
 * (< 2^64: y0 <= a0 < 1) is shifted right by s = clamp(1023 - e, 0, 63), so ccs = 1 needs no
 * special case and every ccs below 1/2 is handled as exactly.
 *
 * The products: each a sum of 15-bit-limb partial products (columns), the ones below the
 * plan's columns left out and bounded in the proof (gen/mcu/proof.py).  Plan (columns kept by
 * y4, y3, y2, y1, y0, ccs): 1, 2, 3, 3, 4, 4.
 */
FALCON_M3_INLINE uint64_t falcon_m3_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits)
{
    uint32_t xl = (uint32_t)x_bits, xh = (uint32_t)(x_bits >> 32);
    uint32_t cl = (uint32_t)ccs_bits, ch = (uint32_t)(ccs_bits >> 32);
    uint32_t sx = FALCON_M3_SHIFT_COUNT(FALCON_M3_K_X, xh, xh);
    uint32_t mh = (xh << 11) | (xl >> 21) | 0x80000000u, ml = xl << 11;
    uint32_t zl = FALCON_M3_LSRV(ml, sx) | FALCON_M3_LSLV(mh, 32 - sx) | FALCON_M3_LSRV(mh, sx - 32);
    uint32_t zh = FALCON_M3_LSRV(mh, sx);
    /* The last row's words minus the rows x's row lies below it: one SUB with a shifted operand. */
    const uint32_t *k = &falcon_m3_coeffs[704] - 8 * FALCON_M3_ROW_BACK(zh);
    uint32_t t1 = FALCON_M3_UBFX(zh, 10, 15);
    uint32_t t2 = FALCON_M3_BFI(zl >> 27, zh, 5, 10);
    uint32_t t3 = FALCON_M3_UBFX(zl, 12, 15);
    uint32_t t4 = (zl << 20) >> 17;
    uint32_t w7 = k[7];   /* a4, a5 in its low 11 bits */
    uint32_t lo, hi;
    /* y4 = a4 - T a5 (units 2^-64; 1 column(s) of T's and a5's limbs) */
    uint32_t y4_s0 = w7 & 0x7ffu;
    uint32_t y4_c0 = t1 * y4_s0;
    uint32_t y4 = w7 - (y4_c0 >> 3);
    /* y3 = a3 - T y4 (units 2^-70; 2 column(s) of T's and y4's limbs) */
    uint32_t y3_s0 = y4 >> 16;
    uint32_t y3_s1 = FALCON_M3_UBFX(y4, 1, 15);
    uint32_t y3_c1 = t1 * y3_s1 + t2 * y3_s0;
    uint32_t y3_c0 = t1 * y3_s0 + (y3_c1 >> 15);
    lo = k[6];
    hi = k[6] & 0x7fffu;
    FALCON_M3_SUB64_SHL(hi, lo, y3_c0, 7);
    /* y2 = a2 - T y3 (units 2^-62; 3 column(s) of T's and y3's limbs) */
    uint32_t y2_s0 = hi;
    uint32_t y2_s1 = lo >> 17;
    uint32_t y2_s2 = FALCON_M3_UBFX(lo, 2, 15);
    uint32_t y2_c2 = t1 * y2_s2 + t2 * y2_s1 + t3 * y2_s0;
    uint32_t y2_c1 = t1 * y2_s1 + t2 * y2_s0 + (y2_c2 >> 15);
    uint32_t y2_c0 = t1 * y2_s0;
    lo = k[4];
    hi = k[5];
    FALCON_M3_SUB64_SHL(hi, lo, y2_c0, 9);
    FALCON_M3_SUB64_SHR(hi, lo, y2_c1, 6);
    /* y1 = a1 - T y2 (units 2^-69; 3 column(s) of T's and y2's limbs) */
    uint32_t y1_s0 = hi;
    uint32_t y1_s1 = lo >> 17;
    uint32_t y1_s2 = FALCON_M3_UBFX(lo, 2, 15);
    uint32_t y1_c2 = t1 * y1_s2 + t2 * y1_s1 + t3 * y1_s0;
    uint32_t y1_c1 = t1 * y1_s1 + t2 * y1_s0 + (y1_c2 >> 15);
    uint32_t y1_c0 = t1 * y1_s0;
    lo = k[2];
    hi = k[3];
    FALCON_M3_SUB64_SHL(hi, lo, y1_c0, 24);
    FALCON_M3_SUB64_SHL(hi, lo, y1_c1, 9);
    /* y0 = a0 - T y1 (units 2^-62; 4 column(s) of T's and y1's limbs) */
    uint32_t y0_s0 = hi >> 15;
    uint32_t y0_s1 = hi & 0x7fffu;
    uint32_t y0_s2 = lo >> 17;
    uint32_t y0_s3 = FALCON_M3_UBFX(lo, 2, 15);
    uint32_t y0_c3 = t1 * y0_s3 + t2 * y0_s2 + t3 * y0_s1 + t4 * y0_s0;
    uint32_t y0_c2 = t1 * y0_s2 + t2 * y0_s1 + t3 * y0_s0 + (y0_c3 >> 15);
    uint32_t y0_c1 = t1 * y0_s1 + t2 * y0_s0;
    uint32_t y0_c0 = t1 * y0_s0;
    FALCON_M3_LOAD_PAIR(lo, hi, k);
    FALCON_M3_SUB64_SHL(hi, lo, y0_c0, 25);
    FALCON_M3_SUB64_SHL(hi, lo, y0_c1, 10);
    FALCON_M3_SUB64_SHR(hi, lo, y0_c2, 5);
    /* R = y0 M 2^63 (units 2^-63 for ccs = M in [1, 2)) */
    uint32_t cs1 = FALCON_M3_UBFX(ch, 6, 14) | 0x4000u;
    uint32_t cs2 = FALCON_M3_BFI(cl >> 23, ch, 9, 6);
    uint32_t cs3 = FALCON_M3_UBFX(cl, 8, 15);
    uint32_t cs4 = (cl << 24) >> 17;
    uint32_t r_s0 = hi >> 15;
    uint32_t r_s1 = hi & 0x7fffu;
    uint32_t r_s2 = lo >> 17;
    uint32_t r_s3 = FALCON_M3_UBFX(lo, 2, 15);
    uint32_t r_c3 = cs1 * r_s3 + cs2 * r_s2 + cs3 * r_s1 + cs4 * r_s0;
    uint32_t r_c2 = cs1 * r_s2 + cs2 * r_s1 + cs3 * r_s0 + (r_c3 >> 15);
    uint32_t r_c1 = cs1 * r_s1 + cs2 * r_s0;
    uint32_t r_c0 = cs1 * r_s0;
    uint32_t rh = r_c0 << 2;
    uint32_t rl = r_c1 << 19;
    rh += r_c1 >> 13;
    FALCON_M3_ADD64_SHL(rh, rl, r_c2, 4);
    /* R >> s for ccs = M 2^-s, s in 0..63 */
    uint32_t sc = FALCON_M3_SHIFT_COUNT(FALCON_M3_K_CCS, ch, r_c2);
    uint32_t ol = FALCON_M3_LSRV(rl, sc) | FALCON_M3_LSLV(rh, 32 - sc) | FALCON_M3_LSRV(rh, sc - 32);
    uint32_t oh = FALCON_M3_LSRV(rh, sc);
    return (uint64_t)oh << 32 | ol;
}

/* The same from doubles (their bits read with memcpy). */
FALCON_M3_INLINE uint64_t falcon_m3_fpr_expm_p63_domain(double x, double ccs)
{
    uint64_t xb, cb;
    memcpy(&xb, &x, sizeof xb);
    memcpy(&cb, &ccs, sizeof cb);
    return falcon_m3_fpr_expm_p63_domain_bits(xb, cb);
}

#define FALCON_M3_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define FALCON_M3_INF_BITS UINT64_C(0x7FF0000000000000)

/* All ones if the pattern, as an unsigned integer, is above +inf's: a negative number (-0
 * included, the sign bit set) or a NaN.  On Thumb-2 the borrow of +inf - bits (RSBS, SBCS)
 * spread by SBC: the compiler's 64-bit compare used IT blocks and more instructions. */
#if defined(__GNUC__) && defined(__thumb2__)
FALCON_M3_INLINE uint32_t falcon_m3_zero_mask(uint64_t bits)
{
    uint32_t m, t;
    __asm__("rsbs %1, %2, #0\n\tsbcs %1, %3, %4\n\tsbc %0, %0, %0"
            : "=r"(m), "=&r"(t) : "r"((uint32_t)bits), "r"((uint32_t)(FALCON_M3_INF_BITS >> 32)), "r"((uint32_t)(bits >> 32))
            : "cc");
    return m;
}
#else
FALCON_M3_INLINE uint32_t falcon_m3_zero_mask(uint64_t bits)
{
    return (uint32_t)0 - (uint32_t)(bits > FALCON_M3_INF_BITS);
}
#endif

/*
 * Every input defined: the edge rules on the bit patterns, then the kernel.  x negative (-0
 * included) or NaN counts as 0, x above the double below ln 2 (+inf included) as that double;
 * ccs negative or NaN gives 0, ccs >= 1 (+inf included) counts as 1 (its mantissa cleared, its
 * exponent kept: the shift count is 0 from e = 1023 up).  Branch-free: integer compares of the
 * patterns, masks from their borrows, applied word by word (a 64-bit mask m << 32 | m became a
 * UMULL, a long multiply, in an earlier build).
 */
FALCON_M3_INLINE uint64_t falcon_m3_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    uint32_t ch = (uint32_t)(ccs_bits >> 32), cl = (uint32_t)ccs_bits;
    uint32_t x_zero = falcon_m3_zero_mask(x_bits);
    /* x above LN2_DOWN as an integer (negative ones are zeroed next): LN2_DOWN. */
    uint64_t d = FALCON_M3_LN2_DOWN_BITS - x_bits;
    uint32_t big_x = (uint32_t)0 - ((uint32_t)(d >> 32) >> 31);
    uint64_t x = x_bits + (((uint64_t)((uint32_t)(d >> 32) & big_x) << 32) | ((uint32_t)d & big_x));
    x = ((uint64_t)((uint32_t)(x >> 32) & ~x_zero) << 32) | ((uint32_t)x & ~x_zero);
    /* ccs >= 1 (e >= 1023, the sign bit dropped by the shift): all ones in big */
    uint32_t big = (uint32_t)0 - (((FALCON_M3_K_X - (ch << 1))) >> 31);
    uint32_t c_zero = falcon_m3_zero_mask(ccs_bits);
    uint64_t c = ((uint64_t)(ch & ~(big >> 12)) << 32) | (cl & ~big);   /* big >> 12: the high word's mantissa bits */
    uint64_t r = falcon_m3_fpr_expm_p63_domain_bits(x, c);
    return ((uint64_t)((uint32_t)(r >> 32) & ~c_zero) << 32) | ((uint32_t)r & ~c_zero);
}

/* The native-float entry: the same on doubles. */
FALCON_M3_INLINE uint64_t falcon_m3_fpr_expm_p63_native(double x, double ccs)
{
    uint64_t xb, cb;
    memcpy(&xb, &x, sizeof xb);
    memcpy(&cb, &ccs, sizeof cb);
    return falcon_m3_fpr_expm_p63(xb, cb);
}

#endif /* FALCON_M3_H */

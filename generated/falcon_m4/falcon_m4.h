/* SPDX-License-Identifier: CC0-1.0
 * falcon_m4.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_m4.toml (sha256 0eae053ae6cbb5b1418c02cc67cbdbd98b79175576cb7eba73fa2c17b3ec49b4); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_m4.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 6,
 *     segments = {kind = "pow2", bits = 5}, coefficient_scales = [64, 64, 64, 64, 64, 64, 64],
 *     max_abs_error_log2 = -59.0, multiplier = "umaal", table_placement = "sram", pad_table = true
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |falcon_m4_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 9.32809 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 *     |_eval(z) - f(z/2^64) 2^63| <= 8.82809 (units of 2^-63), |_expm_p63(z, w) - (w/2^64) f(z/2^64) 2^63| <= 8.52738 (units of 2^-63)
 */
#if defined(FALCON_M4_CONTENT_HASH) && FALCON_M4_CONTENT_HASH != 0x02724d5c98689fc0u
#error "falcon_m4.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_M4_H
#define FALCON_M4_H

#include <stdint.h>

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

static inline uint64_t falcon_m4_fxp_mulhi64_portable(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
__extension__ typedef unsigned __int128 falcon_m4_fxp_u128;
#endif

static inline uint64_t falcon_m4_fxp_mulhi64_limb32(uint64_t a, uint64_t b) {
#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
    return (uint64_t)(((falcon_m4_fxp_u128)a * b) >> 64);
#else
    return falcon_m4_fxp_mulhi64_portable(a, b);
#endif
}
static inline uint64_t falcon_m4_fxp_mulhi64_umaal(uint64_t a, uint64_t b) {
#if defined(__ARM_ARCH_7EM__)
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
static inline uint64_t falcon_m4_fxp_submulhi64_umaal(uint64_t c, uint64_t a, uint64_t b) {
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

#if defined(__GNUC__) && (defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__))
#define FALCON_M4_TABLE_SECTION __attribute__((section(".data.falcon_m4_coeffs")))
#else
#define FALCON_M4_TABLE_SECTION
#endif
extern const uint64_t falcon_m4_coeffs[32][7];
#ifndef FALCON_M4_TABLE_EXTERN
const uint64_t falcon_m4_coeffs[32][7] FALCON_M4_TABLE_SECTION = {
    { UINT64_C(0xfffffffffffffff4), UINT64_C(0x07fffffffffffb19), UINT64_C(0x001fffffffffb180), UINT64_C(0x0000555555537dfe), UINT64_C(0x000000aaaaa566b0), UINT64_C(0x0000000111095513), UINT64_C(0x000000000166729e) },
    { UINT64_C(0xf81fab5445aebc7f), UINT64_C(0x07c0fd5aa22d7124), UINT64_C(0x001f03f56a8869c1), UINT64_C(0x000052b5391a4e62), UINT64_C(0x000000a56a6d1dac), UINT64_C(0x0000000108a2d147), UINT64_C(0x00000000015b6b61) },
    { UINT64_C(0xf07d5fde38151e68), UINT64_C(0x0783eafef1c0a458), UINT64_C(0x001e0fabfbc6b8e5), UINT64_C(0x00005029ca9dad3f), UINT64_C(0x000000a053904c83), UINT64_C(0x00000001007e7792), UINT64_C(0x000000000150bb01) },
    { UINT64_C(0xe9173500cbe01590), UINT64_C(0x0748b9a8065efc36), UINT64_C(0x001d22e6a0193489), UINT64_C(0x00004db266fe96cd), UINT64_C(0x0000009b64c93532), UINT64_C(0x00000000f89a3ed2), UINT64_C(0x0000000001465ed3) },
    { UINT64_C(0xe1eb51276c110c32), UINT64_C(0x070f5a893b60840e), UINT64_C(0x001c3d6a24ed3cdb), UINT64_C(0x00004b4e7060d96f), UINT64_C(0x000000969cdc1f76), UINT64_C(0x00000000f0f42e00), UINT64_C(0x00000000013c5444) },
    { UINT64_C(0xdaf7e94f92613134), UINT64_C(0x06d7bf4a7c930558), UINT64_C(0x001b5efd29f20900), UINT64_C(0x000048fd4dc39da2), UINT64_C(0x00000091fa970965), UINT64_C(0x00000000e98a5b4a), UINT64_C(0x00000000013298ba) },
    { UINT64_C(0xd43b4096043bddf9), UINT64_C(0x06a1da04b021dae0), UINT64_C(0x001a876812c04669), UINT64_C(0x000046be6adb2555), UINT64_C(0x0000008d7cd15bd7), UINT64_C(0x00000000e25aec7e), UINT64_C(0x00000000012929e2) },
    { UINT64_C(0xcdb3a7c7979ebd53), UINT64_C(0x066d9d3e3cbcf1fa), UINT64_C(0x0019b674f8f2b4c3), UINT64_C(0x0000449137ebb7cf), UINT64_C(0x00000089226b9f45), UINT64_C(0x00000000db64159a), UINT64_C(0x0000000001200556) },
    { UINT64_C(0xc75f7cf56410573a), UINT64_C(0x063afbe7ab207ee9), UINT64_C(0x0018ebef9eac44e9), UINT64_C(0x0000427529a5b248), UINT64_C(0x00000084ea4f3477), UINT64_C(0x00000000d4a418e1), UINT64_C(0x00000000011728cd) },
    { UINT64_C(0xc13d2b0c44b8af42), UINT64_C(0x0609e9586225c1c7), UINT64_C(0x001827a561885bd4), UINT64_C(0x00004069b902b31e), UINT64_C(0x00000080d36e0eac), UINT64_C(0x00000000ce194647), UINT64_C(0x00000000010e920f) },
    { UINT64_C(0xbb4b296f917bf092), UINT64_C(0x05da594b7c8bdbf5), UINT64_C(0x001769652df1f643), UINT64_C(0x00003e6e6323d859), UINT64_C(0x0000007cdcc2715f), UINT64_C(0x00000000c7c1fc17), UINT64_C(0x0000000001063f4e) },
    { UINT64_C(0xb587fb96f5c4e70b), UINT64_C(0x05ac3fdcb7ae23be), UINT64_C(0x0016b0ff72de80f1), UINT64_C(0x00003c82a93103b1), UINT64_C(0x00000079054ea8c9), UINT64_C(0x00000000c19ca169), UINT64_C(0x0000000000fe2d71) },
    { UINT64_C(0xaff230af4c74754c), UINT64_C(0x057f91857a63a04c), UINT64_C(0x0015fe4615e9589b), UINT64_C(0x00003aa610392ae1), UINT64_C(0x000000754c1cd66d), UINT64_C(0x00000000bba7afe9), UINT64_C(0x0000000000f65b77) },
    { UINT64_C(0xaa88633e692c84a4), UINT64_C(0x05544319f34960e1), UINT64_C(0x0015510c67ccf146), UINT64_C(0x000038d8211393bf), UINT64_C(0x00000071b03ea7aa), UINT64_C(0x00000000b5e1a94e), UINT64_C(0x0000000000eec715) },
    { UINT64_C(0xa54938c9b7e846aa), UINT64_C(0x052a49c64dbf3f0b), UINT64_C(0x0014a9271936ca59), UINT64_C(0x0000371868420cfb), UINT64_C(0x0000006e30cd2029), UINT64_C(0x00000000b0491c10), UINT64_C(0x0000000000e76e66) },
    { UINT64_C(0xa033617f9c89376c), UINT64_C(0x05019b0bfce446aa), UINT64_C(0x0014066c2ff36007), UINT64_C(0x0000356675d40d39), UINT64_C(0x0000006acce85edd), UINT64_C(0x00000000aadca204), UINT64_C(0x0000000000e04f94) },
    { UINT64_C(0x9b4597e37cb04fed), UINT64_C(0x04da2cbf1be57f86), UINT64_C(0x001368b2fc6f6679), UINT64_C(0x000033c1dd4ab6a2), UINT64_C(0x0000006783b766af), UINT64_C(0x00000000a59ae098), UINT64_C(0x0000000000d96909) },
    { UINT64_C(0x967ea07c5ee56f4f), UINT64_C(0x04b3f503e2f728a3), UINT64_C(0x0012cfd40f8baed9), UINT64_C(0x0000322a357db64a), UINT64_C(0x000000645467e6f1), UINT64_C(0x00000000a0828710), UINT64_C(0x0000000000d2b8eb) },
    { UINT64_C(0x91dd49860ab457f8), UINT64_C(0x048eea4c30559ff5), UINT64_C(0x00123ba930c129d4), UINT64_C(0x0000309f1880f711), UINT64_C(0x000000613e2e0416), UINT64_C(0x000000009b924cc1), UINT64_C(0x0000000000cc3ccb) },
    { UINT64_C(0x8d606aa49606ded7), UINT64_C(0x046b035524b03442), UINT64_C(0x0011ac0d54929582), UINT64_C(0x00002f20238b2db7), UINT64_C(0x0000005e40442ffa), UINT64_C(0x0000000096c8f91b), UINT64_C(0x0000000000c5f422) },
    { UINT64_C(0x8906e49a4c9f3d53), UINT64_C(0x04483724d264f74b), UINT64_C(0x001120dc934969e4), UINT64_C(0x00002dacf6dd1d42), UINT64_C(0x0000005b59eaeab0), UINT64_C(0x0000000092255892), UINT64_C(0x0000000000bfdcfe) },
    { UINT64_C(0x84cfa0ffdf2c01b9), UINT64_C(0x04267d07fef95d83), UINT64_C(0x001099f41ffbbcbb), UINT64_C(0x00002c4535a9aadc), UINT64_C(0x000000588a68990e), UINT64_C(0x000000008da6412d), UINT64_C(0x0000000000b9f572) },
    { UINT64_C(0x80b991fec8010362), UINT64_C(0x0405cc8ff64007f5), UINT64_C(0x001017323fd8f683), UINT64_C(0x00002ae885feb4b4), UINT64_C(0x00000055d10282e7), UINT64_C(0x00000000891fc0ba), UINT64_C(0x00000000006098ee) },
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
#define FALCON_M4_TABLE_ROWS 32
#define FALCON_M4_DEGREE 6
#define FALCON_M4_WORD_BITS 64
#define FALCON_M4_TABLE_BYTES 1792
#define FALCON_M4_CORE_SCALE 64
#define FALCON_M4_Z_MAX UINT64_C(0xb17217f7d1cf79ab)
#define FALCON_M4_ERR_BOUND_ULP 8.82809
#define FALCON_M4_EXPM_P63_ERR_BOUND 8.52738

static inline uint64_t falcon_m4_core(uint64_t z) {
    uint64_t u = z;
    uint64_t idx = u >> 59;
    uint64_t T = (u & UINT64_C(0x7ffffffffffffff)) << 5;
    const uint64_t *k = falcon_m4_coeffs[idx];
    uint64_t y5 = falcon_m4_fxp_submulhi64_umaal(k[5], k[6], T);
    uint64_t y4 = falcon_m4_fxp_submulhi64_umaal(k[4], y5, T);
    uint64_t y3 = falcon_m4_fxp_submulhi64_umaal(k[3], y4, T);
    uint64_t y2 = falcon_m4_fxp_submulhi64_umaal(k[2], y3, T);
    uint64_t y1 = falcon_m4_fxp_submulhi64_umaal(k[1], y2, T);
    uint64_t y0 = falcon_m4_fxp_submulhi64_umaal(k[0], y1, T);
    return y0;
}
static inline uint64_t falcon_m4_eval(uint64_t z) { return (falcon_m4_core(z) + UINT64_C(0x1)) >> 1; }

static inline uint64_t falcon_m4_expm_p63_core(uint64_t u, uint64_t w) {
    return falcon_m4_fxp_mulhi64_umaal(w, u) >> 1;
}
static inline uint64_t falcon_m4_expm_p63(uint64_t z, uint64_t w) {
    return falcon_m4_expm_p63_core(falcon_m4_core(z), w);
}

#include <string.h>

#define FALCON_M4_FPR_EXPM_P63_ERR_BOUND 9.32809
#define FALCON_M4_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define FALCON_M4_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
#define FALCON_M4_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

static inline uint64_t falcon_m4_significand(uint32_t hi, uint32_t lo) {
    return ((uint64_t)(UINT32_C(0x80000000) | (hi << 11) | (lo >> 21)) << 32) | (uint32_t)(lo << 11);
}
static inline uint32_t falcon_m4_exponent_shift(uint32_t hi, int32_t bias) {
    int32_t s = bias - (int32_t)((hi >> 20) & 0x7FFu);
    s = s < 0 ? 0 : s;
    s = s > 63 ? 63 : s;
    return (uint32_t)s;
}
static inline uint64_t falcon_m4_fpr_to_q64(uint64_t bits) {
    uint32_t hi = (uint32_t)(bits >> 32), lo = (uint32_t)bits;
    return (falcon_m4_significand(hi, lo) >> falcon_m4_exponent_shift(hi, 1022)) & ~(uint64_t)1;
}
static inline uint64_t falcon_m4_expm_p63_mantissa(uint64_t u, uint64_t m, uint32_t s) {
    return falcon_m4_fxp_mulhi64_umaal(m, u) >> s;
}
static inline uint64_t falcon_m4_fpr_rules_z(uint64_t x_bits) {
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    uint64_t xa = x_bits & abs_mask;
    uint64_t dx = FALCON_M4_LN2_DOWN_BITS - xa;
    uint32_t x_big = (uint32_t)(dx >> 63);
    uint32_t x_zero = (uint32_t)(x_bits >> 63) | (uint32_t)((inf_bits - xa) >> 63);
    xa += dx & ((uint64_t)0 - x_big);
    return falcon_m4_fpr_to_q64(xa) & ((uint64_t)x_zero - 1);
}
static inline uint32_t falcon_m4_fpr_c_zero(uint64_t ccs_bits) {
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    return (uint32_t)(ccs_bits >> 63) | (uint32_t)((inf_bits - (ccs_bits & (((uint64_t)1 << 63) - 1))) >> 63);
}
static inline uint64_t falcon_m4_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits) {
    uint32_t ch = (uint32_t)(ccs_bits >> 32) & UINT32_C(0x7FFFFFFF), cl = (uint32_t)ccs_bits;
    uint32_t fraction = (uint32_t)0 - ((UINT32_C(0x3FEFFFFF) - ch) >> 31);
    uint64_t keep = (uint64_t)falcon_m4_fpr_c_zero(ccs_bits) - 1;
    uint64_t m = falcon_m4_significand(ch & ~fraction, cl & ~fraction) & keep;
    return falcon_m4_expm_p63_mantissa(falcon_m4_core(falcon_m4_fpr_rules_z(x_bits)), m, falcon_m4_exponent_shift(ch, 1023));
}
static inline uint64_t falcon_m4_fpr_expm_p63_native(double x, double ccs) {
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return falcon_m4_fpr_expm_p63(x_bits, c_bits);
}
static inline uint64_t falcon_m4_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits) {
    return falcon_m4_expm_p63_mantissa(falcon_m4_core(falcon_m4_fpr_to_q64(x_bits)),
                                        falcon_m4_significand((uint32_t)(ccs_bits >> 32), (uint32_t)ccs_bits),
                                        falcon_m4_exponent_shift((uint32_t)(ccs_bits >> 32), 1023));
}
static inline uint64_t falcon_m4_fpr_expm_p63_domain(double x, double ccs) {
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return falcon_m4_fpr_expm_p63_domain_bits(x_bits, c_bits);
}
#endif

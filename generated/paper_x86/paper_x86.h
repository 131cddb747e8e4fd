/* SPDX-License-Identifier: CC0-1.0
 * paper_x86.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/paper_x86.toml (sha256 16a2044e807052de2ac1847480b1f5118ffd9d204738f939922f49ce20379ad6); regenerate in the project root with:
 *     python3 -m gen render kernels/paper_x86.toml --out generated
 * Parameters other than the defaults: scale_bits = 62, degree = 6,
 *     segments = {kind = "equal", count = 32}
 * Proven bounds (Taylor models, exact interval arithmetic; details, sidecar, Gappa script: provenance/), f(x) = exp(-x):
 *     |paper_x86_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 2.58012 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 *     |_eval(z) - f(z/2^64) 2^62| <= 1.28472 (units of 2^-62), |_expm_p63(z, w) - (w/2^64) f(z/2^64) 2^63| <= 1.58012 (units of 2^-63)
 */
#if defined(PAPER_X86_CONTENT_HASH) && PAPER_X86_CONTENT_HASH != 0xd4076c9fe785c93eu
#error "paper_x86.h: another render of this kernel was included before this one"
#endif
#ifndef PAPER_X86_H
#define PAPER_X86_H

#include <stdint.h>

#define PAPER_X86_CONTENT_HASH 0xd4076c9fe785c93eu

/**
 * paper_x86_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 or NaN counts as 0, x >= ln 2 as the double below ln 2, ccs NaN or <= 0
 * gives 0, ccs >= 1 counts as 1.  _domain(x, ccs), _domain_bits(x_bits, ccs_bits): Falcon's contract,
 * 0 <= x < ln 2 and 0 <= ccs < 1, converted as the reference does (unspecified but defined outside it).
 * paper_x86_eval(z) ~= f(z / 2^64) 2^62, paper_x86_expm_p63(z, w) ~= (w / 2^64) f(z / 2^64) 2^63
 * with f(x) = exp(-x) and Q0.64 words; a z above PAPER_X86_Z_MAX gives an unspecified value, not a
 * read outside the table.
 * Constant time only where a load takes the same time at every address (SRAM on a Cortex-M3 or M4): the table
 * row depends on the input; no branch does.
 * Products: MUL (x86-64), UMULH (AArch64); on ARMv7-M 16x16->32 MUL/MLA, as UMULL's time depends on its
 * operands (-DFXP_ALLOW_UMULL permits it).
 * One table per program: define PAPER_X86_TABLE_EXTERN in every file that includes this one but one.
 */

#if !defined(FXP_MUL16) && defined(__ARM_ARCH_7M__) && !defined(FXP_ALLOW_UMULL)
#define FXP_MUL16 1
#endif

static inline uint64_t paper_x86_fxp_mul16_32x32(uint32_t x, uint32_t y) {
    uint32_t x0 = x & 0xFFFFu, x1 = x >> 16;
    uint32_t y0 = y & 0xFFFFu, y1 = y >> 16;
    uint32_t p00 = x0 * y0, p01 = x0 * y1, p10 = x1 * y0, p11 = x1 * y1;
    uint64_t r = ((uint64_t)p11 << 32) | p00;
    r += (uint64_t)p01 << 16;
    r += (uint64_t)p10 << 16;
    return r;
}
static inline void paper_x86_fxp_mul16_64x64(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo) {
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint64_t q00 = paper_x86_fxp_mul16_32x32(a0, b0);
    uint64_t q10 = paper_x86_fxp_mul16_32x32(a1, b0);
    uint64_t t = (q00 >> 32) + paper_x86_fxp_mul16_32x32(a0, b1) + (uint32_t)q10;
    *lo = (t << 32) | (uint32_t)q00;
    *hi = paper_x86_fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32);
}
static inline uint64_t paper_x86_fxp_mulhi64_portable(uint64_t a, uint64_t b) {
    uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32;
    uint64_t b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

#if defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
__extension__ typedef unsigned __int128 paper_x86_fxp_u128;
#endif

#if defined(FXP_MUL16)
static inline uint64_t paper_x86_fxp_mulhi64(uint64_t a, uint64_t b) {
    uint64_t hi, lo;
    paper_x86_fxp_mul16_64x64(a, b, &hi, &lo);
    (void)lo;
    return hi;
}
#elif defined(__SIZEOF_INT128__) && !defined(FXP_NO_INT128)
static inline uint64_t paper_x86_fxp_mulhi64(uint64_t a, uint64_t b) {
    return (uint64_t)(((paper_x86_fxp_u128)a * b) >> 64);
}
#else
static inline uint64_t paper_x86_fxp_mulhi64(uint64_t a, uint64_t b) { return paper_x86_fxp_mulhi64_portable(a, b); }
#endif

static inline uint64_t paper_x86_fxp_mullo64(uint64_t a, uint64_t b) {
#if defined(FXP_MUL16)
    uint32_t a0 = (uint32_t)a, a1 = (uint32_t)(a >> 32);
    uint32_t b0 = (uint32_t)b, b1 = (uint32_t)(b >> 32);
    uint32_t cross = a0 * b1 + a1 * b0;
    return paper_x86_fxp_mul16_32x32(a0, b0) + ((uint64_t)cross << 32);
#else
    return a * b;
#endif
}

extern const uint64_t paper_x86_coeffs[32][7];
#ifndef PAPER_X86_TABLE_EXTERN
const uint64_t paper_x86_coeffs[32][7] = {
    { UINT64_C(0x8000000000000000), UINT64_C(0xfffffffffffff3e4), UINT64_C(0xffffffffffab102b), UINT64_C(0xaaaaaaa9e441d0cf), UINT64_C(0xaaaaa9006f581c10), UINT64_C(0x8886b972600f3a1e), UINT64_C(0xb41bed2107c632f4) },
    { UINT64_C(0x7d41d96db915019d), UINT64_C(0xfa83b2db7229f82e), UINT64_C(0xfa83b2db71d96052), UINT64_C(0xa702773c37cd60f0), UINT64_C(0xa702759fc8dd5232), UINT64_C(0x8599cfb9ade80429), UINT64_C(0xb040f5f87b8cd7c2) },
    { UINT64_C(0x7a92be8a92436616), UINT64_C(0xf5257d152486c563), UINT64_C(0xf5257d152444d5c7), UINT64_C(0xa36e5362c3c15234), UINT64_C(0xa36e51e4390c1a61), UINT64_C(0x82bcfc65237eb46f), UINT64_C(0xac7fc126a1b1050d) },
    { UINT64_C(0x77f25ccdee6d7ae5), UINT64_C(0xefe4b99bdcdaeda1), UINT64_C(0xefe4b99bdc956a4f), UINT64_C(0x9fedd111e6569d32), UINT64_C(0x9fedcf934b0a3d03), UINT64_C(0x7fefcb9b8cfcb155), UINT64_C(0xa8cb458908664ac2) },
    { UINT64_C(0x75606373ee921c96), UINT64_C(0xeac0c6e7dd242b47), UINT64_C(0xeac0c6e7dccde875), UINT64_C(0x9c808499d2cf0ba6), UINT64_C(0x9c808306afd3c153), UINT64_C(0x7d31ed07caee0c72), UINT64_C(0xa525c1451d530fb3) },
    { UINT64_C(0x72dc8373be41a453), UINT64_C(0xe5b906e77c83428e), UINT64_C(0xe5b906e77c46595d), UINT64_C(0x99260499b4f12157), UINT64_C(0x99260334b45401c9), UINT64_C(0x7a833f9e829c18ab), UINT64_C(0xa1a5ca74668ae90d) },
    { UINT64_C(0x70666f76154a7087), UINT64_C(0xe0ccdeec2a94d84c), UINT64_C(0xe0ccdeec2a5025dc), UINT64_C(0x95dde9f22060c1e7), UINT64_C(0x95dde885d0d9e936), UINT64_C(0x77e329fd471a8588), UINT64_C(0x9e2b09872b9d23fe) },
    { UINT64_C(0x6dfddbcbed791ba9), UINT64_C(0xdbfbb797daf2308a), UINT64_C(0xdbfbb797dab4bcb7), UINT64_C(0x92a7cfb9f670abe5), UINT64_C(0x92a7ce5ee209d7ea), UINT64_C(0x7551899a9de66467), UINT64_C(0x9ac9ed36a260eabe) },
    { UINT64_C(0x6ba27e656b4eb578), UINT64_C(0xd744fccad69d60e6), UINT64_C(0xd744fccad6566ddd), UINT64_C(0x8f8353313e1fe13a), UINT64_C(0x8f8351cc28cf2fa0), UINT64_C(0x72cdf0bfafa3ce40), UINT64_C(0x97742b75e5bf8336) },
    { UINT64_C(0x69540ec8f895722b), UINT64_C(0xd2a81d91f12ade5f), UINT64_C(0xd2a81d91f0f1c2f1), UINT64_C(0x8c7013b60e28db26), UINT64_C(0x8c70126c959f424b), UINT64_C(0x7058388621ccff72), UINT64_C(0x943ab336b526a055) },
    { UINT64_C(0x6712460a8fc2406f), UINT64_C(0xce248c151f8472cb), UINT64_C(0xce248c151f333b02), UINT64_C(0x896db2b80fb6bff0), UINT64_C(0x896db14dd8963c9b), UINT64_C(0x6defdb6fcedd1001), UINT64_C(0x910313e598dfa1fe) },
    { UINT64_C(0x64dcdec3371793ce), UINT64_C(0xc9b9bd866e2f19d6), UINT64_C(0xc9b9bd866ddf9f94), UINT64_C(0x867bd3ae47edc7a8), UINT64_C(0x867bd24bd3c0c0f0), UINT64_C(0x6b94cad77e060db1), UINT64_C(0x8de79b51d7ea7389) },
    { UINT64_C(0x62b39508aa836d6c), UINT64_C(0xc5672a115506d581), UINT64_C(0xc5672a1154d227e1), UINT64_C(0x839a1c0b05bd3bb7), UINT64_C(0x839a1ad7ae40c4e4), UINT64_C(0x6946bda1d2c3b136), UINT64_C(0x8ae79e4c7d835d90) },
    { UINT64_C(0x6096266533384a28), UINT64_C(0xc12c4cca66708986), UINT64_C(0xc12c4cca662b79a8), UINT64_C(0x80c83330fd8af2c8), UINT64_C(0x80c831e82fdef0c4), UINT64_C(0x67052d5f3dd73a0b), UINT64_C(0x87e62f8c8fa0ac94) },
    { UINT64_C(0x5e8451cfac061b5c), UINT64_C(0xbd08a39f580c2d07), UINT64_C(0xbd08a39f57cb342f), UINT64_C(0x7e05c269a5448cc6), UINT64_C(0x7e05c12be96796c7), UINT64_C(0x64d01049a164792c), UINT64_C(0x84fdc1a014795aa4) },
    { UINT64_C(0x5c7dd7a3b17dcf71), UINT64_C(0xb8fbaf4762fb94a4), UINT64_C(0xb8fbaf4762b9b4b5), UINT64_C(0x7b5274d9acd989ee), UINT64_C(0x7b52739f359a7a73), UINT64_C(0x62a70abd284a4eb2), UINT64_C(0x82234cb7f8be282f) },
    { UINT64_C(0x5a827999fcef323f), UINT64_C(0xb504f333f9de61b7), UINT64_C(0xb504f333f9b55fef), UINT64_C(0x78adf77788d8252e), UINT64_C(0x78adf66a3fcf561a), UINT64_C(0x6089f7bb9ab6cdb9), UINT64_C(0x7f63c19139973d9a) },
    { UINT64_C(0x5891fac0e95612c4), UINT64_C(0xb123f581d2ac1c91), UINT64_C(0xb123f581d26f92ef), UINT64_C(0x7617f900ab86f8d3), UINT64_C(0x7617f7d777112b4f), UINT64_C(0x5e7851ebbcd65717), UINT64_C(0x7c9fde5ba14e4196) },
    { UINT64_C(0x56ac1f752150a55f), UINT64_C(0xad583eea42a13f51), UINT64_C(0xad583eea425e2342), UINT64_C(0x739029f0ef41ccca), UINT64_C(0x739028c21d57bf86), UINT64_C(0x5c7212964f6ec4b6), UINT64_C(0x79f11e0e5629156e) },
    { UINT64_C(0x54d0ad5a753e0778), UINT64_C(0xa9a15ab4ea7c04cd), UINT64_C(0xa9a15ab4ea3d66a1), UINT64_C(0x71163c7810c7670b), UINT64_C(0x71163b5454056f2d), UINT64_C(0x5a76f7c83c2a82c7), UINT64_C(0x7755631c0949e0bd) },
    { UINT64_C(0x52ff6b54d8a89c71), UINT64_C(0xa5fed6a9b1513181), UINT64_C(0xa5fed6a9b11b9bfb), UINT64_C(0x6ea9e470a219fa3f), UINT64_C(0x6ea9e35f0f4f586a), UINT64_C(0x5886bf085bb1eb4e), UINT64_C(0x74c9e632a93d2878) },
    { UINT64_C(0x513821818624b408), UINT64_C(0xa27043030c495f48), UINT64_C(0xa27043030c102b37), UINT64_C(0x6c4ad756db600a1b), UINT64_C(0x6c4ad643b44eb387), UINT64_C(0x56a11cfdbde2550b), UINT64_C(0x72474aa4927a792c) },
    { UINT64_C(0x4f7a993048d088d2), UINT64_C(0x9ef5326091a106ca), UINT64_C(0x9ef5326091626622), UINT64_C(0x69f8cc3fd9661f6c), UINT64_C(0x69f8cb288b0266b6), UINT64_C(0x54c5e16f1f9dd815), UINT64_C(0x6fd1ce6102a67e9b) },
    { UINT64_C(0x4dc69cdceaa72a98), UINT64_C(0x9b8d39b9d54e4f03), UINT64_C(0x9b8d39b9d51e6744), UINT64_C(0x67b37bd0c50e8104), UINT64_C(0x67b37ad4168bb595), UINT64_C(0x52f4e6b5f8c7147c), UINT64_C(0x6d71d08b59b7f14b) },
    { UINT64_C(0x4c1bf828c6dc54b3), UINT64_C(0x9837f0518db8a0b5), UINT64_C(0x9837f0518d81a4c7), UINT64_C(0x657aa035e2c6eeca), UINT64_C(0x657a9f31edef5d31), UINT64_C(0x512dcf219fa1fc9c), UINT64_C(0x6b161bbee746cba1) },
    { UINT64_C(0x4a7a77d47f7b84ac), UINT64_C(0x94f4efa8fef70255), UINT64_C(0x94f4efa8fec5b657), UINT64_C(0x634df51ae150a04c), UINT64_C(0x634df423760ad675), UINT64_C(0x4f70838283ccd82d), UINT64_C(0x68cc80b357f9419e) },
    { UINT64_C(0x48e1e9b9d588e196), UINT64_C(0x91c3d373ab11b938), UINT64_C(0x91c3d373aad84b36), UINT64_C(0x612d37a1f59edc0d), UINT64_C(0x612d36a1d5a3e6d2), UINT64_C(0x4dbcb6567a632dff), UINT64_C(0x6689fae101b65fd3) },
    { UINT64_C(0x47521cc5a2e6a9db), UINT64_C(0x8ea4398b45cd4959), UINT64_C(0x8ea4398b45934d69), UINT64_C(0x5f18265c5d3ea67a), UINT64_C(0x5f18255f1b840597), UINT64_C(0x4c12466eed9eaacb), UINT64_C(0x6456d44458370031) },
    { UINT64_C(0x45cae0f1f545eb6f), UINT64_C(0x8b95c1e3ea8bd534), UINT64_C(0x8b95c1e3ea6ded43), UINT64_C(0x5d0e814246021208), UINT64_C(0x5d0e8075abc3e0e5), UINT64_C(0x4a7114db8ced23ab), UINT64_C(0x623bf2bf984b9f3d) },
    { UINT64_C(0x444c0740496d428f), UINT64_C(0x88980e8092da8158), UINT64_C(0x88980e8092b5cb73), UINT64_C(0x5b1009aaadec79bd), UINT64_C(0x5b1008d593d339e3), UINT64_C(0x48d8b27c4f339f24), UINT64_C(0x601d8913c2a8b5f0) },
    { UINT64_C(0x42d561b3e6243d85), UINT64_C(0x85aac367cc4871ea), UINT64_C(0x85aac367cc13c81c), UINT64_C(0x591c8244c0c1ac7d), UINT64_C(0x591c8159e2a74b67), UINT64_C(0x4749089a2a30c66d), UINT64_C(0x5e0756796b71049c) },
    { UINT64_C(0x4166c34c5615d0e7), UINT64_C(0x82cd8698ac2ba2be), UINT64_C(0x82cd8698ac195c29), UINT64_C(0x5733af102fd5f097), UINT64_C(0x5733ae62c26b6c68), UINT64_C(0x45c22066171779b9), UINT64_C(0x5c12f1408e6f8674) },
};
#endif

#define PAPER_X86_SCALE_BITS 62
#define PAPER_X86_SEGMENTS 32
#define PAPER_X86_DEGREE 6
#define PAPER_X86_WORD_BITS 64
#define PAPER_X86_TABLE_BYTES 1792
#define PAPER_X86_CORE_SCALE 63
#define PAPER_X86_Z_MAX UINT64_C(0xb17217f7d1cf79ab)
#define PAPER_X86_ERR_BOUND_ULP 1.28472
#define PAPER_X86_EXPM_P63_ERR_BOUND 1.58012

static inline uint64_t paper_x86_core(uint64_t z) {
    uint64_t u = z;
    uint64_t idx = paper_x86_fxp_mulhi64(u, UINT64_C(0xb8aa3b295c17f0a7)) >> 58;
    uint64_t T = (u - paper_x86_fxp_mullo64(idx, UINT64_C(399572145162582990))) << 5;
    idx -= (idx - 31u) & (uint64_t)(0u - ((uint32_t)(31u - (uint32_t)idx) >> 31));
    const uint64_t *k = paper_x86_coeffs[idx];
    uint64_t mul3 = paper_x86_fxp_mulhi64(k[6], T);
    uint64_t y5 = k[5] - (mul3 >> 8);
    uint64_t mul6 = paper_x86_fxp_mulhi64(y5, T);
    uint64_t y4 = k[4] - (mul6 >> 7);
    uint64_t mul9 = paper_x86_fxp_mulhi64(y4, T);
    uint64_t y3 = k[3] - (mul9 >> 7);
    uint64_t mul12 = paper_x86_fxp_mulhi64(y3, T);
    uint64_t y2 = k[2] - (mul12 >> 6);
    uint64_t mul15 = paper_x86_fxp_mulhi64(y2, T);
    uint64_t y1 = k[1] - (mul15 >> 6);
    uint64_t mul18 = paper_x86_fxp_mulhi64(y1, T);
    uint64_t y0 = k[0] - (mul18 >> 6);
    return y0;
}
static inline uint64_t paper_x86_eval(uint64_t z) { return (paper_x86_core(z) + UINT64_C(0x1)) >> 1; }
static inline uint64_t paper_x86_expm_p63_core(uint64_t u, uint64_t w) { return paper_x86_fxp_mulhi64(w, u); }

static inline uint64_t paper_x86_expm_p63(uint64_t z, uint64_t w) {
    return paper_x86_expm_p63_core(paper_x86_core(z), w);
}

#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#endif

#define PAPER_X86_FPR_EXPM_P63_ERR_BOUND 2.58012
#define PAPER_X86_LN2_DOWN_BITS UINT64_C(0x3FE62E42FEFA39EF)
#define PAPER_X86_Z_CLAMP UINT64_C(0xb17217f7d1cf7800)
#define PAPER_X86_ONE_DOWN_BITS UINT64_C(0x3FEFFFFFFFFFFFFF)

static inline uint64_t paper_x86_fpr_to_q64(uint64_t bits) {
    uint32_t e = (uint32_t)(bits >> 52) & 0x7FF;
    uint64_t m = ((bits << 10) | ((uint64_t)1 << 62)) & (((uint64_t)1 << 63) - 1);
    uint64_t s = (uint64_t)(uint32_t)(1022u - e);
    uint64_t keep = (uint64_t)0 - ((s - 64) >> 63);
    return ((m >> (s & 63)) & keep) << 1;
}
static inline uint64_t paper_x86_core_to_p63(uint64_t u) { return u; }

static inline uint64_t paper_x86_expm_p63_sat(uint64_t z, uint64_t w, uint64_t c_one) {
    uint64_t u = paper_x86_core(z);
    uint64_t r = paper_x86_expm_p63_core(u, w & ~c_one);
    return (r & ~c_one) | (paper_x86_core_to_p63(u) & c_one);
}
static inline uint64_t paper_x86_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits) {
    const uint64_t abs_mask = ((uint64_t)1 << 63) - 1;
    const uint64_t inf_bits = UINT64_C(0x7FF0000000000000);
    uint64_t x_nan = (uint64_t)0 - ((inf_bits - (x_bits & abs_mask)) >> 63);
    uint64_t x_neg = (uint64_t)0 - (x_bits >> 63);
    uint64_t x_big = (uint64_t)0 - ((PAPER_X86_LN2_DOWN_BITS - (x_bits & abs_mask)) >> 63);
    uint64_t c_nan = (uint64_t)0 - ((inf_bits - (ccs_bits & abs_mask)) >> 63);
    uint64_t c_neg = (uint64_t)0 - (ccs_bits >> 63);
    uint64_t c_one = (uint64_t)0 - ((PAPER_X86_ONE_DOWN_BITS - (ccs_bits & abs_mask)) >> 63);
    uint64_t z = paper_x86_fpr_to_q64(x_bits);
    uint64_t w = paper_x86_fpr_to_q64(ccs_bits);
    z = (z & ~x_big) | (PAPER_X86_Z_CLAMP & x_big);
    z &= ~(x_neg | x_nan);
    w &= ~(c_neg | c_nan);
    c_one &= ~(c_neg | c_nan);
    return paper_x86_expm_p63_sat(z, w, c_one);
}
static inline uint64_t paper_x86_fpr_expm_p63_native(double x, double ccs) {
    uint64_t x_bits, c_bits;
    memcpy(&x_bits, &x, sizeof x_bits);
    memcpy(&c_bits, &ccs, sizeof c_bits);
    return paper_x86_fpr_expm_p63(x_bits, c_bits);
}
static inline uint64_t paper_x86_domain_q64(double v) {
#if defined(__x86_64__) && defined(__SSE2__)
    return (uint64_t)_mm_cvttsd_si64(_mm_set_sd(v * 9223372036854775808.0)) << 1;
#else
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    return paper_x86_fpr_to_q64(bits);
#endif
}
static inline uint64_t paper_x86_fpr_expm_p63_domain(double x, double ccs) {
    return paper_x86_expm_p63(paper_x86_domain_q64(x), paper_x86_domain_q64(ccs));
}
static inline uint64_t paper_x86_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return paper_x86_fpr_expm_p63_domain(x, ccs);
}
#endif

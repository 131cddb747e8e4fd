/* SPDX-License-Identifier: CC0-1.0
 * falcon_x86.h -- DO NOT EDIT: written by fxp-kernels (generator and templates sha256 208dc9a833758e37) from
 * kernels/falcon_x86.toml (sha256 996a67ceffff6e649b6a1487e09abdb325da6f1c082d0bb68d50f726f2e8515d); regenerate in the project root with:
 *     python3 -m gen render kernels/falcon_x86.toml --out generated
 * Parameters other than the defaults: scale_bits = 63, degree = 13, float_tail = 7,
 *     max_abs_error_log2 = -63.0, form = "twin"
 * Proven bound (rational interval arithmetic and a Taylor model, gen/twin/proof.py; terms: provenance/),
 * f(x) = exp(-x):
 *     |falcon_x86_fpr_expm_p63*(x, ccs) - ccs exp(-x) 2^63| <= 0.919501 units of 2^-63, x in [0, ln 2), ccs in [0, 1]
 */
#if defined(FALCON_X86_CONTENT_HASH) && FALCON_X86_CONTENT_HASH != 0x32115e86505340a3u
#error "falcon_x86.h: another render of this kernel was included before this one"
#endif
#ifndef FALCON_X86_H
#define FALCON_X86_H

#include <stdint.h>

#define FALCON_X86_CONTENT_HASH 0x32115e86505340a3u

/**
 * falcon_x86_fpr_expm_p63(x_bits, ccs_bits) ~= ccs exp(-x) 2^63 from binary64 bit patterns, _native(x, ccs)
 * the same from doubles; x < 0 (-0 included) or NaN counts as 0, x >= ln 2 (+inf included) as the double
 * below ln 2, ccs < 0 or NaN gives 0, ccs >= 1 counts as 1 (docs/falcon.md, "Edge inputs": the rules of every
 * kernel).  _domain(x, ccs), _domain_bits(x_bits,
 * ccs_bits): Falcon's contract, 0 <= x < ln 2 and 0 <= ccs < 1 (ccs = 1 works too; unspecified but
 * defined outside it).  The bound FALCON_X86_FPR_EXPM_P63_ERR_BOUND (units of 2^-63) holds against the
 * doubles passed, conversions included.  No fixed-point entry (_eval, _expm_p63).
 * Needs x86-64 with FMA and GCC or Clang: build with -mfma or -march=x86-64-v3 (a compile-time error
 * otherwise); BMI2 (MULX, RORX, SHRX) comes with x86-64-v3.  Binary64 rounding to nearest (the default
 * MXCSR).  The kernel is inline assembly, so compiler flags (-ffast-math, -ffp-contract) do not change it.
 * Constant time: no branch, no table lookup by a secret index and no division; 64x64 -> 128-bit
 * products (MULX), which take a fixed time on x86-64; binary64 operations whose operands are never
 * subnormal (proven), which take a fixed time too; the edge rules are min/max and conditional moves.
 */

#include <string.h>

#if !defined(__x86_64__) || !(defined(__GNUC__) || defined(__clang__))
#error "falcon_x86.h: form twin needs x86-64 and GCC or Clang"
#endif
#if !defined(__FMA__) || !defined(__BMI2__)
#error "falcon_x86.h: needs FMA and BMI2: build with -march=x86-64-v3 (or -mfma -mbmi2)"
#endif

#define FALCON_X86_FPR_EXPM_P63_ERR_BOUND 0.919501
#define FALCON_X86_DEGREE 13
#define FALCON_X86_FLOAT_TAIL 7
#define FALCON_X86_TABLE_BYTES 0
#define FALCON_X86_INLINE static inline __attribute__((always_inline))

static const uint64_t falcon_x86_k[28] __attribute__((aligned(64))) = {
    UINT64_C(0x3E80000080000000),
    UINT64_C(0x3C00000080000000),
    UINT64_C(0x0010000080000000),
    UINT64_C(0xC35A01A00F42DDC7),
    UINT64_C(0x432A019ED68CE98F),
    UINT64_C(0xC2F71DC91F79C2F4),
    UINT64_C(0x42C27CCB15691486),
    UINT64_C(0xC28AC7BA9F4B461C),
    UINT64_C(0x4251247514B18711),
    UINT64_C(0xC20F7A06DC06F2E5),
    UINT64_C(0x402F4FB9D55D92A6),
    UINT64_C(0xC0271547652B82FE),
    UINT64_C(0x4338000000000009),
    UINT64_C(0x03F0000000000000),
    UINT64_C(0x3FE62E42FEFA39EF),
    UINT64_C(0x3FF0000000000000),
    UINT64_C(0xFFFFFFFFFFFFFF45),
    UINT64_C(0x5555555555552772),
    UINT64_C(0x155555555550DE34),
    UINT64_C(0x04444444440808D3),
    UINT64_C(0x00B60B60B4166720),
    UINT64_C(0x8000000000000000),
    UINT64_C(0x3BF0000000000000),
    UINT64_C(0x37F0000000000000),
    UINT64_C(0x0433800000000000),
    UINT64_C(0x3FE62E42FEFA39F0),
    UINT64_C(0x7FF0000000000001),
    UINT64_C(0x0000000000000000),
};

FALCON_X86_INLINE uint64_t falcon_x86_core(double x, uint64_t b, double ccs) {
    double v, cs, p01, p23, p45, v2, rc, E, g;
    uint64_t u, m, zz, zzl, h5, h3, bl, bh, C, gb;
    __asm__(
        "vpmaxsd 0(%[T]), %[x], %[v]\n\t"
        "vpaddq 104(%[T]), %[cc], %[cs]\n\t"
        "vmovsd 32(%[T]), %[p01]\n\t"
        "vfmadd213sd 24(%[T]), %[v], %[p01]\n\t"
        "vmovsd 48(%[T]), %[p23]\n\t"
        "vfmadd213sd 40(%[T]), %[v], %[p23]\n\t"
        "vmovsd 64(%[T]), %[p45]\n\t"
        "vfmadd213sd 56(%[T]), %[v], %[p45]\n\t"
        "vmulsd %[v], %[v], %[v2]\n\t"
        "vpmaxsd 8(%[T]), %[cc], %[cc]\n\t"
        "vmulsd %[v], %[cc], %[cc]\n\t"
        "vcvttsd2si %[cs], %[C]\n\t"
        "vroundsd $11, %[cs], %[cs], %[rc]\n\t"
        "vsubsd %[rc], %[cs], %[rc]\n\t"
        "vmovsd 88(%[T]), %[E]\n\t"
        "vfmadd213sd 80(%[T]), %[v], %[E]\n\t"
        "vmovsd 96(%[T]), %[g]\n\t"
        "vfmadd231sd %[rc], %[E], %[g]\n\t"
        "vmulsd %[v2], %[v2], %[E]\n\t"
        "vfmadd231sd %[v2], %[p23], %[p01]\n\t"
        "vfmadd231sd 72(%[T]), %[v2], %[p45]\n\t"
        "vmulsd %[v2], %[cc], %[cc]\n\t"
        "vfmadd213sd %[p01], %[E], %[p45]\n\t"
        "vmulsd %[E], %[cc], %[cc]\n\t"
        "vfmadd231sd %[p45], %[cc], %[g]\n\t"
        "vmovq %[g], %[gb]\n\t"
        "rorx $52, %[b], %[u]\n\t"
        "mov $62, %%ecx\n\t"
        "sub %[u], %%rcx\n\t"
        "mov %[b], %[m]\n\t"
        "shl $11, %[m]\n\t"
        "or 168(%[T]), %[m]\n\t"
        "shrx %%rcx, %[m], %[u]\n\t"
        "mov %[u], %%rdx\n\t"
        "mulx %[u], %[zzl], %[zz]\n\t"
        "mulx 152(%[T]), %[h5], %[h5]\n\t"
        "mulx 136(%[T]), %[h3], %[h3]\n\t"
        "neg %[h5]\n\t"
        "add 144(%[T]), %[h5]\n\t"
        "neg %[h3]\n\t"
        "add 128(%[T]), %[h3]\n\t"
        "mov %[zz], %%rdx\n\t"
        "mulx 160(%[T]), %[u], %[u]\n\t"
        "add %[u], %[h5]\n\t"
        "mulx %[h5], %[u], %[u]\n\t"
        "add %[u], %[h3]\n\t"
        "mov %[C], %%rdx\n\t"
        "mulx %[zz], %[bl], %[bh]\n\t"
        "mulx %[zzl], %[zzl], %[zzl]\n\t"
        "add %[zzl], %[bl]\n\t"
        "adc $0, %[bh]\n\t"
        "shr $62, %[bl]\n\t"
        "lea (%[bl],%[bh],4), %[bh]\n\t"
        "mulx %[m], %[m], %[u]\n\t"
        "shrd %%cl, %[u], %[m]\n\t"
        "shrx %%rcx, %[u], %[u]\n\t"
        "cmp 176(%[T]), %[b]\n\t"
        "cmovb %[u], %[m]\n\t"
        "cmovb 216(%[T]), %[u]\n\t"
        "cmovb 216(%[T]), %[bh]\n\t"
        "cmp 184(%[T]), %[b]\n\t"
        "cmovb 216(%[T]), %[m]\n\t"
        "neg %[m]\n\t"
        "sbb %[u], %[C]\n\t"
        "sub 192(%[T]), %[C]\n\t"
        "mov %[gb], %[u]\n\t"
        "shl $60, %[u]\n\t"
        "shr $4, %[gb]\n\t"
        "add %[u], %[m]\n\t"
        "adc %[gb], %[C]\n\t"
        "mov %[bh], %%rdx\n\t"
        "mulx %[h3], %[u], %[bh]\n\t"
        "mov %[bh], %[zz]\n\t"
        "shl $61, %[zz]\n\t"
        "shr $3, %[u]\n\t"
        "or %[zz], %[u]\n\t"
        "shr $3, %[bh]\n\t"
        "add %[u], %[m]\n\t"
        "adc %[bh], %[C]\n\t"
        : [v] "=&x"(v), [cs] "=&x"(cs), [p01] "=&x"(p01), [p23] "=&x"(p23), [p45] "=&x"(p45), [v2] "=&x"(v2),
          [rc] "=&x"(rc), [E] "=&x"(E), [g] "=&x"(g), [cc] "+x"(ccs), [u] "=&r"(u), [m] "=&r"(m),
          [zz] "=&r"(zz), [zzl] "=&r"(zzl), [h5] "=&r"(h5), [h3] "=&r"(h3), [bl] "=&r"(bl), [bh] "=&r"(bh),
          [C] "=&r"(C), [gb] "=&r"(gb)
        : [x] "x"(x), [b] "r"(b), [T] "r"(falcon_x86_k), [Tm] "m"(*(const uint64_t (*)[28])falcon_x86_k)
        : "rcx", "rdx", "cc");
    return C;
}

FALCON_X86_INLINE uint64_t falcon_x86_fpr_expm_p63_domain(double x, double ccs) {
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    return falcon_x86_core(x, b, ccs);
}

FALCON_X86_INLINE uint64_t falcon_x86_fpr_expm_p63_domain_bits(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_fpr_expm_p63_domain(x, ccs);
}

FALCON_X86_INLINE uint64_t falcon_x86_fpr_expm_p63_native(double x, double ccs) {
    uint64_t b, b0;
    memcpy(&b, &x, sizeof b);
    __asm__(
        "mov %[b], %[b0]\n\t"
        "cmp 200(%[T]), %[b]\n\t"
        "cmovae 112(%[T]), %[b]\n\t"
        "cmp 208(%[T]), %[b0]\n\t"
        "cmovae 216(%[T]), %[b]\n\t"
        "vmovq %[b], %[x]\n\t"
        "vpmaxsd 16(%[T]), %[cc], %[cc]\n\t"
        "vmaxsd 216(%[T]), %[cc], %[cc]\n\t"
        "vminsd 120(%[T]), %[cc], %[cc]\n\t"
        : [b] "+r"(b), [b0] "=&r"(b0), [x] "=&x"(x), [cc] "+x"(ccs)
        : [T] "r"(falcon_x86_k), [Tm] "m"(*(const uint64_t (*)[28])falcon_x86_k)
        : "cc");
    return falcon_x86_core(x, b, ccs);
}

FALCON_X86_INLINE uint64_t falcon_x86_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits) {
    double x, ccs;
    memcpy(&x, &x_bits, sizeof x);
    memcpy(&ccs, &ccs_bits, sizeof ccs);
    return falcon_x86_fpr_expm_p63_native(x, ccs);
}
#endif

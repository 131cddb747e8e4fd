/* SPDX-License-Identifier: MIT */
/* proto.h -- research prototype (not project code): ccs * exp(-x) * 2^63 for
 * binary64 x, ccs, computed in binary64 with FMA-based error terms (exact or
 * rounded to 2^-42) and no 64x64 integer products.  Three forms of ONE algorithm, bit-identical by
 * construction (same operations, same order, same constants, round to
 * nearest, no -ffast-math, no FMA contraction left to the compiler):
 *   proto_expm_scalar(x, ccs)                    scalar reference (memory table: not constant time)
 *   proto_expm_scalar_perm / _scan / _zmm / _ymm(x, ccs)   constant-time scalar forms
 *   proto_expm_x8 / proto_expm_avx512(out,x,ccs,n)  AVX-512F+DQ, 8 lanes
 *   proto_expm_x4 / proto_expm_avx2(out,x,ccs,n)    AVX2+FMA, 4 lanes
 *
 * Domain: x in [0, 23/32) (covers [0, ln 2] plus the 2e-15 overshoot of
 * Falcon's range reduction), ccs in [0, 1], no NaN.  Edge rules: x < 2^-80
 * (including negative x and -0) counts as 0; ccs < 2^-64 (including negative)
 * gives W = 0, hence result 0.  The comparisons are done on the bit patterns
 * in integer lanes, so no subnormal ever reaches a floating-point unit.
 *
 * Algorithm (binary64 unless said; u = 2^-53; the result is an integer whose
 * value / 2^63 approximates ccs * exp(-x)):
 *   j  = round(16 x)        m = fma(x, 16, 1.5*2^52); j = low 4 bits of m
 *   t  = x - j/16           exact (Sterbenz for j >= 1; t = x for j = 0), |t| <= 1/32
 *   Eh + El ~= exp(-j/16)   double-double table, selected by a register permute
 *   W  = ccs * 2^63         exact
 *   Offset C = 2^64: every "s" below lies in [2^64, 2^65) (each exact sum is >= 2^64,
 *   which is representable, and rounding is monotone), where doubles are multiples
 *   of 2^12 and bits(s) << 12 = s - 2^64 (mod 2^64) exactly.
 *   s1 = RN(C + W Eh)   z1 = s1 - C (exact)     e1 = RN(W Eh - z1)      |e1| <= 2^11
 *   s2 = RN(s1 - z1 t)  y  = s1 - s2 (exact)    e2 = RN(y - z1 t)       |e2| <= 2^11
 *   s3 = RN(s2 + y t/2)                         e3 = RN(s2 - s3 + y t/2) |e3| <= 2^11
 *     (each e is the exact rounding error of its s, itself rounded: error <= 2^-42)
 *   Identity: C + W E e^-t = s3 + e3 + e2 (1 - t e2(t)) + (y t)(t r3(t)) + (e1 + W El) e^-t
 *     with e2(t) = (e^-t - 1 + t)/t^2 = 1/2 + t r3(t), r3 a degree-5 fit.
 *   small = (y t)(t r) + (e1 + W El) em + e2 g + e3, g ~= 1 - t e2(t), em ~= e^-t;  |small| < 2^46
 *   result = (bits(s3) << 12) + rint(small)   (64-bit lanes, mod 2^64; rint = nearest-even:
 *            magic-number add in the scalar and AVX2 forms, VCVTPD2QQ {rn-sae} in AVX-512)
 */
#ifndef PROTO_H
#define PROTO_H
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <immintrin.h>
#include "coeffs.h"

#ifndef PROTO_XMIN_BITS   /* acc.c's CONTROL_NOFLUSH overrides it to show the subnormal check can fail */
#define PROTO_XMIN_BITS 0x3AF0000000000000LL   /* 2^-80 */
#endif
#define PROTO_CMIN_BITS 0x3BF0000000000000LL   /* 2^-64 */
#define PROTO_MAGIC52 0x1.8p+52                 /* rounds |v| < 2^51 to an integer in the low mantissa bits */
#define PROTO_C64 0x1p+64                       /* big-sum offset: every s lies in [2^64, 2^64 + 2^63 + 2^12] */
#define PROTO_TWO63 0x1p+63
/* bits(C) << 12 = 0x43F0000000000000 << 12 = 0 mod 2^64, so only bits(MAGIC52) is removed. */
#define PROTO_KOFF 0x4338000000000000ULL

static inline uint64_t proto_bits(double v) { uint64_t b; memcpy(&b, &v, 8); return b; }

/* The scalar steps every scalar form shares, so that the memory-table
 * reference and the constant-time forms below run the same binary64
 * operations in the same order on the same values.
 * proto_s_index: m = RN(16 x + 1.5*2^52), whose low 4 bits are j = round(16 x),
 *   and the exact reduced argument t = x - j/16.
 * proto_s_tail: everything after the table (Eh, El = exp(-j/16) as a
 *   double-double), given W = ccs 2^63 and t. */
#define PROTO_SI static inline __attribute__((target("fma"), always_inline))
PROTO_SI double proto_s_index(double x, double *t) {
    double m = __builtin_fma(x, 16.0, PROTO_MAGIC52);
    double jd = m - PROTO_MAGIC52;
    *t = __builtin_fma(-jd, 0.0625, x);
    return m;
}
PROTO_SI uint64_t proto_s_tail(double W, double t, double Eh, double El) {
    double s1 = __builtin_fma(W, Eh, PROTO_C64), z1 = s1 - PROTO_C64, e1 = __builtin_fma(W, Eh, -z1);
    double s2 = __builtin_fma(-z1, t, s1), y = s1 - s2, e2 = __builtin_fma(-z1, t, y);
    double th = 0.5 * t;
    double s3 = __builtin_fma(y, th, s2), e3 = __builtin_fma(y, th, s2 - s3);
#ifdef PROTO_CONTROL_DROP_E3
    e3 = 0.0;   /* deliberately broken control for acc.c (CONTROL_SPLIT) */
#endif
    double r = R3C[5];
    r = __builtin_fma(r, t, R3C[4]); r = __builtin_fma(r, t, R3C[3]);
    r = __builtin_fma(r, t, R3C[2]); r = __builtin_fma(r, t, R3C[1]);
    r = __builtin_fma(r, t, R3C[0]);
    double tr = t * r, e2p = tr + 0.5;
    double g = __builtin_fma(-t, e2p, 1.0), em = __builtin_fma(-t, g, 1.0);
    double L = __builtin_fma(W, El, e1);
    double sm = __builtin_fma(e2, g, e3);
    sm = __builtin_fma(L, em, sm);
    sm = __builtin_fma(y * t, tr, sm);
    double mi = sm + PROTO_MAGIC52;
    return (proto_bits(s3) << 12) + proto_bits(mi) - PROTO_KOFF;
}

#ifndef PROTO_SATTR
#define PROTO_SATTR __attribute__((target("fma"), noinline))
#endif
/* Scalar reference of the same algorithm.  NOT constant time, on purpose: the
 * flush is written as `if`s and the table is read at the secret index j from
 * memory.  It is the control that the memcheck taint check (ct_taint.c) must
 * report; the constant-time scalar forms follow below. */
static PROTO_SATTR uint64_t proto_expm_scalar(double x, double ccs) {
    if ((int64_t)proto_bits(x) < PROTO_XMIN_BITS) x = 0.0;
    double W = ((int64_t)proto_bits(ccs) < PROTO_CMIN_BITS) ? 0.0 : ccs * PROTO_TWO63;
    double t, m = proto_s_index(x, &t);
    unsigned j = (unsigned)(proto_bits(m) & 15u);
    return proto_s_tail(W, t, TAB_EH[j], TAB_EL[j]);
}

/* ---------------- constant-time scalar forms ----------------
 * One element per call, the same bits as proto_expm_scalar.  No branch and no
 * memory address depends on x or ccs:
 *  - the flush is two 64-bit integer compares of the bit patterns in an xmm
 *    register (PCMPGTQ) and two ANDs, as in the AVX2 form, so no subnormal
 *    reaches an FP operation and no cmov or jump is involved;
 *  - the table entry is selected in registers, from tables loaded whole from
 *    fixed addresses.  Three selections, measured against each other
 *    (README.md, "Scalar constant-time form"):
 *      perm: the AVX2 form's select on one lane (3 VPERMD per table, rows A,
 *            A^B, B^C, two compares for j >= 4, j >= 8, AND/XOR);
 *      scan: a masked scan of all 12 entries (j compared with 0..11 in three
 *            VPCMPEQQ, AND with the rows, OR-reduce: exactly one lane survives);
 *      zmm:  one VPERMT2PD per table over its 16 entries in two zmm registers
 *            (AVX-512F);
 *      ymm:  VPERMT2PD over 8 entries and a masked VPERMPD over the last 4, in
 *            256-bit registers (AVX-512F+VL).
 *    valgrind cannot run AVX-512, so zmm and ymm are checked by acc.c's bit
 *    identity and by inspection, not by the taint check.
 * Timing assumption: PCMPGTQ, PCMPEQQ, VPERMD, VPERMT2PD, logic ops and
 * binary64 FMA/add/mul on normal operands or zero take data-independent time
 * (PROOF.md section 4 shows no subnormal is ever an operand). */
#define PROTO_CT2 static inline __attribute__((target("avx2,fma"), always_inline))
/* x and W = ccs 2^63 after the flush; returns x as the low lane of an xmm. */
PROTO_CT2 __m128d proto_s_flush_ct(double x, double ccs, double *W) {
    __m128d vx = _mm_set_sd(x), vc = _mm_set_sd(ccs);
    __m128i kx = _mm_cmpgt_epi64(_mm_castpd_si128(vx), _mm_set1_epi64x(PROTO_XMIN_BITS - 1));
    __m128i kc = _mm_cmpgt_epi64(_mm_castpd_si128(vc), _mm_set1_epi64x(PROTO_CMIN_BITS - 1));
    *W = _mm_cvtsd_f64(_mm_and_pd(vc, _mm_castsi128_pd(kc))) * PROTO_TWO63;
    return _mm_and_pd(vx, _mm_castsi128_pd(kx));
}

/* perm: lane 0 of the AVX2 select (proto_sel12's XOR form).  The low dword of
 * bits(m) is j (m = 1.5*2^52 + j), so the dword indices (2j, 2j+1) give VPERMD
 * the entry j & 3 of each row; j >= 4 and j >= 8 are integer compares of bits(m). */
PROTO_CT2 uint64_t proto_expm_scalar_perm(double x, double ccs) {
    double W, t;
    double m = proto_s_index(_mm_cvtsd_f64(proto_s_flush_ct(x, ccs, &W)), &t);
    __m128i v = _mm_castpd_si128(_mm_set_sd(m));
    __m128i d = _mm_shuffle_epi32(v, 0x00);
    __m256i i32 = _mm256_castsi128_si256(_mm_add_epi32(_mm_add_epi32(d, d), _mm_setr_epi32(0, 1, 0, 1)));
    __m128i ge4 = _mm_cmpgt_epi64(v, _mm_set1_epi64x((long long)PROTO_KOFF + 3));
    __m128i ge8 = _mm_cmpgt_epi64(v, _mm_set1_epi64x((long long)PROTO_KOFF + 7));
#define PROTO_PERM_ROW(T, k) _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)((T) + 4 * (k))), i32))
#define PROTO_PERM_SEL(T) _mm_xor_si128(_mm_xor_si128(PROTO_PERM_ROW(T, 0), _mm_and_si128(PROTO_PERM_ROW(T, 1), ge4)), \
                                        _mm_and_si128(PROTO_PERM_ROW(T, 2), ge8))
    double Eh = _mm_cvtsd_f64(_mm_castsi128_pd(PROTO_PERM_SEL(TABX_EH)));
    double El = _mm_cvtsd_f64(_mm_castsi128_pd(PROTO_PERM_SEL(TABX_EL)));
#undef PROTO_PERM_SEL
#undef PROTO_PERM_ROW
    return proto_s_tail(W, t, Eh, El);
}

/* scan: bits(m) = bits(1.5*2^52) + j is compared with bits(1.5*2^52) + 0..11;
 * each table's three rows of four entries are ANDed with the masks and ORed;
 * the one surviving lane of Eh and of El is gathered by unpack/extract/OR. */
PROTO_CT2 uint64_t proto_expm_scalar_scan(double x, double ccs) {
    double W, t;
    double m = proto_s_index(_mm_cvtsd_f64(proto_s_flush_ct(x, ccs, &W)), &t);
    __m256i v = _mm256_broadcastq_epi64(_mm_castpd_si128(_mm_set_sd(m)));
    const __m256i k0 = _mm256_add_epi64(_mm256_set1_epi64x((long long)PROTO_KOFF), _mm256_setr_epi64x(0, 1, 2, 3));
    __m256i q0 = _mm256_cmpeq_epi64(v, k0);
    __m256i q1 = _mm256_cmpeq_epi64(v, _mm256_add_epi64(k0, _mm256_set1_epi64x(4)));
#ifdef PROTO_CONTROL_SCAN_ROW2
    __m256i q2 = _mm256_cmpeq_epi64(v, _mm256_add_epi64(k0, _mm256_set1_epi64x(9)));   /* broken control (acc.c CONTROL_SCAN) */
#else
    __m256i q2 = _mm256_cmpeq_epi64(v, _mm256_add_epi64(k0, _mm256_set1_epi64x(8)));
#endif
#define PROTO_SCAN(T) _mm256_or_pd(_mm256_or_pd(_mm256_and_pd(_mm256_loadu_pd(T), _mm256_castsi256_pd(q0)), \
                                   _mm256_and_pd(_mm256_loadu_pd((T) + 4), _mm256_castsi256_pd(q1))), \
                                   _mm256_and_pd(_mm256_loadu_pd((T) + 8), _mm256_castsi256_pd(q2)))
    __m256d h = PROTO_SCAN(TAB_EH), l = PROTO_SCAN(TAB_EL);
#undef PROTO_SCAN
    /* (h0|h1, l0|l1, h2|h3, l2|l3), then the two halves ORed: (Eh, El). */
    __m256d u = _mm256_or_pd(_mm256_unpacklo_pd(h, l), _mm256_unpackhi_pd(h, l));
    __m128d e = _mm_or_pd(_mm256_castpd256_pd128(u), _mm256_extractf128_pd(u, 1));
    return proto_s_tail(W, t, _mm_cvtsd_f64(e), _mm_cvtsd_f64(_mm_unpackhi_pd(e, e)));
}

/* zmm: VPERMT2PD reads index bits 0..3 of lane 0 = j and picks from the 16
 * entries of TAB_EH (TAB_EL) held in two zmm registers. */
#define PROTO_CT512 static inline __attribute__((target("avx512f,avx2,fma"), always_inline))
PROTO_CT512 uint64_t proto_expm_scalar_zmm(double x, double ccs) {
    double W, t;
    double m = proto_s_index(_mm_cvtsd_f64(proto_s_flush_ct(x, ccs, &W)), &t);
    __m512i idx = _mm512_castsi128_si512(_mm_castpd_si128(_mm_set_sd(m)));
    double Eh = _mm512_cvtsd_f64(_mm512_permutex2var_pd(_mm512_loadu_pd(TAB_EH), idx, _mm512_loadu_pd(TAB_EH + 8)));
    double El = _mm512_cvtsd_f64(_mm512_permutex2var_pd(_mm512_loadu_pd(TAB_EL), idx, _mm512_loadu_pd(TAB_EL + 8)));
    return proto_s_tail(W, t, Eh, El);
}

/* ymm: the same without 512-bit registers (AVX-512VL, 256-bit permutes, so the
 * core keeps all its vector ports): VPERMT2PD over entries 0..7 (index bits
 * 0..2), then a VPERMPD over entries 8..11 (index bits 0..1 = j - 8) merged
 * under the mask [j >= 8] from one VPCMPQ of bits(m). */
#define PROTO_CTVL static inline __attribute__((target("avx512f,avx512vl,avx2,fma"), always_inline))
PROTO_CTVL uint64_t proto_expm_scalar_ymm(double x, double ccs) {
    double W, t;
    double m = proto_s_index(_mm_cvtsd_f64(proto_s_flush_ct(x, ccs, &W)), &t);
    __m128i v = _mm_castpd_si128(_mm_set_sd(m));
    __mmask8 ge8 = _mm_cmpgt_epi64_mask(v, _mm_set1_epi64x((long long)PROTO_KOFF + 7));
    __m256i idx = _mm256_castsi128_si256(v);
#define PROTO_YMM_SEL(T) _mm256_cvtsd_f64(_mm256_mask_permutexvar_pd( \
        _mm256_permutex2var_pd(_mm256_loadu_pd(T), idx, _mm256_loadu_pd((T) + 4)), ge8, idx, _mm256_loadu_pd((T) + 8)))
    double Eh = PROTO_YMM_SEL(TAB_EH), El = PROTO_YMM_SEL(TAB_EL);
#undef PROTO_YMM_SEL
    return proto_s_tail(W, t, Eh, El);
}

/* ---------------- AVX-512 (F + DQ): 8 lanes ---------------- */
#define PROTO_A512 __attribute__((target("avx512f,avx512dq,fma")))
static inline PROTO_A512 __attribute__((always_inline)) __m512i proto_expm_x8(__m512d x, __m512d ccs) {
    const __m512d magic = _mm512_set1_pd(PROTO_MAGIC52), c64 = _mm512_set1_pd(PROTO_C64);
    __mmask8 kx = _mm512_cmpge_epi64_mask(_mm512_castpd_si512(x), _mm512_set1_epi64(PROTO_XMIN_BITS));
    __mmask8 kc = _mm512_cmpge_epi64_mask(_mm512_castpd_si512(ccs), _mm512_set1_epi64(PROTO_CMIN_BITS));
    x = _mm512_maskz_mov_pd(kx, x);
    __m512d W = _mm512_maskz_mul_pd(kc, ccs, _mm512_set1_pd(PROTO_TWO63));
    __m512d m = _mm512_fmadd_pd(x, _mm512_set1_pd(16.0), magic);
    __m512d jd = _mm512_sub_pd(m, magic);
    __m512d t = _mm512_fnmadd_pd(jd, _mm512_set1_pd(0.0625), x);
    __m512i idx = _mm512_castpd_si512(m);          /* vpermt2pd reads index bits 0..3 = j */
    __m512d Eh = _mm512_permutex2var_pd(_mm512_loadu_pd(TAB_EH), idx, _mm512_loadu_pd(TAB_EH + 8));
    __m512d El = _mm512_permutex2var_pd(_mm512_loadu_pd(TAB_EL), idx, _mm512_loadu_pd(TAB_EL + 8));
    __m512d s1 = _mm512_fmadd_pd(W, Eh, c64), z1 = _mm512_sub_pd(s1, c64), e1 = _mm512_fmsub_pd(W, Eh, z1);
    __m512d s2 = _mm512_fnmadd_pd(z1, t, s1), y = _mm512_sub_pd(s1, s2), e2 = _mm512_fnmadd_pd(z1, t, y);
    __m512d th = _mm512_mul_pd(_mm512_set1_pd(0.5), t);
    __m512d s3 = _mm512_fmadd_pd(y, th, s2), e3 = _mm512_fmadd_pd(y, th, _mm512_sub_pd(s2, s3));
    __m512d r = _mm512_set1_pd(R3C[5]);
    r = _mm512_fmadd_pd(r, t, _mm512_set1_pd(R3C[4])); r = _mm512_fmadd_pd(r, t, _mm512_set1_pd(R3C[3]));
    r = _mm512_fmadd_pd(r, t, _mm512_set1_pd(R3C[2])); r = _mm512_fmadd_pd(r, t, _mm512_set1_pd(R3C[1]));
    r = _mm512_fmadd_pd(r, t, _mm512_set1_pd(R3C[0]));
    __m512d one = _mm512_set1_pd(1.0);
    __m512d tr = _mm512_mul_pd(t, r), e2p = _mm512_add_pd(tr, _mm512_set1_pd(0.5));
    __m512d g = _mm512_fnmadd_pd(t, e2p, one), em = _mm512_fnmadd_pd(t, g, one);
    __m512d L = _mm512_fmadd_pd(W, El, e1);
    __m512d sm = _mm512_fmadd_pd(e2, g, e3);
    sm = _mm512_fmadd_pd(L, em, sm);
    sm = _mm512_fmadd_pd(_mm512_mul_pd(y, t), tr, sm);
    __m512i big = _mm512_slli_epi64(_mm512_castpd_si512(s3), 12);
    return _mm512_add_epi64(big, _mm512_cvt_roundpd_epi64(sm, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

static PROTO_A512 __attribute__((noinline, unused)) void proto_expm_avx512(uint64_t *out, const double *x, const double *ccs, size_t n) {
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        _mm512_storeu_si512((void *)(out + i), proto_expm_x8(_mm512_loadu_pd(x + i), _mm512_loadu_pd(ccs + i)));
    if (i < n) {
        __mmask8 k = (__mmask8)((1u << (n - i)) - 1u);
        __m512i r = proto_expm_x8(_mm512_maskz_loadu_pd(k, x + i), _mm512_maskz_loadu_pd(k, ccs + i));
        _mm512_mask_storeu_epi64(out + i, k, r);
    }
}

/* ---------------- AVX2 + FMA: 4 lanes ---------------- */
#define PROTO_A2 __attribute__((target("avx2,fma")))
/* Table of 12 entries (j = 0..11) in three registers of 4 doubles.  vpermd picks
 * dwords 2b, 2b+1 (b = j & 3) from each.  Two selection forms, the same value:
 *  PROTO_AVX2_BLENDV: blendv on bits 2 and 3 of j (moved into the sign bit);
 *  default (XOR form): rows A, A^B, B^C are stored, and
 *     E = P(A) ^ (P(A^B) & [j >= 4]) ^ (P(B^C) & [j >= 8]),
 *  masks from two compares of the double j (never subnormal).
 * No memory index depends on j. */
#ifdef PROTO_AVX2_BLENDV
static inline PROTO_A2 __attribute__((always_inline)) __m256d proto_sel12(const double *tab, const uint64_t *tabx, __m256i i32, __m256d jd, __m256i v) {
    (void)tabx; (void)jd;
    __m256d s2m = _mm256_castsi256_pd(_mm256_slli_epi64(v, 61));   /* bit 2 of j in the sign */
    __m256d s3m = _mm256_castsi256_pd(_mm256_slli_epi64(v, 60));   /* bit 3 of j in the sign */
    __m256d a = _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)tab), i32));
    __m256d b = _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(tab + 4)), i32));
    __m256d c = _mm256_castsi256_pd(_mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(tab + 8)), i32));
    return _mm256_blendv_pd(_mm256_blendv_pd(a, b, s2m), c, s3m);
}
#else
static inline PROTO_A2 __attribute__((always_inline)) __m256d proto_sel12(const double *tab, const uint64_t *tabx, __m256i i32, __m256d jd, __m256i v) {
    (void)tab; (void)v;
    __m256i ge4 = _mm256_castpd_si256(_mm256_cmp_pd(jd, _mm256_set1_pd(3.5), _CMP_GT_OQ));
    __m256i ge8 = _mm256_castpd_si256(_mm256_cmp_pd(jd, _mm256_set1_pd(7.5), _CMP_GT_OQ));
    __m256i a = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)tabx), i32);
    __m256i ab = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(tabx + 4)), i32);
    __m256i bc = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(tabx + 8)), i32);
    return _mm256_castsi256_pd(_mm256_xor_si256(_mm256_xor_si256(a, _mm256_and_si256(ab, ge4)), _mm256_and_si256(bc, ge8)));
}
#endif

static inline PROTO_A2 __attribute__((always_inline)) __m256i proto_expm_x4(__m256d x, __m256d ccs) {
    const __m256d magic = _mm256_set1_pd(PROTO_MAGIC52), c64 = _mm256_set1_pd(PROTO_C64);
    __m256i kx = _mm256_cmpgt_epi64(_mm256_castpd_si256(x), _mm256_set1_epi64x(PROTO_XMIN_BITS - 1));
    __m256i kc = _mm256_cmpgt_epi64(_mm256_castpd_si256(ccs), _mm256_set1_epi64x(PROTO_CMIN_BITS - 1));
    x = _mm256_and_pd(x, _mm256_castsi256_pd(kx));
    __m256d W = _mm256_mul_pd(_mm256_and_pd(ccs, _mm256_castsi256_pd(kc)), _mm256_set1_pd(PROTO_TWO63));
    __m256d m = _mm256_fmadd_pd(x, _mm256_set1_pd(16.0), magic);
    __m256d jd = _mm256_sub_pd(m, magic);
    __m256d t = _mm256_fnmadd_pd(jd, _mm256_set1_pd(0.0625), x);
    __m256i v = _mm256_castpd_si256(m);
    /* dword indices (2j, 2j+1) per qword; vpermd uses their low 3 bits = (2b, 2b+1). */
    __m256i d = _mm256_shuffle_epi32(v, 0xA0);
    __m256i i32 = _mm256_or_si256(_mm256_add_epi32(d, d), _mm256_set1_epi64x(1LL << 32));
    __m256d Eh = proto_sel12(TAB_EH, TABX_EH, i32, jd, v);
    __m256d El = proto_sel12(TAB_EL, TABX_EL, i32, jd, v);
    __m256d s1 = _mm256_fmadd_pd(W, Eh, c64), z1 = _mm256_sub_pd(s1, c64), e1 = _mm256_fmsub_pd(W, Eh, z1);
    __m256d s2 = _mm256_fnmadd_pd(z1, t, s1), y = _mm256_sub_pd(s1, s2), e2 = _mm256_fnmadd_pd(z1, t, y);
    __m256d th = _mm256_mul_pd(_mm256_set1_pd(0.5), t);
    __m256d s3 = _mm256_fmadd_pd(y, th, s2), e3 = _mm256_fmadd_pd(y, th, _mm256_sub_pd(s2, s3));
    __m256d r = _mm256_set1_pd(R3C[5]);
    r = _mm256_fmadd_pd(r, t, _mm256_set1_pd(R3C[4])); r = _mm256_fmadd_pd(r, t, _mm256_set1_pd(R3C[3]));
    r = _mm256_fmadd_pd(r, t, _mm256_set1_pd(R3C[2])); r = _mm256_fmadd_pd(r, t, _mm256_set1_pd(R3C[1]));
    r = _mm256_fmadd_pd(r, t, _mm256_set1_pd(R3C[0]));
    __m256d one = _mm256_set1_pd(1.0);
    __m256d tr = _mm256_mul_pd(t, r), e2p = _mm256_add_pd(tr, _mm256_set1_pd(0.5));
    __m256d g = _mm256_fnmadd_pd(t, e2p, one), em = _mm256_fnmadd_pd(t, g, one);
    __m256d L = _mm256_fmadd_pd(W, El, e1);
    __m256d sm = _mm256_fmadd_pd(e2, g, e3);
    sm = _mm256_fmadd_pd(L, em, sm);
    sm = _mm256_fmadd_pd(_mm256_mul_pd(y, t), tr, sm);
    __m256d mi = _mm256_add_pd(sm, magic);
    __m256i big = _mm256_slli_epi64(_mm256_castpd_si256(s3), 12);
    return _mm256_add_epi64(big, _mm256_sub_epi64(_mm256_castpd_si256(mi), _mm256_set1_epi64x((long long)PROTO_KOFF)));
}

static PROTO_A2 __attribute__((noinline, unused)) void proto_expm_avx2(uint64_t *out, const double *x, const double *ccs, size_t n) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        _mm256_storeu_si256((__m256i *)(out + i), proto_expm_x4(_mm256_loadu_pd(x + i), _mm256_loadu_pd(ccs + i)));
    if (i < n) {
        __m256i k = _mm256_cmpgt_epi64(_mm256_set1_epi64x((long long)(n - i)), _mm256_setr_epi64x(0, 1, 2, 3));
        __m256i r = proto_expm_x4(_mm256_maskload_pd(x + i, k), _mm256_maskload_pd(ccs + i, k));
        _mm256_maskstore_epi64((long long *)(out + i), k, r);
    }
}
#endif

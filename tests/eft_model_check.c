/* SPDX-License-Identifier: MIT */
/* tests/eft_model_check.c -- prints, for each pair of bit patterns (x, ccs)
 * read from stdin, what every entry of a form = "eft" kernel returns:
 * _native, _domain, the AVX-512 and AVX2 array entries (each input
 * broadcast to a whole register, so every lane position is exercised) and
 * the register entries _x8/_x4 (Falcon's contract).  tests/test_eft.py
 * compares the lines with gen/eft/model.py, the operation list run in
 * Python.  An entry the CPU cannot run prints 0; the last line says which
 * ran ("simd <avx512> <avx2>", each 0 or 1), since some machines of the
 * CI's kind lack AVX-512.  Build with -DKHEADER='"<name>.h"' -DKNAME=<name>
 * -mfma. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include KHEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define K(s) CAT(KNAME, s)

__attribute__((target("avx512f,avx512dq"))) static uint64_t lane_x8(double x, double c, int lane)
{
    uint64_t out[8];
    _mm512_storeu_si512((void *)out, K(_expm_p63_x8)(_mm512_set1_pd(x), _mm512_set1_pd(c)));
    return out[lane];
}

__attribute__((target("avx2,fma"))) static uint64_t lane_x4(double x, double c, int lane)
{
    uint64_t out[4];
    _mm256_storeu_si256((__m256i *)(void *)out, K(_expm_p63_x4)(_mm256_set1_pd(x), _mm256_set1_pd(c)));
    return out[lane];
}

int main(void)
{
    int avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
    int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    uint64_t xb, cb;
    unsigned long n = 0;
    while (scanf("%" SCNx64 " %" SCNx64, &xb, &cb) == 2) {
        double x, c, xs[8], cs[8];
        uint64_t o8[8] = {0}, o4[4] = {0}, r8 = 0, r4 = 0;
        memcpy(&x, &xb, 8);
        memcpy(&c, &cb, 8);
        for (int i = 0; i < 8; i++) {
            xs[i] = x;
            cs[i] = c;
        }
        if (avx512) {
            K(_fpr_expm_p63_batch_avx512)(o8, xs, cs, 8);
            r8 = lane_x8(x, c, (int)(n % 8));
        }
        if (avx2) {
            K(_fpr_expm_p63_batch_avx2)(o4, xs, cs, 4);
            r4 = lane_x4(x, c, (int)(n % 4));
        }
        printf("%016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n",
               K(_fpr_expm_p63_native)(x, c), K(_fpr_expm_p63_domain)(x, c), o8[n % 8], o4[n % 4], r8, r4);
        n++;
    }
    printf("simd %d %d\n", avx512, avx2);
    return 0;
}

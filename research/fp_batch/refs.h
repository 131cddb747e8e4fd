/* SPDX-License-Identifier: MIT */
/* refs.h -- the two scalar references, written from the description in
 * shared/anchors/FACCT.md (no code copied). */
#ifndef PROTO_REFS_H
#define PROTO_REFS_H
#include <stdint.h>

static const uint64_t FACCT_C[13] = {
    0x00000004741183A3u, 0x00000036548CFC06u, 0x0000024FDCBF140Au, 0x0000171D939DE045u,
    0x0000D00CF58F6F84u, 0x000680681CF796E3u, 0x002D82D8305B0FEAu, 0x011111110E066FD0u,
    0x0555555555070F00u, 0x155555555581FF00u, 0x400000000002B400u, 0x7FFFFFFFFFFF4800u,
    0x8000000000000000u};

/* FACCT integer Horner, 64x64->128 products via unsigned __int128;
 * z = 2 trunc(x 2^63), w = 2 trunc(ccs 2^63) converted through int64 (ccs = 1
 * overflows to 2^63 -> w = 0, as in the reference). */
static inline __attribute__((always_inline)) uint64_t facct_int128(double x, double ccs) {
    uint64_t z = (uint64_t)(int64_t)(x * 0x1p63) << 1;
    uint64_t w = (uint64_t)(int64_t)(ccs * 0x1p63) << 1;
    uint64_t y = FACCT_C[0];
    /* fully unrolled: the strongest form of the reference */
#pragma GCC unroll 13
    for (int i = 1; i < 13; i++)
        y = FACCT_C[i] - (uint64_t)(((unsigned __int128)z * y) >> 64);
    return (uint64_t)(((unsigned __int128)w * y) >> 64);
}

/* FACCT binary64 13-term Horner with FMA (the native-float build's polynomial),
 * y *= ccs, then y 2^63 converted through int64. */
static const double FACCT_D[13] = {
    1.0, 0.999999999999994892974086724280, 0.500000000000019206858326015208,
    0.166666666666984014666397229121, 0.041666666666110491190622155955,
    0.008333333327800835146903501993, 0.001388888894063186997887560103,
    0.000198412739277311890541063977, 0.000024801566833585381209939524,
    0.000002755586350219122514855659, 0.000000275607356160477811864927,
    0.000000025299506379442070029551, 0.000000002073772366009083061987};

#ifndef FACCT_DBL_ATTR
#define FACCT_DBL_ATTR __attribute__((target("fma")))
#endif
static inline FACCT_DBL_ATTR uint64_t facct_dbl_fma(double x, double ccs) {
    double u = -x, y = FACCT_D[12];
#pragma GCC unroll 13
    for (int i = 11; i >= 0; i--)
        y = __builtin_fma(y, u, FACCT_D[i]);
    y *= ccs;
    return (uint64_t)(int64_t)(y * 0x1p63);
}
#endif

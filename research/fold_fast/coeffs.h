/* SPDX-License-Identifier: MIT */
/* coeffs.h -- DO NOT EDIT: written by `python3 gen_coeffs.py 12 > coeffs.h` (research/fold_fast). */
/* Fit: e^-x ~= 1 - x + x^2 k(x) on [0, ln 2], powers 2..12, levelled error 0.3491 units of 2^-63. */
#define FOLD_DEGREE 12
#define FOLD_W2 UINT64_C(0x7fffffffffffe9a7)
#define FOLD_W3 UINT64_C(0x2aaaaaaaaaa5f302)
#define FOLD_W4 UINT64_C(0x0aaaaaaaaa460ddb)
static const double FOLD_P[8] = {
    0x1.1111110ecfd2ap-6,
    -0x1.6c16c0ed9ba3bp-72,
    0x1.a019ef8ee54f5p-138,
    -0x1.a01844ab0cd5dp-204,
    0x1.71c11a526d11bp-270,
    -0x1.269c691b89fe5p-336,
    0x1.9b9aea0098842p-403,
    -0x1.99acd9e266a84p-470,
};
#define FOLD_TAIL_TERMS 8

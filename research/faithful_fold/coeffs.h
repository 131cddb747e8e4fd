/* SPDX-License-Identifier: MIT */
/* coeffs.h -- DO NOT EDIT: written by `python3 gen_coeffs.py > coeffs.h` (research/faithful_fold). */
/* Fit: e^-x ~= 1 - x + sum a_j x^j on [0, ln 2], powers 2..13, levelled error 0.0042 units of 2^-63; e^-x ~= quadratic E, error 0.00124. */
#define FF_W2 UINT64_C(0xffffffffffffff45)
#define FF_W3 UINT64_C(0x5555555555552772)
#define FF_W4 UINT64_C(0x155555555550de34)
#define FF_W5 UINT64_C(0x04444444440808d3)
#define FF_W6 UINT64_C(0x00b60b60b4166720)
static const double FF_Q[7] = {
    -0x1.a01a00f42ddc7p-446,
    0x1.a019ed68ce98fp-512,
    -0x1.71dc91f79c2f4p-578,
    0x1.27ccb15691486p-644,
    -0x1.ac7ba9f4b461cp-711,
    0x1.1247514b18711p-777,
    -0x1.f7a06dc06f2e5p-845,
};
static const double FF_E[3] = {0x1.ff5dbaaabcdb5p+7, -0x1.ee8d05f08e0b6p+7, 0x1.6e96aa4295c41p+6};

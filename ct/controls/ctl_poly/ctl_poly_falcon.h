/*
 * ctl_poly_falcon.h -- Falcon adaptors of the constant-time control
 * ctl_poly.  Domain: 0 <= x < ln 2, 0 <= ccs < 1 (both conversions give 0
 * outside [0, 1)).
 */
#ifndef CTL_POLY_FALCON_H
#define CTL_POLY_FALCON_H

#include "ctl_poly.h"

/* Emulated-float build: IEEE-754 bit patterns in, integer operations only. */
static inline uint64_t ctl_poly_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    return ctl_poly_expm_p63(ctl_bits_to_q64(x_bits), ctl_bits_to_q64(ccs_bits));
}

/* Native-float build: one multiply by 2^63 and one truncation per input. */
static inline uint64_t ctl_poly_fpr_expm_p63_native(double x, double ccs)
{
    return ctl_poly_expm_p63(ctl_double_to_q64(x), ctl_double_to_q64(ccs));
}

/* The Falcon-domain entry: the same computation as the native one here. */
static inline uint64_t ctl_poly_fpr_expm_p63_domain(double x, double ccs)
{
    return ctl_poly_fpr_expm_p63_native(x, ccs);
}

#endif /* CTL_POLY_FALCON_H */

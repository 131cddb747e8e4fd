/*
 * ctl_branch_falcon.h -- Falcon adaptors of the leaky control (secret branch)
 * ctl_branch.  Domain: 0 <= x < ln 2, 0 <= ccs < 1 (both conversions give 0
 * outside [0, 1)).
 */
#ifndef CTL_BRANCH_FALCON_H
#define CTL_BRANCH_FALCON_H

#include "ctl_branch.h"

/* Emulated-float build: IEEE-754 bit patterns in, integer operations only. */
static inline uint64_t ctl_branch_fpr_expm_p63(uint64_t x_bits, uint64_t ccs_bits)
{
    return ctl_branch_expm_p63(ctl_bits_to_q64(x_bits), ctl_bits_to_q64(ccs_bits));
}

/* Native-float build: one multiply by 2^63 and one truncation per input. */
static inline uint64_t ctl_branch_fpr_expm_p63_native(double x, double ccs)
{
    return ctl_branch_expm_p63(ctl_double_to_q64(x), ctl_double_to_q64(ccs));
}

/* The Falcon-domain entry: the same computation as the native one here. */
static inline uint64_t ctl_branch_fpr_expm_p63_domain(double x, double ccs)
{
    return ctl_branch_fpr_expm_p63_native(x, ccs);
}

#endif /* CTL_BRANCH_FALCON_H */

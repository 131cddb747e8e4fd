/*
 * ctl_branch.h -- LEAKY CONTROL for the checks in ct/: the FACCT polynomial
 * with an early exit on the secret.  For x < 1/4 (z < 2^62) it stops after
 * a degree-4 Taylor polynomial; otherwise it runs the full degree-12
 * Horner.  The two paths differ by eight multiplies, far too much work for
 * the compiler to turn into a conditional move, so the compiled code keeps
 * a conditional jump on the secret.  Memcheck must report a conditional
 * jump on uninitialised data, the binary scan must count a conditional
 * branch, and the t-test must exceed its threshold on every run.
 *
 * Formats: z = floor(x * 2^64) is Q0.64; coefficients and result are Q63.
 */
#ifndef CTL_BRANCH_H
#define CTL_BRANCH_H

#include <stdint.h>
#include "../ctl_common.h"

#define CTL_BRANCH_SCALE_BITS 63
#define CTL_BRANCH_SEGMENTS 1
#define CTL_BRANCH_DEGREE 12
#define CTL_BRANCH_WORD_BITS 64
#define CTL_BRANCH_TABLE_BYTES 0

static inline uint64_t ctl_branch_eval(uint64_t z)
{
    uint64_t y;
    if (z < ((uint64_t)1 << 62)) {
        /* The deliberate leak: a short path taken for small secrets.
         * Taylor terms 1/24, 1/6, 1/2, 1, 1 in Q63. */
        y = 0x0555555555555555u;
        y = 0x1555555555555555u - ctl_mulhi(z, y);
        y = 0x4000000000000000u - ctl_mulhi(z, y);
        y = 0x8000000000000000u - ctl_mulhi(z, y);
        return 0x8000000000000000u - ctl_mulhi(z, y);
    }
    y = 0x00000004741183A3u;
    y = 0x00000036548CFC06u - ctl_mulhi(z, y);
    y = 0x0000024FDCBF140Au - ctl_mulhi(z, y);
    y = 0x0000171D939DE045u - ctl_mulhi(z, y);
    y = 0x0000D00CF58F6F84u - ctl_mulhi(z, y);
    y = 0x000680681CF796E3u - ctl_mulhi(z, y);
    y = 0x002D82D8305B0FEAu - ctl_mulhi(z, y);
    y = 0x011111110E066FD0u - ctl_mulhi(z, y);
    y = 0x0555555555070F00u - ctl_mulhi(z, y);
    y = 0x155555555581FF00u - ctl_mulhi(z, y);
    y = 0x400000000002B400u - ctl_mulhi(z, y);
    y = 0x7FFFFFFFFFFF4800u - ctl_mulhi(z, y);
    y = 0x8000000000000000u - ctl_mulhi(z, y);
    return y;
}

/* ccs * exp(-x) * 2^63 with w = floor(ccs * 2^64) in Q0.64. */
static inline uint64_t ctl_branch_expm_p63(uint64_t z, uint64_t w)
{
    return ctl_mulhi(w, ctl_branch_eval(z));
}

#endif /* CTL_BRANCH_H */

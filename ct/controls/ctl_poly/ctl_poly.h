/*
 * ctl_poly.h -- constant-time CONTROL for the checks in ct/: the FACCT
 * degree-12 polynomial (the Falcon specification's ApproxExp constants),
 * written out without a loop, without a table index and without a branch.
 * Every check must find it clean (0 memcheck reports, no branch, no indexed
 * load); if one does not, that check is broken, not the control.
 *
 * Formats: z = floor(x * 2^64) is Q0.64 (x = z / 2^64, 0 <= x < ln 2); the
 * coefficients are unsigned Q63 (c / 2^63); the result of ctl_poly_eval is
 * exp(-x) in Q63, so CTL_POLY_SCALE_BITS is 63.
 */
#ifndef CTL_POLY_H
#define CTL_POLY_H

#include <stdint.h>
#include "../ctl_common.h"

#define CTL_POLY_SCALE_BITS 63
#define CTL_POLY_SEGMENTS 1
#define CTL_POLY_DEGREE 12
#define CTL_POLY_WORD_BITS 64
#define CTL_POLY_TABLE_BYTES 0

/* Horner, y = C[i] - hi(z, y), each step unrolled by hand so that no loop
 * counter branch can appear whatever the optimisation level.  The
 * coefficients are immediates: no memory access at all. */
static inline uint64_t ctl_poly_eval(uint64_t z)
{
    uint64_t y = 0x00000004741183A3u;
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
static inline uint64_t ctl_poly_expm_p63(uint64_t z, uint64_t w)
{
    return ctl_mulhi(w, ctl_poly_eval(z));
}

#endif /* CTL_POLY_H */

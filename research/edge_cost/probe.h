/* SPDX-License-Identifier: MIT */
/* probe.h -- what falcon_x86's edge rules cost (README.md): three adaptors
 * around the generated kernel's own core (falcon_x86_core, the instructions
 * of _domain), each running a part of the rules of docs/falcon.md, timed in
 * the project's bench harness beside _domain (no rule) and the shipped full
 * adaptor (every rule).
 *
 *   edge_x:     the x rules alone, as the shipped clamp block runs them: the
 *               pattern compared twice (unsigned), two CMOVAEs (x >= ln 2 to
 *               LN2_DOWN, then x < 0 or NaN to +0), the double made from the
 *               result (VMOVQ); ccs passed as it is.
 *   edge_ccs:   the ccs rules alone, as the shipped clamp block runs them:
 *               VPMAXSD (the high word lifted to the smallest normal's, so
 *               no subnormal reaches the FPU), VMAXSD with +0 (ccs < 0 and
 *               NaN to 0), VMINSD with 1; x passed as it is.
 *   edge_least: the part of the rules no adaptor of this core can leave
 *               out: x >= ln 2 (+inf included) read as LN2_DOWN on both
 *               paths (CMP and CMOVAE on the pattern, VMINSD on the double),
 *               and ccs < 0 or NaN as 0 before the conversions (VMAXSD with
 *               +0).  It does not follow the rules for x < 0 or NaN, for ccs
 *               > 1 or for a subnormal ccs.
 *
 * check.c checks each, bit for bit, against the full adaptor
 * (falcon_x86_fpr_expm_p63_native) on every input it draws from those whose
 * rules the probe runs, so each probe does all the work of its rules and
 * the core's.  Include after generated/falcon_x86/falcon_x86.h. */
#ifndef EDGE_COST_PROBE_H
#define EDGE_COST_PROBE_H

#include <stdint.h>
#include <string.h>

/* The constants of the rules, fixed by binary64 and ln 2 (not by the
 * kernel's fit): LN2_DOWN = RD(ln 2) and the pattern above it, the pattern
 * above +inf's, +0, the smallest normal's high word (low word INT32_MIN so
 * VPMAXSD keeps the low word), 1.  The asm reads them as memory operands
 * (RIP-relative), so no probe needs a register for their address; the
 * shipped clamp block reads the same values from the kernel's table. */
static const uint64_t edge_k[6] __attribute__((aligned(64))) = {
    UINT64_C(0x3FE62E42FEFA39EF), UINT64_C(0x3FE62E42FEFA39F0), UINT64_C(0x7FF0000000000001),
    UINT64_C(0x0000000000000000), UINT64_C(0x0010000080000000), UINT64_C(0x3FF0000000000000),
};

#define EDGE_INLINE static inline __attribute__((always_inline))

EDGE_INLINE uint64_t edge_x(double x, double ccs)
{
    uint64_t b, b0;
    memcpy(&b, &x, sizeof b);
    __asm__("mov %[b], %[b0]\n\t"
            "cmp %[ln2_next], %[b]\n\t"
            "cmovae %[ln2_down], %[b]\n\t"
            "cmp %[inf_next], %[b0]\n\t"
            "cmovae %[zero], %[b]\n\t"
            "vmovq %[b], %[x]\n\t"
            : [b] "+r"(b), [b0] "=&r"(b0), [x] "=&x"(x)
            : [ln2_down] "m"(edge_k[0]), [ln2_next] "m"(edge_k[1]), [inf_next] "m"(edge_k[2]),
              [zero] "m"(edge_k[3])
            : "cc");
    return falcon_x86_core(x, b, ccs);
}

EDGE_INLINE uint64_t edge_ccs(double x, double ccs)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    __asm__("vpmaxsd %[subn], %[cc], %[cc]\n\t"
            "vmaxsd %[zero], %[cc], %[cc]\n\t"
            "vminsd %[one], %[cc], %[cc]\n\t"
            : [cc] "+x"(ccs)
            : [zero] "m"(edge_k[3]), [subn] "m"(edge_k[4]), [one] "m"(edge_k[5]));
    return falcon_x86_core(x, b, ccs);
}

EDGE_INLINE uint64_t edge_least(double x, double ccs)
{
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    __asm__("cmp %[ln2_next], %[b]\n\t"
            "cmovae %[ln2_down], %[b]\n\t"
/* Control: the double left unclamped (the binary64 path reads x >= ln 2 as
 * it is); check.c must catch it. */
#ifndef CONTROL_DOUBLE_UNCLAMPED
            "vminsd %[ln2_down], %[x], %[x]\n\t"
#endif
            "vmaxsd %[zero], %[cc], %[cc]\n\t"
            : [b] "+r"(b), [x] "+x"(x), [cc] "+x"(ccs)
            : [ln2_down] "m"(edge_k[0]), [ln2_next] "m"(edge_k[1]), [zero] "m"(edge_k[3])
            : "cc");
    return falcon_x86_core(x, b, ccs);
}

#endif

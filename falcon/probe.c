/* SPDX-License-Identifier: MIT */
/*
 * probe.c -- evaluates one kernel's Falcon adaptors and the hand-written
 * FACCT reference on inputs read from stdin, so that the tests (in Python,
 * with mpmath for exact values) can check every property on the same
 * outputs.
 *
 * Input: one line per case, "x_bits ccs_bits" as hexadecimal IEEE-754
 * binary64 bit patterns.  Output: one line per case,
 * "emu native ref domain dbits" in hexadecimal, where
 *   emu    = <name>_fpr_expm_p63(x_bits, ccs_bits), through falcon_emu_wrap
 *            (emu_wrap.c, compiled FP-free where the kernel allows it);
 *   native = <name>_fpr_expm_p63_native(x, ccs) on the same bits as doubles;
 *   ref    = facct_ref_expm_p63(x_bits, ccs_bits) (runtime/facct_ref.c);
 *   domain = <name>_fpr_expm_p63_domain(x, ccs) (meaningful only on
 *            Falcon's domain, 0 <= x < ln 2 and 0 <= ccs < 1);
 *   dbits  = <name>_fpr_expm_p63_domain_bits(x_bits, ccs_bits), the same
 *            function for emulated-float builds (equal to domain everywhere).
 * All of them are ~= ccs * exp(-x) * 2^63, an integer in units of 2^-63.
 * A malformed line is an error: one line on stderr, exit status 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "facct_ref.h"
#include "kname.h"
#include KHEADER

uint64_t falcon_emu_wrap(uint64_t x_bits, uint64_t ccs_bits);

/* The double whose IEEE-754 bits are b (memcpy: no aliasing violation). */
static double from_bits(uint64_t b)
{
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

int main(void)
{
    char line[256];
    unsigned long lineno = 0;
    while (fgets(line, sizeof line, stdin) != NULL) {
        uint64_t xb, cb;
        lineno++;
        if (sscanf(line, "%" SCNx64 " %" SCNx64, &xb, &cb) != 2) {
            fprintf(stderr, "probe: line %lu: expected two hex words\n", lineno);
            return 2;
        }
        printf("%016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n",
               falcon_emu_wrap(xb, cb),
               K(fpr_expm_p63_native)(from_bits(xb), from_bits(cb)),
               facct_ref_expm_p63(xb, cb),
               K(fpr_expm_p63_domain)(from_bits(xb), from_bits(cb)),
               K(fpr_expm_p63_domain_bits)(xb, cb));
    }
    return 0;
}

/* SPDX-License-Identifier: MIT */
/* tests/adaptor_entries.c -- prints, for each pair of bit patterns (x, ccs)
 * read from stdin, what the Falcon entries of a kernel return:
 * _fpr_expm_p63 and _native (every edge rule), _domain_bits and _domain.
 * tests/test_fold.py and tests/test_mcu.py compare the lines with the
 * forms' Python models (gen/fold/model.py, gen/mcu/model.py).  Build with
 * -DKHEADER='"<name>.h"' -DKNAME=<name> (and the kernel's cflags). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include KHEADER

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define K(s) CAT(KNAME, s)

int main(void)
{
    uint64_t xb, cb;
    while (scanf("%" SCNx64 " %" SCNx64, &xb, &cb) == 2) {
        double x, c;
        memcpy(&x, &xb, 8);
        memcpy(&c, &cb, 8);
        printf("%016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016" PRIx64 "\n", K(_fpr_expm_p63)(xb, cb),
               K(_fpr_expm_p63_native)(x, c), K(_fpr_expm_p63_domain_bits)(xb, cb), K(_fpr_expm_p63_domain)(x, c));
    }
    return 0;
}

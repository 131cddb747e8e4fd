/* SPDX-License-Identifier: MIT */
/* model_drv.c -- proto.h's _domain_bits on the host, one "x_bits ccs_bits" pair (hex) per input line,
 * one output (hex) per line: what `bound.py --check` compares its Python model with. */
#include <stdio.h>
#include <inttypes.h>
#include "proto.h"
int main(void) {
    unsigned long long x, c;
    while (scanf("%llx %llx", &x, &c) == 2) printf("%016llx\n", (unsigned long long)m3st_expm_p63_domain_bits(x, c));
    return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * berexp.h -- the interface between berexp.c and the kernel registry that
 * falcon/berexp.py writes (one entry per kernel with Falcon adaptors).
 */
#ifndef FALCON_BEREXP_H
#define FALCON_BEREXP_H

#include <stdint.h>

/* A kernel's emulated-float adaptor: IEEE-754 bits of r and ccs in,
 * ~= ccs * exp(-r) * 2^63 out. */
typedef uint64_t (*berexp_expm_fn)(uint64_t x_bits, uint64_t ccs_bits);

typedef struct {
    const char *name;
    berexp_expm_fn expm;
} berexp_kernel;

extern const berexp_kernel berexp_kernels[];
extern const unsigned berexp_kernel_count;

#endif

/* SPDX-License-Identifier: MIT */
/* proj.c -- the project's current batch kernel (read-only include of
 * generated/falcon_x86_batch/falcon_x86_batch.h), timed in the
 * same run as a comparison row.  Built with -mfma as that header requires. */
#include <stdint.h>
#include <stddef.h>
#include "falcon_x86_batch.h"
void proj_avx512(uint64_t *o, const double *x, const double *c, size_t n) { falcon_x86_batch_fpr_expm_p63_batch_avx512(o, x, c, n); }
void proj_avx2(uint64_t *o, const double *x, const double *c, size_t n) { falcon_x86_batch_fpr_expm_p63_batch_avx2(o, x, c, n); }
uint64_t proj_native(double x, double c) { return falcon_x86_batch_fpr_expm_p63_native(x, c); }

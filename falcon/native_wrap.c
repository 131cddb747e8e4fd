/* SPDX-License-Identifier: MIT */
/*
 * native_wrap.c -- the native-float adaptor behind a non-inlined function.
 *
 * It is the control of the floating-point scan: the scan must find SSE (or
 * x87) instructions in this object, otherwise the scan is blind and its
 * "zero FP instructions" verdict on emu_wrap.o would prove nothing.
 */
#include <stdint.h>

#include "kname.h"
#include KHEADER

uint64_t falcon_native_wrap(double x, double ccs);

uint64_t falcon_native_wrap(double x, double ccs)
{
    return K(fpr_expm_p63_native)(x, ccs);
}

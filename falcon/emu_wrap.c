/* SPDX-License-Identifier: MIT */
/*
 * emu_wrap.c -- the emulated-float adaptor of one kernel behind a function
 * that is not inlined into its caller.
 *
 * Why a separate file: the emulated adaptor must run on CPUs without an FPU
 * (Falcon's emulated-float build).  This translation unit holds nothing but
 * that adaptor, so it can be compiled with -mgeneral-regs-only (the compiler
 * then rejects any floating-point or SIMD register use) and its object can
 * be disassembled and scanned for SSE/x87 instructions.  The probe program
 * calls it, so the outputs the tests check come from this very object.
 */
#include <stdint.h>

#include "kname.h"
#include KHEADER

uint64_t falcon_emu_wrap(uint64_t x_bits, uint64_t ccs_bits);

uint64_t falcon_emu_wrap(uint64_t x_bits, uint64_t ccs_bits)
{
    return K(fpr_expm_p63)(x_bits, ccs_bits);
}

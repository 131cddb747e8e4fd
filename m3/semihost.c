/* SPDX-License-Identifier: MIT */
/*
 * semihost.c -- see semihost.h.  Also provides io_puts for the M3 build of
 * the m3io.h output layer.
 */
#include "semihost.h"
#include "m3io.h"

/* Semihosting operation numbers (ARM "Semihosting for AArch32 and AArch64"
 * specification). */
#define SH_SYS_WRITE0        0x04u
#define SH_SYS_EXIT_EXTENDED 0x20u
/* Reason code for a normal application exit (ADP_Stopped_ApplicationExit). */
#define SH_ADP_APPLICATION_EXIT 0x20026u

static uint32_t sh_call(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    /* "memory": the host reads the buffer r1 points to, so every store to it
     * must be done before the trap. */
    __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

void sh_write0(const char *s)
{
    (void)sh_call(SH_SYS_WRITE0, s);
}

void sh_exit(int code)
{
    /* Parameter block of SYS_EXIT_EXTENDED: reason, then the exit status. */
    uint32_t block[2];
    block[0] = SH_ADP_APPLICATION_EXIT;
    block[1] = (uint32_t)code;
    (void)sh_call(SH_SYS_EXIT_EXTENDED, block);
    /* Not reached under QEMU; on a board without a debugger, park here. */
    for (;;) {
    }
}

void io_puts(const char *s)
{
    sh_write0(s);
}

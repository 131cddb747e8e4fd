/* SPDX-License-Identifier: MIT */
/*
 * semihost.h -- ARM semihosting calls used by the bare-metal M3 programs.
 *
 * On M-profile cores a semihosting request is "BKPT 0xAB" with the operation
 * number in r0 and the argument (a value or a pointer to a parameter block)
 * in r1; the result comes back in r0.  QEMU implements it when started with
 * -semihosting-config enable=on,target=native.
 */
#ifndef SEMIHOST_H
#define SEMIHOST_H

#include <stdint.h>

/* Print a NUL-terminated string on the host's semihosting console. */
void sh_write0(const char *s);

/* Stop the emulator with exit status `code` (0..255 reaches the host shell).
 * Uses SYS_EXIT_EXTENDED so that a non-zero code propagates: QEMU's plain
 * 32-bit SYS_EXIT only distinguishes "normal exit" (status 0) from
 * "anything else" (status 1). */
void sh_exit(int code) __attribute__((noreturn));

#endif

/* SPDX-License-Identifier: MIT */
/*
 * m3io.h -- the tiny output layer shared by the Cortex-M3 and host builds of
 * the m3/ test programs.
 *
 * Why not printf: newlib's printf pulls in tens of kilobytes, a heap and,
 * for %f, soft-float code; the programs here only print integers in hex and
 * decimal, so a few lines of formatting over one "write a string" primitive
 * are enough.  The primitive is io_puts: semihosting SYS_WRITE0 on the M3
 * (m3io_semihost.c), stdout on the host (m3io_host.c).  Everything else
 * (m3io_fmt.c) is plain C shared by both builds, so the two print exactly
 * the same bytes for the same values.
 */
#ifndef M3IO_H
#define M3IO_H

#include <stdint.h>

/* Write a NUL-terminated string as is (no newline added). */
void io_puts(const char *s);

/* Write v as exactly 16 (resp. 8) lower-case hex digits, no prefix. */
void io_hex64(uint64_t v);
void io_hex32(uint32_t v);

/* Write v in decimal, no leading zeros. */
void io_dec(uint32_t v);

#endif

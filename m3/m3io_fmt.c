/* SPDX-License-Identifier: MIT */
/*
 * m3io_fmt.c -- integer formatting over io_puts (see m3io.h).  No division
 * by a variable is used for hex (shifts only); decimal uses division by the
 * constant 10, which both compilers turn into a multiply or a libgcc call,
 * and is only used for counts, never in measured code.
 */
#include "m3io.h"
#include "test_util.h"

void io_hex64(uint64_t v)
{
    char buf[17];
    tu_hex64(buf, v);
    io_puts(buf);
}

void io_hex32(uint32_t v)
{
    char buf[9];
    tu_hex32(buf, v);
    io_puts(buf);
}

void io_dec(uint32_t v)
{
    /* 10 digits hold any 32-bit value; fill from the right. */
    char buf[11];
    int i = 10;
    buf[10] = '\0';
    do {
        buf[--i] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v != 0);
    io_puts(&buf[i]);
}

/* SPDX-License-Identifier: MIT */
/*
 * m3io_host.c -- io_puts for the host build: the same test program, compiled
 * with the host compiler, prints to stdout so that its output can be
 * compared byte for byte with the M3 run.
 */
#include <stdio.h>
#include "m3io.h"

void io_puts(const char *s)
{
    fputs(s, stdout);
}

/* SPDX-License-Identifier: MIT */
/*
 * startup.c -- bare-metal start-up for the Cortex-M3 of QEMU's mps2-an385.
 *
 * The core boots by loading the initial stack pointer from address 0 and the
 * reset handler's address from address 4 (the vector table, placed first in
 * the image by m3.ld).  The reset handler prepares the C environment (copies
 * .data from its load image, zeroes .bss), calls main and stops the emulator
 * through semihosting with main's return value as the exit status.
 *
 * Fault handlers exit with distinctive statuses (see below) so that a crash
 * shows up as a failed run instead of a hang; every QEMU run also has a
 * timeout in the Python driver.
 */
#include <stdint.h>
#include "semihost.h"

int main(void);

/* Symbols defined by m3.ld. */
extern uint32_t m3_data_start[], m3_data_end[], m3_data_load[];
extern uint32_t m3_bss_start[], m3_bss_end[];
extern uint32_t m3_stack_top[];

/* no-tree-loop-distribute-patterns: at -O2 GCC would turn the copy and
 * clear loops below into memcpy/memset calls, and there is no C library in
 * these images (-nostdlib). */
void m3_reset(void) __attribute__((noreturn, optimize("no-tree-loop-distribute-patterns")));

void m3_reset(void)
{
    uint32_t *src = m3_data_load;
    uint32_t *dst = m3_data_start;
    /* Word copies: m3.ld aligns both ends of .data and .bss to 4 bytes. */
    while (dst < m3_data_end) {
        *dst++ = *src++;
    }
    for (dst = m3_bss_start; dst < m3_bss_end; dst++) {
        *dst = 0;
    }
    sh_exit(main());
}

/* Exit statuses chosen outside the range the test programs return
 * (0 = success, small positive = test failure). */
static void m3_nmi(void) { sh_exit(250); }
static void m3_hardfault(void) { sh_exit(251); }
static void m3_memfault(void) { sh_exit(252); }
static void m3_busfault(void) { sh_exit(253); }
static void m3_usagefault(void) { sh_exit(254); }
static void m3_other(void) { sh_exit(255); }

/* The first 16 entries of the vector table (system exceptions); the
 * programs enable no peripheral interrupt, so none is listed.  Entry 0 is
 * the initial stack pointer, stored as an address. */
__attribute__((section(".vectors"), used))
static void (*const m3_vectors[16])(void) = {
    (void (*)(void))m3_stack_top,
    m3_reset,
    m3_nmi,
    m3_hardfault,
    m3_memfault,
    m3_busfault,
    m3_usagefault,
    0, 0, 0, 0,
    m3_other, /* SVCall */
    m3_other, /* DebugMonitor */
    0,
    m3_other, /* PendSV */
    m3_other, /* SysTick: never enabled with TICKINT, so never taken */
};

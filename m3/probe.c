/* SPDX-License-Identifier: MIT */
/*
 * probe.c -- controls for the binary scan (scan.py), used by
 * tests/test_m3.py.  m3_probe is integer-only, multiplier-free and
 * branch-free as written; each macro deliberately adds one thing the scan
 * must report:
 *   M3_PROBE_UMULL   one UMULL (inline assembly, so the compiler cannot
 *                    choose another instruction)
 *   M3_PROBE_FLOAT   a double multiplication, i.e. a call to the soft-float
 *                    helper __aeabi_dmul on a core without an FPU
 *   M3_PROBE_BRANCH  a data-dependent conditional branch (inline assembly)
 * main returns 0 so the probe also runs under QEMU.
 */
#include <stdint.h>

__attribute__((noinline, used)) uint32_t m3_probe(uint32_t a, uint32_t b);

uint32_t m3_probe(uint32_t a, uint32_t b)
{
    uint32_t r = (a ^ (b << 3)) + (a >> 5);
#if defined(M3_PROBE_UMULL)
    uint32_t lo, hi;
    __asm__("umull %0, %1, %2, %3" : "=r"(lo), "=r"(hi) : "r"(a), "r"(b));
    r += lo ^ hi;
#endif
#if defined(M3_PROBE_FLOAT)
    volatile double d = (double)a;
    d = d * 1.5;
    r += (uint32_t)d;
#endif
#if defined(M3_PROBE_BRANCH)
    __asm__("cmp %0, #7\n\tbeq 1f\n\tadds %0, %0, #1\n1:" : "+r"(r) : : "cc");
#endif
    return r;
}

int main(void)
{
    return (int)(m3_probe(0, 0) & 0u);
}

/* SPDX-License-Identifier: MIT */
/*
 * known.S -- two hand-written functions whose executed-instruction counts
 * are known from this source alone; the measurement harness (trace.py,
 * bench mode of kprog.c) must reproduce them, or it is broken.
 *
 *   m3_null : 1 instruction per call (bx lr).  Used as the baseline of the
 *             SysTick method: the loop calling it has exactly the same code
 *             as the loop calling a kernel, so the difference of the two
 *             loops is (kernel count - 1) per call.
 *   m3_known: movs, then 10 iterations of (cmp, ite, movhi, movls, subs,
 *             bne), then bx lr: 1 + 10 * 6 + 1 = 62 instructions per call.
 *             The IT block is there on purpose: each pass executes one of
 *             its two instructions and skips the other, and a skipped
 *             instruction still occupies a slot in the pipeline, so the
 *             harness must count both (62, not 52).
 * Neither touches r0/r1 (m3_known clobbers r2, r3 and the flags, which the
 * AAPCS lets a callee do), so they "return" their first argument under the
 * AAPCS for both a uint32_t and a uint64_t result.
 */
    .syntax unified
    .thumb
    .text

    .global m3_null
    .type   m3_null, %function
    .thumb_func
m3_null:
    bx      lr
    .size   m3_null, . - m3_null

    .global m3_known
    .type   m3_known, %function
    .thumb_func
m3_known:
    movs    r2, #10
1:  cmp     r2, #5
    ite     hi
    movhi   r3, #1
    movls   r3, #2
    subs    r2, #1
    bne     1b
    bx      lr
    .size   m3_known, . - m3_known

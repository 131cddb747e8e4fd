/* SPDX-License-Identifier: MIT */
/*
 * timing.h -- the timing primitives the x86-64 harnesses share
 * (bench/harness.c, bench/sampler_main.c): fenced TSC reads, the
 * TSC-to-core-cycle calibration chains and a millisecond clock.  One copy,
 * so that both benchmarks time and calibrate in exactly the same way
 * (docs/bench.md, "Calibration").
 */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

static inline uint64_t tsc_begin(void)
{
    uint64_t t;
    _mm_lfence();
    t = __rdtsc();
    _mm_lfence();
    return t;
}

static inline uint64_t tsc_end(void)
{
    unsigned aux;
    uint64_t t = __rdtscp(&aux);
    _mm_lfence();
    return t;
}

/*
 * Core cycles per TSC tick, from a chain of dependent instructions of known
 * latency.  Each iteration executes 100 copies of `add %b, %a` (register
 * to register, 1 cycle latency on every x86-64 core since the P6; a
 * register operand, unlike an immediate, cannot be folded at rename) or of
 * `imul %b, %a` (3 cycles on every current Intel and AMD core), each
 * depending on the previous through %a.  The loop counter's add and branch
 * run on other ports in parallel, so an iteration takes 100 (or 300) core
 * cycles; ops * latency / ticks is the ratio.  Two instruction kinds that
 * agree are the check that neither was mispredicted by the model.
 */
static inline double calibrate(int use_imul, uint64_t iters)
{
    uint64_t a = 1, b = 3, i, t0, t1;
    t0 = tsc_begin();
    for (i = 0; i < iters; i++) {
        if (use_imul) {
            __asm__ volatile(".rept 100\n\timul %1, %0\n\t.endr"
                             : "+r"(a) : "r"(b));
        } else {
            __asm__ volatile(".rept 100\n\tadd %1, %0\n\t.endr"
                             : "+r"(a) : "r"(b));
        }
    }
    t1 = tsc_end();
    return (double)iters * 100.0 * (use_imul ? 3.0 : 1.0) / (double)(t1 - t0);
}

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Calibration sample sizes: 10^5 core cycles each (1000 iterations of 100
 * adds, or 334 of 100 imuls at 3 cycles), about 45 us, the same order as
 * one timing sample.  One of each is taken every round, so the calibration
 * sees the same clock changes and the same preemptions as the timings, and
 * its median ignores the few samples a preemption stretched.  (A first
 * design took 4 ms samples before and after the rounds: on this shared VM
 * about a third of them were cut in half by a preemption.) */
enum { CALIB_ADD_ITERS = 1000, CALIB_IMUL_ITERS = 334 };

#endif /* BENCH_TIMING_H */

/* SPDX-License-Identifier: MIT */
/*
 * loops.h -- the two timing loops every benchmarked variant gets, and the
 * registry entry that lists them.  The generated registry
 * (build/bench/registry.c, written by bench/gen_registry.py) expands
 * BENCH_DEFINE once per variant, so each variant's function is inlined into
 * its own pair of loops, and the loops are `noinline` so that the compiler
 * can neither merge two variants' loops nor hoist work across the timing
 * fences in harness.c.
 *
 * Both loops call the variant with double inputs (x, ccs) taken from a
 * table of BENCH_TABLE entries, so every timing includes the input
 * conversions a Falcon caller pays.
 */
#ifndef BENCH_LOOPS_H
#define BENCH_LOOPS_H

#include <stddef.h>
#include <stdint.h>

/* Inputs per table: a power of two, so an index is reduced with one AND.
 * Two tables of 1024 doubles (16 KiB) stay in a 32 KiB or larger L1D. */
#define BENCH_TABLE 1024u
#define BENCH_MASK ((uint64_t)BENCH_TABLE - 1)

/* Forces v into a general-purpose register and hides its value from the
 * optimiser: the compiler can neither vectorise the batch loop across calls
 * nor drop a call whose result it could otherwise fold. */
#define BENCH_OPAQUE(v) __asm__("" : "+r"(v))

typedef uint64_t (*bench_loop_fn)(const double *xs, const double *cs,
                                  uint64_t n, uint64_t seed);

struct bench_variant {
    const char *name;     /* row name in the results */
    const char *kind;     /* "reference", "kernel" or "baseline" */
    int (*available)(void); /* 0 if this CPU cannot run the variant */
    bench_loop_fn chain;  /* latency loop */
    bench_loop_fn batch;  /* throughput loop */
};

/*
 * BENCH_DEFINE(ID, FN, ATTR) defines bench_chain_ID and bench_batch_ID for
 * the function FN(double x, double ccs) -> uint64_t.  ATTR carries extra
 * function attributes (e.g. a target("avx2") for a variant that needs it,
 * since GCC will not inline an AVX2 function into a generic one).
 *
 * Chain (latency): the table index of call i+1 is (out_i ^ i) & mask, so
 * call i+1 cannot load its inputs before call i has produced its output;
 * calls are serialised and the loop measures latency plus the fixed cost
 * of one XOR, one AND and one L1 load pair, which the null row shows.
 *
 * Batch (throughput): call i uses entry i & mask, independent of every
 * output; results are summed so none is dead, and the CPU may overlap as
 * many calls as its out-of-order window allows.
 */
#define BENCH_DEFINE(ID, FN, ATTR)                                          \
    ATTR __attribute__((noinline)) static uint64_t bench_chain_##ID(        \
        const double *xs, const double *cs, uint64_t n, uint64_t seed)      \
    {                                                                       \
        uint64_t out = seed, i;                                             \
        for (i = 0; i < n; i++) {                                           \
            uint64_t j = (out ^ i) & BENCH_MASK;                            \
            out = FN(xs[j], cs[j]);                                         \
            BENCH_OPAQUE(out);                                              \
        }                                                                   \
        return out;                                                         \
    }                                                                       \
    ATTR __attribute__((noinline)) static uint64_t bench_batch_##ID(        \
        const double *xs, const double *cs, uint64_t n, uint64_t seed)      \
    {                                                                       \
        uint64_t acc = seed, i;                                             \
        for (i = 0; i < n; i++) {                                           \
            uint64_t r = FN(xs[i & BENCH_MASK], cs[i & BENCH_MASK]);        \
            BENCH_OPAQUE(r);                                                \
            acc += r;                                                       \
        }                                                                   \
        return acc;                                                         \
    }

/*
 * BENCH_DEFINE_ARRAY(ID, AFN, VFN, LANES, ATTR) defines the two loops of a
 * batch row: AFN(out, x, ccs, m) fills out[0..m) (an array entry), VFN(out,
 * x, ccs) fills out[0..LANES) (one register-level call).
 *
 * Chain (latency of one register-level call, LANES results): the table
 * index of call i+1 is (out ^ i) & mask rounded down to a multiple of
 * LANES, out being lane 0 of call i (every lane is stored and kept, by
 * an empty asm with a memory clobber, so no lane's work is dropped as
 * dead); the time is per call, not per lane.
 *
 * Batch (throughput per element): n elements as array calls on the input
 * tables (at most BENCH_TABLE = 1024 elements each, all in L1), the
 * outputs stored to a table the compiler must assume is read (an empty
 * asm with a memory clobber), so none is dead; the time is per element.
 */
#define BENCH_DEFINE_ARRAY(ID, AFN, VFN, LANES, ATTR)                       \
    static uint64_t bench_out_##ID[BENCH_TABLE];                            \
    ATTR __attribute__((noinline)) static uint64_t bench_chain_##ID(        \
        const double *xs, const double *cs, uint64_t n, uint64_t seed)      \
    {                                                                       \
        uint64_t out = seed, i, r[LANES];                                   \
        for (i = 0; i < n; i++) {                                           \
            uint64_t j = (out ^ i) & BENCH_MASK & ~(uint64_t)((LANES) - 1); \
            VFN(r, xs + j, cs + j);                                         \
            __asm__ volatile("" : : "r"(r) : "memory");                     \
            out = r[0];                                                     \
            BENCH_OPAQUE(out);                                              \
        }                                                                   \
        return out;                                                         \
    }                                                                       \
    ATTR __attribute__((noinline)) static uint64_t bench_batch_##ID(        \
        const double *xs, const double *cs, uint64_t n, uint64_t seed)      \
    {                                                                       \
        uint64_t done = 0;                                                  \
        while (done < n) {                                                  \
            uint64_t j = done & BENCH_MASK, m = BENCH_TABLE - j;            \
            m = m < n - done ? m : n - done;                                \
            AFN(bench_out_##ID + j, xs + j, cs + j, (size_t)m);             \
            done += m;                                                      \
        }                                                                   \
        __asm__ volatile("" : : "r"(bench_out_##ID) : "memory");            \
        return seed + bench_out_##ID[0];                                    \
    }

/* The registry, defined in the generated registry.c. */
extern const struct bench_variant bench_variants[];
extern const size_t bench_variant_count;

#endif /* BENCH_LOOPS_H */

/* SPDX-License-Identifier: MIT */
/*
 * sampler_spec.h -- the speculative form of the sampler loop of
 * bench/sampler.h (docs/bench.md, "Speculative loops"): each round draws K
 * candidates of the same call, computes their fpr_expm_p63 at once (with a
 * batch kernel's register entry, K = 4 or 8 lanes), then runs BerExp's
 * byte comparison on them in order and keeps the first accepted; the
 * candidates after it are dropped, or their base samples kept for the next
 * call (POOL below).  A round where none is accepted is followed by a
 * fresh round.
 *
 * Why the output distribution is unchanged: every candidate is drawn from
 * fresh random bytes and decided with fresh random bytes, independently of
 * the others, so (candidate, decision) pairs are independent and
 * identically distributed, as in the sequential loop; keeping the first
 * accepted one of the sequence they form is the sequential loop's rule.
 * Only the order in which bytes are read changes (the base-sampler bytes
 * of all K candidates come before any decision's bytes), and with it which
 * sample a given byte stream produces; without the pool, the dropped
 * candidates' base bytes are consumed for nothing.  So a speculative loop does not reproduce a
 * sequential loop's outputs (or the reference's known answers) from the
 * same seed, while the probability of each decision, ccs e^-x, and the
 * output distribution are the same (tests/test_bench_sampler.py).
 */
#ifndef BENCH_SAMPLER_SPEC_H
#define BENCH_SAMPLER_SPEC_H

#include "sampler.h"

/*
 * SAMPLER_SPEC_DEFINE(ID, K, POOL, EVAL, ATTR) defines sampler_run_ID with
 * the signature of sampler_fn.  EVAL(e, rv, ccs, K) must set e[j] =
 * fpr_expm_p63(rv[j], ccs) for j < K (rv and e: arrays of K).  Decisions
 * are drawn lazily: candidate j's BerExp bytes are read only if candidates
 * 0..j-1 were rejected, so no decision's bytes are wasted, only the
 * candidates after the accepted one (their lanes counted in *candidates).
 *
 * POOL = 0 drops those candidates.  POOL = 1 keeps their base samples
 * (z0, b) in a pool that the next round takes first, placed at its own
 * call's centre and deviation (sampler_place).  That is still exact: no
 * decision has looked at a pooled candidate, and which candidates are
 * pooled depends only on the decisions of the ones before them, so pooled
 * base samples are as fresh as new ones.  The base sampler's work and
 * bytes then match the sequential loop's, and what remains of the
 * speculation is the kernel lanes computed for undecided candidates.  (A
 * signer would keep the pool across its sampler calls; here it lives for
 * one call of the loop.)
 */
#define SAMPLER_SPEC_DEFINE(ID, K, POOL, EVAL, ATTR)                         \
    ATTR __attribute__((noinline)) static uint64_t sampler_run_##ID(         \
        struct sampler_prng *p, const struct sampler_param *params,          \
        uint64_t n, int32_t *out, uint64_t *candidates)                      \
    {                                                                        \
        uint64_t i, trials = 0, rounds = 0;                                  \
        int pool_z0[K], pool_b[K];                                           \
        unsigned pooled = 0;                                                 \
        for (i = 0; i < n; i++) {                                            \
            struct sampler_call c = sampler_call_of(&params[i % SAMPLER_PARAMS]); \
            for (;;) {                                                       \
                double rv[K];                                                \
                uint64_t e[K];                                               \
                int zv[K], z0v[K], bv[K];                                    \
                unsigned tv[K], j;                                           \
                for (j = 0; j < (K); j++) {                                  \
                    if (j < pooled) {                                        \
                        z0v[j] = pool_z0[j];                                 \
                        bv[j] = pool_b[j];                                   \
                    } else {                                                 \
                        z0v[j] = sampler_gaussian0(p);                       \
                        bv[j] = sampler_bit(p);                              \
                    }                                                        \
                    rv[j] = sampler_place(z0v[j], bv[j], c.r, c.dss, &zv[j], &tv[j]); \
                }                                                            \
                EVAL(e, rv, c.ccs, K);                                       \
                rounds++;                                                    \
                pooled = 0;                                                  \
                for (j = 0; j < (K); j++) {                                  \
                    trials++;                                                \
                    if (sampler_bercmp(p, e[j], tv[j])) {                    \
                        break;                                               \
                    }                                                        \
                }                                                            \
                if (j < (K)) {                                               \
                    unsigned m;                                              \
                    for (m = j + 1; (POOL) && m < (K); m++) {                \
                        pool_z0[pooled] = z0v[m];                            \
                        pool_b[pooled++] = bv[m];                            \
                    }                                                        \
                    out[i] = (int32_t)c.fl + zv[j];                          \
                    break;                                                   \
                }                                                            \
            }                                                                \
        }                                                                    \
        *candidates += rounds * (K);                                         \
        return trials;                                                       \
    }

#endif /* BENCH_SAMPLER_SPEC_H */

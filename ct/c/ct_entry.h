/* SPDX-License-Identifier: MIT */
/*
 * ct_entry.h -- the table of kernel entry points that the constant-time
 * harnesses (taint_main.c, ttest_main.c) call.  ct/wrappers.py renders, for
 * every kernel, one C file of non-inlined wrappers (one per ABI entry point)
 * and a registry listing them all; the harnesses only see this interface.
 */
#ifndef CT_ENTRY_H
#define CT_ENTRY_H

#include <stdint.h>

/* What an entry point takes, and so how its inputs are drawn. */
enum ct_kind {
    CT_Z64 = 0,   /* <name>_eval(z), z = floor(x * 2^64) (Q0.64) */
    CT_ZW64 = 1,  /* <name>_expm_p63(z, w), z and w in Q0.64 */
    CT_BITS = 2,  /* <name>_fpr_expm_p63(x_bits, ccs_bits), IEEE-754 bits */
    CT_DBL = 3,   /* <name>_fpr_expm_p63_native(x, ccs), doubles */
    CT_Z32 = 4    /* 32-bit <name>_eval(z), z = floor(x * 2^32) (Q0.32) */
};

typedef uint64_t (*ct_fn_u64)(uint64_t a, uint64_t b);
typedef uint64_t (*ct_fn_dbl)(double a, double b);

/* One entry point.  Exactly one of fn_u64 and fn_dbl is set: fn_dbl for
 * CT_DBL, fn_u64 otherwise (one-argument entries ignore b). */
struct ct_entry {
    const char *name;
    enum ct_kind kind;
    ct_fn_u64 fn_u64;
    ct_fn_dbl fn_dbl;
};

/* Rendered by ct/wrappers.py: every entry of every kernel and control. */
extern const struct ct_entry ct_registry[];
extern const unsigned ct_registry_count;

/* The entry called name, or a null pointer. */
const struct ct_entry *ct_find_entry(const char *name);

#endif /* CT_ENTRY_H */

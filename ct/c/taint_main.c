/* SPDX-License-Identifier: MIT */
/*
 * taint_main.c -- secret-taint harness for valgrind memcheck.
 *
 * Usage: ct_taint N ENTRY...
 * For each named entry point it draws N random inputs, marks the input
 * arrays as undefined with VALGRIND_MAKE_MEM_UNDEFINED (memcheck then
 * treats them as secret: it propagates "undefinedness" through arithmetic
 * and reports when an undefined value decides a conditional jump or forms
 * a memory address), calls the entry on each input, and marks the outputs
 * defined again before folding them into a printed checksum: the print
 * itself must not be reported, and the checksum keeps the calls from being
 * optimised away.  Outside valgrind the client requests are no-ops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "ct_entry.h"
#include "ct_inputs.h"

static int run_entry(const struct ct_entry *e, size_t n, uint64_t seed)
{
    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    uint64_t *out = malloc(n * sizeof *out);
    double *da = malloc(n * sizeof *da), *db = malloc(n * sizeof *db);
    uint64_t s = seed, sum = 0;
    size_t i;

    if (a == NULL || b == NULL || out == NULL || da == NULL || db == NULL) {
        fprintf(stderr, "ct_taint: out of memory\n");
        return 1;
    }
    for (i = 0; i < n; i++) {
        double x, ccs;
        ct_random_pair(&s, &x, &ccs);
        ct_encode(e->kind, x, ccs, &a[i], &b[i], &da[i], &db[i]);
    }
    /* From here on the inputs are secret. */
    VALGRIND_MAKE_MEM_UNDEFINED(a, n * sizeof *a);
    VALGRIND_MAKE_MEM_UNDEFINED(b, n * sizeof *b);
    VALGRIND_MAKE_MEM_UNDEFINED(da, n * sizeof *da);
    VALGRIND_MAKE_MEM_UNDEFINED(db, n * sizeof *db);
    if (e->kind == CT_DBL) {
        for (i = 0; i < n; i++) {
            out[i] = e->fn_dbl(da[i], db[i]);
        }
    } else {
        for (i = 0; i < n; i++) {
            out[i] = e->fn_u64(a[i], b[i]);
        }
    }
    /* Declassify the outputs: what the caller does with them is not the
     * kernel's business. */
    VALGRIND_MAKE_MEM_DEFINED(out, n * sizeof *out);
    for (i = 0; i < n; i++) {
        sum = sum * 31u + out[i];
    }
    printf("%s %zu %016llx\n", e->name, n, (unsigned long long)sum);
    free(a);
    free(b);
    free(out);
    free(da);
    free(db);
    return 0;
}

int main(int argc, char **argv)
{
    char *end;
    unsigned long n;
    int i, rc = 0;

    if (argc < 3) {
        fprintf(stderr, "usage: ct_taint N ENTRY...\n");
        return 2;
    }
    n = strtoul(argv[1], &end, 10);
    if (*end != '\0' || n == 0) {
        fprintf(stderr, "ct_taint: N must be a positive integer, got '%s'\n", argv[1]);
        return 2;
    }
    for (i = 2; i < argc; i++) {
        const struct ct_entry *e = ct_find_entry(argv[i]);
        if (e == NULL) {
            fprintf(stderr, "ct_taint: unknown entry '%s'\n", argv[i]);
            return 2;
        }
        rc |= run_entry(e, (size_t)n, 0x5EC12E7u + (uint64_t)i);
    }
    return rc;
}

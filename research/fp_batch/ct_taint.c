/* SPDX-License-Identifier: MIT */
/* ct_taint.c -- secret-flow check under valgrind memcheck: the inputs x, ccs
 * are marked undefined ("secret"); memcheck then reports every branch and
 * every memory address that depends on them.  valgrind does not execute
 * AVX-512, so this covers the AVX2 array form and the constant-time scalar
 * forms perm and scan (not zmm); the memory-table scalar form, whose table is
 * read at a secret index, is the control and must be reported.
 *   valgrind --error-exitcode=3 ./ct_taint avx2     (expect exit 0)
 *   valgrind --error-exitcode=3 ./ct_taint perm     (expect exit 0)
 *   valgrind --error-exitcode=3 ./ct_taint scan     (expect exit 0)
 *   valgrind --error-exitcode=3 ./ct_taint scalar   (expect exit 3)      */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "proto.h"

/* The constant-time scalar forms, one call per element like a signer makes. */
__attribute__((target("avx2,fma"), noinline)) static void run_perm(uint64_t *o, const double *x, const double *c, int n) {
    for (int i = 0; i < n; i++) o[i] = proto_expm_scalar_perm(x[i], c[i]);
}
__attribute__((target("avx2,fma"), noinline)) static void run_scan(uint64_t *o, const double *x, const double *c, int n) {
    for (int i = 0; i < n; i++) o[i] = proto_expm_scalar_scan(x[i], c[i]);
}

int main(int argc, char **argv) {
    enum { N = 67 };
    static double x[N], c[N];
    static uint64_t o[N];
    for (int i = 0; i < N; i++) { x[i] = 0.01 * i; c[i] = 0.6 + 0.005 * i; }
    x[3] = 0x1p-1074; x[4] = 0.0; c[5] = 0x1p-70; c[6] = 1.0;
    VALGRIND_MAKE_MEM_UNDEFINED(x, sizeof x);
    VALGRIND_MAKE_MEM_UNDEFINED(c, sizeof c);
    const char *form = argc > 1 ? argv[1] : "avx2";
    if (!strcmp(form, "scalar")) for (int i = 0; i < N; i++) o[i] = proto_expm_scalar(x[i], c[i]);
    else if (!strcmp(form, "perm")) run_perm(o, x, c, N);
    else if (!strcmp(form, "scan")) run_scan(o, x, c, N);
    else if (!strcmp(form, "avx2")) proto_expm_avx2(o, x, c, N);
    else { fprintf(stderr, "ct_taint: unknown form '%s' (avx2, perm, scan, scalar)\n", form); return 2; }
    /* the outputs are secret too: make them defined only to print a checksum */
    VALGRIND_MAKE_MEM_DEFINED(o, sizeof o);
    uint64_t h = 0;
    for (int i = 0; i < N; i++) h = h * 31 + o[i];
    printf("%s checksum %016llx\n", form, (unsigned long long)h);
    return 0;
}

/* ct_taint.c -- secret-flow check under valgrind memcheck: the inputs x, ccs
 * are marked undefined ("secret"); memcheck then reports every branch and
 * every memory address that depends on them.  valgrind does not execute
 * AVX-512, so this covers the AVX2 form only; the scalar form, whose table is
 * read at a secret index, is the control and must be reported.
 *   valgrind --error-exitcode=3 ./ct_taint avx2     (expect exit 0)
 *   valgrind --error-exitcode=3 ./ct_taint scalar   (expect exit 3)      */
#include <stdio.h>
#include <string.h>
#include <valgrind/memcheck.h>
#include "proto.h"

int main(int argc, char **argv) {
    enum { N = 67 };
    static double x[N], c[N];
    static uint64_t o[N];
    for (int i = 0; i < N; i++) { x[i] = 0.01 * i; c[i] = 0.6 + 0.005 * i; }
    x[3] = 0x1p-1074; x[4] = 0.0; c[5] = 0x1p-70; c[6] = 1.0;
    VALGRIND_MAKE_MEM_UNDEFINED(x, sizeof x);
    VALGRIND_MAKE_MEM_UNDEFINED(c, sizeof c);
    int scalar = argc > 1 && !strcmp(argv[1], "scalar");
    if (scalar) for (int i = 0; i < N; i++) o[i] = proto_expm_scalar(x[i], c[i]);
    else proto_expm_avx2(o, x, c, N);
    /* the outputs are secret too: make them defined only to print a checksum */
    VALGRIND_MAKE_MEM_DEFINED(o, sizeof o);
    uint64_t h = 0;
    for (int i = 0; i < N; i++) h = h * 31 + o[i];
    printf("%s checksum %016llx\n", scalar ? "scalar" : "avx2", (unsigned long long)h);
    return 0;
}

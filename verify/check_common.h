/* SPDX-License-Identifier: MIT */
/*
 * check_common.h -- what the two checker drivers share (check.c, which
 * measures a kernel on its fixed-point inputs, and check_fpr.c, which
 * measures its Falcon adaptors on double inputs): one-line fatal errors,
 * option parsing, the clock, JSON numbers, and the progress line printed
 * while worker threads run.
 *
 * The including file defines CHECK_PROG (the program name that prefixes
 * every error line, e.g. "check") before including this header.  Every
 * function is static: each driver is one translation unit.
 */
#ifndef VERIFY_CHECK_COMMON_H
#define VERIFY_CHECK_COMMON_H

#ifndef CHECK_PROG
#error "define CHECK_PROG (the program name for error lines) before including check_common.h"
#endif

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "fastref.h"

/* Bad input: one line on stderr, exit status 2 (the project's rule). */
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, CHECK_PROG ": error: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (p == NULL)
        die("out of memory");
    return p;
}

/* Parses a whole C integer literal (decimal, 0x hexadecimal or 0 octal) as
 * a uint64_t; dies with `what` otherwise. */
static uint64_t parse_u64(const char *s, const char *what)
{
    char *end;
    errno = 0;
    if (s == NULL || *s < '0' || *s > '9')
        die("%s: expected a non-negative integer, got '%s'", what,
            s ? s : "(nothing)");
    unsigned long long v = strtoull(s, &end, 0);
    if (errno != 0 || *end != '\0')
        die("%s: expected a non-negative integer, got '%s'", what, s);
    return (uint64_t)v;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_double(FILE *f, double v)
{
    /* JSON has no infinities: an error of exactly zero has no logarithm. */
    if (isfinite(v))
        fprintf(f, "%.17g", v);
    else
        fputs("null", f);
}

static inline u128 absdiff(u128 a, u128 b) { return a > b ? a - b : b - a; }

/* Waits until *done (updated atomically by the workers) reaches total,
 * printing "<what>: N% done" on stderr every 5 s once the run has lasted
 * more than 3 s (short runs stay silent).  t_start is now_s() at the start
 * of the run. */
static void wait_with_progress(const uint64_t *done, uint64_t total,
                               const char *what, double t_start)
{
    double last = t_start;
    while (__atomic_load_n(done, __ATOMIC_RELAXED) < total) {
        struct timespec nap = {0, 50000000};
        nanosleep(&nap, NULL);
        double now = now_s();
        if (now - t_start > 3 && now - last >= 5) {
            uint64_t d = __atomic_load_n(done, __ATOMIC_RELAXED);
            fprintf(stderr, "%s: %5.1f%% done, %.0f s\n", what,
                    100.0 * (double)d / (double)total, now - t_start);
            last = now;
        }
    }
}

enum { CHECK_MAX_THREADS = 64 };

/* Runs fn in n threads (n <= CHECK_MAX_THREADS), thread i on worker i of
 * `workers` (n elements of `size` bytes), with the progress line of
 * wait_with_progress on *done, and returns when every thread has ended.
 * Dies when a thread cannot start. */
static void run_workers(void *workers, int n, size_t size, void *(*fn)(void *),
                        const uint64_t *done, uint64_t total, const char *what,
                        double t_start)
{
    pthread_t tids[CHECK_MAX_THREADS];
    for (int i = 0; i < n; i++)
        if (pthread_create(&tids[i], NULL, fn, (char *)workers + (size_t)i * size) != 0)
            die("cannot start thread %d", i);
    wait_with_progress(done, total, what, t_start);
    for (int i = 0; i < n; i++)
        pthread_join(tids[i], NULL);
}

#endif /* VERIFY_CHECK_COMMON_H */

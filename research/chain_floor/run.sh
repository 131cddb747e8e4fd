#!/bin/sh
# Reproduces every figure of README.md: the bit-for-bit split check (N
# inputs, default 1e6), its control and the project-harness benchmark
# (SCALAR_RUNS processes), by research/probe_run.sh.
exec "$(dirname "$0")/../probe_run.sh" chain_floor

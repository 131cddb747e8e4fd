#!/bin/sh
# Reproduces every figure of README.md: the bit-for-bit split check (N
# inputs, default 1e6), its control and the project-harness benchmark
# (SCALAR_RUNS processes).  Output in results/; binaries in OUT (default
# build/research/chain_floor).
set -e
cd "$(dirname "$0")"
N=${N:-1000000}
OUT=${OUT:-../../build/research/chain_floor}
export OUT
mkdir -p results
grep -m1 "model name" /proc/cpuinfo > results/cpu.txt; grep -m1 "cpu family" /proc/cpuinfo >> results/cpu.txt; grep -m1 "^model[^ ]" /proc/cpuinfo >> results/cpu.txt
make -s check N="$N" > results/check.txt
make -s controls > results/controls.txt
make -s scalar-bench
cat results/check.txt results/controls.txt

#!/bin/sh
# Reproduces every figure of README.md: accuracy (N random inputs per
# distribution, default 2.5e6 -> 10e6 in all, about 2 min), the two controls,
# gcc/clang identity and the project-harness benchmark (SCALAR_RUNS
# processes).  Output in results/; binaries in OUT (default
# build/research/fold_fast).
set -e
cd "$(dirname "$0")"
N=${N:-2500000}
OUT=${OUT:-../../build/research/fold_fast}
export OUT
mkdir -p results
grep -m1 "model name" /proc/cpuinfo > results/cpu.txt; grep -m1 "cpu family" /proc/cpuinfo >> results/cpu.txt; grep -m1 "^model[^ ]" /proc/cpuinfo >> results/cpu.txt
make -s acc N="$N" > results/acc.txt
make -s controls > results/controls.txt
make -s compilers > results/compilers.txt
make -s scalar-bench
cat results/acc.txt results/controls.txt results/compilers.txt

#!/bin/sh
# Reproduces every figure of a double-interface prototype's README.md (the
# folder given, fold_fast or faithful_fold; ../double_proto.mk): accuracy (N
# random inputs per distribution, default 2.5e6 -> 10e6 in all), the
# controls, gcc/clang identity and the project-harness benchmark
# (SCALAR_RUNS processes).  Output in the folder's results/; binaries in OUT
# (default build/research/<folder>).
set -e
cd "$1"
N=${N:-2500000}
OUT=${OUT:-../../build/research/$(basename "$1")}
export OUT
mkdir -p results
grep -m1 "model name" /proc/cpuinfo > results/cpu.txt; grep -m1 "cpu family" /proc/cpuinfo >> results/cpu.txt; grep -m1 "^model[^ ]" /proc/cpuinfo >> results/cpu.txt
make -s acc N="$N" > results/acc.txt
make -s controls > results/controls.txt
make -s compilers > results/compilers.txt
make -s scalar-bench
cat results/acc.txt results/controls.txt results/compilers.txt

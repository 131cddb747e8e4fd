#!/bin/sh
# Reproduces every figure of README.md: accuracy (N inputs per random family,
# default 2e6 -> 12e6 in all, about 30 s), the three controls, gcc/clang
# identity, the error bound and the Cortex-M3 run.  Output in results/; binaries in OUT
# (default build/research/m3_small_table).
set -e
cd "$(dirname "$0")"
N=${N:-2000000}
OUT=${OUT:-../../build/research/m3_small_table}
export OUT
mkdir -p results
grep -m1 "model name" /proc/cpuinfo > results/cpu.txt; grep -m1 "cpu family" /proc/cpuinfo >> results/cpu.txt; grep -m1 "^model[^ ]" /proc/cpuinfo >> results/cpu.txt
arm-none-eabi-gcc --version | head -1 > results/toolchain.txt
qemu-system-arm --version | head -1 >> results/toolchain.txt
make -s acc N="$N" > results/acc.txt
make -s controls > results/controls.txt
make -s compilers > results/compilers.txt
make -s bound > results/bound.txt
make -s m3 > results/m3.txt
cat results/acc.txt results/controls.txt results/compilers.txt results/bound.txt results/m3.txt

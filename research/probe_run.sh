#!/bin/sh
# The run.sh of a probe folder (research/probe.mk): the check on N inputs
# (default 1e6), the control and the project-harness benchmark
# (SCALAR_RUNS processes), output in research/<folder>/results/, binaries
# in OUT (default build/research/<folder>).  Usage: probe_run.sh FOLDER
set -e
if [ $# -ne 1 ] || [ ! -f "$(dirname "$0")/$1/probe.h" ]; then
    echo "probe_run.sh: error: expected one probe folder under research/ (one with a probe.h), got '$*'" >&2
    exit 2
fi
cd "$(dirname "$0")/$1"
N=${N:-1000000}
OUT=${OUT:-../../build/research/$1}
export OUT
mkdir -p results
grep -m1 "model name" /proc/cpuinfo > results/cpu.txt; grep -m1 "cpu family" /proc/cpuinfo >> results/cpu.txt; grep -m1 "^model[^ ]" /proc/cpuinfo >> results/cpu.txt
make -s check N="$N" > results/check.txt
make -s controls > results/controls.txt
make -s scalar-bench
cat results/check.txt results/controls.txt

#!/bin/sh
# Reproduces every figure of README.md: accuracy (N random inputs per
# distribution, default 2.5e6 -> 10.6e6 in all, ~1-3 min), controls, compiler
# identity, error budget, 5 benchmark runs, instruction counts, the scalar
# forms in the project's bench harness (results/scalar_bench.txt).  Output in
# results/; binaries in OUT (the Makefile's default: build/research/fp_batch).
set -e
cd "$(dirname "$0")"
N=${N:-2500000}
OUT=${OUT:-../../build/research/fp_batch}
export OUT
mkdir -p results
make -s "$OUT/ct_taint" "$OUT/acc_bin" "$OUT/acc_lane" "$OUT/acc_split" "$OUT/acc_noflush" \
    "$OUT/acc_clang" "$OUT/bench_bin" "$OUT/bench_blendv"
grep -m1 "model name" /proc/cpuinfo > results/cpu.txt; grep -m1 "cpu family" /proc/cpuinfo >> results/cpu.txt; grep -m1 "^model[^ ]" /proc/cpuinfo >> results/cpu.txt
( time "$OUT/acc_bin" "$N" 1 ) > results/acc.txt 2>&1 || { cat results/acc.txt; echo "accuracy check FAILED"; exit 1; }
make -s controls > results/controls.txt 2>&1
make -s ct > results/ct.txt 2>&1
make -s compilers > results/compilers.txt 2>&1
python3 bound.py > results/bound.txt
for i in 1 2 3 4 5; do "$OUT/bench_bin" 3001 > results/bench$i.txt; done
for i in 1 2; do "$OUT/bench_blendv" 3001 | grep -E "avx2" > results/bench_blendv$i.txt; done
./icount.sh "$OUT/bench_bin" > results/icount.txt
make -s scalar-bench > /dev/null
cat results/cpu.txt; grep -E "MAX|BIT|INVAR|PASS|FAIL|real" results/acc.txt; cat results/controls.txt results/compilers.txt
tail -3 results/bound.txt
for i in 1 2 3 4 5; do echo "run $i:"; grep -E "proto/batch|facct|project, current|MET|missed" results/bench$i.txt; done
cat results/icount.txt
sed -n '1,20p' results/scalar_bench.txt

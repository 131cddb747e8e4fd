#!/bin/sh
# Static instruction counts of the main (full-vector) loop body of each array
# entry in bench_bin: the instructions between the loop head and its backward
# branch, as gcc -O2 compiled them.  Usage: ./icount.sh BINARY
BIN=${1:?usage: ./icount.sh BINARY}
for fn in proto_expm_avx512 proto_expm_avx2 loop_proto_scalar loop_int128 loop_dbl; do
  objdump -d --no-show-raw-insn "$BIN" | awk -v fn="$fn" '
    $0 ~ "<"fn">:$" {on=1; next}
    on && /^$/ {exit}
    on { n++; addr[n]=$1; sub(":","",addr[n]); line[n]=$0 }
    END {
      # the loop: the first backward conditional jump; body = its target .. itself
      for (i=1;i<=n;i++) if (line[i] ~ /\tj(ae|b|ne|be|a|l|g|le|ge) / ) {
        split(line[i], f, " "); tgt=f[3];
        for (k=1;k<i;k++) if (addr[k]==tgt) {
          cnt=0; vec=0; mov=0; perm=0; fp=0;
          for (m=k;m<=i;m++) { cnt++;
            if (line[m] ~ /v(mov|broadcast)/) mov++;
            if (line[m] ~ /vperm|vpshufd|vblendv/) perm++;
            if (line[m] ~ /vf(n)?m(add|sub)|vmul[ps]d|vadd[ps]d|vsub[ps]d/) fp++;
          }
          printf "%-20s loop body %3d instructions (%d FP arith, %d permute/shuffle/blend, %d moves/broadcasts)\n", fn, cnt, fp, perm, mov;
          exit
        }
      }
    }'
done

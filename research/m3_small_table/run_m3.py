"""The prototype on the emulated Cortex-M3, with the repository's own M3
tools (m3/: toolchain, trace, disassembly, binary scan; docs/m3.md):
instructions per call of m3st_call from a -singlestep trace, whether that
count is the same on every traced input, the worst-case cycles of the
TRM model, bit-identity of the M3 outputs with the host build's, and the
scan (long multiplies, divisions, conditional branches, calls).  Exit
status 1 if the outputs differ, the count varies, or the scan finds a
long multiply, a division, a conditional branch or a call.

Usage (from the repository root):
    python3 research/m3_small_table/run_m3.py OUT_DIR [--arm-define NAME]
--arm-define builds the M3 side only with -DNAME (a control: with one of
proto.h's CONTROL_* macros the outputs must differ from the host's).
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from m3 import disasm, scan, timing, trace          # noqa: E402
from m3.toolchain import M3, M3Error, compile_arm, compile_host, run_host, run_qemu   # noqa: E402

ENTRIES = {"m3st_call": "_domain_bits, Falcon's contract", "m3st_call_full": "_fpr_expm_p63, the edge rules"}
REFERENCE = "facct_ref_expm_p63"      # runtime/facct_ref.c: facct_portable of `make m3`
RUNTIME = HERE.parents[1] / "runtime"


def main(argv: list[str]) -> int:
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--arm-define"):
        print("usage: run_m3.py OUT_DIR [--arm-define NAME]", file=sys.stderr)
        return 2
    out = Path(argv[1])
    arm_defines = argv[3:]
    src = [HERE / "m3prog.c", RUNTIME / "facct_ref.c"]
    vec = compile_arm(src, out / "m3st_vec.elf", arm_defines, [HERE, RUNTIME])
    host = compile_host(src, out / "m3st_vec.host", [], [HERE, RUNTIME])
    bench = compile_arm(src, out / "m3st_trace.elf", ["M3ST_TRACE"], [HERE, RUNTIME])
    m3_out, host_out = run_qemu(vec), run_host(host)
    lines = m3_out.output.splitlines()
    identical = m3_out.returncode == 0 and host_out.returncode == 0 and m3_out.output == host_out.output
    print(f"bit-identical to the host: {identical} ({len(lines)} outputs, {len(set(lines))} distinct)")
    insns = disasm.disassemble(bench)
    syms = disasm.symbols(bench)
    entries = {e: syms[e][0] for e in (*ENTRIES, REFERENCE)}
    per = trace.per_call(trace.trace_pcs(bench), insns, entries, timing.for_core(M3))
    ref = per[REFERENCE].counts
    print(f"{REFERENCE} (facct_portable): instructions per call min {min(ref)} max {max(ref)}")
    ok = identical and len(set(lines)) > len(lines) // 2
    for entry, what in ENTRIES.items():
        stats = per[entry]
        hist = stats.per_call_histogram()
        mul = sum(v for k, v in hist.items() if k in ("mul", "mla"))
        sc = scan.scan(insns, entry)
        calls = sum(sc.other_calls.values()) + sc.float_calls + sc.indirect_calls
        print(f"{entry} ({what}): instructions per call min {min(stats.counts)} max {max(stats.counts)} "
              f"over {len(stats.counts)} calls; worst-case cycles (TRM model) {max(stats.cycles)}; MUL/MLA {mul}; "
              f"long multiplies {sc.long_mul}, divisions {sc.div}, conditional branches {sc.cond_branches}, "
              f"IT blocks {sc.it_blocks}, calls {calls}; code bytes {syms[entry][1]}; "
              f"{max(stats.counts) / max(ref):.3f}x facct_portable")
        ok = (ok and min(stats.counts) == max(stats.counts) and sc.long_mul == 0 and sc.div == 0
              and sc.cond_branches == 0 and calls == 0)
    print(f"table bytes {disasm.symbols(bench, kinds='dD')['m3st_table'][1]}")
    print("checks pass" if ok else "CHECKS FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except M3Error as e:
        print(f"run_m3.py: {e}", file=sys.stderr)
        sys.exit(2)

"""`make m3` / `make m4` (and their -quick runs): for the references
(facct_portable; facct_m4 on the M4) and every kernel, check core-versus-host
bit identity, count executed instructions per call (trace, cross-checked by
SysTick under -icount), model worst-case cycles, scan the binary, measure
the error distribution of the headline entry; write the JSON report and
print a table.

Usage: python3 -m m3.report --kernels "k1 k2" [--core m3|m4] [--gen-dir generated]
           [--out build/m3.json] [--build build/m3] [--quick]
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

from toolkit import provenance
from toolkit import table as toolkit_table
from toolkit.files import write_text_atomic

from . import disasm, errdist, scan, systick, timing, trace, vectors
from .build import (FACCT_M4, PORTABLE, REFERENCES, Target, build_bench, build_vec, build_vec_core,
                    load_kernel, reference)
from .toolchain import CORES, Core, M3Error, run_host, run_qemu

# The hand-written functions of known.S and their counts (from the source).
KNOWN_COUNTS = {"m3_known": 62, "m3_null": 1}
TRACE_CALLS = 8          # bench calls per size in the traced run (8 + 16)
# facct_portable's error (units of 2^-63): measured in FACCT.md, not proven.
PORTABLE_ERR_2P63 = 3562.6
BUDGET_LOG2 = -43        # Falcon's accuracy budget (FACCT.md)
SYSTICK_CALLS = 1000     # bench calls per size in the SysTick run
FULL = {"rows": None, "nrand": 3000}
QUICK = {"rows": 64, "nrand": 256}


def compare_outputs(m3_out: str, host_out: str, expected_lines: int) -> tuple[bool, str]:
    """Bit identity of the two programs' outputs.  Also fails when the output
    is too short to mean anything (a program that printed nothing on both
    sides would otherwise 'match')."""
    a, b = m3_out.splitlines(), host_out.splitlines()
    if len(a) != expected_lines + 1 or a[-1] != f"end {expected_lines}":
        return False, f"M3 output has {len(a)} lines, expected {expected_lines} + end"
    if len(set(a)) < expected_lines // 2:
        return False, "M3 output is mostly repeated lines"
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return False, f"line {i + 1} differs: m3 '{x}' host '{y}'"
    if len(a) != len(b):
        return False, f"host printed {len(b)} lines, M3 {len(a)}"
    return True, "identical"


def check_portable_oracle(out: str, rows: list[vectors.Row]) -> str | None:
    """A reference's fpr output (facct_portable, facct_m4) must equal the
    vectors file's facct_int."""
    for i, (line, row) in enumerate(zip(out.splitlines(), rows)):
        got = int(line.split()[2], 16)
        if got != row.facct_int:
            return f"row {i + 1}: {got:016x} != facct_int {row.facct_int:016x}"
    return None


def _fn_record(st: trace.CallStats, tick: float | None, sc: scan.ScanResult) -> dict[str, object]:
    lo, hi = min(st.counts), max(st.counts)
    mean = sum(st.counts) / len(st.counts)
    return {
        "instructions_per_call": lo if lo == hi else round(mean, 2),
        "instructions_min": lo, "instructions_max": hi,
        "instructions_systick": None if tick is None else round(tick, 2),
        "cycles_model_worst": max(st.cycles),
        "calls_traced": len(st.counts),
        "histogram": st.per_call_histogram(),
        "scan": sc.as_dict(),
    }


def error_record(t: Target) -> dict[str, object]:
    """The target's error bound as log2 of an absolute error, and whether it
    meets Falcon's 2^-43 budget: the proven bound of the headline entry from
    the sidecar (the Falcon adaptors' for 64-bit kernels, _eval for 32-bit ones), the
    reference's measured figure for facct_portable."""
    if t.kernel is None:
        # facct_m4 returns the reference's bits (checked on the vectors).
        log2_err, kind = math.log2(PORTABLE_ERR_2P63) - 63, "measured (FACCT.md)"
    else:
        bound = t.kernel.headline_bound_log2
        if bound is None:
            raise M3Error(f"kernel '{t.name}': its sidecar states no proven bound")
        log2_err, kind = bound, "proven"
    return {"error_log2": round(log2_err, 2), "error_kind": kind,
            "error_bound_2p63": round(2.0 ** (log2_err + 63), 3),
            "budget_2p43": "ok" if log2_err <= BUDGET_LOG2 else "FAIL"}


def error_distribution(t: Target, out: Path, err_dirs: dict[str, Path],
                       sets: dict[str, list[vectors.Row]], core: Core) -> dict[str, object]:
    """Mean and max error (units of 2^-63) of the headline entry on the
    core, for each input set of m3/errdist.py; None for 32-bit kernels
    (their eval is not ccs exp(-x) 2^63)."""
    if t.word_bits != 64:
        return {f"error_{name}_{k}": None for name in sets for k in ("mean", "max")}
    # kprog.c's vector line: eval expm fpr [domain]; the headline is the
    # references' fpr and the kernels' domain column.
    column = {"fpr": 2, "domain": 3}[t.main_label()]
    rec: dict[str, object] = {}
    for name, rows in sets.items():
        res = run_qemu(build_vec_core(t, out, err_dirs[name], f"err_{name}", core), core=core)
        if res.returncode != 0:
            raise M3Error(f"{t.name}: error run ({name}) exited {res.returncode}")
        st = errdist.stats(res.output, column, rows)
        rec[f"error_{name}_mean"], rec[f"error_{name}_max"] = st["mean"], st["max"]
    return rec


def measure(t: Target, out: Path, vec_dir: Path, rows: list[vectors.Row],
            nrand: int, model: timing.Model, core: Core, err_dirs: dict[str, Path],
            sets: dict[str, list[vectors.Row]]) -> dict[str, object]:
    elf, exe = build_vec(t, out, vec_dir, nrand, core)
    m3 = run_qemu(elf, core=core)
    host = run_host(exe)
    if m3.returncode != 0 or host.returncode != 0:
        raise M3Error(f"{t.name}: vector run exited {m3.returncode} ({core.name}), {host.returncode} (host)")
    same, why = compare_outputs(m3.output, host.output, len(rows) + nrand)
    if t.portable:
        bad = check_portable_oracle(m3.output, rows)
        if bad:
            same, why = False, f"{core.name} output disagrees with facct_vectors.tsv: {bad}"

    traced = build_bench(t, out, TRACE_CALLS, "trace", core)
    insns = disasm.disassemble(traced)
    syms = disasm.symbols(traced)
    entries = {**t.entries(), **{k: k for k in KNOWN_COUNTS}}
    missing = [s for s in entries.values() if s not in syms]
    if missing:
        raise M3Error(f"{t.name}: symbols missing from the ELF: {', '.join(missing)}")
    stats = trace.per_call(trace.trace_pcs(traced, core=core), insns,
                           {lab: syms[s][0] for lab, s in entries.items()}, model)
    for sym, want in KNOWN_COUNTS.items():
        got = set(stats[sym].counts)
        if got != {want}:
            raise M3Error(f"trace counter broken: {sym} counted {sorted(got)}, expected {want}")

    ticks = systick.measure(build_bench(t, out, SYSTICK_CALLS, "systick", core), core)
    if abs(ticks.get("known32", -1.0) - KNOWN_COUNTS["m3_known"]) > 0.5:
        raise M3Error(f"SysTick counter broken: m3_known measured {ticks.get('known32')}")

    fns = {lab: _fn_record(stats[lab], ticks.get(lab), scan.scan(insns, sym))
           for lab, sym in t.entries().items()}
    main = fns[t.main_label()]
    sc = main["scan"]
    assert isinstance(sc, dict)
    return {
        "name": t.name, "word_bits": t.word_bits,
        "description": None if t.kernel is None else t.kernel.sidecar.get("description"),
        "table_bytes": None if t.kernel is None else t.kernel.table_bytes,
        "code_bytes": code_bytes(syms, t.entries()[t.main_label()]),
        "entry": t.entries()[t.main_label()],
        "instructions_per_call": main["instructions_per_call"],
        "instructions_systick": main["instructions_systick"],
        "constant_instruction_count": all(
            f["instructions_min"] == f["instructions_max"] for f in fns.values()),
        "cycles_model_worst": main["cycles_model_worst"],
        "long_mul": sc["long_mul"], "div": sc["div"],
        "cond_branches": sc["cond_branches"], "float_calls": sc["float_calls"],
        "fp_insns": sc["fp_insns"], "indexed_mem": sc["indexed_mem"],
        "other_calls": sc["other_calls"],
        "bit_identical": same, "bit_identical_detail": why,
        "vectors_compared": len(rows) + nrand,
        "histogram": main["histogram"],
        "functions": fns,
        **error_record(t),
        **error_distribution(t, out, err_dirs, sets, core),
    }


def code_bytes(syms: dict[str, tuple[int, int]], entry: str) -> int:
    """Bytes of the entry's function (its symbol size): with the kernel
    inlined into the flatten wrapper, the whole kernel; for a reference,
    only its entry function, not the callees it reaches (see the scan's
    function list)."""
    return syms[entry][1]


def table(records: list[dict[str, object]]) -> str:
    """The terminal table of a run, one row per target."""
    keys = ("name", "instructions_per_call", "instructions_systick", "cycles_model_worst",
            "long_mul", "div", "cond_branches", "float_calls", "bit_identical", "table_bytes",
            "code_bytes", "error_log2", "error_bound_2p63", "error_uniform_mean", "error_uniform_max",
            "error_small_mean", "error_small_max", "budget_2p43")
    header = ("kernel", "insn/call", "systick", "cyc.worst", "lmul", "div", "cbr", "fcall",
              "bit-identical", "table B", "code B", "log2 err", "bound", "unif.mean", "unif.max",
              "small mean", "small max", "2^-43")
    return toolkit_table.text(header, [[r[k] for k in keys] for r in records])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", default="", help="space-separated kernel names")
    ap.add_argument("--core", choices=sorted(CORES), default="m3", help="the emulated core")
    ap.add_argument("--gen-dir", type=Path, default=Path("generated"))
    ap.add_argument("--out", type=Path, default=Path("build/m3.json"))
    ap.add_argument("--build", type=Path, default=Path("build/m3"))
    ap.add_argument("--vectors", type=Path, default=vectors.DEFAULT_TSV)
    ap.add_argument("--quick", action="store_true", help="64 file vectors + 256 random ones instead of all + 3000")
    args = ap.parse_args(argv)
    try:
        size = QUICK if args.quick else FULL
        rows = vectors.load(args.vectors, size["rows"])
        core = CORES[args.core]
        names = args.kernels.split()
        loaded = [load_kernel(n, args.gen_dir) for n in names if n not in REFERENCES]
        for t in loaded:
            if t.kernel is not None and not t.kernel.for_32bit_cores:
                print(f"{core.name}: {t.name}: skipped (its C needs a 64-bit host with a binary64 unit)",
                      file=sys.stderr)
        # The baseline first: the reference as the core's own build runs it.
        refs = [reference(FACCT_M4), reference(PORTABLE)] if core.name == "m4" else [reference(PORTABLE)]
        targets = refs + [t for t in loaded if t.kernel is None or t.kernel.for_32bit_cores]
        vec_dir = args.build / ("quick" if args.quick else "full")
        vectors.write_header(rows, vec_dir / "vectors.h")
        sets = errdist.inputs()
        err_dirs = {name: args.build / f"err_{name}" for name in sets}
        for name, set_rows in sets.items():
            errdist.write_set(set_rows, err_dirs[name])
        model = timing.for_core(core)
        records = [measure(t, vec_dir, vec_dir, rows, size["nrand"], model, core, err_dirs, sets)
                   for t in targets]
    except M3Error as e:
        print(f"{args.core}: error: {e}", file=sys.stderr)
        return 2
    write_text_atomic(args.out, json.dumps({
        "measured_on": provenance.measured_on(),
        "kernels": records,
        "method": {"core": core.name, "machine": core.machine, "cflags": " ".join(core.cflags),
                   "count": "QEMU -singlestep -d exec,nochain trace, entry to return",
                   "cross_check": "SysTick under -icount shift=0, N vs 2N calls minus null",
                   "cycles": f"m3/{core.timing_table} worst case, P=3", "quick": args.quick,
                   "errors": f"m3/errdist.py: {errdist.PER_SET} inputs per set "
                             f"({', '.join(errdist.SETS)}), units of 2^-63, output minus exact"},
    }, indent=1) + "\n")
    print(table(records))
    print(f"wrote {args.out}")
    return 0 if all(r["bit_identical"] for r in records) else 1


if __name__ == "__main__":
    sys.exit(main())

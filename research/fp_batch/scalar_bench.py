"""The prototype's scalar forms timed in the project's own bench harness.

Usage (from the repository root, with it on PYTHONPATH; the Makefile rule
`make -C research/fp_batch scalar-bench` runs both steps):
  python3 research/fp_batch/scalar_bench.py registry GENERATED OUT.c
      write a registry for bench/harness.c: the project's rows for the
      kernels falcon_x86 and falcon_x86_fast (bench/gen_registry.py's render,
      unchanged: every reference, `<k>` and `<k>/domain`), plus one row per
      scalar form of the prototype (proto.h), defined with the same
      BENCH_DEFINE loops (bench/loops.h): chain = latency, batch =
      throughput, per call from double inputs.
  python3 research/fp_batch/scalar_bench.py measure BIN RUNS ROUNDS CC CFLAGS OUT.txt OUT.json
      run `BIN time` RUNS times (bench/run.py's one_run, summarise and
      ratios: the `make bench` protocol), count instructions per call with
      callgrind (bench/callgrind.py; the AVX-512 rows zmm and ymm, which
      valgrind cannot run, by the static count of their loop,
      bench/static_count.py), and write the
      table and issue 17's target ratios.

The project's bench (mk/bench.mk, build/bench/registry.c) is not touched:
this registry and binary live in the prototype's OUT folder.
"""
from __future__ import annotations

import json
import re
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import callgrind, gen_registry, machine, static_count
from bench import run as bench_run
from toolkit import table as toolkit_table

KERNELS = ("falcon_x86", "falcon_x86_fast")

# The prototype's rows: (row name, C function, target attribute, CPU features).
# proto_scalar_mem is the memory-table form (not constant time), kept as the
# speed reference of the table read the constant-time forms replace.
PROTO_ROWS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("proto_scalar_mem", "proto_expm_scalar", "avx2,fma", ("avx2", "fma")),
    ("proto_scalar_ct_perm", "proto_expm_scalar_perm", "avx2,fma", ("avx2", "fma")),
    ("proto_scalar_ct_scan", "proto_expm_scalar_scan", "avx2,fma", ("avx2", "fma")),
    ("proto_scalar_ct_zmm", "proto_expm_scalar_zmm", "avx512f,avx2,fma", ("avx512f", "avx2", "fma")),
    ("proto_scalar_ct_ymm", "proto_expm_scalar_ymm", "avx512f,avx512vl,avx2,fma", ("avx512f", "avx512vl", "avx2", "fma")),
)


@dataclass(frozen=True)
class Spec:
    """One prototype's rows: its folder (for the comment), the header the
    registry includes, the attribute macro it defines first, the rows, those
    valgrind cannot run and those whose target ratios are reported."""

    folder: str
    header_lines: tuple[str, ...]
    rows: tuple[tuple[str, str, str, tuple[str, ...]], ...]
    uncountable: tuple[str, ...]
    target_rows: tuple[str, ...]
    target_kinds: tuple[str, ...] = ("faithful", "fast")   # which of TARGETS apply to target_rows

    @property
    def shown(self) -> tuple[str, ...]:
        return ("null", "facct_int128", "facct_avx2", "falcon_x86", "falcon_x86/domain",
                "falcon_x86_fast", "falcon_x86_fast/domain", *(r[0] for r in self.rows))


FP_BATCH = Spec(
    "research/fp_batch",
    ("/* The memory-table form is made inlinable like every other variant",
     " * (proto.h declares it noinline for its own tools). */",
     '#define PROTO_SATTR __attribute__((target("fma"), always_inline)) inline', '#include "proto.h"'),
    PROTO_ROWS, ("proto_scalar_ct_zmm", "proto_scalar_ct_ymm"),   # AVX-512: valgrind cannot run them
    tuple(r[0] for r in PROTO_ROWS if "_ct_" in r[0]))

ARRAY_HEAD = "\nconst struct bench_variant bench_variants[] = {\n"

# Issue 17's targets, as (label, row measure, reference, limit): the row's
# figure divided by the reference's must be <= limit.
TARGETS: tuple[tuple[str, str, str, float], ...] = (
    ("faithful: instructions <= 0.9x facct_int128", "instr", "facct_int128", 0.9),
    ("faithful: batch <= 0.75x facct_int128", "batch", "facct_int128", 0.75),
    ("faithful: chain <= 0.5x facct_int128", "chain", "facct_int128", 0.5),
    ("faithful: chain <= 0.75x facct_avx2", "chain", "facct_avx2", 0.75),
    ("fast: instructions <= 0.6x facct_int128", "instr", "facct_int128", 0.6),
    ("fast: batch <= 0.6x facct_int128", "batch", "facct_int128", 0.6),
)


class ScalarBenchError(Exception):
    """A registry that cannot be spliced, or a row missing from a run."""


def chain_symbol(row: str) -> str:
    return f"bench_chain_p_{row}"


def registry(generated: Path, spec: Spec = FP_BATCH) -> str:
    """The project's registry for KERNELS with the prototype's rows added."""
    text = gen_registry.render([gen_registry.load_kernel(generated, k) for k in KERNELS])
    if text.count(ARRAY_HEAD) != 1 or not re.search(r"\n};\nconst size_t bench_variant_count = \d+;\n$", text):
        raise ScalarBenchError("bench/gen_registry.py's output no longer has the expected variants array")
    head, rows = text.split(ARRAY_HEAD)
    rows = rows[:rows.index("};\n")]
    defs = [f"/* The research prototype's scalar forms ({spec.folder}/), added by",
            f" * {spec.folder}/scalar_bench.py. */", *spec.header_lines]
    extra = []
    for name, fn, target, features in spec.rows:
        check = " && ".join(f'__builtin_cpu_supports("{f}")' for f in features)
        defs.append(f"static int bench_has_{name}(void) {{ return {check}; }}")
        defs.append(f'BENCH_DEFINE(p_{name}, {fn}, __attribute__((target("{target}"))))')
        extra.append(f'    {{"{name}", "research", bench_has_{name}, bench_chain_p_{name}, bench_batch_p_{name}}},\n')
    n = rows.count("\n") + len(extra)
    return (head + "\n" + "\n".join(defs) + "\n" + ARRAY_HEAD + rows + "".join(extra) + "};\n"
            + f"const size_t bench_variant_count = {n};\n")


def per_run_ratio(runs: list[dict[str, Any]], row: str, ref: str, mode: str) -> list[float]:
    """Each run's median(row) / median(ref) for one mode: the spread of a ratio across processes."""
    names = [v["name"] for v in runs[0]["variants"]]
    i, k = names.index(row), names.index(ref)
    return [statistics.median(r["variants"][i][mode]) / statistics.median(r["variants"][k][mode])
            for r in runs]


def per_round_ratio(runs: list[dict[str, Any]], row: str, ref: str, mode: str) -> float:
    """The median over every round of every run of row / ref, both sampled in
    the same round (a few milliseconds apart): the estimate least moved by the
    neighbours' load changing between rounds (the TSC factor cancels too)."""
    names = [v["name"] for v in runs[0]["variants"]]
    i, k = names.index(row), names.index(ref)
    return statistics.median(a / b for r in runs
                             for a, b in zip(r["variants"][i][mode], r["variants"][k][mode]))


def measure(binary: Path, runs_n: int, rounds: int, cc: str, cflags: str,
            spec: Spec = FP_BATCH) -> dict[str, Any]:
    runs = []
    for seed in range(1, runs_n + 1):
        print(f"\rrun {seed}/{runs_n}", end="", file=sys.stderr, flush=True)
        runs.append(bench_run.one_run(binary, seed, rounds, 1000, 200))
    print(" -- counting instructions with callgrind", file=sys.stderr)
    calib, results = bench_run.summarise(runs)
    by_name = {r["name"]: r for r in results}
    missing = [n for n in spec.shown if n not in by_name]
    if missing:
        raise ScalarBenchError(f"rows not run on this CPU: {' '.join(missing)}")
    results = [by_name[n] for n in spec.shown]
    countable = [n for n in spec.shown if n not in spec.uncountable]
    counts = callgrind.count_all(binary, countable, jobs=1)
    for r in results:
        if r["name"] in counts:
            r["instructions_per_call"] = round(counts[r["name"]], 2)
            r["instructions_source"] = "callgrind"
        else:
            r["instructions_per_call"] = static_count.loop_instructions(binary, chain_symbol(r["name"]))
            r["instructions_source"] = "static: objdump of the chain loop's body (valgrind has no AVX-512)"
        if r["name"] in {row[0] for row in spec.rows}:
            r["static_loop_instructions"] = static_count.loop_instructions(binary, chain_symbol(r["name"]))
    bench_run.add_ratios(results)
    targets = []
    for label, mode, ref, limit in TARGETS:
        own = spec.target_rows if label.startswith(spec.target_kinds) else ()
        for row in (*own, "falcon_x86/domain", "falcon_x86_fast/domain"):
            key = "instructions_per_call" if mode == "instr" else f"{mode}_cycles_median"
            value = by_name[row][key] / by_name[ref][key]
            spread = per_run_ratio(runs, row, ref, mode) if mode != "instr" else [value]
            rnd = per_round_ratio(runs, row, ref, mode) if mode != "instr" else value
            # The fastest samples (P5) of each: the least disturbed by the neighbours.
            p5 = by_name[row][f"{mode}_cycles_p5"] / by_name[ref][f"{mode}_cycles_p5"] if mode != "instr" else value
            targets.append({"target": label, "row": row, "ratio": round(value, 4), "limit": limit,
                            "per_run_min": round(min(spread), 4), "per_run_max": round(max(spread), 4),
                            "per_round_median": round(rnd, 4), "p5_ratio": round(p5, 4), "met": value <= limit})
    return {"runs": runs_n, "rounds_per_run": rounds, "calls_per_sample": 1000, "calibration": calib,
            "machine": machine.describe(cc, cflags), "results": results, "targets": targets}


def report(doc: dict[str, Any]) -> str:
    m = doc["machine"]
    lines = [f"CPU: {m['cpu_model']}, family/model/stepping {m['cpu_family_model_stepping']}, "
             f"{m['logical_cpus']} logical CPUs (shared), hypervisor {m['hypervisor']}",
             f"compiler: {m['compiler']}; flags: {m['cflags']}",
             f"{doc['runs']} runs x {doc['rounds_per_run']} rounds x {doc['calls_per_sample']} calls "
             f"(bench/harness.c, bench/run.py protocol); "
             f"{doc['calibration']['cycles_per_tick_median']:.4f} core cycles per TSC tick; cycles per call", ""]
    header = ("variant", "chain", "[P5 - P95]", "batch", "[P5 - P95]", "instr", "static loop",
              "ch/int128", "ch/avx2", "ba/int128", "in/int128")
    int128 = next(r for r in doc["results"] if r["name"] == "facct_int128")
    avx2 = next(r for r in doc["results"] if r["name"] == "facct_avx2")
    rows = []
    for r in doc["results"]:
        rows.append([r["name"], f"{r['chain_cycles_median']:.1f}",
                     f"[{r['chain_cycles_p5']:.1f} - {r['chain_cycles_p95']:.1f}]",
                     f"{r['batch_cycles_median']:.1f}",
                     f"[{r['batch_cycles_p5']:.1f} - {r['batch_cycles_p95']:.1f}]",
                     f"{r['instructions_per_call']:g}" + ("*" if r["instructions_source"] != "callgrind" else ""),
                     r.get("static_loop_instructions"),
                     f"{r['chain_cycles_median'] / int128['chain_cycles_median']:.3f}",
                     f"{r['chain_cycles_median'] / avx2['chain_cycles_median']:.3f}",
                     f"{r['batch_cycles_median'] / int128['batch_cycles_median']:.3f}",
                     f"{r['instructions_per_call'] / int128['instructions_per_call']:.3f}"])
    lines.append(toolkit_table.text(header, rows, align="l" + "r" * 10))
    lines += ["", "instr: callgrind instructions per call of the chain loop (loop overhead included, as in "
              "make bench; the null row is that overhead); * = static count (valgrind has no AVX-512).",
              "static loop: instructions of the chain loop's body in the binary (objdump).", "",
              "Issue 17 targets: ratio = row / reference of the pooled medians (make bench's figure, which decides "
              "met); per run = [min - max] of each process's ratio; per round = median of the ratios of samples "
              "taken in the same round; P5 = ratio of the fastest 5 % samples (the least disturbed):"]
    trows = [[t["target"], t["row"], f"{t['ratio']:.3f}", f"[{t['per_run_min']:.3f} - {t['per_run_max']:.3f}]",
              f"{t['per_round_median']:.3f}", f"{t['p5_ratio']:.3f}", f"{t['limit']:g}",
              "met" if t["met"] else "NOT met"] for t in doc["targets"]]
    lines.append(toolkit_table.text(("target", "row", "ratio", "per run", "per round", "P5", "limit", ""), trows,
                                    align="llrrrrrl"))
    return "\n".join(lines) + "\n"


def main(argv: list[str], spec: Spec = FP_BATCH) -> int:
    try:
        if len(argv) == 4 and argv[1] == "registry":
            out = Path(argv[3])
            text = registry(Path(argv[2]), spec)
            if not out.exists() or out.read_text() != text:
                out.write_text(text)
            return 0
        if len(argv) == 9 and argv[1] == "measure":
            doc = measure(Path(argv[2]), int(argv[3]), int(argv[4]), argv[5], argv[6], spec)
            text = report(doc)
            Path(argv[7]).write_text(text)
            Path(argv[8]).write_text(json.dumps(doc, indent=2) + "\n")
            print(text, end="")
            return 0
    except (ScalarBenchError, gen_registry.RegistryError, callgrind.CallgrindError,
            static_count.StaticCountError, RuntimeError, OSError, ValueError) as exc:
        print(f"scalar_bench: {exc}", file=sys.stderr)
        return 1
    print("usage: scalar_bench.py registry GENERATED OUT.c | measure BIN RUNS ROUNDS CC CFLAGS OUT.txt OUT.json",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

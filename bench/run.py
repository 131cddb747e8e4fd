"""Run the x86-64 benchmark end to end and write its outputs.

Runs `bench_main time` as RUNS independent processes (each with its own
seed: its own inputs, its own shuffles, its own warm-up and calibration),
converts every sample from TSC ticks to core cycles with that process's own
calibration, pools the samples of all runs, applies P5-P95 filtering, counts
instructions per call with callgrind, then prints a table and writes
bench.json and the SVG.  docs/bench.md describes the protocol.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

import kfolder
from bench import callgrind, gen_registry, machine, plot, static_count
from bench.stats import filtered_summary, percentile
from toolkit import provenance
from toolkit import table as toolkit_table
from toolkit.files import write_text_atomic

# Maximum error of the references in units of 2^-63, as measured against a
# 256-bit exact computation and published in FACCT.md.
REFERENCE_ERRORS: dict[str, float] = {
    "facct_portable": 3562.6,
    "facct_int128": 3562.6,
    "facct_double": 4625.6,
    "facct_avx2": 5143.7,
    "facct_int128_x4": 3562.6,     # every lane is facct_int128 bit for bit
    "facct_avx2_x4": 4625.6,       # every lane is facct_double bit for bit (2^-50.8)
}
RATIO_TO = ("facct_int128", "facct_avx2")


def one_run(binary: Path, seed: int, rounds: int, calls: int, warmup_ms: int) -> dict[str, Any]:
    out = subprocess.run([str(binary), "time", str(seed), str(rounds), str(calls), str(warmup_ms)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"bench_main time failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def kernel_errors(generated: Path, names: list[str]) -> dict[str, tuple[float, str]]:
    """Per kernel: (proven bound in units of 2^-63, where it comes from),
    from its kernel folder: the bound of the Falcon adaptors the bench calls
    (the same as _expm_p63's except for kernels that take ccs by its
    significand).  Kernels whose folder states no bound are left out."""
    found: dict[str, tuple[float, str]] = {}
    for name in names:
        bound = kfolder.load(generated, name).fpr_bound_2p63
        if bound is not None:
            found[name] = (bound, "proven bound, kernel folder")
    return found


def calibration(runs: list[dict[str, Any]]) -> tuple[dict[str, Any], list[float]]:
    """The calibration summary of RUNS harness outputs, and each run's
    ratio (core cycles per TSC tick) to convert its samples with."""
    # Primary: the imul chain.  On this shared VM the add chain's median
    # reads a few percent low when the sibling hyperthread is busy (a
    # dependent add can lose its issue slot to the other thread), while
    # the imul chain, on its own multiplier port with a 3-cycle latency,
    # stays at the top of the add chain's range; docs/bench.md has the data.
    ratios = [statistics.median(r["calibration"]["imul"]) for r in runs]
    adds = [statistics.median(r["calibration"]["add"]) for r in runs]
    summary = {
        "method": "per run: median over rounds of a 10^5-cycle chain of dependent 64-bit "
                  "imul (3 cycles each); a chain of dependent adds (1 cycle) as the check",
        "cycles_per_tick_median": statistics.median(ratios),
        "cycles_per_tick_p5": percentile(ratios, 5.0),
        "cycles_per_tick_p95": percentile(ratios, 95.0),
        "add_cycles_per_tick_median": statistics.median(adds),
        "add_cycles_per_tick_p95": percentile(adds, 95.0),
        "add_vs_imul": statistics.median(adds) / statistics.median(ratios),
    }
    return summary, ratios


def summarise(runs: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Calibration summary and per-variant results (cycles per call)."""
    summary, ratios = calibration(runs)
    results = []
    for i, v in enumerate(runs[0]["variants"]):
        if not v["available"]:
            continue
        chain = [t * ratio for r, ratio in zip(runs, ratios) for t in r["variants"][i]["chain"]]
        batch = [t * ratio for r, ratio in zip(runs, ratios) for t in r["variants"][i]["batch"]]
        c, b = filtered_summary(chain), filtered_summary(batch)
        results.append({
            "name": v["name"], "kind": v["kind"],
            "chain_cycles_median": c.median, "chain_cycles_p5": c.p5, "chain_cycles_p95": c.p95,
            "batch_cycles_median": b.median, "batch_cycles_p5": b.p5, "batch_cycles_p95": b.p95,
            "samples_per_mode": c.total, "samples_kept": c.kept,
        })
    return summary, results


def add_ratios(results: list[dict[str, Any]]) -> None:
    """Speed-up of each row over each RATIO_TO reference: reference cycles
    divided by row cycles (> 1 means faster than the reference)."""
    by_name = {r["name"]: r for r in results}
    for ref in RATIO_TO:
        if ref not in by_name:
            continue
        for r in results:
            for mode in ("chain", "batch"):
                r[f"{mode}_speedup_vs_{ref}"] = (by_name[ref][f"{mode}_cycles_median"]
                                                 / r[f"{mode}_cycles_median"])


def table(results: list[dict[str, Any]]) -> str:
    """The terminal table: cycles with their P5-P95 ranges, instructions,
    speed-ups over the references and the error figure of every row."""
    header = ("variant", "chain med", "[P5 - P95]", "batch med", "[P5 - P95]", "instr",
              "ch x128", "ch xavx", "ba x128", "ba xavx", "error (2^-63 units)")

    def ratio(r: dict[str, Any], key: str) -> str | None:
        return f"{r[key]:.2f}" if key in r else None

    rows = []
    for r in results:
        err = r.get("error_2p63")
        rows.append([
            r["name"], f"{r['chain_cycles_median']:.1f}",
            f"[{r['chain_cycles_p5']:.1f} - {r['chain_cycles_p95']:.1f}]",
            f"{r['batch_cycles_median']:.1f}",
            f"[{r['batch_cycles_p5']:.1f} - {r['batch_cycles_p95']:.1f}]",
            f"{r['instructions_per_call']:.1f}" if r["instructions_per_call"] is not None else "n/a",
            ratio(r, "chain_speedup_vs_facct_int128"), ratio(r, "chain_speedup_vs_facct_avx2"),
            ratio(r, "batch_speedup_vs_facct_int128"), ratio(r, "batch_speedup_vs_facct_avx2"),
            f"{err:.4g} ({r['error_source']})" if err is not None else None])
    return toolkit_table.text(header, rows, align="l" + "r" * 9 + "l")


def plot_points(results: list[dict[str, Any]]) -> tuple[list[plot.Point], list[str]]:
    points, missing = [], []
    for r in results:
        if r["kind"] == "baseline":
            continue
        if r.get("error_2p63") is None:
            missing.append(r["name"])
            continue
        points.append(plot.Point(r["name"], r["chain_cycles_median"], r["chain_cycles_p5"],
                                 r["chain_cycles_p95"], r["error_2p63"], r["error_source"]))
    notes = [f"no error figure: {n}" for n in missing] + ["(no proven bound in its kernel folder)"] * bool(missing)
    return points, notes


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument gives one line on stderr, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"bench: {message}\n")


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = _Parser(description="x86-64 side-by-side benchmark")
    p.add_argument("--bin", type=Path, required=True, help="bench_main binary")
    p.add_argument("--runs", type=int, default=31, help="independent processes (>= 1)")
    p.add_argument("--rounds", type=int, default=2000, help="rounds per process")
    p.add_argument("--calls", type=int, default=1000, help="calls per sample")
    p.add_argument("--warmup-ms", type=int, default=200)
    p.add_argument("--cc", default="gcc")
    p.add_argument("--cflags", default="")
    p.add_argument("--generated", type=Path, default=Path("generated"),
                   help="the kernel folders, for the kernels' proven bounds")
    p.add_argument("--json", type=Path, default=Path("build/bench.json"))
    p.add_argument("--svg", type=Path, default=Path("build/bench.svg"))
    a = p.parse_args(argv)
    if a.runs < 1 or a.rounds < 1 or a.calls < 1 or a.warmup_ms < 0:
        p.error("--runs, --rounds and --calls must be positive")
    if not a.bin.is_file():
        p.error(f"{a.bin} does not exist")
    return a


def _needed_features(row: str) -> str:
    """The CPU features a row that the harness marked unavailable needs: a
    batch row's from its instruction set, any other row's AVX2 and FMA (the
    x86-64-v3 build)."""
    if gen_registry.BATCH_PREFIX in row:
        isa = row.split(gen_registry.BATCH_PREFIX)[1]
        return "/".join(f.upper() for f in gen_registry.BATCH_ISAS[isa][2])
    return "AVX2/FMA"


def main(argv: list[str]) -> int:
    try:
        return bench(parse_args(argv))
    except (RuntimeError, callgrind.CallgrindError, static_count.StaticCountError, OSError, ValueError,
            kfolder.KernelFolderError) as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 1


def bench(a: argparse.Namespace) -> int:
    runs = []
    for seed in range(1, a.runs + 1):
        print(f"\rrun {seed}/{a.runs}", end="", file=sys.stderr, flush=True)
        runs.append(one_run(a.bin, seed, a.rounds, a.calls, a.warmup_ms))
    print(" -- counting instructions with callgrind", file=sys.stderr)
    calibration, results = summarise(runs)
    counts = callgrind.count_all(a.bin, [r["name"] for r in results])
    errors = kernel_errors(a.generated, sorted({r["name"].split("/")[0] for r in results
                                                if r["kind"] == "kernel"}))
    for r in results:
        if r["name"] in counts:
            r["instructions_per_call"] = round(counts[r["name"]], 2)
        else:   # an AVX-512 row: valgrind cannot run it
            r["instructions_per_call"] = static_count.loop_instructions(a.bin, gen_registry.chain_symbol(r["name"]))
            r["instructions_source"] = "static: objdump of the chain loop's body (valgrind has no AVX-512)"
        if r["name"] in REFERENCE_ERRORS:
            r["error_2p63"], r["error_source"] = REFERENCE_ERRORS[r["name"]], "FACCT.md figure"
        elif r["name"].split("/")[0] in errors:   # a kernel's /domain row: same kernel, same bound
            r["error_2p63"], r["error_source"] = errors[r["name"].split("/")[0]]
    add_ratios(results)
    skipped = [v["name"] for v in runs[0]["variants"] if not v["available"]]
    doc = {"runs": a.runs, "rounds_per_run": a.rounds, "calls_per_sample": a.calls,
           "calibration": calibration, "machine": machine.describe(a.cc, a.cflags),
           "measured_on": provenance.measured_on(),
           "skipped": skipped, "results": results}
    write_text_atomic(a.json, json.dumps(doc, indent=2) + "\n")
    print(f"{a.runs} runs x {a.rounds} rounds x {a.calls} calls; "
          f"{calibration['cycles_per_tick_median']:.4f} core cycles per TSC tick "
          f"(imul chain; add chain reads x{calibration['add_vs_imul']:.4f} of it); cycles per call:")
    print(table(results))
    for name in skipped:
        print(f"note: {name} skipped (this CPU lacks {_needed_features(name)})")
    points, notes = plot_points(results)
    if points:
        write_text_atomic(a.svg, plot.render(points, f"fpr_expm_p63: accuracy vs latency "
                                             f"({doc['machine']['cpu_model']})", notes))
    print(f"wrote {a.json}" + (f" and {a.svg}" if points else " (no SVG: no error figures)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

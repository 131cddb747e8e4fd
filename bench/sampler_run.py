"""Run the sampler-level benchmark end to end and write its outputs.

Runs `sampler_main time` as RUNS independent processes (each its own seed:
its own parameters, generator states, shuffles, warm-up and calibration),
converts every sample from TSC ticks to core cycles with that process's
calibration (bench/run.py's), pools the runs, applies P5-P95 filtering,
counts instructions per accepted sample with callgrind, checks that every
kernel draws the same samples as its base (facct_int128 in the same loop
shape) from the same random bytes, compares the speculative loops with the
best sequential one, then prints a table and writes build/bench_sampler.json.
docs/bench.md, "Sampler-level benchmark", describes the loops and the
protocol.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any, NoReturn

from bench import callgrind, machine, run
from bench.stats import filtered_summary
from toolkit import provenance
from toolkit import table as toolkit_table
from toolkit.files import write_text_atomic

REFERENCE = "facct_int128"
# Issue 17, item 6: cycles per accepted sample at most this fraction of
# facct_int128's, measured in the same run.
TARGETS: dict[str, float] = {"falcon_x86_fast": 0.93, "falcon_x86": 1.0}
# The loop kinds that evaluate one candidate at a time (the others are
# "speculative": K candidates per round, bench/sampler_spec.h).
SEQUENTIAL_KINDS = ("reference", "kernel")


def harness(binary: Path, *args: str) -> dict[str, Any]:
    """One JSON-printing `sampler_main` command."""
    out = subprocess.run([str(binary), *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"sampler_main {args[0]} failed: {out.stderr.strip()}")
    return json.loads(out.stdout)


def summarise(runs: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Calibration summary and per-variant results (cycles per accepted
    sample), with each row's ratio to facct_int128 (below 1: faster)."""
    summary, ratios = run.calibration(runs)
    results = []
    for i, v in enumerate(runs[0]["variants"]):
        cycles = [t * ratio for r, ratio in zip(runs, ratios)
                  for t in r["variants"][i]["ticks_per_sample"]]
        s = filtered_summary(cycles)
        results.append({
            "name": v["name"], "kind": v["kind"],
            "cycles_per_sample_median": s.median, "cycles_per_sample_p5": s.p5,
            "cycles_per_sample_p95": s.p95,
            "isa": v.get("isa", "-"), "base": v.get("base", REFERENCE),
            "samples_total": s.total, "samples_kept": s.kept,
            **{key: sum(r["variants"][i][key] for r in runs) / len(runs)
               for key in ("trials_per_sample", "candidates_per_sample", "bytes_per_sample")},
            "rounds_differing_from_base":
                sum(r["variants"][i]["rounds_differing_from_base"] for r in runs),
        })
    by_name = {r["name"]: r for r in results}
    if REFERENCE not in by_name:
        raise RuntimeError(f"sampler_main timed no {REFERENCE} row")
    ref = [v["name"] for v in runs[0]["variants"]].index(REFERENCE)
    for i, r in enumerate(results):
        r["ratio_to_facct_int128"] = (r["cycles_per_sample_median"]
                                      / by_name[REFERENCE]["cycles_per_sample_median"])
        # Paired: the row's time over facct_int128's in the same round,
        # where both drew the same samples from the same bytes; the spread
        # of the unpaired figures is mostly rounds drawing more or fewer
        # trials, which cancels here.
        r["paired_ratio_median"] = statistics.median(
            a / b for run_ in runs for a, b in zip(run_["variants"][i]["ticks_per_sample"],
                                                   run_["variants"][ref]["ticks_per_sample"]))
    return summary, results


def targets(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each target with the measured ratio and whether it is met."""
    by_name = {r["name"]: r for r in results}
    return [{"kernel": k, "max_ratio_to_facct_int128": limit,
             "ratio": by_name[k]["ratio_to_facct_int128"],
             "met": by_name[k]["ratio_to_facct_int128"] <= limit}
            for k, limit in TARGETS.items() if k in by_name]


def speculative(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Each speculative loop against the fastest sequential loop of the run
    (cycles per accepted sample), with what it spends more: candidates
    computed and random bytes per sample over the sequential loops'."""
    seq = [r for r in results if r["kind"] in SEQUENTIAL_KINDS]
    if not seq:
        raise RuntimeError("sampler_main timed no sequential loop")
    best = min(seq, key=lambda r: r["cycles_per_sample_median"])
    rows = [{"name": r["name"], "ratio_to_best_sequential":
             r["cycles_per_sample_median"] / best["cycles_per_sample_median"],
             "beats_best_sequential": r["cycles_per_sample_median"] < best["cycles_per_sample_median"],
             "candidates_over_sequential": r["candidates_per_sample"] / best["candidates_per_sample"],
             "bytes_over_sequential": r["bytes_per_sample"] / best["bytes_per_sample"]}
            for r in results if r["kind"] == "speculative"]
    return {"best_sequential": best["name"], "rows": rows}


def _opt(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def table(results: list[dict[str, Any]]) -> str:
    header = ("variant", "cycles/sample", "[P5 - P95]", "/ int128", "paired", "instr/sample",
              "decisions", "candidates", "bytes", "base", "samples != base")
    rows = [[r["name"], f"{r['cycles_per_sample_median']:.1f}",
             f"[{r['cycles_per_sample_p5']:.1f} - {r['cycles_per_sample_p95']:.1f}]",
             f"{r['ratio_to_facct_int128']:.3f}", f"{r['paired_ratio_median']:.3f}",
             _opt(r["instructions_per_sample"], 1), f"{r['trials_per_sample']:.4f}",
             f"{r['candidates_per_sample']:.4f}", f"{r['bytes_per_sample']:.2f}", r["base"],
             str(r["agree_differing"])]
            for r in results]
    return toolkit_table.text(header, rows, align="l" + "r" * 8 + "lr")


class _Parser(argparse.ArgumentParser):
    """argparse, but a bad argument gives one line on stderr, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"bench-sampler: {message}\n")


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = _Parser(description="sampler-level benchmark")
    p.add_argument("--bin", type=Path, required=True, help="sampler_main binary")
    p.add_argument("--runs", type=int, default=31, help="independent processes (>= 1)")
    p.add_argument("--rounds", type=int, default=1000, help="rounds per process")
    p.add_argument("--samples", type=int, default=256, help="accepted samples per timing sample")
    p.add_argument("--warmup-ms", type=int, default=200)
    p.add_argument("--agree-samples", type=int, default=10**6,
                   help="samples drawn by every kernel for the agreement check")
    p.add_argument("--cc", default="gcc")
    p.add_argument("--cflags", default="")
    p.add_argument("--json", type=Path, default=Path("build/bench_sampler.json"))
    a = p.parse_args(argv)
    if min(a.runs, a.rounds, a.samples, a.agree_samples) < 1 or a.warmup_ms < 0:
        p.error("--runs, --rounds, --samples and --agree-samples must be positive")
    if not a.bin.is_file():
        p.error(f"{a.bin} does not exist")
    return a


def bench(a: argparse.Namespace) -> int:
    runs = []
    for seed in range(1, a.runs + 1):
        print(f"\rrun {seed}/{a.runs}", end="", file=sys.stderr, flush=True)
        runs.append(harness(a.bin, "time", str(seed), str(a.rounds), str(a.samples),
                            str(a.warmup_ms)))
    print(" -- agreement check, then callgrind", file=sys.stderr)
    calibration, results = summarise(runs)
    agree = {v["name"]: v for v in harness(a.bin, "agree", str(a.agree_samples), "1")["variants"]}
    # valgrind does not execute AVX-512: those loops get no count.
    counts = callgrind.count_all(a.bin, [r["name"] for r in results if r["isa"] != "avx512"])
    for r in results:
        count = counts.get(r["name"])
        r["instructions_per_sample"] = None if count is None else round(count, 2)
        r["agree_differing"] = agree[r["name"]]["differing"]
        r["agree_first_differing"] = agree[r["name"]]["first_differing"]
        r["agree_differing_from_facct_int128"] = agree[r["name"]]["differing_from_facct_int128"]
    controls = {name: v["differing"] for name, v in agree.items() if v["kind"] == "control"}
    doc = {"runs": a.runs, "rounds_per_run": a.rounds, "samples_per_timing": a.samples,
           "agree_samples": a.agree_samples, "agree_controls_differing": controls,
           "calibration": calibration, "machine": machine.describe(a.cc, a.cflags),
           "measured_on": provenance.measured_on(), "results": results,
           "targets": targets(results), "speculative": speculative(results)}
    write_text_atomic(a.json, json.dumps(doc, indent=2) + "\n")
    print(f"{a.runs} runs x {a.rounds} rounds x {a.samples} accepted samples on "
          f"{doc['machine']['cpu_model']}; {calibration['cycles_per_tick_median']:.4f} core cycles "
          f"per TSC tick; core cycles per accepted sample:")
    print(table(results))
    print(f"samples != int128: of {a.agree_samples} drawn from the same bytes "
          f"(controls: {', '.join(f'{k} {v}' for k, v in controls.items())})")
    diverged = {r["name"]: r["rounds_differing_from_base"] for r in results}
    print(f"timing rounds whose samples differ from their base's (of {a.runs * a.rounds}): "
          + ", ".join(f"{k} {v}" for k, v in diverged.items()))
    spec = doc["speculative"]
    for row in spec["rows"]:
        print(f"speculative {row['name']}: {row['ratio_to_best_sequential']:.3f} x the best "
              f"sequential loop ({spec['best_sequential']}), "
              f"{'faster' if row['beats_best_sequential'] else 'NOT faster'}; "
              f"{row['candidates_over_sequential']:.2f} x its candidates, "
              f"{row['bytes_over_sequential']:.2f} x its random bytes per sample")
    for t in doc["targets"]:
        print(f"target {t['kernel']} <= {t['max_ratio_to_facct_int128']:.2f} x facct_int128: "
              f"{t['ratio']:.3f}, {'met' if t['met'] else 'NOT met'}")
    print(f"wrote {a.json}")
    return 0


def main(argv: list[str]) -> int:
    try:
        return bench(parse_args(argv))
    except (RuntimeError, callgrind.CallgrindError, OSError, ValueError) as exc:
        print(f"bench-sampler: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Run the sampler-level benchmark end to end and write its outputs.

Runs `sampler_main time` as RUNS independent processes (each its own seed:
its own parameters, generator states, shuffles, warm-up and calibration),
converts every sample from TSC ticks to core cycles with that process's
calibration (bench/run.py's), pools the runs, applies P5-P95 filtering,
counts instructions per accepted sample with callgrind, checks that every
kernel draws the same samples as facct_int128 from the same random bytes,
then prints a table and writes build/bench_sampler.json.  docs/bench.md,
"Sampler-level benchmark", describes the loop and the protocol.
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
            "cycles_per_sample_p95": s.p95, "samples_total": s.total, "samples_kept": s.kept,
            "trials_per_sample": sum(r["variants"][i]["trials_per_sample"] for r in runs) / len(runs),
            "rounds_differing_from_facct_int128":
                sum(r["variants"][i]["rounds_differing_from_facct_int128"] for r in runs),
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


def table(results: list[dict[str, Any]]) -> str:
    header = ("variant", "cycles/sample", "[P5 - P95]", "/ int128", "paired", "instr/sample",
              "trials/sample", "samples != int128")
    rows = [[r["name"], f"{r['cycles_per_sample_median']:.1f}",
             f"[{r['cycles_per_sample_p5']:.1f} - {r['cycles_per_sample_p95']:.1f}]",
             f"{r['ratio_to_facct_int128']:.3f}", f"{r['paired_ratio_median']:.3f}",
             f"{r['instructions_per_sample']:.1f}",
             f"{r['trials_per_sample']:.4f}", str(r["agree_differing"])]
            for r in results]
    return toolkit_table.text(header, rows, align="l" + "r" * 7)


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
    counts = callgrind.count_all(a.bin, [r["name"] for r in results])
    for r in results:
        r["instructions_per_sample"] = round(counts[r["name"]], 2)
        r["agree_differing"] = agree[r["name"]]["differing"]
        r["agree_first_differing"] = agree[r["name"]]["first_differing"]
    controls = {name: v["differing"] for name, v in agree.items() if v["kind"] == "control"}
    doc = {"runs": a.runs, "rounds_per_run": a.rounds, "samples_per_timing": a.samples,
           "agree_samples": a.agree_samples, "agree_controls_differing": controls,
           "calibration": calibration, "machine": machine.describe(a.cc, a.cflags),
           "measured_on": provenance.measured_on(), "results": results,
           "targets": targets(results)}
    write_text_atomic(a.json, json.dumps(doc, indent=2) + "\n")
    print(f"{a.runs} runs x {a.rounds} rounds x {a.samples} accepted samples on "
          f"{doc['machine']['cpu_model']}; {calibration['cycles_per_tick_median']:.4f} core cycles "
          f"per TSC tick; core cycles per accepted sample:")
    print(table(results))
    print(f"samples != int128: of {a.agree_samples} drawn from the same bytes "
          f"(controls: {', '.join(f'{k} {v}' for k, v in controls.items())})")
    diverged = {r["name"]: r["rounds_differing_from_facct_int128"] for r in results}
    print(f"timing rounds whose samples differ from facct_int128's (of {a.runs * a.rounds}): "
          + ", ".join(f"{k} {v}" for k, v in diverged.items()))
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

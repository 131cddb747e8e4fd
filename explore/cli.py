"""`make explore TARGET=<x86|m3|m4> BUDGET_LOG2=<n> [MAX_TABLE_BYTES=<n>] [TIME=<minutes>]`:
the best kernel per target, error budget and table size (docs/explore.md).

Stages: enumerate (explore/space.py), prune (Remez estimate cached under
OUT/cache, table bytes; explore/prune.py), evaluate the survivors and the
shipped kernel two at a time (explore/scheduler.py, explore/worker.py),
report: OUT/<target>.json, OUT/<target>.svg, OUT/<target>.toml (the
recommended config, ready for `make kernel CONFIG=...`) and a table.

Usage: python3 -m explore --target x86|m3|m4 --budget-log2 N [--max-table-bytes N]
           [--time MINUTES] [--out-dir build/explore] [--max-candidates N]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

from toolkit import provenance
from toolkit.files import write_text_atomic

from . import cost_x86, estimate, prune, report, scheduler, space, svg, timing_x86, toml_text

ROOT = Path(__file__).resolve().parent.parent
BUDGET_RANGE = (-80, -20)       # log2 of an absolute error; below 2^-64 nothing fits a 64-bit word
DEFAULT_TIME_MIN = 14.0         # the default run stays within 15 minutes
MAX_CANDIDATES = 40             # evaluated per run (besides the shipped kernel)
WORKERS = 2                     # this machine's cores
TIMING_RESERVE_S = 30.0         # the x86 front's timing starts only with this much of TIME left
# Keys equal to these are left out of a config by the shipped kernels.
IMPLIED = {"word_bits": 64, "function": "exp(-x)", "domain": ["0", "ln2"]}
# Keys that change neither the scalar kernel nor its bound: a candidate
# differing from the shipped config only in these is the shipped kernel.
SCALAR_NEUTRAL = ("batch",)


class UsageError(ValueError):
    """Bad input: one line for the user, exit status 2, nothing written."""


def _int(text: str, what: str, lo: int, hi: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise UsageError(f"{what}={text!r}: must be an integer from {lo} to {hi}") from None
    if not lo <= value <= hi:
        raise UsageError(f"{what}={value}: must be an integer from {lo} to {hi}")
    return value


def parse(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="python3 -m explore", description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="")
    ap.add_argument("--budget-log2", default="")
    ap.add_argument("--max-table-bytes", default="")
    ap.add_argument("--time", default="", help="minutes; stop cleanly then")
    ap.add_argument("--out-dir", type=Path, default=ROOT / "build" / "explore")
    ap.add_argument("--max-candidates", type=int, default=MAX_CANDIDATES)
    args = ap.parse_args(argv)
    if args.target not in space.TARGETS:
        raise UsageError(f"TARGET={args.target!r}: unknown target (one of: {', '.join(space.TARGETS)})")
    args.budget_log2 = _int(args.budget_log2, "BUDGET_LOG2", *BUDGET_RANGE)
    args.max_table_bytes = None if args.max_table_bytes == "" else \
        _int(args.max_table_bytes, "MAX_TABLE_BYTES", 0, 1 << 30)
    if args.time == "":
        args.time = DEFAULT_TIME_MIN
    else:
        try:
            args.time = float(args.time)
        except ValueError:
            raise UsageError(f"TIME={args.time!r}: must be a number of minutes above 0") from None
        if not 0 < args.time <= 24 * 60:
            raise UsageError(f"TIME={args.time}: must be a number of minutes above 0 (at most a day)")
    if args.max_candidates < 1:
        raise UsageError(f"--max-candidates {args.max_candidates}: must be at least 1")
    return args


def say(line: str) -> None:
    print(f"explore: {line}", flush=True)


def _normal(config: dict[str, Any]) -> dict[str, Any]:
    """A config without its identity, the implied defaults filled in."""
    out = {**IMPLIED, **config}
    for key in ("name", "description", "max_abs_error_log2", *SCALAR_NEUTRAL):
        out.pop(key, None)
    return out


def _shown(path: Path) -> str:
    """A path relative to the repository when it lies inside it (make runs
    from there), else as given."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _order(c: space.Candidate) -> tuple[float, str]:
    """Likely cheap first, so that a time box keeps the promising ones: the
    degree, plus the rows a constant-time scan reads."""
    scan = c.segment_count * (c.degree + 1) / 4 if c.config.get("table_access") == "ct_scan" else 0.0
    return c.degree + scan, c.name


def select(target: space.TargetSpace, args: argparse.Namespace, cache_dir: Path, deadline: float
           ) -> tuple[list[space.Candidate], Counter[str], int]:
    """The candidates to evaluate (shipped first), the pruning's reasons
    counted, and how many were enumerated."""
    configs = {n: tomllib.loads((ROOT / "kernels" / f"{n}.toml").read_text()) for n in target.shipped}
    shipped_name = space.shipped_for(target, {n: float(c["max_abs_error_log2"]) for n, c in configs.items()},
                                     args.budget_log2)
    shipped_cfg = configs[shipped_name]
    shipped = space.shipped_candidate(target, shipped_cfg)
    cands = [c for c in space.candidates(target, args.budget_log2) if _normal(c.config) != _normal(shipped_cfg)]
    jobs = [j for c in cands for j in prune.representative(c)]
    say(f"{len(cands)} configs enumerated for {target.name}; Remez estimates of {len(set(jobs))} "
        f"(segment, degree) pairs")
    estimates, hits = estimate.estimate_all(cache_dir, jobs, WORKERS)
    say(f"estimates: {hits} from the cache ({cache_dir}), {len(estimates) - hits} computed")
    verdicts = prune.prune(cands, args.budget_log2, args.max_table_bytes, estimates)
    reasons: Counter[str] = Counter(v.reason.split(" ")[0].rstrip(":") for v in verdicts if not v.kept)
    kept = sorted((v.candidate for v in verdicts if v.kept), key=_order)
    if len(kept) > args.max_candidates:
        reasons["limit"] += len(kept) - args.max_candidates
        kept = kept[:args.max_candidates]
    say(f"{len(kept)} survive the pruning ({', '.join(f'{n} by {r}' for r, n in sorted(reasons.items())) or 'none pruned'}); "
        f"{time.monotonic() - (deadline - args.time * 60):.0f} s so far")
    return [shipped] + kept, reasons, len(cands)


def time_front(records: list[report.Record], work: Path, deadline: float) -> None:
    """x86: chain and batch cycles of the front and the shipped kernel, timed
    in one harness (explore/timing_x86.py), when TIME leaves room."""
    timed = [r for r in records if r["status"] == "ok" and (r["on_front"] or r["shipped"])]
    if not timed or time.monotonic() > deadline - TIMING_RESERVE_S:
        say("no time left for the front's chain/batch timing: cycles stay null")
        return
    name_of = {r["config"]["name"]: r for r in records}
    try:
        cycles = timing_x86.time_front({n: work / n / "gen" for n in (r["config"]["name"] for r in timed)},
                                       work / "front_timing")
    except (RuntimeError, cost_x86.CostError, ValueError) as exc:
        say(f"the front's timing failed ({exc}): cycles stay null")
        return
    for name, figures in cycles.items():
        name_of[name]["cycles"] = figures["chain_cycles"]
        name_of[name]["batch_cycles"] = figures["batch_cycles"]
        if figures.get("batch_isa_cycles"):
            name_of[name]["batch_isa_cycles"] = figures["batch_isa_cycles"]
    say(f"timed {len(cycles)} kernels of the front (chain and batch cycles, one harness, {timing_x86.RUNS} runs)")


def run(args: argparse.Namespace) -> int:
    target = space.TARGETS[args.target]
    out: Path = args.out_dir
    work = out / target.name
    start = time.monotonic()
    deadline = start + args.time * 60
    chosen, reasons, enumerated = select(target, args, out / "cache", deadline)
    jobs = []
    for c in chosen:
        cdir = work / c.name
        cfg_path = cdir / f"{c.name}.toml"
        write_text_atomic(cfg_path, toml_text.dumps(c.config))
        (cdir / "result.json").unlink(missing_ok=True)
        jobs.append(scheduler.Job(c.name, cfg_path, cdir, cdir / "result.json"))
    results = scheduler.run(target.name, jobs, WORKERS, deadline, say)
    records = [report.record(c.config, results.get(c.name, {"status": "not started (TIME)"}), c.shipped,
                             args.budget_log2, args.max_table_bytes) for c in chosen]
    report.mark_front(records)
    if target.name == "x86":
        time_front(records, work, deadline)
    best = report.recommended(records)
    verdict = report.comparison(records, chosen[0].name)
    stopped = any(r["status"] in ("stopped at TIME", "not started (TIME)") for r in records)
    doc = {"target": target.name, "budget_log2": args.budget_log2, "max_table_bytes": args.max_table_bytes,
           "measured_on": provenance.measured_on(),
           "cost": "x86: callgrind instructions per call of <name>_fpr_expm_p63_domain (chain loop, bench "
                   "harness); cycles: median chain cycles per call, measured for the front and the shipped "
                   "kernel only (one harness, explore/timing_x86.py), null for the others; "
                   "batch_isa_cycles: cycles per element of a head candidate's batch forms "
                   "(array entry per instruction set, same harness)"
                   if target.name == "x86" else
                   f"{target.name}: QEMU-traced instructions per call of <name>_fpr_expm_p63_domain_bits; "
                   f"cycles: worst-case model of m3/c{target.name}_timing.tsv",
           "time_limit_min": args.time, "stopped_at_time": stopped, "enumerated": enumerated,
           "pruned": dict(sorted(reasons.items())), "recommended": best["config"]["name"] if best else None,
           "shipped_comparison": verdict, "candidates": records}
    write_text_atomic(out / f"{target.name}.json", json.dumps(doc, indent=1) + "\n")
    title = f"make explore TARGET={target.name} BUDGET_LOG2={args.budget_log2}" + \
        (f" MAX_TABLE_BYTES={args.max_table_bytes}" if args.max_table_bytes is not None else "")
    write_text_atomic(out / f"{target.name}.svg", svg.render(title, records, args.budget_log2,
                                                             best["config"]["name"] if best else None))
    print(report.table(records))
    if best is not None:
        cfg = {**best["config"], "max_abs_error_log2": args.budget_log2}
        header = (f"The recommended config of `{title}`:\nthe cheapest point of the front within the budget "
                  f"and the table limit\n({best['instructions']:g} instructions per call, proven "
                  f"{best['proven_err_2p63']:g} units of 2^-63, {best['table_bytes']} table bytes).\n"
                  f"Check it with: make kernel CONFIG={_shown(out / (target.name + '.toml'))} QUICK=1")
        write_text_atomic(out / f"{target.name}.toml", toml_text.dumps(cfg, header))
        say(f"recommended: {best['config']['name']} -> {out / (target.name + '.toml')}")
    else:
        (out / f"{target.name}.toml").unlink(missing_ok=True)
        say("no evaluated config meets the budget and the table limit; no recommendation written")
    say(f"shipped kernel: {verdict}")
    say(f"wrote {out / (target.name + '.json')} and {out / (target.name + '.svg')}"
        f"{' (stopped at TIME: partial)' if stopped else ''}")
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        args = parse(argv)
    except UsageError as exc:
        print(f"explore: error: {exc}", file=sys.stderr)
        return 2
    return run(args)

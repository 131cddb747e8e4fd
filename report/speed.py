"""The generated tables of speed: the x86-64 benchmark (build/bench.json,
build/candidates/bench.json) and the microcontroller figures (build/m3.json,
build/m3_variants.json, build/m4.json).  Each renderer takes the parsed JSON and the path
it came from and returns Markdown."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from bench.gen_registry import ARRAY_REFERENCES, BATCH_ISAS, BATCH_PREFIX
from report.common import fixed, measured_on, sig, verdict
from toolkit import table

_REFS = ("facct_int128", "facct_avx2")


def _ratio(r: dict[str, Any], mode: str, ref: str) -> Optional[str]:
    """Row cycles over the reference's (below 1: faster): the inverse of
    the speed-up bench/run.py stores."""
    speedup = r.get(f"{mode}_speedup_vs_{ref}")
    return None if not speedup else f"{1.0 / speedup:.2f}"


def _bench_what(data: dict[str, Any]) -> str:
    m = data.get("machine") or {}
    vm = ", under a hypervisor" if m.get("hypervisor") else ""
    return (f"{data.get('runs')} processes x {data.get('rounds_per_run')} rounds; "
            f"family/model/stepping {m.get('cpu_family_model_stepping', '?')}, "
            f"{m.get('logical_cpus', '?')} logical CPUs{vm}, TSC {m.get('tsc_mhz_reported', '?')} MHz; "
            f"{m.get('compiler', '?')}, `{m.get('cflags', '')}`; cycles are core cycles "
            "(medians after P5-P95 filtering)")


def bench(data: dict[str, Any], source: Path) -> str:
    """README's speed table: chain and batch cycles, ratios, error figures."""
    header = ("variant", "chain (cycles)", "chain P5–P95", "batch", "instr/call",
              "chain / int128", "chain / avx2", "batch / int128", "error bound (2^-63)")
    rows = []
    for r in data.get("results", []):
        err = r.get("error_2p63")
        rows.append((r["name"], fixed(r["chain_cycles_median"], 1),
                     f"{r['chain_cycles_p5']:.1f}–{r['chain_cycles_p95']:.1f}",
                     fixed(r["batch_cycles_median"], 1), f"{r['instructions_per_call']:.0f}",
                     _ratio(r, "chain", "facct_int128"), _ratio(r, "chain", "facct_avx2"),
                     _ratio(r, "batch", "facct_int128"),
                     None if err is None else f"{sig(err, 6)} ({r.get('error_source', '?')})"))
    return measured_on(data, source, _bench_what(data)) + "\n" + table.markdown(header, rows) + "\n"


def bench_full(data: dict[str, Any], source: Path) -> str:
    """docs/bench.md's table: both modes with their P5-P95 ranges and all ratios."""
    header = ("variant", "chain", "chain P5–P95", "batch", "batch P5–P95", "instr/call",
              "chain / int128", "chain / avx2", "batch / int128", "batch / avx2")
    rows = []
    for r in data.get("results", []):
        rows.append((r["name"], fixed(r["chain_cycles_median"], 1),
                     f"{r['chain_cycles_p5']:.1f}–{r['chain_cycles_p95']:.1f}",
                     fixed(r["batch_cycles_median"], 1),
                     f"{r['batch_cycles_p5']:.1f}–{r['batch_cycles_p95']:.1f}",
                     f"{r['instructions_per_call']:.0f}",
                     *(_ratio(r, mode, ref) for mode in ("chain", "batch") for ref in _REFS)))
    cal = data.get("calibration") or {}
    what = (_bench_what(data) + f"; {cal.get('cycles_per_tick_median', 0):.4f} core cycles per "
            "TSC tick (imul chain)")
    return measured_on(data, source, what) + "\n" + table.markdown(header, rows) + "\n"


# The targets of the issue on the x86-64 kernels (docs/bench.md): per
# variant, (quantity, target) pairs; a quantity is a ratio to a reference
# or, for "edge", the instructions the full adaptor adds over _domain.
TARGETS: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = (
    ("falcon_x86/domain", (("instr / int128", 0.9), ("chain / int128", 0.5), ("chain / avx2", 0.75),
                           ("batch / int128", 0.75))),
    ("falcon_x86", (("chain / int128", 0.5), ("chain / avx2", 0.75), ("batch / int128", 0.75),
                    ("edge rules (instr over _domain)", 15))),
    ("falcon_x86_fast/domain", (("instr / int128", 0.6), ("batch / int128", 0.6))),
)


def _quantity(by_name: dict[str, dict[str, Any]], variant: str, quantity: str) -> Optional[float]:
    """One measured quantity of TARGETS, or None when the run lacks a row."""
    r, ref = by_name.get(variant), by_name.get("facct_int128")
    if r is None:
        return None
    if quantity.startswith("edge"):
        domain = by_name.get(variant + "/domain")
        return None if domain is None else r["instructions_per_call"] - domain["instructions_per_call"]
    if quantity == "instr / int128":
        return None if ref is None else r["instructions_per_call"] / ref["instructions_per_call"]
    mode, refname = quantity.split(" / ")
    speedup = r.get(f"{mode}_speedup_vs_facct_{refname}")
    return None if not speedup else 1.0 / speedup


def bench_targets(data: dict[str, Any], source: Path) -> str:
    """The x86-64 kernels against the issue's targets, each measured
    quantity beside its target and whether it is met in this run."""
    by_name = {r["name"]: r for r in data.get("results", [])}
    header = ("variant", "quantity", "measured", "target", "met")
    rows = []
    for variant, targets in TARGETS:
        for quantity, target in targets:
            value = _quantity(by_name, variant, quantity)
            if value is not None:
                rows.append((f"`{variant}`", quantity, f"{value:.0f}" if quantity.startswith("edge") else f"{value:.2f}",
                             f"<= {target:g}", "yes" if value <= target else "**no**"))
    return (measured_on(data, source, "Ratios to the references' figures of the same run")
            + "\n" + table.markdown(header, rows) + "\n")


# docs/bench.md's trade-off of the fast kernel against the faithful
# flagship (issue 17, item 5): the rows, each with what it is.
TRADEOFF: tuple[tuple[str, str], ...] = (
    ("falcon_x86/domain", "form twin, the faithful flagship"),
    ("falcon_x86", "the same, full adaptor with the edge rules"),
    ("falcon_x86_head/domain", "form head, the previous faithful flagship (candidate)"),
    ("falcon_x86_fast_head/domain", "form head, degree 12, no conversion remainders (candidate)"),
    ("falcon_x86_fast/domain", "form fold, degree 12 (shipped)"),
    ("falcon_x86_fast", "the same, full adaptor with the edge rules"),
    ("falcon_x86_simd/domain", "form eft, the batch kernel's scalar entry"),
)


def bench_tradeoff(data: dict[str, Any], source: Path) -> str:
    """The fast kernel beside the faithful ones: instructions (callgrind),
    batch and chain cycles over facct_int128's, and the proven error."""
    by_name = {r["name"]: r for r in data.get("results", [])}
    header = ("kernel", "what it is", "instr/call", "instr / int128", "batch / int128",
              "chain / int128", "proven error (2^-63 units)")
    rows = []
    for name, what in TRADEOFF:
        r = by_name.get(name)
        if r is not None:
            instr = _quantity(by_name, name, "instr / int128")
            rows.append((f"`{name}`", what, f"{r['instructions_per_call']:.0f}", fixed(instr),
                         _ratio(r, "batch", "facct_int128"), _ratio(r, "chain", "facct_int128"),
                         sig(r.get("error_2p63"), 3)))
    return (measured_on(data, source, "Ratios to facct_int128's figures of the same run")
            + "\n" + table.markdown(header, rows) + "\n")


# Issue 18's per-element targets for the batch rows: per instruction set,
# the largest batch cycles per element over each reference's batch cycles.
BATCH_TARGETS: dict[str, tuple[tuple[str, float], ...]] = {
    "avx512": (("facct_avx2", 0.5), ("facct_int128", 0.2)),
    "avx2": (("facct_avx2", 1.0), ("facct_int128", 0.4)),
}
_ARRAY_LANES = {name: lanes for name, _, _, lanes, _ in ARRAY_REFERENCES}


def _lanes(name: str) -> int:
    """Elements one chain call of the row computes: the instruction set's
    lanes for a kernel's batch row, the references' lanes for theirs, 1
    for a scalar row."""
    if BATCH_PREFIX in name:
        return BATCH_ISAS[name.split(BATCH_PREFIX)[1]][0]
    return _ARRAY_LANES.get(name, 1)


def bench_batch(data: dict[str, Any], source: Path) -> str:
    """The batch kernels per element beside the references (build/bench.json):
    the scalar references, their 4-lane forms, each batch kernel's scalar
    row and its batch rows, then issue 18's per-element targets."""
    results = data.get("results", [])
    by_name = {r["name"]: r for r in results}
    batch_rows = [r for r in results if BATCH_PREFIX in r["name"]]
    kernels = list(dict.fromkeys(r["name"].split(BATCH_PREFIX)[0] for r in batch_rows))
    names = [n for n in ("facct_int128", "facct_avx2", *_ARRAY_LANES, *kernels) if n in by_name]
    names += [r["name"] for r in batch_rows]
    header = ("row", "batch (cycles/element)", "chain (cycles/call)", "lanes per call",
              "instructions per call", "instructions per element", "batch / facct_avx2",
              "batch / facct_int128", "error (2^-63 units)")
    rows = []
    for name in names:
        r, lanes = by_name[name], _lanes(name)
        instr = r.get("instructions_per_call")
        static = " (static)" if r.get("instructions_source", "").startswith("static") else ""
        err = r.get("error_2p63")
        rows.append((name, fixed(r["batch_cycles_median"], 1), fixed(r["chain_cycles_median"], 1),
                     str(lanes), None if instr is None else f"{instr:.0f}{static}",
                     None if instr is None else f"{instr / lanes:.1f}",
                     _ratio(r, "batch", "facct_avx2"), _ratio(r, "batch", "facct_int128"),
                     None if err is None else f"{sig(err, 6)} ({r.get('error_source', '?')})"))
    targets = []
    for r in batch_rows:
        for ref, limit in BATCH_TARGETS.get(r["name"].split(BATCH_PREFIX)[1], ()):
            speedup = r.get(f"batch_speedup_vs_{ref}")
            if speedup:
                targets.append((f"`{r['name']}`", f"batch / {ref}", f"{1.0 / speedup:.2f}",
                                f"<= {limit:g}", verdict(1.0 / speedup <= limit, "yes", "**no**")))
    what = _bench_what(data) + "; batch per element on arrays of 1,024 inputs, chain per call"
    out = measured_on(data, source, what) + "\n" + table.markdown(header, rows) + "\n"
    if targets:
        out += "\n" + table.markdown(("row", "quantity", "measured", "target (issue 18)", "met"),
                                     targets) + "\n"
    return out


def bench_sampler(data: dict[str, Any], source: Path) -> str:
    """docs/bench.md's sampler-level table (build/bench_sampler.json): core
    cycles and instructions per accepted sample, the ratio to facct_int128,
    BerExp decisions, candidates computed and random bytes per sample, the
    samples that differ from the base's (the same loop shape with
    facct_int128, from the same bytes), then the targets and the
    speculative loops against the best sequential one."""
    header = ("variant", "cycles/sample", "P5–P95", "/ int128", "paired / int128", "instr/sample",
              "decisions/sample", "candidates/sample", "random bytes/sample", "base",
              f"samples ≠ base (of {data.get('agree_samples')})")
    rows = [(r["name"], fixed(r["cycles_per_sample_median"], 1),
             f"{r['cycles_per_sample_p5']:.1f}–{r['cycles_per_sample_p95']:.1f}",
             fixed(r["ratio_to_facct_int128"], 3), fixed(r.get("paired_ratio_median"), 3),
             fixed(r.get("instructions_per_sample"), 1), fixed(r["trials_per_sample"], 4),
             fixed(r.get("candidates_per_sample", r["trials_per_sample"]), 4),
             fixed(r.get("bytes_per_sample"), 2), r.get("base", "facct_int128"),
             str(r["agree_differing"]))
            for r in data.get("results", [])]
    m = data.get("machine") or {}
    cal = data.get("calibration") or {}
    what = (f"{data.get('runs')} processes x {data.get('rounds_per_run')} rounds x "
            f"{data.get('samples_per_timing')} accepted samples; family/model/stepping "
            f"{m.get('cpu_family_model_stepping', '?')}; {m.get('compiler', '?')}, "
            f"`{m.get('cflags', '')}`; {cal.get('cycles_per_tick_median', 0):.4f} core cycles per "
            "TSC tick (imul chain); cycles are core cycles (medians after P5-P95 filtering)")
    targets = [(f"`{t['kernel']}`", f"<= {t['max_ratio_to_facct_int128']:.2f}", fixed(t["ratio"], 3),
                verdict(t["met"], "met", "**not met**")) for t in data.get("targets", [])]
    out = (measured_on(data, source, what) + "\n" + table.markdown(header, rows) + "\n\n"
           + table.markdown(("kernel", "target (cycles / int128's)", "measured", "on this CPU"),
                            targets) + "\n")
    spec = data.get("speculative")
    if spec and spec.get("rows"):
        best = spec["best_sequential"]
        spec_rows = [(f"`{r['name']}`", fixed(r["ratio_to_best_sequential"], 3),
                      fixed(r["candidates_over_sequential"], 2), fixed(r["bytes_over_sequential"], 2),
                      verdict(r["beats_best_sequential"], "yes", "**no**")) for r in spec["rows"]]
        out += "\n" + table.markdown(
            ("speculative loop", f"cycles / `{best}`'s (the fastest sequential loop)",
             "candidates / sequential", "random bytes / sequential", "faster"), spec_rows) + "\n"
    return out


# docs/bench.md's causes of the speculative loops' cost: per row, a loop,
# the loop it is compared with, and what differs between the two.
SAMPLER_COSTS: tuple[tuple[str, str, str], ...] = (
    ("spec4_facct_int128", "facct_int128", "4 candidates per round, the same kernel"),
    ("pool4_facct_int128", "facct_int128", "the same, undecided candidates' base samples kept"),
    ("spec4_facct_int128", "pool4_facct_int128", "base samples not kept"),
    ("spec4_facct_int128", "spec4_batch_avx2", "4 scalar calls instead of one batch call"),
    ("pool4_facct_int128", "pool4_batch_avx2", "the same, with the pool"),
    ("pool4_batch_avx2", "falcon_x86_simd", "the pooled batch loop against the sequential loop of its scalar adaptor"),
)


def bench_sampler_costs(data: dict[str, Any], source: Path) -> str:
    """Pairs of sampler loops from one run: how many cycles and callgrind
    instructions per accepted sample the first costs over the second."""
    by_name = {r["name"]: r for r in data.get("results", [])}
    rows = []
    for loop, other, what in SAMPLER_COSTS:
        a, b = by_name.get(loop), by_name.get(other)
        if a is None or b is None:
            continue
        ia, ib = a.get("instructions_per_sample"), b.get("instructions_per_sample")
        rows.append((f"`{loop}`", f"`{other}`", what,
                     fixed(a["cycles_per_sample_median"] - b["cycles_per_sample_median"], 1),
                     fixed(a["cycles_per_sample_median"] / b["cycles_per_sample_median"], 3),
                     None if ia is None or ib is None else fixed(ia - ib, 1)))
    header = ("loop", "against", "what differs", "cycles/sample more", "cycles ratio", "instructions/sample more")
    return (measured_on(data, source, "Medians of the sampler table's run; negative: fewer")
            + "\n" + table.markdown(header, rows) + "\n")


def bench_candidates(data: dict[str, Any], source: Path) -> str:
    """The candidate flagships next to falcon_x86 and the references."""
    header = ("variant", "chain", "batch", "instr/call", "error bound (2^-63)")
    rows = [(r["name"], fixed(r["chain_cycles_median"], 1), fixed(r["batch_cycles_median"], 1),
             f"{r['instructions_per_call']:.0f}", sig(r.get("error_2p63"), 6))
            for r in data.get("results", []) if r["kind"] != "baseline"]
    return measured_on(data, source, _bench_what(data)) + "\n" + table.markdown(header, rows) + "\n"


def _mcu(data: dict[str, Any], source: Path, default_machine: str) -> str:
    """A microcontroller table (build/m3.json, build/m4.json): instructions,
    worst-case cycles, scan, identity, table and code bytes, error bound and
    measured error distribution (units of 2^-63; "-" where a run did not
    record it)."""
    header = ("code", "instructions per call", "worst-case cycles (TRM model)", "long multiplies",
              "cond. branches", "float calls", "bit-identical to host", "table bytes", "code bytes",
              "log2 error bound", "bound (2^-63)", "mean / max error, uniform x",
              "mean / max error, small x", "2^-43 budget")
    rows = []
    for r in data.get("kernels", []):
        kind = "" if r.get("error_kind") == "proven" else " (measured)"
        dist = []
        for name in ("uniform", "small"):
            mean, top = r.get(f"error_{name}_mean"), r.get(f"error_{name}_max")
            dist.append(None if mean is None or top is None else f"{mean:.2f} / {top:.2f}")
        rows.append((r["name"], r["instructions_per_call"], r["cycles_model_worst"], r["long_mul"],
                     r["cond_branches"], r["float_calls"], r["bit_identical"], r.get("table_bytes"),
                     r.get("code_bytes"), f"{r['error_log2']:.2f}{kind}", sig(r.get("error_bound_2p63"), 6),
                     *dist, verdict(r["budget_2p43"] == "ok")))
    method = data.get("method") or {}
    quick = " (quick run: few vectors)" if method.get("quick") else ""
    what = f"QEMU {method.get('machine', default_machine)}, instructions from an execution trace{quick}"
    return measured_on(data, source, what) + "\n" + table.markdown(header, rows) + "\n"


def m3(data: dict[str, Any], source: Path) -> str:
    """The Cortex-M3 table (build/m3.json)."""
    return _mcu(data, source, "mps2-an385")


def m4(data: dict[str, Any], source: Path) -> str:
    """The Cortex-M4 table (build/m4.json): facct_m4 is the baseline."""
    return _mcu(data, source, "mps2-an386")


def _entries(data: dict[str, Any], source: Path, kernel_name: str, wrapper: str,
             baseline: str, baseline_fn: str) -> str:
    """One kernel's entry points next to a reference's."""
    by_name = {r["name"]: r for r in data.get("kernels", [])}
    labels = (("domain", f"`{wrapper}_fpr_domain` (`_fpr_expm_p63_domain_bits`, the headline)"),
              ("fpr", f"`{wrapper}_fpr` (`_fpr_expm_p63`: conversions and edge rules)"),
              ("expm", f"`{wrapper}_expm` (`_expm_p63` from z, w)"), ("eval", f"`{wrapper}_eval`"))
    rows = []
    kernel = by_name.get(kernel_name, {}).get("functions", {})
    for label, text in labels:
        if label in kernel:
            rows.append((text, kernel[label]["instructions_per_call"],
                         kernel[label]["cycles_model_worst"]))
    ref = by_name.get(baseline)
    if ref is not None:
        rows.append((f"{baseline} `{baseline_fn}`", ref["instructions_per_call"],
                     ref["cycles_model_worst"]))
    header = ("entry", "instructions/call", "cycles (worst model)")
    return (measured_on(data, source, f"{kernel_name} per entry point (QEMU)")
            + "\n" + table.markdown(header, rows) + "\n")


def m3_entries(data: dict[str, Any], source: Path) -> str:
    """falcon_m3's entry points next to facct_portable's."""
    return _entries(data, source, "falcon_m3", "m3", "facct_portable", "facct_ref_expm_p63")


def m4_entries(data: dict[str, Any], source: Path) -> str:
    """falcon_m4's entry points next to facct_m4's (the same wrappers of
    m3/kprog.c, built for the M4)."""
    return _entries(data, source, "falcon_m4", "m3", "facct_m4", "facct_m4_expm_p63")


def m3_variants(data: dict[str, Any], source: Path) -> str:
    """The falcon_m3 variants of kernels/m3_variants/ (`make m3-variants`)."""
    header = ("configuration", "what it is", "table bytes", "proven bound (log2)",
              "instructions/call (`_domain_bits`)", "`_fpr_expm_p63`")
    rows = []
    for r in data.get("kernels", []):
        fpr = (r.get("functions") or {}).get("fpr") or {}
        rows.append((r["name"], r.get("description"), r.get("table_bytes"),
                     f"{r['error_log2']:.2f}", r["instructions_per_call"],
                     fpr.get("instructions_per_call")))
    return (measured_on(data, source, "One `make m3-variants` run")
            + "\n" + table.markdown(header, rows, "llrrrr") + "\n")


def clamp(data: dict[str, Any], source: Path) -> str:
    """The index clamp's cost (`make clamp-cost`): instructions per call with and without it."""
    header = ("kernel", "entry", "with the clamp", "without", "cost", "ratio")
    rows = [(r["name"], f"`_{entry}`" if entry == "eval" else "`_expm_p63`", f"{e['with_clamp']:.1f}",
             f"{e['without']:.1f}", f"+{e['cost']:.1f}", f"{e['ratio']:.3f}")
            for r in data.get("kernels", []) for entry, e in r["entries"].items()]
    return (measured_on(data, source, "Instructions per call (callgrind, x86-64, gcc -O2), z over the domain")
            + "\n" + table.markdown(header, rows, "llrrrr") + "\n")

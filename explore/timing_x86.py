"""A short chain/batch timing of the x86-64 front, after the instruction
counts: the front's kernels and the shipped one in one bench harness
(bench/harness.c, registry from bench/gen_registry.py), RUNS processes of
ROUNDS rounds each through bench.run (TSC ticks converted to core cycles by
each process's own imul-chain calibration, P5-P95 filtered), so that the
kernels are compared by figures measured in one run.  The cycles reported
are the median chain cycles per call of `<name>_fpr_expm_p63_domain`
(latency); the batch median (throughput) goes to the JSON beside them,
and so do the cycles per element of each batch form a kernel carries (its
`<name>/batch-<isa>` rows: the array entry on 1024-element tables).
On a shared machine these move by a few percent from run to run: compare
them with each other, not across runs."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import kfolder
from bench import gen_registry, run as bench_run

from . import cost_x86

RUNS = 3
ROUNDS = 200
CALLS = 1000
WARMUP_MS = 100


def time_front(kernels: dict[str, Path], work: Path) -> dict[str, dict[str, Any]]:
    """name -> {"chain_cycles", "batch_cycles", "batch_isa_cycles"} for
    each kernel folder's parent (the generated folder holding it) in
    `kernels`; batch_isa_cycles maps an instruction set to the batch
    median per element of that batch form (empty without batch forms, or
    where the CPU lacks the set)."""
    links = work / "kernels"
    links.mkdir(parents=True, exist_ok=True)
    for name, gen_dir in kernels.items():
        link = links / name
        if link.is_symlink():
            link.unlink()
        link.symlink_to((gen_dir / name).resolve())
    loaded = [kfolder.load(links, name) for name in kernels]
    registry = work / "registry.c"
    registry.write_text(gen_registry.render(loaded))
    binary = work / "bench_main"
    cost_x86.compile_harness(registry, links, binary)
    runs = [bench_run.one_run(binary, seed, ROUNDS, CALLS, WARMUP_MS) for seed in range(1, RUNS + 1)]
    _, results = bench_run.summarise(runs)
    out: dict[str, dict[str, Any]] = {}
    per_isa: dict[str, dict[str, float]] = {name: {} for name in kernels}
    for r in results:
        if r["name"].endswith(gen_registry.DOMAIN_SUFFIX):
            name = r["name"][: -len(gen_registry.DOMAIN_SUFFIX)]
            out[name] = {"chain_cycles": round(r["chain_cycles_median"], 1),
                         "batch_cycles": round(r["batch_cycles_median"], 1)}
        elif gen_registry.BATCH_PREFIX in r["name"] and r.get("batch_cycles_median") is not None:
            name, isa = r["name"].split(gen_registry.BATCH_PREFIX, 1)
            per_isa[name][isa] = round(r["batch_cycles_median"], 2)
    for name, figures in out.items():
        figures["batch_isa_cycles"] = per_isa.get(name, {})
    return out

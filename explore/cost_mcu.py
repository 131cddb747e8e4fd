"""A candidate's cost on a Cortex-M core (QEMU mps2-an385 for the M3,
mps2-an386 for the M4), through the m3/ tooling's public functions, which
serve both cores: the bench program of m3/build.py built with the core's
flags, traced by m3/trace.py (executed instructions per call of
`m3_fpr_domain`, the non-inlined wrapper of the kernel's
`_fpr_expm_p63_domain_bits`), and the core's worst-case cycle model
(m3/cm3_timing.tsv or m3/cm4_timing.tsv, m3/timing.py).  Code bytes: the
size of that wrapper, which inlines the whole kernel (the table is not
counted)."""
from __future__ import annotations

from pathlib import Path

from m3 import build, disasm, timing, trace
from m3.toolchain import CORES, M3Error

ENTRY = "m3_fpr_domain"
TRACE_CALLS = 8           # as m3/report.py: 8 + 16 calls traced


class CostError(RuntimeError):
    """A build or measurement step failed; the message is one line."""


def measure(name: str, gen_dir: Path, work: Path, core_name: str) -> dict[str, float | int | None]:
    """instructions (per call; the mean if calls differ), cycles (worst-case
    model over the traced calls), code_bytes of one kernel on the core
    named `core_name` ("m3" or "m4")."""
    core = CORES[core_name]
    try:
        target = build.load_kernel(name, gen_dir)
        elf = build.build_bench(target, work, TRACE_CALLS, "trace", core)
        syms = disasm.symbols(elf)
        stats = trace.per_call(trace.trace_pcs(elf, core=core), disasm.disassemble(elf),
                               {ENTRY: syms[ENTRY][0]}, timing.for_core(core))[ENTRY]
    except (M3Error, KeyError) as exc:
        raise CostError(f"{core.name.upper()} measurement of {name}: {exc}") from None
    if not stats.counts:
        raise CostError(f"{core.name.upper()} measurement of {name}: no call of {ENTRY} traced")
    counts = stats.counts
    insns = counts[0] if min(counts) == max(counts) else round(sum(counts) / len(counts), 2)
    return {"instructions": insns, "cycles": max(stats.cycles), "code_bytes": syms[ENTRY][1]}

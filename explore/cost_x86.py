"""A candidate's cost on x86-64: callgrind instructions per call of its
Falcon-domain adaptor `<name>_fpr_expm_p63_domain`, through the bench's own
harness and registry (bench/harness.c, bench/gen_registry.py,
bench/callgrind.py), built with the bench's flags (-O2 -ffp-contract=off
-march=x86-64-v3).  The count is the bench's chain-loop figure: one call
plus its share of the loop (the bench's null row, 8 instructions on the
shipped build).  Code bytes: the size of a one-line function that calls the
adaptor, compiled alone with the same flags (the table is not counted).
Cycles: not here (explore/timing_x86.py times the front afterwards)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import kfolder
from bench import callgrind, gen_registry

ROOT = Path(__file__).resolve().parent.parent
CFLAGS = ["-O2", "-Wall", "-Wextra", "-ffp-contract=off", "-march=x86-64-v3"]
INCLUDES = [ROOT / "bench", ROOT / "runtime", ROOT / "toolkit" / "c"]


class CostError(RuntimeError):
    """A build or measurement step failed; the message is one line."""


def _cc(args: list[str], what: str) -> None:
    res = subprocess.run([os.environ.get("CC", "cc"), *args], capture_output=True, text=True)
    if res.returncode != 0:
        lines = [ln for ln in res.stderr.splitlines() if "error" in ln] or res.stderr.splitlines() or ["?"]
        raise CostError(f"compiling {what} failed: {lines[0]}")


def code_bytes(kernel: kfolder.Kernel, work: Path) -> int:
    """Bytes of machine code of one call of the domain adaptor, inlined."""
    src, obj = work / "code_probe.c", work / "code_probe.o"
    src.write_text("#include <stdint.h>\n"
                   f'#include "{kernel.falcon_header.name}"\n'
                   "uint64_t explore_probe(double x, double ccs);\n"
                   "uint64_t explore_probe(double x, double ccs) "
                   f"{{ return {kernel.name}_fpr_expm_p63_domain(x, ccs); }}\n")
    _cc([*CFLAGS, *kernel.cflags, f"-I{kernel.folder}", "-c", str(src), "-o", str(obj)], "the code-size probe")
    res = subprocess.run(["nm", "-S", "--defined-only", str(obj)], capture_output=True, text=True)
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[3] == "explore_probe":
            return int(parts[1], 16)
    raise CostError("nm found no explore_probe in the code-size probe")


def compile_harness(registry: Path, gen_dir: Path, binary: Path) -> None:
    """bench/harness.c with a registry of kernels found under gen_dir."""
    _cc([*CFLAGS, *[f"-I{i}" for i in INCLUDES], f"-I{gen_dir}", str(ROOT / "bench" / "harness.c"),
         str(registry), "-o", str(binary)], "the bench harness")


def measure(kernel: kfolder.Kernel, gen_dir: Path, work: Path) -> dict[str, float | int | None]:
    """instructions, cycles (None), code_bytes of one kernel."""
    work.mkdir(parents=True, exist_ok=True)
    registry = work / "registry.c"
    registry.write_text(gen_registry.render([kernel]))
    binary = work / "bench_main"
    compile_harness(registry, gen_dir, binary)
    try:
        insns = callgrind.instructions_per_call(binary, kernel.name + gen_registry.DOMAIN_SUFFIX)
    except callgrind.CallgrindError as exc:
        raise CostError(str(exc)) from None
    return {"instructions": round(insns, 2), "cycles": None, "code_bytes": code_bytes(kernel, work)}

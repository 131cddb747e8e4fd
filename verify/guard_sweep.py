"""The guard-bit sweep: how much the evaluation adds to the approximation.

`make guard-sweep` renders kernels/sweep/*.toml (the sweep configs of
docs/error-model.md, section "Guard bits": 1 x 12, 8 x 8, 4 x 10, 2 x 10 at
2^-63 and 32 x 6 at 2^-62, each with every key at its default, where the
generator keeps the last Horner steps on two words, and with wide = false,
every step on one word), checks each with the same checker as the shipped
kernels (full coverage), and writes one table:

    approx   the proven error of the quantized polynomial alone (the
             sidecar's largest per-segment approx_bound), units of 2^-S
    measured the checker's largest |_eval(z) - f(z/2^W) 2^S| over its
             inputs, units of 2^-S
    excess   measured - approx: what the evaluation (and its final
             rounding) adds
    proven   the proven bound of _eval, units of 2^-S
    instr    instructions of _eval and of _expm_p63, counted in their
             machine code (cc -O2, each forced inline into one function;
             the kernels are branch-free, so this is what one call runs)
    target   measured <= approx + 0.6 (the guard-bit target), judged only for
             the configs whose quantized polynomial is within 0.5 unit

Outputs: build/guard_sweep/gen (the kernels), build/guard_sweep/check (the
checker's files), build/guard_sweep.json, and the table on stdout.

Usage: python3 -m verify.guard_sweep --configs kernels/sweep --build build/guard_sweep
                                     --out build/guard_sweep.json [--threads N] [--quick]
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Optional

import kfolder
from gen import progress
from toolkit import provenance
from toolkit.files import write_text_atomic
from bench.static_count import StaticCountError, disassemble
from toolkit.table import render
from verify import user_kernel

ROOT = Path(__file__).resolve().parent.parent
TARGET_EXCESS = 0.6        # units of 2^-S the evaluation may add (the target)
APPROX_ELIGIBLE = 0.5      # the target is judged where the quantized polynomial is within this


def meets_target(approx: float, measured: float) -> Optional[bool]:
    """Whether the evaluation adds at most TARGET_EXCESS units to the
    approximation; None where the target does not apply (a quantized
    polynomial already worse than APPROX_ELIGIBLE)."""
    return None if approx > APPROX_ELIGIBLE else measured <= approx + TARGET_EXCESS


COST_CFLAGS = ["-O2"]
# One function per entry point, everything inlined into it, so that its
# machine code is the whole call.
COST_PROGRAM = """#include "{name}.h"
__attribute__((noinline, flatten)) uint64_t gs_eval(uint64_t z) {{ return {name}_eval(z); }}
__attribute__((noinline, flatten)) uint64_t gs_expm(uint64_t z, uint64_t w) {{ return {name}_expm_p63(z, w); }}
"""


def instructions(folder: Path, name: str, work: Path) -> dict[str, int]:
    """Instructions of _eval and _expm_p63 of the kernel in ``folder``,
    from the machine code (StaticCountError if one has a jump or a call,
    where the static count would not be what a call runs)."""
    work.mkdir(parents=True, exist_ok=True)
    source, obj = work / f"{name}_cost.c", work / f"{name}_cost.o"
    source.write_text(COST_PROGRAM.format(name=name))
    proc = subprocess.run(["cc", *COST_CFLAGS, f"-I{folder}", "-c", str(source), "-o", str(obj)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise StaticCountError(f"{name}: the cost program does not compile: {proc.stderr.strip()[:200]}")
    counts = {}
    for entry, function in (("eval", "gs_eval"), ("expm_p63", "gs_expm")):
        code = disassemble(obj, function)
        jumps = [m for _, m, _ in code if m.startswith(("j", "call"))]
        if jumps:
            raise StaticCountError(f"{name}: {function} has {jumps[0]}: not straight-line code")
        counts[entry] = len(code)
    return counts


def sweep_row(config: Path, generated: Path, check_dir: Path, threads: int, quick: bool) -> dict:
    """Render-checked figures of one sweep config."""
    name = user_kernel.kernel_name(config)
    try:
        kernel = kfolder.load(generated, name)
    except kfolder.KernelFolderError as exc:
        raise user_kernel.UserKernelError(str(exc)) from None
    if not kernel.fixed_point:
        raise user_kernel.UserKernelError(f"{config}: kernel {name} has no _eval (\"fixed_point\": false); "
                                          "the sweep measures what _eval's evaluation adds")
    user_kernel.check_user_kernel(config, generated, check_dir, threads, [], quick, [])
    scale = 2.0 ** kernel.sidecar["scale_bits"]
    approx = max(float(s["approx_bound"]) for s in kernel.sidecar["segment_list"]) * scale
    result = json.loads((check_dir / name / "audit.json").read_text())["kernels"][0]
    measured = result["eval"]["max_err_ulp"]
    return {"name": name, "segments": kernel.sidecar["segments"], "degree": kernel.sidecar["degree"],
            "scale_bits": kernel.sidecar["scale_bits"], "form": kernel.sidecar["form"],
            "wide_steps": int(kernel.sidecar["parameters"].get("wide", False)),
            "approx_ulp": approx, "measured_ulp": measured, "excess_ulp": measured - approx,
            "proven_ulp": kernel.sidecar["bound"]["eval_ulp"],
            "inputs_checked": result["eval"]["inputs_checked"],
            "instructions": instructions(generated / name, name, check_dir / "cost"),
            "target": meets_target(approx, measured)}


def table(rows: list[dict], style: str = "text") -> str:
    """The sweep as a table (style "text" or "markdown", toolkit.table)."""
    head = ["config", "form", "two-word steps", "approx 2^-S", "measured 2^-S", "excess", "proven 2^-S", "inputs",
            "instr _eval", "instr _expm_p63", f"<= approx + {TARGET_EXCESS}"]
    body = [[r["name"], r["form"], str(r["wide_steps"]), f"{r['approx_ulp']:.3f}",
             f"{r['measured_ulp']:.3f}", f"{r['excess_ulp']:.3f}", f"{r['proven_ulp']:.3f}",
             str(r["inputs_checked"]), str(r["instructions"]["eval"]), str(r["instructions"]["expm_p63"]),
             f"n/a (approx > {APPROX_ELIGIBLE})" if r["target"] is None else ("yes" if r["target"] else "no")]
            for r in rows]
    return render(head, body, style)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m verify.guard_sweep", description=__doc__.splitlines()[0])
    parser.add_argument("--configs", type=Path, required=True, help="folder of sweep configs (*.toml)")
    parser.add_argument("--build", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="about 10^6 inputs per kernel instead of 10^8")
    args = parser.parse_args(argv)
    configs = sorted(args.configs.glob("*.toml"))
    if not configs:
        print(f"guard_sweep: error: no *.toml in {args.configs}", file=sys.stderr)
        return 2
    generated = args.build / "gen"
    render_cmd = [sys.executable, "-m", "gen", "render", *map(str, configs), "--out", str(generated), "--quiet"]
    if subprocess.run(render_cmd, cwd=ROOT).returncode != 0:
        print("guard_sweep: error: rendering the sweep configs failed", file=sys.stderr)
        return 1
    try:
        with progress.Reporter():
            rows = [sweep_row(c.resolve(), generated.resolve(), (args.build / "check").resolve(),
                              args.threads, args.quick) for c in configs]
    except (user_kernel.UserKernelError, StaticCountError) as exc:
        print(f"guard_sweep: error: {exc}", file=sys.stderr)
        return 1
    print(table(rows))
    cc = subprocess.run(["cc", "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    record = {"measured_on": provenance.measured_on(), "cost_compiler": " ".join(cc + COST_CFLAGS),
              "target_excess_ulp": TARGET_EXCESS,
              "approx_eligible_ulp": APPROX_ELIGIBLE, "quick": args.quick, "configs": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(args.out, json.dumps(record, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

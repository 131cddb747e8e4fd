"""Run the three constant-time checks on every kernel and on the controls,
write the JSON report, and fail if a control is misjudged.

    python3 -m ct.run --kernels "facct paper_x86" --out build/ct.json
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from pathlib import Path

import kfolder
from ct.build import BuildError, Toolchain, build_all
from ct.kernels import Kernel, KernelError, cpu_has, entries, load_kernel
from ct.report import EntryEvidence, judge_controls, kernel_summary, table
from ct.controls.render import NAMES, render_controls
from ct.scan import scan_function
from ct.taint import TaintError, TaintResult, run_memcheck
from ct.ttest import T_THRESHOLD, TTestError, TTestResult, run_ttest, run_with_retry
from toolkit import provenance
from toolkit.disasm.x86 import objdump, parse_objdump
from toolkit.files import write_text_atomic

CONTROLS = NAMES   # rendered by ct/controls/render.py into <build-dir>/controls
LEAKY_TIMING_CONTROL = "ctl_branch_eval"


def _args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernels", default="", help="space-separated kernel names")
    p.add_argument("--gen-dir", type=Path, default=Path("generated"))
    p.add_argument("--cc", default="gcc")
    p.add_argument("--cflags", default="-O2 -Wall -Wextra")
    p.add_argument("--build-dir", type=Path, default=Path("build/ct"))
    p.add_argument("--out", type=Path, default=Path("build/ct.json"))
    p.add_argument("--ttest-n", type=int, default=10_000_000, help="measurements per entry")
    p.add_argument("--control-n", type=int, default=1_000_000, help="measurements of the leaky control")
    p.add_argument("--taint-calls", type=int, default=2000, help="memcheck calls per entry")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ttest-control", default=LEAKY_TIMING_CONTROL,
                   help="entry the t-test must flag on every run (tests swap it to prove the gate)")
    a = p.parse_args(argv)
    if a.ttest_n < 2000 or a.control_n < 2000 or a.taint_calls < 1:
        p.error("--ttest-n and --control-n must be >= 2000, --taint-calls >= 1")
    return a


def _load(names: list[str], gen_dir: Path, build_dir: Path) -> list[Kernel]:
    """The kernels, then the controls, rendered afresh with the generator."""
    for n in names:
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", n) or n in CONTROLS:
            raise KernelError(f"bad kernel name '{n}'")
    controls = build_dir / "controls"
    render_controls(controls)
    return [load_kernel(gen_dir, n) for n in names] + [load_kernel(controls, n) for n in CONTROLS]


def _control_ttest(harness: Path, entry: str, n: int, seed: int) -> TTestResult:
    r = run_ttest(harness, entry, n, seed)
    print(f"  t-test control {entry}: max|t| = {r.max_t:.1f} over {n} measurements", flush=True)
    return r


def run(a: argparse.Namespace) -> int:
    """The whole pipeline; returns the process exit status."""
    names = a.kernels.split()
    kernels = _load(names, a.gen_dir, a.build_dir)
    tc = Toolchain(a.cc, tuple(shlex.split(a.cflags)))
    built = build_all(tc, kernels, a.build_dir)
    print(f"ct: {len(names)} kernels + {len(CONTROLS)} controls, {tc.version()}, flags {tc.flags_text}", flush=True)

    controls_t = [_control_ttest(built.ttest, a.ttest_control, a.control_n, a.seed)]
    evidence: dict[str, list[EntryEvidence]] = {}
    for k in kernels:
        funcs = parse_objdump(objdump(built.objects[k.name]))
        # Batch entries of an instruction set this CPU lacks cannot run: they
        # are left out (and named); valgrind runs no AVX-512 entry.
        runnable = [e for e in entries(k) if cpu_has(e.isa)]
        skipped = [e.name for e in entries(k) if not cpu_has(e.isa)]
        if skipped:
            print(f"  {k.name}: this CPU cannot run {', '.join(skipped)}: not checked", flush=True)
        taint = run_memcheck(built.taint, {e.wrapper: e.name for e in runnable if e.valgrind_runs},
                             a.taint_calls, a.build_dir / f"memcheck_{k.name}.xml")
        taint.update({e.name: TaintResult(ran=False) for e in runnable if not e.valgrind_runs})
        evidence[k.name] = []
        for e in runnable:
            if e.wrapper not in funcs:
                raise BuildError(f"wrapper {e.wrapper} not found in {built.objects[k.name]}")
            t, history = run_with_retry(built.ttest, e.name, a.ttest_n, a.seed)
            evidence[k.name].append(EntryEvidence(e.name, e.is_native, taint[e.name], t, history,
                                                  scan_function(funcs, e.wrapper, e.is_native or k.uses_float,
                                                                simd=e.is_batch)))
        print(f"  {k.name}: done", flush=True)
    controls_t.append(_control_ttest(built.ttest, a.ttest_control, a.control_n, a.seed + 1))

    verdicts = judge_controls(evidence, controls_t)
    summaries = {k.name: kernel_summary(k, evidence[k.name]) for k in kernels}
    report = {
        "compiler": tc.version(),
        "cc": a.cc,
        "flags": tc.flags_text,
        "ttest_threshold": T_THRESHOLD,
        "ttest_control": {"entry": a.ttest_control, "max_t": [r.max_t for r in controls_t],
                          "measurements": a.control_n},
        "kernels": [summaries[n] for n in names],
        "controls": [summaries[n] for n in CONTROLS],
        "control_checks": verdicts,
        "leaky_control_detected": all(v for key, v in verdicts.items() if "flags" in key),
    }
    report["measured_on"] = provenance.measured_on()
    write_text_atomic(a.out, json.dumps(report, indent=2) + "\n")
    print(table(report))
    failed = [key for key, ok in verdicts.items() if not ok]
    if failed:
        print(f"ct: FAIL: controls misjudged: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"ct: controls all judged right; report in {a.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    a = _args(sys.argv[1:] if argv is None else argv)
    try:
        return run(a)
    except (KernelError, kfolder.KernelFolderError, BuildError, TaintError, TTestError,
            OSError) as exc:
        print(f"ct: error: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

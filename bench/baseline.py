"""The committed instruction-count baseline and the comparison against it.

Usage:
  python3 -m bench.baseline write BENCH_MAIN OUT.json    count every variant, store them
  python3 -m bench.baseline check BENCH_MAIN BASELINE.json
      recount and exit 1, listing the differences, if any variant moved by
      more than the tolerance or the variant sets differ.

Instruction counts under callgrind are deterministic for a given binary, so
a move means the code changed (kernel, compiler or flags); the tolerance
only absorbs the fractional remainder of the per-call division.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.callgrind import CallgrindError, count_all

# Allowed move: max(ABS_TOL instructions, REL_TOL of the baseline count).
ABS_TOL = 0.5
REL_TOL = 0.01


def available_variants(binary: Path) -> list[str]:
    """Names of the variants this CPU can run, from `bench_main list`."""
    out = subprocess.run([str(binary), "list"], capture_output=True, text=True, check=True)
    rows = [line.split() for line in out.stdout.splitlines()]
    return [r[0] for r in rows if r[2] == "1"]


def compare(baseline: dict[str, float], current: dict[str, float]) -> list[str]:
    """One message per problem; empty when current matches the baseline."""
    problems = [f"{n}: in the baseline but not measured" for n in sorted(baseline.keys() - current.keys())]
    problems += [f"{n}: not in the baseline (run make bench-baseline)"
                 for n in sorted(current.keys() - baseline.keys())]
    for name in sorted(baseline.keys() & current.keys()):
        old, new = baseline[name], current[name]
        if abs(new - old) > max(ABS_TOL, REL_TOL * old):
            problems.append(f"{name}: {old:.2f} -> {new:.2f} instructions per call")
    return problems


def load(path: Path) -> dict[str, float]:
    data = json.loads(path.read_text())
    return {str(k): float(v) for k, v in data["instructions_per_call"].items()}


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[1] not in ("write", "check"):
        print("usage: python3 -m bench.baseline write|check BENCH_MAIN FILE.json", file=sys.stderr)
        return 2
    binary, path = Path(argv[2]), Path(argv[3])
    try:
        counts = {n: round(c, 2) for n, c in count_all(binary, available_variants(binary)).items()}
        if argv[1] == "write":
            path.write_text(json.dumps({
                "note": "callgrind instructions per call (chain loop); "
                        "rewrite with make bench-baseline after an intended change",
                "tolerance": {"abs": ABS_TOL, "rel": REL_TOL},
                "instructions_per_call": counts}, indent=2) + "\n")
            print(f"wrote {path}: {len(counts)} variants")
            return 0
        problems = compare(load(path), counts)
    except (CallgrindError, OSError, KeyError, ValueError, subprocess.CalledProcessError) as exc:
        print(f"baseline: {exc}", file=sys.stderr)
        return 2
    for p in problems:
        print(f"baseline: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Measure the checker's two speed targets and print the figures.

 * the exhaustive sweep of a 32-bit kernel (about 3 * 10^9 inputs): target
   <= 60 s wall on a 2-core machine;
 * random checking of a 64-bit kernel: target >= 10^7 inputs per second per
   core, for eval and for expm_p63 separately.

The sweep uses the first 32-bit kernel among the names given; the random
rate is measured on every 64-bit kernel (the kernel's own cost is part of
it).  Figures
come from the checker's --timing output (set-up = MPFR tables, run = the
checking itself) plus the wall time of the whole process.  This reports;
it asserts nothing (the machine is shared and noisy).

Usage: python3 -m verify.checker_speed [--check-dir DIR] [--threads N]
                                         [--random N] NAME...
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SWEEP_TARGET_S = 60.0
RATE_TARGET = 1e7


def word_bits(plan: Path) -> int:
    for line in plan.read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(" ")
        if key == "word_bits":
            return int(value)
    raise ValueError(f"{plan}: no word_bits line")


def run_timed(binary: Path, plan: Path, extra: list[str]) -> tuple[dict[str, Any], float]:
    """Runs the checker; returns its timing record and the process wall time."""
    with tempfile.TemporaryDirectory() as tmp:
        timing = Path(tmp) / "timing.json"
        start = time.monotonic()
        result = subprocess.run([str(binary), "--plan", str(plan),
                                 "--out", str(Path(tmp) / "r.json"),
                                 "--timing", str(timing), *extra])
        if result.returncode != 0:
            raise RuntimeError(f"{binary} exited with status {result.returncode}")
        wall = time.monotonic() - start
        return json.loads(timing.read_text(encoding="utf-8")), wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="+")
    parser.add_argument("--check-dir", type=Path, default=Path("build/check"))
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--random", type=int, default=20_000_000)
    args = parser.parse_args(argv)
    try:
        widths = {name: word_bits(args.check_dir / f"{name}.plan") for name in args.names}
    except (OSError, ValueError) as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 2
    names32 = [n for n in args.names if widths[n] == 32]
    names64 = [n for n in args.names if widths[n] == 64]
    try:
        report(args.check_dir, names32, names64, args.threads, args.random)
    except RuntimeError as exc:
        print(f"bench: error: {exc}", file=sys.stderr)
        return 2
    return 0


def report(check_dir: Path, names32: list[str], names64: list[str], n_threads: int,
           n_random: int) -> None:
    """Runs the measurements and prints one line per figure."""
    threads = ["--threads", str(n_threads)]
    quiet_64 = ["--edge", "0", "--extremum-width", "0", "--per-segment", "0"]

    if names32:
        name = names32[0]
        t, wall = run_timed(check_dir / f"check_{name}", check_dir / f"{name}.plan",
                            threads)
        verdict = "meets" if wall <= SWEEP_TARGET_S else "MISSES"
        print(f"exhaustive 32-bit sweep ({name}): {t['inputs']} inputs, {wall:.1f} s wall "
              f"({t['setup_s']:.1f} s set-up + {t['run_s']:.1f} s run, {n_threads} threads), "
              f"{verdict} the {SWEEP_TARGET_S:.0f} s target")
    else:
        print("exhaustive 32-bit sweep: no 32-bit kernel")

    n = str(n_random)
    for name in names64:
        binary, plan = check_dir / f"check_{name}", check_dir / f"{name}.plan"
        for label, extra in (("eval", ["--random", n, "--expm-random", "0"]),
                             ("expm_p63", ["--random", "0", "--expm-random", n])):
            t, _ = run_timed(binary, plan, threads + quiet_64 + extra)
            rate = t["per_s_per_thread"]
            verdict = "meets" if rate >= RATE_TARGET else "MISSES"
            print(f"64-bit random {label} ({name}): {t['inputs']} inputs in {t['run_s']:.2f} s, "
                  f"{rate:.3g} per second per core ({n_threads} threads), "
                  f"{verdict} the {RATE_TARGET:.0e} target")
    if not names64:
        print("64-bit random check: no 64-bit kernel")


if __name__ == "__main__":
    sys.exit(main())

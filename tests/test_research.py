"""The research prototype research/fp_batch (a faithful binary64 batch
design, hand-written, not a shipped kernel): on a quick sample its scalar,
AVX-512 and AVX2 forms agree bit for bit, its constant-time scalar forms
(perm, scan, zmm, ymm) give the same bits as its memory-table scalar form,
all stay within the error budget that its own bound.py states, and its four
broken controls (a wrong lane, a dropped error term, tiny x not flushed, a
constant-time scan that picks a wrong entry) are rejected."""
from __future__ import annotations

import re
import subprocess
import tempfile
import unittest
from pathlib import Path

from tests.helpers import ROOT

PROTO = ROOT / "research" / "fp_batch"


def _cpu_flags() -> set[str]:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


FOLD = ROOT / "research" / "fold_fast"


@unittest.skipUnless({"avx2", "fma", "avx512f", "avx512dq"} <= _cpu_flags(), "needs AVX2, FMA and AVX-512F/DQ")
class FpBatchPrototype(unittest.TestCase):
    def test_within_its_budget_bit_identical_and_controls_rejected(self) -> None:
        budget_out = subprocess.run(["python3", "bound.py"], cwd=PROTO, check=True, capture_output=True,
                                    text=True).stdout
        budget = float(re.search(r"^\s*([0-9.]+)\s+TOTAL bound", budget_out, re.M).group(1))
        self.assertLess(budget, 1.0)
        with tempfile.TemporaryDirectory() as tmp:
            make = ["make", "-s", "-C", str(PROTO), f"OUT={tmp}"]
            subprocess.run(make + [f"{tmp}/acc_bin"], check=True, capture_output=True, text=True)
            run = subprocess.run([f"{tmp}/acc_bin", "20000", "11"], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout[-2000:] + run.stderr[-2000:])
            self.assertIn("BIT IDENTITY scalar == avx512 == avx2: yes", run.stdout)
            # perm and scan need only AVX2; zmm and ymm are checked where the CPU has AVX-512F (and VL).
            self.assertRegex(run.stdout, r"BIT IDENTITY scalar == constant-time scalar perm == scan == zmm"
                                         r"( == ymm| \(ymm not checked: no AVX-512VL\)): yes \(0 mismatches\)")
            measured = float(re.search(r"MAX ERROR over all sets: ([0-9.]+) units", run.stdout).group(1))
            self.assertLessEqual(measured, budget)
            controls = subprocess.run(make + ["controls"], capture_output=True, text=True)
            self.assertEqual(controls.returncode, 0, controls.stdout + controls.stderr)
            self.assertEqual(controls.stdout.count(": caught"), 4, controls.stdout)



@unittest.skipUnless({"avx2", "fma"} <= _cpu_flags(), "needs AVX2 and FMA")
class FoldFastPrototype(unittest.TestCase):
    """research/fold_fast (a fast folded design, measured, not proven): on a
    quick sample its error against the double inputs stays below the fast
    kernel's budget of 32 units of 2^-63, its full adaptor's edge rules read
    every edge pattern as the clamped input, its two broken controls (the
    binary64 tail dropped, a middle word off by 2^-56) are rejected, and its
    rows enter the project's bench registry."""

    def test_within_budget_and_controls_rejected(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            make = ["make", "-s", "-C", str(FOLD), f"OUT={tmp}"]
            subprocess.run(make + [f"{tmp}/acc_bin"], check=True, capture_output=True, text=True)
            run = subprocess.run([f"{tmp}/acc_bin", "30000", "7"], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout[-2000:] + run.stderr[-2000:])
            self.assertNotIn("EDGE MISMATCH", run.stdout)
            measured = float(re.search(r"^max ([0-9.]+) units of 2\^-63", run.stdout, re.M).group(1))
            self.assertLess(measured, 32.0)
            controls = subprocess.run(make + ["controls"], capture_output=True, text=True)
            self.assertEqual(controls.returncode, 0, controls.stdout + controls.stderr)
            self.assertEqual(controls.stdout.count(": caught"), 2, controls.stdout)
            registry = Path(tmp) / "registry.c"
            subprocess.run(["python3", "research/fold_fast/scalar_bench.py", "registry", "generated", str(registry)],
                           cwd=ROOT, check=True, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT)})
            text = registry.read_text()
            for row in ("fold_domain", "fold_native", "facct_int128", "falcon_x86_fast/domain"):
                self.assertIn(f'{{"{row}"', text)


if __name__ == "__main__":
    unittest.main()

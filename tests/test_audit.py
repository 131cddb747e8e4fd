"""Tests of the audit (verify/audit.py): build/audit.json entries, the
budget verdicts, optional fields and columns, the Falcon adaptors' "fpr"
entries and the failures (exit 1) on a bound exceeded, and one-line
errors.  The checker results here are written by the tests; the checkers
themselves are tested in test_checker_*.py and test_fpr_audit.py."""
from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any

from tests.helpers import ROOT, minimal_sidecar, write_kernel_folder
from verify import audit


class AuditTest(unittest.TestCase):
    """build/audit.json entries, the budget verdict and optional fields."""

    def setUp(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="audit_"))
        self.addCleanup(shutil.rmtree, self.dir)
        (self.dir / "check").mkdir()

    def add(self, name: str, word_bits: int, eval_ulp: float, expm: dict[str, Any] | None,
            fpr: dict[str, Any] | None = None, **extra: Any) -> None:
        """A kernel folder and its checker results; Falcon adaptors (and a
        check_fpr result) exactly when `fpr` is given."""
        # No "bound" unless the test gives one: optional fields are copied only when present.
        overrides: dict[str, Any] = {"bound": None, **extra}
        sidecar = minimal_sidecar(name, segments=4, degree=5, scale_bits=word_bits - 1,
                                  word_bits=word_bits, table_bytes=96,
                                  falcon_adaptors=fpr is not None, **overrides)
        write_kernel_folder(self.dir / "generated", sidecar)
        check = {"eval": {"max_err_ulp": eval_ulp, "max_err_2p63": 0, "log2_abs_err": 0,
                          "worst_z": "7", "inputs_checked": 10, "exhaustive": word_bits == 32},
                 "expm_p63": expm}
        (self.dir / "check" / f"{name}.json").write_text(json.dumps(check))
        if fpr is not None:
            (self.dir / "check" / f"{name}.fpr.json").write_text(json.dumps({"kernel": name, **fpr}))

    def run_audit(self, *names: str) -> tuple[int, str, dict[str, Any] | None]:
        rc, out, _, data = self.run_audit_err(*names)
        return rc, out, data

    def run_audit_err(self, *names: str) -> tuple[int, str, str, dict[str, Any] | None]:
        """Exit status, stdout, stderr and the JSON written (None if none)."""
        out = self.dir / "audit.json"
        r = subprocess.run([sys.executable, "-m", "verify.audit", "--generated",
                            str(self.dir / "generated"), "--check-dir", str(self.dir / "check"),
                            "--out", str(out), *names], capture_output=True, text=True, cwd=ROOT)
        return r.returncode, r.stdout, r.stderr, json.loads(out.read_text()) if out.exists() else None

    def test_budget_verdicts_and_optional_fields(self) -> None:
        expm_ok = {"max_err_2p63": 0.5, "log2_abs_err": -64.0, "worst_z": "1",
                   "worst_w": "2", "inputs_checked": 20}
        expm_bad = dict(expm_ok, log2_abs_err=-42.5)
        self.add("good64", 64, 0.4, expm_ok, bound={"eval_ulp": 0.6, "expm_p63_2p63": 0.9})
        self.add("bad64", 64, 0.4, expm_bad)
        # 32-bit: 2^-43 absolute is 2^-12 units of 2^-31; one just inside,
        # one just outside.
        self.add("ok32", 32, 2.0**-12, None)
        self.add("bad32", 32, 2.0**-11.9, None)
        rc, table, data = self.run_audit("good64", "bad64", "ok32", "bad32")
        self.assertEqual(rc, 0)
        assert data is not None
        by_name = {k["name"]: k for k in data["kernels"]}
        self.assertEqual([by_name[n]["falcon_budget_ok"] for n in ("good64", "bad64", "ok32", "bad32")],
                         [True, False, True, False])
        self.assertEqual(by_name["good64"]["bound"], {"eval_ulp": 0.6, "expm_p63_2p63": 0.9})
        self.assertNotIn("bound", by_name["bad64"])
        self.assertIsNone(by_name["ok32"]["expm_p63"])
        self.assertEqual(set(by_name["good64"]["expm_p63"]), set(audit.EXPM_FIELDS))
        self.assertEqual(set(by_name["good64"]["eval"]), set(audit.EVAL_FIELDS))
        self.assertIn("bound 2^-S", table)
        self.assertEqual(table.count("FAIL"), 2)

    def test_measured_error_above_proven_bound_is_flagged(self) -> None:
        expm = {"max_err_2p63": 3.0, "log2_abs_err": -61.4, "inputs_checked": 20}
        self.add("under", 64, 0.4, dict(expm, max_err_2p63=1.0),
                 bound={"eval_ulp": 0.5, "expm_p63_2p63": 2.0})
        self.add("over", 64, 0.4, expm, bound={"eval_ulp": 0.5, "expm_p63_2p63": 2.0})
        rc, table, err, data = self.run_audit_err("under", "over")
        self.assertEqual(rc, 1)
        rows = {line.split()[0]: line for line in table.splitlines()[2:]}
        self.assertIn(" yes ", rows["under"])
        self.assertIn(" NO ", rows["over"])
        self.assertEqual(err.splitlines(), ["audit: FAIL: over: _expm_p63 (units of 2^-63) "
                                            "measured 3 > proven bound 2"])
        assert data is not None
        self.assertEqual([k["within_bounds"] for k in data["kernels"]], [True, False])

    def fpr_result(self, bound_macro: float, max_err: float, **extra: Any) -> dict[str, Any]:
        """A check_fpr result (the shape verify/check_fpr.c writes)."""
        return {"bound_macro": bound_macro, "max_err_2p63": max_err,
                "worst_x_bits": "0x3c10000000000001", "worst_ccs_bits": "0x3fefffffffffffff",
                "worst_result": "0x7fffffffffffff00", "worst_adaptor": "fpr_expm_p63_native",
                "log2_abs_err": math.log2(max_err) - 63, "inputs_checked": 1000,
                "over_bound": 0, "disagreements": 0, "first_disagreement": None, **extra}

    def test_fpr_entries_and_failures(self) -> None:
        """The adaptors' result lands in "fpr" with the sidecar's bound; an
        error over it, a disagreement and a header bound that is not the
        sidecar's each fail the audit with a line naming kernel and input."""
        bound = {"eval_ulp": 0.5, "expm_p63_2p63": 0.6, "fpr_expm_p63_2p63": 0.9}
        expm = {"max_err_2p63": 0.5, "log2_abs_err": -64.0, "inputs_checked": 20}
        self.add("honest", 64, 0.4, expm, self.fpr_result(0.9, 0.7), bound=bound)
        self.add("overshoot", 64, 0.4, expm, self.fpr_result(0.9, 1.4, over_bound=17), bound=bound)
        split = {"x_bits": "0x0000000000000001", "ccs_bits": "0x3fe0000000000000",
                 "results": {"fpr_expm_p63": "0x1", "fpr_expm_p63_domain": "0x2"}}
        self.add("split", 64, 0.4, expm, self.fpr_result(0.9, 0.7, disagreements=3,
                                                         first_disagreement=split), bound=bound)
        self.add("macro", 64, 0.4, expm, self.fpr_result(0.8, 0.7), bound=bound)
        rc, table, err, data = self.run_audit_err("honest", "overshoot", "split", "macro")
        self.assertEqual(rc, 1)
        assert data is not None
        by_name = {k["name"]: k for k in data["kernels"]}
        self.assertEqual(by_name["honest"]["fpr"]["bound"], 0.9)
        self.assertEqual(by_name["honest"]["fpr"]["worst_x_bits"], "0x3c10000000000001")
        self.assertTrue(by_name["honest"]["within_bounds"])
        # Falcon's budget is judged on the adaptors' error.
        self.assertAlmostEqual(audit.judged_log2_error(by_name["honest"]), math.log2(0.7) - 63)
        lines = err.splitlines()
        self.assertEqual(len(lines), 3, err)
        self.assertIn("overshoot: Falcon adaptors measured 1.4 units of 2^-63 > proven bound 0.9 "
                      "at x_bits=0x3c10000000000001 ccs_bits=0x3fefffffffffffff", lines[0])
        self.assertIn("17 of 1000 inputs", lines[0])
        self.assertIn("split: the four Falcon adaptors disagree on 3 inputs", lines[1])
        self.assertIn("x_bits=0x0000000000000001", lines[1])
        self.assertIn("macro: the header's FPR_EXPM_P63_ERR_BOUND is 0.8", lines[2])
        self.assertIn("Falcon adaptors", table)
        # "<= bound" of the main table for overshoot, "ok" of the adaptors' table for all three.
        self.assertEqual(table.count(" NO"), 1 + 3)

    def test_missing_fpr_result_is_an_error(self) -> None:
        expm = {"max_err_2p63": 0.5, "log2_abs_err": -64.0, "inputs_checked": 20}
        self.add("adapted", 64, 0.4, expm, self.fpr_result(0.9, 0.7))
        (self.dir / "check" / "adapted.fpr.json").unlink()
        rc, _, err, data = self.run_audit_err("adapted")
        self.assertEqual(rc, 2)
        self.assertIn("make check-fpr", err)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIsNone(data)

    def test_optional_column_absent_when_no_kernel_has_it(self) -> None:
        self.add("plain", 64, 0.4, {"max_err_2p63": 0.5, "log2_abs_err": -64.0,
                                    "inputs_checked": 20})
        rc, table, _ = self.run_audit("plain")
        self.assertEqual(rc, 0)
        self.assertNotIn("bound", table)

    def test_missing_check_result_is_an_error(self) -> None:
        self.add("lonely", 64, 0.4, None)
        (self.dir / "check" / "lonely.json").unlink()
        rc, _, data = self.run_audit("lonely")
        self.assertEqual(rc, 2)
        self.assertIsNone(data)


if __name__ == "__main__":
    unittest.main()

"""Tests of the audit (verify/audit.py): build/audit.json entries, the
budget verdicts, optional fields and columns, and one-line errors."""
from __future__ import annotations

import json
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
            **extra: Any) -> None:
        # No "bound" unless the test gives one: optional fields are copied only when present.
        overrides: dict[str, Any] = {"bound": None, **extra}
        sidecar = minimal_sidecar(name, segments=4, degree=5, scale_bits=word_bits - 1,
                                  word_bits=word_bits, table_bytes=96,
                                  falcon_adaptors=word_bits == 64, **overrides)
        write_kernel_folder(self.dir / "generated", sidecar)
        check = {"eval": {"max_err_ulp": eval_ulp, "max_err_2p63": 0, "log2_abs_err": 0,
                          "worst_z": "7", "inputs_checked": 10, "exhaustive": word_bits == 32},
                 "expm_p63": expm}
        (self.dir / "check" / f"{name}.json").write_text(json.dumps(check))

    def run_audit(self, *names: str) -> tuple[int, str, dict[str, Any] | None]:
        out = self.dir / "audit.json"
        r = subprocess.run([sys.executable, "-m", "verify.audit", "--generated",
                            str(self.dir / "generated"), "--check-dir", str(self.dir / "check"),
                            "--out", str(out), *names], capture_output=True, text=True, cwd=ROOT)
        return r.returncode, r.stdout, json.loads(out.read_text()) if out.exists() else None

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
        rc, table, _ = self.run_audit("under", "over")
        self.assertEqual(rc, 0)
        rows = {line.split()[0]: line for line in table.splitlines()[2:]}
        self.assertIn(" yes ", rows["under"])
        self.assertIn(" NO ", rows["over"])

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

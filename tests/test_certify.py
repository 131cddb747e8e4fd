"""Certification: Gappa re-proves the evaluation bounds, Sollya cross-checks
the approximation bounds, and both catch deliberately broken inputs."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction
from pathlib import Path

import kfolder
from certify import sollya_check
from certify import gappa_script as gappa
from tests.helpers import GENERATED, ROOT, shipped_kernels, write_kernel_folder


def _sidecar(name: str) -> dict:
    """A copy of the shipped kernel's sidecar, for the tests to alter."""
    return copy.deepcopy(kfolder.load(GENERATED, name).sidecar)


def _certify(*sidecars: Path, build: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "certify.gappa_run", "--build", str(build), "--jobs", "2",
                           *map(str, sidecars)], capture_output=True, text=True, cwd=ROOT, timeout=600)


class GappaTest(unittest.TestCase):
    def setUp(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self) -> None:
        self.tmp.cleanup()

    def _write(self, data: dict) -> Path:
        return write_kernel_folder(self.dir, data)

    def test_shipped_kernels_proven(self) -> None:
        # Form head is certified piece by piece (certify/gappa_head.py, about
        # a minute per kernel): tests/test_head.py proves a sample of its
        # claims and `make certify` all of them.  A kernel without the
        # fixed-point interface (form eft) is skipped (test below).
        names = [n for n in shipped_kernels() if n in kfolder.names(GENERATED)
                 and not gappa.has_limb_products(_sidecar(n)) and _sidecar(n).get("form") != "head"
                 and kfolder.load(GENERATED, n).fixed_point]
        self.assertTrue(names, "no generated kernels to certify")
        proc = _certify(*(GENERATED / n for n in names), build=self.dir / "b")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        for name in names:
            summary = json.loads((self.dir / "b" / f"{name}.result.json").read_text())
            for r in summary["results"]:
                # Gappa's own enclosure must lie inside the interval it proved.
                lo, hi = (sollya_check.dyadic(t) for t in r["gappa"])
                self.assertGreaterEqual(lo, Fraction(r["generator"][0]))
                self.assertLessEqual(hi, Fraction(r["generator"][1]))

    def test_kernel_without_fixed_point_interface_is_skipped_saying_why(self) -> None:
        """Gappa and Sollya have no polynomial or segment list of form eft
        to check: both skip it with one line naming its proof, exit 0, and
        write no result, while a kernel beside it in the same run is still
        certified."""
        from tests.helpers import fpr_only_folder
        kernel = fpr_only_folder(self.dir / "gen")
        proc = _certify(kernel.folder, GENERATED / "paper_m3", build=self.dir / "b")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn(f"{kernel.folder}: skipped (no fixed-point interface, form eft", proc.stdout)
        self.assertIn(kernel.bound_method, proc.stdout)
        self.assertFalse((self.dir / "b" / "mock_fpr.result.json").exists())
        self.assertTrue((self.dir / "b" / "paper_m3.result.json").is_file())
        sollya = subprocess.run([sys.executable, "-m", "certify.sollya_check", str(kernel.folder),
                                 "--json", str(self.dir / "s.json")], capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(sollya.returncode, 0, sollya.stderr)
        self.assertIn("skipped (no segment list, form eft", sollya.stdout)
        self.assertFalse((self.dir / "s.json").exists())

    def test_eft_small_part_proven_and_a_dropped_rounding_caught(self) -> None:
        """Form eft: Gappa re-proves the shipped kernel's small-part claim.
        Control: the claim a proof would make without the last FMA's
        rounding (the claimed error less u |small|, u = 2^-53) is refused."""
        name = "falcon_x86_simd"
        proc = _certify(GENERATED / name, build=self.dir / "b")
        self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
        self.assertIn(f"{name}: the small part's binary64 roundings proven by Gappa", proc.stdout)
        data = _sidecar(name)
        data["name"] = "eft_dropped_rounding"
        small = data["eft"]["small_part"]
        error = Fraction(small["error"]) - Fraction(data["eft"]["small_max"]) / 2 ** 53
        small["error"] = f"{error.numerator}/{error.denominator}"
        proc = _certify(self._write(data), build=self.dir / "c")
        self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
        self.assertIn("FAIL eft_dropped_rounding small part", proc.stdout)

    def test_binary64_forms_dispatched_and_a_zeroed_error_caught(self) -> None:
        """certify/gappa_run.py sends each binary64 form to its prover (head,
        fold, twin: one Gappa run per claim; `make certify` proves every
        claim, here two mid-range ones per kernel).  Control: the same
        claims with their error interval set to [0, 0], which the roundings
        of the mid-range pieces exceed, are refused."""
        cases = (("falcon_x86_single", "head"), ("falcon_x86_fast", "fold"), ("falcon_x86", "twin"))
        for name, form in cases:
            with self.subTest(form=form):
                data = _sidecar(name)
                self.assertEqual(data["form"], form)
                claims = data[form]["binary64"]["claims"]
                tables = list(claims.values()) if isinstance(claims, dict) else [claims]
                for table in tables:
                    middle = len(table) // 2
                    table[:] = table[middle:middle + 2]
                data["name"] = f"{name}_sample"
                proc = _certify(self._write(data), build=self.dir / f"b_{form}")
                self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
                self.assertIn(f"{name}_sample: {2 * len(tables)} claims of the binary64 part proven", proc.stdout)
                summary = json.loads((self.dir / f"b_{form}" / f"{name}_sample.result.json").read_text())
                self.assertEqual(summary["form"], form)
                error_at = {"head": 2, "fold": 2, "twin": 6}[form]
                for table in tables:
                    for row in table:
                        row[error_at:error_at + 2] = ["0/1", "0/1"]
                data["name"] = f"{name}_zeroed"
                proc = _certify(self._write(data), build=self.dir / f"c_{form}")
                self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
                self.assertIn(f"FAIL {name}_zeroed", proc.stdout)

    def test_tightened_bound_fails(self) -> None:
        """Broken control: eval_error_core of one segment shrunk by half."""
        data = _sidecar("paper_m3")
        data["name"] = "paper_m3_tight"
        seg = data["segment_list"][3]
        seg["eval_error_core"] = [repr(float(b) / 2) for b in seg["eval_error_core"]]
        proc = _certify(self._write(data), build=self.dir / "b")
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn("FAIL paper_m3_tight segment 3", proc.stdout)
        self.assertNotIn("segment 2:", proc.stdout)

    def test_overflowing_coefficient_fails(self) -> None:
        """Broken control: a constant so large that its sum wraps around 2^W."""
        data = _sidecar("paper_x86")
        data["name"] = "paper_x86_wrap"
        add = next(n for n in data["nodes"] if n["kind"] == "add")
        const = next(i for i in add["args"] if data["nodes"][i]["kind"] == "const")
        power = data["nodes"][const]["power"]
        data["segment_list"] = data["segment_list"][:1]
        data["segment_list"][0]["coefficients"][power] = str((1 << 64) + (1 << 62))
        proc = _certify(self._write(data), build=self.dir / "b")
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn("FAIL paper_x86_wrap segment 0", proc.stdout)

    def test_bad_sidecar_one_line_error(self) -> None:
        bad = self.dir / "bad.json"
        bad.write_text(json.dumps({"name": "bad", "degree": 2}))
        proc = _certify(bad, build=self.dir / "b")
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        proc = subprocess.run([sys.executable, "-m", "certify.gappa_script", str(self.dir / "missing.json")],
                              capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)


class SollyaTest(unittest.TestCase):
    def _check_all(self, name: str) -> None:
        data = _sidecar(name)
        results = sollya_check.check(data, range(len(data["segment_list"])))
        for r in results:
            with self.subTest(kernel=name, segment=r.index):
                self.assertTrue(r.sound, f"{name} segment {r.index}: approx_bound {float(r.claimed):.9e} "
                                         f"below Sollya's lower end {float(r.lower):.9e}")
                self.assertTrue(r.tight, f"{name} segment {r.index}: approx_bound {float(r.claimed):.9e} "
                                         f"above 1.01 x Sollya's upper end {float(r.upper):.9e}")

    def test_paper_m3(self) -> None:
        self._check_all("paper_m3")

    def test_paper_x86(self) -> None:
        self._check_all("paper_x86")

    def test_facct(self) -> None:
        self._check_all("facct")

    def test_falcon_m3_v1_limb_products(self) -> None:
        """A kernel whose truncated limb products Gappa does not model still
        has its polynomials checked; a const node lost from its graph is an
        error, not a silent zero coefficient."""
        data = _sidecar("falcon_m3_v1")
        self.assertTrue(gappa.has_limb_products(data))
        self._check_all("falcon_m3_v1")
        broken = copy.deepcopy(data)
        broken["nodes"] = [n for n in broken["nodes"] if not (n["kind"] == "const" and n["power"] == 2)]
        with self.assertRaisesRegex(sollya_check.CheckError, "expected 0..4"):
            sollya_check.polynomial(broken, 0)

    def test_head_form(self) -> None:
        """Form head has one polynomial in x and no node graph: Sollya checks
        the sidecar's polynomial; a coefficient nudged by 2^-40 (relative) of
        its x^3 term is caught, and a polynomial of the wrong length refused."""
        data = self._one_polynomial_with_a_nudge_caught("falcon_x86_single", power=3,
                                                        relative=Fraction(1, 1 << 40))
        short = copy.deepcopy(data)
        short["polynomial"] = short["polynomial"][:-1]
        with self.assertRaisesRegex(sollya_check.CheckError, "polynomial coefficients for degree"):
            sollya_check.polynomial(short, 0)

    def test_fold_form(self) -> None:
        """Form fold (falcon_x86_fast) has one polynomial in x as well: Sollya
        encloses its sup |p - f| on [0, LN2_DOWN]; its x^2 term nudged by
        2^-30 (relative) is caught."""
        self._one_polynomial_with_a_nudge_caught("falcon_x86_fast", power=2, relative=Fraction(1, 1 << 30))

    def test_twin_form(self) -> None:
        """Form twin (falcon_x86) has one polynomial in x as well; its x^3
        term nudged by 2^-40 (relative) is caught."""
        self._one_polynomial_with_a_nudge_caught("falcon_x86", power=3, relative=Fraction(1, 1 << 40))

    def _one_polynomial_with_a_nudge_caught(self, name: str, power: int, relative: Fraction) -> dict:
        """Checks the kernel's one polynomial, then that Sollya refuses it
        with the coefficient of x^power scaled by 1 + relative; returns the
        sidecar."""
        self._check_all(name)
        data = _sidecar(name)
        coeffs = sollya_check.polynomial(data, 0)
        broken = list(coeffs)
        broken[power] = coeffs[power] * (1 + relative)
        bad = sollya_check.check(data, [0], {0: broken})[0]
        self.assertFalse(bad.sound)
        return data

    def test_wrong_coefficient_caught(self) -> None:
        """Broken control: a_1 off by 2^-20 relative makes sup |p - f| exceed the bound."""
        data = _sidecar("paper_m3")
        coeffs = sollya_check.polynomial(data, 0)
        broken = copy.copy(coeffs)
        broken[1] = coeffs[1] * (1 + Fraction(1, 1 << 20))
        good, bad = sollya_check.check(data, [0]) + sollya_check.check(data, [0], {0: broken})[:1]
        self.assertTrue(good.sound)
        self.assertFalse(bad.sound)
        self.assertGreater(bad.lower, 2 * bad.claimed)


class GuardStepsCertifyTest(unittest.TestCase):
    """A kernel with two-word Horner steps and a root bias (the default
    1 x 12 at 2^-63 of kernels/sweep/): Gappa re-proves its evaluation error
    (the floored 128 x 64 products, the bias in the root sum) and Sollya its
    approximation bound (the bias in a_0); both must fail without the bias."""

    def test_gappa_and_sollya_with_the_bias_and_without(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            run = subprocess.run([sys.executable, "-m", "gen", "render", "kernels/sweep/sweep_1x12_s63.toml",
                                  "--out", str(Path(tmp) / "gen"), "--quiet"], cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            data = kfolder.load(Path(tmp) / "gen", "sweep_1x12_s63").sidecar
            self.assertNotEqual(int(data["root_bias"]), 0)
            self.assertTrue(any(n["kind"] == "mul" and n["wide"] and any(data["nodes"][a]["wide"] for a in n["args"])
                                for n in data["nodes"]), "no product of a two-word operand")
            proc = _certify(Path(tmp) / "gen" / "sweep_1x12_s63", build=Path(tmp) / "b")
            self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
            (good,) = sollya_check.check(data, [0])
            self.assertTrue(good.sound and good.tight)
            unbiased = copy.deepcopy(data)
            unbiased["root_bias"] = "0"
            (bad,) = sollya_check.check(unbiased, [0])
            self.assertFalse(bad.sound)
            # One Gappa run on the unbiased script (certify.gappa_run would
            # retry with dichotomy hints for a minute and more before failing).
            script = Path(tmp) / "unbiased.gappa"
            script.write_text(gappa.render_script(unbiased))
            run = subprocess.run(["gappa", str(script)], capture_output=True, text=True, timeout=300)
            self.assertNotEqual(run.returncode, 0, "Gappa proved the root's range without its bias")


if __name__ == "__main__":
    unittest.main()

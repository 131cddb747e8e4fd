"""Tests of the checker's command lines (verify/, mk/check.mk): the plan
built from a sidecar, one-line errors on bad options, plans and kernel
folders, and `python3 -m verify kernel`, the back end of `make kernel`."""
from __future__ import annotations

import json
import subprocess
import sys
import unittest
from typing import Any

import mpmath

import kfolder
from tests import checker_fixtures as fx
from tests.checker_fixtures import LN2_Z_MAX, ROOT, SMALL, build, one_minus_x_kernel
from tests.helpers import fpr_only_folder, minimal_sidecar, write_kernel_folder
from verify import plan


def setUpModule() -> None:
    fx.set_up()


def tearDownModule() -> None:
    fx.tear_down()


class UserKernelTest(unittest.TestCase):
    """`python3 -m verify kernel`, the back end of `make kernel CONFIG=...`."""

    def test_render_check_and_audit_one_config(self) -> None:
        config = ROOT / "kernels" / "facct.toml"
        if not config.is_file() or not (ROOT / "gen" / "__main__.py").is_file():
            self.skipTest("no generator or no facct config")
        out, build_dir = fx.BUILD / "user_out", fx.BUILD / "user_build"
        subprocess.run([sys.executable, "-m", "gen", "render", str(config), "--out", str(out)],
                       cwd=ROOT, check=True, capture_output=True)
        r = subprocess.run([sys.executable, "-m", "verify", "kernel", str(config),
                            "--generated", str(out), "--build", str(build_dir),
                            "--check-args", " ".join(map(str, SMALL)),
                            "--fpr-args", "--uniform 20000 --small 20000 --edge-ccs 1"],
                           cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        entries = json.loads((build_dir / "facct" / "audit.json").read_text())["kernels"]
        self.assertEqual([e["name"] for e in entries], ["facct"])
        self.assertTrue(3550 < entries[0]["expm_p63"]["max_err_2p63"] < 3575)
        # The Falcon adaptors were checked too, against the double inputs.
        self.assertTrue(3550 < entries[0]["fpr"]["max_err_2p63"] < 3575)
        self.assertEqual(entries[0]["fpr"]["bound"], kfolder.load(out, "facct").fpr_bound_2p63)
        self.assertIn("facct", r.stdout)

    def test_kernel_without_the_fixed_point_interface(self) -> None:
        # The back end on a folder of form eft's kind (fpr_only_folder): no
        # MPFR reference, plan or check.c run (none applies), the adaptors'
        # checker and the audit only.  The config only names the kernel here
        # (the folder is written by the test, not rendered).
        out, build_dir = fx.BUILD / "eft_out", fx.BUILD / "eft_build"
        fpr_only_folder(out)
        config = fx.BUILD / "mock_fpr.toml"
        config.write_text('name = "mock_fpr"\n')
        r = subprocess.run([sys.executable, "-m", "verify", "kernel", str(config), "--generated", str(out),
                            "--build", str(build_dir), "--fpr-args", "--uniform 20000 --small 20000 --edge-ccs 1"],
                           cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("_eval and _expm_p63 not checked", r.stderr)
        self.assertEqual(sorted(p.name for p in (build_dir / "mock_fpr").iterdir()),
                         ["audit.json", "check_fpr_mock_fpr", "mock_fpr.fpr.json"])
        entry = json.loads((build_dir / "mock_fpr" / "audit.json").read_text())["kernels"][0]
        self.assertEqual((entry["eval"], entry["expm_p63"], entry["within_bounds"]), (None, None, True))

    def test_make_kernel_threads_quick_and_results_apart(self) -> None:
        # make kernel takes THREADS and QUICK, says what it does in a log,
        # and a second kernel's results do not replace the first one's.
        build = fx.BUILD / "make_kernel"
        for name in ("facct", "facct_compat"):
            r = subprocess.run(["make", "-s", "kernel", f"CONFIG=kernels/{name}.toml", f"OUT={build}/out",
                                f"BUILD={build}", "THREADS=1", "QUICK=1"], cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("the checker (quick, 1 thread(s))", r.stderr)
        for name in ("facct", "facct_compat"):
            check = json.loads((build / "user-check" / name / f"{name}.json").read_text())
            self.assertLess(check["eval"]["inputs_checked"], 10 ** 7)     # quick: far fewer than 10^8 inputs
            audit = json.loads((build / "user-check" / name / "audit.json").read_text())
            self.assertEqual([e["name"] for e in audit["kernels"]], [name])

    def test_missing_config_is_an_error(self) -> None:
        r = subprocess.run([sys.executable, "-m", "verify", "kernel", "/nonexistent.toml",
                            "--generated", str(fx.BUILD), "--build", str(fx.BUILD / "nothing")],
                           capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1)



class BadInputTest(unittest.TestCase):
    """One-line errors and non-zero exits."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.checker = build(one_minus_x_kernel(fx.BUILD, "badk", 64, LN2_Z_MAX[64]))

    def fails(self, args: list[str]) -> str:
        """Run `args`; it must exit non-zero with exactly one line on stderr."""
        r = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
        self.assertNotEqual(r.returncode, 0)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        return r.stderr

    def test_checker_rejects_bad_options_and_plans(self) -> None:
        b = str(self.checker.binary)
        self.fails([b])
        self.fails([b, "--plan", "/nonexistent.plan"])
        self.fails([b, "--plan", str(self.checker.plan), "--random", "lots"])
        self.fails([b, "--plan", str(self.checker.plan), "--range", "5", "1"])
        self.fails([b, "--plan", str(self.checker.plan), "--range", "0", str(2**64 - 1)])
        wrong = fx.BUILD / "wrong.plan"
        wrong.write_text(self.checker.plan.read_text().replace("name badk", "name other"))
        self.assertIn("other", self.fails([b, "--plan", str(wrong)]))
        wrong.write_text(self.checker.plan.read_text().replace("scale_bits 63", "scale_bits 62"))
        self.fails([b, "--plan", str(wrong)])

    def test_plan_rejects_bad_sidecar(self) -> None:
        folder = write_kernel_folder(fx.BUILD / "badplan", minimal_sidecar(
            "x", function="exp(-x)", z_max="12x", segment_list=[]))
        plan_cmd = [sys.executable, "-m", "verify.plan"]
        self.assertIn("z_max", self.fails([*plan_cmd, str(folder)]))
        kfolder.Kernel("x", folder, {}).sidecar_path.write_text("{not json")
        self.assertIn("not valid JSON", self.fails([*plan_cmd, str(folder)]))
        self.assertIn("no kernel folder", self.fails([*plan_cmd, str(fx.BUILD / "absent")]))
        sidecar = kfolder.load(ROOT / "generated", "facct").sidecar
        write_kernel_folder(fx.BUILD / "badplan", dict(sidecar, name="v9", schema_version=9))
        self.assertIn("schema_version 9", self.fails([*plan_cmd, str(fx.BUILD / "badplan" / "v9")]))

    def test_verify_cli_needs_a_known_command(self) -> None:
        self.assertIn("use one of: kernel, vendor",
                      self.fails([sys.executable, "-m", "verify"]))
        self.fails([sys.executable, "-m", "verify", "bench"])
        self.assertIn("no kernel folder", self.fails(
            [sys.executable, "-m", "verify", "vendor", str(fx.BUILD / "absent"), str(fx.BUILD)]))



class PlanTest(unittest.TestCase):
    """Sidecar to plan, and the coverage the checker derives from a plan."""

    SIDECAR: dict[str, Any] = {
        "name": "k", "function": "exp(-x)", "word_bits": 64, "scale_bits": 62,
        "z_max": "12786308645202655659",
        "segment_list": [
            {"index": 0, "z_first": "0", "z_last": "9999", "error_extrema_z": ["5000"]},
            {"index": 1, "z_first": "10000", "z_last": str(2**64 - 1),
             "error_extrema_z": ["10010", str(2**63)]},
        ],
    }

    def test_clips_segments_and_keeps_extrema(self) -> None:
        lines = plan.build_plan(self.SIDECAR)
        self.assertIn("segment 1 10000 12786308645202655659", lines)
        self.assertIn("extremum 0 5000", lines)
        self.assertIn("extremum 1 10010", lines)
        self.assertIn(f"extremum 1 {2**63}", lines)
        self.assertIn("z_min 0", lines)

    def test_refuses_a_kernel_without_the_fixed_point_interface(self) -> None:
        # The same facts with "fixed_point": false (form eft): nothing for
        # check.c to call, a one-line refusal that says so.
        with self.assertRaisesRegex(plan.PlanError, r"^no fixed-point interface .*check_fpr"):
            plan.build_plan(dict(self.SIDECAR, fixed_point=False))
        self.assertTrue(plan.build_plan(dict(self.SIDECAR, fixed_point=True)))

    def test_rejects_overlap(self) -> None:
        bad = json.loads(json.dumps(self.SIDECAR))
        bad["segment_list"][1]["z_first"] = "9000"
        with self.assertRaises(plan.PlanError):
            plan.build_plan(bad)

    def test_deterministic_inputs_are_counted_once(self) -> None:
        chk = build(one_minus_x_kernel(fx.BUILD, "plank", 64, LN2_Z_MAX[64]))
        sidecar = dict(self.SIDECAR, name="plank", scale_bits=63)
        p = fx.BUILD / "plank_segments.plan"
        p.write_text("\n".join(plan.build_plan(sidecar)) + "\n")
        edge, width, rnd, per_seg, expm = 100, 50, 1000, 300, 700
        res = chk.run("--edge", edge, "--extremum-width", width, "--random", rnd,
                      "--per-segment", per_seg, "--expm-random", expm, plan_file=p)
        z_max = LN2_Z_MAX[64]
        covered: set[int] = set()
        for lo, hi in ((0, 9999), (10000, z_max)):
            covered.update(range(lo, lo + edge))
            covered.update(range(hi - edge + 1, hi + 1))
        for z in (5000, 10010, 2**63):
            covered.update(range(z - width // 2, z - width // 2 + width))
        self.assertEqual(res["eval"]["inputs_checked"], len(covered) + rnd + 2 * per_seg)
        self.assertEqual(res["expm_p63"]["inputs_checked"], 2 * len(covered) + 2 * expm)

    def test_z_max_constants(self) -> None:
        with mpmath.workprec(200):
            for w, z_max in LN2_Z_MAX.items():
                self.assertEqual(int(mpmath.floor(mpmath.log(2) * 2**w)), z_max)



if __name__ == "__main__":
    unittest.main()

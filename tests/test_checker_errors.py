"""Tests of the error checker's measurements (verify/check.c): the fast
reference against MPFR, exact errors of "1 - x" kernels against mpmath,
the FACCT polynomial's known error, broken controls, and every generated
kernel with small coverage.  Nothing asserts on time."""
from __future__ import annotations

import json
import shutil
import subprocess
import unittest
from typing import Any

import mpmath

import kfolder
from tests import checker_fixtures as fx
from tests.checker_fixtures import (EXP_REF_H, LN2_Z_MAX, ROOT, SMALL, Checker, build, build_quick,
                                    exact_max_error, facct_kernel, flip_one_coefficient_bit,
                                    generated_dir, one_minus_x_kernel)


def setUpModule() -> None:
    fx.set_up()


def tearDownModule() -> None:
    fx.tear_down()


class FastReferenceTest(unittest.TestCase):
    """The table reference against MPFR, and its broken control."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.checker = build(facct_kernel(fx.BUILD, "refk"))

    def selftest(self, *extra: str) -> tuple[int, dict[str, Any]]:
        r = subprocess.run([str(self.checker.binary), "--selftest-ref", "20000",
                            "--threads", "2", *extra], capture_output=True, text=True)
        return r.returncode, json.loads(r.stdout)

    def test_matches_mpfr_within_stated_bounds(self) -> None:
        rc, res = self.selftest()
        self.assertEqual(rc, 0)
        self.assertEqual(res["inputs"], 20000)
        # fastref.h: Q1.127 path within 2^-124 (8 units of 2^-127), Q1.63
        # path within just over 2^-63.  Far below 2^-66, as required.
        self.assertLess(res["q127_max_err_2m127"], 8)
        self.assertLess(res["q126_max_err_2m63"], 1.01)

    def test_checker_refuses_a_reference_that_disagrees(self) -> None:
        # A reference header for exp(-2x), not exp(-x): the cross-check the
        # checker runs before using its fast path must stop it.
        folder = fx.BUILD / "wrong_ref"
        folder.mkdir(exist_ok=True)
        (folder / "wrong_ref.h").write_text(EXP_REF_H.replace(
            "mpfr_neg(t, x, MPFR_RNDN);", "mpfr_mul_si(t, x, -2, MPFR_RNDN);"))
        chk = Checker(fx.BUILD / "refk", folder, fx.FASTREF_O, ref_header="wrong_ref.h")
        r = subprocess.run([str(chk.binary), "--plan", str(chk.plan), "--range", "0", "10"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("kernel_ref_f", r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1)

    def test_corrupted_tables_are_caught(self) -> None:
        rc, res = self.selftest("--corrupt-ref")
        self.assertEqual(rc, 1)
        self.assertFalse(res["ok"])
        self.assertGreater(res["q127_max_err_2m127"], 1e6)


class ExactErrorTest(unittest.TestCase):
    """Kernels simple enough that the test computes their error itself."""

    def assert_every_input_matches(self, chk: Checker, lo: int, hi: int, word_bits: int,
                                   ev: Any, w: int, tolerance: int) -> None:
        """--dump gives each input's exact error in units of 2^-64 of the unit;
        compare all of them (not only the maximum) with mpmath.  `tolerance`
        covers the fast reference's own error (fastref.h)."""
        dump = fx.BUILD / "dump.txt"
        args = ["--range", lo, hi, "--dump", dump] + (["--w", w] if word_bits == 64 else [])
        chk.run(*args)
        lines = dump.read_text().split("\n")[:-1]
        self.assertEqual(len(lines), hi - lo + 1)
        scale = word_bits - 1
        with mpmath.workprec(200):
            for line, z in zip(lines, range(lo, hi + 1)):
                got_z, got_eval, got_expm = map(int, line.split())
                self.assertEqual(got_z, z)
                f = mpmath.exp(-mpmath.mpf(z) / 2**word_bits)
                want = abs(ev(z) - f * 2**scale) * 2**64
                self.assertLessEqual(abs(got_eval - want), tolerance, f"eval at z={z}")
                if word_bits == 64:
                    m = (w * ev(z)) >> 64
                    want = abs(m - mpmath.mpf(w) / 2**64 * f * 2**63) * 2**64
                    self.assertLessEqual(abs(got_expm - want), tolerance, f"expm at z={z}")

    def test_one_minus_x_64bit(self) -> None:
        z_max = LN2_Z_MAX[64]
        chk = build(one_minus_x_kernel(fx.BUILD, "tiny64", 64, z_max))
        w = 0xC0000000000A11CE

        def ev(z: int) -> int:
            return 2**63 - (z >> 1)

        for lo, hi in ((0, 1000), (z_max - 1000, z_max)):
            res = chk.run("--range", lo, hi, "--w", w)
            zs = range(lo, hi + 1)
            want, want_z = exact_max_error(zs, 64, 63, ev)
            self.assertAlmostEqual(res["eval"]["max_err_ulp"], float(want), delta=1e-9 * float(want) + 1e-9)
            self.assertEqual(int(res["eval"]["worst_z"]), want_z)
            self.assertEqual(res["eval"]["inputs_checked"], hi - lo + 1)
            self.assertFalse(res["eval"]["exhaustive"])
            want_m, want_mz = exact_max_error(zs, 64, 63, lambda z: (w * ev(z)) >> 64, ccs_w=w)
            self.assertAlmostEqual(res["expm_p63"]["max_err_2p63"], float(want_m),
                                   delta=1e-9 * float(want_m) + 1e-9)
            self.assertEqual(int(res["expm_p63"]["worst_z"]), want_mz)
            self.assertEqual(int(res["expm_p63"]["worst_w"]), w)
            self.assertEqual(res["expm_p63"]["inputs_checked"], hi - lo + 1)
            # 2^-124 absolute is 8 units of 2^-64 * 2^-63; 16 leaves room.
            self.assert_every_input_matches(chk, lo, lo + 300, 64, ev, w, 16)

    def test_one_minus_x_32bit(self) -> None:
        z_max = LN2_Z_MAX[32]
        chk = build(one_minus_x_kernel(fx.BUILD, "tiny32", 32, z_max))

        def ev(z: int) -> int:
            return 2**31 - (z >> 1)

        for lo, hi in ((0, 1000), (z_max - 1000, z_max)):
            res = chk.run("--range", lo, hi)
            want, want_z = exact_max_error(range(lo, hi + 1), 32, 31, ev)
            self.assertAlmostEqual(res["eval"]["max_err_ulp"], float(want), delta=1e-7)
            self.assertEqual(int(res["eval"]["worst_z"]), want_z)
            self.assertAlmostEqual(res["eval"]["max_err_2p63"], float(want) * 2**32,
                                   delta=1e-7 * 2**32)
            self.assertAlmostEqual(res["eval"]["log2_abs_err"], float(mpmath.log(want, 2)) - 31,
                                   delta=1e-9)
            self.assertIsNone(res["expm_p63"])
            # Just over 2^-63 absolute is 2^32 units of 2^-64 * 2^-31.
            self.assert_every_input_matches(chk, lo, lo + 300, 32, ev, 0, 2**33)

    def test_32bit_default_mode_is_exhaustive(self) -> None:
        # A 32-bit kernel with a made-up small domain: the default mode must
        # visit every input and say so.
        z_max = 50000
        chk = build(one_minus_x_kernel(fx.BUILD, "small32", 32, z_max))
        res = chk.run()
        self.assertTrue(res["eval"]["exhaustive"])
        self.assertEqual(res["eval"]["inputs_checked"], z_max + 1)
        want, want_z = exact_max_error(range(0, z_max + 1), 32, 31, lambda z: 2**31 - (z >> 1))
        self.assertAlmostEqual(res["eval"]["max_err_ulp"], float(want), delta=1e-7)
        self.assertEqual(int(res["eval"]["worst_z"]), want_z)


class FacctTest(unittest.TestCase):
    """The FACCT polynomial, and corrupted and reference-path variants."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.checker = build(facct_kernel(fx.BUILD, "facctk"))
        cls.clean = cls.checker.run("--random", 200000, "--per-segment", 0,
                                    "--expm-random", 100000, "--edge", 64,
                                    "--extremum-width", 0)

    def test_max_error_matches_independent_figure(self) -> None:
        # FACCT.md: 3562.6 units of 2^-63 (256-bit computation elsewhere).
        self.assertTrue(3550 < self.clean["eval"]["max_err_2p63"] < 3575, self.clean)
        self.assertTrue(3550 < self.clean["expm_p63"]["max_err_2p63"] < 3575, self.clean)
        self.assertAlmostEqual(self.clean["eval"]["log2_abs_err"], -51.2, delta=0.01)

    def test_counts(self) -> None:
        # 2 * 64 edge inputs + 200000 random; expm: two w per edge input
        # and per random pair.
        self.assertEqual(self.clean["eval"]["inputs_checked"], 128 + 200000)
        self.assertEqual(self.clean["expm_p63"]["inputs_checked"], 2 * 128 + 2 * 100000)

    def test_thread_count_does_not_change_result(self) -> None:
        args = [str(self.checker.binary), "--plan", str(self.checker.plan), *map(str, SMALL)]
        one = subprocess.run(args + ["--threads", "1"], check=True, capture_output=True).stdout
        three = subprocess.run(args + ["--threads", "3"], check=True, capture_output=True).stdout
        self.assertEqual(one, three)

    def test_seed_changes_random_inputs(self) -> None:
        # Random inputs only: the worst point of deterministic inputs would
        # not move with the seed.
        only_random = (*SMALL, "--edge", 0, "--extremum-width", 0)
        a = self.checker.run(*only_random, "--seed", 1)
        b = self.checker.run(*only_random, "--seed", 2)
        self.assertNotEqual(a["eval"]["worst_z"], b["eval"]["worst_z"])

    def test_mpfr_path_agrees_with_fast_path(self) -> None:
        small = ("--random", 3000, "--per-segment", 0, "--expm-random", 1000,
                 "--edge", 16, "--extremum-width", 0)
        fast = self.checker.run(*small)
        slow = self.checker.run(*small, "--force-mpfr")
        for part, key in (("eval", "max_err_ulp"), ("expm_p63", "max_err_2p63")):
            self.assertAlmostEqual(fast[part][key], slow[part][key], delta=1e-6)
            self.assertEqual(fast[part]["worst_z"], slow[part]["worst_z"])

    def test_corrupted_coefficient_is_caught(self) -> None:
        source = generated_dir("paper_x86")
        if source is None:
            source = fx.BUILD / "facctk"
        folder = fx.BUILD / "corrupt"
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(source, folder / source.name)
        shutil.copy(fx.BUILD / "exp_ref.h", folder / "exp_ref.h")
        kdir = folder / source.name
        clean = build_quick(source)
        flip_one_coefficient_bit(kfolder.load_path(kdir).header)
        bad = Checker(kdir, folder, fx.FASTREF_O).run(*SMALL)
        self.assertGreater(bad["eval"]["max_err_ulp"], 100 * clean["eval"]["max_err_ulp"] + 100)




class GeneratedKernelsTest(unittest.TestCase):
    """Every generated exp(-x) kernel, with small coverage."""

    def test_generated_kernels(self) -> None:
        names = sorted(p.name for p in (ROOT / "generated").glob("*") if generated_dir(p.name))
        if not names:
            self.skipTest("no generated kernels yet")
        for name in names:
            with self.subTest(kernel=name):
                res = build_quick(ROOT / "generated" / name)
                self.assertGreater(res["eval"]["inputs_checked"], 0)
                if name == "facct":
                    self.assertTrue(3550 < res["expm_p63"]["max_err_2p63"] < 3575, res)



if __name__ == "__main__":
    unittest.main()

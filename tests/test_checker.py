"""Tests of the error checker and the audit (verify/, mk/check.mk).

The checker (verify/check.c) is compiled here, with the C compiler, against
small kernels written by the tests themselves: a kernel that runs the FACCT
polynomial (coefficients from FACCT.md), and "1 - x" kernels whose errors
the tests compute independently with mpmath.  Generated kernels are checked
too when generated/ has them.  Random counts are kept small; the exhaustive
mode is exercised on restricted ranges.  Nothing asserts on time.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path
from typing import Any

import mpmath

ROOT = Path(__file__).resolve().parent.parent
VERIFY = ROOT / "verify"
sys.path.insert(0, str(VERIFY))

import audit  # noqa: E402
import plan  # noqa: E402

CC = os.environ.get("CC", "gcc")
LN2_Z_MAX = {32: 2977044471, 64: 12786308645202655659}  # recomputed in a test
W_MAX = 2**64 - 1

# The 13 Q63 constants of the FACCT polynomial, from FACCT.md.
FACCT_COEFFS = [
    0x00000004741183A3, 0x00000036548CFC06, 0x0000024FDCBF140A,
    0x0000171D939DE045, 0x0000D00CF58F6F84, 0x000680681CF796E3,
    0x002D82D8305B0FEA, 0x011111110E066FD0, 0x0555555555070F00,
    0x155555555581FF00, 0x400000000002B400, 0x7FFFFFFFFFFF4800,
    0x8000000000000000,
]

# The trusted reference for the tests: exp(-x) with MPFR, written here and
# not taken from the generator, so the checker is tested on its own.
EXP_REF_H = """\
static void kernel_ref_f(mpfr_ptr y, mpfr_srcptr x)
{
    mpfr_t t;
    mpfr_init2(t, mpfr_get_prec(x) + 2);
    mpfr_neg(t, x, MPFR_RNDN);   /* exact */
    mpfr_exp(y, t, MPFR_RNDN);
    mpfr_clear(t);
}
"""

HEADER = """\
#ifndef {N}_H
#define {N}_H
#include <stdint.h>
#define {N}_SCALE_BITS {S}
#define {N}_SEGMENTS 1
#define {N}_DEGREE {D}
#define {N}_WORD_BITS {W}
#define {N}_TABLE_BYTES {B}
#include "{n}_table.h"
{body}
#endif
"""

FACCT_BODY = """\
static inline uint64_t {n}_mulhi(uint64_t a, uint64_t b)
{{ return (uint64_t)(((unsigned __int128)a * b) >> 64); }}
static inline uint64_t {n}_eval(uint64_t z)
{{
    uint64_t y = {n}_coef[0];
    for (int i = 1; i < 13; i++)
        y = {n}_coef[i] - {n}_mulhi(z, y);
    return y;
}}
static inline uint64_t {n}_expm_p63(uint64_t z, uint64_t w)
{{ return {n}_mulhi(w, {n}_eval(z)); }}"""

# 1 - x: eval(z) = 2^S - floor(z / 2^(W - S)).
ONE_MINUS_X_BODY = """\
static inline uint{W}_t {n}_eval(uint{W}_t z)
{{ return {n}_coef[0] - (z >> ({W} - {S})); }}
{expm}"""
ONE_MINUS_X_EXPM = """\
static inline uint64_t {n}_expm_p63(uint64_t z, uint64_t w)
{{ return (uint64_t)(((unsigned __int128)w * {n}_eval(z)) >> 64); }}"""


def write_kernel(folder: Path, name: str, word_bits: int, scale_bits: int,
                 degree: int, coeffs: list[int], body: str, z_max: int,
                 extrema: list[int] | None = None) -> Path:
    """A kernel folder following docs/abi.md, with a one-segment sidecar."""
    d = folder / name
    d.mkdir(parents=True, exist_ok=True)
    ctype = f"uint{word_bits}_t"
    table = ",\n    ".join(f"0x{c:016X}u" for c in coeffs)
    (d / f"{name}_table.h").write_text(
        f"static const {ctype} {name}_coef[{len(coeffs)}] = {{\n    {table}\n}};\n")
    (d / f"{name}.h").write_text(HEADER.format(
        N=name.upper(), n=name, S=scale_bits, D=degree, W=word_bits,
        B=len(coeffs) * word_bits // 8, body=body))
    sidecar = {
        "name": name, "word_bits": word_bits, "scale_bits": scale_bits,
        "segments": 1, "degree": degree, "table_bytes": len(coeffs) * word_bits // 8,
        "table_access": "direct", "function": "exp(-x)", "z_max": str(z_max),
        "segment_list": [{"index": 0, "z_first": "0", "z_last": str(z_max),
                          "error_extrema_z": [str(z) for z in extrema or []]}],
    }
    (d / f"{name}.json").write_text(json.dumps(sidecar))
    return d


def facct_kernel(folder: Path, name: str) -> Path:
    return write_kernel(folder, name, 64, 63, 12, FACCT_COEFFS,
                        FACCT_BODY.format(n=name), LN2_Z_MAX[64])


def one_minus_x_kernel(folder: Path, name: str, word_bits: int, z_max: int) -> Path:
    scale = word_bits - 1
    expm = ONE_MINUS_X_EXPM.format(n=name) if word_bits == 64 else ""
    body = ONE_MINUS_X_BODY.format(n=name, W=word_bits, S=scale, expm=expm)
    return write_kernel(folder, name, word_bits, scale, 1, [1 << scale], body, z_max)


class Checker:
    """A checker binary built for one kernel folder, and its plan."""

    def __init__(self, kernel_dir: Path, build: Path, fastref_o: Path,
                 ref_header: str = "exp_ref.h") -> None:
        self.name = kernel_dir.name
        self.plan = build / f"{self.name}.plan"
        self.binary = build / f"check_{self.name}"
        sidecar = kernel_dir / f"{self.name}.json"
        subprocess.run([sys.executable, str(VERIFY / "plan.py"), str(sidecar),
                        "-o", str(self.plan)], check=True)
        subprocess.run([CC, "-O2", "-Wall", "-Wextra", "-Werror", "-std=gnu11",
                        f"-I{VERIFY}", f"-I{kernel_dir}", f"-I{build}",
                        f"-DKNAME={self.name}", f"-DKUNAME={self.name.upper()}",
                        f'-DKHEADER="{self.name}.h"', f'-DREF_HEADER="{ref_header}"',
                        str(VERIFY / "check.c"), str(fastref_o), "-o", str(self.binary),
                        "-lmpfr", "-lgmp", "-lpthread", "-lm"], check=True)

    def run(self, *args: str | int, plan_file: Path | None = None) -> dict[str, Any]:
        cmd = [str(self.binary), "--plan", str(plan_file or self.plan), "--threads", "2",
               *map(str, args)]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        return json.loads(out)


# Small coverage for every run of a 64-bit kernel in the tests.
SMALL = ("--random", 20000, "--per-segment", 2000, "--expm-random", 10000,
         "--edge", 64, "--extremum-width", 64)

BUILD: Path
FASTREF_O: Path
_tmp: tempfile.TemporaryDirectory[str]


def setUpModule() -> None:
    global BUILD, FASTREF_O, _tmp
    _tmp = tempfile.TemporaryDirectory(prefix="test_checker_")
    BUILD = Path(_tmp.name)
    (BUILD / "exp_ref.h").write_text(EXP_REF_H)
    FASTREF_O = BUILD / "fastref.o"
    subprocess.run([CC, "-O2", "-Wall", "-Wextra", "-Werror", "-c",
                    str(VERIFY / "fastref.c"), "-o", str(FASTREF_O)], check=True)


def tearDownModule() -> None:
    _tmp.cleanup()


def build(kernel_dir: Path) -> Checker:
    return Checker(kernel_dir, BUILD, FASTREF_O)


def exact_max_error(zs: range, word_bits: int, scale_bits: int, got: Any,
                    ccs_w: int | None = None) -> tuple[mpmath.mpf, int]:
    """Independent max |got(z) - exact| with mpmath: in units of 2^-S for
    eval, or of 2^-63 for expm with w = ccs_w."""
    best, where = mpmath.mpf(-1), -1
    with mpmath.workprec(200):
        for z in zs:
            f = mpmath.exp(-mpmath.mpf(z) / 2**word_bits)
            exact = f * 2**scale_bits if ccs_w is None else mpmath.mpf(ccs_w) / 2**64 * f * 2**63
            err = abs(got(z) - exact)
            if err > best:
                best, where = err, z
    return best, where


class FastReferenceTest(unittest.TestCase):
    """The table reference against MPFR, and its broken control."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.checker = build(facct_kernel(BUILD, "refk"))

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
        folder = BUILD / "wrong_ref"
        folder.mkdir(exist_ok=True)
        (folder / "wrong_ref.h").write_text(EXP_REF_H.replace(
            "mpfr_neg(t, x, MPFR_RNDN);", "mpfr_mul_si(t, x, -2, MPFR_RNDN);"))
        chk = Checker(BUILD / "refk", folder, FASTREF_O, ref_header="wrong_ref.h")
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
        dump = BUILD / "dump.txt"
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
        chk = build(one_minus_x_kernel(BUILD, "tiny64", 64, z_max))
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
        chk = build(one_minus_x_kernel(BUILD, "tiny32", 32, z_max))

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
        chk = build(one_minus_x_kernel(BUILD, "small32", 32, z_max))
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
        cls.checker = build(facct_kernel(BUILD, "facctk"))
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
            source = BUILD / "facctk"
        folder = BUILD / "corrupt"
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(source, folder / source.name)
        shutil.copy(BUILD / "exp_ref.h", folder / "exp_ref.h")
        kdir = folder / source.name
        clean = build_quick(source)
        flip_one_coefficient_bit(kdir / f"{source.name}_table.h")
        bad = Checker(kdir, folder, FASTREF_O).run(*SMALL)
        self.assertGreater(bad["eval"]["max_err_ulp"], 100 * clean["eval"]["max_err_ulp"] + 100)


def flip_one_coefficient_bit(table: Path) -> None:
    """Flips one bit, 2^-8 below the leading one, of the largest hex literal."""
    text = table.read_text()
    literals = list(re.finditer(r"0[xX][0-9A-Fa-f]+", text))
    if not literals:
        raise AssertionError(f"{table}: no hexadecimal coefficient to corrupt")
    target = max(literals, key=lambda m: int(m.group(0), 16))
    value = int(target.group(0), 16)
    flipped = value ^ (1 << max(value.bit_length() - 9, 0))
    digits = len(target.group(0)) - 2
    text = text[:target.start()] + f"0x{flipped:0{digits}X}" + text[target.end():]
    table.write_text(text)


def generated_dir(name: str) -> Path | None:
    d = ROOT / "generated" / name
    sidecar = d / f"{name}.json"
    if not sidecar.is_file():
        return None
    if json.loads(sidecar.read_text()).get("function") != "exp(-x)":
        return None
    return d


def build_quick(kernel_dir: Path) -> dict[str, Any]:
    build_dir = BUILD / f"b_{kernel_dir.name}"
    build_dir.mkdir(exist_ok=True)
    shutil.copy(BUILD / "exp_ref.h", build_dir / "exp_ref.h")
    chk = Checker(kernel_dir, build_dir, FASTREF_O)
    word_bits = json.loads((kernel_dir / f"{kernel_dir.name}.json").read_text())["word_bits"]
    if word_bits == 32:
        return chk.run("--range", 0, 2_000_000)
    return chk.run(*SMALL)


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


class UserKernelTest(unittest.TestCase):
    """verify/user_kernel.py, the back end of `make kernel CONFIG=...`."""

    def test_render_check_and_audit_one_config(self) -> None:
        config = ROOT / "kernels" / "facct.toml"
        if not config.is_file() or not (ROOT / "gen" / "__main__.py").is_file():
            self.skipTest("no generator or no facct config")
        out, build_dir = BUILD / "user_out", BUILD / "user_build"
        subprocess.run([sys.executable, "-m", "gen", "render", str(config), "--out", str(out)],
                       cwd=ROOT, check=True, capture_output=True)
        r = subprocess.run([sys.executable, str(VERIFY / "user_kernel.py"), str(config),
                            "--generated", str(out), "--build", str(build_dir),
                            "--check-args", " ".join(map(str, SMALL))],
                           cwd=ROOT, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        entries = json.loads((build_dir / "audit.json").read_text())["kernels"]
        self.assertEqual([e["name"] for e in entries], ["facct"])
        self.assertTrue(3550 < entries[0]["expm_p63"]["max_err_2p63"] < 3575)
        self.assertIn("facct", r.stdout)

    def test_missing_config_is_an_error(self) -> None:
        r = subprocess.run([sys.executable, str(VERIFY / "user_kernel.py"), "/nonexistent.toml",
                            "--generated", str(BUILD), "--build", str(BUILD / "nothing")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1)


class BadInputTest(unittest.TestCase):
    """One-line errors and non-zero exits."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.checker = build(one_minus_x_kernel(BUILD, "badk", 64, LN2_Z_MAX[64]))

    def fails(self, args: list[str]) -> str:
        r = subprocess.run(args, capture_output=True, text=True)
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
        wrong = BUILD / "wrong.plan"
        wrong.write_text(self.checker.plan.read_text().replace("name badk", "name other"))
        self.assertIn("other", self.fails([b, "--plan", str(wrong)]))
        wrong.write_text(self.checker.plan.read_text().replace("scale_bits 63", "scale_bits 62"))
        self.fails([b, "--plan", str(wrong)])

    def test_plan_rejects_bad_sidecar(self) -> None:
        bad = BUILD / "bad.json"
        bad.write_text(json.dumps({"name": "x", "function": "exp(-x)", "word_bits": 64,
                                   "scale_bits": 63, "z_max": "12x", "segment_list": []}))
        self.fails([sys.executable, str(VERIFY / "plan.py"), str(bad)])
        bad.write_text("{not json")
        self.fails([sys.executable, str(VERIFY / "plan.py"), str(bad)])


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

    def test_rejects_overlap(self) -> None:
        bad = json.loads(json.dumps(self.SIDECAR))
        bad["segment_list"][1]["z_first"] = "9000"
        with self.assertRaises(plan.PlanError):
            plan.build_plan(bad)

    def test_deterministic_inputs_are_counted_once(self) -> None:
        chk = build(one_minus_x_kernel(BUILD, "plank", 64, LN2_Z_MAX[64]))
        sidecar = dict(self.SIDECAR, name="plank", scale_bits=63)
        p = BUILD / "plank_segments.plan"
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


class AuditTest(unittest.TestCase):
    """build/audit.json entries, the budget verdict and optional fields."""

    def setUp(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="audit_", dir=BUILD))
        (self.dir / "check").mkdir()

    def add(self, name: str, word_bits: int, eval_ulp: float, expm: dict[str, Any] | None,
            **extra: Any) -> None:
        d = self.dir / "generated" / name
        d.mkdir(parents=True)
        sidecar = {"name": name, "segments": 4, "degree": 5, "scale_bits": word_bits - 1,
                   "word_bits": word_bits, "table_bytes": 96, **extra}
        (d / f"{name}.json").write_text(json.dumps(sidecar))
        check = {"eval": {"max_err_ulp": eval_ulp, "max_err_2p63": 0, "log2_abs_err": 0,
                          "worst_z": "7", "inputs_checked": 10, "exhaustive": word_bits == 32},
                 "expm_p63": expm}
        (self.dir / "check" / f"{name}.json").write_text(json.dumps(check))

    def run_audit(self, *names: str) -> tuple[int, str, dict[str, Any] | None]:
        out = self.dir / "audit.json"
        r = subprocess.run([sys.executable, str(VERIFY / "audit.py"), "--generated",
                            str(self.dir / "generated"), "--check-dir", str(self.dir / "check"),
                            "--out", str(out), *names], capture_output=True, text=True)
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

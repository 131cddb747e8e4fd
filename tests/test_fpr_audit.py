"""Tests of the Falcon adaptors' checker (verify/check_fpr.c) and of the
audit on its results (verify/fpr.py, verify/audit.py), on shipped kernels
and on controls the audit must reject:

 * the double-input reference agrees with MPFR, and two broken references
   (--corrupt-ref, --drop-remainder) are caught before any check runs;
 * the worst input the checker reports is re-measured independently: the
   adaptors' outputs from the probe of falcon/ and the exact value from
   mpmath;
 * the edge grid is the one documented, the result does not depend on the
   thread count, the head kernels (whose proofs include the conversion)
   stay within their bounds;
 * ctl_noconv, paper_x86's adaptors claiming the bound of its _expm_p63
   (what a proof that ignores the conversion of x would claim), fails the
   audit through the same code path as `make`, naming it and the worst
   input; ctl_split, whose _domain_bits differs from _domain on tiny x, is
   reported as a disagreement;
 * a kernel without the fixed-point interface (tests/helpers.fpr_only_folder,
   no build/check/<name>.json) is audited on its adaptors alone, and fails
   the audit when they exceed the bound it claims.
"""
from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import sys
import unittest
from pathlib import Path
from typing import Any

import mpmath

import kfolder
from falcon.kernels import build_probe, run_probe
from tests import checker_fixtures as fx
from tests.checker_fixtures import SMALL
from tests.helpers import GENERATED, ROOT, fpr_only_folder
from verify import audit as verify_audit
from verify import fpr

SMALL_FPR = ("--uniform", 60000, "--small", 60000, "--edge-ccs", 3, "--ref-sample", 4000)
LN2_DOWN = 0x3FE62E42FEFA39EF
# Kernels whose proofs include the conversions of the doubles (forms head and fold).
FPR_PROVEN_KERNELS = ("falcon_x86", "falcon_x86_single", "falcon_x86_fast")
N_CCS_EDGES = 15  # the CCS_EDGES of check_fpr.c, as its README lists them


def setUpModule() -> None:
    fx.set_up()


def tearDownModule() -> None:
    fx.tear_down()


def bits(v: float) -> int:
    return int.from_bytes(struct.pack("<d", v), "little")


def double(b: int) -> float:
    return struct.unpack("<d", b.to_bytes(8, "little"))[0]


def build_checker(kernel: kfolder.Kernel) -> Path:
    """check_fpr compiled for `kernel` with the command the tools use."""
    out = fx.BUILD / f"check_fpr_{kernel.name}"
    if not out.exists():
        subprocess.run([*fpr.compile_command(kernel, out, fx.FASTREF_O), "-Werror"], check=True)
    return out


def run_checker(binary: Path, *args: str | int, threads: int = 2) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(binary), "--threads", str(threads), *map(str, args)],
                          capture_output=True, text=True)


def check(kernel: kfolder.Kernel, *args: str | int, threads: int = 2) -> dict[str, Any]:
    """The checker's JSON for `kernel` with small coverage (and `args`)."""
    done = run_checker(build_checker(kernel), *SMALL_FPR, *args, threads=threads)
    if done.returncode != 0:
        raise AssertionError(f"check_fpr {kernel.name}: {done.stderr}")
    return json.loads(done.stdout)


def shipped(name: str) -> kfolder.Kernel:
    return kfolder.load(GENERATED, name)


def renamed_copy(kernel: kfolder.Kernel, dest: Path, name: str) -> kfolder.Kernel:
    """A copy of `kernel`'s folder as kernel `name`: file names and every
    identifier prefix (name_, NAME_) rewritten."""
    folder = dest / name
    folder.mkdir(parents=True)
    for src in kernel.folder.rglob("*"):
        if not src.is_file():
            continue
        text = src.read_text(encoding="utf-8")
        text = text.replace(kernel.name, name).replace(kernel.name.upper(), name.upper())
        target = folder / src.relative_to(kernel.folder).as_posix().replace(kernel.name, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return kfolder.load(dest, name)


def claim_bound(kernel: kfolder.Kernel, bound: float) -> kfolder.Kernel:
    """`kernel` with its adaptors' bound (header macro and sidecar) set to `bound`."""
    macro = re.compile(rf"(#define {kernel.name.upper()}_FPR_EXPM_P63_ERR_BOUND )\S+")
    text, n = macro.subn(lambda m: m.group(1) + repr(bound), kernel.falcon_header.read_text())
    if n != 1:
        raise AssertionError(f"{kernel.falcon_header}: no bound macro to replace")
    kernel.falcon_header.write_text(text)
    sidecar = dict(kernel.sidecar, bound=dict(kernel.sidecar["bound"], fpr_expm_p63_2p63=bound))
    kernel.sidecar_path.write_text(json.dumps(sidecar, indent=1))
    return kfolder.load(kernel.folder.parent, kernel.name)


def exact_error(x_bits: int, ccs_bits: int, result: int) -> mpmath.mpf:
    """|result - ccs exp(-x) 2^63| with mpmath at 300 bits, x and ccs exact."""
    with mpmath.workprec(300):
        x, c = mpmath.mpf(double(x_bits)), mpmath.mpf(double(ccs_bits))
        return abs(result - c * mpmath.exp(-x) * 2**63)


def edge_grid(ulps: int) -> list[int]:
    """The edge x of verify/README.md, computed here from its description."""
    centres = [0, 0x000FFFFFFFFFFFFF, LN2_DOWN] + [bits(2.0**k) for k in range(-1022, 0)]
    grid = {c + j for c in centres for j in range(-ulps, ulps + 1)}
    return sorted(b for b in grid if 0 <= b <= LN2_DOWN)


class Reference(unittest.TestCase):
    """The double-input reference against MPFR, and the broken controls."""

    def test_fast_reference_agrees_with_mpfr(self) -> None:
        done = run_checker(build_checker(shipped("falcon_x86")), "--selftest-ref", 100000)
        self.assertEqual(done.returncode, 0, done.stderr)
        r = json.loads(done.stdout)
        self.assertTrue(r["ok"])
        self.assertEqual(r["inputs"], 100000)
        self.assertLess(r["max_diff_2m127"], r["bound_2m127"])
        self.assertGreater(r["max_diff_2m127"], 0)   # a comparison that saw differences

    def test_broken_references_are_caught(self) -> None:
        binary = build_checker(shipped("falcon_x86"))
        out = fx.BUILD / "never_written.json"
        for control in ("--corrupt-ref", "--drop-remainder"):
            with self.subTest(control):
                done = run_checker(binary, "--selftest-ref", 4000, control)
                self.assertEqual(done.returncode, 1)
                self.assertFalse(json.loads(done.stdout)["ok"])
                done = run_checker(binary, *SMALL_FPR, control, "--out", out)
                self.assertEqual(done.returncode, 2)
                self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)
                self.assertIn("MPFR", done.stderr)
                self.assertFalse(out.exists())

    def test_worst_inputs_remeasured_independently(self) -> None:
        """Each reported worst input: the probe of falcon/ returns the same
        integer from all four adaptors, and mpmath gives the same error."""
        kernel = shipped("falcon_x86_fast")
        result = check(kernel)
        worsts = [result, *result["families"].values(), *result["adaptors"].values()]
        cases = [(int(w["worst_x_bits"], 16), int(w["worst_ccs_bits"], 16)) for w in worsts]
        outputs = run_probe(build_probe(kernel, fx.BUILD / "probe", "gcc", [], []), cases)
        for w, (x, c), out in zip(worsts, cases, outputs):
            self.assertLessEqual(x, LN2_DOWN)
            self.assertLess(c, bits(1.0))
            emu, native, _, domain, domain_bits = out
            self.assertEqual({emu, native, domain, domain_bits}, {int(w["worst_result"], 16)})
            self.assertAlmostEqual(float(exact_error(x, c, emu)), w["max_err_2p63"], delta=1e-9)


class Coverage(unittest.TestCase):
    def test_edge_grid_and_input_counts(self) -> None:
        ulps, extra = 3, 5
        r = check(shipped("falcon_x86"), "--edge-ulps", ulps, "--edge-ccs", extra)
        grid = edge_grid(ulps)
        self.assertEqual(r["coverage"]["edge_x"], len(grid))
        per_x = N_CCS_EDGES + extra
        self.assertEqual(r["families"]["edge"]["inputs_checked"], len(grid) * per_x)
        self.assertEqual(r["inputs_checked"], 60000 + 60000 + len(grid) * per_x)
        self.assertEqual(r["adaptor_calls"], 4 * r["inputs_checked"])

    def test_threads_do_not_change_the_result(self) -> None:
        kernel = shipped("falcon_x86_fast")
        self.assertEqual(check(kernel, threads=1), check(kernel, threads=3))

    def test_bad_options_are_one_line_errors(self) -> None:
        binary = build_checker(shipped("falcon_x86"))
        for args in (["--threads", "0"], ["--uniform", "lots"], ["--ref-sample", "0"],
                     ["--frobnicate"], ["--out"]):
            with self.subTest(args):
                done = run_checker(binary, *args)
                self.assertEqual(done.returncode, 2)
                self.assertEqual(len(done.stderr.strip().splitlines()), 1, done.stderr)


class Verdicts(unittest.TestCase):
    """What the audit concludes from the checker's results."""

    def test_conversion_proven_kernels_within_their_bounds(self) -> None:
        """Their proofs include the conversion of x: the audit accepts them."""
        for name in FPR_PROVEN_KERNELS:
            kernel = shipped(name)
            folder = fx.BUILD / f"verdict_{name}"
            folder.mkdir(exist_ok=True)
            fpr.result_path(folder, name).write_text(json.dumps(check(kernel)))
            entry = fpr.fpr_entry(kernel, folder)
            assert entry is not None
            self.assertEqual(fpr.fpr_failures(name, entry), [], name)
            self.assertEqual(entry["bound"], kernel.fpr_bound_2p63)
            self.assertEqual(entry["bound_macro"], kernel.fpr_bound_2p63)

    def test_control_ignoring_the_conversion_is_rejected(self) -> None:
        """ctl_noconv: paper_x86's adaptors (z = 2 trunc(x 2^63)) claiming
        the bound of its _expm_p63.  On the grid the kernel keeps that bound;
        through the adaptors the conversion loss breaks it at small x, and
        the audit (as `make` runs it) fails naming the control and its worst
        input, while falcon_x86_single in the same run passes."""
        gen, checks = fx.BUILD / "ctl_gen", fx.BUILD / "ctl_check"
        checks.mkdir()
        source = shipped("paper_x86")
        control = claim_bound(renamed_copy(source, gen, "ctl_noconv"), source.expm_bound_2p63)
        shutil.copytree(GENERATED / "falcon_x86_single", gen / "falcon_x86_single")
        for kernel in (control, kfolder.load(gen, "falcon_x86_single")):
            (checks / f"{kernel.name}.json").write_text(json.dumps(fx.build(kernel.folder).run(*SMALL)))
            fpr.result_path(checks, kernel.name).write_text(json.dumps(check(kernel)))
        grid = json.loads((checks / "ctl_noconv.json").read_text())
        self.assertLessEqual(grid["expm_p63"]["max_err_2p63"], source.expm_bound_2p63)
        worst = json.loads(fpr.result_path(checks, "ctl_noconv").read_text())
        self.assertGreater(worst["max_err_2p63"], source.expm_bound_2p63)
        self.assertLess(int(worst["worst_x_bits"], 16), bits(2.0**-11))
        done = subprocess.run([sys.executable, "-m", "verify.audit", "--generated", str(gen),
                               "--check-dir", str(checks), "--out", str(checks / "audit.json"),
                               "ctl_noconv", "falcon_x86_single"], capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(done.returncode, 1, done.stderr)
        fails = [line for line in done.stderr.splitlines() if line.startswith("audit: FAIL:")]
        self.assertEqual(len(fails), 1, done.stderr)
        self.assertIn("ctl_noconv: Falcon adaptors measured", fails[0])
        self.assertIn(f"x_bits={worst['worst_x_bits']} ccs_bits={worst['worst_ccs_bits']}", fails[0])
        entries = {e["name"]: e for e in json.loads((checks / "audit.json").read_text())["kernels"]}
        self.assertEqual((entries["ctl_noconv"]["within_bounds"], entries["falcon_x86_single"]["within_bounds"]),
                         (False, True))

    def test_disagreeing_adaptor_is_reported(self) -> None:
        """ctl_split: _domain_bits returns _domain's result with bit 0
        flipped for x < 2^-63; the edge grid reaches there."""
        kernel = renamed_copy(shipped("falcon_x86_single"), fx.BUILD / "split_gen", "ctl_split")
        call = "return ctl_split_fpr_expm_p63_domain(x, ccs);"
        text = kernel.falcon_header.read_text()
        self.assertEqual(text.count(call), 1)
        kernel.falcon_header.write_text(text.replace(
            call, "return ctl_split_fpr_expm_p63_domain(x, ccs) ^ (uint64_t)(x_bits < 0x3C00000000000000u);"))
        r = check(kernel)
        self.assertGreater(r["disagreements"], 0)
        first = r["first_disagreement"]
        self.assertLess(int(first["x_bits"], 16), 0x3C00000000000000)
        self.assertNotEqual(first["results"]["fpr_expm_p63_domain"],
                            first["results"]["fpr_expm_p63_domain_bits"])
        entry = {k: r[k] for k in fpr.RESULT_FIELDS} | {"bound": kernel.fpr_bound_2p63}
        self.assertTrue(any("disagree" in line for line in fpr.fpr_failures("ctl_split", entry)))


    def test_kernel_without_fixed_point_interface_is_audited_on_its_adaptors(self) -> None:
        """mock_fpr: the audit builds its entry from <name>.fpr.json alone
        (there is no <name>.json), shows "-" for _eval's and _expm_p63's
        columns, judges it on the adaptors and passes; mock_tight, the same
        kernel claiming a bound below its measured error (header and
        sidecar), fails it through the same command."""
        gen, checks = fx.BUILD / "eft_gen", fx.BUILD / "eft_check"
        checks.mkdir()
        good = fpr_only_folder(gen, "mock_fpr")
        results = {"mock_fpr": check(good)}
        measured = results["mock_fpr"]["max_err_2p63"]
        self.assertGreater(measured, 0.25)
        tight = claim_bound(fpr_only_folder(gen, "mock_tight"), measured / 2)
        results["mock_tight"] = check(tight)
        for name, result in results.items():
            fpr.result_path(checks, name).write_text(json.dumps(result))

        def audit(*names: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run([sys.executable, "-m", "verify.audit", "--generated", str(gen),
                                   "--check-dir", str(checks), "--out", str(checks / "audit.json"), *names],
                                  capture_output=True, text=True, cwd=ROOT)

        done = audit("mock_fpr")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertFalse(list(checks.glob("mock_fpr.json")))
        entry = json.loads((checks / "audit.json").read_text())["kernels"][0]
        self.assertEqual((entry["fixed_point"], entry["eval"], entry["expm_p63"]), (False, None, None))
        self.assertEqual(entry["fpr"]["bound"], good.fpr_bound_2p63)
        self.assertTrue(entry["within_bounds"] and entry["falcon_budget_ok"])
        def cells(text: str, line: int) -> dict[str, str]:
            rows = text.splitlines()
            return dict(zip(re.split(r"\s{2,}", rows[0].strip()), re.split(r"\s{2,}", rows[line].strip())))

        row = cells(done.stdout, 2)
        self.assertNotIn("eval err 2^-S", row)       # no kernel of the run has the column
        self.assertEqual(float(row["fpr err 2^-63"]), float(f"{results['mock_fpr']['max_err_2p63']:.6g}"))
        self.assertEqual(row["<= bound"], "yes")
        # Beside a kernel with _eval, its cells of the fixed-point columns are "-".
        fixed = dict(entry, name="with_eval", eval={"max_err_ulp": 0.5, "exhaustive": False})
        row = cells(verify_audit.render_table([fixed, entry]), 3)
        self.assertEqual((row["name"], row["eval err 2^-S"], row["eval err 2^-63"], row["exhaustive"]),
                         ("mock_fpr", "-", "-", "-"))
        done = audit("mock_fpr", "mock_tight")
        self.assertEqual(done.returncode, 1, done.stderr)
        fails = [line for line in done.stderr.splitlines() if line.startswith("audit: FAIL:")]
        self.assertEqual(len(fails), 1, done.stderr)
        self.assertIn("mock_tight: Falcon adaptors measured", fails[0])


if __name__ == "__main__":
    unittest.main()

"""Tests of the constant-time checks (ct/): the objdump and memcheck parsers
on hand-written inputs, and the whole quick pipeline on the generated
kernels that exist plus the three controls, including a run whose timing
control is swapped for a constant-time one and must therefore fail."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import kfolder  # noqa: E402
from ct.scan import scan_function  # noqa: E402
from ct.taint import parse_memcheck_xml  # noqa: E402
from toolkit.disasm.x86 import parse_objdump  # noqa: E402

# A hand-written listing in the format of `objdump -dr --no-show-raw-insn`.
# f_clean: multiply chain, rip-relative load, stack spill of a secret and
# reload, then an address built from a public table pointer: all clean.
# f_leaky: one conditional jump, one index-register load, one load through
# a base register computed from the secret, a call to an external helper,
# a division, and an SSE multiply.  f_native: allowed SSE ops plus a divsd.
# f_paths loads through a secret pointer on one path only (the other path
# clears it first), which a pass in program order alone would miss.
# f_outer calls f_inner (same object), whose branch must be counted.
LISTING = """
0000000000000000 <f_clean>:
   0:\tmov    %rdi,%rax
   3:\tmul    %rsi
   6:\tmov    0x0(%rip),%rcx        # d <f_clean+0xd>
\t\t\t9: R_X86_64_PC32\t.rodata-0x4
   d:\tmov    %rdx,0x8(%rsp)
  12:\tlea    0x0(%rip),%r8        # 19 <f_clean+0x19>
  19:\tmov    0x10(%r8),%r9
  1d:\tmov    0x8(%rsp),%rax
  22:\tadd    %r9,%rax
  25:\tdata16 cs nopw 0x0(%rax,%rax,1)
  30:\tret

0000000000000040 <f_leaky>:
  40:\ttest   %rdi,%rdi
  43:\tje     60 <f_leaky+0x20>
  45:\tlea    0x0(%rip),%rax        # 4c <f_leaky+0xc>
  4c:\tmov    (%rax,%rdi,8),%rdx
  50:\tmov    %rsi,%rcx
  53:\tshr    $0x3c,%rcx
  57:\tadd    %rax,%rcx
  5a:\tmov    0x8(%rcx),%rax
  5e:\tcall   63 <f_leaky+0x23>
\t\t\t5f: R_X86_64_PLT32\t__multi3-0x4
  63:\tdiv    %rsi
  66:\tmulsd  %xmm1,%xmm0
  6a:\tret

0000000000000080 <f_native>:
  80:\tmulsd  %xmm2,%xmm0
  84:\tcvttsd2si %xmm0,%rax
  89:\tdivsd  %xmm1,%xmm0
  8d:\tret

0000000000000088 <f_simd>:
  88:\tvpmuludq %zmm1,%zmm0,%zmm2
  8c:\tvfmadd132pd %zmm1,%zmm0,%zmm2
  8d:\tvpgatherqq (%rax,%zmm1,8),%zmm3{%k1}
  8e:\tret

0000000000000090 <f_paths>:
  90:\tmov    %rdi,%rcx
  93:\ttest   %rsi,%rsi
  96:\tjne    9a <f_paths+0xa>
  98:\txor    %ecx,%ecx
  9a:\tmov    (%rcx),%rax
  9d:\tret

00000000000000a0 <f_inner>:
  a0:\tcmp    $0x5,%rdi
  a4:\tjb     a9 <f_inner+0x9>
  a6:\tret

00000000000000b0 <f_outer>:
  b0:\tcall   b5 <f_outer+0x5>
\t\t\tb1: R_X86_64_PLT32\tf_inner-0x4
  b5:\tret
"""


class TestScanParser(unittest.TestCase):
    """The binary scan on a listing whose findings are known by hand."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.funcs = parse_objdump(LISTING)

    def test_clean_function_is_clean(self) -> None:
        c = scan_function(self.funcs, "f_clean", native=False)
        self.assertTrue(c.clean(), c.findings)
        self.assertEqual(c.instructions, 8)  # nop and ret are not counted

    def test_every_leak_kind_is_counted(self) -> None:
        c = scan_function(self.funcs, "f_leaky", native=False)
        self.assertEqual(c.cond_branches, 1)
        self.assertEqual(c.indexed_mem, 1)
        self.assertEqual(c.secret_base_mem, 1)
        self.assertEqual(c.calls, 1)
        self.assertEqual(c.divisions, 1)
        self.assertEqual((c.fp_insns, c.fp_disallowed), (1, 1))
        self.assertFalse(c.clean())

    def test_native_allowed_list(self) -> None:
        c = scan_function(self.funcs, "f_native", native=True)
        self.assertEqual((c.fp_insns, c.fp_disallowed, c.divisions), (3, 1, 1))

    def test_batch_allowed_list(self) -> None:
        # The batch entries' SIMD list allows the product and the FMA; a
        # gather is refused twice (not listed, and a vector-indexed address),
        # and a scalar native entry allows neither.
        c = scan_function(self.funcs, "f_simd", native=True, simd=True)
        self.assertEqual((c.fp_insns, c.fp_disallowed, c.indexed_mem), (3, 1, 1))
        self.assertIn("vpgatherqq", " ".join(c.findings))
        c = scan_function(self.funcs, "f_simd", native=True)
        self.assertEqual(c.fp_disallowed, 3)

    def test_secret_address_on_one_path_only(self) -> None:
        c = scan_function(self.funcs, "f_paths", native=False)
        self.assertEqual((c.cond_branches, c.secret_base_mem), (1, 1))

    def test_local_calls_are_followed_not_counted(self) -> None:
        c = scan_function(self.funcs, "f_outer", native=False)
        self.assertEqual((c.calls, c.cond_branches), (0, 1))


MEMCHECK_XML = """<?xml version="1.0"?>
<valgrindoutput>
<error><unique>0x1</unique><kind>UninitCondition</kind>
  <stack><frame><fn>helper</fn></frame><frame><fn>ct_w_k_eval</fn></frame></stack></error>
<error><unique>0x2</unique><kind>UninitValue</kind>
  <stack><frame><fn>ct_w_k_eval</fn></frame></stack></error>
<error><unique>0x3</unique><kind>InvalidRead</kind>
  <stack><frame><fn>ct_w_k_expm_p63</fn></frame></stack></error>
<error><unique>0x4</unique><kind>UninitValue</kind>
  <stack><frame><fn>main</fn></frame></stack></error>
<errorcounts>
  <pair><count>7</count><unique>0x1</unique></pair>
  <pair><count>3</count><unique>0x2</unique></pair>
</errorcounts>
</valgrindoutput>
"""


class TestMemcheckParser(unittest.TestCase):
    def test_attribution_and_kinds(self) -> None:
        wrappers = {"ct_w_k_eval": "k_eval", "ct_w_k_expm_p63": "k_expm_p63"}
        res, stray = parse_memcheck_xml(MEMCHECK_XML, wrappers)
        self.assertEqual(stray, 1)
        self.assertEqual(res["k_eval"].reports, 2)
        self.assertEqual(res["k_eval"].occurrences, 10)
        self.assertEqual(res["k_eval"].kinds, {"UninitCondition": 1, "UninitValue": 1})
        self.assertEqual((res["k_expm_p63"].reports, res["k_expm_p63"].other), (0, 1))


def generated_kernels() -> list[str]:
    """Kernels of KERNELS (kernels/*.toml) whose generated folder exists."""
    names = sorted(p.stem for p in (ROOT / "kernels").glob("*.toml"))
    present = set(kfolder.names(ROOT / "generated"))
    return [n for n in names if n in present]


def run_ct(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "ct.run", "--build-dir", str(out / "b"), "--out", str(out / "ct.json"),
           "--ttest-n", "100000", "--control-n", "200000", *extra]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


class TestQuickPipeline(unittest.TestCase):
    """One quick run (what `make ct-quick` does) on the generated kernels
    present and the controls."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory()
        cls.kernels = generated_kernels()
        cls.proc = run_ct(Path(cls.tmp.name), "--kernels", " ".join(cls.kernels))
        path = Path(cls.tmp.name) / "ct.json"
        cls.report = json.loads(path.read_text()) if path.is_file() else {}

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def test_run_succeeds(self) -> None:
        self.assertEqual(self.proc.returncode, 0, self.proc.stderr + self.proc.stdout)

    def test_controls_judged_right(self) -> None:
        checks = self.report["control_checks"]
        self.assertTrue(all(checks.values()), checks)
        self.assertTrue(self.report["leaky_control_detected"])
        verdict = {k["name"]: k["constant_time"] for k in self.report["controls"]}
        self.assertEqual(verdict, {"ctl_poly": True, "ctl_direct": False, "ctl_branch": False})

    def test_schema_and_direct_tables(self) -> None:
        fields = {"name", "table_access", "valgrind_reports", "ttest_max_t", "ttest_measurements",
                  "cond_branches", "fp_insns", "calls", "divisions", "indexed_loads", "constant_time"}
        self.assertIn("compiler", self.report)
        self.assertEqual([k["name"] for k in self.report["kernels"]], self.kernels)
        for k in self.report["kernels"] + self.report["controls"]:
            self.assertLessEqual(fields, set(k))
            self.assertGreaterEqual(k["ttest_min_measurements_per_entry"], 100000)
            if k["table_access"] == "direct":
                self.assertFalse(k["constant_time"], k["name"])
        # The binary scan (deterministic) passes every shipped kernel without
        # a secret-indexed table: its instructions are all on the allowed
        # lists (form eft's permutes and compares included, ct/scan.py).
        for k in self.report["kernels"]:
            if k["table_access"] != "direct":
                self.assertTrue(k["checks"]["scan"], (k["name"], [f for e in k["entries"]
                                                                  for f in e["scan_findings"]][:5]))

    def test_harness_rejects_bad_input(self) -> None:
        taint = Path(self.tmp.name) / "b" / "ct_taint"
        ttest = Path(self.tmp.name) / "b" / "ct_ttest"
        for cmd in ([taint, "x", "ctl_poly_eval"], [taint, "5", "no_such_entry"],
                    [ttest, "10", "1", "ctl_poly_eval"], [ttest, "100000", "1", "no_such_entry"]):
            proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2, cmd)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)


class TestKernelWithoutFixedPointInterface(unittest.TestCase):
    """A kernel of form eft's kind (tests/helpers.fpr_only_folder: no _eval,
    no _expm_p63 in its header): its adaptors and batch entries are wrapped
    and checked, and the run compiles and passes."""

    def test_entries_and_quick_run(self) -> None:
        from ct.kernels import entries
        from tests.helpers import fpr_only_folder
        with tempfile.TemporaryDirectory() as tmp:
            kernel = fpr_only_folder(Path(tmp) / "gen")
            names = [e.suffix for e in entries(kernel)]
            self.assertEqual(names, ["fpr_expm_p63", "fpr_expm_p63_native", "fpr_expm_p63_domain",
                                     "fpr_expm_p63_batch_avx512", "expm_p63_x8",
                                     "fpr_expm_p63_batch_avx2", "expm_p63_x4", "fpr_expm_p63_batch_scalar"])
            shipped = [e.suffix for e in entries(kfolder.load(ROOT / "generated", "falcon_x86_batch"))]
            self.assertEqual(shipped, ["eval", "expm_p63", *names])
            proc = run_ct(Path(tmp), "--gen-dir", str(Path(tmp) / "gen"), "--kernels", kernel.name,
                          "--ttest-n", "20000", "--taint-calls", "50")
            self.assertEqual(proc.returncode, 0, proc.stderr + proc.stdout)
            report = json.loads((Path(tmp) / "ct.json").read_text())["kernels"][0]
            self.assertEqual([e["entry"] for e in report["entries"]][:3],
                             [f"{kernel.name}_{n}" for n in names[:3]])
            self.assertTrue(report["constant_time"], report)


class TestGates(unittest.TestCase):
    def test_blind_timing_control_fails_the_run(self) -> None:
        """Swap the leaky timing control for the constant-time one: the
        t-test then cannot flag it, and the run must fail."""
        with tempfile.TemporaryDirectory() as tmp:
            proc = run_ct(Path(tmp), "--ttest-control", "ctl_poly_eval")
            self.assertEqual(proc.returncode, 1, proc.stdout + proc.stderr)
            report = json.loads((Path(tmp) / "ct.json").read_text())
            self.assertFalse(report["control_checks"]["ttest_flags_secret_branch"])
            self.assertFalse(report["leaky_control_detected"])

    def test_unknown_kernel_is_one_line_error(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            proc = run_ct(Path(tmp), "--kernels", "no_such_kernel")
            self.assertEqual(proc.returncode, 2)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)


if __name__ == "__main__":
    unittest.main()


class ControlRenderTest(unittest.TestCase):
    """The controls come from the generator; the one edit must find its anchor."""

    def test_branch_inserted_once_and_missing_anchor_refused(self) -> None:
        from ct.controls.render import BRANCH, BRANCH_ANCHOR, insert_branch
        text = "/* header */\n" + BRANCH_ANCHOR + "    return 0;\n}\n"
        self.assertEqual(insert_branch(text).count(BRANCH), 1)
        with self.assertRaises(ValueError):
            insert_branch(text.replace("ctl_branch_core", "ctl_branch_kore"))

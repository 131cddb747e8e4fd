"""Tests of `make report` (report/): only the lines between markers change,
bad markers are refused with one line and nothing written, a second run
changes nothing, and every section renders from a JSON of the shape the
tools write."""
from __future__ import annotations

import json
import subprocess
import sys
import unittest
from pathlib import Path

from report import markers, speed, tables
from report.common import Skip
from tests.helpers import ROOT, TempDirCase

CT_JSON = {"measured_on": {"cpu_model": "Test CPU 9000", "date": "2026-01-02"},
           "compiler": "cc 12", "flags": "-O2", "leaky_control_detected": True,
           "kernels": [{"name": "k1", "table_access": "none", "valgrind_reports": 0,
                        "ttest_max_t": 1.25, "cond_branches": 0, "fp_insns": 0, "calls": 0,
                        "divisions": 0, "indexed_loads": 0, "constant_time": True}]}

DOC = ("# Title\r\n"          # a CRLF line elsewhere must survive byte for byte
       "Prose before.\n"
       "<!-- report:ct -->\n"
       "stale table\n"
       "<!-- /report:ct -->\n"
       "Prose after, no final newline")


def run_report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "report", *args], capture_output=True,
                          text=True, cwd=ROOT)


class Markers(unittest.TestCase):
    def test_rewrites_only_between_markers(self) -> None:
        new = markers.rewrite(DOC, "doc", lambda name: f"NEW {name}")
        self.assertEqual(new, DOC.replace("stale table\n", "NEW ct\n"))

    def test_section_left_alone_when_render_returns_none(self) -> None:
        self.assertEqual(markers.rewrite(DOC, "doc", lambda name: None), DOC)

    def test_refuses_bad_markers_with_one_line(self) -> None:
        bad = {
            "none": "no markers at all\n",
            "unclosed": "<!-- report:ct -->\nx\n",
            "unopened": "x\n<!-- /report:ct -->\n",
            "crossed": "<!-- report:ct -->\n<!-- /report:m3 -->\n",
            "nested": "<!-- report:ct -->\n<!-- report:m3 -->\n<!-- /report:m3 -->\n<!-- /report:ct -->\n",
        }
        for what, text in bad.items():
            with self.subTest(what):
                with self.assertRaises(markers.MarkerError) as cm:
                    markers.rewrite(text, "f.md", lambda name: "x")
                self.assertEqual(len(str(cm.exception).splitlines()), 1)
                self.assertTrue(str(cm.exception).startswith("f.md"))


class Cli(TempDirCase):
    def setUp(self) -> None:
        self.build = self.tmp / self._testMethodName / "build"
        self.build.mkdir(parents=True)
        (self.build / "ct.json").write_text(json.dumps(CT_JSON))
        self.doc = self.build.parent / "doc.md"
        self.doc.write_bytes(DOC.encode())

    def test_rewrites_is_idempotent_and_keeps_the_rest(self) -> None:
        r = run_report("--build", str(self.build), str(self.doc))
        self.assertEqual(r.returncode, 0, r.stderr)
        once = self.doc.read_bytes().decode()
        head, _, rest = once.partition("<!-- report:ct -->\n")
        body, _, tail = rest.partition("<!-- /report:ct -->\n")
        self.assertEqual(head, DOC.split("<!-- report:ct -->\n")[0])
        self.assertEqual(tail, "Prose after, no final newline")
        self.assertIn("`Test CPU 9000` on 2026-01-02", body)
        self.assertIn("| k1 | none | 0 | 1.2", body)
        self.assertNotIn("stale", body)
        again = run_report("--build", str(self.build), str(self.doc))
        self.assertEqual(again.returncode, 0)
        self.assertIn("rewrote 0 of 1", again.stdout)
        self.assertEqual(self.doc.read_bytes().decode(), once)

    def test_missing_json_is_skipped_and_said(self) -> None:
        (self.build / "ct.json").unlink()
        r = run_report("--build", str(self.build), str(self.doc))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("skipped ct", r.stdout)
        self.assertEqual(self.doc.read_bytes().decode(), DOC)

    def test_bad_file_stops_everything_with_one_line(self) -> None:
        other = self.build.parent / "other.md"
        other.write_text("<!-- report:ct -->\nnever closed\n")
        r = run_report("--build", str(self.build), str(self.doc), str(other))
        self.assertEqual(r.returncode, 2)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertEqual(self.doc.read_bytes().decode(), DOC)      # nothing written
        self.assertEqual(other.read_text(), "<!-- report:ct -->\nnever closed\n")
        self.assertEqual(sorted(p.name for p in self.build.parent.iterdir()),
                         ["build", "doc.md", "other.md"])          # no temporary left

    def test_unknown_section_and_bad_source_are_refused(self) -> None:
        self.doc.write_text("<!-- report:nonsense -->\n<!-- /report:nonsense -->\n")
        r = run_report("--build", str(self.build), str(self.doc))
        self.assertEqual((r.returncode, len(r.stderr.strip().splitlines())), (2, 1))
        r = run_report("--source", "nothing", str(self.doc))
        self.assertEqual((r.returncode, len(r.stderr.strip().splitlines())), (2, 1))


class ShippedDocs(unittest.TestCase):
    def test_every_report_file_has_balanced_known_markers(self) -> None:
        from report.__main__ import FILES, SECTIONS
        for name in FILES:
            text = (ROOT / name).read_text(encoding="utf-8")
            for sec in markers.sections(text, name):
                self.assertIn(sec.name, SECTIONS, name)


class Renderers(unittest.TestCase):
    """Each renderer on a JSON of the shape its tool writes."""

    def test_ct(self) -> None:
        out = tables.ct(CT_JSON, Path("build/ct.json"))
        self.assertIn("| k1 | none | 0 | 1.2 | 0 | 0 | 0 | 0 | 0 | **yes** |", out)
        self.assertIn("leaky controls detected in the same run: True", out)

    def test_bench_sampler(self) -> None:
        row = {"name": "falcon_x86_fast", "kind": "kernel", "cycles_per_sample_median": 310.04,
               "cycles_per_sample_p5": 284.0, "cycles_per_sample_p95": 358.8,
               "ratio_to_facct_int128": 0.9412, "paired_ratio_median": 0.9398,
               "instructions_per_sample": 678.7, "trials_per_sample": 1.7367,
               "candidates_per_sample": 1.7367, "bytes_per_sample": 19.41, "base": "facct_int128",
               "agree_differing": 0}
        spec = dict(row, name="spec8_batch_avx512", kind="speculative", cycles_per_sample_median=700.0,
                    instructions_per_sample=None, candidates_per_sample=8.0075, bytes_per_sample=82.27,
                    base="spec8_facct_int128")
        data = {"measured_on": {"cpu_model": "X", "date": "2026-01-02"}, "runs": 3, "rounds_per_run": 5,
                "samples_per_timing": 256, "agree_samples": 1000, "results": [row, spec],
                "targets": [{"kernel": "falcon_x86_fast", "max_ratio_to_facct_int128": 0.93,
                             "ratio": 0.9412, "met": False}],
                "speculative": {"best_sequential": "falcon_x86_fast", "rows": [
                    {"name": "spec8_batch_avx512", "ratio_to_best_sequential": 2.2578,
                     "beats_best_sequential": False, "candidates_over_sequential": 4.611,
                     "bytes_over_sequential": 4.2385}]}}
        out = speed.bench_sampler(data, Path("build/bench_sampler.json"))
        self.assertIn("| falcon_x86_fast | 310.0 | 284.0–358.8 | 0.941 | 0.940 | 678.7 | 1.7367 | 1.7367 "
                      "| 19.41 | facct_int128 | 0 |", out)
        self.assertIn("| spec8_batch_avx512 | 700.0 | 284.0–358.8 | 0.941 | 0.940 | - | 1.7367 | 8.0075 "
                      "| 82.27 | spec8_facct_int128 | 0 |", out)
        self.assertIn("| `falcon_x86_fast` | <= 0.93 | 0.941 | **not met** |", out)
        self.assertIn("`falcon_x86_fast`'s (the fastest sequential loop)", out)
        self.assertIn("| `spec8_batch_avx512` | 2.258 | 4.61 | 4.24 | **no** |", out)

    def test_bench_sampler_costs(self) -> None:
        """A pair's cycles and instructions are the first loop's less the
        second's; a pair with a loop missing from the run has no row, and a
        loop without an instruction count (AVX-512) gets "-"."""
        def row(name: str, cycles: float, instr: object) -> dict[str, object]:
            return {"name": name, "cycles_per_sample_median": cycles, "instructions_per_sample": instr}
        data = {"measured_on": {"cpu_model": "X", "date": "2026-01-02"},
                "results": [row("facct_int128", 400.0, 700.0), row("spec4_facct_int128", 800.0, 1800.5),
                            row("pool4_facct_int128", 600.0, None)]}
        out = speed.bench_sampler_costs(data, Path("build/bench_sampler.json"))
        self.assertIn("| `spec4_facct_int128` | `facct_int128` | 4 candidates per round, the same kernel "
                      "| 400.0 | 2.000 | 1100.5 |", out)
        self.assertIn("| `pool4_facct_int128` | `facct_int128` | the same, undecided candidates' base samples "
                      "kept | 200.0 | 1.500 | - |", out)
        self.assertIn("| `spec4_facct_int128` | `pool4_facct_int128` | base samples not kept | 200.0 | 1.333 | - |",
                      out)
        self.assertNotIn("batch_avx2", out)

    def test_bench_batch(self) -> None:
        def row(name: str, batch: float, chain: float, instr: float, **extra: object) -> dict[str, object]:
            return {"name": name, "kind": "kernel", "batch_cycles_median": batch,
                    "chain_cycles_median": chain, "instructions_per_call": instr,
                    "batch_speedup_vs_facct_int128": 28.0 / batch,
                    "batch_speedup_vs_facct_avx2": 11.0 / batch, "error_2p63": 0.876136,
                    "error_source": "proven bound, kernel folder", **extra}
        rows = [row("facct_int128", 28.0, 84.0, 100.0, error_2p63=3562.6, error_source="FACCT.md figure"),
                row("facct_avx2", 11.0, 52.0, 30.0), row("falcon_x86_fast", 22.0, 54.0, 81.0),
                row("facct_avx2_x4", 6.6, 100.0, 42.0), row("falcon_x86_batch", 28.0, 58.0, 104.0),
                row("falcon_x86_batch/batch-avx512", 5.5, 165.0, 197.0,
                    instructions_source="static: objdump of the chain loop's body"),
                row("falcon_x86_batch/batch-avx2", 19.6, 115.0, 250.0)]
        data = {"measured_on": {"cpu_model": "X", "date": "2026-01-02"}, "runs": 3, "rounds_per_run": 5,
                "machine": {"cpu_family_model_stepping": "6/207/2"}, "results": rows}
        out = speed.bench_batch(data, Path("build/bench.json"))
        self.assertIn("family/model/stepping 6/207/2", out)
        self.assertIn("| facct_int128 | 28.0 | 84.0 | 1 | 100 | 100.0 | 2.55 | 1.00 | 3562.6 (FACCT.md", out)
        self.assertIn("| facct_avx2_x4 | 6.6 | 100.0 | 4 | 42 | 10.5 | 0.60 | 0.24 |", out)
        self.assertIn("| falcon_x86_batch/batch-avx512 | 5.5 | 165.0 | 8 | 197 (static) | 24.6 | 0.50 | 0.20 |", out)
        self.assertIn("| falcon_x86_batch/batch-avx2 | 19.6 | 115.0 | 4 | 250 | 62.5 | 1.78 | 0.70 |", out)
        self.assertNotIn("falcon_x86_fast", out)   # only the batch kernels' scalar rows
        self.assertLess(out.index("| falcon_x86_batch |"), out.index("| falcon_x86_batch/batch-avx512"))
        self.assertIn("| `falcon_x86_batch/batch-avx512` | batch / facct_avx2 | 0.50 | <= 0.5 | yes |", out)
        self.assertIn("| `falcon_x86_batch/batch-avx512` | batch / facct_int128 | 0.20 | <= 0.2 | yes |", out)
        self.assertIn("| `falcon_x86_batch/batch-avx2` | batch / facct_avx2 | 1.78 | <= 1 | **no** |", out)
        self.assertIn("| `falcon_x86_batch/batch-avx2` | batch / facct_int128 | 0.70 | <= 0.4 | **no** |", out)

    def test_audit_fpr(self) -> None:
        fpr = {"max_err_2p63": 2.0, "bound": 1.58012, "worst_x_bits": "0x3c0fffffffffffff",
               "worst_ccs_bits": "0x3fefffffffffffff", "inputs_checked": 1234567,
               "over_bound": 89, "disagreements": 0}
        data = {"measured_on": {"cpu_model": "X", "date": "2026-01-02"},
                "kernels": [{"name": "k64", "fpr": fpr},
                            {"name": "k32", "fpr": None},
                            {"name": "ok", "fpr": dict(fpr, max_err_2p63=0.5, bound=0.9,
                                                       over_bound=0, disagreements=2)}]}
        out = tables.audit_fpr(data, Path("build/audit.json"))
        self.assertIn("| k64 | 2 | 1.58012 | 0.790 | `0x3c0fffffffffffff` | `0x3fefffffffffffff` "
                      "| 1,234,567 | 89 | yes | **NO** |", out)
        self.assertIn("| ok | 0.5 | 0.9 | 1.800 |", out)
        self.assertIn("| 0 | **NO** | yes |", out)
        self.assertNotIn("k32", out)

    def test_audit_with_a_kernel_without_the_fixed_point_interface(self) -> None:
        # The audit's entry of a form-eft kernel (verify/audit.py): eval and
        # expm_p63 null, judged on its adaptors; beside a 64-bit kernel.
        fixed = {"name": "k64", "segments": 1, "degree": 13, "scale_bits": 63, "word_bits": 64,
                 "table_bytes": 0, "eval": {"max_err_ulp": 0.75, "exhaustive": False},
                 "expm_p63": {"max_err_2p63": 0.8, "log2_abs_err": -63.32},
                 "bound": {"expm_p63_2p63": 0.96}, "falcon_budget_ok": True}
        eft = {"name": "keft", "segments": 16, "degree": 5, "scale_bits": 63, "word_bits": 64,
               "table_bytes": 256, "fixed_point": False, "eval": None, "expm_p63": None,
               "bound": {"fpr_expm_p63_2p63": 0.5456},
               "fpr": {"max_err_2p63": 0.52, "bound": 0.5456, "log2_abs_err": -63.94},
               "constant_time": {"constant_time": True}, "falcon_budget_ok": True}
        data = {"measured_on": {"cpu_model": "X", "date": "2026-01-02"}, "kernels": [fixed, eft]}
        out = tables.audit(data, Path("build/audit.json"))
        self.assertIn("| keft | 16 | 5 | 63 | 64 | 256 | - | - | (adaptors) 0.5456 | 1.049 | -63.94 | yes | ok |", out)
        self.assertIn("| k64 | 1 | 13 | 63 | 64 | 0 | 0.75 | 0.8 | 0.96 | 1.200 | -63.32 |", out)

    def test_audit_without_constant_time_verdicts_is_skipped(self) -> None:
        # An audit.json written without build/ct.json: the table would say
        # "-" for every kernel, so the section is skipped with the reason.
        k = {"name": "k64", "segments": 1, "degree": 13, "scale_bits": 63, "word_bits": 64,
             "table_bytes": 0, "eval": {"max_err_ulp": 0.75, "exhaustive": False},
             "expm_p63": {"max_err_2p63": 0.8, "log2_abs_err": -63.32},
             "bound": {"expm_p63_2p63": 0.96}, "falcon_budget_ok": True}
        data = {"measured_on": {"cpu_model": "X", "date": "2026-01-02"}, "kernels": [k]}
        with self.assertRaisesRegex(Skip, "no constant-time verdicts"):
            tables.audit(data, Path("build/audit.json"))
        # Control: with one verdict the table is written.
        k["constant_time"] = {"constant_time": True}
        self.assertIn("| k64 |", tables.audit(data, Path("build/audit.json")))

    def test_bench_ratios_are_row_over_reference(self) -> None:
        row = {"name": "k", "kind": "kernel", "chain_cycles_median": 50.0, "chain_cycles_p5": 45.0,
               "chain_cycles_p95": 60.0, "batch_cycles_median": 20.0, "batch_cycles_p5": 19.0,
               "batch_cycles_p95": 25.0, "instructions_per_call": 100.0,
               "chain_speedup_vs_facct_int128": 2.0, "batch_speedup_vs_facct_int128": 0.5,
               "error_2p63": 0.8, "error_source": "proven bound, kernel folder"}
        data = {"runs": 3, "rounds_per_run": 10, "machine": {"cpu_model": "X"},
                "results": [row, dict(row, name="k/domain")]}
        out = speed.bench(data, Path("b.json"))
        self.assertIn("| k | 50.0 | 45.0–60.0 | 20.0 | 100 | 0.50 | - | 2.00 | 0.8 (proven", out)
        self.assertIn("Measured on `X` (date not recorded).", out)
        self.assertIn("`X` (date not recorded)", out)
        rows = [dict(row, name="falcon_x86"), dict(row, name="falcon_x86/domain", instructions_per_call=80.0),
                dict(row, name="facct_int128", instructions_per_call=102.0)]
        targets = speed.bench_targets(dict(data, results=rows), Path("b"))
        self.assertIn("| `falcon_x86/domain` | instr / int128 | 0.78 | <= 0.9 | yes |", targets)
        self.assertIn("| `falcon_x86` | chain / int128 | 0.50 | <= 0.5 | yes |", targets)
        self.assertIn("| `falcon_x86` | batch / int128 | 2.00 | <= 0.75 | **no** |", targets)
        self.assertIn("| `falcon_x86` | edge rules (instr over _domain) | 20 | <= 15 | **no** |", targets)
        self.assertNotIn("chain / avx2", targets)     # no speed-up against avx2 in the row: no line
        self.assertNotIn("falcon_x86_fast", targets)  # no row in the run: no line
        tradeoff = speed.bench_tradeoff(dict(data, results=rows), Path("b"))
        self.assertIn("| `falcon_x86/domain` | form twin, the faithful flagship | 80 | 0.78 | 2.00 | 0.50 | 0.8 |",
                      tradeoff)
        self.assertNotIn("falcon_x86_fast", tradeoff)  # no row in the run: no line


class CertifyTable(unittest.TestCase):
    """The Gappa table takes every summary certify/gappa_run.py writes: per
    segment, form head (claims) and form eft (the small part's claim); an
    unproven one says so."""

    def test_every_summary_kind(self) -> None:
        seg = {"name": "k_seg", "segments": 2, "proven": True, "wall_seconds": 1.0, "gappa_cpu_seconds": 1.5,
               "results": [{"generator": ["-1", "2"], "gappa": ["-1", "1b1"], "split": 1},
                           {"generator": ["-3b-1", "1"], "gappa": ["-1", "1"], "split": 1}]}
        head = {"name": "k_head", "form": "head", "claims": 228, "proven": True, "wall_seconds": 12.0, "failures": []}
        eft = {"name": "k_eft", "form": "eft", "claimed": 0.0210383, "proven": False, "wall_seconds": 0.1,
               "failure": "BND(...)"}
        out = tables.certify_gappa({"kernels": [seg, head, eft], "measured_on": {"date": "2026-01-02"}},
                                   Path("build/certify"))
        self.assertIn("| k_seg | 2 segment(s) | [-1.5, 2] | [-1, 2] | 1.00 (1.50) | none | yes |", out)
        self.assertIn("| k_head | 228 claims of the binary64 part | - | - | 12.00 | - | yes |", out)
        self.assertIn("| k_eft | the small part's roundings | <= 0.0210383 | - | 0.10 | - | **NO** |", out)


if __name__ == "__main__":
    unittest.main()

"""Tests of the x86-64 benchmark (bench/, mk/bench.mk).

The C parts are built through make (so BENCH_GENERATED and BENCH_KERNELS
from the environment are honoured) and run with subprocess.  Nothing here
asserts on a time: timing runs are only checked for shape.
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import kfolder  # noqa: E402
from bench import baseline, gen_registry, plot, run  # noqa: E402
from bench.stats import filtered_summary, percentile  # noqa: E402
from tests.helpers import GENERATED, fpr_only_folder, minimal_sidecar, write_kernel_folder  # noqa: E402

BIN = ROOT / "build" / "bench" / "bench_main"
CHECK = ROOT / "build" / "bench" / "check_refs"
REFS = ("facct_portable", "facct_int128", "facct_double", "facct_avx2", "facct_int128_x4", "facct_avx2_x4")


def vectors() -> Path:
    """The FACCT test vectors: the project's copy if it has one, else the
    shared anchors beside the work tree."""
    for p in (ROOT / "tests" / "data" / "facct_vectors.tsv",
              ROOT.parent / "shared" / "anchors" / "facct_vectors.tsv"):
        if p.is_file():
            return p
    raise FileNotFoundError("facct_vectors.tsv not found in tests/data or ../shared/anchors")


def vector_rows() -> int:
    return sum(1 for line in vectors().read_text().splitlines()
               if line and not line.startswith("#"))


def setUpModule() -> None:
    subprocess.run(["make", "-s", "-C", str(ROOT), "build/bench/bench_main",
                    "build/bench/check_refs"], check=True)


def check_refs(*extra: str) -> tuple[int, dict[str, tuple[int, int]], str]:
    """Run check_refs; returns (exit code, {ref: (rows, mismatches)}, stdout)."""
    p = subprocess.run([str(CHECK), str(vectors()), *extra], capture_output=True, text=True)
    table = {}
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].isdigit():
            table[parts[0]] = (int(parts[1]), int(parts[2]))
    return p.returncode, table, p.stdout


class ReferencesBitExact(unittest.TestCase):
    def test_every_reference_matches_its_column(self) -> None:
        code, table, out = check_refs()
        self.assertEqual(code, 0, out)
        rows = vector_rows()
        for ref in REFS:
            if ref == "facct_avx2" and "skipped" in out:
                continue
            self.assertEqual(table[ref], (rows, 0), ref)

    def test_broken_control_is_caught_for_each_reference(self) -> None:
        # Flipping the lowest output bit must make every row of that
        # reference mismatch, and only that reference.
        rows = vector_rows()
        for ref in REFS:
            code, table, out = check_refs("--break", ref)
            if ref not in table:
                continue  # facct_avx2 on a CPU without AVX2
            self.assertEqual(code, 1, ref)
            self.assertEqual(table[ref], (rows, rows), ref)
            others = [r for r in table if r != ref]
            self.assertTrue(all(table[r][1] == 0 for r in others), out)

    def test_bad_input_is_one_line_error(self) -> None:
        p = subprocess.run([str(CHECK), "/nonexistent.tsv"], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1)


class Registry(unittest.TestCase):
    def write_kernel(self, root: Path, name: str, bits: int, side_name: str | None = None) -> None:
        write_kernel_folder(root, minimal_sidecar(side_name or name, word_bits=bits,
                                                  falcon_adaptors=bits == 64), folder_name=name)

    def test_only_64_bit_kernels_are_benchmarked(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            self.write_kernel(root, "wide", 64)
            self.write_kernel(root, "narrow", 32)
            text = gen_registry.render([gen_registry.load_kernel(root, n) for n in ("wide", "narrow")])
        self.assertIn('#include "wide/wide.h"', text)
        self.assertIn("wide_fpr_expm_p63_native", text)
        self.assertNotIn("narrow/narrow.h", text)
        self.assertIn("wide_fpr_expm_p63_domain", text)
        self.assertIn(f"bench_variant_count = {len(gen_registry.REFERENCES) + len(gen_registry.ARRAY_REFERENCES) + 2};", text)

    def test_kernel_without_the_fixed_point_interface(self) -> None:
        """Form eft's kind (fpr_only_folder: no _eval, no _expm_p63): its
        adaptor rows and one row per batch ISA (top-level "batch"), and the
        registry compiles with the harness against its header."""
        with tempfile.TemporaryDirectory() as tmp:
            kernel = fpr_only_folder(Path(tmp))
            text = gen_registry.render([kernel])
            registry = Path(tmp) / "registry.c"
            registry.write_text(text)
            build = subprocess.run(["gcc", "-O2", "-ffp-contract=off", "-march=x86-64-v3", "-Ibench", "-Iruntime",
                                    "-Itoolkit/c", f"-I{tmp}", "bench/harness.c", str(registry),
                                    "-o", str(Path(tmp) / "bench_main")], capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(build.returncode, 0, build.stderr)
        for row in ("mock_fpr", "mock_fpr/domain", "mock_fpr/batch-avx512", "mock_fpr/batch-avx2"):
            self.assertIn(f'{{"{row}", "kernel"', text)
        self.assertNotIn("mock_fpr_eval", text)

    def test_bad_sidecars_are_rejected(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            self.write_kernel(root, "liar", 64, side_name="other")
            self.write_kernel(root, "facct_double", 64)
            for name in ("absent", "liar", "not-an-identifier"):
                with self.assertRaises(kfolder.KernelFolderError, msg=name):
                    gen_registry.load_kernel(root, name)
            clash = gen_registry.load_kernel(root, "facct_double")
            with self.assertRaises(gen_registry.RegistryError):
                gen_registry.render([clash])
            p = subprocess.run([sys.executable, "-m", "bench.gen_registry", tmp,
                                str(root / "r.c"), "absent"], capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(p.returncode, 1)
        self.assertEqual(len(p.stderr.strip().splitlines()), 1)


class Stats(unittest.TestCase):
    def test_percentile_by_hand(self) -> None:
        values = [float(v) for v in range(1, 102)]  # 1..101: P_k is k + 1
        self.assertEqual(percentile(values, 5.0), 6.0)
        self.assertEqual(percentile(values, 50.0), 51.0)
        self.assertEqual(percentile([1.0, 2.0], 50.0), 1.5)
        with self.assertRaises(ValueError):
            percentile([], 50.0)

    def test_filter_drops_outliers(self) -> None:
        # 95 samples at 10, 5 wild ones: the wild ones fall outside P5-P95.
        s = filtered_summary([10.0] * 95 + [1e6] * 5)
        self.assertEqual(s.median, 10.0)
        self.assertEqual(s.kept, 95)

    def test_two_samples_still_summarise(self) -> None:
        self.assertEqual(filtered_summary([1.0, 3.0]).median, 2.0)


class Plot(unittest.TestCase):
    def points(self) -> list[plot.Point]:
        def pt(name: str, cycles: float, err: float) -> plot.Point:
            return plot.Point(name, cycles, cycles - 1, cycles + 1, err, "test")
        return [pt("slow_bad", 100, 4000), pt("fast_bad", 50, 5000),
                pt("slow_good", 90, 0.3), pt("dominated", 95, 1.0)]

    def test_pareto_front(self) -> None:
        names = [p.name for p in plot.pareto(self.points())]
        self.assertEqual(names, ["fast_bad", "slow_good"])

    def test_svg_is_xml_with_every_label(self) -> None:
        svg = plot.render(self.points(), "t", ["note"])
        root = ET.fromstring(svg)
        texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
        for p in self.points():
            self.assertIn(p.name, texts)


class Harness(unittest.TestCase):
    def test_time_mode_shape(self) -> None:
        p = subprocess.run([str(BIN), "time", "7", "3", "20", "0"], capture_output=True,
                           text=True, check=True)
        doc = json.loads(p.stdout)
        self.assertTrue(all(v > 0 for v in doc["calibration"]["add"] + doc["calibration"]["imul"]))
        names = [v["name"] for v in doc["variants"]]
        self.assertEqual(names[:5], ["null", *REFS[:4]])
        self.assertLessEqual(set(REFS[4:]), set(names))
        for v in doc["variants"]:
            if v["available"]:
                self.assertEqual(len(v["chain"]), 3, v["name"])
                self.assertTrue(all(t > 0 for t in v["chain"] + v["batch"]), v["name"])

    def test_bad_arguments_are_one_line_errors(self) -> None:
        for args in (["time", "1", "x", "10", "0"], ["count", "nosuch", "10"], ["bogus"]):
            p = subprocess.run([str(BIN), *args], capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0, args)
            self.assertEqual(len(p.stderr.strip().splitlines()), 1, args)

    def test_kernel_errors_are_the_folders_proven_bounds(self) -> None:
        """The bench takes each kernel's error from its kernel folder, so it
        plots every kernel without an audit run."""
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            write_kernel_folder(root, minimal_sidecar("a", bound={"expm_p63_2p63": 0.7}))
            write_kernel_folder(root, minimal_sidecar("c", bound={}))
            write_kernel_folder(root, minimal_sidecar(
                "d", bound={"expm_p63_2p63": 0.7, "fpr_expm_p63_2p63": 0.8}))
            errors = run.kernel_errors(root, ["a", "c", "d"])
            with self.assertRaises(kfolder.KernelFolderError):
                run.kernel_errors(root, ["absent"])
        self.assertEqual(errors["a"][0], 0.7)
        self.assertEqual(errors["d"][0], 0.8)   # the adaptors' bound: the bench calls them
        self.assertIn("proven", errors["a"][1])
        self.assertNotIn("c", errors)

    def test_shipped_kernels_all_have_an_error_figure(self) -> None:
        """Every shipped 64-bit kernel gets a point on the plot."""
        names = [n for n in kfolder.names(GENERATED) if kfolder.load(GENERATED, n).word_bits == 64]
        self.assertTrue(names)
        self.assertEqual(sorted(run.kernel_errors(GENERATED, names)), sorted(names))


class InstructionBaseline(unittest.TestCase):
    BASELINE = ROOT / "bench" / "instructions_baseline.json"

    def test_counts_match_committed_baseline(self) -> None:
        # The regression test: callgrind counts are deterministic, so any
        # move beyond the tolerance is a code, compiler or flag change.
        p = subprocess.run([sys.executable, "-m", "bench.baseline", "check",
                            str(BIN), str(self.BASELINE)], capture_output=True, text=True, cwd=ROOT)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_comparison_catches_changes(self) -> None:
        # Deliberately broken controls: a count moved by 2%, a variant gone,
        # a variant added.  Each must be reported; an unchanged set must not.
        base = baseline.load(self.BASELINE)
        self.assertEqual(baseline.compare(base, dict(base)), [])
        name = next(iter(base))
        moved = dict(base, **{name: base[name] * 1.02 + 1.0})
        self.assertEqual(len(baseline.compare(base, moved)), 1)
        fewer = {k: v for k, v in base.items() if k != name}
        self.assertEqual(len(baseline.compare(base, fewer)), 1)
        more = dict(base, extra_kernel=10.0)
        self.assertEqual(len(baseline.compare(base, more)), 1)


if __name__ == "__main__":
    unittest.main()

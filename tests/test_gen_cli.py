"""Tests of the generator's command line: malformed configs get one line
and exit 2 with the output untouched; every generated kernel compiles on
its own; make vendor."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

import kfolder
from tests.helpers import GENERATED, ROOT, shipped_kernels, tree_hash


def _insert_top(body: str, extra: str) -> str:
    """Put top-level keys before the first table header."""
    head, sep, tail = body.partition("[segments]")
    return head + extra + sep + tail


BASE = 'name = "bad"\ndegree = 3\nscale_bits = 31\nword_bits = 32\n[segments]\nkind = "equal"\ncount = 4\n'


MALFORMED = [
    ("unknown key", BASE, "foo = 1\n", "foo: unknown key"),
    ("wrong type", BASE.replace("degree = 3", 'degree = "three"'), "", "degree: expected an integer"),
    ("degree < 1", BASE.replace("degree = 3", "degree = 0"), "", "degree: 0 is out of range"),
    ("N < 1", BASE.replace("count = 4", "count = 0"), "", "segments.count: 0 is out of range"),
    ("S does not fit", BASE.replace("scale_bits = 31", "scale_bits = 32"), "", "scale_bits:"),
    ("S beyond word", BASE.replace("scale_bits = 31", "scale_bits = 40"), "", "scale_bits: 40 is out of range"),
    ("empty domain", BASE, 'domain = ["0.5", "0.5"]\n', "domain: empty"),
    ("reversed domain", BASE, 'domain = ["ln2", "0"]\n', "domain: empty"),
    ("domain beyond 1", BASE, 'domain = ["0", "2"]\n', "domain: must lie within"),
    ("unparsable function", BASE, 'function = "exp(-x"\n', "function: cannot parse"),
    ("unknown function", BASE, 'function = "gamma(x)"\n', "function: unknown function"),
    ("non-positive function", BASE, 'function = "x - 0.5"\n', "function:.*not positive"),
    ("no convergence", BASE, "remez_max_iterations = 1\nremez_tolerance = 1e-40\n", "did not converge"),
    ("word size", BASE.replace("word_bits = 32", "word_bits = 48"), "", "word_bits: 48 is not supported"),
    ("bad name", BASE.replace('name = "bad"', 'name = "Bad-Name"'), "", "name:"),
    ("segment kind", BASE.replace('kind = "equal"', 'kind = "log"'), "", "segments.kind:"),
    ("table access", BASE, 'table_access = "fast"\n', "table_access:"),
    ("error kind", BASE, 'error = "ulp"\n', "error:"),
    ("TOML syntax", BASE + "degree = = 3\n", "", "not valid TOML"),
    ("missing scale_bits", BASE.replace("scale_bits = 31\n", ""), "", "scale_bits: missing"),
    ("bits with equal", BASE.replace("count = 4", "count = 4\nbits = 3"), "", "segments.bits:"),
    ("coefficient count", BASE.replace("count = 4", "count = 1")
     + '[coefficients]\nscale = 31\nvalues = ["1", "2"]\n', "", "coefficients.values: segment 0 has 2 values"),
    ("budget exceeded", BASE, "max_abs_error_log2 = -43\n", "max_abs_error_log2: proven error"),
    ("wide on 32-bit words", BASE, "wide = 1\n", "wide: needs form"),
    ("wide type", BASE, 'wide = "yes"\n', "wide: expected true, false"),
    ("wide beyond degree", BASE.replace("word_bits = 32", "word_bits = 64"), "wide = 4\n",
     "wide: 4 steps must lie in 0..degree"),
    ("wide steps with estrin", BASE.replace("word_bits = 32", "word_bits = 64"), 'wide = 2\nevaluation = "estrin"\n',
     "wide: more than one step needs"),
]



class MalformedConfigTest(unittest.TestCase):
    def test_each_gets_one_line_exit_2_and_untouched_output(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "generated"
            shutil.copytree(GENERATED, out)
            before = tree_hash(out)
            for label, body, extra, message in MALFORMED:
                text = _insert_top(body, extra)
                cfg = Path(tmp) / "bad.toml"
                cfg.write_text(text)
                with self.subTest(label):
                    run = subprocess.run([sys.executable, "-m", "gen", "render", str(cfg), "--out", str(out),
                                          "--quiet"], cwd=ROOT, capture_output=True, text=True)
                    self.assertEqual(run.returncode, 2, run.stderr)
                    lines = run.stderr.strip().splitlines()
                    self.assertEqual(len(lines), 1, run.stderr)
                    self.assertRegex(lines[0], message)
                    self.assertTrue(lines[0].startswith(f"gen: error: {cfg}: "))
                    self.assertEqual(tree_hash(out), before, "output folder changed")

    def test_missing_file(self) -> None:
        run = subprocess.run([sys.executable, "-m", "gen", "render", "no/such.toml"], cwd=ROOT,
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 2)
        self.assertIn("cannot read", run.stderr)



class CompileTest(unittest.TestCase):
    """Every generated kernel compiles on its own (C99, C11, C++, -Werror)."""

    def test_every_kernel_compiles_alone(self) -> None:
        from verify import vendor
        for name in shipped_kernels():
            with self.subTest(name):
                k = kfolder.load(GENERATED, name)
                self.assertEqual(vendor.compile_alone(k, k.folder), [])

    def test_control_a_warning_fails_the_build(self) -> None:
        from verify import vendor
        with tempfile.TemporaryDirectory() as tmp:
            k = kfolder.load(GENERATED, "facct")
            header = Path(tmp) / "facct.h"
            text = k.header.read_text()
            self.assertTrue(text.endswith("#endif\n"))
            header.write_text(text[:-len("#endif\n")] + "static int facct_unused_probe;\n#endif\n")
            failures = vendor.compile_alone(k, Path(tmp))
            self.assertNotEqual(failures, [])
            # Each failure names the compiler's error, not the include context above it.
            self.assertTrue(all("facct_unused_probe" in f and "error" in f for f in failures), failures)

    def test_make_vendor(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            run = subprocess.run(["make", "-s", "vendor", "KERNEL=paper_m3", f"DEST={tmp}"], cwd=ROOT,
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertTrue((Path(tmp) / "paper_m3" / "paper_m3.h").is_file())
            bad = subprocess.run(["make", "-s", "vendor", "KERNEL=no_such", f"DEST={tmp}"], cwd=ROOT,
                                 capture_output=True, text=True)
            self.assertEqual(bad.returncode, 2)


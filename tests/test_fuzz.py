"""The config fuzzing of tests/fuzz.py: 2000 random mutations of the shipped
configs, each rendered and checked or refused in one line with the output
folder untouched; and controls that the harness notices each kind of
broken promise."""
from __future__ import annotations

import io
import contextlib
import json
import tempfile
import unittest
from pathlib import Path
from unittest import mock

import kfolder
from gen import render
from gen.errors import GenError
from tests import fuzz
from tests.helpers import GENERATED, KERNELS


class Fuzz(unittest.TestCase):
    def test_two_thousand_mutations(self) -> None:
        with tempfile.TemporaryDirectory(prefix="fuzz") as tmp:
            report = fuzz.run(2000, 1, Path(tmp))
        summary = fuzz.summary(report, 1)
        print("\n" + summary)
        self.assertEqual(report.problems, [], summary)
        self.assertEqual(report.count, 2000)
        # Both outcomes occur, so neither half of the promise goes untested.
        self.assertGreater(report.refused, 1000, summary)
        self.assertGreater(report.count - report.refused, 100, summary)


class Controls(unittest.TestCase):
    """Each broken promise is reported."""

    def setUp(self) -> None:
        self._td = tempfile.TemporaryDirectory()
        self.work = Path(self._td.name)
        self.out = self.work / "out"
        self.out.mkdir()
        (self.out / "NOTES.txt").write_text("mine\n")
        self.report = fuzz.Report()

    def tearDown(self) -> None:
        self._td.cleanup()

    def one(self, text: str) -> str:
        with contextlib.redirect_stdout(io.StringIO()):
            fuzz._one(text, self.work, self.out, self.report)
        return "\n".join(self.report.problems)

    def test_a_bad_config_is_refused_cleanly(self) -> None:
        self.assertEqual(self.one('name = "bad"\ndegree = "x"\n'), "")
        self.assertEqual(self.report.refused, 1)

    def test_a_traceback_is_a_problem(self) -> None:
        with mock.patch.object(render, "render", side_effect=KeyError("boom")):
            self.assertIn("exit 3", self.one((KERNELS / "facct.toml").read_text()))

    def test_two_lines_are_a_problem(self) -> None:
        def noisy(*_: object) -> int:
            print("first line", file=__import__("sys").stderr)
            raise GenError("second line")
        with mock.patch("gen.__main__.cmd_render", noisy):
            self.assertIn("2 line(s)", self.one('name = "x"\n'))

    def test_a_refusal_that_writes_is_a_problem(self) -> None:
        def writes_then_fails(*_: object) -> int:
            (self.out / "half").write_text("half-written\n")
            raise GenError("refused too late")
        with mock.patch("gen.__main__.cmd_render", writes_then_fails):
            self.assertIn("changed the output folder", self.one('name = "x"\n'))

    def test_quick_check_catches_a_wrong_coefficient_and_broken_c(self) -> None:
        k = kfolder.load(GENERATED, "paper_m3")
        header, sidecar = k.header.read_text(), k.sidecar_path.read_text()
        first = json.loads(sidecar)["segment_list"][0]["coefficients"][0]
        word = f"UINT32_C(0x{int(first):08x})"
        self.assertIn(word, header)
        wrong = header.replace(word, f"UINT32_C(0x{int(first) ^ (1 << 20):08x})", 1)
        self.assertIn("> bound", "\n".join(fuzz.quick_check({wrong: sidecar}, self.work / "a")))
        broken = header.replace("paper_m3_eval(uint32_t z) {", "paper_m3_eval(uint32_t z) { int unused;", 1)
        self.assertNotEqual(broken, header)
        self.assertIn("does not compile", "\n".join(fuzz.quick_check({broken: sidecar}, self.work / "b")))
        self.assertEqual(fuzz.quick_check({header: sidecar}, self.work / "c"), [])


if __name__ == "__main__":
    unittest.main()

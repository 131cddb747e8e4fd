"""A kernel with a binary64 tail (kernels/candidates/falcon_x86_mixed.toml):
the compiled C equals the generator's model bit for bit, the model stays
within the proven bounds, Gappa certifies the rendered sidecar, and a
control with the tail's rounding ignored must be caught."""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction
from pathlib import Path

import mpmath

from gen import config, kernel, model
from tests.helpers import KERNELS, ROOT, compile_and_run, write_rendered


class FloatTailTest(unittest.TestCase):
    """A kernel with a binary64 tail (kernels/candidates/falcon_x86_mixed.toml):
    the compiled C equals the generator's model bit for bit, the model
    stays within the proven bounds, Gappa certifies the rendered sidecar,
    and a control with the tail's rounding ignored must be caught."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.k = kernel.build(config.load(KERNELS / "candidates" / "falcon_x86_mixed.toml"))
        cls.tmp = tempfile.TemporaryDirectory()
        cls.folder = write_rendered(cls.k, Path(cls.tmp.name))
        rng = random.Random(7)
        z_max = cls.k.seg.z_max
        # Random inputs, small ones (where the tail is 0) and the ends.
        cls.cases = [(rng.randint(0, z_max), rng.randint(0, (1 << 64) - 1)) for _ in range(3000)]
        cls.cases += [(rng.randint(0, 1 << 60) >> rng.randint(0, 60), rng.randint(1 << 63, (1 << 64) - 1))
                      for _ in range(500)]
        cls.cases += [(0, 0), (0, (1 << 64) - 1), (z_max, 1), (z_max, (1 << 64) - 1), (1 << 53, 1 << 63)]

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def _outputs(self, header: str, prologue: str, outputs: list[str], cases: list[tuple[int, int]]) -> list[list[int]]:
        """Compile a program that, for each (a, b) of ``cases`` (two uint64
        words), runs ``prologue`` and prints the hex value of every C
        expression in ``outputs``; return them, one row per case."""
        body = "\n".join(f"    show(UINT64_C({a}), UINT64_C({b}));" for a, b in cases)
        fmt = " ".join(['%016" PRIx64 "'] * len(outputs))
        source = (f'#include <stdio.h>\n#include <inttypes.h>\n#include <string.h>\n#include "{header}"\n'
                  f"static void show(uint64_t a, uint64_t b) {{\n{prologue}"
                  f'    printf("{fmt}\\n", {", ".join(outputs)});\n}}\n'
                  f"int main(void) {{\n{body}\n    return 0;\n}}\n")
        run = compile_and_run(source, [Path(self.tmp.name) / "falcon_x86_mixed"], flags=["-ffp-contract=off"])
        self.assertEqual(run.returncode, 0, run.stderr)
        rows = [[int(w, 16) for w in line.split()] for line in run.stdout.splitlines()]
        self.assertEqual(len(rows), len(cases))
        return rows

    def test_c_matches_model(self) -> None:
        rows = self._outputs("falcon_x86_mixed.h", "", ["falcon_x86_mixed_eval(a)", "falcon_x86_mixed_expm_p63(a, b)"],
                             self.cases)
        for (z, w), (ev, ex) in zip(self.cases, rows):
            self.assertEqual(ev, model.model_eval(self.k, z), f"eval z={z}")
            self.assertEqual(ex, model.model_expm(self.k, z, w), f"expm z={z} w={w}")

    def test_adaptors_match_model(self) -> None:
        """The Falcon adaptors feed the tail x and ccs themselves: on the
        domain (ccs >= 2^-11 here) that must give _expm_p63(z, w) exactly,
        z = 2 trunc(x 2^63), w = 2 trunc(ccs 2^63); tiny x included."""
        import struct
        rng = random.Random(5)
        xs = [rng.uniform(0, 0.6931) for _ in range(600)] + [rng.uniform(0, 2 ** -11) for _ in range(100)] + [0.0]
        cases = [(x, rng.uniform(0.5, 1.0)) for x in xs]
        bits = lambda d: struct.unpack("<Q", struct.pack("<d", d))[0]
        rows = self._outputs("falcon_x86_mixed.h",
                             "    double x, c;\n    memcpy(&x, &a, 8);\n    memcpy(&c, &b, 8);\n",
                             ["falcon_x86_mixed_fpr_expm_p63(a, b)", "falcon_x86_mixed_fpr_expm_p63_native(x, c)",
                              "falcon_x86_mixed_fpr_expm_p63_domain(x, c)"],
                             [(bits(x), bits(c)) for x, c in cases])
        for (x, c), row in zip(cases, rows):
            want = model.model_expm(self.k, 2 * int(Fraction(x) * 2 ** 63), 2 * int(Fraction(c) * 2 ** 63))
            self.assertEqual(row, [want] * 3, f"x={x!r} ccs={c!r}")

    def test_domain_is_a_stated_precondition_checked_in_debug_builds(self) -> None:
        # Beyond Z_MAX the binary64 tail's conversion would be undefined: the
        # header says so, and -D<NAME>_DEBUG makes every entry point check it.
        header = self.folder.header.read_text()
        self.assertIn("z must not exceed FALCON_X86_MIXED_Z_MAX", header)
        source = ('#include <stdlib.h>\n#include "falcon_x86_mixed.h"\n'
                  "int main(int argc, char **argv) { uint64_t z = strtoull(argv[1], 0, 16); (void)argc;\n"
                  "    return (int)((falcon_x86_mixed_eval(z) ^ falcon_x86_mixed_expm_p63(z, ~(uint64_t)0)) & 1); }\n")
        for z, fails in ((0x1234, False), (int(self.folder.sidecar["z_max"]), False), (2 ** 64 - 1, True)):
            run = compile_and_run(source, [self.folder.folder], flags=["-DFALCON_X86_MIXED_DEBUG"], args=[f"{z:x}"])
            self.assertEqual("Assertion" in run.stderr, fails, (z, run.stderr))

    def test_gappa_certifies(self) -> None:
        sidecar = self.folder.sidecar_path
        run = subprocess.run([sys.executable, "-m", "certify.gappa_run", "--build",
                              str(Path(self.tmp.name) / "certify"), "--jobs", "1", str(sidecar)],
                             cwd=ROOT, capture_output=True, text=True, timeout=900)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("proven by Gappa", run.stdout + run.stderr)

    def test_model_within_bound(self) -> None:
        bound = self.k.expm_bound_2p63
        self.assertLess(bound, 1, "the kernel is meant to be faithful")
        worst = Fraction(0)
        with mpmath.workdps(40):
            for z, w in self.cases[:1500]:
                exact = mpmath.mpf(w) / 2**64 * mpmath.exp(-mpmath.mpf(z) / 2**64) * 2**63
                worst = max(worst, Fraction(str(abs(model.model_expm(self.k, z, w) - exact))))
        self.assertLessEqual(worst, bound)
        self.assertGreater(worst, bound / 4, "bound far from the measured error")

    def test_tail_error_enclosure_and_blind_control(self) -> None:
        """The tail word's observed error lies in the proven enclosure; with
        the rounding terms dropped the enclosure misses observed errors."""
        from gen.proof import float_tail as floattail
        tail = self.k.qz.tail
        assert tail is not None
        rng = random.Random(11)
        observed = []
        with mpmath.workdps(40):
            for _ in range(400):
                T = rng.randint(1 << 62, self.k.seg.z_max)
                v = mpmath.mpf(T) / 2**64
                exact = sum(mpmath.mpf(b.numerator) / b.denominator * v ** (tail.first + i)
                            for i, b in enumerate(tail.coeffs))
                observed.append(Fraction(str(tail.model(T) - exact)))
        lo, hi = tail.eps_eval[0]
        self.assertTrue(all(lo <= e <= hi for e in observed))
        saved = floattail.half_ulp
        try:
            floattail.half_ulp = lambda m: Fraction(0)
            blind = floattail.prove(tail.first, self.k.qz.degree, "estrin",
                                    [[b / Fraction(2) ** tail.scale * tail.sign for b in tail.coeffs]],
                                    tail.sign, [[(1 << 62, self.k.seg.z_max)]], 64)
        finally:
            floattail.half_ulp = saved
        blo, bhi = blind.eps_eval[0]
        self.assertTrue(any(not blo <= e <= bhi for e in observed), "the blind enclosure caught nothing")


"""Form "eft" (gen/eft/, templates/eft.h.j2): the rendered C equals the
operation list run in Python (gen/eft/model.py) bit for bit on every
entry, under gcc and clang; the proof's terms are what they say; the
generator refuses a kernel whose bound misses the budget, a broken
operation list (self-check control), and bad configs.  The error against
MPFR is measured by the audit (verify/check_fpr.c, `make audit`)."""

from __future__ import annotations

import math
import random
import subprocess
import unittest
from fractions import Fraction
from pathlib import Path
from unittest import mock

from gen import config, kernel
from gen.eft import design as eft_design
from gen.eft import model, proof
from gen.errors import GenError
from gen.falcon import LN2_DOWN
from tests.helpers import GENERATED, KERNELS, ROOT, TempDirCase

NAME = "falcon_x86_simd"
CHECKER = ROOT / "tests" / "eft_model_check.c"
RANDOM_INPUTS = 6000


def _inputs() -> list[tuple[float, float]]:
    """Edge inputs (the flush thresholds, segment boundaries, the ends of the
    domain, NaN, infinities, negative numbers, -0) and random ones, x both
    uniform and log-uniform down to 2^-90, ccs down to 2^-70."""
    rng = random.Random(18)
    xs = [0.0, -0.0, 5e-324, 2.0 ** -80, math.nextafter(2.0 ** -80, 0), 2.0 ** -1022, 1e-300, -1.0,
          math.inf, -math.inf, math.nan, 0.6931471805599453, math.log(2), 0.7, 23 / 32, 1.0, 1e300]
    xs += [(2 * j + 1) / 32 for j in range(12)] + [math.nextafter((2 * j + 1) / 32, 0) for j in range(12)]
    cs = [1.0, math.nextafter(1.0, 0), 0.5, 0.0, -0.0, 2.0 ** -64, math.nextafter(2.0 ** -64, 0), 5e-324,
          2.0, math.inf, math.nan, -0.5]
    out = [(x, c) for x in xs for c in cs]
    for i in range(RANDOM_INPUTS):
        x = rng.uniform(0, math.log(2)) if i % 3 else 2.0 ** rng.uniform(-90, -1)
        c = rng.uniform(0.5, 1.0) if i % 4 else 2.0 ** rng.uniform(-70, 0)
        out.append((x, c))
    return out


class RenderedEqualsModel(TempDirCase):
    """Every entry of the shipped header against gen/eft/model.py."""

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.design = eft_design.make_design(config.load(KERNELS / f"{NAME}.toml").degree - 3)
        cls.inputs = _inputs()
        cls.text = "".join(f"{eft_design.bits(x):x} {eft_design.bits(c):x}\n" for x, c in cls.inputs)

    def run_checker(self, cc: str, header_dir: Path, extra: tuple[str, ...] = ()) -> list[str]:
        exe = self.tmp / f"eft_{cc}_{len(extra)}"
        cmd = [cc, "-O2", "-Wall", "-Wextra", "-Werror", "-mfma", f"-I{header_dir}", f"-DKNAME={NAME}",
               f'-DKHEADER="{NAME}.h"', *extra, str(CHECKER), "-o", str(exe)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        p = subprocess.run([str(exe)], input=self.text, capture_output=True, text=True, check=True)
        return p.stdout.splitlines()

    @staticmethod
    def simd_flags(lines: list[str]) -> tuple[bool, bool]:
        """Which vector entries the checker ran (AVX-512, AVX2+FMA): some
        machines of the CI's kind lack AVX-512, and an entry the CPU cannot
        run is left out of the comparison (and its test skipped) rather
        than compared as zeros."""
        word, avx512, avx2 = lines[-1].split()
        if word != "simd":
            raise AssertionError(f"the checker's last line is not its flags: {lines[-1]!r}")
        return avx512 == "1", avx2 == "1"

    def mismatches(self, lines: list[str]) -> list[str]:
        avx512, avx2 = self.simd_flags(lines)
        bad = []
        for (x, c), line in zip(self.inputs, lines):
            native, domain, a8, a4, r8, r4 = (int(v, 16) for v in line.split())
            want = model.native(self.design, x, c)
            got = [native] + [a8] * avx512 + [a4] * avx2
            if any(g != want for g in got):
                bad.append(f"native x={x!r} ccs={c!r}: C {native:x}, avx512 {a8:x}, avx2 {a4:x}, model {want:x}")
            if 0 <= x < 23 / 32 and 0 <= c <= 1:
                want = model.kernel(self.design, x, c)
                got = [domain] + [r8] * avx512 + [r4] * avx2
                if any(g != want for g in got):
                    bad.append(f"domain x={x!r} ccs={c!r}: C {domain:x}, x8 {r8:x}, x4 {r4:x}, model {want:x}")
        return bad

    def test_gcc_and_clang_equal_the_model(self) -> None:
        for cc in ("gcc", "clang"):
            with self.subTest(cc=cc):
                self.assertEqual(self.mismatches(self.run_checker(cc, GENERATED / NAME))[:3], [])

    def test_vector_entries_ran(self) -> None:
        """The comparison above covers the vector entries only where the CPU
        runs them; say so here instead of passing silently without them."""
        avx512, avx2 = self.simd_flags(self.run_checker("gcc", GENERATED / NAME))
        if not avx2:
            self.skipTest("this CPU lacks AVX2/FMA: the _x4 and AVX2 batch entries were not compared")
        if not avx512:
            self.skipTest("this CPU lacks AVX-512F/DQ: the _x8 and AVX-512 batch entries were not compared")

    def test_a_wrong_constant_is_caught(self) -> None:
        """Control: the header with the table's 2^63 exp(-5/16) nudged by one
        unit in the last place (in its scalar and AVX-512 copies) must differ
        from the model somewhere."""
        header = (GENERATED / NAME / f"{NAME}.h").read_text()
        last = repr(self.design.eh63[5])
        nudged = repr(math.nextafter(self.design.eh63[5], math.inf))
        self.assertTrue(last in header, f"{last} is not in the header")
        broken = self.tmp / "broken"
        broken.mkdir(exist_ok=True)
        (broken / f"{NAME}.h").write_text(header.replace(last, nudged))
        self.assertNotEqual(self.mismatches(self.run_checker("gcc", broken)), [])


class Proof(unittest.TestCase):
    def setUp(self) -> None:
        self.design = eft_design.make_design(5)

    def test_shipped_bound_is_faithful_and_matches_the_header(self) -> None:
        p = proof.prove(self.design)
        self.assertLess(p.total, 1)
        header = (GENERATED / NAME / f"{NAME}.h").read_text()
        self.assertIn(f"#define {NAME.upper()}_FPR_EXPM_P63_ERR_BOUND {float(p.total):.6f}"[:-1], header)

    def test_approximation_term_is_an_upper_bound(self) -> None:
        """The interval bound is at least the weighted error sampled densely
        (computed here with mpmath, independently of the interval code)."""
        from mpmath import mp, mpf
        p = proof.prove(self.design)
        approx = next(t.bound for t in p.terms if t.name.startswith("p - r"))
        with mp.workprec(200):
            worst = mpf(0)
            for i in range(-400, 401):
                t = mpf(i) / 400 / 32
                r = (mp.exp(-t) - 1 + t - t * t / 2) / t ** 3 if i else mpf(-1) / 6
                pt = sum(mpf(c) * t ** k for k, c in enumerate(self.design.poly))
                w = (mpf(2) ** 63 + 2 ** 11) * abs(t) ** 3 + 2 ** 12 * t * t   # at most the proof's weight
                worst = max(worst, w * abs(pt - r))
        self.assertLessEqual(worst, mpf(approx.numerator) / approx.denominator)
        self.assertGreater(worst * 4, mpf(approx.numerator) / approx.denominator, "the bound is far from tight")

    def test_rounding_term_grows_when_a_rounding_is_added(self) -> None:
        """Control of the propagation: an extra rounded multiply by 1 in the
        small part must raise the propagated rounding term."""
        base = proof._small_part(self.design)[0].err
        ops = eft_design.main_ops(5)
        extra = ops[:-1] + (eft_design.Op("ytr", "mul", ("yt", "ONE"), ""),
                            eft_design.Op("sm3", "fma", ("ytr", "tr", "sm2"), ""))
        with mock.patch.object(proof, "main_ops", lambda degree: extra):
            self.assertGreater(proof._small_part(self.design)[0].err, base)


    def test_no_subnormal_grains_hold_on_the_model(self) -> None:
        """Lemma L7 on samples: every value the model computes for in-domain
        edge and random inputs is an integer multiple of 2^-g for the grain
        g the proof gives it (a wrong grain rule would show here), and no
        grain exceeds 1022."""
        grain = proof.grains(self.design, proof._small_part(self.design)[1])
        self.assertLessEqual(max(grain.values()), 1022)
        checked = 0
        for x, c in _inputs():
            if not (0 <= x <= float(LN2_DOWN) and 0 <= c <= 1):
                continue
            trace = model.Trace()
            model.kernel(self.design, x, c, trace)
            for name, v in trace.values.items():
                if v != 0:
                    self.assertEqual((Fraction(v) * Fraction(2) ** grain[name]).denominator, 1,
                                     f"{name} = {v.hex()} at x = {x.hex()}, ccs = {c.hex()}")
                    checked += 1
        self.assertGreater(checked, 100000)

    def test_no_subnormal_refuses_a_kernel_without_the_flush(self) -> None:
        """Control: without the flush of x, a subnormal x reaches the FPU
        (the model's t is subnormal); the lemma must refuse, naming x."""
        with mock.patch.object(model, "X_FLUSH_BITS", 1):
            trace = model.Trace()
            model.kernel(self.design, 5e-324, 1.0, trace)
        self.assertTrue(0 < abs(trace.values["t"]) < 2.0 ** -1022)
        vals = proof._small_part(self.design)[1]
        with self.assertRaisesRegex(GenError, "x may be subnormal"):
            proof.no_subnormal(proof.grains(self.design, vals, x_least=Fraction(1, 2 ** 1074)))


class Generator(TempDirCase):
    def config(self, text: str) -> Path:
        path = self.tmp / "k.toml"
        path.write_text('name = "k"\nform = "eft"\n' + text)
        return path

    def test_low_degree_misses_the_budget(self) -> None:
        with self.assertRaisesRegex(GenError, "does not meet the budget"):
            kernel.build(config.load(self.config("degree = 6\nmax_abs_error_log2 = -63\n")))

    def test_self_check_catches_a_broken_operation_list(self) -> None:
        """Control: the model without e3 (the rounding error of s3) is off by
        up to 2^11 units, which the self-check must refuse."""
        ops = eft_design.main_ops(5)
        broken = tuple(eft_design.Op(o.dest, o.kind, ("e2", "g", "ZERO") if o.dest == "sm1" else o.args, o.why)
                       for o in ops)
        consts = eft_design.CONSTANTS | {"ZERO": Fraction(0)}
        with mock.patch.object(model, "main_ops", lambda degree: broken), \
                mock.patch.object(model, "constants", lambda d: consts | {f"p{k}": Fraction(v)
                                                                         for k, v in enumerate(d.poly)}):
            with self.assertRaisesRegex(GenError, "self-check"):
                kernel.build(config.load(self.config("degree = 8\n")))

    def test_bad_configs(self) -> None:
        cases = {
            "degree = 8\nsegments = {kind = 'nearest', count = 8}\n": "segments: form 'eft' needs",
            "degree = 8\nscale_bits = 62\n": "word_bits = 64 and scale_bits = 63",
            "degree = 8\nfunction = 'exp(x)'\n": "computes exp",
            "degree = 13\n": "degree: 13 is out of range",
            "degree = 8\nevaluation = 'estrin'\n": "evaluation: not used by form 'eft'",
            "degree = 8\nbatch = ['sse2']\n": "batch: 'sse2' is not a known",
        }
        for text, message in cases.items():
            with self.subTest(text=text):
                with self.assertRaisesRegex(GenError, message):
                    config.load(self.config(text))


if __name__ == "__main__":
    unittest.main()

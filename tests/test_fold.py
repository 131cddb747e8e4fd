"""Form "fold" (gen/fold/, templates/fold.h.j2; the shipped falcon_x86_fast):
the rendered C equals the Python model (gen/fold/model.py) bit for bit on
every entry under gcc and clang; the proof's terms hold against an
independent dense check; the generator refuses a kernel whose bound misses
its budget, a proof made too small (self-check control), a broken model and
bad configs; no subnormal reaches the FPU at run time.  The error against
MPFR at the interface is measured by the audit (verify/check_fpr.c,
tests/test_fpr_audit.py)."""

from __future__ import annotations

import json
import random
import shutil
import unittest
from fractions import Fraction
from pathlib import Path
from unittest import mock

import kfolder
from certify import gappa_fold
from gen import config, kernel, render
from gen.cemit import round_up
from gen.errors import GenError
from gen.fold import model, proof
from gen.falcon import LN2_DOWN
from gen.fold.design import make_design
from tests.helpers import GENERATED, KERNELS, AdaptorModelCase, TempDirCase, adaptor_cases, gappa_failures, \
    mxcsr_flags, without_fma_rounding

NAME = "falcon_x86_fast"
RANDOM_INPUTS = 8000


class RenderedEqualsModel(AdaptorModelCase):
    """Every entry of the shipped header against gen/fold/model.py."""

    kernel_name, cflags, model = NAME, ("-mfma",), model

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cfg = config.load(KERNELS / f"{NAME}.toml")
        assert cfg.float_tail is not None
        cls.design = make_design(cfg.degree, cfg.float_tail)
        cls.cases = adaptor_cases(23, RANDOM_INPUTS, 90)
        cls.text = "".join(f"{x:x} {c:x}\n" for x, c in cls.cases)

    def test_gcc_and_clang_equal_the_model(self) -> None:
        """gcc, gcc with -ffp-contract=fast (which fuses products and sums
        where the code lets it: the tail has none to fuse) and clang."""
        for cc, extra in (("gcc", ()), ("gcc", ("-ffp-contract=fast",)), ("clang", ())):
            with self.subTest(cc=cc, extra=extra):
                self.assertEqual(self.mismatches(self.run_checker(cc, GENERATED / NAME, extra))[:3], [])

    def test_a_wrong_word_is_caught(self) -> None:
        """Control: the header with W_3 one unit off must differ from the model."""
        self.assert_wrong_word_is_caught(self.design.words[1])


class Proof(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.cfg = config.load(KERNELS / f"{NAME}.toml")
        cls.design = make_design(cls.cfg.degree, 5)
        cls.proof = proof.prove(cls.cfg, cls.design)

    def test_shipped_bound_meets_the_budget_and_matches_the_header(self) -> None:
        self.assertLess(self.proof.total, 32)
        self.assertLessEqual(self.proof.total, sum(b for _, b in self.proof.terms()))
        header = (GENERATED / NAME / f"{NAME}.h").read_text()
        self.assertIn(f"#define {NAME.upper()}_FPR_EXPM_P63_ERR_BOUND {round_up(self.proof.total)}\n", header)

    def test_approximation_term_is_an_upper_bound(self) -> None:
        """The Taylor-model bound is at least 2^63 |p - exp(-x)| sampled
        densely with mpmath (independent of the interval code), and the
        polynomial's own Remez error is below it."""
        from mpmath import mp, mpf
        p = self.design.polynomial()
        with mp.workprec(200):
            worst = max(abs(sum(mpf(c.numerator) / c.denominator * t ** k for k, c in enumerate(p)) - mp.exp(-t))
                        for t in (mpf(i) / 4000 * mpf(float(LN2_DOWN)) for i in range(4001)))
        self.assertLessEqual(float(worst), float(self.proof.approx.bound))
        self.assertLess(float(self.design.fit_error), float(self.proof.approx.bound))

    def test_words_stay_in_range(self) -> None:
        """The proof's word ranges hold every word the model computes on
        random inputs (the self-check's invariant, re-run here)."""
        rng = random.Random(4)
        for _ in range(2000):
            x, c = rng.uniform(0, float(LN2_DOWN)), rng.uniform(0, 1)
            trace = model.Trace()
            model.domain(self.design, x, c, trace)
            for name, (lo, hi) in self.proof.word_ranges.items():
                if name in trace.words:
                    self.assertTrue(lo <= trace.words[name] <= hi, name)


class Generator(unittest.TestCase):
    BASE = {"name": "f", "function": "exp(-x)", "domain": ["0", "ln2"], "degree": 12, "form": "fold",
            "float_tail": 5}

    def cfg(self, **change: object) -> config.KernelConfig:
        raw = {k: v for k, v in (self.BASE | change).items() if v is not None}
        return config.validate(raw, "f.toml", "0" * 64)

    def test_bad_configs(self) -> None:
        for change, message in (({"float_tail": 2}, "float_tail"), ({"float_tail": 13}, "float_tail"),
                                ({"degree": 20}, "degree"), ({"scale_bits": 62}, "scale_bits = 63"),
                                ({"segments": {"kind": "equal", "count": 2}}, "not used by form 'fold'"),
                                ({"function": "exp(x)"}, "exp\\(-x\\)")):
            with self.subTest(change), self.assertRaisesRegex(GenError, message):
                self.cfg(**change)

    def test_budget_refused(self) -> None:
        """The shipped kernel's proven bound is about 11.4 units: a budget of
        2^-62 (2 units) is refused, naming the bound."""
        with self.assertRaisesRegex(GenError, "max_abs_error_log2: the proven bound"):
            kernel.build(self.cfg(max_abs_error_log2=-62))

    def test_self_check_catches_a_proof_made_too_small(self) -> None:
        """Control: a proof whose total is 1 unit (the kernel measures about
        2 on the self-check's inputs) is refused by the self-check, which
        measures against mpmath."""
        with mock.patch.object(proof.FoldProof, "total", property(lambda self: Fraction(1))), \
                self.assertRaisesRegex(GenError, "self-check: .* exceeds the proven bound 1.0000"):
            kernel.build(self.cfg())

    def test_self_check_catches_a_broken_kernel(self) -> None:
        """Control: a model whose every product is 2^8 too high is refused."""
        real = model.hi

        def off(a: int, b: int) -> int:
            return real(a, b) + 256
        with mock.patch.object(model, "hi", off), self.assertRaisesRegex(GenError, "self-check"):
            kernel.build(self.cfg())


# Pieces of the tail Gappa re-proves in the tests (`make certify` proves all):
# x' = 0 and tiny x' (v = 2^40 there), just below and above 2^-23 and 2^-11,
# mid-range and the top of the domain.  Below 2^-23 the tail reads the
# constant 2^40, and on the piece just below 2^-11 (788) v varies by 3 %:
# there the FMAs happen to round little, and a proof that forgets their
# rounding still holds.  The control counts the other pieces.
SAMPLE_PIECES = (0, 5, 596, 597, 788, 789, 1000, 1150, 1300)
VARYING_PIECES = (597, 789, 1000, 1150, 1300)


def _unproven(sidecar: dict, indices: tuple[int, ...], tmp: Path) -> list[int]:
    """The claims among ``indices`` Gappa could not prove."""
    return gappa_failures(lambda part: gappa_fold.render_script(sidecar, "test", part), indices, tmp)


class ResultNeverWraps(unittest.TestCase):
    """The proof that R = (C - A) + hi(B, K_2) - F stays >= 0 (s odd) can
    fail: each control breaks one of its two steps and must be refused."""

    def setUp(self) -> None:
        self.cfg = config.load(KERNELS / f"{NAME}.toml")
        self.design = make_design(self.cfg.degree, 5)

    def test_control_tail_said_to_round_to_zero_everywhere(self) -> None:
        """The small-ccs step's analysis made to cover every c up to 2^63,
        where F is far from 0: no 2^k lets F round to 0, and the proof must
        refuse, saying F may be nonzero."""
        real = proof.analyse

        def wide(ops, coeffs, v, v_error, c, c_error, extra=()):  # type: ignore[no-untyped-def]
            return real(ops, coeffs, v, v_error, (c[0], max(c[1], Fraction(2) ** 63)), c_error, extra)
        with mock.patch.object(proof, "analyse", wide), \
                self.assertRaisesRegex(GenError, "the binary64 tail F may be nonzero"):
            proof.prove(self.cfg, self.design)

    def test_control_evaluation_error_too_large_for_small_ccs(self) -> None:
        """An evaluation error of 2^20 units taken away from C p(x') makes the
        result possibly negative for small ccs: refused, naming the piece."""
        real = proof._program_error

        def worse(d, coeffs, v, c):  # type: ignore[no-untyped-def]
            lo, hi = real(d, coeffs, v, c)
            return lo, hi + Fraction(2) ** 20
        with mock.patch.object(proof, "_program_error", worse), \
                self.assertRaisesRegex(GenError, "the result may be negative .* for x' in"):
            proof.prove(self.cfg, self.design)


class GappaReprovesTheTail(TempDirCase):
    def test_shipped_claims_proven_on_a_sample(self) -> None:
        sidecar = json.loads((GENERATED / NAME / "provenance" / f"{NAME}.json").read_text())
        self.assertEqual(len(gappa_fold.claims(sidecar)), len(proof.pieces()))
        self.assertEqual(_unproven(sidecar, SAMPLE_PIECES, self.tmp), [])

    def test_control_proof_without_the_fma_rounding(self) -> None:
        """A proof that forgets that an FMA rounds (once) claims intervals
        Gappa cannot prove; the self-check does not notice it."""
        with without_fma_rounding():
            k = kernel.build(config.load(KERNELS / f"{NAME}.toml"))
        sidecar = json.loads(render.render(k, "generated")[kfolder.layout(NAME).sidecar])
        self.assertEqual(_unproven(sidecar, VARYING_PIECES, self.tmp), list(VARYING_PIECES))


class NoSubnormalReachesTheFpu(TempDirCase):
    """At run time: subnormal, tiny and edge inputs through every entry leave
    the MXCSR's denormal-operand and underflow flags clear; the control (the
    double entries' exponent-add conversion replaced by a multiply by 2^63,
    which reads a subnormal x as it is) sets them."""

    def test_flags_clear_and_control_caught(self) -> None:
        self.assertEqual(mxcsr_flags(GENERATED / NAME, NAME, self.tmp, fixed_point=False), 0)
        broken = self.tmp / "broken"
        shutil.copytree(GENERATED / NAME, broken)
        header = broken / f"{NAME}.h"
        text = header.read_text()
        # The double entries' conversion (the bit-pattern entries add in integer registers).
        conversion = ("_mm_castsi128_pd(_mm_add_epi64(_mm_castpd_si128(_mm_set_sd(x)), "
                      f"_mm_set1_epi64x((long long){NAME.upper()}_EXP63)))")
        self.assertEqual(text.count(conversion), 1, "the control did not find the conversion to break")
        header.write_text(text.replace(conversion, "_mm_set_sd(x * 0x1p63)"))
        self.assertNotEqual(mxcsr_flags(broken, NAME, self.tmp, fixed_point=False), 0)


if __name__ == "__main__":
    unittest.main()

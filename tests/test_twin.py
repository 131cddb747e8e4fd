"""Form "twin" (gen/twin/, templates/twin.h.j2; the shipped falcon_x86): the
rendered C equals the Python model (gen/twin/model.py) bit for bit on every
entry under gcc and clang; the proof's terms hold against an independent
dense check; the generator refuses a kernel whose bound misses its budget,
a proof made too small, a kernel that drops a conversion's remainder, a
broken model and bad configs; Gappa re-proves the binary64 claims and
refuses a proof that forgets the FMA's rounding; no subnormal reaches the
FPU at run time, and the proof refuses a clamp that would let one through.
The error against MPFR at the interface is measured by the audit
(verify/check_fpr.c, tests/test_fpr_audit.py)."""

from __future__ import annotations

import json
import random
import shutil
import unittest
from fractions import Fraction
from pathlib import Path
from unittest import mock

import kfolder
from certify import gappa_twin
from gen import config, kernel, render, twin
from gen.cemit import round_up
from gen.errors import GenError
from gen.exact import double_from_bits
from gen.falcon import LN2_DOWN, LN2_DOWN_BITS, ONE_BITS, clamp_bits
from gen.twin import TwinKernel, model, proof
from gen.twin import design as twin_design
from gen.twin.program import lines
from tests.helpers import GENERATED, KERNELS, AdaptorModelCase, TempDirCase, adaptor_cases, gappa_failures, \
    mxcsr_flags, without_fma_rounding

NAME = "falcon_x86"
CFLAGS = ("-march=x86-64-v3",)
RANDOM_INPUTS = 8000


def _shipped() -> tuple[config.KernelConfig, twin_design.Design]:
    cfg = config.load(KERNELS / f"{NAME}.toml")
    sidecar = json.loads((GENERATED / NAME / "provenance" / f"{NAME}.json").read_text())
    assert cfg.float_tail is not None
    return cfg, twin_design.make_design(cfg.degree, cfg.float_tail, int(sidecar["twin"]["bias"]))


class RenderedEqualsModel(AdaptorModelCase):
    """Every entry of the shipped header against gen/twin/model.py."""

    kernel_name, cflags, model = NAME, CFLAGS, model

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.cfg, cls.design = _shipped()
        cls.cases = adaptor_cases(29, RANDOM_INPUTS, 140) + [
            (x, c) for x in twin.NEGATIVE_LOW_BITS for c in model.rounding_boundary_ccs(cls.design)]
        cls.text = "".join(f"{x:x} {c:x}\n" for x, c in cls.cases)

    def test_gcc_and_clang_equal_the_model(self) -> None:
        """gcc, gcc with -ffast-math (the kernel is assembly: no flag changes
        it) and clang, every entry, edge patterns included."""
        for cc, extra in (("gcc", ()), ("gcc", ("-ffast-math",)), ("clang", ())):
            with self.subTest(cc=cc, extra=extra):
                self.assertEqual(self.mismatches(self.run_checker(cc, GENERATED / NAME, extra))[:3], [])

    def test_full_adaptor_equals_domain_on_the_clamped_inputs(self) -> None:
        """The edge rules (docs/abi.md): the model's full adaptor, whose
        instructions differ from _domain's, gives _domain's result on the
        clamped inputs for every case (the C equals the model, above)."""
        for x, c in self.cases:
            want = model.domain(self.design, double_from_bits(clamp_bits(x, LN2_DOWN_BITS)),
                                double_from_bits(clamp_bits(c, ONE_BITS)))
            self.assertEqual(model.full(self.design, x, c), want, f"x={x:016x} ccs={c:016x}")

    def test_a_wrong_word_is_caught(self) -> None:
        """Control: the header with W_3 one unit off must differ from the model."""
        self.assert_wrong_word_is_caught(self.design.words[1])

    def test_the_header_holds_the_program(self) -> None:
        """The two instruction blocks in the header (the core, which _domain
        and the full adaptor both run, and the full adaptor's clamp) are
        gen/twin/program.py's, in order (the asm text the model describes)."""
        header = (GENERATED / NAME / "provenance" / f"{NAME}_annotated.h").read_text()
        for block in ("core", "clamp"):
            pos = 0
            for text, _ in lines(block):
                pos = header.find(f'"{text}\\n\\t"', pos)
                self.assertGreaterEqual(pos, 0, text)


class Proof(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.cfg, cls.design = _shipped()
        cls.proof = proof.prove(cls.cfg, cls.design)

    def test_faithful_and_matches_the_header(self) -> None:
        lo, hi = self.proof.eps
        self.assertTrue(0 < lo and hi < 1, (float(lo), float(hi)))
        self.assertLess(self.proof.total, 1)
        header = (GENERATED / NAME / f"{NAME}.h").read_text()
        self.assertIn(f"#define {NAME.upper()}_FPR_EXPM_P63_ERR_BOUND {round_up(self.proof.total)}\n", header)

    def test_bias_centres_eps(self) -> None:
        """The bias is the whole u/16 that minimises the bound: one more or
        one less only widens it."""
        total = self.proof.total
        for step in (-1, 1):
            moved = proof.TwinProof(self.proof.approx, self.proof.e_bound, self.proof.terms_iv, self.proof.unbiased,
                                    self.proof.bias + step * proof.GRAIN, {}, ())
            self.assertGreaterEqual(moved.total, total)

    def test_approximation_term_is_an_upper_bound(self) -> None:
        """The Taylor-model bound is at least 2^63 |p - exp(-x)| sampled
        densely with mpmath (independent of the interval code)."""
        from mpmath import mp, mpf
        p = self.design.polynomial()
        with mp.workprec(200):
            worst = max(abs(sum(mpf(c.numerator) / c.denominator * t ** k for k, c in enumerate(p)) - mp.exp(-t))
                        for t in (mpf(i) / 4000 * mpf(float(LN2_DOWN)) for i in range(4001)))
        self.assertLessEqual(float(worst), float(self.proof.approx.bound))

    def test_words_stay_in_range(self) -> None:
        """The proof's word ranges hold every word the model computes on
        random inputs (the self-check's invariant, re-run here)."""
        rng = random.Random(4)
        for _ in range(2000):
            x, c = rng.uniform(2.0 ** -60, float(LN2_DOWN)), rng.uniform(0, 1)
            trace = model.Trace()
            model.domain(self.design, x, c, trace)
            for name, (lo, hi) in self.proof.word_ranges.items():
                if name in trace.words:
                    self.assertTrue(lo <= trace.words[name] <= hi, name)

    def test_control_binary64_below_2_52_refused(self) -> None:
        """Control: a rounding constant 2^51 lower puts g below 2^52, where
        its last bit is no longer u/16: refused."""
        low = twin_design.Design(*(getattr(self.design, f) for f in ("fitted", "fit_error", "words", "tail", "e",
                                                                       "e_error")), -(1 << 51) + 1, self.design.ops)
        with mock.patch.object(twin_design.Design, "k", property(lambda self: float(twin_design.K_BASE - 2 ** 51))), \
                self.assertRaisesRegex(GenError, r"g may leave \[2\^52, 2\^53\)"):
            proof.prove(self.cfg, low)


class Generator(unittest.TestCase):
    BASE = {"name": "f", "function": "exp(-x)", "domain": ["0", "ln2"], "degree": 13, "form": "twin",
            "float_tail": 7, "max_abs_error_log2": -63}

    @classmethod
    def setUpClass(cls) -> None:
        cls.shipped_cfg, cls.design = _shipped()
        cls.proof = proof.prove(cls.shipped_cfg, cls.design)

    def cfg(self, **change: object) -> config.KernelConfig:
        raw = {k: v for k, v in (self.BASE | change).items() if v is not None}
        return config.validate(raw, "f.toml", "0" * 64)

    def self_check(self) -> None:
        """The generator's self-check (gen/twin/__init__.py) on the shipped
        design and its proof: what kernel.build runs last."""
        twin.self_check(self.design, self.proof)

    def test_shipped_kernel_passes_the_self_check(self) -> None:
        """The controls below fail it; unchanged, it passes."""
        self.self_check()

    def test_bad_configs(self) -> None:
        for change, message in (({"float_tail": 6}, "float_tail"), ({"degree": 12}, "degree"),
                                ({"scale_bits": 62}, "scale_bits = 63"),
                                ({"segments": {"kind": "equal", "count": 2}}, "not used by form 'twin'"),
                                ({"function": "exp(x)"}, "exp\\(-x\\)")):
            with self.subTest(change), self.assertRaisesRegex(GenError, message):
                self.cfg(**change)

    def test_budget_refused(self) -> None:
        """The proven bound is about 0.92 units: a budget of 2^-64 (half a
        unit) is refused, naming the bound."""
        with self.assertRaisesRegex(GenError, "max_abs_error_log2: the proven bound"):
            kernel.build(self.cfg(max_abs_error_log2=-64))

    def test_self_check_catches_a_proof_made_too_small(self) -> None:
        """Control: a proof whose total is 0.5 unit (the kernel measures about
        0.7 on the self-check's inputs) is refused by the self-check, which
        measures against mpmath."""
        with mock.patch.object(proof.TwinProof, "total", property(lambda self: Fraction(1, 2))), \
                self.assertRaisesRegex(GenError, "self-check: .* exceeds the proven bound 0.5000"):
            self.self_check()

    def test_control_conversion_of_x_dropped(self) -> None:
        """Control: a kernel whose linear term is C t, t = floor(x 2^64) (x's
        bits below 2^-64 dropped, up to half a unit for x below 2^-11) while
        the proof counts A = floor(C x 2^64) as exact: the self-check's small
        inputs catch it."""
        with mock.patch.object(model, "linear", lambda C, m, s: C * (m >> s)), \
                self.assertRaisesRegex(GenError, "self-check"):
            self.self_check()

    def test_control_remainder_of_ccs_dropped(self) -> None:
        """Control: a kernel without the remainder of ccs's conversion (rc = 0,
        up to one unit for ccs below 2^-10): the self-check catches it."""
        real = model.run

        def no_rc(ops, coeffs, v, c, extra=()):  # type: ignore[no-untyped-def]
            return real(ops, coeffs, v, c, (0.0,))
        with mock.patch.object(model, "run", no_rc), self.assertRaisesRegex(GenError, "self-check"):
            self.self_check()

    def test_self_check_catches_a_broken_kernel(self) -> None:
        """Control: a model whose product hi(t, W_3) is 2^8 too high (about 30
        units of 2^-63 for x near ln 2) is refused."""
        real = model.hi
        w3 = self.design.words[1]

        def off(a: int, b: int) -> int:
            return real(a, b) + (256 if b == w3 else 0)
        with mock.patch.object(model, "hi", off), self.assertRaisesRegex(GenError, "self-check"):
            self.self_check()

    def test_control_negative_x_lifted_as_it_is(self) -> None:
        """Control: a full adaptor that reads a negative x as 0 on its integer
        path but lifts the negative pattern itself on its binary64 path (a v
        up to 2^-20 off 2^-23, as the adaptor shipped before did) differs
        from _domain at x = +0 on the self-check's rounding-boundary ccs."""
        real = model.full

        def lifted(d: twin_design.Design, xb: int, cb: int) -> int:
            if xb >> 63 and xb < 0xFFF0000000000001:
                C, gb = model.binary64(d, double_from_bits(xb), double_from_bits(cb))
                return model.integer(d, 0, C, gb)
            return real(d, xb, cb)
        with mock.patch.object(twin, "model_full", lifted), \
                self.assertRaisesRegex(GenError, "self-check: the full adaptor at x = 0x8"):
            self.self_check()

    def test_control_subnormal_case_refused(self) -> None:
        """Control: a proof that takes v as lifted to 2^-1000 instead of 2^-23
        lets v^7 underflow: it refuses, naming the operation."""
        with mock.patch.object(proof, "V_MIN", Fraction(1, 1 << 1000)), \
                self.assertRaisesRegex(GenError, "may be subnormal"):
            proof.prove(self.shipped_cfg, self.design)


# Claims Gappa re-proves in the tests (`make certify` proves all): both cases
# of ccs at x = 0, below and above 2^-23 and 2^-11, mid-range and the top.
def _sample_claims(count: int) -> tuple[int, ...]:
    return tuple(sorted({0, 1, 2, 3, count // 4, count // 4 + 1, count // 2, count // 2 + 1, count - 2, count - 1}))




def _unproven(sidecar: dict, indices: tuple[int, ...], tmp: Path) -> list[int]:
    """The claims among ``indices`` Gappa could not prove."""
    return gappa_failures(lambda part: gappa_twin.render_script(sidecar, "test", part), indices, tmp)


class GappaReprovesTheBinary64Part(TempDirCase):
    def test_shipped_claims_proven_on_a_sample(self) -> None:
        sidecar = json.loads((GENERATED / NAME / "provenance" / f"{NAME}.json").read_text())
        count = len(gappa_twin.claims(sidecar))
        self.assertEqual(count, 2 * len(proof.pieces()))
        self.assertEqual(_unproven(sidecar, _sample_claims(count), self.tmp), [])

    def test_control_proof_without_the_fma_rounding(self) -> None:
        """A proof that forgets that an FMA rounds (once) claims intervals
        Gappa cannot prove; the self-check does not notice it."""
        with without_fma_rounding():
            k = kernel.build(config.load(KERNELS / f"{NAME}.toml"))
        assert isinstance(k, TwinKernel)
        sidecar = json.loads(render.render(k, "generated")[kfolder.layout(NAME).sidecar])
        count = len(gappa_twin.claims(sidecar))
        sample = tuple(i for i in _sample_claims(count) if i >= count // 4)
        self.assertEqual(_unproven(sidecar, sample, self.tmp), list(sample))


class NoSubnormalReachesTheFpu(TempDirCase):
    """At run time: subnormal, tiny and edge inputs through every entry leave
    the MXCSR's denormal-operand and underflow flags clear; the control (the
    lift of x to at least 2^-23 removed from the core both adaptors run, so
    that v^7 underflows for tiny x and subnormal x reaches the FPU) sets
    them."""

    def test_flags_clear_and_control_caught(self) -> None:
        self.assertEqual(mxcsr_flags(GENERATED / NAME, NAME, self.tmp, fixed_point=False, cflags=CFLAGS), 0)
        broken = self.tmp / "broken"
        shutil.copytree(GENERATED / NAME, broken)
        header = broken / f"{NAME}.h"
        text = header.read_text()
        clamp = '"vpmaxsd 0(%[T]), %[x], %[v]\\n\\t"'
        self.assertEqual(text.count(clamp), 1, "the control did not find the lift to break")
        header.write_text(text.replace(clamp, '"vmovapd %[x], %[v]\\n\\t"'))
        self.assertNotEqual(mxcsr_flags(broken, NAME, self.tmp, fixed_point=False, cflags=CFLAGS), 0)


if __name__ == "__main__":
    unittest.main()

"""Form "mcu" (gen/mcu/, templates/mcu.h.j2; the shipped falcon_m3): the
rendered C (its host fallbacks; tests/test_m3.py checks the Thumb-2 build
bit-identical to them on the emulator) equals the Python model
(gen/mcu/model.py) bit for bit under gcc and clang, for the shipped plan
and for another one rendered here; the proof's approximation term holds
against a dense independent check; the generator refuses a proof made too
small (self-check control), a word or column sum that may wrap, a kernel
whose bound misses its budget and bad configs.  The error against MPFR at
the interface is measured by the audit (verify/check_fpr.c,
tests/test_fpr_audit.py)."""

from __future__ import annotations

import random
import subprocess
import unittest
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from unittest import mock

import kfolder
from gen import config, kernel, render
from gen.cemit import round_up
from gen.errors import GenError
from gen.exact import double_bits
from gen.falcon import LN2_DOWN_BITS, ONE_BITS
from gen.mcu import design, model, proof
from tests.helpers import GENERATED, KERNELS, ROOT, TempDirCase

NAME = "falcon_m3"
CHECKER = ROOT / "tests" / "adaptor_entries.c"
RANDOM_INPUTS = 6000
SPECIAL_BITS = (0, 1 << 63, 1, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FF0000000000000, 0x7FF0000000000001,
                0xFFF8000000000000, 0xBFF0000000000000, double_bits(1.0), double_bits(1.0) - 1, double_bits(0.5),
                double_bits(2.0), 0x3FE62E42FEFA39EF, 0x3FE62E42FEFA39F0, double_bits(2.0 ** -11),
                double_bits(2.0 ** -11) - 1, double_bits(2.0 ** -62), double_bits(2.0 ** -63),
                double_bits(2.0 ** -63) - 1, double_bits(2.0 ** -64), double_bits(2.0 ** -80), double_bits(89 / 128))


def _cases() -> list[tuple[int, int]]:
    """Pairs of bit patterns: every pair of SPECIAL_BITS, x at and around
    every row boundary, in-domain x uniform and log-uniform down to 2^-80
    with ccs uniform and log-uniform down to 2^-70, and raw patterns."""
    rng = random.Random(31)
    out = [(a, b) for a in SPECIAL_BITS for b in SPECIAL_BITS]
    for j in range(1, design.ROWS):
        for d in (-1, 0, 1):
            out.append((double_bits(j / 128) + d, double_bits(rng.uniform(0.5, 1.0))))
    for i in range(RANDOM_INPUTS):
        x = rng.uniform(0, 0.6931471805599453) if i % 3 else 2.0 ** rng.uniform(-80, -1)
        c = rng.uniform(0.5, 1.0) if i % 4 else 2.0 ** rng.uniform(-70, 0)
        out.append((min(double_bits(x), LN2_DOWN_BITS), double_bits(c)))
        out.append((rng.getrandbits(64), rng.getrandbits(64)))
    return out


def _kernel_of(folder: Path, name: str) -> tuple[list[design.Row], design.Plan]:
    """The table and plan a rendered kernel states in its sidecar (the C
    reads the table from its header: a difference shows as a mismatch)."""
    side = kfolder.load(folder.parent, name).sidecar["mcu"]
    rows = []
    for w in side["table"]:
        a3 = ((w[6] << 17) | (w[6] >> 15)) & 0xFFFFFFFF
        rows.append(design.Row((w[1] << 32 | w[0], w[3] << 32 | w[2], w[5] << 32 | w[4], a3, w[7], w[7] & 0x7FF)))
    return rows, design.Plan(tuple(side["columns"]))


class RenderedEqualsModel(TempDirCase):
    """Every entry of a rendered header against gen/mcu/model.py."""

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.cases = _cases()
        cls.text = "".join(f"{x:x} {c:x}\n" for x, c in cls.cases)

    def run_checker(self, cc: str, folder: Path, name: str) -> list[str]:
        exe = self.tmp / f"mcu_{cc}_{folder.parent.name}_{name}"
        cmd = [cc, "-O2", "-Wall", "-Wextra", "-Werror", f"-I{folder}", f"-DKNAME={name}",
               f'-DKHEADER="{name}.h"', str(CHECKER), "-o", str(exe)]
        p = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        return subprocess.run([str(exe)], input=self.text, capture_output=True, text=True,
                              check=True).stdout.splitlines()

    def mismatches(self, lines: list[str], rows: list[design.Row], plan: design.Plan) -> list[str]:
        self.assertEqual(len(lines), len(self.cases))
        bad = []
        for (x, c), line in zip(self.cases, lines):
            full, native, dbits, domain = (int(v, 16) for v in line.split())
            want = model.fpr_expm_p63(rows, plan, x, c)
            if not full == native == want:
                bad.append(f"full x={x:016x} ccs={c:016x}: C {full:x} / {native:x}, model {want:x}")
            if x <= LN2_DOWN_BITS and c <= ONE_BITS:
                want = model.domain_bits(rows, plan, x, c)
                if not dbits == domain == want:
                    bad.append(f"domain x={x:016x} ccs={c:016x}: C {dbits:x} / {domain:x}, model {want:x}")
        return bad

    def test_shipped_kernel_with_gcc_and_clang(self) -> None:
        rows, plan = _kernel_of(GENERATED / NAME, NAME)
        for cc in ("gcc", "clang"):
            with self.subTest(cc=cc):
                self.assertEqual(self.mismatches(self.run_checker(cc, GENERATED / NAME, NAME), rows, plan)[:3], [])

    def test_another_plan_renders_what_the_model_computes(self) -> None:
        """A plan with other column counts in every product (and no bias):
        the renderer writes its carries and shifts as the model computes
        them, and its bound differs from the shipped plan's."""
        cfg = replace(config.load(KERNELS / f"{NAME}.toml"), name="mcu_plan", max_abs_error_log2=None,
                      mcu=config.McuOptions((2, 3, 2, 4, 3, 3), 0))
        k = kernel.build(cfg)
        out = self.tmp / "plan"
        for rel, text in render.render(k, str(out)).items():
            (out / "mcu_plan" / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / "mcu_plan" / rel).write_text(text)
        rows, plan = _kernel_of(out / "mcu_plan", "mcu_plan")
        self.assertEqual(plan.columns, (2, 3, 2, 4, 3, 3))
        self.assertEqual(self.mismatches(self.run_checker("gcc", out / "mcu_plan", "mcu_plan"), rows, plan)[:3], [])
        shipped = kfolder.load(GENERATED, NAME).fpr_bound_2p63
        self.assertNotEqual(float(round_up(k.fpr_bound_2p63)), shipped)

    def test_a_wrong_word_is_caught(self) -> None:
        """Control: the header with one table word one unit off must differ from the model."""
        rows, plan = _kernel_of(GENERATED / NAME, NAME)
        header = (GENERATED / NAME / f"{NAME}.h").read_text()
        word = f"0x{rows[40].words[2]:08x}u"
        self.assertEqual(header.count(word), 1, f"{word} is not in the header once")
        broken = self.tmp / "broken" / NAME
        broken.mkdir(parents=True, exist_ok=True)
        (broken / f"{NAME}.h").write_text(header.replace(word, f"0x{rows[40].words[2] ^ 0x400:08x}u"))
        self.assertNotEqual(self.mismatches(self.run_checker("gcc", broken, NAME), rows, plan), [])


class Proof(TempDirCase):
    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.rows, cls.plan = _kernel_of(GENERATED / NAME, NAME)
        cls.proof = proof.prove(cls.rows, cls.plan)

    def test_shipped_bound_meets_the_issue_budget_and_matches_the_header(self) -> None:
        """Issue 15: at most 256 units of 2^-63 (2^-55) through every adaptor."""
        self.assertLessEqual(self.proof.total, 256)
        header = (GENERATED / NAME / f"{NAME}.h").read_text()
        self.assertIn(f"#define {NAME.upper()}_FPR_EXPM_P63_ERR_BOUND {round_up(self.proof.total)}\n", header)

    def test_approximation_term_is_an_upper_bound(self) -> None:
        """The interval bound of each of a few rows is at least
        2^63 |p - exp(-x)| sampled densely with mpmath (independent of the
        interval code)."""
        from mpmath import mp, mpf
        with mp.workprec(200):
            for j in (0, 31, 88):
                a = [mpf(v.numerator) / v.denominator for v in self.rows[j].values()]
                worst = max(abs(a[0] - t * (a[1] - t * (a[2] - t * (a[3] - t * (a[4] - t * a[5])))) - mp.exp(-(j + t) / 128))
                            for t in (mpf(i) / 2000 for i in range(2001)))
                lo, hi = self.proof.rows[j].approx
                self.assertLessEqual(float(worst), float(max(-lo, hi)), j)

    def test_a_proof_made_too_small_is_refused(self) -> None:
        """Control: with every product's loss bound halved, the self-check
        must find a product that loses more than its bound."""
        cfg = replace(config.load(KERNELS / f"{NAME}.toml"), mcu=config.McuOptions((1, 2, 3, 3, 4, 4), 0))
        real = proof.loss_bound
        with mock.patch.object(proof, "loss_bound", lambda *a: real(*a) / 2):
            with self.assertRaisesRegex(GenError, "self-check: .* product lost"):
                kernel.build(cfg)

    def test_a_column_sum_that_may_wrap_is_refused(self) -> None:
        """Control: y1's top limb assumed 4 times larger than the layout's
        maximum makes a 32-bit column sum reach 2^32."""
        steps = list(design.STEPS)
        steps[4] = replace(steps[4], top_max=steps[4].top_max * 4)
        with mock.patch.object(proof, "STEPS", tuple(steps)), mock.patch.object(design, "STEPS", tuple(steps)):
            plan = design.Plan(self.plan.columns)
            with self.assertRaisesRegex(GenError, "column .* may reach"):
                proof.prove(self.rows, plan)

    def test_a0_at_one_is_refused(self) -> None:
        """Control: a0 = 1 would let R = y0 M 2^63 wrap."""
        rows = list(self.rows)
        rows[0] = design.Row((1 << 62, *rows[0].a[1:]))
        with self.assertRaisesRegex(GenError, "a0 >= 1"):
            proof.prove(rows, self.plan)

    def test_losses_are_nonnegative_and_within_their_bounds(self) -> None:
        """Sampled: each product's actual loss (the model's exact t y minus
        what it kept) lies in [0, bound], and the bounds are not slack by
        more than a factor 2 on the largest sampled loss."""
        rng = random.Random(5)
        worst = {s.name: Fraction(0) for s in design.STEPS}
        for _ in range(3000):
            x = double_bits(rng.uniform(0, 0.6931471805599453))
            trace = model.Trace()
            model.domain_bits(self.rows, self.plan, x, double_bits(rng.uniform(0.5, 1.0)), trace)
            for step, most in zip(design.STEPS, self.proof.losses[trace.row]):
                lost = trace.losses[step.name]
                self.assertTrue(0 <= lost <= most, (step.name, float(lost), float(most)))
                worst[step.name] = max(worst[step.name], lost / most)
        for name, ratio in worst.items():
            self.assertGreater(ratio, 0.5, name)


class Config(TempDirCase):
    BASE = ('name = "m"\nform = "mcu"\ncolumns = [1, 2, 3, 3, 4, 4]\n')

    def load(self, text: str) -> config.KernelConfig:
        path = self.tmp / "k.toml"
        path.write_text(text)
        return config.load(path)

    def test_good_config(self) -> None:
        cfg = self.load(self.BASE)
        self.assertEqual(cfg.mcu, config.McuOptions((1, 2, 3, 3, 4, 4), 256))
        self.assertEqual((cfg.segment_bits, cfg.degree, cfg.table_access), (7, 5, "direct"))

    def test_bad_configs_are_refused_in_one_line(self) -> None:
        cases = {
            'name = "m"\nform = "mcu"\n': "columns: missing",
            self.BASE.replace("[1, 2, 3, 3, 4, 4]", "[1, 2, 3]"): "columns: expected a list of 6",
            self.BASE.replace("[1, 2, 3, 3, 4, 4]", "[1, 2, 3, 3, 4, true]"): "columns: expected a list of 6",
            self.BASE + "degree = 4\n": "degree: 4 is out of range",
            self.BASE + "multiplier = 'truncated'\n": "multiplier: not used by form 'mcu'",
            self.BASE + "bias_samples = 1\n": "bias_samples: 1 input",
            self.BASE + "[segments]\nkind = 'pow2'\nbits = 8\n": "segments: form 'mcu' needs",
            self.BASE + "scale_bits = 62\n": "form: 'mcu' needs word_bits = 64",
        }
        for text, want in cases.items():
            with self.subTest(want=want):
                with self.assertRaises(GenError) as ctx:
                    self.load(text)
                self.assertIn(want, str(ctx.exception))
                self.assertNotIn("\n", str(ctx.exception))

    def test_plans_the_form_cannot_render_are_refused(self) -> None:
        for cols, want in (((0, 2, 3, 3, 4, 4), "y4: 0 columns"), ((1, 2, 3, 3, 4, 9), "r: 9 columns")):
            cfg = replace(self.load(self.BASE), mcu=config.McuOptions(cols, 0))
            with self.subTest(cols=cols), self.assertRaisesRegex(GenError, f"columns: {want}"):
                kernel.build(cfg)

    def test_budget_is_enforced(self) -> None:
        cfg = self.load(self.BASE + "max_abs_error_log2 = -58\nbias_samples = 0\n")
        with self.assertRaisesRegex(GenError, "max_abs_error_log2: the proven bound"):
            kernel.build(cfg)


class SollyaCrossCheck(unittest.TestCase):
    """Sollya's supnorm encloses sup |p - f| of a row's polynomial as the
    sidecar states it (certify/sollya_check.py, as `make certify-sollya`
    runs it on every row): the generator's approximation bound must lie at
    or above Sollya's lower end and within 1 % of its upper end.  Control:
    a row's a0 moved by 2^-58 has an error the claimed bound does not cover."""

    def test_rows_are_sound_and_tight_and_a_moved_row_is_caught(self) -> None:
        from certify import sollya_check
        data = kfolder.load(GENERATED, NAME).sidecar
        results = sollya_check.check(data, [0, 44, 88])
        self.assertTrue(all(r.sound and r.tight for r in results), results)
        broken = sollya_check.polynomial(data, 44)
        broken[0] += Fraction(1, 2 ** 58)
        (bad,) = sollya_check.check(data, [44], {44: broken})
        self.assertFalse(bad.sound)


class NoReadOutsideTheTable(TempDirCase):
    """Every entry on every input, out-of-domain x (>= 89/128, 1, 2, +inf,
    NaN) in _domain_bits included, reads inside the table: the host build
    under AddressSanitizer.  Controls: the table's last-row base one row
    too far must be reported as a global-buffer-overflow, and without the
    row clamp the out-of-domain inputs must fail."""

    def run_asan(self, header: str, tag: str) -> subprocess.CompletedProcess[str]:
        folder = self.tmp / tag / NAME
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{NAME}.h").write_text(header)
        exe = folder / "entries"
        subprocess.run(["gcc", "-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer", f"-I{folder}",
                        f"-DKNAME={NAME}", f'-DKHEADER="{NAME}.h"', str(CHECKER), "-o", str(exe)], check=True)
        text = "".join(f"{x:x} {c:x}\n" for x, c in _cases())
        return subprocess.run([str(exe)], input=text, capture_output=True, text=True)

    def test_every_input_reads_inside_and_the_controls_are_caught(self) -> None:
        header = (GENERATED / NAME / f"{NAME}.h").read_text()
        done = self.run_asan(header, "ok")
        self.assertEqual(done.returncode, 0, done.stderr[-1500:])
        base, clamp = f"&{NAME}_coeffs[{88 * 8}] - 8 *", "return d & ((d >> 31) - 1u);"
        self.assertEqual((header.count(base), header.count(clamp)), (1, 1))
        far = self.run_asan(header.replace(base, f"&{NAME}_coeffs[{89 * 8}] - 8 *"), "far")
        self.assertNotEqual(far.returncode, 0)
        self.assertIn("global-buffer-overflow", far.stderr)
        unclamped = self.run_asan(header.replace(clamp, "return d;"), "unclamped")
        self.assertNotEqual(unclamped.returncode, 0)
        self.assertIn("AddressSanitizer", unclamped.stderr)

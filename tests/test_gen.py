"""Tests of the generator (gen/): Remez, quantization, rendering, configs.

Every test here can fail: each property is checked by code independent of
the code under test (a dense-grid extremum search for equioscillation, a
plain-division simulation with unbounded integers for overflow, MPFR-free
mpmath for errors), and the key properties have negative controls.
"""

from __future__ import annotations

import dataclasses
import random
import shutil
import subprocess
import sys
import tempfile
import unittest
import unittest.mock
from fractions import Fraction
from pathlib import Path

import mpmath

import kfolder
from gen import config, fit, head_model, kernel, model, quantize, render
from gen.head_kernel import HeadKernel
from gen.fit import remez
from gen.errors import GenError
from tests.helpers import GENERATED, KERNELS, ROOT, shipped_kernel, shipped_kernels, tree_hash

mpmath.mp.dps = 50


def _grid_extrema(err, b, points: int = 4000):
    """Signed local extrema of err on [0, b]: a dense grid, then golden refinement."""
    grid = [b * i / (points - 1) for i in range(points)]
    values = [err(v) for v in grid]
    found = []
    for i, value in enumerate(values):
        left = abs(values[i - 1]) if i else -1
        right = abs(values[i + 1]) if i + 1 < points else -1
        if abs(value) >= left and abs(value) >= right:
            lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, points - 1)]
            sign = 1 if value > 0 else -1
            for _ in range(80):
                m1, m2 = lo + (hi - lo) / 3, hi - (hi - lo) / 3
                if sign * err(m1) < sign * err(m2):
                    lo = m1
                else:
                    hi = m2
            best = max((grid[i], (lo + hi) / 2), key=lambda v: sign * err(v))
            found.append(err(best))
    # Merge neighbours of equal sign (a flat peak can be found twice).
    merged = []
    for value in found:
        if merged and (merged[-1] > 0) == (value > 0):
            merged[-1] = value if abs(value) > abs(merged[-1]) else merged[-1]
        else:
            merged.append(value)
    return merged


def _equioscillates(err, b, degree, rel_tol: float) -> bool:
    """d + 2 alternating extrema of |err| within rel_tol of the largest."""
    ext = _grid_extrema(err, b)
    peak = max(abs(e) for e in ext)
    big = [e for e in ext if abs(e) >= peak * (1 - rel_tol)]
    alternating = all((big[i] > 0) != (big[i + 1] > 0) for i in range(len(big) - 1))
    return len(big) >= degree + 2 and alternating


def _poly(coeffs, v):
    return sum(c * v**j for j, c in enumerate(coeffs))


class RemezTest(unittest.TestCase):
    CASES = [
        ("exp(-x) on [0, ln2/32], degree 6", lambda v: mpmath.exp(-v), mpmath.ln2 / 32, 6, False),
        ("exp(-x) on [0, ln2/16], degree 3", lambda v: mpmath.exp(-v), mpmath.ln2 / 16, 3, False),
        ("exp(-x) on [0.5, 0.5 + ln2/64], degree 5", lambda v: mpmath.exp(-0.5 - v), mpmath.ln2 / 64, 5, False),
        ("exp(-x) on [0, ln2], degree 12", lambda v: mpmath.exp(-v), mpmath.ln2, 12, False),
        ("1/(1+x) on [0, 1], degree 4, relative", lambda v: 1 / (1 + v), mpmath.mpf(1), 4, True),
    ]

    def test_equioscillation(self) -> None:
        for label, fn, b, degree, relative in self.CASES:
            with self.subTest(label):
                result = remez.remez(fn, b, degree, relative, 1e-12, 60, label)
                if relative:
                    err = lambda v, f=fn, c=result.coeffs: (f(v) - _poly(c, v)) / f(v)
                else:
                    err = lambda v, f=fn, c=result.coeffs: f(v) - _poly(c, v)
                self.assertTrue(_equioscillates(err, b, degree, 1e-6))
                # The levelled error is the sup of the weighted error.
                peak = max(abs(e) for e in _grid_extrema(err, b))
                self.assertAlmostEqual(float(peak / result.error), 1.0, places=6)

    def test_control_chebyshev_interpolant_is_not_minimax(self) -> None:
        # Interpolation at Chebyshev nodes is near-minimax but does not
        # equioscillate: the independent check must say so.
        b, degree = mpmath.ln2 / 16, 3
        nodes = [b * (1 - mpmath.cos(mpmath.pi * (2 * i + 1) / (2 * degree + 2))) / 2 for i in range(degree + 1)]
        rows = [[v**j for j in range(degree + 1)] for v in nodes]
        coeffs = list(mpmath.lu_solve(mpmath.matrix(rows), mpmath.matrix([mpmath.exp(-v) for v in nodes])))
        self.assertFalse(_equioscillates(lambda v: mpmath.exp(-v) - _poly(coeffs, v), b, degree, 1e-6))

    def test_deterministic(self) -> None:
        a = remez.remez(lambda v: mpmath.exp(-v), mpmath.ln2 / 8, 4, False, 1e-12, 60, "a")
        b = remez.remez(lambda v: mpmath.exp(-v), mpmath.ln2 / 8, 4, False, 1e-12, 60, "b")
        self.assertEqual(a.coeffs, b.coeffs)

    def test_non_convergence_is_reported(self) -> None:
        with self.assertRaisesRegex(GenError, "did not converge"):
            remez.remez(lambda v: mpmath.exp(-v), mpmath.ln2, 8, False, 1e-45, 1, "seg")


def _small_word_config(kind: str, count_or_bits: int, degree: int, scale_bits: int,
                       extra: dict | None = None) -> config.KernelConfig:
    """A config validated at W = 32 (64 for wide ones), then narrowed to a
    16-bit word for exhaustive tests."""
    seg = {"kind": kind, "count": count_or_bits} if kind == "equal" else {"kind": kind, "bits": count_or_bits}
    raw = {"name": "small", "degree": degree, "scale_bits": scale_bits, "word_bits": 32, "segments": seg,
           **(extra or {})}
    if raw.get("wide"):
        raw["word_bits"] = 64
    cfg = config.validate(raw, "small.toml", "0" * 64)
    return dataclasses.replace(cfg, word_bits=16)


def _simulate(k: kernel.Kernel, z: int, root_bias: bool = True) -> tuple[int, bool]:
    """Independent model: plain division for the segment index, unbounded
    integers, the scheme read from the sidecar-style node list.

    Returns (root value, overflowed) where overflowed means some value left
    [0, 2^width) -- exactly what the generator's interval proof excludes.
    """
    W = k.cfg.word_bits
    seg, qz = k.seg, k.qz
    u = z - seg.z_lo
    i, t = (u // seg.width, u % seg.width) if seg.count > 1 else (0, u)
    T = t << seg.pre_shift
    vals: list[int] = []
    over = False
    for n, node in enumerate(qz.scheme.nodes):
        width = 2 * W if node.wide else W
        if node.kind == "var":
            value = T
        elif node.kind == "const":
            value = qz.ints[i][node.power]
        elif node.kind == "mul":
            # Only a two-word product of two one-word operands is exact; a
            # product of a two-word operand keeps its top two words.
            value = vals[node.args[0]] * vals[node.args[1]]
            exact = node.wide and not any(qz.scheme.nodes[a].wide for a in node.args)
            value = value if exact else value // (1 << W)
        else:
            value = qz.root_bias if root_bias and n == len(qz.scheme.nodes) - 1 else 0
            for a, (sign, r) in zip(node.args, qz.terms[n]):
                term = vals[a] // (1 << r) if r > 0 else vals[a] * (1 << -r)
                if qz.scheme.nodes[a].kind != "const":
                    over |= term >= (1 << width)
                value += sign * term
        if node.kind != "const":
            over |= not 0 <= value < (1 << width)
        vals.append(value)
    return vals[-1], over


class SmallWordTest(unittest.TestCase):
    """Exhaustive checks on 16-bit words, where every input can be tried."""

    CONFIGS = [("equal", 5, 2, 15), ("equal", 3, 3, 14), ("pow2", 3, 2, 15), ("equal", 1, 4, 15),
               ("equal", 2, 5, 15, {"evaluation": "estrin"}),
               ("equal", 1, 5, 15, {"evaluation": "estrin", "form": "one_minus", "wide": True}),
               ("pow2", 2, 4, 15, {"form": "one_minus", "table_access": "ct_scan"}),
               # The guard steps: the last two or three Horner steps on two
               # words, the root centred by its bias.
               ("equal", 1, 6, 15, {"wide": 2}), ("equal", 3, 5, 15, {"wide": 3}),
               ("equal", 2, 5, 15, {"form": "one_minus", "wide": 2})]

    @classmethod
    def setUpClass(cls) -> None:
        cls.kernels = [kernel.build(_small_word_config(*c)) for c in cls.CONFIGS]

    def test_no_overflow_and_model_matches_on_every_input(self) -> None:
        for k in self.kernels:
            with self.subTest(k.cfg.segment_kind, n=k.seg.count, d=k.cfg.degree):
                for z in range(k.seg.z_lo, k.seg.z_max + 1):
                    simulated, over = _simulate(k, z)
                    self.assertFalse(over, f"overflow at z={z}")
                    self.assertEqual(simulated, model.evaluate_core(k.qz, k.seg, z))

    def test_proven_bound_holds_on_every_input(self) -> None:
        for k in self.kernels:
            bound = k.eval_bound_ulp
            worst = Fraction(0)
            with mpmath.workdps(30):
                for z in range(k.seg.z_lo, k.seg.z_max + 1):
                    out = model.model_eval(k, z)
                    exact = mpmath.exp(-mpmath.mpf(z) / 2**16) * 2**k.cfg.scale_bits
                    worst = max(worst, Fraction(str(abs(out - exact))))
            with self.subTest(k.cfg.segment_kind, n=k.seg.count, d=k.cfg.degree):
                self.assertLessEqual(worst, bound)
                self.assertGreater(worst, bound / 8, "bound far from the measured error")

    def test_control_simulation_without_the_root_bias_disagrees(self) -> None:
        # The simulation sees the root's bias: leaving it out changes the
        # result of the kernel that has one (so the tests above check it).
        biased = [k for k in self.kernels if k.qz.root_bias]
        self.assertTrue(biased, "no small kernel exercises a root bias")
        for k in biased:
            z = k.seg.z_lo
            self.assertNotEqual(_simulate(k, z, root_bias=False)[0], model.evaluate_core(k.qz, k.seg, z))

    def test_control_one_more_bit_overflows(self) -> None:
        # Raising one scale above the chosen one must overflow somewhere:
        # the generator refuses it, and the simulation confirms it.
        k = self.kernels[0]
        real = [list(k.qz.coefficients(i)) for i in range(k.seg.count)]
        for j in range(k.qz.degree + 1):
            scales = list(k.qz.const_scales)
            scales[j] += 1
            try:
                quantize.quantize(k.qz.scheme, k.seg, real, forced_scales=scales,
                                  root_margin=quantize.root_margin(k.cfg))
            except GenError:
                continue
            self.fail(f"scale {scales[j]} of x^{j} accepted although the chosen one was maximal")

    def test_division_magic_is_exact(self) -> None:
        for k in self.kernels:
            if k.seg.kind == "equal" and k.seg.count > 1:
                for u in range(0, k.seg.z_max - k.seg.z_lo + 1):
                    self.assertEqual(k.seg.index_of(u + k.seg.z_lo), u // k.seg.width)


class GuardStepsTest(unittest.TestCase):
    """wide = "auto" and the two-word Horner steps (docs/error-model.md, "Guard bits")."""

    def _cfg(self, **keys) -> config.KernelConfig:
        raw = {"name": "g", "degree": 12, "scale_bits": 63, "segments": {"kind": "equal", "count": 1}, **keys}
        return config.validate(raw, "g.toml", "0" * 64)

    def test_auto_resolution(self) -> None:
        # Where the result fills the word, a plain config leaves the choice
        # of two-word steps to the fit stage; elsewhere, and for the
        # multipliers tuned for 32-bit cores and third-party coefficients,
        # every step stays on one word; an explicit value is kept.
        for keys in ({}, {"scale_bits": 62}, {"form": "one_minus"}, {"multiplier": "umull"}):
            cfg = self._cfg(**keys)
            self.assertTrue(cfg.wide_auto, keys)
            self.assertEqual(cfg.wide, config.AUTO_WIDE_STEPS, keys)
        for keys in ({"scale_bits": 61}, {"word_bits": 32, "scale_bits": 31}, {"multiplier": "truncated"},
                     {"multiplier": "umaal"}, {"evaluation": "estrin"}, {"wide": False}):
            cfg = self._cfg(**keys)
            self.assertEqual((cfg.wide, cfg.wide_auto), (0, False), keys)
        for value, steps in ((True, 1), (3, 3)):
            cfg = self._cfg(wide=value)
            self.assertEqual((cfg.wide, cfg.wide_auto), (steps, False))
        facct = config.load(KERNELS / "facct.toml")
        self.assertEqual(facct.wide, 0, "third-party coefficients are evaluated as their authors do")

    def test_auto_takes_the_fewest_steps_that_suffice(self) -> None:
        # 1 x 12 at 2^-63: one two-word step leaves an evaluation error wider
        # than AUTO_EPS_WIDTH (y1's one-word floors through v), two do not;
        # the fit must pick two.  Checked on the proofs of both kernels.
        def width(k: kernel.Kernel) -> Fraction:
            unit = Fraction(2) ** (k.cfg.scale_bits - k.qz.root_scale)
            return max((s.eval_error[1] - s.eval_error[0]) * unit for s in k.proof.segments)

        chosen = kernel.build(self._cfg())
        one = kernel.build(self._cfg(wide=1))
        self.assertEqual(chosen.cfg.wide, 2)
        self.assertGreater(width(one), fit.AUTO_EPS_WIDTH)
        self.assertLessEqual(width(chosen), fit.AUTO_EPS_WIDTH)
        self.assertLess(chosen.eval_bound_ulp, one.eval_bound_ulp)

    def test_shipped_kernels_keep_their_steps(self) -> None:
        # The shipped kernels render as before the guard steps: paper_x86
        # pins wide = false (the seed paper's one-word evaluation), the
        # others are head, truncated, umaal, 32-bit or third-party kernels.
        for name in shipped_kernels():
            with self.subTest(name):
                self.assertEqual(config.load(KERNELS / f"{name}.toml").wide, 0)

    def test_c_equals_model(self) -> None:
        # The rendered C of a default 1 x 12 kernel (two two-word steps and a
        # root bias) against the generator's integer model, bit for bit, with
        # the 128-bit helpers on unsigned __int128 and on two words
        # (FXP_NO_INT128, the portable path), on random and edge inputs.
        k = kernel.build(self._cfg(name="gw"))
        self.assertGreaterEqual(k.cfg.wide, 2)
        self.assertNotEqual(k.qz.root_bias, 0)
        rng = random.Random(5)
        top = (1 << 64) - 1
        cases = [(z, w) for z in (0, 1, k.seg.z_max) for w in (0, 1, 1 << 63, top)]
        cases += [(rng.randint(0, k.seg.z_max), rng.randint(0, top)) for _ in range(3000)]
        program = ('#include <stdio.h>\n#include "gw.h"\nint main(void) {\n unsigned long long z, w;\n'
                   ' while (scanf("%llx %llx", &z, &w) == 2) {\n  gw_fxp_wide u = gw_core(z);\n'
                   '  printf("%016llx%016llx %llx %llx\\n", (unsigned long long)u.hi, (unsigned long long)u.lo,\n'
                   '         (unsigned long long)gw_eval(z), (unsigned long long)gw_expm_p63(z, w));\n }\n return 0;\n}\n')
        with tempfile.TemporaryDirectory() as tmp:
            for filename, content in render.render(k, tmp).items():
                path = Path(tmp) / filename
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(content)
            (Path(tmp) / "p.c").write_text(program)
            for flags in ([], ["-DFXP_NO_INT128"]):
                exe = Path(tmp) / "p"
                subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{tmp}", *flags,
                                str(Path(tmp) / "p.c"), "-o", str(exe)], check=True)
                run = subprocess.run([str(exe)], input="".join(f"{z:x} {w:x}\n" for z, w in cases),
                                     capture_output=True, text=True, check=True)
                lines = run.stdout.splitlines()
                self.assertEqual(len(lines), len(cases))
                for (z, w), line in zip(cases, lines):
                    core, ev, expm = (int(t, 16) for t in line.split())
                    with self.subTest(flags=flags, z=z, w=w):
                        self.assertEqual(core, model.evaluate_core(k.qz, k.seg, z, check=True))
                        self.assertEqual(ev, model.model_eval(k, z))
                        self.assertEqual(expm, model.model_expm(k, z, w))

    def test_control_self_check_refuses_a_bound_without_the_final_rounding(self) -> None:
        # A proof of the two-word direct root that forgets the rounding of
        # _eval and _expm_p63 (+-1/2 unit) states a bound the kernel
        # exceeds: the self-check must refuse to emit it.
        from gen.proof import output
        real = output.total_intervals

        def forgetful(cfg, qz, approx, eps, seg_index, final_delta=None):
            eval_iv, expm_iv = real(cfg, qz, approx, eps, seg_index, final_delta)
            half = Fraction(1, 2)
            return (eval_iv[0] + half, eval_iv[1] - half), (expm_iv[0] + half, expm_iv[1] - half)

        cfg = self._cfg()
        kernel.build(cfg)  # the true proof passes its self-check
        with unittest.mock.patch("gen.proof.assemble.total_intervals", forgetful):
            with self.assertRaisesRegex(GenError, "self-check: .* refusing to emit"):
                kernel.build(cfg)


class ShippedKernelTest(unittest.TestCase):
    def test_committed_outputs_are_up_to_date(self) -> None:
        # Re-render every shipped config in memory and compare with generated/.
        for name in shipped_kernels():
            with self.subTest(name):
                files = render.render(shipped_kernel(name), "generated")
                folder = GENERATED / name
                on_disk = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
                self.assertEqual(on_disk, set(files), "files in generated/ differ from the generator's")
                for filename, content in files.items():
                    self.assertEqual((folder / filename).read_text(), content,
                                     f"generated/{name}/{filename} is stale: run `make gen`")

    def test_regeneration_is_byte_identical(self) -> None:
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            for out in (a, b):
                run = subprocess.run([sys.executable, "-m", "gen", "render", "kernels/paper_m3.toml",
                                      "kernels/facct.toml", "--out", "out", "--quiet"],
                                     cwd=ROOT, capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stderr)
                shutil.move(str(ROOT / "out"), str(Path(out) / "out"))
            self.assertEqual(tree_hash(Path(a) / "out"), tree_hash(Path(b) / "out"))
            self.assertEqual(tree_hash(Path(a) / "out" / "facct"), tree_hash(GENERATED / "facct",
                             ignore=lambda text: text.replace("--out generated", "--out out")))

    def test_independent_check_on_random_inputs(self) -> None:
        # The Python integer model of each shipped kernel against mpmath at
        # 40 digits, on inputs the generator's self-check did not draw.
        rng = random.Random(2024)
        for name in shipped_kernels():
            folder = kfolder.load(GENERATED, name)
            if not folder.fixed_point:
                with self.subTest(name):
                    self.skipTest(f"{name}: no _eval and no integer model of it (\"fixed_point\": false); "
                                  f"tests/test_{folder.form}.py checks its model")
                continue
            k = shipped_kernel(name)
            bound = float(k.eval_bound_ulp)
            evaluate = head_model.model_eval if isinstance(k, HeadKernel) else model.model_eval
            with mpmath.workdps(40), self.subTest(name):
                for _ in range(300):
                    z = rng.randint(k.seg.z_lo, k.seg.z_max)
                    out = evaluate(k, z)
                    exact = mpmath.exp(-mpmath.mpf(z) / 2**k.cfg.word_bits) * 2**k.cfg.scale_bits
                    self.assertLessEqual(float(abs(out - exact)), bound)

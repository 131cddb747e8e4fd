"""Tests of the generator (gen/): Remez, quantization, rendering, configs.

Every test here can fail: each property is checked by code independent of
the code under test (a dense-grid extremum search for equioscillation, a
plain-division simulation with unbounded integers for overflow, MPFR-free
mpmath for errors), and the key properties have negative controls.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import shutil
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction
from pathlib import Path

import mpmath

from gen import config, kernel, quantize, remez, render
from gen.errors import GenError
from tests.helpers import GENERATED, KERNELS, ROOT, compile_and_run, shipped_kernels

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


def _simulate(k: kernel.Kernel, z: int) -> tuple[int, bool]:
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
            value = vals[node.args[0]] * vals[node.args[1]]
            value = value if node.wide else value // (1 << W)
        else:
            value = 0
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
               ("pow2", 2, 4, 15, {"form": "one_minus", "table_access": "ct_scan"})]

    @classmethod
    def setUpClass(cls) -> None:
        cls.kernels = [kernel.build(_small_word_config(*c)) for c in cls.CONFIGS]

    def test_no_overflow_and_model_matches_on_every_input(self) -> None:
        for k in self.kernels:
            with self.subTest(k.cfg.segment_kind, n=k.seg.count, d=k.cfg.degree):
                for z in range(k.seg.z_lo, k.seg.z_max + 1):
                    simulated, over = _simulate(k, z)
                    self.assertFalse(over, f"overflow at z={z}")
                    self.assertEqual(simulated, quantize.evaluate_core(k.qz, k.seg, z))

    def test_proven_bound_holds_on_every_input(self) -> None:
        for k in self.kernels:
            bound = k.eval_bound_ulp
            worst = Fraction(0)
            with mpmath.workdps(30):
                for z in range(k.seg.z_lo, k.seg.z_max + 1):
                    out = kernel.model_eval(k, z)
                    exact = mpmath.exp(-mpmath.mpf(z) / 2**16) * 2**k.cfg.scale_bits
                    worst = max(worst, Fraction(str(abs(out - exact))))
            with self.subTest(k.cfg.segment_kind, n=k.seg.count, d=k.cfg.degree):
                self.assertLessEqual(worst, bound)
                self.assertGreater(worst, bound / 8, "bound far from the measured error")

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
                                  root_margin=kernel.root_margin(k.cfg))
            except GenError:
                continue
            self.fail(f"scale {scales[j]} of x^{j} accepted although the chosen one was maximal")

    def test_division_magic_is_exact(self) -> None:
        for k in self.kernels:
            if k.seg.kind == "equal" and k.seg.count > 1:
                for u in range(0, k.seg.z_max - k.seg.z_lo + 1):
                    self.assertEqual(k.seg.index_of(u + k.seg.z_lo), u // k.seg.width)


class ShippedKernelTest(unittest.TestCase):
    def test_committed_outputs_are_up_to_date(self) -> None:
        # Re-render every shipped config in memory and compare with generated/.
        for name in shipped_kernels():
            with self.subTest(name):
                k = kernel.build(config.load(KERNELS / f"{name}.toml"))
                files = render.render(k, "generated")
                on_disk = {p.name for p in (GENERATED / name).iterdir()}
                self.assertEqual(on_disk, set(files), "files in generated/ differ from the generator's")
                for filename, content in files.items():
                    self.assertEqual((GENERATED / name / filename).read_text(), content,
                                     f"generated/{name}/{filename} is stale: run `make gen`")

    def test_regeneration_is_byte_identical(self) -> None:
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            for out in (a, b):
                run = subprocess.run([sys.executable, "-m", "gen", "render", "kernels/paper_m3.toml",
                                      "kernels/facct.toml", "--out", "out", "--quiet"],
                                     cwd=ROOT, capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stderr)
                shutil.move(str(ROOT / "out"), str(Path(out) / "out"))
            self.assertEqual(_tree_hash(Path(a) / "out"), _tree_hash(Path(b) / "out"))
            self.assertEqual(_tree_hash(Path(a) / "out" / "facct"), _tree_hash(GENERATED / "facct",
                             ignore=lambda text: text.replace("--out generated", "--out out")))

    def test_independent_check_on_random_inputs(self) -> None:
        # The Python integer model of each shipped kernel against mpmath at
        # 40 digits, on inputs the generator's self-check did not draw.
        rng = random.Random(2024)
        for name in shipped_kernels():
            k = kernel.build(config.load(KERNELS / f"{name}.toml"))
            bound = float(k.eval_bound_ulp)
            with mpmath.workdps(40), self.subTest(name):
                for _ in range(300):
                    z = rng.randint(k.seg.z_lo, k.seg.z_max)
                    out = kernel.model_eval(k, z)
                    exact = mpmath.exp(-mpmath.mpf(z) / 2**k.cfg.word_bits) * 2**k.cfg.scale_bits
                    self.assertLessEqual(float(abs(out - exact)), bound)


def _tree_hash(folder: Path, ignore=lambda text: text) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.name.encode())
            h.update(ignore(p.read_text()).encode() if p.suffix in (".h", ".json") else p.read_bytes())
    return h.hexdigest()


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
]


class MalformedConfigTest(unittest.TestCase):
    def test_each_gets_one_line_exit_2_and_untouched_output(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "generated"
            shutil.copytree(GENERATED, out)
            before = _tree_hash(out)
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
                    self.assertEqual(_tree_hash(out), before, "output folder changed")

    def test_missing_file(self) -> None:
        run = subprocess.run([sys.executable, "-m", "gen", "render", "no/such.toml"], cwd=ROOT,
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 2)
        self.assertIn("cannot read", run.stderr)


def _insert_top(body: str, extra: str) -> str:
    """Put top-level keys before the first table header."""
    head, sep, tail = body.partition("[segments]")
    return head + extra + sep + tail


if __name__ == "__main__":
    unittest.main()


class CompileTest(unittest.TestCase):
    """Every generated kernel compiles on its own (C99, C11, C++, -Werror)."""

    def test_every_kernel_compiles_alone(self) -> None:
        sys.path.insert(0, str(ROOT / "verify"))
        import vendor
        for name in shipped_kernels():
            with self.subTest(name):
                self.assertEqual(vendor.compile_alone(GENERATED / name, name), [])

    def test_control_a_warning_fails_the_build(self) -> None:
        sys.path.insert(0, str(ROOT / "verify"))
        import vendor
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "facct"
            shutil.copytree(GENERATED / "facct", folder)
            header = folder / "facct.h"
            header.write_text(header.read_text().replace("#endif /* FACCT_H */",
                                                         "static int facct_unused_probe;\n#endif /* FACCT_H */"))
            self.assertNotEqual(vendor.compile_alone(folder, "facct"), [])

    def test_make_vendor(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            run = subprocess.run(["make", "-s", "vendor", "KERNEL=paper_m3", f"DEST={tmp}"], cwd=ROOT,
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertTrue((Path(tmp) / "paper_m3" / "paper_m3.h").is_file())
            bad = subprocess.run(["make", "-s", "vendor", "KERNEL=no_such", f"DEST={tmp}"], cwd=ROOT,
                                 capture_output=True, text=True)
            self.assertEqual(bad.returncode, 2)


class FloatTailTest(unittest.TestCase):
    """A kernel with a binary64 tail (kernels/candidates/falcon_x86_mixed.toml):
    the compiled C equals the generator's model bit for bit, the model
    stays within the proven bounds, Gappa certifies the rendered sidecar,
    and a control with the tail's rounding ignored must be caught."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.k = kernel.build(config.load(KERNELS / "candidates" / "falcon_x86_mixed.toml"))
        cls.tmp = tempfile.TemporaryDirectory()
        render.write_atomic(Path(cls.tmp.name) / "falcon_x86_mixed", render.render(cls.k, cls.tmp.name))
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
            self.assertEqual(ev, kernel.model_eval(self.k, z), f"eval z={z}")
            self.assertEqual(ex, kernel.model_expm(self.k, z, w), f"expm z={z} w={w}")

    def test_adaptors_match_model(self) -> None:
        """The Falcon adaptors feed the tail x and ccs themselves: on the
        domain (ccs >= 2^-11 here) that must give _expm_p63(z, w) exactly,
        z = 2 trunc(x 2^63), w = 2 trunc(ccs 2^63); tiny x included."""
        import struct
        rng = random.Random(5)
        xs = [rng.uniform(0, 0.6931) for _ in range(600)] + [rng.uniform(0, 2 ** -11) for _ in range(100)] + [0.0]
        cases = [(x, rng.uniform(0.5, 1.0)) for x in xs]
        bits = lambda d: struct.unpack("<Q", struct.pack("<d", d))[0]
        rows = self._outputs("falcon_x86_mixed_falcon.h",
                             "    double x, c;\n    memcpy(&x, &a, 8);\n    memcpy(&c, &b, 8);\n",
                             ["falcon_x86_mixed_fpr_expm_p63(a, b)", "falcon_x86_mixed_fpr_expm_p63_native(x, c)",
                              "falcon_x86_mixed_fpr_expm_p63_domain(x, c)"],
                             [(bits(x), bits(c)) for x, c in cases])
        for (x, c), row in zip(cases, rows):
            want = kernel.model_expm(self.k, 2 * int(Fraction(x) * 2 ** 63), 2 * int(Fraction(c) * 2 ** 63))
            self.assertEqual(row, [want] * 3, f"x={x!r} ccs={c!r}")

    def test_gappa_certifies(self) -> None:
        sidecar = Path(self.tmp.name) / "falcon_x86_mixed" / "falcon_x86_mixed.json"
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
                worst = max(worst, Fraction(str(abs(kernel.model_expm(self.k, z, w) - exact))))
        self.assertLessEqual(worst, bound)
        self.assertGreater(worst, bound / 4, "bound far from the measured error")

    def test_tail_error_enclosure_and_blind_control(self) -> None:
        """The tail word's observed error lies in the proven enclosure; with
        the rounding terms dropped the enclosure misses observed errors."""
        from gen import floattail
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

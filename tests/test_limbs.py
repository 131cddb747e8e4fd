"""Truncated limb products (gen/quantize/limbs.py) and the multiplier strategies.

* The loss bound of a truncated product, checked exhaustively on small limb
  widths against the exact model, with a deliberately under-counted bound
  (the floors of the accumulators left out) that the same check must catch.
* falcon_m3_v1 (multiplier = "truncated", mixed 32/64-bit steps): the generator's
  exact model against the compiled C of generated/falcon_m3_v1, bit for bit, on
  random inputs, through _core, _eval, _expm_p63 and the Falcon adaptor; a
  model with one more partial product skipped must disagree with the C.
* The Falcon-domain adaptor of such kernels stays inside its table, padded
  (falcon_m3_v1) or clamped (a small kernel rendered for the test), under
  AddressSanitizer, with a cut-table control.
* The per-kernel product helpers of runtime/fxp.h against exact products,
  and the configs of the `multiplier` key.
"""
from __future__ import annotations

import dataclasses
import random
import struct
import subprocess
import tempfile
import unittest
from fractions import Fraction
from pathlib import Path

import mpmath

import kfolder
from gen import cemit, config, falcon, model
from gen.proof.truncation import loss_bound, right_shifts, skipped_max
from gen.quantize import limbs
from gen.errors import GenError
from tests.helpers import GENERATED, KERNELS, ROOT, shipped_kernel


def _independent(p: limbs.TruncPlan, a: int, b: int) -> int:
    """What the C computes, re-derived from the plan's fields alone."""
    def limb(value: int, lb: limbs.Limb) -> int:
        return (value >> lb.pos) % (1 << lb.bits)
    out = 0
    for group in p.groups:
        acc = sum(limb(a, p.a[i]) * limb(b, p.b[j]) for i, j in group)
        assert acc < 1 << 32
        shift = p.a[group[0][0]].pos + p.b[group[0][1]].pos - p.drop
        out += acc * (1 << shift) if shift >= 0 else acc // (1 << -shift)
    return out


class TruncatedBoundTest(unittest.TestCase):
    # (a_hi, b_hi, D, budget in result units, limb bits): small enough to try every pair.
    CASES = [(255, 255, 8, Fraction(8), 3), (1023, 100, 9, Fraction(5), 4), (300, 255, 6, Fraction(40), 3),
             (2047, 40, 10, Fraction(4), 4), (200, 500, 12, Fraction(10), 3), (120, 300, 9, Fraction(1, 2), 3)]

    def plans(self) -> list[limbs.TruncPlan]:
        return [limbs.plan(a_hi, b_hi, d, budget, bits) for a_hi, b_hi, d, budget, bits in self.CASES]

    def test_bound_holds_on_every_pair(self) -> None:
        for p, case in zip(self.plans(), self.CASES):
            with self.subTest(case=case):
                bound = loss_bound(p)
                if case[3] >= 1:
                    self.assertTrue(p.skipped, "the plan should skip something")
                    self.assertLessEqual(bound, case[3])
                worst = Fraction(0)
                for a in range(p.a_hi + 1):
                    for b in range(p.b_hi + 1):
                        got = p.evaluate(a, b, check=True)
                        self.assertEqual(got, _independent(p, a, b))
                        loss = Fraction(a * b, 1 << p.drop) - got
                        self.assertGreaterEqual(loss, 0)
                        worst = max(worst, loss)
                self.assertLessEqual(worst, bound)

    def test_undercounted_bound_is_caught(self) -> None:
        """Control: the bound without the accumulators' floors (only the
        skipped partial products) is exceeded somewhere, in every case that
        has a right-shifted accumulator."""
        caught = 0
        for p in self.plans():
            if not right_shifts(p):
                continue
            under = Fraction(skipped_max(p), 1 << p.drop)
            if any(Fraction(a * b, 1 << p.drop) - p.evaluate(a, b) > under
                   for a in range(p.a_hi + 1) for b in range(p.b_hi + 1)):
                caught += 1
        self.assertGreater(caught, 0)

    def test_fifteen_bit_accumulators_fit(self) -> None:
        # The widest case the kernels use: 64-bit operands, every limb at its maximum.
        for hi in ((1 << 64) - 1, (1 << 57) + 12345, (1 << 40) - 1):
            p = limbs.plan((1 << 64) - 1, hi, 64, Fraction(1 << 20))
            self.assertTrue(all(a <= limbs.ACC_TOP for a in p.accumulators((1 << 64) - 1, hi)))
            self.assertEqual(p.evaluate((1 << 64) - 1, hi, check=True), _independent(p, (1 << 64) - 1, hi))


M64 = (1 << 64) - 1


def _bits(v: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def _q64(bits: int) -> int:
    """2 trunc(v 2^63) for 0 <= v < 1 from v's bits (exact)."""
    e = (bits >> 52) & 0x7FF
    m = (bits & ((1 << 52) - 1)) | (1 << 52)
    value = Fraction(m) * Fraction(2) ** (e - 1075) if e else Fraction(bits & ((1 << 52) - 1), 1 << 1074)
    return 2 * int(value * 2 ** 63)


PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include "falcon_m3_v1.h"
int main(int argc, char **argv)
{
    char line[128];
    (void)argc; (void)argv;
    while (fgets(line, sizeof line, stdin)) {
        unsigned long long a, b;
        if (sscanf(line, "%llx %llx", &a, &b) != 2) return 2;
        printf("%016llx %016llx %016llx %016llx\n",
               (unsigned long long)falcon_m3_v1_core(a), (unsigned long long)falcon_m3_v1_eval(a),
               (unsigned long long)falcon_m3_v1_expm_p63(a, b),
               (unsigned long long)falcon_m3_v1_fpr_expm_p63(a, b));
    }
    return 0;
}
"""


class FalconM3ModelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.k = shipped_kernel("falcon_m3_v1")
        rng = random.Random(7)
        cls.cases = []
        for _ in range(3000):
            z = rng.randint(0, cls.k.seg.z_max)
            cls.cases.append((z, rng.randint(0, M64)))
        for s in cls.k.seg.segments:
            cls.cases += [(s.z_first, M64), (s.z_last, 1 << 63)]
        # The same words are also read as double bits by the adaptor column.
        lines = "".join(f"{z:x} {w:x}\n" for z, w in cls.cases)
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "p.c"
            src.write_text(PROGRAM)
            exe = Path(tmp) / "p"
            subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{GENERATED / 'falcon_m3_v1'}",
                            str(src), "-o", str(exe)], check=True)
            out = subprocess.run([str(exe)], input=lines, capture_output=True, text=True, check=True)
        cls.outputs = [tuple(int(t, 16) for t in line.split()) for line in out.stdout.splitlines()]

    def test_model_equals_c(self) -> None:
        self.assertEqual(len(self.outputs), len(self.cases))
        for (z, w), (core, ev, expm, _) in zip(self.cases, self.outputs):
            self.assertEqual(core, model.evaluate_core(self.k.qz, self.k.seg, z, check=True), f"z={z:x}")
            self.assertEqual(ev, model.model_eval(self.k, z), f"z={z:x}")
            self.assertEqual(expm, model.model_expm(self.k, z, w), f"z={z:x} w={w:x}")

    def test_adaptor_equals_model(self) -> None:
        # x_bits and ccs_bits here are the random words read as doubles, so
        # most cases exercise the edge rules; the adaptor multiplies U by
        # ccs's significand (falcon.model_fpr), so it must equal the model
        # on every input, and the in-domain ones must meet its proven bound.
        checked = 0
        bound = float(self.k.fpr_bound_2p63)
        self.assertTrue(self.k.mantissa_adaptor)
        for (xb, cb), (_, _, _, fpr) in zip(self.cases, self.outputs):
            self.assertEqual(fpr, falcon.model_fpr(self.k, xb, cb), f"x={xb:x} ccs={cb:x}")
            x = struct.unpack("<d", struct.pack("<Q", xb))[0]
            c = struct.unpack("<d", struct.pack("<Q", cb))[0]
            if 0 <= x < 0.6931471805599453 and 0 < c < 1:
                # The bound is about the doubles passed: exp of x itself.
                with mpmath.workdps(40):
                    want = mpmath.mpf(c) * mpmath.exp(-mpmath.mpf(x)) * 2**63
                self.assertLessEqual(abs(fpr - want), bound, f"x={xb:x} ccs={cb:x}")
                checked += 1
        self.assertGreater(checked, 100)

    def test_adaptor_is_not_the_q64_path(self) -> None:
        """Control: the previous adaptor (ccs converted to Q0.64, then
        _expm_p63) gives other outputs on most in-domain cases, so the
        comparison above tells the two paths apart."""
        differs = inside = 0
        for (xb, cb), (_, _, _, fpr) in zip(self.cases, self.outputs):
            x = struct.unpack("<d", struct.pack("<Q", xb))[0]
            c = struct.unpack("<d", struct.pack("<Q", cb))[0]
            if 0 <= x < 0.6931471805599453 and 0 < c < 1:
                inside += 1
                differs += fpr != model.model_expm(self.k, _q64(xb), _q64(cb))
        self.assertGreater(differs, inside // 4)

    def test_model_with_one_more_skip_disagrees(self) -> None:
        """Control: the same kernel with one more partial product skipped in
        the last Horner product is caught by the comparison with the C."""
        qz = self.k.qz
        n = max(i for i, p in enumerate(qz.plans) if p is not None)
        p = qz.plans[n]
        group = p.groups[-1]
        broken_plan = dataclasses.replace(p, groups=p.groups[:-1] + ((group[:-1],) if len(group) > 1 else ()),
                                          skipped=p.skipped + (group[-1],))
        broken = dataclasses.replace(qz, plans=qz.plans[:n] + (broken_plan,) + qz.plans[n + 1:])
        differs = sum(core != model.evaluate_core(broken, self.k.seg, z)
                      for (z, _), (core, _, _, _) in zip(self.cases, self.outputs))
        self.assertGreater(differs, len(self.cases) // 2)

    def test_bound_and_shape(self) -> None:
        self.assertLessEqual(self.k.expm_bound_2p63, 1024)          # 2^-53 absolute
        self.assertTrue(any(nd.narrow for nd in self.k.qz.scheme.nodes))
        self.assertIsNotNone(self.k.final_plan)
        header = (GENERATED / "falcon_m3_v1" / "falcon_m3_v1.h").read_text()
        self.assertIn("uint32_t y3", header)                         # a 32-bit Horner step
        self.assertNotIn("fxp_mulhi64(", header.split("falcon_m3_v1_core(")[1].split("falcon_m3_v1_eval(")[0])


HELPERS = r"""
#include <stdio.h>
#include "fxp.h"
int main(void)
{
    unsigned long long a, b;
    while (scanf("%llx %llx", &a, &b) == 2)
        printf("%016llx %016llx %08x %08x\n", (unsigned long long)fxp_mulhi64_limb32(a, b),
               (unsigned long long)fxp_mulhi64_mul16(a, b), (unsigned)fxp_mulhi32_limb32((uint32_t)a, (uint32_t)b),
               (unsigned)fxp_mulhi32_mul16((uint32_t)a, (uint32_t)b));
    return 0;
}
"""


class MultiplierHelpersTest(unittest.TestCase):
    def test_strategy_helpers_exact(self) -> None:
        rng = random.Random(11)
        pairs = [(M64, M64), (0, M64), (1 << 63, (1 << 63) + 1)] + \
            [(rng.getrandbits(rng.randint(1, 64)), rng.getrandbits(rng.randint(1, 64))) for _ in range(3000)]
        for flags in ([], ["-DFXP_NO_INT128"], ["-DFXP_MUL16"]):
            with tempfile.TemporaryDirectory() as tmp, self.subTest(flags=flags):
                src = Path(tmp) / "h.c"
                src.write_text(HELPERS)
                exe = Path(tmp) / "h"
                subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", *flags, f"-I{ROOT / 'runtime'}",
                                str(src), "-o", str(exe)], check=True)
                out = subprocess.run([str(exe)], input="".join(f"{a:x} {b:x}\n" for a, b in pairs),
                                     capture_output=True, text=True, check=True).stdout.split("\n")
                for (a, b), line in zip(pairs, out):
                    hi64 = (a * b) >> 64
                    hi32 = ((a & 0xFFFFFFFF) * (b & 0xFFFFFFFF)) >> 32
                    self.assertEqual(line, f"{hi64:016x} {hi64:016x} {hi32:08x} {hi32:08x}")

    def test_rendered_helper_follows_the_key(self) -> None:
        base = config.load(KERNELS / "paper_x86.toml")
        for key, helper in (("auto", "fxp_mulhi64("), ("umull", "fxp_mulhi64_limb32("),
                            ("mul16", "fxp_mulhi64_mul16(")):
            self.assertEqual(cemit.mulhi_name(key, 64) + "(", helper)
        self.assertEqual(base.multiplier, "auto")
        self.assertNotIn("multiplier", base.parameters())   # default kernels' banners unchanged
        header = (GENERATED / "falcon_m3_v1" / "falcon_m3_v1.h").read_text()
        self.assertIn('section(".data.falcon_m3_v1_coeffs")', header)   # table_placement = "sram"


PAD_PROBE = r"""
#include <stdio.h>
#include KHEADER
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
int main(int argc, char **argv)
{
    unsigned long long x, c;
    if (argc != 3 || sscanf(argv[1], "%llx", &x) != 1 || sscanf(argv[2], "%llx", &c) != 1)
        return 2;
    printf("%016llx %016llx\n", (unsigned long long)CAT(KNAME, _fpr_expm_p63_domain_bits)(x, c),
           (unsigned long long)CAT(KNAME, _fpr_expm_p63)(x, c));
    return 0;
}
"""

# A small truncated kernel whose Falcon adaptors take ccs by its significand
# (6 segments of width 2^-3, degree 3): rendered in a couple of seconds.
SMALL_MANTISSA_KERNEL = """name = "tm"
function = "exp(-x)"
domain = ["0", "ln2"]
word_bits = 64
scale_bits = 63
degree = 3
form = "direct"
multiplier = "truncated"
truncation_budget_log2 = -50
reoptimize = false
[segments]
kind = "pow2"
bits = 3
"""


class DomainAdaptorTableTest(unittest.TestCase):
    """The Falcon-domain adaptor of a kernel that takes ccs by its
    significand never reads outside its table: with pad_table (falcon_m3_v1:
    a row for each of the 256 values of its index, the rows past the
    segments repeating the last one) it needs no clamp, without it the
    kernel's core clamps the index.  Out-of-domain inputs run clean under AddressSanitizer
    and in-domain ones agree with _fpr_expm_p63.  Control: falcon_m3_v1's
    program with the table cut to its segment rows makes AddressSanitizer
    report the read past its end, so the clean runs are not blind."""

    C_BITS = 0x3FE6666666666666   # ccs = 0.7
    X_INSIDE = (0, 0x3C00000000000000, 0x3FB999999999999A, 0x3FE0000000000000, 0x3FE62E42FEFA39EF)
    # 178/256 (for falcon_m3_v1 the first index past the segments: the row just
    # past the end of a cut table, inside AddressSanitizer's red zone), 0.75
    # (the same for the small kernel's 6 segments), 1.5, the double below 1,
    # a NaN, -inf and -0.5.
    X_OUTSIDE = (0x3FE6400000000000, 0x3FE8000000000000, 0x3FF8000000000000, 0x3FEFFFFFFFFFFFFF,
                 0x7FF8000000000000, 0xFFF0000000000000, 0xBFE0000000000000)

    def _build(self, folder: Path, name: str) -> Path:
        (folder / "pad.c").write_text(PAD_PROBE)
        exe = folder / "pad"
        subprocess.run(["gcc", "-O1", "-g", "-fsanitize=address", "-fno-omit-frame-pointer",
                        f"-DKNAME={name}", f'-DKHEADER="{name}.h"', f"-I{folder}",
                        str(folder / "pad.c"), "-o", str(exe)], check=True)
        return exe

    def _check(self, exe: Path, tag: str) -> None:
        for x in self.X_OUTSIDE:
            done = subprocess.run([str(exe), f"{x:x}", f"{self.C_BITS:x}"], capture_output=True, text=True)
            self.assertEqual((done.returncode, done.stderr), (0, ""), f"{tag} x={x:016x}")
        for x in self.X_INSIDE:
            done = subprocess.run([str(exe), f"{x:x}", f"{self.C_BITS:x}"], capture_output=True, text=True,
                                  check=True)
            domain, full = done.stdout.split()
            self.assertEqual(domain, full, f"{tag} x={x:016x}")

    def test_falcon_m3_v1_padded(self) -> None:
        meta = kfolder.load(GENERATED, "falcon_m3_v1").sidecar
        self.assertEqual((meta["segments"], meta["table_rows"], meta["table_bytes"]), (178, 256, 256 * 5 * 8))
        header = (GENERATED / "falcon_m3_v1" / "falcon_m3_v1.h").read_text()
        lines = header.splitlines()
        rows = [i for i, line in enumerate(lines) if line.startswith("    { UINT64_C(")]
        self.assertEqual(len(rows), 256)
        self.assertEqual({lines[i] for i in rows[177:]}, {lines[rows[177]]})
        self.assertNotEqual(lines[rows[176]], lines[rows[177]])
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / "falcon_m3_v1.h").write_text(header)
            self._check(self._build(folder, "falcon_m3_v1"), "falcon_m3_v1")
            cut = "\n".join(lines[:rows[178]] + lines[rows[-1] + 1:])
            cut = cut.replace("falcon_m3_v1_coeffs[256]", "falcon_m3_v1_coeffs[178]")
            (folder / "falcon_m3_v1.h").write_text(cut + "\n")
            done = subprocess.run([str(self._build(folder, "falcon_m3_v1")), f"{self.X_OUTSIDE[0]:x}",
                                   f"{self.C_BITS:x}"], capture_output=True, text=True)
            self.assertNotEqual(done.returncode, 0)
            self.assertIn("global-buffer-overflow", done.stderr)

    def test_small_kernel_clamped_and_padded(self) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            for pad in (False, True):
                base = Path(tmp) / ("pad" if pad else "clamp")
                base.mkdir()
                cfg = base / "tm.toml"
                cfg.write_text(SMALL_MANTISSA_KERNEL.replace("[segments]", "pad_table = true\n[segments]")
                               if pad else SMALL_MANTISSA_KERNEL)
                subprocess.run(["python3", "-m", "gen", "render", str(cfg), "--out", str(base)], cwd=ROOT,
                               check=True, capture_output=True)
                header = (base / "tm" / "tm.h").read_text()
                self.assertIn("tm_expm_p63_mantissa", header)
                # The core clamps the index unless the table has a row for every index.
                self.assertEqual("idx -= (idx - " in header.split("tm_core(")[1], not pad)
                self._check(self._build(base / "tm", "tm"), f"pad={pad}")


class MultiplierConfigTest(unittest.TestCase):
    BASE = {"name": "t", "degree": 3, "scale_bits": 62, "segments": {"kind": "pow2", "bits": 2}}

    def test_values(self) -> None:
        for value in ("auto", "umull", "mul16", "truncated"):
            self.assertEqual(config.validate({**self.BASE, "multiplier": value}, "t.toml", "0").multiplier, value)
        cfg = config.validate({**self.BASE, "multiplier": "truncated"}, "t.toml", "0")
        self.assertEqual(cfg.truncation_budget_log2, -63.0)

    def test_errors(self) -> None:
        bad = [({"multiplier": "fast"}, "multiplier: 'fast' is not one of"),
               ({"multiplier": 3}, "multiplier: expected a string"),
               ({"truncation_budget_log2": -50}, "truncation_budget_log2: only with"),
               ({"multiplier": "truncated", "truncation_budget_log2": 5}, "truncation_budget_log2: 5"),
               ({"multiplier": "truncated", "form": "one_minus"}, "multiplier: 'truncated' needs form"),
               ({"multiplier": "truncated", "evaluation": "estrin"}, "multiplier: 'truncated' needs evaluation"),
               ({"table_placement": "flash"}, "table_placement: 'flash' is not"),
               ({"pad_table": "yes"}, "pad_table: expected true or false"),
               ({"pad_table": True, "segments": {"kind": "equal", "count": 3}}, "pad_table: needs segments.kind"),
               ({"pad_table": True, "table_access": "ct_scan"}, "pad_table: needs segments.kind")]
        for extra, message in bad:
            with self.subTest(extra=extra), self.assertRaisesRegex(GenError, message):
                config.validate({**self.BASE, **extra}, "t.toml", "0")


if __name__ == "__main__":
    unittest.main()

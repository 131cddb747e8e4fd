"""The generator keys of issue 15's small-table Cortex-M3 work (docs/config.md):
``truncation_budgets_log2`` (a truncation budget per product), ``centre =
"adaptor"`` (the rounding bias of a_0 that balances the Falcon adaptors'
interval, the ccs product's one-sided loss included) and ``table_layout =
"mixed"`` (32-bit table words for the constants of 32-bit Horner steps).

On a small kernel (11 segments of degree 5, truncated products, 32-bit top
steps), built four times (defaults, each key alone, all three together):

* each product's plan loses at most its own budget, and a looser budget on
  the top product keeps fewer partial products there;
* the adaptor centring gives a smaller proven bound and a mean error closer
  to 0 than the default centring, both measured on the exact model; every
  segment is centred on the ccs product's loss, but for segment 0 of a
  kernel whose ccs product loses more than its root word can rise (capped
  at the top of its proven range; the bound still holds on the model);
* the mixed layout's C (compiled, all keys set) equals the generator's model
  bit for bit through _core, _expm_p63 and the Falcon adaptor, its table is
  as large as the sidecar says, and the in-domain outputs meet the proven
  bound against mpmath; control: the same header with the two words of one
  64-bit coefficient swapped must disagree with the model; two files that
  include it link one table when one defines TPLAN_TABLE_EXTERN (and fail
  to link without it); on the emulated
  Cortex-M3 the same kernel is bit-identical to the host build with no long
  multiply, branch or call (tests/test_m3.py checks the shipped falcon_m3).
"""
from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction
from pathlib import Path

import mpmath

from gen import config, falcon, kernel, model
from gen.errors import GenError
from gen.proof.output import core_interval
from gen.proof.truncation import loss_bound
from gen.quantize import root_margin
from tests.helpers import ROOT, VECTORS, write_rendered

BASE = {"name": "tplan", "function": "exp(-x)", "domain": ["0", "ln2"], "word_bits": 64, "scale_bits": 63,
        "degree": 5, "form": "direct", "multiplier": "truncated", "truncation_budget_log2": -44,
        "reoptimize": False, "segments": {"kind": "pow2", "bits": 4}}
BUDGETS = [-40, -44, -44, -44, -44, -43]
M64 = (1 << 64) - 1
LN2 = 0.6931471805599453

PROGRAM = r"""
#include <stdio.h>
#include "tplan.h"
int main(void)
{
    unsigned long long a, b;
    printf("%u\n", (unsigned)sizeof tplan_coeffs);
    while (scanf("%llx %llx", &a, &b) == 2)
        printf("%016llx %016llx %016llx\n", (unsigned long long)tplan_core(a),
               (unsigned long long)tplan_expm_p63(a, b), (unsigned long long)tplan_fpr_expm_p63(a, b));
    return 0;
}
"""


def _build(**extra: object) -> kernel.Kernel:
    k = kernel.build(config.validate({**BASE, **extra}, "t.toml", "0"))
    assert isinstance(k, kernel.Kernel)
    return k


def _double(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _bits(v: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def _domain_inputs(n: int, seed: int) -> list[tuple[int, int]]:
    rng = random.Random(seed)
    return [(_bits(rng.uniform(0, LN2)), _bits(rng.uniform(0.61, 1.0))) for _ in range(n)]


def _errors(k: kernel.Kernel, inputs: list[tuple[int, int]]) -> list[float]:
    """Adaptor output minus ccs exp(-x) 2^63, units of 2^-63, on the model."""
    out = []
    with mpmath.workdps(40):
        for xb, cb in inputs:
            want = mpmath.mpf(_double(cb)) * mpmath.exp(-mpmath.mpf(_double(xb))) * 2**63
            out.append(float(falcon.model_fpr(k, xb, cb) - want))
    return out


class PlanKeysConfigTest(unittest.TestCase):
    def test_defaults_stay_out_of_the_banner(self) -> None:
        cfg = config.validate(BASE, "t.toml", "0")
        self.assertEqual((cfg.truncation_budgets_log2, cfg.centre, cfg.table_layout), (None, "expm", "uniform"))
        for key in ("truncation_budgets_log2", "centre", "table_layout"):
            self.assertNotIn(key, cfg.parameters())
        cfg = config.validate({**BASE, "truncation_budgets_log2": BUDGETS, "centre": "adaptor",
                               "table_layout": "mixed"}, "t.toml", "0")
        self.assertEqual(cfg.parameters()["truncation_budgets_log2"], [float(b) for b in BUDGETS])

    def test_errors(self) -> None:
        plain = {k: v for k, v in BASE.items() if k not in ("multiplier", "truncation_budget_log2")}
        bad = [({"truncation_budgets_log2": [-50] * 5}, "truncation_budgets_log2: 5 entries, expected 6"),
               ({"truncation_budgets_log2": [-50] * 5 + [3]}, "between -200 and 0"),
               ({"truncation_budgets_log2": [-50] * 5 + [True]}, "expected a list of numbers, got bool"),
               ({"truncation_budgets_log2": "-50"}, "truncation_budgets_log2: expected a list"),
               ({"centre": "middle"}, "centre: 'middle' is not"),
               ({"table_layout": "packed"}, "table_layout: 'packed' is not"),
               ({"multiplier": "umaal", "truncation_budget_log2": None, "centre": "adaptor",
                 "form": "one_minus"}, "centre: 'adaptor' needs form = 'direct'"),
               ({"table_layout": "mixed", "table_access": "ct_scan"}, "table_layout: 'mixed' needs")]
        for extra, message in bad:
            with self.subTest(extra=extra), self.assertRaisesRegex(GenError, message):
                config.validate({**BASE, **extra}, "t.toml", "0")
        for extra, message in (({"truncation_budgets_log2": [-50] * 6}, "only with multiplier = 'truncated'"),
                               ({"centre": "adaptor"}, "centre: 'adaptor' needs"),
                               ({"table_layout": "mixed"}, "table_layout: 'mixed' needs")):
            with self.subTest(extra=extra), self.assertRaisesRegex(GenError, message):
                config.validate({**plain, **extra}, "t.toml", "0")


class PlanKeysKernelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.base = _build()
        cls.budgets = _build(truncation_budgets_log2=BUDGETS)
        cls.adaptor = _build(centre="adaptor")
        cls.full = _build(truncation_budgets_log2=BUDGETS, centre="adaptor", table_layout="mixed")
        cls.capped = _build(centre="adaptor", truncation_budgets_log2=[-44] * 5 + [-30])

    def test_each_product_within_its_budget(self) -> None:
        for k in (self.budgets, self.full):
            qz = k.qz
            products = [n for n, nd in enumerate(qz.scheme.nodes) if nd.kind == "mul"]
            self.assertEqual(len(products), len(BUDGETS) - 1)
            for n, b in zip(products, BUDGETS):
                plan = qz.plans[n]
                self.assertIsNotNone(plan)
                self.assertLessEqual(loss_bound(plan), Fraction(2) ** b * Fraction(2) ** qz.scales[n], n)
            self.assertLessEqual(loss_bound(k.final_plan), Fraction(2) ** BUDGETS[-1] * Fraction(2) ** qz.root_scale)
        top = min(n for n, nd in enumerate(self.base.qz.scheme.nodes) if nd.kind == "mul")
        self.assertLess(self.budgets.qz.plans[top].kept, self.base.qz.plans[top].kept)

    def test_adaptor_centring(self) -> None:
        self.assertTrue(self.adaptor.mantissa_adaptor)
        self.assertLess(self.adaptor.fpr_bound_2p63, self.base.fpr_bound_2p63)
        inputs = _domain_inputs(400, 3)
        mean = {name: sum(e) / len(e) for name, e in (("base", _errors(self.base, inputs)),
                                                       ("adaptor", _errors(self.adaptor, inputs)))}
        self.assertLess(abs(mean["adaptor"]), abs(mean["base"]), mean)

    def _centring(self, k: kernel.Kernel) -> tuple[list[int], list[int]]:
        """Segments whose core interval is centred on the ccs product's loss
        D (within the rounding to a_0's grid), and the others, each checked
        to have its root word within one grid step of the top of its proven
        range (the cap of gen/fit/centre.py)."""
        qz = k.qz
        target = loss_bound(k.final_plan)
        step = Fraction(2) ** (qz.root_scale - qz.const_scales[0])
        top = (1 << 64) - 1 - root_margin(k.cfg)(qz.root_scale)
        centred, capped = [], []
        for i, sp in enumerate(k.proof.segments):
            lo, hi = core_interval(qz, sp.approx, sp.eval_error)
            if abs((lo + hi) / 2 - target) <= step:
                centred.append(i)
            else:
                self.assertGreater(qz.ranges[i][qz.root][1] + step, top, i)
                capped.append(i)
        return centred, capped

    def test_adaptor_centring_per_segment(self) -> None:
        _, capped = self._centring(self.adaptor)
        self.assertEqual(capped, [])
        # A ccs product that loses far more than segment 0's root word can
        # rise: that segment is capped, the others centred, and the bound
        # still holds on the model (inputs in segment 0 included).
        centred, capped = self._centring(self.capped)
        self.assertEqual((capped, len(centred)), ([0], len(self.capped.proof.segments) - 1))
        bound = float(self.capped.fpr_bound_2p63)
        inputs = _domain_inputs(200, 9) + [(_bits(x), _bits(0.999)) for x in (0.0, 1e-9, 2.0 ** -30, 0.01)]
        self.assertLessEqual(max(abs(e) for e in _errors(self.capped, inputs)), bound)
        target = loss_bound(self.base.final_plan)
        step = Fraction(2) ** (self.base.qz.root_scale - self.base.qz.const_scales[0])
        # Control: the default centring leaves the segments off that centre.
        base = self.base
        off = sum(abs(sum(core_interval(base.qz, sp.approx, sp.eval_error)) / 2 - target) > step
                  for sp in base.proof.segments)
        self.assertGreater(off, len(base.proof.segments) // 2)

    def test_mixed_layout_sizes(self) -> None:
        self.assertEqual(self.base.coefficient_bits, (64,) * 6)
        bits = self.full.coefficient_bits
        self.assertIn(32, bits)
        narrow = [j for j in range(6) if self.full.qz.scheme.nodes[
            next(n for n, nd in enumerate(self.full.qz.scheme.nodes) if nd.kind == "const" and nd.power == j)].narrow]
        self.assertEqual([j for j, b in enumerate(bits) if b == 32], narrow)
        self.assertEqual(self.full.table_bytes, self.full.table_rows * sum(bits) // 8)

    def _run(self, header: str, cases: list[tuple[int, int]]) -> tuple[int, list[tuple[int, ...]]]:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            (folder / "tplan.h").write_text(header)
            (folder / "p.c").write_text(PROGRAM)
            subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", f"-I{folder}", str(folder / "p.c"),
                            "-o", str(folder / "p")], check=True)
            out = subprocess.run([str(folder / "p")], input="".join(f"{a:x} {b:x}\n" for a, b in cases),
                                 capture_output=True, text=True, check=True).stdout.splitlines()
        return int(out[0]), [tuple(int(t, 16) for t in line.split()) for line in out[1:]]

    def test_mixed_layout_one_table_per_program(self) -> None:
        """Two files include the mixed-layout header, one defining
        TPLAN_TABLE_EXTERN: the program links one table of the sidecar's
        size (nm -S); control: without the macro the link fails."""
        main = '#include <stdio.h>\n#include "tplan.h"\nunsigned long long other(unsigned long long);\n' \
               'int main(void) { printf("%d\\n", tplan_core(1) == other(1)); return 0; }\n'
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            write_rendered(self.full, folder)
            (folder / "a.c").write_text(main)
            for extern in (True, False):
                (folder / "b.c").write_text(("#define TPLAN_TABLE_EXTERN\n" if extern else "")
                                            + '#include "tplan.h"\nunsigned long long other(unsigned long long z)'
                                            " { return tplan_core(z); }\n")
                exe = folder / "two"
                done = subprocess.run(["gcc", "-O2", "-std=c99", f"-I{folder / 'tplan'}", str(folder / "a.c"),
                                       str(folder / "b.c"), "-o", str(exe)], capture_output=True, text=True)
                if not extern:
                    self.assertIn("multiple definition", done.stderr)
                    continue
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertEqual(subprocess.run([str(exe)], capture_output=True, text=True).stdout, "1\n")
                nm = subprocess.run(["nm", "-S", str(exe)], capture_output=True, text=True, check=True).stdout
                rows = [line.split() for line in nm.splitlines() if line.endswith(" tplan_coeffs")]
                self.assertEqual(len(rows), 1, rows)
                self.assertEqual(int(rows[0][1], 16), self.full.table_bytes)

    def test_mixed_layout_on_the_m3(self) -> None:
        """The kernel with all three keys on the emulated Cortex-M3 (quick
        vectors): bit-identical to the host build, MUL/MLA only, no
        branch or call, the same count for every input."""
        with tempfile.TemporaryDirectory() as tmp:
            write_rendered(self.full, Path(tmp) / "gen")
            out = Path(tmp) / "r.json"
            done = subprocess.run([sys.executable, "-m", "m3.report", "--gen-dir", str(Path(tmp) / "gen"),
                                   "--build", str(Path(tmp) / "b"), "--vectors", str(VECTORS), "--quick",
                                   "--kernels", "tplan", "--out", str(out)],
                                  cwd=ROOT, capture_output=True, text=True, timeout=300)
            self.assertEqual(done.returncode, 0, done.stderr[-2000:])
            rec = {r["name"]: r for r in json.loads(out.read_text())["kernels"]}["tplan"]
        self.assertTrue(rec["bit_identical"])
        self.assertEqual(rec["table_bytes"], self.full.table_bytes)
        self.assertTrue(rec["constant_instruction_count"])
        for label, fn in rec["functions"].items():
            sc = fn["scan"]
            self.assertEqual((sc["long_mul"], sc["div"], sc["cond_branches"], sc["float_calls"], sc["other_calls"]),
                             (0, 0, 0, 0, {}), label)

    def test_mixed_layout_c_equals_model(self) -> None:
        k = self.full
        rng = random.Random(11)
        cases = [(rng.randint(0, k.seg.z_max), rng.randint(0, M64)) for _ in range(1500)]
        cases += [(s.z_first, M64) for s in k.seg.segments] + [(s.z_last, 1 << 63) for s in k.seg.segments]
        inside = _domain_inputs(500, 5)
        with tempfile.TemporaryDirectory() as tmp:
            header = write_rendered(k, Path(tmp)).header.read_text()
        self.assertIn("const uint32_t tplan_coeffs[", header)
        size, outputs = self._run(header, cases + inside)
        self.assertEqual(size, k.table_bytes)
        self.assertEqual(len(outputs), len(cases) + len(inside))
        for (z, w), (core, expm, fpr) in zip(cases + inside, outputs):
            self.assertEqual(core, model.evaluate_core(k.qz, k.seg, z, check=True), f"z={z:x}")
            self.assertEqual(expm, model.model_expm(k, z, w), f"z={z:x} w={w:x}")
            self.assertEqual(fpr, falcon.model_fpr(k, z, w), f"x={z:x} ccs={w:x}")
        bound = float(k.fpr_bound_2p63)
        for e in _errors(k, inside):
            self.assertLessEqual(abs(e), bound)
        # Control: the two words of K_0 swapped in segment 3's row (rows in segment order).
        row = [line for line in header.splitlines() if line.startswith("    { UINT32_C(")][3]
        words = row.strip()[2:-3].split(", ")
        swapped = "    { " + ", ".join([words[1], words[0]] + words[2:]) + " },"
        _, broken = self._run(header.replace(row, swapped), cases)
        seg3 = [i for i, (z, _) in enumerate(cases) if k.seg.segments[3].z_first <= z <= k.seg.segments[3].z_last]
        self.assertTrue(seg3)
        self.assertTrue(all(broken[i][0] != model.evaluate_core(k.qz, k.seg, cases[i][0]) for i in seg3))


if __name__ == "__main__":
    unittest.main()

"""Tests of the constant-time 16x16->32 product path of runtime/fxp.h
(FXP_MUL16, docs/m3.md "Constant-time products").

Every product helper (fxp_mulhi64, fxp_mullo64, fxp_wide_mul, fxp_mulhi32)
is run on edge and random operands and compared with the exact product
computed here with Python integers:
  * on the host, with -DFXP_MUL16 forcing the 16-bit path on x86-64;
  * on the Cortex-M3 (QEMU), where the path is selected automatically;
and the M3 binary is scanned: no UMULL/SMULL/UMLAL/SMLAL, no conditional
branch.  Controls: three deliberately broken copies of fxp.h must be caught
by the same harness, and the UMULL build (-DFXP_ALLOW_UMULL) must show long
multiplies to the same scan.  The M3 parts need gcc-arm-none-eabi and
qemu-system-arm (docs/m3.md).
"""
from __future__ import annotations

import random
import sys
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from m3 import disasm, scan  # noqa: E402
from m3.toolchain import compile_arm, compile_host, run_host, run_qemu  # noqa: E402
from tests.helpers import TempDirCase, mutated, stage_files  # noqa: E402

FXP_H = ROOT / "runtime" / "fxp.h"
M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
# The non-inlined wrappers of the test program, one per helper.
ENTRIES = ("t_mulhi64", "t_mullo64", "t_wide_mul", "t_mulhi32")

# A test program generic over the header: for every operand pair (a, b) it
# prints one line of six hex words, which _expected() predicts.
PROGRAM = r"""
#include <stdint.h>
#include "m3io.h"
#include "fxp.h"
#include "ops.h"

__attribute__((noinline)) uint64_t t_mulhi64(uint64_t a, uint64_t b) { return fxp_mulhi64(a, b); }
__attribute__((noinline)) uint64_t t_mullo64(uint64_t a, uint64_t b) { return fxp_mullo64(a, b); }
__attribute__((noinline)) void t_wide_mul(uint64_t a, uint64_t b, fxp_wide *out) { *out = fxp_wide_mul(a, b); }
__attribute__((noinline)) uint32_t t_mulhi32(uint32_t a, uint32_t b) { return fxp_mulhi32(a, b); }

static void put(uint64_t v, const char *sep)
{
    io_hex64(v);
    io_puts(sep);
}

int main(void)
{
    unsigned i;
#if defined(FXP_MUL16)
    io_puts("mul16\n");
#else
    io_puts("native\n");
#endif
    for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        uint64_t a = ops[i][0], b = ops[i][1];
        fxp_wide w;
        t_wide_mul(a, b, &w);
        put(t_mulhi64(a, b), " ");
        put(t_mullo64(a, b), " ");
        put(w.hi, " ");
        put(w.lo, " ");
        put(t_mulhi32((uint32_t)a, (uint32_t)b), " ");
        put(t_mulhi32((uint32_t)(a >> 32), (uint32_t)(b >> 32)), "\n");
    }
    return 0;
}
"""

# Deliberately wrong variants of fxp.h: (what is broken, text, replacement).
MUTANTS = (
    ("cross terms summed in 32 bits (overflows when both are large)",
     "    r += (uint64_t)p01 << 16;\n    r += (uint64_t)p10 << 16;\n",
     "    r += (uint64_t)(p01 + p10) << 16;\n"),
    ("carry from the middle word dropped",
     "fxp_mul16_32x32(a1, b1) + (t >> 32) + (q10 >> 32)", "fxp_mul16_32x32(a1, b1) + (q10 >> 32)"),
    ("wrong operand in a cross term of the low word",
     "uint32_t cross = a0 * b1 + a1 * b0;", "uint32_t cross = a0 * b1 + a1 * b1;"),
)


def edge_values() -> list[int]:
    """Limb boundaries, all-ones patterns and every power of two."""
    vals = {0, 1, 2, 3, 0xFFFF, 0x10000, 0x10001, 0xFFFFFFFF, 0x100000000, 0x100000001,
            0xFFFFFFFFFFFF, M64, M64 - 1, M64 ^ M32, 0xFFFF0000FFFF0000, 0x0000FFFF0000FFFF,
            0x8000000080000000, 0x7FFFFFFF7FFFFFFF, 0xFFFEFFFEFFFEFFFF}
    vals.update(1 << k for k in range(64))
    return sorted(vals)


def operands(n_random: int, seed: int) -> list[tuple[int, int]]:
    """Every pair of edge values, then random pairs of random bit lengths
    (so that operands with zero upper limbs are common)."""
    edges = edge_values()
    pairs = [(a, b) for a in edges for b in edges]
    rng = random.Random(seed)
    for _ in range(n_random):
        a = rng.getrandbits(64) >> rng.randrange(64)
        b = rng.getrandbits(64) >> rng.randrange(64)
        pairs.append((a, b))
    return pairs


def expected(pairs: list[tuple[int, int]]) -> list[str]:
    lines = ["mul16"]
    for a, b in pairs:
        p = a * b
        lo32 = ((a & M32) * (b & M32)) >> 32
        hi32 = ((a >> 32) * (b >> 32)) >> 32
        words = (p >> 64, p & M64, p >> 64, p & M64, lo32, hi32)
        lines.append(" ".join(f"{w:016x}" for w in words))
    return lines


def write_ops(pairs: list[tuple[int, int]], path: Path) -> None:
    rows = ",\n".join(f"    {{UINT64_C(0x{a:x}), UINT64_C(0x{b:x})}}" for a, b in pairs)
    path.write_text(f"static const uint64_t ops[][2] = {{\n{rows}\n}};\n")


def mismatches(output: str, pairs: list[tuple[int, int]]) -> int:
    """Lines that differ from the exact products (a missing or extra line
    counts as a mismatch too)."""
    got = output.splitlines()
    want = expected(pairs)
    bad = sum(1 for g, w in zip(got, want) if g != w)
    return bad + abs(len(got) - len(want))


class _Work(TempDirCase):

    @classmethod
    def stage(cls, tag: str, header: str, pairs: list[tuple[int, int]]) -> Path:
        """A folder holding the program, a copy of `header` as fxp.h and the operands."""
        d = stage_files(cls.tmp, tag, {"fxp.h": header, "prog.c": PROGRAM})
        write_ops(pairs, d / "ops.h")
        return d

    def run_host(self, d: Path, pairs: list[tuple[int, int]]) -> int:
        exe = compile_host([d / "prog.c"], d / "prog", ["FXP_MUL16"], [d])
        res = run_host(exe)
        self.assertEqual(res.returncode, 0)
        return mismatches(res.output, pairs)


class HostTest(_Work):
    def test_exact_on_host(self) -> None:
        pairs = operands(20000, seed=1)
        d = self.stage("host", FXP_H.read_text(), pairs)
        self.assertEqual(self.run_host(d, pairs), 0)

    def test_broken_variants_are_caught(self) -> None:
        pairs = operands(2000, seed=2)
        text = FXP_H.read_text()
        for i, (what, old, new) in enumerate(MUTANTS):
            with self.subTest(mutant=what):
                d = self.stage(f"mutant{i}", mutated(self, text, what, old, new), pairs)
                self.assertGreater(self.run_host(d, pairs), 0, f"harness missed: {what}")


class M3Test(_Work):
    pairs: list[tuple[int, int]]
    elf: Path

    @classmethod
    def setUpClass(cls) -> None:
        super().setUpClass()
        cls.pairs = operands(3000, seed=3)
        d = cls.stage("m3", FXP_H.read_text(), cls.pairs)
        # No define: the Cortex-M3 build must pick the 16-bit path by itself.
        cls.elf = compile_arm([d / "prog.c"], d / "prog.elf", [], [d])

    def test_exact_on_m3(self) -> None:
        res = run_qemu(self.elf)
        self.assertEqual(res.returncode, 0)
        self.assertEqual(res.output.splitlines()[0], "mul16")
        self.assertEqual(mismatches(res.output, self.pairs), 0)

    def test_no_long_multiply_no_branch(self) -> None:
        insns = disasm.disassemble(self.elf)
        for entry in ENTRIES:
            with self.subTest(entry=entry):
                res = scan.scan(insns, entry)
                self.assertEqual(res.long_mul, 0)
                self.assertEqual(res.cond_branches, 0)
                self.assertEqual(res.div, 0)
                self.assertEqual(sum(res.other_calls.values()) + res.float_calls, 0)
                self.assertGreater(res.mul32, 0)

    def test_umull_build_is_seen(self) -> None:
        """Control: the opt-out build uses UMULL, and the same scan says so."""
        d = self.tmp / "m3"
        elf = compile_arm([d / "prog.c"], d / "umull.elf", ["FXP_ALLOW_UMULL"], [d])
        insns = disasm.disassemble(elf)
        for entry in ENTRIES:
            with self.subTest(entry=entry):
                self.assertGreater(scan.scan(insns, entry).long_mul, 0)


if __name__ == "__main__":
    unittest.main()

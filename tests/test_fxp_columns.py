"""Tests of the 64-bit column macros of runtime/fxp.h (fxp_sub64_shl,
fxp_add64_shl, fxp_sub64_shr, fxp_add64_shr, fxp_sub64, fxp_add64 and the
_shl_hi pair), which the generator writes for the column sums of every
truncated limb product (gen/cemit.py, docs/m3.md).

On Thumb-2 each macro is an asm pair (SUBS/SBC or ADDS/ADC with a shifted
operand); elsewhere it is the C expression.  The same program runs on the
host (C path) and on the Cortex-M3 under QEMU (asm path, which it reports),
on edge and random (y, c) pairs, and every line is compared with the value
computed here with Python integers modulo 2^64.  Controls: copies of fxp.h
whose asm drops the borrow or the carry, or shifts by the wrong amount,
must be caught on the M3.  The M3 parts need gcc-arm-none-eabi and
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

# (C call with the operands y, c; the exact value), one per macro and shift.
CASES = (
    [(f"fxp_{op}64_shl(y, c, {r})", op, r) for op in ("sub", "add") for r in (1, 7, 19, 31)]
    + [(f"fxp_{op}64_shl_hi(y, c, {r})", op, r) for op in ("sub", "add") for r in (32, 45, 63)]
    + [(f"fxp_{op}64_shr(y, c, {d})", op, -d) for op in ("sub", "add") for d in (1, 13, 31)]
    + [(f"fxp_{op}64(y, c)", op, 0) for op in ("sub", "add")]
)

PROGRAM_HEAD = r"""
#include <stdint.h>
#include "m3io.h"
#include "fxp.h"
#include "ops.h"

static void put(uint64_t v, const char *sep)
{
    io_hex64(v);
    io_puts(sep);
}

__attribute__((noinline)) static void apply(uint64_t y, uint32_t c, uint64_t *out)
{
"""

PROGRAM_TAIL = r"""}

static void row(uint64_t y, uint32_t c)
{
    uint64_t out[NCASES];
    unsigned k;
    apply(y, c, out);
    for (k = 0; k < NCASES; k++)
        put(out[k], k + 1 < NCASES ? " " : "\n");
}

int main(void)
{
    unsigned i;
#if defined(fxp_col64_asm)
    io_puts("asm\n");
#else
    io_puts("c\n");
#endif
    for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        row(ops[i].y, ops[i].c);
    return 0;
}
"""

# Deliberately wrong asm in copies of fxp.h: (what is broken, text, replacement).
MUTANTS = (
    ("borrow dropped in fxp_sub64_shl", '"subs %0, %2, %4, lsl %5\\n\\tsbc %1, %3, %4, lsr %6"',
     '"subs %0, %2, %4, lsl %5\\n\\tsub %1, %3, %4, lsr %6"'),
    ("carry dropped in fxp_add64_shr", '"adds %0, %2, %4, lsr %5\\n\\tadc %1, %3, #0"',
     '"adds %0, %2, %4, lsr %5\\n\\tmov %1, %3"'),
    ("high part shifted by the wrong amount", '"i"((32 - (r)) & 31)', '"i"((31 - (r)) & 31)'),
)


def program() -> str:
    body = "".join(f"    out[{k}] = {call};\n" for k, (call, _, _) in enumerate(CASES))
    return f"#define NCASES {len(CASES)}\n" + PROGRAM_HEAD + body + PROGRAM_TAIL


def value(op: str, y: int, c: int, r: int) -> int:
    term = c << r if r >= 0 else c >> -r
    return (y - term if op == "sub" else y + term) & M64


def operands(n_random: int, seed: int) -> list[tuple[int, int]]:
    """Edge pairs (words that carry or borrow in every column, zero, all
    ones), then random ones."""
    ys = [0, 1, M32, 1 << 32, M64, M64 - 1, 0x8000000000000000, 0x00000000FFFFFFFF, 0xFFFFFFFF00000000]
    cs = [0, 1, 0x7FFF, 0x8000, M32, 0x80000000, 0x3FFFFFFF]
    pairs = [(y, c) for y in ys for c in cs]
    rng = random.Random(seed)
    pairs += [(rng.getrandbits(64), rng.getrandbits(32) >> rng.randrange(32)) for _ in range(n_random)]
    return pairs


def expected(pairs: list[tuple[int, int]], path: str) -> list[str]:
    return [path] + [" ".join(f"{value(op, y, c, r):016x}" for _, op, r in CASES) for y, c in pairs]


def mismatches(output: str, pairs: list[tuple[int, int]], path: str) -> int:
    got, want = output.splitlines(), expected(pairs, path)
    return sum(1 for g, w in zip(got, want) if g != w) + abs(len(got) - len(want))


class _Work(TempDirCase):

    @classmethod
    def stage(cls, tag: str, header: str, pairs: list[tuple[int, int]]) -> Path:
        rows = ",\n".join(f"    {{UINT64_C(0x{y:x}), UINT32_C(0x{c:x})}}" for y, c in pairs)
        ops = "static const struct { uint64_t y; uint32_t c; } ops[] = {\n" + rows + "\n};\n"
        return stage_files(cls.tmp, tag, {"fxp.h": header, "prog.c": program(), "ops.h": ops})


class HostTest(_Work):
    def test_c_path_exact(self) -> None:
        pairs = operands(3000, seed=1)
        d = self.stage("host", FXP_H.read_text(), pairs)
        res = run_host(compile_host([d / "prog.c"], d / "prog", [], [d]))
        self.assertEqual(res.returncode, 0)
        self.assertEqual(mismatches(res.output, pairs, "c"), 0)


class M3Test(_Work):
    def run_m3(self, tag: str, header: str, pairs: list[tuple[int, int]]) -> tuple[int, Path]:
        d = self.stage(tag, header, pairs)
        elf = compile_arm([d / "prog.c"], d / "prog.elf", [], [d])
        res = run_qemu(elf)
        self.assertEqual(res.returncode, 0)
        return mismatches(res.output, pairs, "asm"), elf

    def test_asm_path_exact(self) -> None:
        pairs = operands(1500, seed=2)
        bad, elf = self.run_m3("m3", FXP_H.read_text(), pairs)
        self.assertEqual(bad, 0)
        res = scan.scan(disasm.disassemble(elf), "apply")
        self.assertEqual(res.cond_branches, 0)
        self.assertEqual(res.long_mul + sum(res.other_calls.values()) + res.float_calls, 0)

    def test_broken_asm_is_caught(self) -> None:
        pairs = operands(200, seed=3)
        text = FXP_H.read_text()
        for i, (what, old, new) in enumerate(MUTANTS):
            with self.subTest(mutant=what):
                bad, _ = self.run_m3(f"mutant{i}", mutated(self, text, what, old, new), pairs)
                self.assertGreater(bad, 0, f"harness missed: {what}")


if __name__ == "__main__":
    unittest.main()

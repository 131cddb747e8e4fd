"""Tests of the shared disassembly module (toolkit/disasm/): every
instruction class on known x86-64 and ARM lines, each with look-alike
controls that must stay out of the class."""
from __future__ import annotations

import unittest

from toolkit.disasm import (CALL, COND_BRANCH, DIVISION, FP, INDEXED_MEM, INDIRECT_CALL,
                            LONG_MUL, arm, x86)

# (objdump text, classes) for x86-64; the local functions are {"f", "g"}.
X86_CASES = [
    ("mulsd  %xmm1,%xmm0", {FP}),
    ("vzeroupper", {FP}),                      # VEX without a vector operand
    ("fldt   0x10(%rsp)", {FP}),
    ("fxch   %st(1)", {FP}),
    ("paddq  %mm1,%mm0", {FP}),                # MMX register
    ("cvttsd2si %xmm0,%rax", {FP}),
    ("divsd  %xmm1,%xmm0", {FP, DIVISION}),
    ("lfence", set()),                         # control: not an x87 f... mnemonic
    ("mov    %rdi,%rax", set()),
    ("je     60 <f+0x20>", {COND_BRANCH}),
    ("loop   60 <f+0x20>", {COND_BRANCH}),
    ("jmp    *%rax", {COND_BRANCH}),           # indirect jump: target is data
    ("jmp    60 <f+0x20>", set()),             # control: a local direct jump
    ("div    %rsi", {DIVISION}),
    ("idivq  (%rcx)", {DIVISION}),
    ("mul    %rsi", {LONG_MUL}),
    ("mulx   %rsi,%rax,%rdx", {LONG_MUL}),
    ("imul   %rsi,%rax", set()),               # control: a 64-bit product
    ("call   0 <__multi3>", {CALL}),
    ("call   0 <g>", set()),                   # control: local, scanned in place
    ("jmp    0 <h>", {CALL}),                  # tail call out of the object
    ("call   *%rax", {INDIRECT_CALL}),
    ("mov    (%rax,%rdi,8),%rdx", {INDEXED_MEM}),
    ("lea    (%rax,%rdi,8),%rdx", set()),      # control: lea reads no memory
    ("mov    0x8(%rcx),%rax", set()),          # control: base register only
    ("data16 cs nopw 0x0(%rax,%rax,1)", {INDEXED_MEM}),  # prefixes dropped, the operand stays
]

# (mnemonic, operands, enclosing function, classes) for Thumb-2.
ARM_CASES = [
    ("umull", "r0, r1, r2, r3", "f", {LONG_MUL}),
    ("smlal", "r0, r1, r2, r3", "f", {LONG_MUL}),
    ("mul", "r0, r1, r2", "f", set()),         # control: MUL is constant time
    ("mla", "r0, r1, r2, r3", "f", set()),
    ("udiv", "r0, r1, r2", "f", {DIVISION}),
    ("bne", "8 <f+0x8>", "f", {COND_BRANCH}),
    ("cbz", "r0, 8 <f+0x8>", "f", {COND_BRANCH}),
    ("bxne", "lr", "f", {COND_BRANCH}),
    ("popne", "{r4, pc}", "f", {COND_BRANCH}),
    ("b", "8 <f+0x8>", "f", set()),            # control: unconditional, local
    ("bx", "lr", "f", set()),                  # control: a return
    ("movne", "r0, r1", "f", set()),           # control: predicated, not a branch
    ("bls", "8 <f+0x8>", "f", {COND_BRANCH}),  # control: bl + s is not a call
    ("bl", "0 <helper>", "f", {CALL}),
    ("b", "0 <g>", "f", {CALL}),               # tail call
    ("bl", "0 <__aeabi_dmul>", "f", {CALL, FP}),
    ("b", "0 <__aeabi_d2lz>", "f", {CALL, FP}),
    ("bl", "0 <__aeabi_lmul>", "f", {CALL}),   # control: an integer helper
    ("blx", "r3", "f", {INDIRECT_CALL}),
    ("vadd.f64", "d0, d1, d2", "f", {FP}),
    ("ldr", "r0, [r1, r2, lsl #2]", "f", {INDEXED_MEM}),
    ("str", "r0, [r1, ip]", "f", {INDEXED_MEM}),
    ("ldr", "r0, [r1, #8]", "f", set()),       # control: immediate offset
    ("ldrd", "r0, r1, [sp, #16]", "f", set()),
]


class X86Classes(unittest.TestCase):
    def test_each_class_on_known_lines(self) -> None:
        for text, want in X86_CASES:
            with self.subTest(text=text):
                self.assertEqual(x86.classes(x86.parse_insn(text), local={"f", "g"}), want)

    def test_a_broken_classifier_is_caught(self) -> None:
        """Deliberately bad control: a floating-point test that forgets the
        register operands misses cases that the cases above contain, so the
        table can tell a weakened definition from the real one."""
        def weak(insn: x86.Insn) -> bool:
            return insn.mnemonic.startswith("f")
        misses = [t for t, want in X86_CASES if (FP in want) != weak(x86.parse_insn(t))]
        self.assertTrue(misses)

    def test_parse_objdump_relocations_and_prefixes(self) -> None:
        listing = ("0000000000000000 <f>:\n"
                   "   0:\tcall   5 <f+0x5>\n"
                   "\t\t\t1: R_X86_64_PLT32\t__multi3-0x4\n"
                   "   5:\trep stos %rax,%es:(%rdi)\n"
                   "   8:\tret\n")
        funcs = x86.parse_objdump(listing)
        self.assertEqual([i.mnemonic for i in funcs["f"]], ["call", "stos", "ret"])
        self.assertEqual(funcs["f"][0].target, "__multi3")
        self.assertTrue(x86.is_call(funcs["f"][0], funcs))

    def test_register_families(self) -> None:
        self.assertEqual(x86.family("%eax"), "rax")
        self.assertEqual(x86.family("%r9d"), "r9")
        self.assertEqual(x86.family("%ymm3"), "xmm3")
        self.assertEqual(x86.mem_regs("0x8(%rsp,%rcx,8)"), ("%rsp", "%rcx"))
        self.assertIsNone(x86.mem_regs("%rax"))


class ArmClasses(unittest.TestCase):
    def test_each_class_on_known_lines(self) -> None:
        for mnem, ops, func, want in ARM_CASES:
            with self.subTest(insn=f"{mnem} {ops}"):
                self.assertEqual(arm.classes(arm.Insn(0, 4, mnem, ops, func)), want)

    def test_a_broken_classifier_is_caught(self) -> None:
        """Deliberately bad control: counting every b<...> as conditional
        (forgetting that bl and a plain b are not) is caught by the cases."""
        def weak(insn: arm.Insn) -> bool:
            return insn.mnemonic.startswith("b")
        misses = [m for m, o, f, want in ARM_CASES
                  if (COND_BRANCH in want) != weak(arm.Insn(0, 4, m, o, f))]
        self.assertTrue(misses)

    def test_parse_objdump(self) -> None:
        listing = ("000001b0 <f>:\n"
                   "     1b0:\te92d 47f0 \tstmdb\tsp!, {r4, r5, r6, r7, r8, r9, sl, lr}\n"
                   "     1b4:\tfba0 2302 \tumull\tr2, r3, r0, r2\n"
                   "     1b8:\t4770      \tbx\tlr\n"
                   "     1ba:\tbf00      \tnop\n"
                   "     1bc:\t12345678 \t.word\t0x12345678\n")
        insns = arm.parse_objdump(listing)
        self.assertEqual(sorted(insns), [0x1b0, 0x1b4, 0x1b8, 0x1ba])   # the literal is data
        self.assertEqual((insns[0x1b4].size, insns[0x1b8].size), (4, 2))
        self.assertTrue(arm.is_long_multiply(insns[0x1b4]))
        self.assertTrue(arm.writes_pc(insns[0x1b8]))
        self.assertEqual(insns[0x1b0].func, "f")

    def test_it_blocks(self) -> None:
        self.assertTrue(arm.is_it(arm.Insn(0, 2, "itte", "ne", "f")))
        self.assertFalse(arm.is_it(arm.Insn(0, 2, "isb", "sy", "f")))


if __name__ == "__main__":
    unittest.main()

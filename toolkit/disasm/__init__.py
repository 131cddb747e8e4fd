"""Disassembly for the binary scans: one parser and ONE definition of each
instruction class per architecture, used by ct/scan.py (x86-64 constant
time), falcon/fpscan.py (the FP-free emulated adaptor) and m3/ (the
Cortex-M3 scan, trace and timing model).

Back ends: toolkit.disasm.x86 (`objdump -dr --no-show-raw-insn`, AT&T) and
toolkit.disasm.arm (`arm-none-eabi-objdump -d`, Thumb-2).  Each defines, for
its instructions, the classes below; a tool counts or rejects them as its
policy says (ct/scan.py's allowed-SSE list for the native adaptors, m3's
MUL/MLA-only rule), but never redefines a class.

The classes, and where the three former parsers disagreed (the stricter
definition was kept each time):

floating point
    x86: an x87 mnemonic (f...), any VEX/EVEX mnemonic (v...), any
    conversion (cvt..., vcvt...), or any operand naming an x87 (%st), MMX
    (%mm), SSE (%xmm), AVX (%ymm) or AVX-512 (%zmm) register.  ct/scan.py
    counted mnemonics and SIMD registers but not %st operands;
    falcon/fpscan.py counted %st, %xmm/%ymm/%zmm and x87 mnemonics but not
    MMX registers, VEX mnemonics without a vector operand (vzeroupper) or
    conversions: the union is kept.
    ARM: any VFP/NEON instruction (v... mnemonics: the M3 has no FPU, so
    one would be a build mistake) and any call to a soft-float helper
    (__aeabi_d*, __aeabi_f*, __*df3, __fix*, __float* ...).  m3/scan.py
    looked at the helper calls only.
conditional branch
    x86: j<cc>, loop*, jrcxz/jecxz, and indirect jumps (their target is
    data).  ARM: b<cond>, cbz/cbnz, and any pc-writing instruction with a
    condition (bxne, popne {.., pc}: only possible inside an IT block).
division
    x86: div/idiv and the SSE/AVX divisions; ARM: udiv/sdiv.
call
    x86: call, and jmp to a symbol (a tail call); ARM: bl/blx to a symbol
    and a b to another function (a tail call); an indirect call (blx rN) is
    its own class, indirect_call.
long multiply
    x86: one-operand mul/imul and mulx (64x64 -> 128); ARM: umull, smull,
    umlal, smlal (their time depends on the operands on a Cortex-M3).
indexed memory
    x86: a memory operand with an index register, (%rax,%rcx,8); ARM: a
    register-offset address, [r0, r1] or [r0, r1, lsl #2].  m3/scan.py did
    not count these; it now reports them (falcon_m3 indexes its SRAM table
    directly by design, so the M3 report shows them without failing).
"""

FP = "floating_point"
COND_BRANCH = "conditional_branch"
DIVISION = "division"
CALL = "call"
INDIRECT_CALL = "indirect_call"
LONG_MUL = "long_multiply"
INDEXED_MEM = "indexed_memory"

CLASSES = (FP, COND_BRANCH, DIVISION, CALL, INDIRECT_CALL, LONG_MUL, INDEXED_MEM)

"""ARM (Thumb-2, ARMv7-M) back end: parse `arm-none-eabi-objdump -d` and
classify instructions (the classes are defined in toolkit.disasm)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from toolkit.disasm import (CALL, COND_BRANCH, DIVISION, FP, INDEXED_MEM, INDIRECT_CALL,
                            LONG_MUL)

# "     1b0:\te92d 47f0 \tstmdb\tsp!, {r4, lr}"  (Thumb: halfwords in hex)
_INSN = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)\s*(.*)$")
_FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")
_TARGET = re.compile(r"<([^>+]+)(\+0x[0-9a-f]+)?>")
# Soft-float helpers of libgcc's AEABI: double/float arithmetic, compares
# and conversions.
_FLOAT_HELPER = re.compile(r"^__aeabi_(d|f|cd|cf|u?[il]2[df]|ul2[df])|^__\w*[ds]f\d$|^__(fix|float)")
# UMAAL exists on ARMv7E-M (Cortex-M4) only.
_LONG_MUL = ("umull", "smull", "umlal", "smlal", "umaal")
# A register-offset address: [rN, rM] or [rN, rM, lsl #k].
_REG_OFFSET = re.compile(r"\[\s*\w+\s*,\s*(?:r\d+|ip|lr|fp|sl|sb)\b")

# Condition-code suffixes of ARMv7-M.
CONDS = ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc",
         "hi", "ls", "ge", "lt", "gt", "le")


@dataclass(frozen=True)
class Insn:
    """One disassembled instruction."""

    addr: int
    size: int        # bytes: 2 or 4 in Thumb-2
    mnemonic: str    # as objdump prints it, without the .n/.w width suffix
    operands: str
    func: str        # enclosing symbol


def parse_objdump(text: str) -> dict[int, Insn]:
    """Every instruction of an `objdump -d` listing, by address.  Literal
    pools (.word) are left out: they are data, never executed."""
    insns: dict[int, Insn] = {}
    func = "?"
    for line in text.splitlines():
        m = _FUNC.match(line)
        if m:
            func = m.group(2)
            continue
        m = _INSN.match(line)
        if not m or m.group(3).startswith("."):
            continue
        # The raw halfwords stay in the listing: their count gives the size.
        size = 2 * len(m.group(2).split())
        mnem = re.sub(r"\.[nw]$", "", m.group(3))
        insns[int(m.group(1), 16)] = Insn(int(m.group(1), 16), size, mnem,
                                           m.group(4).split("@")[0].strip(), func)
    return insns


def strip_cond(mnem: str) -> str:
    """The mnemonic without a condition suffix (movne -> mov); a two-letter
    stem is kept whole so that e.g. "bls" stays a branch, not "b" + "ls"."""
    for c in CONDS:
        if mnem.endswith(c) and len(mnem) > len(c) + 1:
            return mnem[: -len(c)]
    return mnem


def writes_pc(insn: Insn) -> bool:
    """True when the instruction can change the program counter other than by
    falling through: branches, and loads/moves/pops whose target is pc."""
    m = insn.mnemonic
    if m.startswith(("b", "cb", "tb")) and not m.startswith(("bic", "bfc", "bfi", "bkpt")):
        return True
    ops = insn.operands
    if m.startswith(("pop", "ldm")):
        return "pc" in ops
    first = ops.split(",")[0].strip()
    return first == "pc"


def is_cond_branch(insn: Insn) -> bool:
    """b<cond>, cbz/cbnz, or any pc-writing instruction with a condition
    suffix (only possible inside an IT block, e.g. bxne, popne {pc})."""
    m = insn.mnemonic
    if m.startswith(("cbz", "cbnz")):
        return True
    if not writes_pc(insn):
        return False
    for head in ("bl", "bx", "b", "pop", "ldm", "ldr", "mov", "add"):
        rest = m[len(head):] if m.startswith(head) else None
        if rest in CONDS:
            return True
    return False


def is_long_multiply(insn: Insn) -> bool:
    """UMULL, SMULL, UMLAL, SMLAL (early-terminating on a Cortex-M3) and
    UMAAL (ARMv7E-M; single-cycle on a Cortex-M4)."""
    return insn.mnemonic.startswith(_LONG_MUL)


def is_mul32(insn: Insn) -> bool:
    """MUL, MLA, MLS: single-cycle, constant time on a Cortex-M3."""
    return strip_cond(insn.mnemonic) in ("mul", "muls", "mla", "mls")


def is_division(insn: Insn) -> bool:
    """UDIV, SDIV: operand-dependent latency."""
    return insn.mnemonic.startswith(("udiv", "sdiv"))


def is_float_helper(name: str) -> bool:
    """A libgcc soft-float helper, by symbol name."""
    return bool(_FLOAT_HELPER.search(name))


def is_indirect_call(insn: Insn) -> bool:
    """bl/blx through a register: the target is not known statically."""
    return bool(re.fullmatch(r"blx?", strip_cond(insn.mnemonic))) and not _TARGET.search(insn.operands)


def call_target(insn: Insn) -> Optional[str]:
    """The function a direct call (bl, blx) or tail branch (b to another
    function's entry) goes to; None for anything else."""
    m = insn.mnemonic
    tgt = _TARGET.search(insn.operands)
    if tgt is None or tgt.group(2) is not None:
        return None
    is_call = m.startswith("bl") and not m.startswith(("ble", "blt", "bls", "blo"))
    tail = m.startswith("b") and tgt.group(1) != insn.func
    return tgt.group(1) if is_call or tail else None


def is_vfp(insn: Insn) -> bool:
    """A VFP/NEON instruction (v...): none can run on the FPU-less M3."""
    return insn.mnemonic.startswith("v")


def is_fp(insn: Insn) -> bool:
    """A VFP/NEON instruction, or a call to a soft-float helper."""
    target = call_target(insn)
    return is_vfp(insn) or (target is not None and is_float_helper(target))


def is_indexed(insn: Insn) -> bool:
    """A load or store with a register offset, [rN, rM]."""
    return insn.mnemonic.startswith(("ldr", "str")) and bool(_REG_OFFSET.search(insn.operands))


def is_it(insn: Insn) -> bool:
    """An IT instruction (it, ite, ittt ...), which predicates 1 to 4 others."""
    m = insn.mnemonic
    return m.startswith("it") and set(m[2:]) <= {"t", "e"}


def classes(insn: Insn) -> set[str]:
    """Every class of toolkit.disasm the instruction belongs to."""
    found = {name for name, test in ((FP, is_fp), (COND_BRANCH, is_cond_branch),
                                     (DIVISION, is_division), (LONG_MUL, is_long_multiply),
                                     (INDIRECT_CALL, is_indirect_call), (INDEXED_MEM, is_indexed))
             if test(insn)}
    if call_target(insn) is not None:
        found.add(CALL)
    return found

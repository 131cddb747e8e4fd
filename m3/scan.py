"""Static scan of an ARM ELF from one entry point: every function reachable
through direct calls and tail branches is scanned once, and its
instructions are classified.

How things are counted:
  long_mul      UMULL, SMULL, UMLAL, SMLAL, UMAAL (their time depends on
                the operands on a Cortex-M3; single-cycle on a Cortex-M4)
  mul32         MUL, MLA, MLS (constant time on a Cortex-M3)
  div           UDIV, SDIV
  cond_branches b<cond>, CBZ/CBNZ, and pc-writing instructions made
                conditional by an IT block (bxne, popne {..., pc})
  it_blocks     IT instructions; it_insns: the instructions they predicate
                (1 to 4 each).  A predicated data-processing instruction is
                not a branch: it occupies its slot whether or not it passes,
                so it is reported apart and not in cond_branches
  float_calls   calls or tail branches to soft-float helpers (__aeabi_d*,
                __aeabi_f*, __aeabi_*2d/*2f, __*df3/__*sf3, __fix*, __float*)
  fp_insns      VFP/NEON instructions (none can run on the FPU-less M3)
  indexed_mem   loads and stores with a register offset, [rN, rM] (a
                direct table index; reported, judged by the table placement)
  other_calls   every other direct call target, by name; indirect calls
                (blx rN) are counted in indirect_calls

Every class is defined once, in toolkit.disasm.arm.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from toolkit.disasm import arm
from toolkit.disasm.arm import Insn


@dataclass
class ScanResult:
    """What the scan found from one entry point."""

    entry: str
    functions: list[str] = field(default_factory=list)
    instructions: int = 0
    long_mul: int = 0
    mul32: int = 0
    div: int = 0
    cond_branches: int = 0
    it_blocks: int = 0
    it_insns: int = 0
    float_calls: int = 0
    fp_insns: int = 0
    indexed_mem: int = 0
    indirect_calls: int = 0
    other_calls: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, object]:
        """The JSON form (other_calls sorted by name)."""
        d = dict(self.__dict__)
        d["other_calls"] = dict(sorted(self.other_calls.items()))
        return d


def _count(insn: Insn, res: ScanResult) -> None:
    """Add one instruction's classes to the result."""
    res.instructions += 1
    res.long_mul += arm.is_long_multiply(insn)
    res.mul32 += arm.is_mul32(insn)
    res.div += arm.is_division(insn)
    res.cond_branches += arm.is_cond_branch(insn)
    res.indexed_mem += arm.is_indexed(insn)
    res.indirect_calls += arm.is_indirect_call(insn)
    res.fp_insns += arm.is_vfp(insn)
    if arm.is_it(insn):
        res.it_blocks += 1
        res.it_insns += len(insn.mnemonic) - 1


def scan(insns: dict[int, Insn], entry: str) -> ScanResult:
    """Scan `entry` and every function it reaches by direct calls and tail
    branches, each once."""
    by_func: dict[str, list[Insn]] = {}
    for insn in sorted(insns.values(), key=lambda i: i.addr):
        by_func.setdefault(insn.func, []).append(insn)
    if entry not in by_func:
        raise KeyError(entry)
    res = ScanResult(entry)
    todo, seen = [entry], {entry}
    while todo:
        func = todo.pop()
        res.functions.append(func)
        for insn in by_func.get(func, []):
            _count(insn, res)
            name = arm.call_target(insn)
            if name is None:
                continue
            if arm.is_float_helper(name):
                res.float_calls += 1
            else:
                res.other_calls[name] += 1
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return res

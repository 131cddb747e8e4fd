"""Static scan of an ARM ELF from one entry point: every function reachable
through direct calls and tail branches is scanned once, and its
instructions are classified.

How things are counted:
  long_mul      UMULL, SMULL, UMLAL, SMLAL (their time depends on the
                operands on a Cortex-M3)
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
  other_calls   every other direct call target, by name; indirect calls
                (blx rN) are counted in indirect_calls
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .disasm import CONDS, Insn, is_conditional_branch

_TARGET = re.compile(r"<([^>+]+)(\+0x[0-9a-f]+)?>")
_FLOAT = re.compile(r"^__aeabi_(d|f|cd|cf|u?[il]2[df]|ul2[df])|^__\w*[ds]f\d$|^__(fix|float)")
_LONG_MUL = ("umull", "smull", "umlal", "smlal")


@dataclass
class ScanResult:
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
    indirect_calls: int = 0
    other_calls: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, object]:
        d = dict(self.__dict__)
        d["other_calls"] = dict(sorted(self.other_calls.items()))
        return d


def _strip_cond(mnem: str) -> str:
    for c in CONDS:
        if mnem.endswith(c) and len(mnem) > len(c) + 1:
            return mnem[: -len(c)]
    return mnem


def scan(insns: dict[int, Insn], entry: str) -> ScanResult:
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
            res.instructions += 1
            m = insn.mnemonic
            if m.startswith(_LONG_MUL):
                res.long_mul += 1
            elif _strip_cond(m) in ("mul", "muls", "mla", "mls"):
                res.mul32 += 1
            elif m.startswith(("udiv", "sdiv")):
                res.div += 1
            if m.startswith("it") and set(m[2:]) <= {"t", "e"}:
                res.it_blocks += 1
                res.it_insns += len(m) - 1
            if is_conditional_branch(insn):
                res.cond_branches += 1
            if re.fullmatch(r"blx?", _strip_cond(m)) and not _TARGET.search(insn.operands):
                res.indirect_calls += 1
                continue
            tgt = _TARGET.search(insn.operands)
            is_call = m.startswith("bl") and not m.startswith(("ble", "blt", "bls", "blo"))
            tail = m.startswith("b") and tgt is not None and tgt.group(2) is None and tgt.group(1) != func
            if tgt is None or not (is_call or tail) or tgt.group(2) is not None:
                continue
            name = tgt.group(1)
            if _FLOAT.search(name):
                res.float_calls += 1
            else:
                res.other_calls[name] += 1
            if name not in seen:
                seen.add(name)
                todo.append(name)
    return res

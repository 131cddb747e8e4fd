"""x86-64 back end: parse `objdump -dr --no-show-raw-insn` (AT&T syntax)
and classify instructions (the classes are defined in toolkit.disasm)."""
from __future__ import annotations

import re
import subprocess
from collections.abc import Container
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from toolkit.disasm import (CALL, COND_BRANCH, DIVISION, FP, INDEXED_MEM, INDIRECT_CALL,
                            LONG_MUL)

_FUNC = re.compile(r"^[0-9a-f]+ <([^>]+)>:$")
_INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")
_RELOC = re.compile(r"^\s*[0-9a-f]+: R_X86_64_\w+\s+([^+\-\s]+)")
_MEM = re.compile(r"^(?:%\w+:)?[^(]*\((%\w+)?(?:,(%\w+))?(?:,\d)?\)$")
_PREFIXES = frozenset({"data16", "cs", "ds", "es", "ss", "fs", "gs", "lock",
                       "rep", "repz", "repe", "repnz", "repne", "notrack", "bnd"})
# x87 (%st), MMX (%mm), SSE (%xmm), AVX (%ymm) and AVX-512 (%zmm) registers.
_FP_REG = re.compile(r"%(?:[xyz]?mm\d+|st\b)")
_DIVISIONS = re.compile(r"^(i?div[bwlq]?|v?div[sp][sd])$")
_COND_BRANCH = re.compile(r"^(j(?!mp)[a-z]+|loop\w*|jrcxz|jecxz)$")
_LONG_MUL = re.compile(r"^(i?mul[bwlq]?|mulx[lq]?)$")

# 64-bit register family of every general-purpose register name.
_GPR: dict[str, str] = {}
for _r in ("ax", "bx", "cx", "dx"):
    for _n in (f"r{_r}", f"e{_r}", _r, f"{_r[0]}l", f"{_r[0]}h"):
        _GPR[_n] = f"r{_r}"
for _r in ("si", "di", "bp", "sp"):
    for _n in (f"r{_r}", f"e{_r}", _r, f"{_r}l"):
        _GPR[_n] = f"r{_r}"
for _i in range(8, 16):
    for _n in (f"r{_i}", f"r{_i}d", f"r{_i}w", f"r{_i}b"):
        _GPR[_n] = f"r{_i}"


@dataclass
class Insn:
    """One disassembled instruction."""

    mnemonic: str
    operands: list[str]
    text: str
    target: Optional[str] = None  # relocation symbol or symbolic jump target


def family(reg: str) -> str:
    """The register a name belongs to: rax for %eax, xmm3 for %ymm3."""
    name = reg.lstrip("%")
    if name in _GPR:
        return _GPR[name]
    simd = re.match(r"[xyz]mm(\d+)$", name)
    return f"xmm{simd.group(1)}" if simd else name


def _split_operands(text: str) -> list[str]:
    """Split AT&T operands on commas outside parentheses; drop comments."""
    text = text.split("#")[0].strip()
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_insn(text: str) -> Insn:
    """One instruction as objdump prints it after the address, e.g.
    "mov    0x8(%rsp),%rax"; prefixes (data16, rep, lock ...) are dropped."""
    mnem, _, rest = text.strip().partition(" ")
    rest = rest.strip()
    while mnem in _PREFIXES and rest:
        mnem, _, rest = rest.partition(" ")
        rest = rest.strip()
    sym = re.search(r"<([^>+]+)(?:\+0x[0-9a-f]+)?>", rest)
    ops = _split_operands(re.sub(r"<[^>]*>", "", rest))
    return Insn(mnem, ops, f"{mnem} {rest}".strip(), sym.group(1) if sym else None)


def parse_objdump(text: str) -> dict[str, list[Insn]]:
    """Functions of an `objdump -dr --no-show-raw-insn` listing, by name."""
    funcs: dict[str, list[Insn]] = {}
    current: Optional[list[Insn]] = None
    for line in text.splitlines():
        head = _FUNC.match(line)
        if head:
            current = funcs.setdefault(head.group(1), [])
            continue
        reloc = _RELOC.match(line)
        if reloc and current:
            current[-1].target = reloc.group(1)
            continue
        insn = _INSN.match(line)
        if insn and current is not None:
            current.append(parse_insn(f"{insn.group(2)} {insn.group(3)}"))
    return funcs


def objdump(obj: Path) -> str:
    """The listing parse_objdump reads."""
    proc = subprocess.run(["objdump", "-dr", "--no-show-raw-insn", str(obj)],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"objdump failed on {obj}: {proc.stderr.strip()}")
    return proc.stdout


def mem_regs(op: str) -> Optional[tuple[Optional[str], Optional[str]]]:
    """(base, index) of a memory operand, or None for a non-memory one."""
    if op.startswith(("$", "%")) and ":" not in op:
        return None
    m = _MEM.match(op)
    if not m:
        return (None, None) if re.match(r"^-?(0x)?[0-9a-f]+$", op) else None
    return (m.group(1), m.group(2))


def _indirect(insn: Insn) -> bool:
    return bool(insn.operands) and insn.operands[0].startswith("*")


def is_fp(insn: Insn) -> bool:
    """Floating point: x87, VEX/EVEX or conversion mnemonics, or an x87,
    MMX or SSE/AVX register among the operands."""
    m = insn.mnemonic
    return (m.startswith(("f", "v", "cvt")) or any(_FP_REG.search(o) for o in insn.operands))


def is_cond_branch(insn: Insn) -> bool:
    """A conditional jump, or an indirect jump (its target is data)."""
    m = insn.mnemonic
    return bool(_COND_BRANCH.match(m)) or (m.startswith("jmp") and _indirect(insn))


def is_division(insn: Insn) -> bool:
    """div/idiv and the SSE/AVX divisions: operand-dependent latency."""
    return bool(_DIVISIONS.match(insn.mnemonic))


def is_long_multiply(insn: Insn) -> bool:
    """A 64 x 64 -> 128-bit product: one-operand mul/imul, or mulx."""
    m = insn.mnemonic
    return bool(_LONG_MUL.match(m)) and (len(insn.operands) == 1 or m.startswith("mulx"))


def is_call(insn: Insn, local: Container[str]) -> bool:
    """A direct call or tail jump out of the code being scanned: its target
    is not one of the `local` functions (those are scanned in place)."""
    m = insn.mnemonic
    if not m.startswith(("call", "jmp")) or _indirect(insn):
        return False
    return insn.target not in local and (m.startswith("call") or insn.target is not None)


def is_indirect_call(insn: Insn) -> bool:
    """call *reg or call *mem."""
    return insn.mnemonic.startswith("call") and _indirect(insn)


def indexed_operands(insn: Insn) -> list[str]:
    """The memory operands with an index register (lea computes an address
    and reads no memory, so it has none)."""
    if insn.mnemonic.startswith("lea"):
        return []
    return [op for op in insn.operands if (mem := mem_regs(op)) is not None and mem[1] is not None]


def classes(insn: Insn, local: Container[str] = ()) -> set[str]:
    """Every class of toolkit.disasm the instruction belongs to."""
    found = {name for name, test in ((FP, is_fp), (COND_BRANCH, is_cond_branch),
                                     (DIVISION, is_division), (LONG_MUL, is_long_multiply),
                                     (INDIRECT_CALL, is_indirect_call)) if test(insn)}
    if is_call(insn, local):
        found.add(CALL)
    if indexed_operands(insn):
        found.add(INDEXED_MEM)
    return found

"""Parse `arm-none-eabi-objdump -d` and `nm` output of an ARM ELF."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .toolchain import ARM_NM, ARM_OBJDUMP, M3Error

# "     1b0:\te92d 47f0 \tstmdb\tsp!, {r4, lr}"  (Thumb: halfwords in hex)
_INSN = re.compile(r"^\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(\S+)\s*(.*)$")
_FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")

# Condition-code suffixes of ARMv7-M.
CONDS = ("eq", "ne", "cs", "hs", "cc", "lo", "mi", "pl", "vs", "vc",
         "hi", "ls", "ge", "lt", "gt", "le")


@dataclass(frozen=True)
class Insn:
    addr: int
    size: int        # bytes: 2 or 4 in Thumb-2
    mnemonic: str    # as objdump prints it, without the .n/.w width suffix
    operands: str
    func: str        # enclosing symbol


def _objdump(elf: Path) -> str:
    # The raw bytes stay in the listing: their count gives the size.
    res = subprocess.run([ARM_OBJDUMP, "-d", str(elf)], capture_output=True, text=True)
    if res.returncode != 0:
        raise M3Error(f"objdump failed on {elf}: {res.stderr.strip()[:200]}")
    return res.stdout


def disassemble(elf: Path) -> dict[int, Insn]:
    """Every instruction of the ELF's code sections, by address.  Literal
    pools (.word) are left out: they are data, never executed."""
    insns: dict[int, Insn] = {}
    func = "?"
    for line in _objdump(elf).splitlines():
        m = _FUNC.match(line)
        if m:
            func = m.group(2)
            continue
        m = _INSN.match(line)
        if not m or m.group(3).startswith("."):
            continue
        size = 2 * len(m.group(2).split())
        mnem = re.sub(r"\.[nw]$", "", m.group(3))
        insns[int(m.group(1), 16)] = Insn(int(m.group(1), 16), size, mnem,
                                           m.group(4).split("@")[0].strip(), func)
    if not insns:
        raise M3Error(f"no instructions found in {elf}")
    return insns


def symbols(elf: Path) -> dict[str, tuple[int, int]]:
    """Function symbols: name -> (address with the Thumb bit cleared, size)."""
    res = subprocess.run([ARM_NM, "-S", "--defined-only", str(elf)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise M3Error(f"nm failed on {elf}: {res.stderr.strip()[:200]}")
    out: dict[str, tuple[int, int]] = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in "tTW":
            out[parts[3]] = (int(parts[0], 16) & ~1, int(parts[1], 16))
    return out


def base_mnemonic(mnem: str, known: set[str]) -> str:
    """Reduce a mnemonic to an entry of `known`: strip a condition suffix
    (inside IT blocks, e.g. movne) and the flag-setting 's' (adds)."""
    cands = [mnem]
    for c in CONDS:
        if mnem.endswith(c) and len(mnem) > len(c):
            cands.append(mnem[: -len(c)])
    for cand in list(cands):
        if cand.endswith("s"):
            cands.append(cand[:-1])
    for cand in cands:
        if cand in known:
            return cand
    if mnem.startswith("it"):
        return "it"
    raise M3Error(f"no timing for instruction '{mnem}' (add it to m3/cm3_timing.tsv)")


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


def is_conditional_branch(insn: Insn) -> bool:
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

"""Disassemble an ARM ELF with the M3 toolchain (`arm-none-eabi-objdump -d`
and `nm`); the listing is parsed, and its instructions classified, by
toolkit.disasm.arm.  base_mnemonic reduces a mnemonic to an entry of the
timing table (m3/cm3_timing.tsv, m3/cm4_timing.tsv)."""
from __future__ import annotations

import subprocess
from pathlib import Path

from toolkit.disasm.arm import CONDS, Insn, parse_objdump

from .toolchain import ARM_NM, ARM_OBJDUMP, M3Error

__all__ = ["Insn", "CONDS", "disassemble", "symbols", "base_mnemonic"]


def disassemble(elf: Path) -> dict[int, Insn]:
    """Every instruction of the ELF's code sections, by address."""
    res = subprocess.run([ARM_OBJDUMP, "-d", str(elf)], capture_output=True, text=True)
    if res.returncode != 0:
        raise M3Error(f"objdump failed on {elf}: {res.stderr.strip()[:200]}")
    insns = parse_objdump(res.stdout)
    if not insns:
        raise M3Error(f"no instructions found in {elf}")
    return insns


def symbols(elf: Path, kinds: str = "tTW") -> dict[str, tuple[int, int]]:
    """Symbols of the nm types in ``kinds`` (by default the functions):
    name -> (address with the Thumb bit cleared, size)."""
    res = subprocess.run([ARM_NM, "-S", "--defined-only", str(elf)],
                         capture_output=True, text=True)
    if res.returncode != 0:
        raise M3Error(f"nm failed on {elf}: {res.stderr.strip()[:200]}")
    out: dict[str, tuple[int, int]] = {}
    for line in res.stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[2] in kinds:
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
    raise M3Error(f"no timing for instruction '{mnem}' (add it to the core's table, m3/cm*_timing.tsv)")

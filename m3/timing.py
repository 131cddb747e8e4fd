"""The cycle model of a core: its table (cm3_timing.tsv for the Cortex-M3,
cm4_timing.tsv for the Cortex-M4; worst case per instruction, from the
core's TRM timing table) applied to executed instructions."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from toolkit.disasm.arm import CONDS, Insn

from .disasm import base_mnemonic
from .toolchain import M3, M3_DIR, Core, M3Error

TABLE = M3_DIR / "cm3_timing.tsv"


@dataclass(frozen=True)
class Cost:
    base: int
    per_reg: int
    refill: bool


@dataclass(frozen=True)
class Model:
    refill: int               # P, worst case
    costs: dict[str, Cost]

    def cycles(self, insn: Insn, pc_written: bool) -> int:
        """Worst-case cycles of one executed instruction; `pc_written` says
        whether it changed the PC (a taken branch, a pop into pc...), which
        the trace tells."""
        cost = self.costs[base_mnemonic(insn.mnemonic, set(self.costs))]
        regs = _register_count(insn.operands) if cost.per_reg else 0
        extra = self.refill if (cost.refill and pc_written) else 0
        return cost.base + cost.per_reg * regs + extra


def _register_count(operands: str) -> int:
    """Registers in a {...} list, ranges such as r4-r7 included."""
    m = re.search(r"\{([^}]*)\}", operands)
    if not m:
        raise M3Error(f"no register list in '{operands}'")
    count = 0
    for item in m.group(1).split(","):
        ends = re.findall(r"\d+", item)
        count += int(ends[1]) - int(ends[0]) + 1 if "-" in item and len(ends) == 2 else 1
    return count


def load(path: Path = TABLE) -> Model:
    """The model of one table file."""
    refill: int | None = None
    costs: dict[str, Cost] = {}
    for line in path.read_text().splitlines():
        if line.startswith("#P\t"):
            refill = int(line.split("\t")[1])
            continue
        if not line.strip() or line.startswith("#") or line.startswith("mnemonic\t"):
            continue
        cols = line.split("\t")
        if len(cols) < 5 or cols[0] in CONDS:
            raise M3Error(f"{path.name}: malformed row '{line}'")
        costs[cols[0]] = Cost(int(cols[1]), int(cols[2]), cols[3] == "1")
    if refill is None or not costs:
        raise M3Error(f"{path.name}: missing #P line or rows")
    return Model(refill, costs)


def for_core(core: Core = M3) -> Model:
    """The cycle model of `core` (its table in m3/)."""
    return load(M3_DIR / core.timing_table)

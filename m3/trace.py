"""Executed-instruction counts per call, from a QEMU execution trace.

QEMU is run with -singlestep (one guest instruction per translation block)
and `-d exec,nochain` (log every block executed, block chaining off so that
no execution escapes the log), so the trace is the exact sequence of
executed instruction addresses.  A call of a function F starts when the PC
reaches F's entry address and ends when the PC reaches the return address
(the address after the calling instruction); everything executed in between
(F, its callees, libgcc helpers, the return itself) is one call's count.
"""
from __future__ import annotations

import re
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from toolkit.disasm.arm import Insn, writes_pc
from .timing import Model
from .toolchain import M3, Core, M3Error, run_qemu

# "Trace 0: 0x7f58fc000100 [00800400/00000040/00000110/ff000201] m3_reset"
_TRACE = re.compile(r"^Trace \d+: 0x[0-9a-f]+ \[[0-9a-f]+/([0-9a-f]+)/")

TRACE_ARGS = ["-singlestep", "-d", "exec,nochain"]


@dataclass
class CallStats:
    counts: list[int] = field(default_factory=list)     # instructions, per call
    cycles: list[int] = field(default_factory=list)     # worst-case model, per call
    histogram: Counter[str] = field(default_factory=Counter)  # summed over calls

    def per_call_histogram(self) -> dict[str, float]:
        """Mean executed count of each mnemonic per call (an integer when
        every call executed the same number of it)."""
        n = len(self.counts)
        return {k: (v // n if v % n == 0 else round(v / n, 3))
                for k, v in sorted(self.histogram.items())}


def trace_pcs(elf: Path, args: list[str] = TRACE_ARGS, core: Core = M3) -> list[int]:
    """Run `elf` under the tracing options; return the executed PCs (one per
    instruction with the default options, one per translation block
    without -singlestep)."""
    with tempfile.TemporaryDirectory(prefix="m3trace") as tmp:
        log = Path(tmp) / "exec.log"
        res = run_qemu(elf, args + ["-D", str(log)], core=core)
        if res.returncode != 0:
            raise M3Error(f"traced run of {elf.name} exited with status {res.returncode}")
        pcs: list[int] = []
        with log.open() as fh:
            for line in fh:
                m = _TRACE.match(line)
                if m:
                    pcs.append(int(m.group(1), 16))
    if not pcs:
        raise M3Error(f"empty execution trace for {elf.name}")
    return pcs


def per_call(pcs: list[int], insns: dict[int, Insn], entries: dict[str, int],
             model: Model) -> dict[str, CallStats]:
    """Split the trace into calls of the functions at `entries` (name ->
    entry address) and count each call's instructions, worst-case cycles
    and mnemonics.  A PC missing from the disassembly is an error: it would
    mean the trace and the ELF disagree."""
    by_addr = {addr: name for name, addr in entries.items()}
    stats = {name: CallStats() for name in entries}
    current: str | None = None
    ret_addr = 0
    count = cycles = 0
    hist: Counter[str] = Counter()
    for i, pc in enumerate(pcs):
        if current is None:
            name = by_addr.get(pc)
            if name is None:
                continue
            caller = insns.get(pcs[i - 1]) if i > 0 else None
            if caller is None:
                raise M3Error(f"call of {name} from an unknown address")
            current, ret_addr = name, caller.addr + caller.size
            count = cycles = 0
            hist = Counter()
        elif pc == ret_addr:
            st = stats[current]
            st.counts.append(count)
            st.cycles.append(cycles)
            st.histogram.update(hist)
            current = None
            continue
        insn = insns.get(pc)
        if insn is None:
            raise M3Error(f"traced PC 0x{pc:x} is not an instruction of the ELF")
        nxt = pcs[i + 1] if i + 1 < len(pcs) else pc + insn.size
        taken = writes_pc(insn) and nxt != pc + insn.size
        count += 1
        cycles += model.cycles(insn, taken)
        hist[insn.mnemonic] += 1
    return stats

"""Executed-instruction counts from SysTick under `-icount shift=0`.

With -icount, QEMU's virtual clock advances by 2^shift ns per executed
instruction (1 ns for shift=0) instead of following the host's clock.  The
mps2-an385 and mps2-an386 models clock the core (and so SysTick with
CLKSOURCE=1) at 25 MHz, one tick per 40 ns: SysTick then decrements once every 40
instructions.  The bench program times N and 2N calls of each function and
of m3_null (a one-instruction function) through the same loop code, so

    count(F) = ((T_F(2N) - T_F(N)) - (T_null(2N) - T_null(N))) * 40 / N + 1

with the fixed overhead cancelled by the N/2N difference and the per-call
loop overhead by the null baseline.  The resolution is 40/N instructions
per call; the unit test checks the 40 on m3_known, whose count is known.
"""
from __future__ import annotations

import re
from pathlib import Path

from .toolchain import M3, Core, M3Error, run_qemu

ICOUNT_ARGS = ["-icount", "shift=0"]
INSNS_PER_TICK = 40       # 25 MHz CPU clock at 1 ns per instruction
NULL_BODY = 1             # m3_null is a single bx lr

# "sys <label> <calls> <ticks>"
_SYS = re.compile(r"^sys (\S+) (\d+) (\d+)$")


def measure(elf: Path, core: Core = M3) -> dict[str, float]:
    """Per-call instruction counts of every label the bench program timed,
    relative to the null baseline of the same loop shape."""
    res = run_qemu(elf, ICOUNT_ARGS, core=core)
    if res.returncode != 0:
        raise M3Error(f"bench run of {elf.name} exited with status {res.returncode}")
    spans: dict[str, dict[int, int]] = {}
    for line in res.output.splitlines():
        m = _SYS.match(line)
        if m:
            spans.setdefault(m.group(1), {})[int(m.group(2))] = int(m.group(3))
    if not spans:
        raise M3Error(f"no SysTick figures in the output of {elf.name}")

    def delta(label: str) -> tuple[int, float]:
        by_n = spans[label]
        if len(by_n) != 2:
            raise M3Error(f"{elf.name}: expected N and 2N timings for {label}")
        n1, n2 = sorted(by_n)
        if n2 != 2 * n1:
            raise M3Error(f"{elf.name}: {label} timed at {n1} and {n2} calls, not N and 2N")
        return n1, float(by_n[n2] - by_n[n1])

    out: dict[str, float] = {}
    for label in spans:
        if label.startswith("null"):
            continue
        shape = "null32" if label.endswith("32") else ("null1" if label == "eval" else "null2")
        n, d_f = delta(label)
        _, d_null = delta(shape)
        out[label] = (d_f - d_null) * INSNS_PER_TICK / n + NULL_BODY
    return out

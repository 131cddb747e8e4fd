"""Instructions per iteration of a timing loop, counted in its machine code.

For the rows valgrind cannot run (AVX-512: bench/callgrind.py), the
instructions of one call are read from the binary instead: objdump the
row's chain loop (a noinline function of bench/loops.h), find its loop (the
last backward jump to an address inside the function) and count the
instructions from the jump's target to the jump.  The loop body is
straight-line code (the kernel has no branch), so this static count is
what one iteration executes, as callgrind would count it.
"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

_LINE = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*)$")


class StaticCountError(Exception):
    """objdump failed, or the function or its loop was not found."""


def disassemble(binary: Path, function: str) -> list[tuple[int, str, str]]:
    """(address, mnemonic, operands) of every instruction of `function`."""
    proc = subprocess.run(["objdump", "-d", "--no-show-raw-insn", f"--disassemble={function}", str(binary)],
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise StaticCountError(f"objdump on {binary} failed: {proc.stderr.strip()[:200]}")
    out = []
    for line in proc.stdout.splitlines():
        m = _LINE.match(line)
        if m:
            out.append((int(m.group(1), 16), m.group(2), m.group(3)))
    if not out:
        raise StaticCountError(f"{function}: not found in {binary}")
    return out


def loop_instructions(binary: Path, function: str) -> int:
    """Instructions of one iteration of the last loop of `function`."""
    code = disassemble(binary, function)
    start, end = code[0][0], code[-1][0]
    for i in range(len(code) - 1, -1, -1):
        address, mnemonic, operands = code[i]
        target = re.match(r"([0-9a-f]+)\b", operands)
        if mnemonic.startswith("j") and target and start <= int(target.group(1), 16) < address <= end:
            first = int(target.group(1), 16)
            return sum(1 for a, _, _ in code if first <= a <= address)
    raise StaticCountError(f"{function}: no loop found")

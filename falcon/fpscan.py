"""Scan an object file's disassembly for floating-point instructions.

x86-64 only: an instruction counts as floating point when it names an
SSE/AVX register (%xmm, %ymm, %zmm), an x87 register (%st), or its mnemonic
is an x87 one (f...: fld, fmul, fistp, ...).  The emulated-float adaptor
must have none; the native adaptor is the control that must have some.

Usage: python3 -m falcon.fpscan OBJECT FUNCTION
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

_FP_OPERAND = re.compile(r"%[xyz]mm[0-9]+|%st\b")
_X87 = re.compile(r"^f[a-z0-9]*$")
# Mnemonics that start with f but are not x87.
_NOT_X87 = {"fence"}


def function_lines(obj: Path, function: str) -> list[str]:
    """The instruction lines of `function` in `obj` (objdump -d)."""
    done = subprocess.run(["objdump", "-d", "--no-show-raw-insn", str(obj)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"objdump {obj}: {done.stderr.strip()}")
    lines: list[str] = []
    inside = False
    for line in done.stdout.splitlines():
        if line.endswith(">:"):
            inside = line.split("<", 1)[1].rstrip(">:") == function
            continue
        if inside and "\t" in line:
            lines.append(line.split("\t", 1)[1].strip())
    if not lines:
        raise RuntimeError(f"{obj}: no function {function}")
    return lines


def fp_instructions(lines: list[str]) -> list[str]:
    """The floating-point instructions among disassembled `lines`."""
    found = []
    for ins in lines:
        mnemonic = ins.split()[0] if ins.split() else ""
        if _FP_OPERAND.search(ins) or (_X87.match(mnemonic) and mnemonic not in _NOT_X87):
            found.append(ins)
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -m falcon.fpscan OBJECT FUNCTION", file=sys.stderr)
        return 2
    try:
        bad = fp_instructions(function_lines(Path(argv[0]), argv[1]))
    except RuntimeError as exc:
        print(f"fpscan: error: {exc}", file=sys.stderr)
        return 2
    print(f"{argv[1]}: {len(bad)} floating-point instruction(s)")
    for ins in bad:
        print(f"  {ins}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Scan an object file's disassembly for floating-point instructions.

x86-64 only; what counts as floating point is toolkit.disasm.x86.is_fp (an
x87, VEX or conversion mnemonic, or any x87, MMX or SSE/AVX register).  The
emulated-float adaptor must have none; the native adaptor is the control
that must have some.

Usage: python3 -m falcon.fpscan OBJECT FUNCTION
"""
from __future__ import annotations

import sys
from pathlib import Path

from toolkit.disasm import x86


def function_lines(obj: Path, function: str) -> list[str]:
    """The instructions of `function` in `obj`, as text ("mnemonic operands")."""
    insns = x86.parse_objdump(x86.objdump(obj)).get(function)
    if not insns:
        raise RuntimeError(f"{obj}: no function {function}")
    return [insn.text for insn in insns]


def fp_instructions(lines: list[str]) -> list[str]:
    """The floating-point instructions among disassembled `lines`."""
    return [line for line in lines if x86.is_fp(x86.parse_insn(line))]


def main(argv: list[str]) -> int:
    """Print the function's floating-point instructions; 1 if it has any."""
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

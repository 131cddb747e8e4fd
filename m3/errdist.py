"""The measured error distribution of a target's headline entry (issue 15,
item 3): its outputs on the emulated core for two fixed input sets, against
ccs exp(-x) 2^63 computed in 50-digit decimal arithmetic from the doubles
passed.  Errors are signed, in units of 2^-63 (output minus exact), so a
rounding bias shows in the mean.

  uniform  x uniform in [0, ln 2), ccs uniform in [0.61, 1) (the range of
           ccs in Falcon's sampler, FACCT.md);
  small    x = 2^-k (1 + f), k in 12..40 and f in [0, 1) uniform, so
           x in [2^-40, 2^-11), where a bias of the first segment shows;
           ccs as above.
"""
from __future__ import annotations

import math
import random
import struct
from decimal import Context, Decimal
from pathlib import Path

from .toolchain import M3Error
from .vectors import Row, write_header

SETS = ("uniform", "small")
PER_SET = 1000
SEED = 15
_CTX = Context(prec=50)
_LN2 = math.log(2.0)


def _bits(v: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def _value(bits: int) -> Decimal:
    return Decimal(struct.unpack("<d", struct.pack("<Q", bits))[0])


def inputs() -> dict[str, list[Row]]:
    """The two input sets (x_bits, ccs_bits; no oracle column), fixed by SEED."""
    rng = random.Random(SEED)
    sets: dict[str, list[Row]] = {}
    for name in SETS:
        rows = []
        for _ in range(PER_SET):
            if name == "uniform":
                x = min(rng.random() * _LN2, math.nextafter(_LN2, 0.0))
            else:
                x = math.ldexp(1.0 + rng.random(), -rng.randint(12, 40))
            ccs = 0.61 + 0.39 * rng.random()
            rows.append(Row(_bits(x), _bits(min(ccs, math.nextafter(1.0, 0.0))), 0))
        sets[name] = rows
    return sets


def exact_2p63(row: Row) -> Decimal:
    """ccs exp(-x) 2^63 for the row's doubles, to 50 digits."""
    x, ccs = _value(row.x_bits), _value(row.ccs_bits)
    return _CTX.multiply(_CTX.multiply(ccs, _CTX.exp(-x)), Decimal(2) ** 63)


def write_set(rows: list[Row], folder: Path) -> Path:
    """vectors.h of one set, for kprog.c's vector mode."""
    return write_header(rows, folder / "vectors.h")


def stats(output: str, column: int, rows: list[Row]) -> dict[str, float]:
    """Mean and largest |error| of the output column `column` (0-based,
    hex words of kprog.c's vector lines) against the exact values."""
    lines = output.splitlines()
    if len(lines) != len(rows) + 1 or lines[-1] != f"end {len(rows)}":
        raise M3Error(f"error run printed {len(lines)} lines, expected {len(rows)} + end")
    errs = [Decimal(int(line.split()[column], 16)) - exact_2p63(row)
            for line, row in zip(lines, rows)]
    mean = sum(errs, Decimal(0)) / len(errs)
    return {"mean": round(float(mean), 3), "max": round(float(max(abs(e) for e in errs)), 3)}

"""The operation list of a form = "eft" kernel run in Python, exactly as
the C does it: every binary64 operation is its exact value rounded to
nearest even (Fraction -> float is correctly rounded), integers mod 2^64.

The generator's self-check (gen/eft/__init__.py) runs it against mpmath
before it renders anything, and the tests compare it bit for bit with the
rendered C (tests/test_eft.py), so a rendering that strays from the list
is caught by two independent routes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..falcon import LN2_DOWN
from .design import (C_FLUSH, X_FLUSH, Design, INDEX_OPS, bits, constants, exact, main_ops)

MASK64 = (1 << 64) - 1
X_FLUSH_BITS = bits(float(X_FLUSH))
C_FLUSH_BITS = bits(float(C_FLUSH))
MAGIC_BITS = bits(1.5 * 2.0 ** 52)


def signed(b: int) -> int:
    """A 64-bit pattern as a two's-complement integer."""
    return b - (1 << 64) if b >> 63 else b


@dataclass
class Trace:
    """Every value one evaluation computed, by name (the inputs after the
    flush included), for the self-check's invariants."""

    values: dict[str, float] = field(default_factory=dict)
    exact: dict[str, Fraction] = field(default_factory=dict)   # the exact value each operation rounded


def flush(v: float, min_bits: int) -> float:
    """v, or +0 when its bit pattern as a signed integer is below min_bits
    (negative numbers, -0, NaN with the sign set, and small positives)."""
    return v if signed(bits(v)) >= min_bits else 0.0


def _max(a: float, b: float) -> float:
    """MAXSD/MAXPD: the second operand unless a > b (so NaN gives b)."""
    return a if a > b else b


def _min(a: float, b: float) -> float:
    """MINSD/MINPD: the second operand unless a < b."""
    return a if a < b else b


def kernel(d: Design, x: float, ccs: float, trace: Trace | None = None) -> int:
    """_domain(x, ccs): the flush, the operation list, the assembly."""
    t = trace if trace is not None else Trace()
    xf = flush(x, X_FLUSH_BITS)
    cf = flush(ccs, C_FLUSH_BITS)
    env: dict[str, float] = {k: float(v) for k, v in constants(d).items()}
    env["x"] = xf
    env["ccs"] = cf
    for op in INDEX_OPS:
        _run(op, env, t)
    j = bits(env["m"]) & 15
    env["Eh"], env["El"] = d.eh63[j], d.el63[j]
    for op in main_ops(len(d.poly) - 1):
        _run(op, env, t)
    t.values.update(env)
    big = (bits(env["s3"]) << 12) & MASK64
    small = int(round(Fraction(env["sm3"])))     # round half to even, as VCVTPD2QQ and the magic add
    return (big + small) & MASK64


def _run(op, env: dict[str, float], trace: Trace) -> None:
    v = exact(op.kind, *(Fraction(env[a]) for a in op.args))
    trace.exact[op.dest] = v
    env[op.dest] = float(v)


def native(d: Design, x: float, ccs: float) -> int:
    """_native(x, ccs): the edge rules (the flush, then x clamped to
    [0, the double below ln 2] and ccs to [0, 1], NaN to 0), then the kernel."""
    xf = _min(_max(flush(x, X_FLUSH_BITS), 0.0), float(LN2_DOWN))
    cf = _min(_max(flush(ccs, C_FLUSH_BITS), 0.0), 1.0)
    return kernel(d, xf, cf)

"""Exact conversions between mpmath numbers and Python Fractions.

mpmath stores a binary number as (sign, mantissa, exponent, bitcount);
these helpers read that tuple directly so that no rounding happens on the
way to exact rational arithmetic.
"""

from __future__ import annotations

import struct

from fractions import Fraction
from typing import Any

import mpmath
from mpmath.libmp import from_man_exp


def _raw_to_fraction(raw: tuple[int, int, int, int]) -> Fraction:
    sign, man, exp, _ = raw
    if man == 0 and exp != 0:
        raise ValueError("infinite or NaN value")
    value = Fraction(man << exp) if exp >= 0 else Fraction(man, 1 << -exp)
    return -value if sign else value


def mpf_to_fraction(x: Any) -> Fraction:
    """The exact value of an mpmath ``mpf`` (read as stored, not rounded to
    the current precision, which may be lower than the one it was made at)."""
    return _raw_to_fraction(x._mpf_ if isinstance(x, mpmath.mpf) else mpmath.mpf(x)._mpf_)


def interval_to_fractions(x: Any) -> tuple[Fraction, Fraction]:
    """The exact end points (lo, hi) of an ``mpmath.iv`` interval."""
    lo, hi = x._mpi_
    return _raw_to_fraction(lo), _raw_to_fraction(hi)


def fraction_to_interval(q: Fraction) -> Any:
    """The tightest ``mpmath.iv`` interval at the current iv precision holding q."""
    return mpmath.iv.mpf(q.numerator) / q.denominator


def int_to_mpf_exact(n: int, exp: int = 0) -> Any:
    """n * 2^exp as an exact mpf, whatever the working precision."""
    return mpmath.mpf(from_man_exp(n, exp))


def double_bits(v: float) -> int:
    """The IEEE-754 binary64 bit pattern of v."""
    return struct.unpack("<Q", struct.pack("<d", v))[0]


def double_from_bits(b: int) -> float:
    """The binary64 value of a bit pattern."""
    return struct.unpack("<d", struct.pack("<Q", b))[0]

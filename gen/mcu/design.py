"""The layout of a form = "mcu" kernel: its segments, the fixed-point
format of every Horner value, the limbs each product reads and the table
words, all fixed by the form; and the product plan (how many limb columns
each product keeps), which the config chooses.

Segments: 89 of width 2^-7 cover [0, ln 2); z = floor(x 2^64) (Q0.64),
the row is j = z >> 57 and T = (z mod 2^57) / 2^57 in [0, 1).  Per row a
degree-5 polynomial p(T) = a0 - T (a1 - T (a2 - T (a3 - T (a4 - T a5))))
with every a_i >= 0 (exp(-x)'s Taylor signs alternate), so each Horner
step subtracts a non-negative product:

    y4 = a4 - T a5,  y3 = a3 - T y4,  ...,  y0 = a0 - T y1,

and R = y0 M 2^63 for ccs = M 2^-s (M in [1, 2)); the result is R >> s.

Every product is a sum of 15-bit-limb partial products (MUL and MLA:
32-bit results, the same time for every operand on a Cortex-M3).  The
limbs of one operand are spaced 15 bits apart, so the partial products
of T's limb i and y's limb k with the same i + k (a "column") share one
unit; a product that keeps n columns sums the columns 0 .. n-1, the
lowest of them carried into the next (c_{n-2} += c_{n-1} >> 15), and
leaves the rest out.  What it leaves out, the low bits its limbs drop and
every floor of a carry or a right shift are the product's loss
(gen/mcu/proof.py bounds it; gen/mcu/model.py computes it).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction as F
from typing import Callable

SEGMENT_BITS = 7
ROWS = 89                  # ceil(ln 2 * 2^7): rows 0..88
DEGREE = 5
T_BITS = 64 - SEGMENT_BITS  # T = bits 56..0 of z
W15 = (1 << 15) - 1
ROW_WORDS = 8               # uint32_t words per table row (32 bytes)

Word = Callable[[dict[str, int]], int]


@dataclass(frozen=True)
class Limb:
    """One limb of an operand: its C expression (of the variables the
    kernel holds), the same in Python (of a dict of those variables), the
    largest value the limb can take as the layout allows it (the proof
    may assume less: Step.top_max) and its weight (value = limb x weight)."""

    c: str
    py: Word
    largest: int
    weight: F


def _ubfx(v: int, lsb: int, width: int) -> int:
    return (v >> lsb) & ((1 << width) - 1)


# T's limbs, from zh:zl = z (T1 = bits 56..42, T2 = 41..27, T3 = 26..12, T4 = bits 11..0 << 3).
T_LIMBS = (
    Limb("UBFX(zh, 10, 15)", lambda v: _ubfx(v["zh"], 10, 15), W15, F(1, 2 ** 15)),
    Limb("BFI(zl >> 27, zh, 5, 10)", lambda v: (v["zl"] >> 27) | (_ubfx(v["zh"], 0, 10) << 5), W15, F(1, 2 ** 30)),
    Limb("UBFX(zl, 12, 15)", lambda v: _ubfx(v["zl"], 12, 15), W15, F(1, 2 ** 45)),
    Limb("(zl << 20) >> 17", lambda v: ((v["zl"] << 20) & 0xFFFFFFFF) >> 17, (1 << 15) - 8, F(1, 2 ** 60)),
)

# ccs's significand M in [1, 2) from its bit pattern ch:cl (W1 = the implicit bit and mantissa bits
# 51..38, W2 = 37..23, W3 = 22..8, W4 = bits 7..0 << 7): M = W1 2^-14 + W2 2^-29 + W3 2^-44 + W4 2^-59 exactly.
M_LIMBS = (
    Limb("UBFX(ch, 6, 14) | 0x4000u", lambda v: _ubfx(v["ch"], 6, 14) | 0x4000, W15, F(1, 2 ** 14)),
    Limb("BFI(cl >> 23, ch, 9, 6)", lambda v: (v["cl"] >> 23) | (_ubfx(v["ch"], 0, 6) << 9), W15, F(1, 2 ** 29)),
    Limb("UBFX(cl, 8, 15)", lambda v: _ubfx(v["cl"], 8, 15), W15, F(1, 2 ** 44)),
    Limb("(cl << 24) >> 17", lambda v: ((v["cl"] << 24) & 0xFFFFFFFF) >> 17, 255 << 7, F(1, 2 ** 59)),
)


def _words64(unit_log2: int, top: str) -> tuple[Limb, ...]:
    """The limbs of a 64-bit Horner word hi:lo in units of 2^unit_log2:
    top = "hi" (the whole high word, 2^32 units) or "hi15" (hi >> 15 and
    hi & 0x7fff), then lo >> 17 and bits 16..2 of lo; bits 1..0 are dropped."""
    u = F(2) ** unit_log2
    head = ((Limb("hi", lambda v: v["hi"], 0xFFFFFFFF, u * 2 ** 32),) if top == "hi" else
            (Limb("hi >> 15", lambda v: v["hi"] >> 15, (1 << 17) - 1, u * 2 ** 47),
             Limb("hi & 0x7fffu", lambda v: v["hi"] & W15, W15, u * 2 ** 32)))
    return head + (Limb("lo >> 17", lambda v: v["lo"] >> 17, W15, u * 2 ** 17),
                   Limb("UBFX(lo, 2, 15)", lambda v: _ubfx(v["lo"], 2, 15), W15, u * 4))


@dataclass(frozen=True)
class Step:
    """One product: the value it makes (``name``), the operand whose limbs
    it reads (``source``) with their layout, the bits those limbs leave
    out (at most ``dropped``, as a value), the largest top limb the proof
    assumes (``top_max``: proof.py checks the Horner ranges against it),
    the unit of the result and whether the result is a 64-bit word."""

    name: str
    source: str
    limbs: tuple[Limb, ...]
    dropped: F
    top_max: int
    unit: F
    wide: bool

    @property
    def x_limbs(self) -> tuple[Limb, ...]:
        return M_LIMBS if self.name == "r" else T_LIMBS

    @property
    def max_columns(self) -> int:
        return len(self.x_limbs) + len(self.limbs) - 1


# The Horner steps from the top, then the ccs product.  Units: y4 2^-64 (32 bits: a4's word),
# y3 2^-70, y2 2^-62, y1 2^-69, y0 2^-62 (64 bits), R 2^-63.
STEPS = (
    Step("y4", "a5", (Limb("w7 & 0x7ffu", lambda v: v["a5"], (1 << 11) - 1, F(1, 2 ** 52)),), F(0), (1 << 11) - 1,
         F(1, 2 ** 64), False),
    Step("y3", "y4", (Limb("y4 >> 16", lambda v: v["y4"] >> 16, (1 << 16) - 1, F(1, 2 ** 48)),
                      Limb("UBFX(y4, 1, 15)", lambda v: _ubfx(v["y4"], 1, 15), W15, F(1, 2 ** 63))),
         F(1, 2 ** 64), (1 << 16) - 1, F(1, 2 ** 70), True),
    Step("y2", "y3", _words64(-70, "hi"), F(3, 2 ** 70), 1 << 15, F(1, 2 ** 62), True),
    Step("y1", "y2", _words64(-62, "hi"), F(3, 2 ** 62), 1 << 16, F(1, 2 ** 69), True),
    Step("y0", "y1", _words64(-69, "hi15"), F(3, 2 ** 69), 1 << 15, F(1, 2 ** 62), True),
    Step("r", "y0", _words64(-62, "hi15"), F(3, 2 ** 62), 1 << 15, F(1, 2 ** 63), True),
)

# The coefficients' units and how the table stores them (proof.py and the fit read them from here):
# a0, a1, a2 are 64-bit words (lo, hi) at units 2^-62, 2^-69, 2^-62; a3 (2^-55) is one word stored
# rotated right by 17 and read as the 64-bit value (w & 0x7fff) 2^32 + w at 2^-70; a4 (2^-64) is one
# word with a5 (2^-52, 11 bits) in its low 11 bits.
A_UNITS = (F(1, 2 ** 62), F(1, 2 ** 69), F(1, 2 ** 62), F(1, 2 ** 55), F(1, 2 ** 64), F(1, 2 ** 52))
A5_BITS = 11
A0_MAX = (1 << 62) - 1      # a0 < 1: y0 < 1, so R = y0 M 2^63 < 2^64


@dataclass(frozen=True)
class Column:
    """Column j of a product: its partial products (x limb i, operand limb
    k), its unit, and how it leaves: carried into column j - 1 (``shift``
    None) or added to the result shifted left by ``shift`` (negative: a
    right shift, whose floor is a loss)."""

    j: int
    pairs: tuple[tuple[int, int], ...]
    unit: F
    shift: int | None


def log2_exact(q: F) -> int:
    """n for q = 2^n (ValueError for any other q)."""
    n = q.numerator.bit_length() - 1 if q >= 1 else -((q.denominator - 1).bit_length())
    if F(2) ** n != q:
        raise ValueError(f"{q} is not a power of two")
    return n


def columns(step: Step, n: int) -> tuple[Column, ...]:
    """The n kept columns of ``step``.  The lowest is carried into the one
    above; in the 32-bit steps (y4, y3: one accumulator word) every column
    is, so only column 0 meets the result; in the 64-bit ones every other
    column is subtracted (added, for R) with its own shift."""
    xl, yl = step.x_limbs, step.limbs
    out = []
    for j in range(n):
        pairs = tuple((i, j - i) for i in range(len(xl)) if 0 <= j - i < len(yl))
        unit = xl[0].weight * yl[0].weight / F(2) ** (15 * j)
        carried = j > 0 and (j == n - 1 or step.name in ("y4", "y3"))
        out.append(Column(j, pairs, unit, None if carried else log2_exact(unit / step.unit)))
    return tuple(out)


@dataclass(frozen=True)
class Plan:
    """How many columns each product keeps, in STEPS order (y4 .. y0, R)."""

    columns: tuple[int, ...]

    @functools.cached_property
    def kept(self) -> tuple[tuple[Column, ...], ...]:
        """The kept columns of each step, in STEPS order."""
        return tuple(columns(step, n) for step, n in zip(STEPS, self.columns))


def check_plan(plan: Plan) -> str | None:
    """Why a plan cannot be rendered, or None: every shift must be one a
    Thumb-2 operand can take (1..31 either way; R's first column may go
    to the high word), and the 32-bit steps' result must come out of
    column 0 by a right shift (y4) or a left one below 32 (y3)."""
    for step, n in zip(STEPS, plan.columns):
        if not 1 <= n <= step.max_columns:
            return f"{step.name}: {n} columns (allowed 1 to {step.max_columns})"
        for col in columns(step, n):
            if col.shift is None:
                continue
            s = col.shift
            if step.name == "r":
                ok = 0 < s < 64 and s != 32
            elif step.name == "y4":
                ok = -31 <= s < 0
            else:
                ok = s != 0 and -31 <= s <= 31
            if not ok:
                return f"{step.name}: column {col.j} would need a shift of {s}, which the form does not render"
    return None


@dataclass(frozen=True)
class Row:
    """One table row: the coefficients as integers in their units (a3 as
    the value its rotated word stands for, in units of 2^-70)."""

    a: tuple[int, ...]      # a0 .. a5 in A_UNITS (a3 as stored: its unrotated 32-bit integer)

    @functools.cached_property
    def words(self) -> tuple[int, ...]:
        """The row's 8 table words."""
        a0, a1, a2, a3, a4, a5 = self.a
        rot3 = ((a3 >> 17) | (a3 << 15)) & 0xFFFFFFFF
        return (a0 & 0xFFFFFFFF, a0 >> 32, a1 & 0xFFFFFFFF, a1 >> 32, a2 & 0xFFFFFFFF, a2 >> 32, rot3,
                (a4 & ~((1 << A5_BITS) - 1)) | a5)

    def values(self) -> list[F]:
        """a0 .. a5 exactly as the kernel reads them."""
        w = self.words
        return [F(w[1] << 32 | w[0], 2 ** 62), F(w[3] << 32 | w[2], 2 ** 69), F(w[5] << 32 | w[4], 2 ** 62),
                F((w[6] & W15) << 32 | w[6], 2 ** 70), F(w[7], 2 ** 64), F(w[7] & ((1 << A5_BITS) - 1), 2 ** 52)]


def rotated_value(a3: int) -> F:
    """What the kernel reads from a3's word ROR(a3, 17): the 64-bit value
    (w & 0x7fff) 2^32 + w, in units of 2^-70 (a3 2^-55 plus a3's top 15
    bits again at 2^-87: the rotation costs nothing and moves a3 by less
    than 2^-72)."""
    return F((a3 << 15) + (a3 >> 17), 2 ** 70)

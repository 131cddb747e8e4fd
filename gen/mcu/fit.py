"""The table of a form = "mcu" kernel: per row a near-minimax fit,
quantized top-down to the bits the kernel reads, then a rounding bias
measured on the kernel's own arithmetic.

Fit.  Per row j (x = (j + T) 2^-7, T in [0, 1]), from the top
coefficient down: least squares of exp(-x) minus the coefficients
already fixed at FIT_NODES Chebyshev nodes of [0, 1] (mpmath at 50
digits; near-minimax for a function this smooth), the top coefficient
rounded to what its table word can hold (a5 to 11 bits in a4's word, a4
to the other 21 bits, a3 to the value its rotated word stands for),
fixed, and the rest fitted again.  The proof bounds the approximation of
the coefficients as the kernel reads them, whatever the fit chose.

Bias.  The truncated products only ever lose (each loss is >= 0 and
enters the result with an alternating sign), so the kernel's error has a
mean that a fit of the function alone does not see.  ``bias`` runs the
kernel's bit-exact model (gen/mcu/model.py) on ``samples`` inputs per row
(x uniform in the row, ccs uniform in [1/2, 1); a fixed seed), fits its
error e = alpha + beta T (units of 2^-63, against mpmath) by least
squares and returns offsets for a0 (one unit, 2^-62, moves the result by
2 ccs, 1.5 on average) and a1 (one unit, 2^-69, moves it by -T ccs / 64)
that cancel it.  The bias is part of the coefficients the proof reads.
"""

from __future__ import annotations

import random
from typing import Callable

import mpmath as mp

from ..errors import GenError
from ..exact import double_bits, double_from_bits
from .design import A0_MAX, A5_BITS, A_UNITS, ROWS, SEGMENT_BITS, Plan, Row, rotated_value
from ..falcon import LN2_DOWN_BITS
from .model import domain_bits

FIT_NODES = 48
BIAS_SEED = 777
PRECISION_DIGITS = 50


def _nodes() -> list:
    return [(1 - mp.cos(mp.pi * (2 * k + 1) / (2 * FIT_NODES))) / 2 for k in range(FIT_NODES)]


def _lsq(g: Callable, degree: int, nodes: list) -> list:
    a = mp.matrix([[t ** i for i in range(degree + 1)] for t in nodes])
    b = mp.matrix([g(t) for t in nodes])
    c = mp.qr_solve(a, b)[0]
    return [c[i] for i in range(degree + 1)]


def _scaled(v, unit) -> int:
    return int(mp.nint(v / (mp.mpf(unit.numerator) / unit.denominator)))


def _value(q) -> mp.mpf:
    return mp.mpf(q.numerator) / q.denominator


def fit_row(j: int, nodes: list) -> Row:
    """Row j's coefficients, before the bias."""
    width = mp.mpf(2) ** -SEGMENT_BITS
    x0 = j * width
    fixed: dict[int, mp.mpf] = {}

    def resid(t):
        return mp.exp(-(x0 + width * t)) - sum(v * t ** k for k, v in fixed.items())

    a5 = _scaled(-_lsq(resid, 5, nodes)[5], A_UNITS[5])
    if not 0 < a5 < 1 << A5_BITS:
        raise GenError(f"form 'mcu': row {j}: a5 = {a5} does not fit its {A5_BITS} bits")
    fixed[5] = -_value(a5 * A_UNITS[5])
    want4 = _lsq(resid, 4, nodes)[4] * 2 ** 64 - a5
    a4 = int(mp.nint(want4 / 2 ** A5_BITS)) * 2 ** A5_BITS + a5
    fixed[4] = _value(a4 * A_UNITS[4])
    want3 = -_lsq(resid, 3, nodes)[3]
    a3 = _scaled(want3, A_UNITS[3])
    a3 = min((a3 - 1, a3, a3 + 1), key=lambda v: abs(_value(rotated_value(v)) - want3))
    fixed[3] = -_value(rotated_value(a3))
    a2 = _scaled(_lsq(resid, 2, nodes)[2], A_UNITS[2])
    fixed[2] = _value(a2 * A_UNITS[2])
    a1 = _scaled(-_lsq(resid, 1, nodes)[1], A_UNITS[1])
    fixed[1] = -_value(a1 * A_UNITS[1])
    a0 = min(_scaled(_lsq(resid, 0, nodes)[0], A_UNITS[0]), A0_MAX)
    return _checked(j, Row((a0, a1, a2, a3, a4, a5)))


def _checked(j: int, row: Row) -> Row:
    for name, v, bits in zip(("a0", "a1", "a2", "a3", "a4"), row.a, (64, 64, 64, 32, 32)):
        if not 0 < v < 1 << bits:
            raise GenError(f"form 'mcu': row {j}: {name} = {v} does not fit its {bits}-bit word")
    return row


def table() -> list[Row]:
    """Every row, before the bias."""
    with mp.workdps(PRECISION_DIGITS):
        nodes = _nodes()
        return [fit_row(j, nodes) for j in range(ROWS)]


def biased(rows: list[Row], offsets: tuple[list[int], list[int]]) -> list[Row]:
    """The rows with a0 and a1 moved by the offsets (a0 kept below 1)."""
    out = []
    for j, (row, d0, d1) in enumerate(zip(rows, *offsets)):
        a0, a1, *rest = row.a
        out.append(_checked(j, Row((min(a0 + d0, A0_MAX), a1 + d1, *rest))))
    return out


def bias(rows: list[Row], plan: Plan, samples: int) -> tuple[list[int], list[int]]:
    """The offsets that centre the model's error per row (see above)."""
    rng = random.Random(BIAS_SEED)
    b0, b1 = [], []
    with mp.workdps(25):
        for j in range(ROWS):
            n = st = stt = se = set_ = 0.0
            for _ in range(samples):
                x = min((j + rng.random()) / 2 ** SEGMENT_BITS, double_from_bits(LN2_DOWN_BITS))
                c = 0.5 + 0.5 * rng.random()
                got = domain_bits(rows, plan, double_bits(x), double_bits(c))
                e = float(got - mp.mpf(c) * mp.exp(-mp.mpf(x)) * mp.mpf(2) ** 63)
                t = x * 2 ** SEGMENT_BITS - j
                n, st, stt, se, set_ = n + 1, st + t, stt + t * t, se + e, set_ + e * t
            beta = (n * set_ - st * se) / (n * stt - st * st)
            alpha = (se - beta * st) / n
            b0.append(round(-alpha / 1.5))
            b1.append(round(beta * 64 / 0.75))
    return b0, b1
